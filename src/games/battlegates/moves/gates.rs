//! Gate turns: every gate on a hinge post turns a quarter about it,
//! each sweeping the L x L block of squares between its old and new
//! place and carrying the characters there a quarter about the post.
//!
//! A turn is refused, with the reason naming the gate and what is in
//! the way, when the post is fixed, when a new place or an edge inside a
//! sweep holds a Brick wall, stone or another post's gate, when a new
//! place or a sweep would leave the board, when a carried character
//! would land off the board or on a character that is not carried
//! itself, when it would carry the opponent's Gatekeeper (against the
//! side that turns it), or the pusher, and when the maze it leaves has
//! something touching the hinge post of a Gate across an entrance.

use crate::game::Side;

use crate::games::battlegates::geometry::board::{Dir, Edge, Geometry, Loc, Post, Sense, Sq};
use crate::games::battlegates::mazes::maze::{Gate, OnEdge, Piece};
use crate::games::battlegates::pieces::characters::{Board, Id, Kind};

/// Who turns the gates, for the Gatekeeper's immunity and the push.
#[derive(Clone, Copy, Debug)]
pub struct Turner {
    /// The side whose card or step turns them.
    pub side: Side,
    /// The character pushing, if a step does it, and the square it
    /// steps into (swept, but empty).
    pub pusher: Option<(Id, Sq)>,
}

/// A character carried by a turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Carry {
    /// Who.
    pub id: Id,
    /// From.
    pub from: Sq,
    /// To.
    pub to: Sq,
}

/// The squares of the `len` x `len` block at `post` in the quarter
/// between directions `a` and `b`; `None` when a square is off board `g`.
pub fn sweep(g: &Geometry, post: Post, a: Dir, b: Dir, len: i16) -> Option<Vec<Sq>> {
    let east = a == Dir::E || b == Dir::E;
    let north = a == Dir::N || b == Dir::N;
    let (x, y) = (i16::from(post.x), i16::from(post.y));
    let cols = if east { x..x + len } else { x - len..x };
    let rows = if north { y..y + len } else { y - len..y };
    let mut out = Vec::new();
    for r in rows {
        for c in cols.clone() {
            out.push(g.sq(c, r)?);
        }
    }
    Some(out)
}

/// The four edges touching the centre post of a Long gate's sweep.
fn inner_edges(g: &Geometry, post: Post, a: Dir, b: Dir) -> Vec<Edge> {
    let dx = if a == Dir::E || b == Dir::E { 1 } else { -1 };
    let dy = if a == Dir::N || b == Dir::N { 1 } else { -1 };
    let Some(centre) = g.post(i16::from(post.x) + dx, i16::from(post.y) + dy) else {
        return Vec::new();
    };
    Dir::ALL
        .into_iter()
        .filter_map(|d| g.go(centre, d, 1).and_then(|p| Edge::between(centre, p)))
        .collect()
}

/// Where a quarter turn about `post` in `sense` takes square `sq`, if on
/// board `g`.
pub fn carried_to(g: &Geometry, sq: Sq, post: Post, sense: Sense) -> Option<Sq> {
    let (c, r) = (i16::from(sq.col), i16::from(sq.row));
    let (x, y) = (i16::from(post.x), i16::from(post.y));
    match sense {
        Sense::Cw => g.sq(x + (r - y), y - (c - x) - 1),
        Sense::Ccw => g.sq(x - (r - y) - 1, y + (c - x)),
    }
}

/// What lies on `edge` that stops gate `gate` hinged on `post`: stone, a
/// wall, or a gate of another post.
fn blocker(board: &Board, edge: Edge, post: Post) -> Option<String> {
    match board.on_edge(edge)? {
        OnEdge::Stone => Some(format!("the stone perimeter on {edge}")),
        OnEdge::Wall => Some(Piece::Wall(edge).named()),
        OnEdge::Gate(j) => {
            let other = board.maze.gate(j)?;
            (other.hinge != post).then(|| other.named())
        }
    }
}

/// Check one gate's quarter turn against the maze: its new place and its
/// sweep. Returns the swept squares.
fn check_gate(board: &Board, gate: Gate, sense: Sense) -> Result<Vec<Sq>, String> {
    let g = board.geo();
    let new = gate.turned(sense);
    let way = sense.word();
    if !new.on_board(g) {
        return Err(format!(
            "{} cannot turn {way}: it would leave the board",
            gate.named()
        ));
    }
    for e in new.edge_list() {
        if let Some(what) = blocker(board, e, gate.hinge) {
            return Err(format!(
                "{} cannot turn {way}: {what} lies on its new place",
                gate.named()
            ));
        }
    }
    let Some(block) = sweep(g, gate.hinge, gate.dir, new.dir, gate.length()) else {
        return Err(format!(
            "{} cannot turn {way}: its sweep would leave the board",
            gate.named()
        ));
    };
    if gate.long {
        for e in inner_edges(g, gate.hinge, gate.dir, new.dir) {
            if let Some(what) = blocker(board, e, gate.hinge) {
                return Err(format!(
                    "{} cannot turn {way}: the sweep is blocked by {what}",
                    gate.named()
                ));
            }
        }
    }
    Ok(block)
}

/// Turn every gate on `post` a quarter in `sense`, carrying what they
/// sweep. The board is changed only when the whole turn is legal.
pub fn quarter(
    board: &mut Board,
    gate: Gate,
    sense: Sense,
    turner: Turner,
) -> Result<Vec<Carry>, String> {
    let post = gate.hinge;
    if let Some(why) = board.maze.fixed_reason(board.geo(), post) {
        return Err(why);
    }
    let gates = board.maze.gates_on(post);
    if !gates.iter().any(|&(_, g)| g == gate) {
        return Err(format!("{} is not on the board", gate.named()));
    }
    let mut swept = Vec::new();
    for &(_, g) in &gates {
        match check_gate(board, g, sense) {
            Ok(block) => swept.extend(block),
            Err(why) if gates.len() == 1 => return Err(why),
            // Whichever of them the player named, the message names them
            // all and says which one cannot turn.
            Err(why) => {
                let mut all: Vec<Gate> = gates.iter().map(|&(_, g)| g).collect();
                all.sort_by_key(|g| g.to_string());
                let all: Vec<String> = all.into_iter().map(Gate::named).collect();
                return Err(format!(
                    "the gates hinged on {post} turn together ({}), and {why}",
                    all.join(" and ")
                ));
            }
        }
    }
    let carries = carried(board, post, sense, turner, &swept)?;
    let mut after = *board;
    for (i, g) in gates {
        after.maze.set_gate(i, g.turned(sense));
    }
    for c in &carries {
        after.set(c.id, None);
    }
    for c in &carries {
        after.set(c.id, Some(Loc::Sq(c.to)));
    }
    if let Some((g, p)) = after.maze.entrance_hinge_touched(board.geo()) {
        return Err(format!(
            "the turn would bring {} to touch {}, the hinge post of {} across a castle \
             entrance",
            p.named(),
            g.hinge,
            g.named()
        ));
    }
    *board = after;
    Ok(carries)
}

/// The characters the swept squares carry, checked: not the pusher, not
/// the turner's opponent's Gatekeeper, onto the board and onto squares
/// that are empty or left by a carried character. (Nothing is carried
/// onto the square a pusher steps into: only the gate on the pusher's
/// side of the post could, and it would carry the pusher first.)
fn carried(
    board: &Board,
    post: Post,
    sense: Sense,
    turner: Turner,
    swept: &[Sq],
) -> Result<Vec<Carry>, String> {
    let mut carries = Vec::new();
    for &sq in swept {
        let Some(id) = board.on(sq) else { continue };
        if let Some((pusher, _)) = turner.pusher {
            if pusher == id {
                return Err(format!(
                    "the turn of the gates on {post} would carry the pusher on {sq}"
                ));
            }
        }
        if id.kind() == Kind::Gatekeeper && !board.friendly(id.side(), turner.side) {
            return Err(format!(
                "the gates on {post} cannot carry {} on {sq}: a Gatekeeper is immune to its \
                 opponent's gate turns",
                id.name()
            ));
        }
        let Some(to) = carried_to(board.geo(), sq, post, sense) else {
            return Err(format!(
                "the gates on {post} would carry {} on {sq} off the board",
                id.name()
            ));
        };
        carries.push(Carry { id, from: sq, to });
    }
    for c in &carries {
        if let Some(other) = board.on(c.to) {
            if !carries.iter().any(|k| k.id == other) {
                return Err(format!(
                    "the gates on {post} would carry {} from {} onto {}, where {} stands",
                    c.id.name(),
                    c.from,
                    c.to,
                    other.name()
                ));
            }
        }
    }
    Ok(carries)
}
