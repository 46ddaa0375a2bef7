//! The rules: checking and making moves and breaches, generating them, the
//! search behind "use 4 movement points when any legal way exists,
//! otherwise the most a legal turn can use", and the turn as the engine
//! plays it (its start, actions, end and a resignation).

use crate::game::{Illegal, Side};
use crate::games::two_sides::opponent;

use super::action::{Action, Breach, Kind, Move};
use super::board::{
    adjacent, entry_cells, gate_between, is_entry, is_keep, neighbours, GateName, Name, GATES,
    HOME, HOME_TOUCH, KEEPS, NCELLS, NONE, ZONE,
};
use super::state::{Cell, LoggedMove, Pos, State, TurnLog, WinReason};

/// The side names, for reasons.
pub const SIDE_NAMES: [&str; 2] = ["White", "Black"];

/// The name of `side`.
pub fn side_name(side: Side) -> &'static str {
    SIDE_NAMES[usize::from(side)]
}

/// The name of the side holding cell `c` (one does: it is not empty).
fn holder_name(pos: &Pos, c: u8) -> &'static str {
    pos.holder(c).map_or("nobody", side_name)
}

/// Why an action may not be made (turned into text only when reported,
/// so that the move generator never allocates): the game is over, or one
/// of the checks refused it, each with reasons of its own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Why {
    /// The game is over.
    GameOver,
    /// The piece cannot leave its origin.
    Origin(Origin),
    /// The path cannot be taken.
    Path(Path),
    /// The piece cannot end its move where it does.
    Arrival(Arrival),
    /// The breach cannot be made.
    Breach(Breaching),
}

/// Why a piece cannot leave its origin ([`origin_check`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Origin {
    /// No pieces left in the mover's end zone.
    ZoneEmpty,
    /// A double or a split from the end zone.
    ZoneSingles,
    /// Nothing on the origin cell.
    NoPiece(u8),
    /// The origin holds the opponent's pieces.
    EnemyPiece(u8),
    /// No single of the mover on the origin.
    NoSingle(u8),
    /// No double of the mover on the origin (to move whole).
    NoDoubleToMove(u8),
    /// No double of the mover on the origin (to split).
    NoDoubleToSplit(u8),
    /// The piece(s) of this kind on the cell may not move again this turn.
    AlreadyMoved(u8, Kind),
    /// The double on the cell was made this turn.
    MadeThisTurn(u8),
}

/// Why a path cannot be taken ([`check_path`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Path {
    /// Not enough movement points left.
    NoPoints {
        /// Points left.
        left: u8,
        /// Points the move needs.
        need: u8,
    },
    /// More steps than the piece has.
    TooLong(Kind),
    /// The first step from the end zone is not an entry cell.
    NotEntry(u8),
    /// The entry cell is not empty.
    EntryOccupied(u8),
    /// Two consecutive cells of the path do not touch.
    NotAdjacent(u8, u8),
    /// A step from a cell to the same cell.
    Standstill(u8),
    /// A move given by its ends that no legal path connects.
    NoneFound(u8, u8),
    /// The path returns to a cell.
    Revisit(u8),
    /// A Gate on the path is closed.
    Gate(Gate),
    /// The path goes through a Keep.
    ThroughKeep(u8),
    /// The path goes through an occupied cell.
    Blocked(u8),
}

/// Why a Gate cannot be crossed ([`gate_check`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Gate {
    /// The Gate is closed to the mover.
    ClosedTo(u8),
    /// The Gate is closed to both sides.
    ClosedBoth(u8),
}

/// Why a piece cannot end its move where it does ([`dest_check`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arrival {
    /// The destination is a Keep held by the opponent.
    EnemyKeep(u8),
    /// The destination Keep already holds three stacks.
    KeepFull(u8),
    /// Fewer steps than the piece has, to an empty cell.
    WrongLength(Kind),
    /// Onto an own piece that it cannot stack with.
    StackTooHigh(u8, Kind),
    /// A single onto an enemy double.
    SingleVsDouble(u8),
    /// `apart` on a move that does not end in a Keep.
    ApartNotKeep(u8),
    /// `apart` on a double: a double never combines.
    ApartDouble,
    /// `apart` where the Keep holds no single of the mover.
    ApartNoSingle(u8),
    /// `apart` into a Keep that holds three stacks already.
    ApartFull(u8),
}

/// Why a breach cannot be made ([`check_breach`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Breaching {
    /// The breach target is no Keep.
    NotKeep(u8),
    /// The breach target is empty.
    NothingToBreach(u8),
    /// The breach target is the mover's own.
    OwnKeep(u8),
    /// Not enough points around the Keep.
    BreachShort {
        /// The Keep.
        keep: u8,
        /// Points needed.
        need: u8,
        /// Points the mover has around it.
        have: u8,
    },
    /// Not enough points around the opponent's home Keep.
    HomeShort {
        /// Points needed.
        need: u8,
        /// Points the mover has around it.
        have: u8,
    },
    /// A stack listed to move into a home Keep.
    HomeNoEntry,
    /// A cell listed to move in does not touch the Keep.
    NotTouching(u8, u8),
    /// No stack of the mover on a cell listed to move in.
    NoStackToMoveIn(u8),
    /// A cell listed twice to move in.
    MovedInTwice(u8),
    /// `apart` on a breach that moves in fewer than two singles.
    ApartBreach,
}

fn kind_word(kind: Kind) -> &'static str {
    if kind.is_single() {
        "single"
    } else {
        "double"
    }
}

/// The names of the side to move in `pos` and of its opponent.
fn names(pos: &Pos) -> (&'static str, &'static str) {
    (side_name(pos.side), side_name(opponent(pos.side)))
}

impl Why {
    /// The reason as a player reads it (`pos` is the position the action
    /// was tried in).
    pub fn text(self, pos: &Pos) -> String {
        match self {
            Why::GameOver => "the game is over".to_string(),
            Why::Origin(why) => why.text(pos),
            Why::Path(why) => why.text(pos),
            Why::Arrival(why) => why.text(pos),
            Why::Breach(why) => why.text(pos),
        }
    }
}

impl Origin {
    fn text(self, pos: &Pos) -> String {
        let (me, opp) = names(pos);
        match self {
            Origin::ZoneEmpty => format!("{me} has no pieces left in the end zone"),
            Origin::ZoneSingles => {
                "the pieces in the end zone are singles: write Z-d1-d2".to_string()
            }
            Origin::NoPiece(c) => format!("there is no piece on {}", Name(c)),
            Origin::EnemyPiece(c) => {
                if is_keep(c) {
                    format!("{} is held by {opp}", Name(c))
                } else {
                    format!("the piece on {} is {opp}'s", Name(c))
                }
            }
            Origin::NoSingle(c) => format!("there is no {me} single on {}", Name(c)),
            Origin::NoDoubleToMove(c) => format!("there is no {me} double on {}", Name(c)),
            Origin::NoDoubleToSplit(c) => format!("there is no double on {} to split", Name(c)),
            Origin::AlreadyMoved(c, kind) => {
                if is_keep(c) {
                    format!(
                        "the {me} {} in {} entered the Keep this turn and stays there",
                        kind_word(kind),
                        Name(c)
                    )
                } else {
                    format!("the piece on {} has already moved this turn", Name(c))
                }
            }
            Origin::MadeThisTurn(c) => format!(
                "the double on {} was made this turn: it can neither move nor split",
                Name(c)
            ),
        }
    }
}

impl Path {
    fn text(self, pos: &Pos) -> String {
        let (me, _) = names(pos);
        match self {
            Path::NoPoints { left: 0, .. } => {
                format!("{me} has used all 4 movement points")
            }
            Path::NoPoints { left, need } => {
                format!("{me} has only {left} movement points left, a double needs {need}")
            }
            Path::TooLong(kind) => format!(
                "a {} moves at most {} steps",
                kind_word(kind),
                kind.allowance()
            ),
            Path::NotEntry(c) => {
                let mut list = String::new();
                for e in entry_cells(pos.side) {
                    if !list.is_empty() {
                        list.push(' ');
                    }
                    list.push_str(&Name(e).to_string());
                }
                format!("{} is not an entry cell of {me} ({list})", Name(c))
            }
            Path::EntryOccupied(c) => format!("the entry cell {} is occupied", Name(c)),
            Path::NotAdjacent(p, q) => format!("{} does not touch {}", Name(p), Name(q)),
            Path::NoneFound(p, q) => format!(
                "no legal path leads from {} to {}: a single moves up to two cells and a \
                 double four, around pieces, closed Gates and Keeps{}",
                Name(p),
                Name(q),
                if is_keep(p) {
                    format!(" (a double leaves a Keep as `{}:2-...`)", Name(p))
                } else {
                    String::new()
                }
            ),
            Path::Standstill(c) => format!(
                "{c}-{c} goes nowhere: each step of a path moves to a touching cell",
                c = Name(c)
            ),
            Path::Revisit(c) => format!(
                "the path comes back to {}: a piece may not return to a cell it has been on \
                 this turn",
                Name(c)
            ),
            Path::Gate(why) => why.text(pos),
            Path::ThroughKeep(c) => format!(
                "the path goes through the Keep {}: entering a Keep ends a piece's move",
                Name(c)
            ),
            Path::Blocked(c) => {
                let owner = holder_name(pos, c);
                format!(
                    "{} is occupied by a {owner} piece: a piece cannot move through other pieces",
                    Name(c)
                )
            }
        }
    }
}

impl Gate {
    fn text(self, pos: &Pos) -> String {
        let (me, opp) = names(pos);
        match self {
            Gate::ClosedTo(g) => {
                let f = GATES[g as usize].flanks;
                format!(
                    "the gate {} is closed to {me} ({} and {} are held by {opp})",
                    GateName(g),
                    Name(f[0]),
                    Name(f[1])
                )
            }
            Gate::ClosedBoth(g) => {
                let f = GATES[g as usize].flanks;
                let h0 = holder_name(pos, f[0]);
                let h1 = holder_name(pos, f[1]);
                format!(
                    "the gate {} is closed to both sides ({} is held by {h0}, {} by {h1})",
                    GateName(g),
                    Name(f[0]),
                    Name(f[1])
                )
            }
        }
    }
}

impl Arrival {
    fn text(self, pos: &Pos) -> String {
        let (me, opp) = names(pos);
        match self {
            Arrival::EnemyKeep(c) => {
                format!("{} is a Keep held by {opp}: breach it first", Name(c))
            }
            Arrival::KeepFull(c) => format!("the Keep {} already holds three stacks", Name(c)),
            Arrival::WrongLength(Kind::Double) => {
                "a double moves exactly 4 steps unless it takes or enters a Keep".to_string()
            }
            Arrival::WrongLength(_) => "a single moves exactly 2 steps unless it takes, makes \
                                        a double or enters a Keep"
                .to_string(),
            Arrival::StackTooHigh(c, Kind::Double) => format!(
                "{} holds a {me} piece: a double cannot join another piece",
                Name(c)
            ),
            Arrival::StackTooHigh(c, _) => format!(
                "{} holds a {me} double: a stack is at most two pieces",
                Name(c)
            ),
            Arrival::SingleVsDouble(_) => "a single cannot take a double".to_string(),
            Arrival::ApartNotKeep(c) => format!(
                "`apart` is for a single entering a Keep, and {} is not a Keep",
                Name(c)
            ),
            Arrival::ApartDouble => {
                "a double entering a Keep never combines: write the path without `apart`"
                    .to_string()
            }
            Arrival::ApartNoSingle(c) => format!(
                "{} holds no {me} single to combine with: write the path without `apart`",
                Name(c)
            ),
            Arrival::ApartFull(c) => format!(
                "the Keep {} already holds three stacks: a single entering it combines with \
                 the single inside",
                Name(c)
            ),
        }
    }
}

impl Breaching {
    fn text(self, pos: &Pos) -> String {
        let (me, opp) = names(pos);
        match self {
            Breaching::NotKeep(c) => format!("{} is not a Keep", Name(c)),
            Breaching::NothingToBreach(c) => format!(
                "{} is empty: there is nothing to breach (a piece may simply move in)",
                Name(c)
            ),
            Breaching::OwnKeep(c) => format!("{} is held by {me} itself", Name(c)),
            Breaching::BreachShort { keep, need, have } => format!(
                "breaching {} needs {need} points on the cells around it, {me} has {have}",
                Name(keep)
            ),
            Breaching::HomeShort { need, have } => {
                let t = HOME_TOUCH[usize::from(opponent(pos.side))];
                format!(
                    "breaching {opp}'s home Keep needs {need} points on {} {} {}, {me} has {have}",
                    Name(t[0]),
                    Name(t[1]),
                    Name(t[2])
                )
            }
            Breaching::HomeNoEntry => "no piece ever enters a home Keep".to_string(),
            Breaching::NotTouching(x, k) => format!("{} does not touch {}", Name(x), Name(k)),
            Breaching::NoStackToMoveIn(x) => {
                format!("there is no {me} piece on {} to move in", Name(x))
            }
            Breaching::MovedInTwice(x) => format!("{} is listed twice", Name(x)),
            Breaching::ApartBreach => "`apart` keeps the singles moving in from combining, and \
                                       fewer than two singles move in"
                .to_string(),
        }
    }
}

/// What a legal move does at its last cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dest {
    /// It stops on an empty cell.
    Empty,
    /// A single joins an own single: a double is made.
    Double,
    /// It takes the enemy stack there (1 or 2 pieces).
    Take(u8),
    /// It enters a Keep: a single combines with an own single inside if
    /// one is there, unless the move is written `apart`.
    Keep {
        /// Combines with a single inside.
        combine: bool,
    },
}

/// Whether a Gate may be crossed by `me` now. `from`/`from_after` give the
/// moving piece's origin and who holds it once the piece has left (the
/// piece is no longer there when it crosses).
fn gate_check(pos: &Pos, g: u8, me: Side, from: u8, from_after: Option<Side>) -> Result<(), Gate> {
    let flanks = GATES[g as usize].flanks;
    let h = |k: u8| {
        if k == from {
            from_after
        } else {
            pos.holder(k)
        }
    };
    let (h0, h1) = (h(flanks[0]), h(flanks[1]));
    let (me, opp) = (Some(me), Some(opponent(me)));
    if h0 == opp && h1 == opp {
        Err(Gate::ClosedTo(g))
    } else if (h0 == opp && h1 == me) || (h0 == me && h1 == opp) {
        Err(Gate::ClosedBoth(g))
    } else {
        Ok(())
    }
}

/// Check the origin of a move: returns who holds the origin once the
/// piece has left (nobody for the end zone).
fn origin_check(pos: &Pos, from: u8, kind: Kind) -> Result<Option<Side>, Origin> {
    let me = pos.side;
    if from == ZONE {
        if kind != Kind::Single {
            return Err(Origin::ZoneSingles);
        }
        if pos.zone[usize::from(me)] == 0 {
            return Err(Origin::ZoneEmpty);
        }
        return Ok(None);
    }
    let c = pos.cells[from as usize];
    if c.is_empty() {
        return Err(Origin::NoPiece(from));
    }
    if c.owner() != Some(me) {
        return Err(Origin::EnemyPiece(from));
    }
    let left_behind = match kind {
        Kind::Single => {
            if c.s == 0 {
                return Err(Origin::NoSingle(from));
            }
            if c.free_singles() == 0 {
                return Err(Origin::AlreadyMoved(from, kind));
            }
            c.stacks() - 1
        }
        Kind::Double | Kind::Half => {
            if c.d == 0 {
                return Err(if kind == Kind::Half {
                    Origin::NoDoubleToSplit(from)
                } else {
                    Origin::NoDoubleToMove(from)
                });
            }
            if c.free_doubles() == 0 {
                return Err(if pos.made_here(from) {
                    Origin::MadeThisTurn(from)
                } else {
                    Origin::AlreadyMoved(from, kind)
                });
            }
            if kind == Kind::Half {
                c.stacks()
            } else {
                c.stacks() - 1
            }
        }
    };
    Ok((left_behind > 0).then_some(me))
}

/// Whether a single may enter the Keep `dest` (holding `dc`, of the
/// mover or empty) apart from the single there.
fn apart_check(dc: Cell, kind: Kind, dest: u8) -> Result<Dest, Arrival> {
    if !kind.is_single() {
        Err(Arrival::ApartDouble)
    } else if dc.s == 0 {
        Err(Arrival::ApartNoSingle(dest))
    } else if dc.stacks() >= 3 {
        Err(Arrival::ApartFull(dest))
    } else {
        Ok(Dest::Keep { combine: false })
    }
}

/// What `mv` (at least one step long) does at its last cell; written
/// `apart`, a single entering a Keep stays apart from the single there.
fn dest_check(pos: &Pos, mv: &Move) -> Result<Dest, Arrival> {
    let (kind, len, dest, apart) = (mv.kind, mv.len, mv.dest(), mv.apart);
    let me = pos.side;
    let dc = pos.cells[dest as usize];
    if apart && !is_keep(dest) {
        return Err(Arrival::ApartNotKeep(dest));
    }
    if is_keep(dest) {
        if !dc.is_empty() && dc.owner() != Some(me) {
            return Err(Arrival::EnemyKeep(dest));
        }
        if apart {
            return apart_check(dc, kind, dest);
        }
        if kind.is_single() && dc.s > 0 {
            return Ok(Dest::Keep { combine: true });
        }
        if dc.stacks() >= 3 {
            return Err(Arrival::KeepFull(dest));
        }
        Ok(Dest::Keep { combine: false })
    } else if dc.is_empty() {
        if len != kind.allowance() {
            return Err(Arrival::WrongLength(kind));
        }
        Ok(Dest::Empty)
    } else if dc.owner() == Some(me) {
        if kind.is_single() && dc.s == 1 {
            Ok(Dest::Double)
        } else {
            Err(Arrival::StackTooHigh(dest, kind))
        }
    } else if kind.is_single() && dc.d > 0 {
        Err(Arrival::SingleVsDouble(dest))
    } else {
        Ok(Dest::Take(dc.s + 2 * dc.d))
    }
}

/// Check a move completely, without changing anything.
pub fn check_move(pos: &Pos, mv: &Move) -> Result<Dest, Why> {
    if pos.over() {
        return Err(Why::GameOver);
    }
    let from_after = origin_check(pos, mv.from, mv.kind).map_err(Why::Origin)?;
    check_path(pos, mv, from_after).map_err(Why::Path)?;
    if mv.len == 0 {
        return Err(Why::Arrival(Arrival::WrongLength(mv.kind)));
    }
    dest_check(pos, mv).map_err(Why::Arrival)
}

/// Check a move's path up to its last cell: the movement points it needs,
/// its length, and each step (onto an empty entry cell from the end zone,
/// to a touching cell, never back, through open Gates, past nothing
/// before the last cell). `from_after`: who holds the origin once the
/// piece has left it.
fn check_path(pos: &Pos, mv: &Move, from_after: Option<Side>) -> Result<(), Path> {
    let me = pos.side;
    let kind = mv.kind;
    let allow = kind.allowance();
    if pos.used + allow > 4 {
        return Err(Path::NoPoints {
            left: 4 - pos.used,
            need: allow,
        });
    }
    let len = usize::from(mv.len);
    if len > usize::from(allow) {
        return Err(Path::TooLong(kind));
    }
    let mut prev = mv.from;
    for i in 0..len {
        let c = mv.steps[i];
        if i == 0 && mv.from == ZONE {
            if !is_entry(me, c) {
                return Err(Path::NotEntry(c));
            }
            if !pos.cells[c as usize].is_empty() {
                return Err(Path::EntryOccupied(c));
            }
        } else {
            if c == prev {
                return Err(Path::Standstill(c));
            }
            if !adjacent(prev, c) {
                if len == 1 {
                    // Written by its ends (`d2-d5`): herald found no legal
                    // path to fill in.
                    return Err(Path::NoneFound(prev, c));
                }
                return Err(Path::NotAdjacent(prev, c));
            }
            if c == mv.from || mv.steps[..i].contains(&c) {
                return Err(Path::Revisit(c));
            }
            if let Some(g) = gate_between(prev, c) {
                gate_check(pos, g, me, mv.from, from_after).map_err(Path::Gate)?;
            }
        }
        if i + 1 < len {
            if is_keep(c) {
                return Err(Path::ThroughKeep(c));
            }
            if !pos.cells[c as usize].is_empty() {
                return Err(Path::Blocked(c));
            }
        }
        prev = c;
    }
    Ok(())
}

fn stack(owner: Side, kind: Kind) -> Cell {
    if kind.is_single() {
        Cell::locked(owner, 1, 0)
    } else {
        Cell::locked(owner, 0, 1)
    }
}

/// Put a locked double into Keep cell `kc`, beside the stacks there (a
/// double never combines).
fn double_into_keep(kc: &mut Cell, owner: Side) {
    kc.set_owner(owner);
    kc.d += 1;
    kc.ld += 1;
}

/// Put a locked single into Keep cell `kc`, beside the stacks there.
fn single_beside(kc: &mut Cell, owner: Side) {
    kc.set_owner(owner);
    kc.s += 1;
    kc.ls += 1;
}

/// Put a locked single into Keep cell `kc`, combining with a single there
/// into a double (a single that may not move anyway, if there is one);
/// beside the stacks there when no single is there. Returns whether it
/// combined.
fn single_combining(kc: &mut Cell, owner: Side) -> bool {
    if kc.s == 0 {
        single_beside(kc, owner);
        return false;
    }
    kc.set_owner(owner);
    if kc.ls > 0 {
        kc.ls -= 1;
    }
    kc.s -= 1;
    kc.d += 1;
    kc.ld += 1;
    true
}

/// If the opponent of the mover has fewer points in play than breaching
/// the mover's home Keep needs, the mover wins.
fn check_points_victory(pos: &mut Pos) {
    let me = pos.side;
    if pos.points[usize::from(opponent(me))] < 2 * pos.keep_value[usize::from(me)] {
        pos.winner = Some(me);
        pos.reason = WinReason::Points;
    }
}

/// Make a move already checked by [`check_move`] (which returned `eff`).
pub fn do_move(pos: &mut Pos, mv: &Move, eff: Dest) {
    let me = pos.side;
    let kind = mv.kind;
    if mv.from == ZONE {
        pos.zone[usize::from(me)] -= 1;
    } else {
        let c = &mut pos.cells[mv.from as usize];
        match kind {
            Kind::Single => c.s -= 1,
            Kind::Double => c.d -= 1,
            Kind::Half => {
                c.d -= 1;
                c.s += 1;
            }
        }
        c.tidy();
    }
    let dest = mv.dest();
    let bit = 1u128 << dest;
    match eff {
        Dest::Empty => pos.cells[dest as usize] = stack(me, kind),
        Dest::Double => {
            pos.cells[dest as usize] = Cell::locked(me, 0, 1);
            pos.made |= bit;
        }
        Dest::Take(_) => {
            let lost = pos.cells[dest as usize].points();
            pos.points[usize::from(opponent(me))] -= lost;
            pos.cells[dest as usize] = stack(me, kind);
        }
        Dest::Keep { combine: true } if kind.is_single() => {
            if single_combining(&mut pos.cells[dest as usize], me) {
                pos.made |= bit;
            }
        }
        Dest::Keep { .. } if kind.is_single() => single_beside(&mut pos.cells[dest as usize], me),
        Dest::Keep { .. } => double_into_keep(&mut pos.cells[dest as usize], me),
    }
    pos.used += kind.allowance();
    if matches!(eff, Dest::Take(_)) {
        check_points_victory(pos);
    }
}

/// Points of `me` on the cells touching Keep `k`.
pub fn points_around(pos: &Pos, k: u8, me: Side) -> u8 {
    neighbours(k)
        .iter()
        .map(|&n| pos.cells[n as usize].points_of(me))
        .sum()
}

/// Points of `me` on the cells touching the opponent's home Keep.
pub fn points_at_home(pos: &Pos, me: Side) -> u8 {
    HOME_TOUCH[usize::from(opponent(me))]
        .iter()
        .map(|&n| pos.cells[n as usize].points_of(me))
        .sum()
}

/// Check a breach completely, without changing anything.
pub fn check_breach(pos: &Pos, b: &Breach) -> Result<(), Why> {
    if pos.over() {
        return Err(Why::GameOver);
    }
    if b.target == HOME {
        check_home_breach(pos, b)
    } else {
        check_keep_breach(pos, b)
    }
    .map_err(Why::Breach)
}

/// A breach of the opponent's home Keep: enough points around it, and
/// nothing moving in.
fn check_home_breach(pos: &Pos, b: &Breach) -> Result<(), Breaching> {
    let me = pos.side;
    if b.n > 0 || b.apart {
        return Err(Breaching::HomeNoEntry);
    }
    let need = 2 * pos.keep_value[usize::from(opponent(me))];
    let have = points_at_home(pos, me);
    if have < need {
        return Err(Breaching::HomeShort { need, have });
    }
    Ok(())
}

/// A breach of an interior Keep held by the opponent: enough points
/// around it, and the stacks moving in the mover's, touching it, each
/// listed once.
fn check_keep_breach(pos: &Pos, b: &Breach) -> Result<(), Breaching> {
    let me = pos.side;
    let k = b.target;
    if !is_keep(k) {
        return Err(Breaching::NotKeep(k));
    }
    let kc = pos.cells[k as usize];
    if kc.is_empty() {
        return Err(Breaching::NothingToBreach(k));
    }
    if kc.owner() == Some(me) {
        return Err(Breaching::OwnKeep(k));
    }
    let need = kc.points() + 4;
    let have = points_around(pos, k, me);
    if have < need {
        return Err(Breaching::BreachShort {
            keep: k,
            need,
            have,
        });
    }
    let ins = b.ins();
    for (i, &x) in ins.iter().enumerate() {
        if !adjacent(k, x) {
            return Err(Breaching::NotTouching(x, k));
        }
        if ins[..i].contains(&x) {
            return Err(Breaching::MovedInTwice(x));
        }
        if pos.cells[x as usize].owner() != Some(me) {
            return Err(Breaching::NoStackToMoveIn(x));
        }
    }
    if b.apart && singles_in(pos, ins) < 2 {
        return Err(Breaching::ApartBreach);
    }
    Ok(())
}

/// How many of the stacks on `cells` are singles.
fn singles_in(pos: &Pos, cells: &[u8]) -> usize {
    cells
        .iter()
        .filter(|&&x| pos.cells[x as usize].s > 0)
        .count()
}

/// Make a breach already checked by [`check_breach`]; returns the points
/// removed from the Keep.
pub fn do_breach(pos: &mut Pos, b: &Breach) -> u8 {
    let me = pos.side;
    if b.target == HOME {
        pos.winner = Some(me);
        pos.reason = WinReason::HomeBreach;
        return 0;
    }
    let k = b.target as usize;
    let removed = pos.cells[k].points();
    pos.points[usize::from(opponent(me))] -= removed;
    pos.cells[k] = Cell::EMPTY;
    for &x in b.ins() {
        let sc = pos.cells[x as usize];
        pos.cells[x as usize] = Cell::EMPTY;
        pos.made &= !(1u128 << x);
        let kc = &mut pos.cells[k];
        if sc.s == 0 {
            double_into_keep(kc, me);
        } else if b.apart {
            single_beside(kc, me);
        } else if single_combining(kc, me) {
            pos.made |= 1u128 << k;
        }
    }
    check_points_victory(pos);
    removed
}

/// Depth-first search over paths of exactly `target_len` steps.
struct PathGen<'a, F> {
    pos: &'a Pos,
    from: u8,
    kind: Kind,
    from_after: Option<Side>,
    len: u8,
    target: u8,
    found: u128,
    path: [u8; 4],
    f: &'a mut F,
}

impl<F: FnMut(Move, Dest) -> bool> PathGen<'_, F> {
    fn dfs(&mut self, depth: u8, prev: u8) -> bool {
        let pos = self.pos;
        let me = pos.side;
        let entries;
        let cands: &[u8] = if depth == 0 && self.from == ZONE {
            entries = entry_cells(me);
            &entries
        } else {
            neighbours(prev)
        };
        for &c in cands {
            if depth == 0 && self.from == ZONE {
                if !pos.cells[c as usize].is_empty() {
                    continue;
                }
            } else {
                if c == self.from || self.path[..depth as usize].contains(&c) {
                    continue;
                }
                if let Some(g) = gate_between(prev, c) {
                    if gate_check(pos, g, me, self.from, self.from_after).is_err() {
                        continue;
                    }
                }
            }
            self.path[depth as usize] = c;
            if depth + 1 == self.len {
                if self.target != NONE && c != self.target {
                    continue;
                }
                if self.found & (1u128 << c) != 0 {
                    continue;
                }
                let mv = Move::new(self.from, self.kind, &self.path[..self.len as usize]);
                if let Ok(eff) = dest_check(pos, &mv) {
                    self.found |= 1u128 << c;
                    if (self.f)(mv, eff) {
                        return true;
                    }
                    // A single may also enter a Keep apart from the single
                    // there.
                    let apart =
                        eff == Dest::Keep { combine: true } && dest_check(pos, &mv.apart()).is_ok();
                    if apart && (self.f)(mv.apart(), Dest::Keep { combine: false }) {
                        return true;
                    }
                }
            } else {
                if is_keep(c) || !pos.cells[c as usize].is_empty() {
                    continue;
                }
                if self.dfs(depth + 1, c) {
                    return true;
                }
            }
        }
        false
    }
}

/// Every legal move of `kind` from `from` (origin and points already
/// checked), one per destination: the shortest path, the first in the
/// order that tries touching cells in cell order. Destinations come
/// shortest path first. `target` (or NONE) keeps only one destination.
/// Returns true when `f` asked to stop.
fn gen_from<F: FnMut(Move, Dest) -> bool>(
    pos: &Pos,
    from: u8,
    kind: Kind,
    from_after: Option<Side>,
    target: u8,
    f: &mut F,
) -> bool {
    let mut g = PathGen {
        pos,
        from,
        kind,
        from_after,
        len: 1,
        target,
        found: 0,
        path: [0; 4],
        f,
    };
    for len in 1..=kind.allowance() {
        g.len = len;
        if g.dfs(0, from) {
            return true;
        }
    }
    false
}

/// The move of `kind` from `from` to `target` by the path [`gen_from`]
/// picks, if one is legal.
pub fn resolve(pos: &Pos, from: u8, kind: Kind, target: u8) -> Option<Move> {
    if pos.over() || pos.used + kind.allowance() > 4 {
        return None;
    }
    let from_after = origin_check(pos, from, kind).ok()?;
    let mut out = None;
    gen_from(pos, from, kind, from_after, target, &mut |mv, _| {
        out = Some(mv);
        true
    });
    out
}

/// Every legal move, in a stable order: the end zone first, then cells in
/// order, singles before doubles before splits. Returns true when `f`
/// asked to stop.
pub fn for_each_move<F: FnMut(Move, Dest) -> bool>(pos: &Pos, f: &mut F) -> bool {
    if pos.over() || pos.used > 2 {
        return false;
    }
    let me = pos.side;
    let left = 4 - pos.used;
    if pos.zone[usize::from(me)] > 0 && gen_from(pos, ZONE, Kind::Single, None, NONE, f) {
        return true;
    }
    for i in 0..NCELLS {
        let c = pos.cells[i];
        if c.owner() != Some(me) {
            continue;
        }
        let from = i as u8;
        let after = (c.stacks() > 1).then_some(me);
        if c.free_singles() > 0 && gen_from(pos, from, Kind::Single, after, NONE, f) {
            return true;
        }
        if c.free_doubles() > 0 {
            if left >= 4 && gen_from(pos, from, Kind::Double, after, NONE, f) {
                return true;
            }
            if gen_from(pos, from, Kind::Half, Some(me), NONE, f) {
                return true;
            }
        }
    }
    false
}

/// Every legal breach, in a stable order: the home Keep first, then Keeps
/// in cell order, each with every choice of up to three stacks moving in
/// (none, then one, two, three, cells in order), a choice that moves in
/// two singles or more both ways: combining, then `apart`. Returns true
/// when `f` asked to stop.
pub fn for_each_breach<F: FnMut(Breach) -> bool>(pos: &Pos, f: &mut F) -> bool {
    if pos.over() {
        return false;
    }
    let me = pos.side;
    let opp = opponent(me);
    if points_at_home(pos, me) >= 2 * pos.keep_value[usize::from(opp)] && f(Breach::new(HOME, &[]))
    {
        return true;
    }
    let mut emit = |b: Breach| f(b) || (singles_in(pos, b.ins()) >= 2 && f(b.apart()));
    for &k in KEEPS.iter() {
        let kc = pos.cells[k as usize];
        if kc.is_empty() || kc.owner() != Some(opp) || points_around(pos, k, me) < kc.points() + 4 {
            continue;
        }
        let mut t = [0u8; 6];
        let mut n = 0;
        for &x in neighbours(k) {
            if pos.cells[x as usize].owner() == Some(me) {
                t[n] = x;
                n += 1;
            }
        }
        if emit(Breach::new(k, &[])) {
            return true;
        }
        for &x in &t[..n] {
            if emit(Breach::new(k, &[x])) {
                return true;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                if emit(Breach::new(k, &[t[i], t[j]])) {
                    return true;
                }
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                for l in j + 1..n {
                    if emit(Breach::new(k, &[t[i], t[j], t[l]])) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The most movement points a turn can use from `pos` on (counting what
/// was used already).
pub fn best_points(pos: &Pos) -> u8 {
    if pos.over() || pos.used >= 4 {
        return pos.used;
    }
    let mut best = pos.used;
    for_each_move(pos, &mut |mv, eff| {
        let mut p = *pos;
        do_move(&mut p, &mv, eff);
        best = best.max(best_points(&p));
        best == 4
    });
    if best < 4 {
        for_each_breach(pos, &mut |b| {
            let mut p = *pos;
            do_breach(&mut p, &b);
            best = best.max(best_points(&p));
            best == 4
        });
    }
    best
}

/// Whether the turn can still be finished legally from `pos`: by using
/// exactly `target` movement points in all, or by winning.
pub fn completable(pos: &Pos, target: u8) -> bool {
    if pos.over() || pos.used == target {
        return true;
    }
    if pos.used > target {
        return false;
    }
    for_each_move(pos, &mut |mv, eff| {
        let mut p = *pos;
        do_move(&mut p, &mv, eff);
        completable(&p, target)
    }) || for_each_breach(pos, &mut |b| {
        let mut p = *pos;
        do_breach(&mut p, &b);
        completable(&p, target)
    })
}

/// Start a fresh log if the one in `state` belongs to an earlier turn.
fn touch_log(state: &mut State) {
    if state.log.turn != state.turn {
        state.log = TurnLog::new(state.pos.side, state.turn);
    }
}

/// The start of a turn: the position the rule "use 4 movement points"
/// judges from, and a fresh log.
pub fn begin_turn(state: &mut State) {
    if !state.pos.over() {
        state.start_turn_here();
        state.log = TurnLog::new(state.pos.side, state.turn);
    }
}

/// Make one action, logging it for the turn comment.
pub fn apply(state: &mut State, action: Action) -> Result<(), Illegal> {
    touch_log(state);
    match action {
        Action::Move(mv) => {
            let eff = check_move(&state.pos, &mv).map_err(|w| Illegal::new(w.text(&state.pos)))?;
            state.keep_start();
            do_move(&mut state.pos, &mv, eff);
            let entry = LoggedMove {
                mv,
                took: if let Dest::Take(n) = eff { n } else { 0 },
                doubled: matches!(eff, Dest::Double | Dest::Keep { combine: true }),
                keep: matches!(eff, Dest::Keep { .. }),
            };
            if let Some(slot) = state.log.moves.iter_mut().find(|m| m.is_none()) {
                *slot = Some(entry);
            }
        }
        Action::Breach(b) => {
            check_breach(&state.pos, &b).map_err(|w| Illegal::new(w.text(&state.pos)))?;
            state.keep_start();
            let removed = do_breach(&mut state.pos, &b);
            let log = &mut state.log;
            if usize::from(log.nbreach) < log.breaches.len() {
                log.breaches[usize::from(log.nbreach)] = (b.target, removed, b.n, b.apart);
                log.nbreach += 1;
            }
        }
    }
    state.log.used = state.pos.used;
    Ok(())
}

/// The movement points the turn must use in all: 4 when a legal way to
/// use them exists, else the most a legal turn from its start can use.
fn points_due(state: &State) -> u8 {
    let used = state.pos.used;
    if used >= 4 {
        used
    } else {
        best_points(state.turn_start()).max(used)
    }
}

/// Refuse to end a turn that used fewer movement points than it must (the
/// search runs only then, from the position at the start of the turn).
fn check_points_used(state: &State) -> Result<(), Illegal> {
    let pos = &state.pos;
    if pos.used >= 4 {
        return Ok(());
    }
    let most = points_due(state);
    if pos.used >= most {
        return Ok(());
    }
    let me = side_name(pos.side);
    Err(Illegal::new(if most == 4 {
        format!("{me} must use all 4 movement points (a legal way to use them exists)")
    } else {
        format!("{me} must use {most} movement points, the most a legal turn can use here")
    }))
}

/// End the turn: once it used the movement points it must, the pieces are
/// unlocked and the other side moves.
pub fn end_turn(state: &mut State) -> Result<(), Illegal> {
    touch_log(state);
    if state.pos.over() {
        return Ok(());
    }
    check_points_used(state)?;
    state.log.used = state.pos.used;
    state.pos.clear_turn();
    state.pos.side = opponent(state.pos.side);
    state.start_turn_here();
    state.turn += 1;
    Ok(())
}

/// `side` resigns: the other side wins.
pub fn resign(state: &mut State, side: Side) {
    touch_log(state);
    if !state.pos.over() {
        state.keep_start();
        state.pos.winner = Some(opponent(side));
        state.pos.reason = WinReason::Resigned;
        state.log.resigned = true;
    }
}

/// Every legal action now: those after which the turn can still use the
/// movement points it must (or win).
pub fn legal_actions(state: &State, out: &mut Vec<Action>) {
    let pos = &state.pos;
    if pos.over() {
        return;
    }
    let target = points_due(state);
    for_each_move(pos, &mut |mv, eff| {
        let mut p = *pos;
        do_move(&mut p, &mv, eff);
        if completable(&p, target) {
            out.push(Action::Move(mv));
        }
        false
    });
    for_each_breach(pos, &mut |b| {
        let mut p = *pos;
        do_breach(&mut p, &b);
        if completable(&p, target) {
            out.push(Action::Breach(b));
        }
        false
    });
}
