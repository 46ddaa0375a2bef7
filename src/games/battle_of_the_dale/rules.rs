//! Applying actions, resolving captures, ending turns, settling rallies and
//! listing legal actions.

use super::action::Action;
use super::board::{
    adjacent, grow, hexes, nbrs, Hex, CHIP, EDGE, NAMED_MASK, NEIGH, N_HEX, WITHIN2,
};
use super::state::*;
use crate::game::{Illegal, Outcome, Side};

type R<T = ()> = Result<T, Illegal>;

fn ill<T>(reason: impl Into<String>) -> R<T> {
    Err(Illegal::new(reason))
}

// ---------------------------------------------------------------------------
// Geometry that depends on the position.

/// Hexes where `side` may place a unit (vacancy and Chip not checked).
pub fn placement_reach(s: &State, side: Side) -> u32 {
    if side == FALCON {
        return super::board::ALL;
    }
    let own = s.own(side);
    let chains = grow(own & EDGE, own);
    EDGE | nbrs(chains)
}

/// Hexes the unit on `from` may move to (not counting Advance).
pub fn move_dests(s: &State, from: Hex) -> u32 {
    let Some((side, kind)) = s.unit(from) else {
        return 0;
    };
    let vacant = !s.occupied() & super::board::ALL;
    if side == FALCON {
        return WITHIN2[from.idx()] & vacant;
    }
    let own = s.own(side);
    let chain = grow(from.bit(), own);
    let mut d = nbrs(chain) & vacant;
    if side == HUMAN && kind == Kind::H {
        d |= charge_dests(s, from);
    }
    d
}

/// The Human Hero's Charge: two spaces, never through an enemy unit.
fn charge_dests(s: &State, from: Hex) -> u32 {
    let vacant = !s.occupied() & super::board::ALL;
    let enemy = s.occupied() & !s.own(HUMAN);
    let mut d = 0;
    for h in hexes(WITHIN2[from.idx()] & !NEIGH[from.idx()] & vacant) {
        if NEIGH[from.idx()] & NEIGH[h.idx()] & !enemy != 0 {
            d |= h.bit();
        }
    }
    d
}

/// The Falcon Hero's hex, if the Falcon army is in.
fn falcon_hero(s: &State) -> Option<Hex> {
    s.find(FALCON, Kind::H)
}

/// Is the unit on `h` a Mounted unit under the Falcon Hero's Awe?
pub fn awed(s: &State, h: Hex) -> bool {
    matches!(s.unit(h), Some((side, Kind::M)) if side != FALCON)
        && falcon_hero(s).is_some_and(|f| adjacent(f, h))
}

/// The smallest legal retreat hex for the unit on `h`, if any.
fn retreat_hex(s: &State, h: Hex, owner: Side) -> Option<Hex> {
    let vacant = !s.occupied() & super::board::ALL;
    let enemies = s.occupied() & !s.own(owner);
    let bad = nbrs(enemies);
    let m = NEIGH[h.idx()] & vacant & !bad;
    if m == 0 {
        None
    } else {
        Some(Hex(m.trailing_zeros() as u8))
    }
}

// ---------------------------------------------------------------------------
// Captures.

/// Whether captures on a turn may end in an Advance After Capture: on the
/// actor's own turn they may; after a rally settled by the next player's
/// reveal they may not.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Advance {
    /// The actor may advance into a hex it captured.
    Offered,
    /// No advance follows.
    NotOffered,
}

/// Check the map for captures until it settles or an Advance After Capture
/// may be made (when `advance` offers one, to `actor`), then check for
/// eliminations and victory.
pub fn resolve(s: &mut State, actor: Side, advance: Advance) {
    for _ in 0..64 {
        if s.over() {
            return;
        }
        // Most maps hold no unit two of another army touch: the Mounted
        // units' first strike is then not worked out.
        let own = own_masks(s);
        let candidates = open_to(&own);
        let by = match s.occupied() & candidates {
            0 => None,
            _ => capturers_among(s, (&own, &mounted_masks(s)), candidates),
        };
        let Some(by) = by else {
            check_victory_of(s, &own);
            return;
        };
        let round = round(s, actor, &by);
        let adv = capture_round(s, actor, &round);
        check_eliminations(s);
        if s.over() {
            return;
        }
        if advance == Advance::Offered && s.in_game(actor) && adv != 0 {
            let own = s.own(actor);
            let vacant = !s.occupied();
            let ok = hexes(adv & vacant)
                .filter(|v| NEIGH[v.idx()] & own != 0)
                .fold(0, |m, v| m | v.bit());
            if ok != 0 {
                s.t.adv_to = ok;
                return;
            }
        }
    }
}

/// Per hex, the side that captures the unit there this round, if any;
/// `None` when no unit anywhere is surrounded. A unit with two or more
/// units of one other side next to it is claimed by the side with the
/// most (ties: the first after the owner in turn order); when any claim
/// has a Mounted unit (not under the Falcon Hero's Awe) among its units,
/// only such first-strike claims count this round.
#[cfg(test)]
fn capturers(s: &State) -> Option<[Option<Side>; N_HEX]> {
    let (own, mounted) = strike_masks(s);
    capturers_of(s, (&own, &mounted))
}

/// [`capturers`], given the [`strike_masks`].
#[cfg(test)]
fn capturers_of(
    s: &State,
    (own, mounted): (&[u32; 5], &[u32; 5]),
) -> Option<[Option<Side>; N_HEX]> {
    capturers_among(s, (own, mounted), open_to(own))
}

/// The hexes a unit could be captured on, given each army's units
/// (`own`): only a hex touched by two units of another army can be.
/// Found first, most turns have none to look at.
fn open_to(own: &[u32; 5]) -> u32 {
    own.iter()
        .fold(0, |m, &units| m | (touched_twice(units) & !units))
}

/// [`capturers`], looking at the units on the hexes of `candidates` only,
/// given the [`strike_masks`].
fn capturers_among(
    s: &State,
    (own, mounted): (&[u32; 5], &[u32; 5]),
    candidates: u32,
) -> Option<[Option<Side>; N_HEX]> {
    let victims = s.occupied() & candidates;
    if victims == 0 {
        return None;
    }
    let mut best: [Option<(Side, u32)>; N_HEX] = [None; N_HEX];
    let mut best_fs: [Option<(Side, u32)>; N_HEX] = [None; N_HEX];
    let mut any_fs = false;
    let mut any = false;
    for v in hexes(victims) {
        let (owner, _) = s.unit(v).expect("occupied");
        for p in ARMIES {
            if p == owner || !s.in_game(p) {
                continue;
            }
            let near = NEIGH[v.idx()] & own[usize::from(p)];
            let c = near.count_ones();
            if c < 2 {
                continue;
            }
            any = true;
            let better = |cur: Option<(Side, u32)>| match cur {
                None => true,
                Some((q, qc)) => c > qc || (c == qc && s.after(owner, p) < s.after(owner, q)),
            };
            if better(best[v.idx()]) {
                best[v.idx()] = Some((p, c));
            }
            if near & mounted[usize::from(p)] != 0 {
                any_fs = true;
                if better(best_fs[v.idx()]) {
                    best_fs[v.idx()] = Some((p, c));
                }
            }
        }
    }
    if !any {
        return None;
    }
    let claims = if any_fs { &best_fs } else { &best };
    Some(claims.map(|claim| claim.map(|(p, _)| p)))
}

/// The hexes next to at least two of the hexes of `units`.
fn touched_twice(units: u32) -> u32 {
    let (mut once, mut twice) = (0, 0);
    for u in hexes(units) {
        twice |= once & NEIGH[u.idx()];
        once |= NEIGH[u.idx()];
    }
    twice
}

/// Per side still in: its units, and its Mounted units that strike first
/// (those not next to the Falcon Hero).
#[cfg(test)]
fn strike_masks(s: &State) -> ([u32; 5], [u32; 5]) {
    (own_masks(s), mounted_masks(s))
}

/// Per side still in, its units (none for the others).
fn own_masks(s: &State) -> [u32; 5] {
    let mut own = [0u32; 5];
    for side in ARMIES {
        if s.in_game(side) {
            own[usize::from(side)] = s.own(side);
        }
    }
    own
}

/// Per side still in, its Mounted units that strike first: those not
/// next to the Falcon Hero.
fn mounted_masks(s: &State) -> [u32; 5] {
    let awe = match s.find(FALCON, Kind::H) {
        Some(hero) => NEIGH[hero.idx()],
        None => 0,
    };
    let mut mounted = [0u32; 5];
    for side in ARMIES {
        if s.in_game(side) {
            mounted[usize::from(side)] = s.own_kind(side, Kind::M) & !awe;
        }
    }
    mounted
}

/// The units a capture round takes, found at once.
struct Round {
    /// The hexes of the units captured.
    victims: u32,
    /// Per hex, the capturing side.
    by: [Option<Side>; N_HEX],
    /// Victims that may retreat instead, if they can: a Mounted unit not
    /// under Awe, and Elf units the Elf Hero protects (of another side
    /// than `actor`'s).
    entitled: u32,
    /// Victims whose retreat the Elf Hero gave (a forced advance may
    /// follow into the hex they leave).
    granted: u32,
}

/// The victims of this round, claimed in `by`, and which of them may
/// retreat.
fn round(s: &State, actor: Side, by: &[Option<Side>; N_HEX]) -> Round {
    let mut r = Round {
        victims: 0,
        by: *by,
        entitled: 0,
        granted: 0,
    };
    let elf_hero = s.find(ELF, Kind::H);
    for v in hexes(s.occupied()) {
        if by[v.idx()].is_none() {
            continue;
        }
        r.victims |= v.bit();
        let (owner, kind) = s.unit(v).expect("occupied");
        if owner == actor {
            continue;
        }
        let elf_grant = owner == ELF
            && (kind == Kind::H || (kind == Kind::R && elf_hero.is_some_and(|e| adjacent(e, v))));
        if (kind == Kind::M && !awed(s, v)) || elf_grant {
            r.entitled |= v.bit();
        }
        if elf_grant {
            r.granted |= v.bit();
        }
    }
    r
}

/// Make a capture round: the victims that cannot retreat are captured
/// first, then the others retreat one at a time in label order (or are
/// captured when no retreat is left). Returns the hexes `actor` captured.
fn capture_round(s: &mut State, actor: Side, round: &Round) -> u32 {
    let mut first: u32 = 0;
    for v in hexes(round.victims) {
        let (owner, _) = s.unit(v).expect("occupied");
        if round.entitled & v.bit() == 0 || retreat_hex(s, v, owner).is_none() {
            first |= v.bit();
        }
    }
    let mut adv: u32 = 0;
    let mut take = |s: &mut State, v: Hex| {
        let by = round.by[v.idx()].expect("claimed");
        capture(s, v, by);
        if by == actor {
            adv |= v.bit();
        }
    };
    for v in hexes(first) {
        take(s, v);
    }
    for v in hexes(round.victims & !first) {
        let (owner, kind) = s.unit(v).expect("occupied");
        match retreat_hex(s, v, owner) {
            Some(t) => {
                s.shift(v, t);
                s.log.push(Event::Retreat {
                    owner,
                    kind,
                    from: v,
                    to: t,
                });
                if round.granted & v.bit() != 0 {
                    s.force_mask |= v.bit();
                }
            }
            None => take(s, v),
        }
    }
    adv
}

fn capture(s: &mut State, v: Hex, by: Side) {
    let (owner, kind) = s.unit(v).expect("occupied");
    s.clear(v);
    s.pile[usize::from(by)][usize::from(owner)][kind.idx()] += 1;
    s.log.push(Event::Capture {
        owner,
        kind,
        hex: v,
        by,
    });
}

/// Remove every player reduced to a single unit; end the game if at most one
/// player is left.
fn check_eliminations(s: &mut State) {
    for i in 0..usize::from(s.n) {
        let side = s.order[i];
        if s.in_game(side) && s.strength(side) <= 1 {
            eliminate(s, side);
            s.log.push(Event::Out { side });
        }
    }
    check_last(s);
}

/// The side's units leave the game and it is out.
fn eliminate(s: &mut State, side: Side) {
    for h in hexes(s.own(side)) {
        s.clear(h);
    }
    s.reserve[usize::from(side)] = [0; 3];
    s.out |= bit(side);
    if s.pending.is_some_and(|r| r.side == side) {
        s.pending = None;
    }
}

fn check_last(s: &mut State) {
    if s.over() {
        return;
    }
    match s.players_in() {
        0 => s.result = Outcome::Draw,
        1 => {
            let w = ARMIES
                .into_iter()
                .find(|&x| s.in_game(x))
                .expect("one left");
            s.result = Outcome::Won(w);
        }
        _ => {}
    }
}

/// Three of the four named spaces win while no Falcon army is in.
fn check_victory(s: &mut State) {
    if s.over() || s.in_game(FALCON) {
        return;
    }
    check_victory_of(s, &own_masks(s));
}

/// [`check_victory`], given each army's units (those of the armies
/// still in, as [`strike_masks`] finds them).
fn check_victory_of(s: &mut State, own: &[u32; 5]) {
    if s.over() || s.in_game(FALCON) {
        return;
    }
    for side in ARMIES {
        if s.in_game(side) && (own[usize::from(side)] & NAMED_MASK).count_ones() >= 3 {
            s.result = Outcome::Won(side);
            return;
        }
    }
}

// ---------------------------------------------------------------------------
// Checks shared by apply and the "is any action possible" test.

/// Units `side` would have on the map after one more, checked against the
/// optional limits.
fn check_limits(s: &State, side: Side) -> R {
    let now = s.map_count(side);
    if s.opts.max5 && now >= 5 {
        return ill(format!(
            "max 5 units: {} already has {now} units on the map",
            army(side)
        ));
    }
    if s.opts.arms_race {
        let weakest = s
            .sides()
            .iter()
            .filter(|&&o| o != side && s.in_game(o))
            .map(|&o| s.map_count(o))
            .min();
        if let Some(w) = weakest {
            if now + 1 > w + 1 {
                return ill(format!(
                    "arms race: {} would have {} units on the map, the weakest other player has {w}",
                    army(side),
                    now + 1
                ));
            }
        }
    }
    Ok(())
}

fn check_place(s: &State, me: Side, kind: Kind, hex: Hex) -> R {
    if me == FALCON && kind == Kind::M {
        return ill("the Falcon army has no Mounted unit");
    }
    if s.reserve[usize::from(me)][kind.idx()] == 0 {
        return ill(format!(
            "the {} army has no Reserve {} unit",
            army(me),
            kind.name()
        ));
    }
    if s.unit(hex).is_some() {
        return ill(format!("{hex} is occupied"));
    }
    if me != FALCON {
        if hex == CHIP {
            return ill(format!("{hex} is Chip: a new unit cannot be placed there"));
        }
        if placement_reach(s, me) & hex.bit() == 0 {
            return ill(format!(
                "{hex} is not on the map edge nor next to a chain of your units reaching it"
            ));
        }
    }
    if s.opts.hero_or_mounted && kind != Kind::R {
        let other = if kind == Kind::H { Kind::M } else { Kind::H };
        if s.find(me, other).is_some() {
            return ill(format!(
                "hero or mounted: {} has its {} unit on the map, so not its {} too",
                army(me),
                other.name(),
                kind.name()
            ));
        }
    }
    check_limits(s, me)
}

fn check_move(s: &State, me: Side, from: Hex, to: Hex) -> R {
    if from == to {
        return ill("a move needs two different hexes");
    }
    match s.unit(from) {
        Some((o, _)) if o == me => {}
        _ => return ill(format!("{from} holds no unit of yours")),
    }
    if s.unit(to).is_some() {
        return ill(format!("{to} is occupied"));
    }
    if move_dests(s, from) & to.bit() != 0 {
        return Ok(());
    }
    let (_, kind) = s.unit(from).expect("checked");
    if me == FALCON {
        return ill(format!(
            "{to} is more than 2 spaces from {from} (a Falcon unit moves at most 2)"
        ));
    }
    if me == HUMAN && kind == Kind::H {
        if WITHIN2[from.idx()] & !NEIGH[from.idx()] & to.bit() != 0 {
            return ill(format!(
                "a Charge from {from} to {to} would pass through an enemy unit"
            ));
        }
        return ill(format!(
            "{to} is not next to {from} nor to a chain of your units joined to it, \
             nor two spaces away for a Charge"
        ));
    }
    ill(format!(
        "{to} is not next to {from} nor to a chain of your units joined to it"
    ))
}

/// Is a Horde placement of a rallied Regular on `h` legal now?
fn check_horde_hex(s: &State, me: Side, h: Hex) -> R {
    let Some(hero) = s.find(GOBLIN, Kind::H) else {
        return ill("the Goblin Hero is not on the map");
    };
    if s.unit(h).is_some() {
        return ill(format!("{h} is occupied"));
    }
    if h == CHIP {
        return ill(format!("{h} is Chip: a new unit cannot be placed there"));
    }
    if !adjacent(hero, h) {
        return ill(format!("{h} is not next to the Goblin Hero"));
    }
    check_limits(s, me)
}

/// The pile a rally takes a Regular from: the one named if it holds one,
/// else the first side in turn order (other than `me`) whose pile does.
fn rally_pile(s: &State, me: Side, named: Option<Side>) -> Option<Side> {
    if let Some(p) = named {
        if s.pile[usize::from(p)][usize::from(me)][0] > 0 {
            return Some(p);
        }
    }
    s.sides()
        .iter()
        .copied()
        .find(|&p| p != me && s.pile[usize::from(p)][usize::from(me)][0] > 0)
}

fn check_rally(s: &State, me: Side, pile: Option<Side>, at: Option<Hex>) -> R {
    if s.captured_of(me) < 2 {
        return ill("rally needs at least two of your units captured");
    }
    if s.prisoners_held(me) == 0 {
        return ill("rally needs at least one opposing unit in your Captured pile");
    }
    if rally_pile(s, me, None).is_none() {
        return ill("no Regular unit of yours is captured (only Regulars can be rallied)");
    }
    if let Some(p) = pile {
        if !s.plays(p) {
            return ill(format!("{} is not in this game", army(p)));
        }
        if p == me {
            return ill("you cannot rally from your own Captured pile");
        }
        if s.pile[usize::from(p)][usize::from(me)][0] == 0 {
            return ill(format!(
                "{}'s Captured pile holds no Regular of yours",
                army(p)
            ));
        }
    }
    if let Some(h) = at {
        if me != GOBLIN {
            return ill("only the Goblin Horde places a rallied unit");
        }
        check_horde_hex(s, me, h)?;
    }
    Ok(())
}

fn withdraw_hex(s: &State, me: Side) -> R<Hex> {
    if me == FALCON {
        return ill("the Falcon army has no Mounted unit");
    }
    let Some(h) = s.find(me, Kind::M) else {
        return ill(format!("the {} Mounted unit is not on the map", army(me)));
    };
    if awed(s, h) {
        return ill(format!(
            "the {} Mounted unit on {h} is next to the Falcon Hero (Awe) and cannot withdraw",
            army(me)
        ));
    }
    Ok(h)
}

fn check_partner(s: &State, me: Side, x: Side, what: &str) -> R {
    if !s.opts.prisoner_exchange {
        return ill("prisoner exchange is not in play (see the Options tag)");
    }
    if x == me {
        return ill(format!("you cannot {what} yourself"));
    }
    if !s.plays(x) {
        return ill(format!("{} is not in this game", army(x)));
    }
    if !s.in_game(x) {
        return ill(format!("{} is out of the game", army(x)));
    }
    Ok(())
}

fn check_exchange(s: &State, me: Side, x: Side) -> R {
    check_partner(s, me, x, "exchange with")?;
    if s.captured_of(me) < 2 {
        return ill("an exchange needs at least two of your units captured");
    }
    if s.pile[usize::from(me)][usize::from(x)][0] == 0 {
        return ill(format!(
            "an exchange with {} needs one of its Regulars in your Captured pile",
            army(x)
        ));
    }
    if s.pile[usize::from(x)][usize::from(me)][0] == 0 {
        return ill(format!(
            "{}'s Captured pile holds no Regular of yours",
            army(x)
        ));
    }
    if s.offers[usize::from(x)] & bit(me) == 0 {
        return ill(format!(
            "{} has not offered an exchange to {}",
            army(x),
            army(me)
        ));
    }
    Ok(())
}

/// Whether a rally declared now could be settled: the next player in
/// settles it, if its line can (a game without commitments cannot). A
/// rally that cannot be is no action the mover can make.
fn rally_settles(s: &State) -> bool {
    s.t.settlers & bit(s.next_in(s.mover)) != 0
}

/// Could the mover make the turn's mandatory action now?
pub fn main_action_possible(s: &State) -> bool {
    let me = s.mover;
    if any_move(s, me) || any_placement(s, me) {
        return true;
    }
    if (rally_settles(s) && check_rally(s, me, None, None).is_ok()) || withdraw_hex(s, me).is_ok() {
        return true;
    }
    s.sides().iter().any(|&x| check_exchange(s, me, x).is_ok())
}

/// Whether one of `me`'s units could move: a unit of a chain moves next
/// to the chain, so some unit can when a hex next to any of them is
/// vacant (a Charge passes a vacant hex or one of the mover's own, whose
/// neighbour it enters); a Falcon unit moves up to two spaces.
fn any_move(s: &State, me: Side) -> bool {
    let vacant = !s.occupied() & super::board::ALL;
    let own = s.own(me);
    if me == FALCON {
        hexes(own).any(|f| WITHIN2[f.idx()] & vacant != 0)
    } else {
        nbrs(own) & vacant != 0
    }
}

/// Whether `me` could place a unit: what [`check_place`] asks of each
/// kind and hex, with the questions that do not depend on the hex asked
/// once.
fn any_placement(s: &State, me: Side) -> bool {
    let vacant = !s.occupied() & super::board::ALL;
    let hexes_open = if me == FALCON {
        vacant
    } else {
        placement_reach(s, me) & vacant & !CHIP.bit()
    };
    if hexes_open == 0 {
        return false;
    }
    let kind_open = |kind: Kind| {
        let other = if kind == Kind::H { Kind::M } else { Kind::H };
        s.reserve[usize::from(me)][kind.idx()] > 0
            && !(me == FALCON && kind == Kind::M)
            && !(s.opts.hero_or_mounted && kind != Kind::R && s.find(me, other).is_some())
    };
    Kind::ALL.into_iter().any(kind_open) && check_limits(s, me).is_ok()
}

// ---------------------------------------------------------------------------
// Applying actions.

fn game_over(s: &State) -> Illegal {
    Illegal::new(match s.result {
        Outcome::Won(w) => format!("the game is over ({} won)", army(w)),
        _ => "the game is over (a draw)".to_string(),
    })
}

/// Apply one action, all or nothing.
pub fn apply(state: &mut State, a: Action) -> R {
    if state.t.adv_to == 0 {
        // No advance to decline first: every action makes all its checks
        // before it changes anything, so a refused one leaves the
        // position as it was without a copy to fall back on.
        return apply_in(state, a);
    }
    apply_on_copy(state, a)
}

/// [`apply`] made on a copy of the position, kept only when the action
/// is legal: a pending advance is declined (the map changes) before the
/// action is judged.
fn apply_on_copy(state: &mut State, a: Action) -> R {
    let mut s = *state;
    apply_in(&mut s, a)?;
    *state = s;
    Ok(())
}

fn is_advance(s: &State, from: Hex, to: Hex) -> bool {
    s.t.adv_to & to.bit() != 0
        && s.unit(to).is_none()
        && adjacent(from, to)
        && matches!(s.unit(from), Some((o, _)) if o == s.mover)
}

/// What taking one of the turn's slots makes of the turn: its mandatory
/// action, whether the Dwarf Hero's Berserk move is made, and whether a
/// lone Dwarf Hero move made before becomes that Berserk move. Worked out
/// before anything changes, so that an action refused later leaves the
/// position as it was.
#[derive(Clone, Copy)]
struct Slot {
    main: Main,
    berserk: bool,
    mark_berserk: bool,
}

/// The turn's mandatory action slot for `what` (a placement, a move of a
/// unit other than the Dwarf Hero, a rally, a withdrawal or an exchange).
/// A placement or a move after a lone Dwarf Hero move makes that move the
/// Berserk move.
fn main_slot(t: &TurnState, what: Main) -> R<Slot> {
    match t.main {
        Main::None => Ok(Slot {
            main: what,
            berserk: t.berserk,
            mark_berserk: false,
        }),
        Main::DwarfHero if matches!(what, Main::Place | Main::Move) => Ok(Slot {
            main: what,
            berserk: true,
            mark_berserk: true,
        }),
        _ => ill("the turn's action was already made"),
    }
}

/// The turn's slot for a move of the Dwarf Hero: the turn's action while
/// none was made, else its Berserk move (once, beside a placement or a
/// move).
fn dwarf_hero_slot(t: &TurnState) -> R<Slot> {
    match t.main {
        Main::None => Ok(Slot {
            main: Main::DwarfHero,
            berserk: t.berserk,
            mark_berserk: false,
        }),
        Main::Place | Main::Move if !t.berserk => Ok(Slot {
            main: t.main,
            berserk: true,
            mark_berserk: false,
        }),
        Main::Place | Main::Move | Main::DwarfHero => {
            ill("the Dwarf Hero has already moved this turn")
        }
        _ => ill("the turn's action was already made"),
    }
}

/// Take a slot found by [`main_slot`] or [`dwarf_hero_slot`].
fn take(s: &mut State, slot: Slot) {
    s.t.main = slot.main;
    s.t.berserk = slot.berserk;
    if slot.mark_berserk {
        s.log.mark_berserk();
    }
}

/// The mover, if the game goes on and it is still in.
fn mover_in(s: &State) -> R<Side> {
    if s.over() {
        return Err(game_over(s));
    }
    let me = s.mover;
    if !s.in_game(me) {
        return ill(format!("{} is out of the game", army(me)));
    }
    Ok(me)
}

/// An Advance After Capture may be pending: a movement that is a legal
/// advance now is the advance (made here: returns true); any other action
/// but the free `offer-exchange` (which leaves the map alone) declines it,
/// and the captures that follow are made before the action.
fn advance_or_decline(s: &mut State, me: Side, a: Action) -> R<bool> {
    while s.t.adv_to != 0 && !matches!(a, Action::OfferExchange(_)) {
        if let Action::Move { from, to } = a {
            if is_advance(s, from, to) {
                let (side, kind) = s.unit(from).expect("checked");
                s.shift(from, to);
                s.log.push(Event::Move {
                    side,
                    kind,
                    from,
                    to,
                    how: How::Advance,
                });
                s.t.adv_to = 0;
                s.t.acts += 1;
                resolve(s, me, Advance::Offered);
                return Ok(true);
            }
        }
        s.t.adv_to = 0;
        resolve(s, me, Advance::Offered);
        mover_in(s)?;
    }
    Ok(false)
}

fn apply_in(s: &mut State, a: Action) -> R {
    let me = mover_in(s)?;
    if advance_or_decline(s, me, a)? {
        return Ok(());
    }
    match a {
        Action::Place { kind, hex } => place(s, me, kind, hex)?,
        Action::Move { from, to } => move_unit(s, me, from, to)?,
        Action::Rally { pile, at } => declare_rally(s, me, pile, at)?,
        Action::Withdraw => withdraw(s, me)?,
        Action::Exchange(x) => exchange(s, me, x)?,
        Action::OfferExchange(x) => offer_exchange(s, me, x)?,
        Action::Force { from, to } => force(s, me, from, to)?,
    }
    s.t.acts += 1;
    Ok(())
}

fn place(s: &mut State, me: Side, kind: Kind, hex: Hex) -> R {
    if s.t.main != Main::None && s.t.main != Main::DwarfHero {
        return ill("the turn's action was already made");
    }
    check_place(s, me, kind, hex)?;
    take(s, main_slot(&s.t, Main::Place)?);
    s.reserve[usize::from(me)][kind.idx()] -= 1;
    s.put(hex, me, kind);
    s.log.push(Event::Place {
        side: me,
        kind,
        hex,
    });
    resolve(s, me, Advance::Offered);
    Ok(())
}

fn move_unit(s: &mut State, me: Side, from: Hex, to: Hex) -> R {
    let kind = match s.unit(from) {
        Some((o, k)) if o == me => k,
        _ if from == to => return ill("a move needs two different hexes"),
        _ => return ill(format!("{from} holds no unit of yours")),
    };
    let dwarf_hero = me == DWARF && kind == Kind::H;
    let slot = if dwarf_hero {
        dwarf_hero_slot(&s.t)?
    } else {
        main_slot(&s.t, Main::Move)?
    };
    check_move(s, me, from, to)?;
    take(s, slot);
    let how = if dwarf_hero && s.t.berserk {
        How::Berserk
    } else if me == HUMAN && kind == Kind::H && !adjacent(from, to) && {
        let own = s.own(HUMAN);
        nbrs(grow(from.bit(), own)) & to.bit() == 0
    } {
        How::Charge
    } else {
        How::Main
    };
    s.shift(from, to);
    s.log.push(Event::Move {
        side: me,
        kind,
        from,
        to,
        how,
    });
    resolve(s, me, Advance::Offered);
    Ok(())
}

fn declare_rally(s: &mut State, me: Side, pile: Option<Side>, at: Option<Hex>) -> R {
    let slot = main_slot(&s.t, Main::Rally)?;
    check_rally(s, me, pile, at)?;
    take(s, slot);
    let flips = if me == GOBLIN && s.find(GOBLIN, Kind::H).is_some() {
        2
    } else {
        1
    };
    s.t.rally = Some(Rally {
        side: me,
        pile,
        at,
        flips,
    });
    s.log.push(Event::RallyDeclared { side: me, pile, at });
    Ok(())
}

fn withdraw(s: &mut State, me: Side) -> R {
    let slot = main_slot(&s.t, Main::Withdraw)?;
    let h = withdraw_hex(s, me)?;
    take(s, slot);
    s.clear(h);
    s.reserve[usize::from(me)][Kind::M.idx()] += 1;
    s.log.push(Event::Withdraw { side: me, from: h });
    resolve(s, me, Advance::Offered);
    Ok(())
}

fn exchange(s: &mut State, me: Side, x: Side) -> R {
    if s.t.main != Main::None {
        return ill("the turn's action was already made");
    }
    check_exchange(s, me, x)?;
    take(s, main_slot(&s.t, Main::Exchange)?);
    let (m, xi) = (usize::from(me), usize::from(x));
    s.pile[m][xi][0] -= 1;
    s.reserve[xi][0] += 1;
    s.pile[xi][m][0] -= 1;
    s.reserve[m][0] += 1;
    s.log.push(Event::Exchange { side: me, with: x });
    Ok(())
}

fn offer_exchange(s: &mut State, me: Side, x: Side) -> R {
    check_partner(s, me, x, "offer an exchange to")?;
    if s.offers[usize::from(me)] & bit(x) != 0 {
        return ill(format!(
            "you have already offered an exchange to {}",
            army(x)
        ));
    }
    s.offers[usize::from(me)] |= bit(x);
    s.log.push(Event::Offer { side: me, to: x });
    Ok(())
}

/// The Elf Hero's forced advance: the enemy unit on `from` into `to`, a
/// hex an Elf unit left in a retreat the Elf Hero gave.
fn force(s: &mut State, me: Side, from: Hex, to: Hex) -> R {
    if me != ELF {
        return ill("only the Elf army can force an advance");
    }
    if s.t.acts != 0 {
        return ill("a forced advance must be the turn's first action");
    }
    if s.force_mask & to.bit() == 0 {
        return ill(format!(
            "no Elf unit left {to} in a retreat the Elf Hero gave since your last turn"
        ));
    }
    if s.unit(to).is_some() {
        return ill(format!("{to} is occupied"));
    }
    let (side, kind) = match s.unit(from) {
        Some((o, k)) if o != ELF => (o, k),
        _ => return ill(format!("{from} holds no enemy unit")),
    };
    if !adjacent(from, to) {
        return ill(format!("{from} is not next to {to}"));
    }
    s.shift(from, to);
    s.force_mask = 0;
    s.log.push(Event::Move {
        side,
        kind,
        from,
        to,
        how: How::Forced,
    });
    resolve(s, me, Advance::Offered);
    Ok(())
}

// ---------------------------------------------------------------------------
// Turns.

/// Decline any pending advance and let the map settle.
fn settle_map(s: &mut State) {
    let me = s.mover;
    while s.t.adv_to != 0 && !s.over() {
        s.t.adv_to = 0;
        resolve(s, me, Advance::Offered);
    }
    s.t.adv_to = 0;
}

/// Pass play to the next player still in.
fn pass_on(s: &mut State) {
    let me = s.mover;
    if me == ELF {
        s.force_mask = 0;
    }
    s.mover = s.next_in(me);
    s.turn_no += 1;
    s.t = TurnState::new();
}

/// Finish the turn.
pub fn end_turn(state: &mut State) -> R {
    if state.over() {
        return Ok(());
    }
    if state.t.adv_to == 0 {
        // The map is settled: the turn is judged before anything changes.
        return pass_turn(state);
    }
    let mut s = *state;
    settle_map(&mut s);
    pass_turn(&mut s)?;
    *state = s;
    Ok(())
}

/// Pass the turn on once the map is settled, unless it lacks the action
/// it needs (then nothing changes).
fn pass_turn(s: &mut State) -> R {
    let me = s.mover;
    if !s.over() {
        if s.in_game(me) && s.t.main == Main::None && main_action_possible(s) {
            return ill(
                "the turn needs its action (a placement, a move, a rally or a withdrawal); \
                 a pass is legal only when none is possible",
            );
        }
        if s.in_game(me) {
            s.pending = s.t.rally;
        }
        pass_on(s);
    }
    Ok(())
}

/// Start a turn; `settlers` (bit per army): whose next line could settle
/// a rally declared on it.
pub fn begin_turn(s: &mut State, settlers: u8) -> R {
    if s.over() {
        return Err(game_over(s));
    }
    if let Some(r) = s.pending {
        return ill(format!(
            "the rally by {} must be settled first",
            army(r.side)
        ));
    }
    s.fresh_log();
    s.t = TurnState::new();
    s.t.settlers = settlers;
    Ok(())
}

/// Settle a pending rally with its coin values (1 = heads).
pub fn settle(state: &mut State, values: &[u32]) -> R {
    let Some(r) = state.pending else {
        return ill("no chance event is pending");
    };
    if values.len() != usize::from(r.flips) {
        return ill(format!(
            "the rally needs {} coin value{}, got {}",
            r.flips,
            if r.flips == 1 { "" } else { "s" },
            values.len()
        ));
    }
    if let Some(v) = values.iter().find(|&&v| v > 1) {
        return ill(format!("a coin value must be 0 or 1, got {v}"));
    }
    let mut s = *state;
    s.pending = None;
    s.fresh_log();
    let heads = values.contains(&1);
    let me = r.side;
    let mut from_pile = None;
    let mut placed = None;
    if heads && s.in_game(me) {
        if let Some(p) = rally_pile(&s, me, r.pile) {
            from_pile = Some(p);
            s.pile[usize::from(p)][usize::from(me)][0] -= 1;
            match r.at {
                Some(h) if check_horde_hex(&s, me, h).is_ok() => {
                    s.put(h, me, Kind::R);
                    placed = Some(h);
                }
                _ => s.reserve[usize::from(me)][0] += 1,
            }
        }
    }
    s.log.push(Event::RallySettled {
        side: me,
        heads,
        from_pile,
        placed,
    });
    if placed.is_some() {
        resolve(&mut s, me, Advance::NotOffered);
    }
    if !s.over() && !s.in_game(s.mover) {
        s.mover = s.next_in(s.mover);
    }
    *state = s;
    Ok(())
}

/// `side` resigns: in a game of three or more it leaves like an eliminated
/// player; the last player in wins.
pub fn resign(s: &mut State, side: Side) {
    if s.over() || !s.in_game(side) {
        return;
    }
    let mover = side == s.mover;
    if mover {
        settle_map(s);
    }
    if s.over() {
        return;
    }
    if s.in_game(side) {
        s.fresh_log();
        s.log.push(Event::Resign { side });
        eliminate(s, side);
        check_last(s);
        // Units leaving the map uncover a named-space victory only when the
        // Falcon army leaves.
        check_victory(s);
    }
    if mover && !s.over() {
        pass_on(s);
    }
}

// ---------------------------------------------------------------------------
// Legal actions.

fn push_if_ok(s: &State, a: Action, out: &mut Vec<Action>) {
    let mut w = *s;
    if apply_in(&mut w, a).is_ok() {
        out.push(a);
    }
}

/// Every action legal now, in a stable order: forced advances, placements,
/// moves (with advances and Berserk moves), rallies, a withdrawal,
/// exchanges, offers. Each candidate is tried on a copy of `s`.
pub fn legal_actions(s: &State, out: &mut Vec<Action>) {
    if s.over() || !s.in_game(s.mover) {
        return;
    }
    let me = s.mover;
    // Where a pending advance is declined by any other action, candidates
    // come from the position after the decline.
    let declined;
    let base = if s.t.adv_to != 0 {
        let mut d = *s;
        settle_map(&mut d);
        if d.over() || !d.in_game(me) {
            // Only advances remain possible.
            push_moves(s, None, out);
            return;
        }
        declined = d;
        &declined
    } else {
        s
    };
    push_forced_advances(s, base, out);
    if matches!(base.t.main, Main::None | Main::DwarfHero) {
        push_placements(s, base, out);
    }
    push_moves(s, Some(base), out);
    if base.t.main == Main::None {
        push_rallies(s, base, out);
        push_if_ok(s, Action::Withdraw, out);
        for &x in s.sides() {
            push_if_ok(s, Action::Exchange(x), out);
        }
    }
    for &x in s.sides() {
        push_if_ok(s, Action::OfferExchange(x), out);
    }
}

/// The Elf's forced advances, the turn's first action: an enemy unit next
/// to a hex an Elf unit left in a retreat the Elf Hero gave.
fn push_forced_advances(s: &State, base: &State, out: &mut Vec<Action>) {
    if s.mover != ELF || s.t.acts != 0 {
        return;
    }
    let vacant = !base.occupied() & super::board::ALL;
    for to in hexes(s.force_mask & vacant) {
        for from in hexes(NEIGH[to.idx()] & s.occupied() & !s.own(ELF)) {
            push_if_ok(s, Action::Force { from, to }, out);
        }
    }
}

/// Placements from the Reserve, judged in `base` (`s` once a pending
/// advance is declined).
fn push_placements(s: &State, base: &State, out: &mut Vec<Action>) {
    let me = s.mover;
    let vacant = !base.occupied() & super::board::ALL;
    for kind in Kind::ALL {
        if base.reserve[usize::from(me)][kind.idx()] == 0 {
            continue;
        }
        for hex in hexes(placement_reach(base, me) & vacant) {
            push_if_ok(s, Action::Place { kind, hex }, out);
        }
    }
}

/// Moves from each of the mover's units, destinations in hex order: a
/// pending advance and, unless `base` is `None` (only the advance is
/// left), the turn's move or the Dwarf Hero's Berserk move, judged in
/// `base`.
fn push_moves(s: &State, base: Option<&State>, out: &mut Vec<Action>) {
    let me = s.mover;
    for from in hexes(s.own(me)) {
        let mut dests = s.t.adv_to & NEIGH[from.idx()];
        if let Some(base) = base {
            let main_open = matches!(base.t.main, Main::None | Main::DwarfHero);
            if base.own(me) & from.bit() != 0 && (main_open || me == DWARF) {
                dests |= move_dests(base, from);
            }
        }
        for to in hexes(dests) {
            push_if_ok(s, Action::Move { from, to }, out);
        }
    }
}

/// Rallies, when the next player could settle one: from the pile a rally
/// takes by default, then naming each other pile that holds a Regular of
/// the mover's; the Goblin Horde also with each placement next to its Hero.
fn push_rallies(s: &State, base: &State, out: &mut Vec<Action>) {
    let me = s.mover;
    if !rally_settles(base) {
        return;
    }
    let default_pile = rally_pile(base, me, None);
    let mut piles: [Option<Side>; 6] = [None; 6];
    let mut np = 1;
    for &p in base.sides() {
        if p != me && Some(p) != default_pile && base.pile[usize::from(p)][usize::from(me)][0] > 0 {
            piles[np] = Some(p);
            np += 1;
        }
    }
    let vacant = !base.occupied() & super::board::ALL;
    for &pile in &piles[..np] {
        push_if_ok(s, Action::Rally { pile, at: None }, out);
        if me == GOBLIN {
            if let Some(hero) = base.find(GOBLIN, Kind::H) {
                for h in hexes(NEIGH[hero.idx()] & vacant) {
                    push_if_ok(s, Action::Rally { pile, at: Some(h) }, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Setup, Undrawn};
    use crate::games::battle_of_the_dale::BattleOfTheDale;
    use crate::selfplay::SplitMix;

    /// Put the unit of `code` on hex `h` (nothing for 0).
    fn put_code(s: &mut State, h: usize, code: u8) {
        let hex = Hex(h as u8);
        match code.checked_sub(1) {
            Some(c) => s.put(hex, Side(c / 3), Kind::from_index(c % 3)),
            None => s.clear(hex),
        }
    }

    /// A new game of `armies` armies, without options.
    fn new_game_of(armies: usize) -> State {
        let sides: Vec<Side> = (0..armies).map(|a| Side(a as u8)).collect();
        let setup = Setup {
            sides: &sides,
            tags: &[],
        };
        BattleOfTheDale::new_game(&setup).unwrap()
    }

    /// `start` with every hex filled at random: empty where `empty` says
    /// so, else a unit of any kind of one of its `armies` armies.
    fn random_map(
        start: &State,
        armies: usize,
        rng: &mut SplitMix,
        empty: impl Fn(&mut SplitMix) -> bool,
    ) -> State {
        let mut s = *start;
        for h in 0..N_HEX {
            let code = if empty(rng) {
                0
            } else {
                1 + rng.below(3 * armies) as u8
            };
            put_code(&mut s, h, code);
        }
        s
    }

    /// [`main_action_possible`] as it was: every placement of every kind
    /// on every hex, and every unit's moves, tried one by one.
    fn main_action_possible_one_by_one(s: &State) -> bool {
        let me = s.mover;
        for kind in Kind::ALL {
            if s.reserve[usize::from(me)][kind.idx()] == 0 {
                continue;
            }
            let cand = placement_reach(s, me) & !s.occupied() & super::super::board::ALL;
            for h in hexes(cand) {
                if check_place(s, me, kind, h).is_ok() {
                    return true;
                }
            }
        }
        for f in hexes(s.own(me)) {
            if move_dests(s, f) != 0 {
                return true;
            }
        }
        if (rally_settles(s) && check_rally(s, me, None, None).is_ok())
            || withdraw_hex(s, me).is_ok()
        {
            return true;
        }
        s.sides().iter().any(|&x| check_exchange(s, me, x).is_ok())
    }

    /// Whether the mover could act is what trying each placement and
    /// move one by one found, on random maps of two to five armies (with
    /// random Reserves, options and movers), crowded and sparse.
    #[test]
    fn an_action_is_possible_where_one_by_one_one_was_found() {
        let mut rng = SplitMix::new(30);
        let (mut possible, mut impossible) = (0, 0);
        for armies in 2..=5 {
            let start = new_game_of(armies);
            for _ in 0..4_000 {
                let crowd = 2 + rng.below(40);
                let mut s = random_map(&start, armies, &mut rng, |rng| rng.below(crowd) == 0);
                s.mover = Side(rng.below(armies) as u8);
                for side in 0..armies {
                    s.reserve[side] = [0, 1, 2].map(|_| rng.below(4).saturating_sub(2) as u8);
                }
                s.opts.max5 = rng.below(2) == 0;
                s.opts.arms_race = rng.below(2) == 0;
                s.opts.hero_or_mounted = rng.below(2) == 0;
                let found = main_action_possible(&s);
                assert_eq!(found, main_action_possible_one_by_one(&s), "{s:?}");
                possible += usize::from(found);
                impossible += usize::from(!found);
            }
        }
        assert!(
            possible > 1_000 && impossible > 1_000,
            "{possible} / {impossible}"
        );
    }

    /// Any action, legal or not: random kinds, hexes and armies.
    fn any_action(rng: &mut SplitMix) -> Action {
        let hex = |rng: &mut SplitMix| Hex(rng.below(N_HEX) as u8);
        let side = |rng: &mut SplitMix| Side(rng.below(5) as u8);
        let maybe = |rng: &mut SplitMix| rng.below(2) == 0;
        match rng.below(10) {
            0..=2 => Action::Place {
                kind: Kind::from_index(rng.below(3) as u8),
                hex: hex(rng),
            },
            3..=5 => Action::Move {
                from: hex(rng),
                to: hex(rng),
            },
            6 => Action::Rally {
                pile: maybe(rng).then(|| side(rng)),
                at: maybe(rng).then(|| hex(rng)),
            },
            7 => Action::Withdraw,
            8 => match rng.below(2) {
                0 => Action::Exchange(side(rng)),
                _ => Action::OfferExchange(side(rng)),
            },
            _ => Action::Force {
                from: hex(rng),
                to: hex(rng),
            },
        }
    }

    /// The turn's end as it was made before: always on a copy, the map
    /// settled first.
    fn end_turn_on_copy(state: &mut State) -> R {
        if state.over() {
            return Ok(());
        }
        let mut s = *state;
        settle_map(&mut s);
        pass_turn(&mut s)?;
        *state = s;
        Ok(())
    }

    /// `state` after `step`, and what it returned, as text to compare.
    fn after(state: &State, step: impl Fn(&mut State) -> R) -> String {
        let mut s = *state;
        let verdict = step(&mut s);
        format!("{verdict:?} {s:?}")
    }

    /// An action made in place (no advance pending), or a turn ended in
    /// place (the map settled), ends as it did on a copy: the same
    /// verdict, and the same position, refused or not; along random games
    /// of two to five armies, each position tried with random actions.
    #[test]
    fn actions_and_turn_ends_made_in_place_end_as_on_a_copy() {
        let mut rng = SplitMix::new(15);
        let (mut in_place, mut refused_in_place, mut ended_in_place) = (0, 0, 0);
        for game in 0..60 {
            let armies = 2 + game % 4;
            let sides: Vec<Side> = (0..armies).map(|a| Side(a as u8)).collect();
            let options = if game % 3 == 0 {
                "prisoner-exchange"
            } else {
                ""
            };
            let tags = [("Options".to_string(), options.to_string())];
            let setup = Setup {
                sides: &sides,
                tags: &tags,
            };
            let mut s = BattleOfTheDale::new_game(&setup).unwrap();
            let mut legal = Vec::new();
            for _ in 0..400 {
                if s.over() {
                    break;
                }
                if let Some(r) = s.pending {
                    let values: Vec<u32> = (0..r.flips).map(|_| rng.below(2) as u32).collect();
                    settle(&mut s, &values).unwrap();
                    continue;
                }
                if s.t.acts == 0 && s.t.main == Main::None {
                    BattleOfTheDale::begin_turn(&mut s, &mut Undrawn).unwrap();
                }
                for _ in 0..8 {
                    let a = any_action(&mut rng);
                    let fast = after(&s, |s| apply(s, a));
                    assert_eq!(fast, after(&s, |s| apply_on_copy(s, a)), "{a:?} in {s:?}");
                    if s.t.adv_to == 0 {
                        in_place += 1;
                        refused_in_place += usize::from(fast.starts_with("Err"));
                    }
                }
                let ended = after(&s, end_turn);
                assert_eq!(ended, after(&s, end_turn_on_copy), "{s:?}");
                ended_in_place += usize::from(s.t.adv_to == 0);
                legal.clear();
                legal_actions(&s, &mut legal);
                if legal.is_empty() || rng.below(4) == 0 {
                    if end_turn(&mut s).is_err() {
                        let a = legal[rng.below(legal.len().max(1))];
                        apply(&mut s, a).unwrap();
                    }
                } else {
                    apply(&mut s, legal[rng.below(legal.len())]).unwrap();
                }
            }
        }
        assert!(in_place > 20_000, "{in_place} actions made in place");
        assert!(
            (2_000..in_place - 2_000).contains(&refused_in_place),
            "{refused_in_place} of {in_place} refused"
        );
        assert!(ended_in_place > 2_000, "{ended_in_place} turn ends");
    }

    /// [`capturers`] as the rule reads, hex by hex over every unit on the
    /// map (what it did before it looked only at hexes touched twice).
    fn capturers_hex_by_hex(s: &State) -> Option<[Option<Side>; N_HEX]> {
        let (own, mounted) = strike_masks(s);
        capturers_among(s, (&own, &mounted), u32::MAX)
    }

    #[test]
    fn captures_are_found_as_hex_by_hex_on_random_maps() {
        let mut rng = SplitMix::new(8);
        let mut found = 0;
        for armies in 2..=5 {
            let start = new_game_of(armies);
            for _ in 0..2_000 {
                let s = random_map(&start, armies, &mut rng, |rng| rng.below(5) <= 2);
                let by = capturers(&s);
                assert_eq!(by, capturers_hex_by_hex(&s), "{:?}", s.board());
                found += usize::from(by.is_some());
            }
        }
        // Maps with captures and maps without, both in numbers.
        assert!(
            (1_000..7_000).contains(&found),
            "{found} maps with captures"
        );
    }
}
