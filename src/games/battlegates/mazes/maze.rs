//! The maze: Brick walls and gates on the edges, as placed pieces, with
//! their text (`Wd4n`, `Gd4nw`, `Ld4nw`) and what lies on an edge or
//! touches a post.

use std::fmt;

use crate::games::battlegates::geometry::board::{read_edge, Dir, Edge, Geometry, Post, Sense};

/// Most Brick walls on one board (4 a side; room for the larger set-ups).
pub const MAX_WALLS: usize = 16;
/// Most gates on one board (3 Gates and 3 Long gates a side, with room).
pub const MAX_GATES: usize = 24;

/// A gate: hinged on a post, lying from it in a direction, one edge long
/// (a Gate) or two (a Long gate).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Gate {
    /// The post it turns about.
    pub hinge: Post,
    /// The way it lies from the hinge.
    pub dir: Dir,
    /// A Long gate (two edges).
    pub long: bool,
}

impl Gate {
    /// Its length in edges.
    pub fn length(self) -> i16 {
        if self.long {
            2
        } else {
            1
        }
    }

    /// The edges it covers, from the hinge out (on the board for a gate
    /// [`Gate::on_board`]); `None` for a part below 0.
    pub fn edges(self) -> [Option<Edge>; 2] {
        let mut out = [None; 2];
        for (k, slot) in out.iter_mut().enumerate().take(self.length() as usize) {
            let a = self.hinge.offset(self.dir, k as i16);
            let b = self.hinge.offset(self.dir, k as i16 + 1);
            *slot = match (a, b) {
                (Some(a), Some(b)) => Edge::between(a, b),
                _ => None,
            };
        }
        out
    }

    /// Whether every part lies on the board `g`.
    pub fn on_board(self, g: &Geometry) -> bool {
        (0..=self.length()).all(|k| g.go(self.hinge, self.dir, k).is_some())
    }

    /// The edges it covers that are on the board.
    pub fn edge_list(self) -> impl Iterator<Item = Edge> {
        self.edges().into_iter().flatten()
    }

    /// Whether it covers `edge`.
    pub fn covers(self, edge: Edge) -> bool {
        self.edge_list().any(|e| e == edge)
    }

    /// The posts it touches: its ends (and a Long gate's middle).
    pub fn posts(self) -> impl Iterator<Item = Post> {
        (0..=self.length()).filter_map(move |k| self.hinge.offset(self.dir, k))
    }

    /// The gate a quarter turn away in `sense`.
    pub fn turned(self, sense: Sense) -> Gate {
        Gate {
            dir: self.dir.turned(sense),
            ..self
        }
    }

    /// `Gate` or `Long gate`.
    pub fn kind_name(self) -> &'static str {
        if self.long {
            "Long gate"
        } else {
            "Gate"
        }
    }

    /// How every message names it: its kind in words and its notation,
    /// `the Gate Gd4nw`, `the Long gate Ld4nw`.
    pub fn named(self) -> String {
        format!("the {} {self}", self.kind_name())
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(first) = self.edges()[0] else {
            return write!(f, "{}?", if self.long { 'L' } else { 'G' });
        };
        let [a, _] = first.posts();
        let end = match (first.vertical, a == self.hinge) {
            (false, true) => 'w',
            (false, false) => 'e',
            (true, true) => 's',
            (true, false) => 'n',
        };
        write!(f, "{}{first}{end}", if self.long { 'L' } else { 'G' })
    }
}

/// A maze piece as placed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Piece {
    /// A Brick wall on one edge.
    Wall(Edge),
    /// A Gate or Long gate.
    Gate(Gate),
}

impl Piece {
    /// The edges it covers.
    pub fn edge_list(self) -> Vec<Edge> {
        match self {
            Piece::Wall(e) => vec![e],
            Piece::Gate(g) => g.edge_list().collect(),
        }
    }

    /// The posts it touches.
    pub fn posts(self) -> Vec<Post> {
        match self {
            Piece::Wall(e) => e.posts().to_vec(),
            Piece::Gate(g) => g.posts().collect(),
        }
    }

    /// `W`, `G` or `L`: the kind's letter.
    pub fn letter(self) -> char {
        match self {
            Piece::Wall(_) => 'W',
            Piece::Gate(g) if g.long => 'L',
            Piece::Gate(_) => 'G',
        }
    }
}

impl Piece {
    /// How every message names it: its kind in words and its notation,
    /// `the Brick wall Wd4n`, `the Gate Gd4nw`, `the Long gate Ld4nw`.
    pub fn named(self) -> String {
        match self {
            Piece::Wall(e) => format!("the Brick wall W{e}"),
            Piece::Gate(g) => g.named(),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Piece::Wall(e) => write!(f, "W{e}"),
            Piece::Gate(g) => write!(f, "{g}"),
        }
    }
}

/// Why a text is not a maze piece.
pub const PIECE_FORM: &str = "a maze piece is W and an edge (Wd4n), or G or L, an edge and \
                              the hinge end (Gd4nw, Ld4nw)";

/// Read a maze piece of board `g` at the start of `text`: the piece and
/// the bytes used, or why it is none. A gate's parts must all be on the
/// board.
pub fn read_piece(g: &Geometry, text: &str) -> Result<(Piece, usize), String> {
    let kind = text
        .chars()
        .next()
        .map(|c| c.to_ascii_uppercase())
        .ok_or_else(|| PIECE_FORM.to_string())?;
    if !matches!(kind, 'W' | 'G' | 'L') {
        return Err(PIECE_FORM.into());
    }
    let rest = &text[1..];
    let (edge, n) = read_edge(g, rest).ok_or_else(|| {
        format!(
            "expected an edge after {kind}: a square a1 to {} and a side n, e, s or w \
             ({PIECE_FORM})",
            g.last_sq()
        )
    })?;
    if kind == 'W' {
        return Ok((Piece::Wall(edge), 1 + n));
    }
    let end = rest[n..].chars().next().and_then(Dir::from_letter);
    let [a, b] = edge.posts();
    let gate = match (edge.vertical, end) {
        (false, Some(Dir::W)) => (a, Dir::E),
        (false, Some(Dir::E)) => (b, Dir::W),
        (true, Some(Dir::S)) => (a, Dir::N),
        (true, Some(Dir::N)) => (b, Dir::S),
        _ => {
            let ends = if edge.vertical { "s or n" } else { "w or e" };
            return Err(format!(
                "expected the hinge end after {kind}{edge}: {ends} (the end of the edge the \
                 gate turns about)"
            ));
        }
    };
    let gate = Gate {
        hinge: gate.0,
        dir: gate.1,
        long: kind == 'L',
    };
    if !gate.on_board(g) {
        return Err(format!(
            "a Long gate from {edge} hinged at its {} end would run off the board",
            end.map_or('?', Dir::letter)
        ));
    }
    Ok((Piece::Gate(gate), 2 + n))
}

/// Read a whole text as one maze piece of board `g`.
pub fn parse_piece(g: &Geometry, text: &str) -> Result<Piece, String> {
    let (piece, n) = read_piece(g, text)?;
    if n != text.len() {
        return Err(format!("`{text}` is not a maze piece: {PIECE_FORM}"));
    }
    Ok(piece)
}

/// What lies on an edge.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OnEdge {
    /// The stone perimeter.
    Stone,
    /// A Brick wall.
    Wall,
    /// A gate, by its index in the maze.
    Gate(usize),
}

/// The walls and gates on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Maze {
    walls: [Option<Edge>; MAX_WALLS],
    gates: [Option<Gate>; MAX_GATES],
    /// The edges each gate slot covers ([`Gate::edges`], none for an
    /// empty slot), kept with `gates` by every change to them: what lies
    /// on an edge is asked at every step the dice search tries. A
    /// function of `gates` alone, so two mazes are equal, and hash the
    /// same, exactly when their pieces are.
    covered: [[Option<Edge>; 2]; MAX_GATES],
    /// For every edge a wall or a gate covers, its bit ([`edge_bit`]):
    /// an edge whose bit is clear has nothing on it but perhaps stone,
    /// told without looking through the pieces (most steps the dice
    /// search tries cross a free edge). Kept with `walls` and `covered`,
    /// and a function of them.
    occupied: u64,
}

/// An edge's bit in [`Maze`]'s summary of the edges its pieces cover;
/// several edges share a bit.
fn edge_bit(edge: Edge) -> u64 {
    let k = u32::from(edge.x) * 5 + u32::from(edge.y) * 3 + u32::from(edge.vertical) * 17;
    1 << (k % 64)
}

impl Default for Maze {
    fn default() -> Self {
        Maze {
            walls: [None; MAX_WALLS],
            gates: [None; MAX_GATES],
            covered: [[None; 2]; MAX_GATES],
            occupied: 0,
        }
    }
}

impl Maze {
    /// Every Brick wall.
    pub fn walls(&self) -> impl Iterator<Item = Edge> + '_ {
        self.walls.iter().flatten().copied()
    }

    /// Every gate with its index.
    pub fn gates(&self) -> impl Iterator<Item = (usize, Gate)> + '_ {
        self.gates
            .iter()
            .enumerate()
            .filter_map(|(i, g)| g.map(|g| (i, g)))
    }

    /// Every piece, in canonical order (by text).
    pub fn pieces(&self) -> Vec<Piece> {
        let mut v: Vec<Piece> = self
            .walls()
            .map(Piece::Wall)
            .chain(self.gates().map(|(_, g)| Piece::Gate(g)))
            .collect();
        v.sort_by_key(|p| p.to_string());
        v
    }

    /// The gate at index `i`.
    pub fn gate(&self, i: usize) -> Option<Gate> {
        self.gates.get(i).copied().flatten()
    }

    /// The gates whose place differs from `before`'s (turned), as
    /// `Gd4nw to Gc4en`.
    pub fn turned_since(&self, before: &Maze) -> Vec<String> {
        self.gates
            .iter()
            .zip(&before.gates)
            .filter_map(|(now, was)| match (was, now) {
                (Some(a), Some(b)) if a != b => Some(format!("{a} to {b}")),
                _ => None,
            })
            .collect()
    }

    /// [`Maze::turned_since`] appended to `out`, after `lead` (`, pushing
    /// `), the gates joined by `, `; nothing when no gate turned.
    pub fn write_turned_since(&self, before: &Maze, lead: &str, out: &mut String) {
        use std::fmt::Write as _;
        let turned = self
            .gates
            .iter()
            .zip(&before.gates)
            .filter_map(|(now, was)| match (was, now) {
                (Some(a), Some(b)) if a != b => Some((a, b)),
                _ => None,
            });
        for (k, (a, b)) in turned.enumerate() {
            out.push_str(if k == 0 { lead } else { ", " });
            // Writing into a `String` never fails.
            let _ = write!(out, "{a} to {b}");
        }
    }

    /// Put `piece` on the board (no rule checked). False when full.
    pub fn add(&mut self, piece: Piece) -> bool {
        match piece {
            Piece::Wall(e) => match self.walls.iter_mut().find(|w| w.is_none()) {
                Some(slot) => {
                    *slot = Some(e);
                    self.occupied |= edge_bit(e);
                    true
                }
                None => false,
            },
            Piece::Gate(g) => match self.gates.iter().position(Option::is_none) {
                Some(i) => {
                    self.set_gate(i, g);
                    true
                }
                None => false,
            },
        }
    }

    /// Take `piece` off the board; false when it is not there.
    pub fn remove(&mut self, piece: Piece) -> bool {
        match piece {
            Piece::Wall(e) => match self.walls.iter_mut().find(|w| **w == Some(e)) {
                Some(slot) => {
                    *slot = None;
                    self.sum_up();
                    true
                }
                None => false,
            },
            Piece::Gate(g) => match self.gates.iter().position(|w| *w == Some(g)) {
                Some(i) => {
                    self.gates[i] = None;
                    self.covered[i] = [None; 2];
                    self.sum_up();
                    true
                }
                None => false,
            },
        }
    }

    /// Replace gate `i`.
    pub fn set_gate(&mut self, i: usize, gate: Gate) {
        if let (Some(slot), Some(covered)) = (self.gates.get_mut(i), self.covered.get_mut(i)) {
            *slot = Some(gate);
            *covered = gate.edges();
            self.sum_up();
        }
    }

    /// Work out `occupied` again from the pieces.
    fn sum_up(&mut self) {
        let covered = self.covered.iter().flatten().flatten();
        self.occupied = self
            .walls
            .iter()
            .flatten()
            .chain(covered)
            .fold(0, |bits, &e| bits | edge_bit(e));
    }

    /// What lies on `edge` of board `g`: stone, a wall or a gate.
    pub fn on_edge(&self, g: &Geometry, edge: Edge) -> Option<OnEdge> {
        if g.is_stone(edge) {
            return Some(OnEdge::Stone);
        }
        if self.occupied & edge_bit(edge) == 0 {
            return None;
        }
        if self.walls().any(|w| w == edge) {
            return Some(OnEdge::Wall);
        }
        self.covered
            .iter()
            .position(|c| c.contains(&Some(edge)))
            .map(OnEdge::Gate)
    }

    /// Whether a Brick wall lies on `edge`.
    pub fn wall_on(&self, edge: Edge) -> bool {
        self.occupied & edge_bit(edge) != 0 && self.walls().any(|w| w == edge)
    }

    /// The gates hinged on `post`, with their indices.
    pub fn gates_on(&self, post: Post) -> Vec<(usize, Gate)> {
        self.gates().filter(|(_, g)| g.hinge == post).collect()
    }

    /// The first gate hinged on `post` in canonical order (by text): the
    /// one a rotation names.
    pub fn first_on(&self, post: Post) -> Option<Gate> {
        self.gates()
            .filter(|(_, g)| g.hinge == post)
            .map(|(_, g)| g)
            .min_by_key(|g| g.to_string())
    }

    /// Whether a Brick wall touches `post`.
    pub fn wall_touches(&self, post: Post) -> bool {
        self.walls().any(|w| w.posts().contains(&post))
    }

    /// The pieces touching `post`.
    pub fn touching(&self, post: Post) -> Vec<Piece> {
        let walls = self
            .walls()
            .filter(|w| w.posts().contains(&post))
            .map(Piece::Wall);
        let gates = self
            .gates()
            .filter(|(_, g)| g.posts().any(|p| p == post))
            .map(|(_, g)| Piece::Gate(g));
        walls.chain(gates).collect()
    }

    /// Why the gates on `post` cannot swing at all, if they cannot: a
    /// Brick wall touching a Long gate's hinge post, or a perimeter post
    /// (except a single Gate alone on an end post of a castle entrance),
    /// on board `g`.
    pub fn fixed_reason(&self, g: &Geometry, post: Post) -> Option<String> {
        let on = self.gates_on(post);
        if let Some((_, long)) = on.iter().find(|(_, g)| g.long) {
            let long = self.first_long(post).unwrap_or(*long);
            if let Some(w) = self.walls().find(|w| w.posts().contains(&post)) {
                return Some(format!(
                    "the gates on {post} are fixed: {} touches the hinge post of {}",
                    Piece::Wall(w).named(),
                    long.named()
                ));
            }
        }
        if g.post_on_perimeter(post) {
            let at_entrance = g.entrances().any(|e| e.edge.posts().contains(&post));
            let single = matches!(on.as_slice(), [(_, g)] if !g.long);
            if !(at_entrance && single) {
                return Some(format!(
                    "the gates on {post} are fixed: a gate hinged on the board's outer line \
                     never swings (but a single Gate alone on an end post of a castle entrance)"
                ));
            }
        }
        None
    }

    fn first_long(&self, post: Post) -> Option<Gate> {
        self.gates()
            .filter(|(_, g)| g.hinge == post && g.long)
            .map(|(_, g)| g)
            .min_by_key(|g| g.to_string())
    }

    /// The first piece touching the hinge post of a Gate across a castle
    /// entrance of board `geo`, other than that Gate, with the Gate:
    /// nothing may touch it.
    pub fn entrance_hinge_touched(&self, geo: &Geometry) -> Option<(Gate, Piece)> {
        for (_, g) in self.gates() {
            let across = g.edge_list().any(|e| geo.entrance_at(e).is_some());
            if g.long || !across {
                continue;
            }
            let other = self
                .touching(g.hinge)
                .into_iter()
                .find(|p| *p != Piece::Gate(g));
            if let Some(p) = other {
                return Some((g, p));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::battlegates::geometry::layouts::Layout;

    /// What lies on `edge` found by looking through every piece, as the
    /// maze did before it kept the gates' edges and its summary of them.
    fn looked_up(maze: &Maze, g: &Geometry, edge: Edge) -> Option<OnEdge> {
        if g.is_stone(edge) {
            return Some(OnEdge::Stone);
        }
        if maze.walls().any(|w| w == edge) {
            return Some(OnEdge::Wall);
        }
        maze.gates()
            .find(|(_, gate)| gate.covers(edge))
            .map(|(i, _)| OnEdge::Gate(i))
    }

    /// Every edge of `g`: what `maze` says lies on it is what its pieces
    /// say, and a wall is on it exactly when one of its walls is.
    fn agrees(maze: &Maze, g: &Geometry, step: &str) {
        for edge in g.edges() {
            assert_eq!(
                maze.on_edge(g, edge),
                looked_up(maze, g, edge),
                "{step}: {edge}"
            );
            assert_eq!(
                maze.wall_on(edge),
                maze.walls().any(|w| w == edge),
                "{step}: {edge}"
            );
        }
    }

    #[test]
    fn what_lies_on_an_edge_follows_every_piece_added_turned_and_taken_off() {
        for layout in Layout::ALL {
            let g = layout.geometry();
            let mut maze = Maze::default();
            agrees(&maze, g, "empty");
            // Pieces all over the board, walls and gates of both lengths
            // in every direction, each added, then turned, then taken off.
            let mut pieces = Vec::new();
            for (k, post) in g.posts().enumerate().filter(|(k, _)| k % 7 == 3) {
                let dir = Dir::ALL[k % 4];
                let gate = Gate {
                    hinge: post,
                    dir,
                    long: k % 2 == 0,
                };
                if gate.on_board(g) && maze.add(Piece::Gate(gate)) {
                    pieces.push(Piece::Gate(gate));
                }
                let wall = g.edges().nth(k % 50).expect("an edge");
                if maze.add(Piece::Wall(wall)) {
                    pieces.push(Piece::Wall(wall));
                }
            }
            assert!(
                pieces.len() > 10,
                "{}: {} pieces",
                layout.tag(),
                pieces.len()
            );
            agrees(&maze, g, "added");
            let gates: Vec<(usize, Gate)> = maze.gates().collect();
            for (i, gate) in gates {
                maze.set_gate(i, gate.turned(Sense::Cw));
                agrees(&maze, g, &format!("{} turned", gate.named()));
            }
            for piece in maze.pieces() {
                assert!(maze.remove(piece));
                agrees(&maze, g, &format!("{} taken off", piece.named()));
            }
            assert_eq!(maze, Maze::default());
        }
    }
}
