//! The rules: the start and end of a turn, the cost of adding a piece,
//! making actions, and listing the legal ones.

use crate::game::{Illegal, Outcome, Side};
use crate::illegal;

use super::action::{Action, Route};
use super::board::{forward, opponent, portal, side_name, Dir, Sq, Terrain, COLS, ROWS, SQUARES};
use super::state::{Cell, End, Event, Kind, Log, Piece, State, Turn};

/// "a Wall", "Red Fire", "a Blue Wizard", "nothing".
pub fn describe(cell: Cell) -> String {
    match cell {
        Cell::Empty => "nothing".to_string(),
        Cell::Wall => "a Wall".to_string(),
        Cell::Fire(s) => format!("{} Fire", side_name(s)),
        Cell::Piece(p) => format!("a {} {}", side_name(p.side), p.kind.name()),
    }
}

/// Every square of the board, as a square set (bit `sq.0` for `sq`).
const BOARD: u64 = (1 << SQUARES) - 1;

/// A square set of the squares of one row (0 = row `1`).
const fn row_set(row: u8) -> u64 {
    ((1u64 << COLS) - 1) << (row * COLS)
}

/// A square set of the squares of one column (0 = `a`).
const fn col_set(col: u8) -> u64 {
    let mut set = 0u64;
    let mut row = 0;
    while row < ROWS {
        set |= 1 << (row * COLS + col);
        row += 1;
    }
    set
}

/// The river (row 5): nothing ever stands there.
const RIVER: u64 = row_set(4);
/// Column `a`, which has nothing to its left.
const COL_A: u64 = col_set(0);
/// Column `g`, which has nothing to its right.
const COL_G: u64 = col_set(COLS - 1);

/// The squares one orthogonal step from a square of `set`.
fn neighbours(set: u64) -> u64 {
    ((set << COLS) | (set >> COLS) | ((set & !COL_G) << 1) | ((set & !COL_A) >> 1)) & BOARD
}

/// Breadth-first search from `from` over open squares (not the river,
/// nothing standing there), a whole distance at a time: calls `ring`
/// with each distance from 1 to `limit` and the squares first reached at
/// it, while it returns true and new squares are reached.
fn search(state: &State, from: Sq, limit: u8, mut ring: impl FnMut(u8, u64) -> bool) {
    let open = BOARD & !RIVER & !state.occupied();
    let mut reached = 1u64 << from.0;
    let mut frontier = reached;
    for d in 1..=limit {
        frontier = neighbours(frontier) & open & !reached;
        if frontier == 0 || !ring(d, frontier) {
            return;
        }
        reached |= frontier;
    }
}

/// The length of a shortest open path from `from` to `to`, if any.
pub fn shortest(state: &State, from: Sq, to: Sq) -> Option<u8> {
    if from == to {
        return Some(0);
    }
    let target = 1u64 << to.0;
    let mut found = None;
    search(state, from, u8::MAX - 1, |d, ring| {
        if ring & target != 0 {
            found = Some(d);
        }
        found.is_none()
    });
    found
}

/// The squares of a square set, from `a1` to `g9`.
fn squares(mut set: u64) -> impl Iterator<Item = Sq> {
    std::iter::from_fn(move || {
        let first = set.trailing_zeros();
        // A set has 63 squares at most: a bit found is below 64.
        (set != 0).then(|| {
            set &= set - 1;
            Sq(first as u8)
        })
    })
}

/// What adding a piece costs the side to move now: 2 moves if it has at
/// least as many movable pieces as the opponent, else nothing.
pub fn add_cost(state: &State) -> u8 {
    if state.movable(state.to_move) >= state.movable(opponent(state.to_move)) {
        2
    } else {
        0
    }
}

/// Turn steps 1 and 2 for the side to move: its Fire goes out, its
/// Cannons are reset, and the moves are counted. Doing it twice in a row
/// changes nothing.
pub fn start_turn(state: &mut State) {
    let me = state.to_move;
    for sq in squares(state.fire(me)) {
        state.set(sq, Cell::Empty);
    }
    for sq in squares(state.fired()) {
        if let Cell::Piece(p) = state.cell(sq) {
            if p.side == me {
                state.set(sq, Cell::Piece(Piece { fired: false, ..p }));
            }
        }
    }
    let wizards = state.wizards(me);
    let moves = 3u8.saturating_add(wizards.saturating_mul(3));
    state.turn = Turn {
        moves_total: moves,
        moves_left: moves,
        wizards,
        acted: false,
        portal_was_empty: state.cell(portal(me)) == Cell::Empty,
        log: Log::new(),
    };
    state.active = true;
}

/// The turn's end: the opponent moves next.
pub fn end_turn(state: &mut State) {
    if !state.outcome.is_over() {
        state.to_move = opponent(state.to_move);
        state.active = false;
    }
}

/// `side` resigns: the opponent wins.
pub fn resign(state: &mut State, side: Side) {
    if !state.outcome.is_over() {
        state.outcome = Outcome::Won(opponent(side));
        state.end = End::Resigned(side);
    }
}

/// What `action` costs now, if that can be told.
pub fn cost(state: &State, action: &Action) -> Option<u8> {
    match *action {
        Action::Add { .. } => Some(add_cost(state)),
        Action::Move {
            from, to, route, ..
        } => match route {
            Route::Ends => shortest(state, from, to),
            Route::Path { len, .. } => Some(len),
            _ => None,
        },
        Action::Build { .. } | Action::Remove { .. } => Some(1),
        Action::Fire { from, to, .. } => {
            (from.col() == to.col() && from != to).then(|| from.row().abs_diff(to.row()))
        }
    }
}

/// Refuse `cost` moves when fewer are left.
fn afford(state: &State, cost: u8, what: &str) -> Result<(), Illegal> {
    let left = state.turn.moves_left;
    if cost <= left {
        Ok(())
    } else {
        cannot_afford(left, cost, what)
    }
}

/// Why `cost` moves cannot be paid with `left` (kept out of [`afford`],
/// so that the check stays small where every action makes it).
#[cold]
fn cannot_afford(left: u8, cost: u8, what: &str) -> Result<(), Illegal> {
    let have = match left {
        0 => "no moves left".to_string(),
        1 => "only 1 move left".to_string(),
        n => format!("only {n} moves left"),
    };
    illegal!("{have}, {what} costs {cost}")
}

/// The mover's piece on `from`, matching the written letter if any.
fn origin(state: &State, from: Sq, piece: Option<Kind>) -> Result<Piece, Illegal> {
    match (state.own_piece(from), piece) {
        (Some(p), Some(k)) if p.kind != k => no_origin(state, from, piece),
        (Some(p), _) => Ok(p),
        (None, _) => no_origin(state, from, piece),
    }
}

/// Why the mover has no piece (of the written letter, if any) on `from`
/// (kept out of [`origin`], so that the check stays small).
#[cold]
fn no_origin(state: &State, from: Sq, piece: Option<Kind>) -> Result<Piece, Illegal> {
    let side = side_name(state.to_move);
    match piece {
        Some(k) => illegal!("no {side} {} on {from}", k.name()),
        None => illegal!("no {side} piece on {from}"),
    }
}

/// The square `sq` holds something a piece cannot enter or build on.
fn occupied(state: &State, sq: Sq) -> Result<(), Illegal> {
    match state.cell(sq) {
        Cell::Empty => Ok(()),
        c => holds(sq, c),
    }
}

/// Why a piece cannot enter or build on `sq`, where `c` stands.
#[cold]
fn holds(sq: Sq, c: Cell) -> Result<(), Illegal> {
    illegal!("{sq} holds {}", describe(c))
}

/// Make one action.
pub fn apply(state: &mut State, action: Action) -> Result<(), Illegal> {
    if state.outcome.is_over() {
        return illegal!("the game is over");
    }
    match action {
        Action::Add { kind, at } => add(state, kind, at),
        Action::Move {
            piece,
            from,
            to,
            route,
        } => move_piece(state, piece, from, to, route),
        Action::Build { piece, from, to } => build(state, piece, from, to),
        Action::Remove { piece, from, to } => remove(state, piece, from, to),
        Action::Fire { piece, from, to } => fire(state, piece, from, to),
    }?;
    state.turn.acted = true;
    Ok(())
}

fn add(state: &mut State, kind: Kind, at: Option<Sq>) -> Result<(), Illegal> {
    let me = state.to_move;
    let gate = portal(me);
    if kind == Kind::King {
        return illegal!("a King cannot be added, only a Wizard, Builder or Cannon");
    }
    if let Some(sq) = at.filter(|&sq| sq != gate) {
        return illegal!("{}'s Portal is {gate}, not {sq}", side_name(me));
    }
    if state.turn.acted {
        return illegal!("a piece may only be added as the turn's first action");
    }
    if !state.turn.portal_was_empty {
        return illegal!("the Portal {gate} was not empty at the start of the turn");
    }
    let cost = add_cost(state);
    afford(state, cost, "adding a piece")?;
    state.turn.moves_left -= cost;
    state.put(gate, me, kind);
    state.turn.log.push(Event::Added(kind, gate));
    Ok(())
}

fn move_piece(
    state: &mut State,
    piece: Option<Kind>,
    from: Sq,
    to: Sq,
    route: Route,
) -> Result<(), Illegal> {
    origin(state, from, piece)?;
    let cost = match route {
        Route::Ends => {
            if from == to {
                return illegal!("a move must go at least one square");
            }
            if to.terrain() == Terrain::River {
                return illegal!("{to} is in the river");
            }
            if to.half() != from.half() {
                return illegal!("{to} is across the river");
            }
            occupied(state, to)?;
            match shortest(state, from, to) {
                Some(d) => d,
                None => return illegal!("there is no open path from {from} to {to}"),
            }
        }
        Route::Path { len, .. } => {
            let mut sq = from;
            for dir in route.steps() {
                let Some(next) = sq.step(dir) else {
                    return illegal!("the path leaves the board at {sq}");
                };
                if next.terrain() == Terrain::River {
                    return illegal!("the path {sq}-{next} crosses the river");
                }
                occupied(state, next)?;
                sq = next;
            }
            len
        }
        Route::Gap { from: a, to: b } => {
            return if a.col() == b.col() || a.row() == b.row() {
                illegal!("the path {a}-{b} skips squares")
            } else if a.col().abs_diff(b.col()) == 1 && a.row().abs_diff(b.row()) == 1 {
                illegal!("the path {a}-{b} steps diagonally")
            } else {
                illegal!("the path {a}-{b} jumps")
            };
        }
        Route::Revisit(sq) => return illegal!("the path visits {sq} twice"),
        Route::TooLong => {
            return illegal!("the path is too long: no legal path has more than 27 steps")
        }
    };
    afford(state, cost, "this move")?;
    state.turn.moves_left -= cost;
    state.shift(from, to);
    Ok(())
}

/// The mover's Builder on `from`, next to `to`.
fn builder(
    state: &State,
    piece: Option<Kind>,
    from: Sq,
    to: Sq,
    verb: &str,
) -> Result<(), Illegal> {
    let p = origin(state, from, piece)?;
    if p.kind != Kind::Builder {
        return illegal!(
            "a {} cannot {verb} Walls, only a Builder can",
            p.kind.name()
        );
    }
    if !from.is_next_to(to) {
        return illegal!("{to} is not next to the Builder on {from}");
    }
    Ok(())
}

fn build(state: &mut State, piece: Option<Kind>, from: Sq, to: Sq) -> Result<(), Illegal> {
    builder(state, piece, from, to, "build")?;
    match to.terrain() {
        Terrain::River => return illegal!("{to} is in the river: no Wall may be built there"),
        Terrain::Sand => return illegal!("sand: no Wall may be built on {to}"),
        Terrain::Grass => {}
    }
    occupied(state, to)?;
    afford(state, 1, "building a Wall")?;
    state.turn.moves_left -= 1;
    state.set(to, Cell::Wall);
    state.turn.log.push(Event::Built(to));
    Ok(())
}

fn remove(state: &mut State, piece: Option<Kind>, from: Sq, to: Sq) -> Result<(), Illegal> {
    builder(state, piece, from, to, "remove")?;
    if state.cell(to) != Cell::Wall {
        return illegal!("there is no Wall on {to}");
    }
    afford(state, 1, "removing a Wall")?;
    state.turn.moves_left -= 1;
    state.set(to, Cell::Empty);
    state.turn.log.push(Event::Removed(to));
    Ok(())
}

fn fire(state: &mut State, piece: Option<Kind>, from: Sq, to: Sq) -> Result<(), Illegal> {
    let me = state.to_move;
    let p = origin(state, from, piece)?;
    if p.kind != Kind::Cannon {
        return illegal!("a {} cannot fire, only a Cannon can", p.kind.name());
    }
    if from == to {
        return illegal!("a Cannon cannot fire at its own square");
    }
    if from.col() != to.col() {
        return illegal!(
            "a cannonball flies straight along its column: {to} is not in line with {from}"
        );
    }
    let step = forward(me);
    let rising = to.row() > from.row();
    if rising != (step > 0) {
        return if step > 0 {
            illegal!("a Blue Cannon fires toward Red, to higher rows")
        } else {
            illegal!("a Red Cannon fires toward Blue, to lower rows")
        };
    }
    if p.fired {
        return illegal!("the Cannon on {from} has already fired this turn");
    }
    let distance = from.row().abs_diff(to.row());
    let dir = if step > 0 { Dir::Up } else { Dir::Down };
    let mut sq = from;
    for _ in 1..distance {
        sq = sq.step(dir).unwrap_or(sq);
        if state.cell(sq) == Cell::Wall {
            return illegal!("a cannonball cannot pass the Wall on {sq}");
        }
    }
    afford(state, distance, "this shot")?;
    state.turn.moves_left -= distance;
    state.set(from, Cell::Piece(Piece { fired: true, ..p }));
    let hit = state.cell(to);
    if to.terrain() != Terrain::River {
        let left = if to.is_portal() {
            Cell::Empty
        } else {
            Cell::Fire(me)
        };
        state.set(to, left);
        if let Cell::Piece(Piece {
            kind: Kind::King,
            side,
            ..
        }) = hit
        {
            state.outcome = Outcome::Won(opponent(side));
            state.end = End::KingHit { side, at: to };
        }
    }
    state.turn.log.push(Event::Shot { at: to, hit });
    Ok(())
}

/// Every legal action now, in a stable order: adds, then for each of the
/// mover's pieces from `a1` to `g9` its moves (by destination), Wall
/// builds and removals, and shots (nearest first).
pub fn legal_actions(state: &State, out: &mut Vec<Action>) {
    if state.outcome.is_over() {
        return;
    }
    let left = state.turn.moves_left;
    if !state.turn.acted && state.turn.portal_was_empty && add_cost(state) <= left {
        for kind in [Kind::Wizard, Kind::Builder, Kind::Cannon] {
            out.push(Action::Add { kind, at: None });
        }
    }
    for from in Sq::all() {
        let Some(p) = state.own_piece(from) else {
            continue;
        };
        let piece = Some(p.kind);
        if left > 0 {
            let mut within = 0u64;
            search(state, from, left, |_, ring| {
                within |= ring;
                true
            });
            for to in squares(within) {
                out.push(Action::Move {
                    piece,
                    from,
                    to,
                    route: Route::Ends,
                });
            }
        }
        match p.kind {
            Kind::Builder if left > 0 => {
                for dir in Dir::ALL {
                    let Some(to) = from.step(dir) else { continue };
                    match state.cell(to) {
                        Cell::Empty if to.terrain() == Terrain::Grass => {
                            out.push(Action::Build { piece, from, to })
                        }
                        Cell::Wall => out.push(Action::Remove { piece, from, to }),
                        _ => {}
                    }
                }
            }
            Kind::Cannon if !p.fired => {
                let dir = if forward(state.to_move) > 0 {
                    Dir::Up
                } else {
                    Dir::Down
                };
                let mut to = from;
                for _ in 0..left {
                    let Some(next) = to.step(dir) else { break };
                    to = next;
                    out.push(Action::Fire { piece, from, to });
                    if state.cell(to) == Cell::Wall {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
}
