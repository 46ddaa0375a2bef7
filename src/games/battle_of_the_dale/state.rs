//! The position: the map, Reserves, Captured piles, who is in, and what has
//! been done of the current turn.
//!
//! The fields of [`State`] are private to the game's folder: they keep
//! invariants the rules maintain together (the map's unit codes, every
//! army's units counted once on the map, in a Reserve or in a Captured
//! pile; the turn order and its masks in step; the turn's bookkeeping).

use crate::game::{Outcome, Side};

use super::board::{Hex, N_HEX};

/// The armies, as indexes into [`super::BattleOfTheDale`]'s `SIDES`.
pub const HUMAN: Side = Side(0);
/// Elf army.
pub const ELF: Side = Side(1);
/// Dwarf army.
pub const DWARF: Side = Side(2);
/// Goblin army.
pub const GOBLIN: Side = Side(3);
/// Falcon army.
pub const FALCON: Side = Side(4);

/// Every army, in army order.
pub const ARMIES: [Side; 5] = [HUMAN, ELF, DWARF, GOBLIN, FALCON];

/// `side` as a one-bit mask of armies (the masks `playing`, `out`,
/// `offers` and the settlers of a turn).
pub const fn bit(side: Side) -> u8 {
    1 << side.0
}

/// Army names, canonical case.
pub const ARMY: [&str; 5] = ["Human", "Elf", "Dwarf", "Goblin", "Falcon"];

/// The name of `side`'s army, e.g. `Elf`.
pub fn army(side: Side) -> &'static str {
    ARMY[usize::from(side)]
}
/// Two-letter army codes for the diagram.
pub const CODE: [&str; 5] = ["Hu", "El", "Dw", "Go", "Fa"];

/// A kind of unit.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    /// Regular.
    R = 0,
    /// Mounted.
    M = 1,
    /// Hero.
    H = 2,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 3] = [Kind::R, Kind::M, Kind::H];

    /// Kind from index 0..3.
    pub const fn from_index(i: u8) -> Kind {
        match i {
            0 => Kind::R,
            1 => Kind::M,
            _ => Kind::H,
        }
    }

    /// Index 0..3.
    pub const fn idx(self) -> usize {
        self as usize
    }

    /// Letter: R, M or H.
    pub const fn letter(self) -> char {
        match self {
            Kind::R => 'R',
            Kind::M => 'M',
            Kind::H => 'H',
        }
    }

    /// Name: Regular, Mounted or Hero.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::R => "Regular",
            Kind::M => "Mounted",
            Kind::H => "Hero",
        }
    }
}

/// The starting army of a side: Regulars, Mounted, Heroes.
pub const fn starting_army(side: Side) -> [u8; 3] {
    if side.0 == FALCON.0 {
        [5, 0, 1]
    } else {
        [4, 1, 1]
    }
}

/// Optional rules in play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Opts {
    /// Prisoner Exchange (off unless named).
    pub prisoner_exchange: bool,
    /// MAX 5 UNITS (on unless turned off).
    pub max5: bool,
    /// ARMS RACE (on unless turned off).
    pub arms_race: bool,
    /// HERO OR MOUNTED (on unless turned off).
    pub hero_or_mounted: bool,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            prisoner_exchange: false,
            max5: true,
            arms_race: true,
            hero_or_mounted: true,
        }
    }
}

/// What the turn's mandatory action has been so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Main {
    /// Nothing yet.
    None,
    /// A placement.
    Place,
    /// A move (for the Dwarf: of a Regular or the Mounted unit).
    Move,
    /// A lone move of the Dwarf Hero: the turn's action unless a placement
    /// or another move follows, which makes it the Berserk move.
    DwarfHero,
    /// A rally.
    Rally,
    /// A withdrawal.
    Withdraw,
    /// A prisoner exchange.
    Exchange,
}

/// A rally declared and waiting for its coin flips.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rally {
    /// The rallying army.
    pub side: Side,
    /// The Captured pile named, if any.
    pub pile: Option<Side>,
    /// The Goblin Horde's pre-declared placement, if any.
    pub at: Option<Hex>,
    /// Number of flips (2 for the Goblin Horde).
    pub flips: u8,
}

/// How a unit came to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum How {
    /// The turn's move.
    Main,
    /// The Dwarf Hero's Berserk move.
    Berserk,
    /// The Human Hero's Charge.
    Charge,
    /// Advance After Capture.
    Advance,
    /// An enemy unit forced forward by the Elf Hero.
    Forced,
}

/// Something that happened, for the turn comment. Each variant's fields
/// are named for what they hold.
#[allow(missing_docs)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// A unit placed.
    Place { side: Side, kind: Kind, hex: Hex },
    /// A unit moved.
    Move {
        side: Side,
        kind: Kind,
        from: Hex,
        to: Hex,
        how: How,
    },
    /// A unit captured.
    Capture {
        owner: Side,
        kind: Kind,
        hex: Hex,
        by: Side,
    },
    /// A unit retreated instead of being captured.
    Retreat {
        owner: Side,
        kind: Kind,
        from: Hex,
        to: Hex,
    },
    /// A player is out (reduced to a single unit).
    Out { side: Side },
    /// A rally declared.
    RallyDeclared {
        side: Side,
        pile: Option<Side>,
        at: Option<Hex>,
    },
    /// A rally settled.
    RallySettled {
        side: Side,
        heads: bool,
        from_pile: Option<Side>,
        placed: Option<Hex>,
    },
    /// The Mounted unit withdrawn.
    Withdraw { side: Side, from: Hex },
    /// Prisoners exchanged.
    Exchange { side: Side, with: Side },
    /// Standing consent to an exchange.
    Offer { side: Side, to: Side },
    /// A player resigned.
    Resign { side: Side },
}

/// Capacity of the event log of one turn.
pub const LOG_CAP: usize = 40;

/// The events of the latest turn (and the settlement before it).
#[derive(Clone, Copy, Debug)]
pub struct Log {
    /// Turn number the events belong to.
    pub turn: u32,
    /// Number of events kept.
    pub len: u8,
    /// Set when events were dropped for lack of room.
    pub overflow: bool,
    /// The events.
    pub ev: [Event; LOG_CAP],
}

impl Log {
    /// An empty log for `turn`.
    pub fn new(turn: u32) -> Self {
        Log {
            turn,
            len: 0,
            overflow: false,
            ev: [Event::Out { side: HUMAN }; LOG_CAP],
        }
    }

    /// Record an event.
    pub fn push(&mut self, e: Event) {
        if usize::from(self.len) < LOG_CAP {
            self.ev[usize::from(self.len)] = e;
            self.len += 1;
        } else {
            self.overflow = true;
        }
    }

    /// Call the turn's first Dwarf Hero move a Berserk move: it was made
    /// before the turn's action, which is known only once that follows.
    pub fn mark_berserk(&mut self) {
        let len = usize::from(self.len);
        if let Some(Event::Move { how, .. }) = self.ev[..len].iter_mut().find(|e| {
            matches!(
                e,
                Event::Move {
                    side: DWARF,
                    kind: Kind::H,
                    how: How::Main,
                    ..
                }
            )
        }) {
            *how = How::Berserk;
        }
    }

    /// The events kept.
    pub fn events(&self) -> &[Event] {
        &self.ev[..usize::from(self.len)]
    }
}

/// What has been done of the current turn.
#[derive(Clone, Copy, Debug)]
pub struct TurnState {
    /// Actions applied so far.
    pub acts: u8,
    /// The mandatory action so far.
    pub main: Main,
    /// The Dwarf Hero's Berserk move was made.
    pub berserk: bool,
    /// Hexes an Advance After Capture may enter now (0: none pending).
    pub adv_to: u32,
    /// A rally declared this turn.
    pub rally: Option<Rally>,
    /// The armies (bit per army) whose next line can settle a rally
    /// declared this turn, as the referee said when the turn began.
    pub settlers: u8,
}

impl Default for TurnState {
    fn default() -> Self {
        Self::new()
    }
}

impl TurnState {
    /// A fresh turn.
    pub const fn new() -> Self {
        TurnState {
            acts: 0,
            main: Main::None,
            berserk: false,
            adv_to: 0,
            rally: None,
            settlers: 0b1_1111,
        }
    }
}

/// The whole position: plain bytes, so that a copy (the referee plays
/// each turn in a spare copy of the position) is one `memcpy`.
#[derive(Clone, Copy, Debug)]
pub struct State {
    /// Per hex: 0 if empty, else `1 + 3 * side + kind`. Changed only
    /// through [`State::put`], [`State::clear`] and [`State::shift`],
    /// which keep `units` and `occupied` in step.
    board: [u8; N_HEX],
    /// Per unit code less one (`3 * side + kind`): the hexes holding such
    /// a unit.
    units: [u32; 15],
    /// The hexes holding a unit.
    occupied: u32,
    /// Reserve per side and kind.
    pub(super) reserve: [[u8; 3]; 5],
    /// Captured piles: `pile[capturer][owner][kind]`.
    pub(super) pile: [[[u8; 3]; 5]; 5],
    /// The sides in turn order.
    pub(super) order: [Side; 5],
    /// How many sides play.
    pub(super) n: u8,
    /// Position of each side in the turn order (255: not playing).
    pub(super) pos: [u8; 5],
    /// Bit mask of the sides that play.
    pub(super) playing: u8,
    /// Bit mask of the sides that are out (eliminated or resigned).
    pub(super) out: u8,
    /// `offers[p]`: bit mask of the sides `p` consents to exchange with.
    pub(super) offers: [u8; 5],
    /// Optional rules.
    pub(super) opts: Opts,
    /// The side to move.
    pub(super) mover: Side,
    /// Turn number, from 1.
    pub(super) turn_no: u32,
    /// How the game stands: going on, won by one army, or drawn.
    pub(super) result: Outcome,
    /// Hexes left by a retreat the Elf Hero gave since the Elf's last turn.
    pub(super) force_mask: u32,
    /// A rally waiting for its flips.
    pub(super) pending: Option<Rally>,
    /// The current turn.
    pub(super) t: TurnState,
    /// Events of the latest turn.
    pub(super) log: Log,
}

/// Encode a unit for [`State::board`].
pub const fn unit_code(side: Side, kind: Kind) -> u8 {
    1 + 3 * side.0 + kind as u8
}

impl State {
    /// No army seated yet, an empty map, turn 1, the default options.
    pub fn empty() -> State {
        State {
            board: [0; N_HEX],
            units: [0; 15],
            occupied: 0,
            reserve: [[0; 3]; 5],
            pile: [[[0; 3]; 5]; 5],
            order: [HUMAN; 5],
            n: 0,
            pos: [255; 5],
            playing: 0,
            out: 0,
            offers: [0; 5],
            opts: Opts::default(),
            mover: HUMAN,
            turn_no: 1,
            result: Outcome::Ongoing,
            force_mask: 0,
            pending: None,
            t: TurnState::new(),
            log: Log::new(1),
        }
    }

    /// Seat `side` next in turn order (it does not play yet).
    pub fn seat(&mut self, side: Side) {
        let i = usize::from(self.n);
        self.order[i] = side;
        self.pos[usize::from(side)] = i as u8;
        self.playing |= bit(side);
        self.n += 1;
    }

    /// The unit on `h`, if any.
    pub fn unit(&self, h: Hex) -> Option<(Side, Kind)> {
        let c = self.board[h.idx()];
        if c == 0 {
            None
        } else {
            Some((Side((c - 1) / 3), Kind::from_index((c - 1) % 3)))
        }
    }

    /// The unit code of each hex (0: empty, else `1 + 3 * side + kind`).
    pub fn board(&self) -> &[u8; N_HEX] {
        &self.board
    }

    /// Put a unit of `side` and `kind` on `h` (in place of whatever stood
    /// there).
    pub fn put(&mut self, h: Hex, side: Side, kind: Kind) {
        self.clear(h);
        let code = unit_code(side, kind);
        if let (Some(mask), Some(cell)) = (
            self.units.get_mut(usize::from(code) - 1),
            self.board.get_mut(h.idx()),
        ) {
            *mask |= h.bit();
            *cell = code;
            self.occupied |= h.bit();
        }
    }

    /// Take whatever stands on `h` off the map.
    pub fn clear(&mut self, h: Hex) {
        let Some(cell) = self.board.get_mut(h.idx()) else {
            return;
        };
        if let Some(mask) = usize::from(*cell)
            .checked_sub(1)
            .and_then(|k| self.units.get_mut(k))
        {
            *mask &= !h.bit();
        }
        *cell = 0;
        self.occupied &= !h.bit();
    }

    /// Move the unit on `from` to `to` (which it takes whatever stood
    /// there from).
    pub fn shift(&mut self, from: Hex, to: Hex) {
        match self.unit(from) {
            Some((side, kind)) => {
                self.clear(from);
                self.put(to, side, kind);
            }
            None => self.clear(to),
        }
    }

    /// Mask of the occupied hexes.
    pub fn occupied(&self) -> u32 {
        self.occupied
    }

    /// Mask of `side`'s units.
    pub fn own(&self, side: Side) -> u32 {
        let k = 3 * usize::from(side);
        match self.units.get(k..k + 3) {
            Some(&[r, m, h]) => r | m | h,
            _ => 0,
        }
    }

    /// Per side and kind (index `3 * side + kind`), the mask of its
    /// units: every [`State::own_kind`] at once.
    pub fn kind_masks(&self) -> [u32; 15] {
        self.units
    }

    /// Mask of the units of one side and kind.
    pub fn own_kind(&self, side: Side, kind: Kind) -> u32 {
        let code = unit_code(side, kind);
        self.units.get(usize::from(code) - 1).copied().unwrap_or(0)
    }

    /// Where a side's unique unit of `kind` (Mounted or Hero) stands.
    pub fn find(&self, side: Side, kind: Kind) -> Option<Hex> {
        let m = self.own_kind(side, kind);
        if m == 0 {
            None
        } else {
            Some(Hex(m.trailing_zeros() as u8))
        }
    }

    /// Does `side` play and is it still in?
    pub fn in_game(&self, side: Side) -> bool {
        self.plays(side) && self.out & bit(side) == 0
    }

    /// Does `side` play in this game at all?
    pub fn plays(&self, side: Side) -> bool {
        side.0 < 5 && self.playing & bit(side) != 0
    }

    /// Number of sides still in.
    pub fn players_in(&self) -> u32 {
        (self.playing & !self.out).count_ones()
    }

    /// The sides in turn order.
    pub fn sides(&self) -> &[Side] {
        &self.order[..usize::from(self.n)]
    }

    /// Units of `side` on the map.
    pub fn map_count(&self, side: Side) -> u32 {
        self.own(side).count_ones()
    }

    /// Units of `side` on the map and in its Reserve.
    pub fn strength(&self, side: Side) -> u32 {
        self.map_count(side)
            + self.reserve[usize::from(side)]
                .iter()
                .map(|&x| u32::from(x))
                .sum::<u32>()
    }

    /// Units of `side` in anybody's Captured pile.
    pub fn captured_of(&self, side: Side) -> u32 {
        (0..5)
            .map(|p| {
                self.pile[p][usize::from(side)]
                    .iter()
                    .map(|&x| u32::from(x))
                    .sum::<u32>()
            })
            .sum()
    }

    /// Units of other sides in `side`'s Captured pile.
    pub fn prisoners_held(&self, side: Side) -> u32 {
        ARMIES
            .into_iter()
            .filter(|&o| o != side)
            .map(|o| {
                self.pile[usize::from(side)][usize::from(o)]
                    .iter()
                    .map(|&x| u32::from(x))
                    .sum::<u32>()
            })
            .sum()
    }

    /// The next side still in after `side` in turn order.
    pub fn next_in(&self, side: Side) -> Side {
        let n = usize::from(self.n);
        let p = usize::from(self.pos[usize::from(side)]);
        for k in 1..=n {
            let s = self.order[(p + k) % n];
            if self.in_game(s) {
                return s;
            }
        }
        side
    }

    /// Turn-order distance from `from` forward to `to` (1..n), for ties.
    pub fn after(&self, from: Side, to: Side) -> usize {
        let n = usize::from(self.n);
        let a = usize::from(self.pos[usize::from(from)]);
        let b = usize::from(self.pos[usize::from(to)]);
        (b + n - a) % n
    }

    /// Is the game over?
    pub fn over(&self) -> bool {
        self.result.is_over()
    }

    /// Start the log of the current turn if it belongs to an older turn.
    pub fn fresh_log(&mut self) {
        if self.log.turn != self.turn_no {
            // Emptied in place: the events past its length are never read.
            self.log.turn = self.turn_no;
            self.log.len = 0;
            self.log.overflow = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The masks as read hex by hex off the map's unit codes.
    fn mask_of(s: &State, wanted: impl Fn(u8) -> bool) -> u32 {
        (0..N_HEX)
            .filter(|&i| wanted(s.board[i]))
            .fold(0, |m, i| m | 1 << i)
    }

    /// One change of the map: a unit put (hex, side, kind), a hex
    /// cleared, a unit (or nothing) moved.
    #[derive(Clone, Debug)]
    enum Change {
        Put(u8, u8, u8),
        Clear(u8),
        Shift(u8, u8),
    }

    fn change() -> impl Strategy<Value = Change> {
        let hex = 0..N_HEX as u8;
        prop_oneof![
            3 => (hex.clone(), 0..5u8, 0..3u8).prop_map(|(h, s, k)| Change::Put(h, s, k)),
            1 => hex.clone().prop_map(Change::Clear),
            2 => (hex.clone(), hex).prop_map(|(a, b)| Change::Shift(a, b)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 2_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// The masks kept as the map changes are those read hex by hex
        /// off it, and a unit moved is the unit that stood on its hex.
        #[test]
        fn masks_kept_as_the_map_changes_are_those_read_hex_by_hex(
            changes in prop::collection::vec(change(), 1..60)
        ) {
            let mut s = State::empty();
            for change in changes {
                match change {
                    Change::Put(h, side, kind) => {
                        s.put(Hex(h), Side(side), Kind::from_index(kind));
                    }
                    Change::Clear(h) => s.clear(Hex(h)),
                    Change::Shift(a, b) => {
                        let moving = s.board[usize::from(a)];
                        let unmoved = s.board;
                        s.shift(Hex(a), Hex(b));
                        prop_assert_eq!(s.board[usize::from(b)], moving);
                        for i in (0..N_HEX).filter(|&i| i != usize::from(a) && i != usize::from(b)) {
                            prop_assert_eq!(s.board[i], unmoved[i]);
                        }
                        if a != b {
                            prop_assert_eq!(s.board[usize::from(a)], 0);
                        }
                    }
                }
                prop_assert_eq!(s.occupied(), mask_of(&s, |c| c != 0));
                let masks = s.kind_masks();
                for side in ARMIES {
                    let codes = 1 + 3 * side.0..=3 + 3 * side.0;
                    prop_assert_eq!(s.own(side), mask_of(&s, |c| codes.contains(&c)));
                    for kind in Kind::ALL {
                        let code = unit_code(side, kind);
                        let m = mask_of(&s, |c| c == code);
                        prop_assert_eq!(s.own_kind(side, kind), m);
                        prop_assert_eq!(masks[usize::from(code - 1)], m);
                    }
                }
            }
        }
    }
}
