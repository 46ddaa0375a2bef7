//! The dice phase: steps (with pushes and the Keep rules), runs, arrows,
//! and "the most that can be spent", found over every order of runs by
//! a depth-first search that stops as soon as the whole roll is spent.

use crate::game::Side;

use crate::games::battlegates::geometry::board::{side_name, Dir, Edge, Geometry, Loc, Sense, Sq};
use crate::games::battlegates::mazes::maze::OnEdge;
use crate::games::battlegates::moves::action::{Path, Shot};
use crate::games::battlegates::moves::gates::{quarter, Carry, Turner};
use crate::games::battlegates::pieces::characters::{Board, Dice, Id, Kind};

/// What a step did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stepped {
    /// The character moved.
    Moved,
    /// It killed this enemy by a ground attack (the run ends).
    Attacked(Id),
    /// It entered a Keep and killed this enemy there (the run ends).
    KeepKill(Id),
}

impl Stepped {
    /// Whether the run must end here.
    pub fn ends_run(self) -> bool {
        !matches!(self, Stepped::Moved)
    }

    /// The character killed.
    pub fn victim(self) -> Option<Id> {
        match self {
            Stepped::Moved => None,
            Stepped::Attacked(v) | Stepped::KeepKill(v) => Some(v),
        }
    }
}

/// How a location is written in a run: a square, or `K`.
pub fn loc_word(loc: Loc) -> String {
    let mut word = String::new();
    write_loc(loc, &mut word);
    word
}

/// [`loc_word`], appended to `out`.
pub fn write_loc(loc: Loc, out: &mut String) {
    match loc {
        Loc::Sq(sq) => sq.write_to(out),
        Loc::Keep(_) => out.push('K'),
    }
}

/// The edge between two neighbouring locations of board `g` and the
/// direction of a step from the first to the second.
pub fn link(g: &Geometry, from: Loc, to: Loc) -> Option<(Edge, Dir)> {
    match (from, to) {
        (Loc::Sq(a), Loc::Sq(b)) => Dir::ALL
            .into_iter()
            .find(|&d| g.step(a, d) == Some(b))
            .map(|d| (a.edge(d), d)),
        (Loc::Sq(a), Loc::Keep(k)) => g.entrance_of(k, a).map(|e| (e.edge, e.inward)),
        (Loc::Keep(k), Loc::Sq(b)) => g.entrance_of(k, b).map(|e| (e.edge, e.inward.back())),
        (Loc::Keep(_), Loc::Keep(_)) => None,
    }
}

/// The locations one step from `at` on board `g`: the squares in
/// [`Dir::ALL`]'s order, then the Keep an entrance square is joined to
/// (from a Keep, its entrances, west first). Worked out without
/// allocating: the dice search asks for them at every step it tries.
pub fn neighbours(g: &Geometry, at: Loc) -> impl Iterator<Item = Loc> {
    let mut out = [None; 5];
    match at {
        Loc::Sq(a) => {
            for (slot, d) in out.iter_mut().zip(Dir::ALL) {
                *slot = g.step(a, d).map(Loc::Sq);
            }
            out[4] = g.keep_next_to(a).map(|(k, _)| Loc::Keep(k));
        }
        Loc::Keep(k) => {
            if let Some(c) = g.castle(k) {
                for (slot, e) in out.iter_mut().zip(&c.entrances) {
                    *slot = Some(Loc::Sq(e.square));
                }
            }
        }
    }
    out.into_iter().flatten()
}

/// The sense of the push of a gate lying from its hinge in `lying` by a
/// step in `step`: its free end goes the way of the step.
fn push_sense(lying: Dir, step: Dir) -> Sense {
    if lying.turned(Sense::Cw) == step {
        Sense::Cw
    } else {
        Sense::Ccw
    }
}

/// One step of character `id` from `from` to `to`. A ground attack is
/// allowed only where `attack_ok`. Carried characters are added to
/// `carries`.
pub fn step(
    board: &mut Board,
    dice: &mut Dice,
    id: Id,
    (from, to): (Loc, Loc),
    attack_ok: bool,
    carries: &mut Vec<Carry>,
) -> Result<Stepped, String> {
    let g = board.geo();
    // The step as a run writes it, for the messages only: the dice
    // search tries many steps that fail, and names none of them.
    let words = || format!("{}-{}", loc_word(from), loc_word(to));
    let (edge, dir) = link(g, from, to).ok_or_else(|| {
        format!(
            "{}: {} and {} are not neighbours (a step goes to the next square, or K \
             between an entrance square and its Keep)",
            words(),
            loc_word(from),
            loc_word(to)
        )
    })?;
    if board.maze.wall_on(edge) {
        return Err(format!(
            "the Brick wall on {edge} blocks the step {} (a Scale card crosses it)",
            words()
        ));
    }
    if dice.visited[id.place()].has(g, to) {
        return Err(format!(
            "{} has been on {to} this turn: no character enters a square twice in a turn",
            id.name()
        ));
    }
    let gate = match board.on_edge(edge) {
        Some(OnEdge::Gate(i)) => board.maze.gate(i),
        _ => None,
    };
    let stepped = match to {
        Loc::Keep(k) => enter_keep(board, id, k, edge, gate)?,
        Loc::Sq(b) => {
            let into = Entry {
                id,
                square: b,
                dir,
                attack_ok,
            };
            enter_square(board, into, gate, &words, carries)?
        }
    };
    board.set(id, Some(to));
    dice.visited[id.place()].add(g, to);
    Ok(stepped)
}

/// Whether [`step`] is sure to refuse the step of `id` from `from` to
/// `to` for one of its commonest reasons (no link, a Brick wall, a
/// location entered this turn, a square held when no ground attack may
/// end there, or by one's own side or an ally), told without writing
/// the reason: the dice search tries every step from every location it
/// reaches, and names none of those refused. A step this passes may
/// still be refused by [`step`].
fn refused_at_once(
    board: &Board,
    dice: &Dice,
    id: Id,
    (from, to): (Loc, Loc),
    attack_ok: bool,
) -> bool {
    let g = board.geo();
    let Some((edge, _)) = link(g, from, to) else {
        return true;
    };
    if board.maze.wall_on(edge) || dice.visited[id.place()].has(g, to) {
        return true;
    }
    match to {
        Loc::Sq(b) => board
            .on(b)
            .is_some_and(|o| !attack_ok || board.friendly(o.side(), id.side())),
        Loc::Keep(_) => false,
    }
}

/// A step into a Keep across `edge` (`gate` on it, if any).
fn enter_keep(
    board: &mut Board,
    id: Id,
    keep: Side,
    edge: Edge,
    gate: Option<crate::games::battlegates::mazes::maze::Gate>,
) -> Result<Stepped, String> {
    let side = id.side();
    if let Some(g) = gate {
        return Err(format!(
            "{} lies across the entrance {edge}: no step crosses it into the Keep (a Climb card \
             does)",
            g.named()
        ));
    }
    let to = Loc::Keep(keep);
    match board.at(to) {
        None if board.friendly(keep, side) => Ok(Stepped::Moved),
        None => Err(format!(
            "{}'s Keep is empty: an enemy Keep may be entered only to kill the character in it",
            side_name(keep)
        )),
        Some(o) if board.friendly(o.side(), side) => Err(format!(
            "{} holds {} already: a Keep holds one character",
            to,
            o.name()
        )),
        Some(o) => {
            board.set(o, None);
            Ok(Stepped::KeepKill(o))
        }
    }
}

/// A step onto a square.
struct Entry {
    id: Id,
    square: Sq,
    dir: Dir,
    attack_ok: bool,
}

/// A step onto a square, across `gate` if one lies on the edge (the
/// enemy attacked, if any, dies before the push).
fn enter_square(
    board: &mut Board,
    into: Entry,
    gate: Option<crate::games::battlegates::mazes::maze::Gate>,
    words: &dyn Fn() -> String,
    carries: &mut Vec<Carry>,
) -> Result<Stepped, String> {
    let Entry {
        id,
        square: b,
        dir,
        attack_ok,
    } = into;
    let side = id.side();
    let mut stepped = Stepped::Moved;
    match board.on(b) {
        Some(o) if o.side() == side => return Err(format!("{b} holds {}", o.name())),
        Some(o) if board.friendly(o.side(), side) => {
            return Err(format!(
                "{b} holds {}, an ally: allies never attack each other",
                o.name()
            ))
        }
        Some(o) if !attack_ok => {
            return Err(format!(
                "{b} holds {}: a ground attack is one character's run of exactly the whole \
                 roll, the only run of the turn, ending on the enemy",
                o.name()
            ));
        }
        Some(o) => {
            board.set(o, None);
            stepped = Stepped::Attacked(o);
        }
        None => {}
    }
    if let Some(g) = gate {
        let turner = Turner {
            side,
            pusher: Some((id, b)),
        };
        let sense = push_sense(g.dir, dir);
        let moved = quarter(board, g, sense, turner).map_err(|e| {
            let name = g.named();
            let words = words();
            match e.strip_prefix(&name) {
                Some(rest) => format!("the step {words} pushes {name}, which{rest}"),
                None => format!("the step {words} pushes {name}: {e}"),
            }
        })?;
        // Being carried does not count as entering a square: the
        // squares a gate carries a character to never block it later.
        carries.extend(moved);
    }
    Ok(stepped)
}

/// What a run did: the kill it made, if any, and what it carried.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// The enemy killed.
    pub victim: Option<Id>,
    /// Characters carried by pushes.
    pub carries: Vec<Carry>,
    /// Gates taken out of the game across the Alley after the run.
    pub removed: Vec<crate::games::battlegates::mazes::maze::Gate>,
}

/// Make the run `path` for `side`.
pub fn run(
    board: &mut Board,
    dice: &mut Dice,
    side: Side,
    path: &Path,
) -> Result<RunReport, String> {
    let locs = path.locs();
    let start = locs[0];
    let Some(id) = board.at(start).filter(|i| i.side() == side) else {
        return Err(format!(
            "no character of {} stands on {}",
            side_name(side),
            loc_word(start)
        ));
    };
    let bit = 1u16 << id.place();
    if dice.ran & bit != 0 {
        return Err(format!(
            "{} has made its run this turn: each character moves in a single run",
            id.name()
        ));
    }
    if locs[1..].contains(&start) {
        return Err(format!(
            "{} would come back to {}, where its run starts: no character enters a square \
             twice in a turn, the square its run starts from included",
            id.name(),
            loc_word(start)
        ));
    }
    let roll = dice.roll.unwrap_or(0);
    let n = path.steps();
    if dice.spent + n > roll {
        return Err(format!(
            "the roll is {roll}, {} of it is left, and this run takes {n} steps",
            roll - dice.spent.min(roll)
        ));
    }
    let mut b = *board;
    let mut d = starting_run(board, dice, id, start);
    let mut report = RunReport::default();
    for k in 1..locs.len() {
        let last = k + 1 == locs.len();
        let attack_ok = dice.runs == 0 && n == roll && last;
        let stepped = step(
            &mut b,
            &mut d,
            id,
            (locs[k - 1], locs[k]),
            attack_ok,
            &mut report.carries,
        )?;
        if stepped.ends_run() && !last {
            return Err(format!(
                "the run stops on {} with the kill of {}",
                loc_word(locs[k]),
                stepped.victim().map_or(String::new(), Id::name)
            ));
        }
        report.victim = report.victim.or(stepped.victim());
    }
    d.spent += n;
    d.runs += 1;
    d.ran |= bit;
    report.removed = crate::games::battlegates::moves::alley::clear_stuck_gates(&mut b);
    *board = b;
    *dice = d;
    Ok(report)
}

/// Fly an arrow of `side` straight from `at` in `dir` for `n` squares
/// (at most): the enemy it first hits, if any.
fn fly(board: &Board, side: Side, at: Sq, dir: Dir, n: u8) -> Result<Option<Id>, String> {
    let g = board.geo();
    let mut cur = at;
    for _ in 0..n {
        let edge = cur.edge(dir);
        if board.on_edge(edge).is_some() {
            return Ok(None);
        }
        let Some(next) = g.step(cur, dir) else {
            let keep = g.entrance_at(edge).map_or("a Keep".to_string(), |(k, _)| {
                format!("{}'s Keep", side_name(k))
            });
            return Err(format!(
                "the arrow would fly through {edge} into {keep}: no arrow enters a Keep"
            ));
        };
        if let Some(o) = board.on(next) {
            return first_hit(board, side, next, o);
        }
        cur = next;
    }
    Ok(None)
}

/// What an arrow of `side` does to `hit`, the first character on its
/// way (on `sq`): an enemy dies, one's own character stops it unharmed,
/// and a shot whose first hit is an ally (another side of the team) is
/// refused, as a move onto an ally is.
fn first_hit(board: &Board, side: Side, sq: Sq, hit: Id) -> Result<Option<Id>, String> {
    if hit.side() == side {
        Ok(None)
    } else if board.friendly(hit.side(), side) {
        Err(format!(
            "the arrow would first hit {} on {sq}, an ally: allies never attack each other",
            hit.name()
        ))
    } else {
        Ok(Some(hit))
    }
}

/// The shot `shot` of `side` with the whole roll `roll`: the enemy it
/// kills, if any (the board is changed).
pub fn shoot(board: &mut Board, side: Side, shot: Shot, roll: u8) -> Result<Option<Id>, String> {
    let victim = match shot {
        Shot::From(sq, dir) => {
            match board.on(sq) {
                Some(a) if a.side() == side && a.kind() == Kind::Archer => {}
                Some(o) => {
                    return Err(format!(
                        "{sq} holds {}, not an Archer of {}",
                        o.name(),
                        side_name(side)
                    ))
                }
                None => return Err(format!("no Archer of {} stands on {sq}", side_name(side))),
            }
            fly(board, side, sq, dir, roll)?
        }
        Shot::Keep(k, sq) => {
            match board.at(Loc::Keep(k)) {
                Some(a) if a.side() == side && a.kind() == Kind::Archer => {}
                _ => {
                    return Err(format!(
                        "no Archer of {} is in {}'s Keep",
                        side_name(side),
                        side_name(k)
                    ))
                }
            }
            let Some(e) = board.geo().entrance_of(k, sq) else {
                return Err(format!(
                    "{sq} is not an entrance of {}'s Keep",
                    side_name(k)
                ));
            };
            if let Some(OnEdge::Gate(i)) = board.on_edge(e.edge) {
                let g = board.maze.gate(i).map_or(String::new(), |g| g.named());
                return Err(format!(
                    "{g} lies across the entrance {}: no arrow flies through it",
                    e.edge
                ));
            }
            match board.on(sq) {
                Some(o) => first_hit(board, side, sq, o)?,
                None => fly(board, side, sq, e.inward.back(), roll - 1)?,
            }
        }
    };
    if let Some(v) = victim {
        board.set(v, None);
    }
    Ok(victim)
}

/// Every shot `side` can make with the roll, in a stable order.
pub fn legal_shots(board: &Board, side: Side, roll: u8, out: &mut Vec<Shot>) {
    for (id, loc) in board.alive(side) {
        if id.kind() != Kind::Archer {
            continue;
        }
        let shots: Vec<Shot> = match loc {
            Loc::Sq(sq) => Dir::ALL.into_iter().map(|d| Shot::From(sq, d)).collect(),
            Loc::Keep(k) => board
                .geo()
                .castle(k)
                .map(|c| {
                    c.entrances
                        .iter()
                        .map(|e| Shot::Keep(k, e.square))
                        .collect()
                })
                .unwrap_or_default(),
        };
        for s in shots {
            if shoot(&mut board.clone(), side, s, roll).is_ok() {
                out.push(s);
            }
        }
    }
}

/// The dice phase as `id` starts its run from `at`: the square a run
/// starts from counts as occupied this turn, also when a card or a push
/// carried the character there (no run comes back to it).
fn starting_run(board: &Board, dice: &Dice, id: Id, at: Loc) -> Dice {
    let mut d = *dice;
    d.visited[id.place()].add(board.geo(), at);
    d
}

/// The dice phase after a run of `n` steps by the character at army
/// place `place`.
fn after_run(dice: &Dice, place: usize, n: u8) -> Dice {
    let mut d = *dice;
    d.spent += n;
    d.runs += 1;
    d.ran |= 1 << place;
    d
}

/// The most of the rest of the roll (at most `cap`) that `side`'s
/// characters that have not run yet can spend, over every order of runs.
pub fn best(board: &Board, dice: &Dice, side: Side, cap: u8) -> u8 {
    if cap == 0 {
        return 0;
    }
    let mut most = 0;
    for (id, loc) in board.alive(side) {
        if dice.ran & (1 << id.place()) != 0 {
            continue;
        }
        let d = starting_run(board, dice, id, loc);
        explore(board, &d, id, loc, 0, cap, &mut |_, n, rest| {
            most = most.max(n + rest);
            most >= cap
        });
        if most >= cap {
            return cap;
        }
    }
    most
}

/// Walk every run of `id` from `at` (`k` steps made, at most `cap`),
/// calling `seen(path end state, steps, what the others can add)` for
/// each; stops when `seen` says so. Returns whether it stopped.
fn explore(
    board: &Board,
    dice: &Dice,
    id: Id,
    at: Loc,
    k: u8,
    cap: u8,
    seen: &mut dyn FnMut(&Board, u8, u8) -> bool,
) -> bool {
    let roll = dice.roll.unwrap_or(0);
    let mut carries = Vec::new();
    for to in neighbours(board.geo(), at) {
        let mut b = *board;
        let mut d = *dice;
        let attack_ok = d.runs == 0 && d.spent == 0 && k + 1 == roll;
        if refused_at_once(&b, &d, id, (at, to), attack_ok) {
            continue;
        }
        let Ok(stepped) = step(&mut b, &mut d, id, (at, to), attack_ok, &mut carries) else {
            continue;
        };
        let n = k + 1;
        let fin = after_run(&d, id.place(), n);
        let mut end = b;
        crate::games::battlegates::moves::alley::clear_stuck_gates(&mut end);
        let rest = if end.has_enemies(id.side()) {
            best(&end, &fin, id.side(), cap - n)
        } else {
            0
        };
        if seen(&end, n, rest) {
            return true;
        }
        if !stepped.ends_run() && n < cap && explore(&b, &d, id, to, n, cap, seen) {
            return true;
        }
    }
    false
}

/// Every run `side` may make now that still lets the dice phase spend
/// `target` in all (or wins the game), in a stable order.
pub fn legal_runs(board: &Board, dice: &Dice, side: Side, target: u8, out: &mut Vec<Path>) {
    let cap = target.saturating_sub(dice.spent);
    if cap == 0 {
        return;
    }
    for (id, loc) in board.alive(side) {
        if dice.ran & (1 << id.place()) != 0 {
            continue;
        }
        let mut path = vec![loc];
        let d = starting_run(board, dice, id, loc);
        walk(board, &d, id, &mut path, cap, out);
    }
}

/// The runs of `id` extending `path`, as [`legal_runs`] lists them.
fn walk(board: &Board, dice: &Dice, id: Id, path: &mut Vec<Loc>, cap: u8, out: &mut Vec<Path>) {
    let roll = dice.roll.unwrap_or(0);
    let at = *path.last().unwrap_or(&Loc::Keep(id.side()));
    let k = (path.len() - 1) as u8;
    let mut carries = Vec::new();
    for to in neighbours(board.geo(), at) {
        let mut b = *board;
        let mut d = *dice;
        let attack_ok = d.runs == 0 && d.spent == 0 && k + 1 == roll;
        if refused_at_once(&b, &d, id, (at, to), attack_ok) {
            continue;
        }
        let Ok(stepped) = step(&mut b, &mut d, id, (at, to), attack_ok, &mut carries) else {
            continue;
        };
        let n = k + 1;
        path.push(to);
        let fin = after_run(&d, id.place(), n);
        let mut end = b;
        crate::games::battlegates::moves::alley::clear_stuck_gates(&mut end);
        let wins = !end.has_enemies(id.side());
        if wins || n + best(&end, &fin, id.side(), cap - n) == cap {
            if let Some(p) = Path::new(path) {
                out.push(p);
            }
        }
        if !stepped.ends_run() && n < cap {
            walk(&b, &d, id, path, cap, out);
        }
        path.pop();
    }
}
