//! The battle-board's geometry, kept in data ([`Geometry`]): its size,
//! the castles (a Keep behind two entrance squares), the portals, the
//! halves; and the coordinates every other file uses: squares, posts
//! (the corners of squares), edges (between two neighbouring posts) and
//! directions.
//!
//! Posts are numbered `(x, y)` with `x` in `0..=cols` and `y` in
//! `0..=rows`: post `(x, y)` is the south-west corner of square
//! `(x, y)`. An edge is the unit segment from a post east (horizontal)
//! or north (vertical).

use std::fmt;

use crate::game::Side;

/// South: side 0 (rows 1-6).
pub const SOUTH: Side = Side(0);
/// North: side 1 (rows 7-12).
pub const NORTH: Side = Side(1);

/// A side's name.
pub fn side_name(side: Side) -> &'static str {
    if side == SOUTH {
        "South"
    } else {
        "North"
    }
}

/// The other side.
pub fn opponent(side: Side) -> Side {
    Side(1 - side.0)
}

/// One of the four directions of the board (north up).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Dir {
    /// Towards row 12.
    N,
    /// Towards column i.
    E,
    /// Towards row 1.
    S,
    /// Towards column a.
    W,
}

impl Dir {
    /// All four, clockwise from north.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// `n`, `e`, `s` or `w`.
    pub fn letter(self) -> char {
        match self {
            Dir::N => 'n',
            Dir::E => 'e',
            Dir::S => 's',
            Dir::W => 'w',
        }
    }

    /// The direction of a letter (any case).
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_lowercase() {
            'n' => Some(Dir::N),
            'e' => Some(Dir::E),
            's' => Some(Dir::S),
            'w' => Some(Dir::W),
            _ => None,
        }
    }

    /// The step of the direction, `(dx, dy)`.
    pub fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        }
    }

    /// The direction a quarter turn away in `sense`.
    pub fn turned(self, sense: Sense) -> Dir {
        let i = self as usize;
        let j = match sense {
            Sense::Cw => (i + 1) % 4,
            Sense::Ccw => (i + 3) % 4,
        };
        Dir::ALL[j]
    }

    /// The opposite direction.
    pub fn back(self) -> Dir {
        Dir::ALL[(self as usize + 2) % 4]
    }

    /// Whether the direction runs north-south.
    pub fn is_vertical(self) -> bool {
        matches!(self, Dir::N | Dir::S)
    }
}

/// The sense of a quarter turn, seen from above with north up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sense {
    /// Clockwise (`cw`).
    Cw,
    /// Counter-clockwise (`ccw`).
    Ccw,
}

impl Sense {
    /// `cw` or `ccw`.
    pub fn word(self) -> &'static str {
        match self {
            Sense::Cw => "cw",
            Sense::Ccw => "ccw",
        }
    }
}

/// A square, by column (0 = a) and row (0 = row 1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Sq {
    /// Column, 0 for a.
    pub col: u8,
    /// Row, 0 for row 1.
    pub row: u8,
}

impl Sq {
    /// The square at `col`, `row` (from 0).
    pub const fn new(col: u8, row: u8) -> Sq {
        Sq { col, row }
    }

    /// The square at signed coordinates, if it is on the board.
    pub fn at(col: i16, row: i16) -> Option<Sq> {
        let g = &ONE_BOARD;
        ((0..i16::from(g.cols)).contains(&col) && (0..i16::from(g.rows)).contains(&row))
            .then(|| Sq::new(col as u8, row as u8))
    }

    /// The neighbour in `dir`, if on the board.
    pub fn step(self, dir: Dir) -> Option<Sq> {
        let (dx, dy) = dir.delta();
        Sq::at(
            i16::from(self.col) + i16::from(dx),
            i16::from(self.row) + i16::from(dy),
        )
    }

    /// The edge on this square's `dir` side.
    pub fn edge(self, dir: Dir) -> Edge {
        let (x, y) = (self.col, self.row);
        match dir {
            Dir::N => Edge::h(x, y + 1),
            Dir::S => Edge::h(x, y),
            Dir::E => Edge::v(x + 1, y),
            Dir::W => Edge::v(x, y),
        }
    }

    /// Every square, row 1 first, west to east.
    pub fn all() -> impl Iterator<Item = Sq> {
        let g = &ONE_BOARD;
        (0..g.rows).flat_map(move |r| (0..g.cols).map(move |c| Sq::new(c, r)))
    }

    /// The index of the square in [`Sq::all`]'s order.
    pub fn idx(self) -> usize {
        usize::from(self.row) * usize::from(ONE_BOARD.cols) + usize::from(self.col)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col), self.row + 1)
    }
}

/// A post: the corner `(x, y)`, the south-west corner of square `(x, y)`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Post {
    /// From 0 (the west side of column a) to the number of columns.
    pub x: u8,
    /// From 0 (the south side of row 1) to the number of rows.
    pub y: u8,
}

impl Post {
    /// The post at signed coordinates, if it is on the board.
    pub fn at(x: i16, y: i16) -> Option<Post> {
        let g = &ONE_BOARD;
        ((0..=i16::from(g.cols)).contains(&x) && (0..=i16::from(g.rows)).contains(&y)).then_some(
            Post {
                x: x as u8,
                y: y as u8,
            },
        )
    }

    /// The post `n` steps away in `dir`, if on the board.
    pub fn go(self, dir: Dir, n: i16) -> Option<Post> {
        let (dx, dy) = dir.delta();
        Post::at(
            i16::from(self.x) + n * i16::from(dx),
            i16::from(self.y) + n * i16::from(dy),
        )
    }

    /// Whether the post stands on the board's outer line.
    pub fn on_perimeter(self) -> bool {
        let g = &ONE_BOARD;
        self.x == 0 || self.y == 0 || self.x == g.cols || self.y == g.rows
    }
}

impl fmt::Display for Post {
    /// `d4ne`: the corner of the square to its south-west where there is
    /// one, else `nw` of the square to its south-east, `se` of the one to
    /// its north-west, `sw` of the one to its north-east.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, y) = (i16::from(self.x), i16::from(self.y));
        let candidates = [
            (x - 1, y - 1, "ne"),
            (x, y - 1, "nw"),
            (x - 1, y, "se"),
            (x, y, "sw"),
        ];
        for (c, r, corner) in candidates {
            if let Some(sq) = Sq::at(c, r) {
                return write!(f, "{sq}{corner}");
            }
        }
        write!(f, "post({x},{y})")
    }
}

/// An edge: the unit segment from post `(x, y)` east (horizontal) or
/// north (vertical).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Edge {
    /// Its western or southern post's x.
    pub x: u8,
    /// Its western or southern post's y.
    pub y: u8,
    /// Whether it runs north-south.
    pub vertical: bool,
}

impl Edge {
    /// The horizontal edge east of post `(x, y)`.
    pub const fn h(x: u8, y: u8) -> Edge {
        Edge {
            x,
            y,
            vertical: false,
        }
    }

    /// The vertical edge north of post `(x, y)`.
    pub const fn v(x: u8, y: u8) -> Edge {
        Edge {
            x,
            y,
            vertical: true,
        }
    }

    /// The edge between two neighbouring posts.
    pub fn between(a: Post, b: Post) -> Option<Edge> {
        let (lo, hi) = if (a.x, a.y) <= (b.x, b.y) {
            (a, b)
        } else {
            (b, a)
        };
        if lo.y == hi.y && hi.x == lo.x + 1 {
            Some(Edge::h(lo.x, lo.y))
        } else if lo.x == hi.x && hi.y == lo.y + 1 {
            Some(Edge::v(lo.x, lo.y))
        } else {
            None
        }
    }

    /// Whether the edge lies on the board.
    pub fn exists(self) -> bool {
        let g = &ONE_BOARD;
        if self.vertical {
            self.x <= g.cols && self.y < g.rows
        } else {
            self.x < g.cols && self.y <= g.rows
        }
    }

    /// Its two posts: west then east, or south then north.
    pub fn posts(self) -> [Post; 2] {
        let a = Post {
            x: self.x,
            y: self.y,
        };
        let b = if self.vertical {
            Post {
                x: self.x,
                y: self.y + 1,
            }
        } else {
            Post {
                x: self.x + 1,
                y: self.y,
            }
        };
        [a, b]
    }

    /// Whether the edge lies on the board's outer line.
    pub fn on_perimeter(self) -> bool {
        let g = &ONE_BOARD;
        if self.vertical {
            self.x == 0 || self.x == g.cols
        } else {
            self.y == 0 || self.y == g.rows
        }
    }

    /// The squares on its two sides that are on the board: south then
    /// north, or west then east.
    pub fn sides(self) -> [Option<Sq>; 2] {
        let (x, y) = (i16::from(self.x), i16::from(self.y));
        if self.vertical {
            [Sq::at(x - 1, y), Sq::at(x, y)]
        } else {
            [Sq::at(x, y - 1), Sq::at(x, y)]
        }
    }

    /// The edge between two neighbouring squares.
    pub fn of_step(from: Sq, dir: Dir) -> Edge {
        from.edge(dir)
    }
}

impl fmt::Display for Edge {
    /// Canonical: `d4n` (the north edge of the square to the south) or
    /// `c4e` (the east edge of the square to the west); `c1s` and `a4w`
    /// only on row 1's south side and column a's west side.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [first, second] = self.sides();
        let (sq, letter) = match (first, second) {
            (Some(sq), _) => (sq, if self.vertical { 'e' } else { 'n' }),
            (None, Some(sq)) => (sq, if self.vertical { 'w' } else { 's' }),
            (None, None) => return write!(f, "edge({},{})", self.x, self.y),
        };
        write!(f, "{sq}{letter}")
    }
}

/// Where a character stands: a square or a Keep.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Loc {
    /// A square of the board.
    Sq(Sq),
    /// The Keep of this side's castle.
    Keep(Side),
}

impl Loc {
    /// The square, if it is one.
    pub fn sq(self) -> Option<Sq> {
        match self {
            Loc::Sq(s) => Some(s),
            Loc::Keep(_) => None,
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Sq(s) => write!(f, "{s}"),
            Loc::Keep(side) => write!(f, "{}'s Keep", side_name(*side)),
        }
    }
}

/// A castle entrance: the square in front of it, the edge between, and
/// the direction from the square into the Keep.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entrance {
    /// The entrance square (`c1`).
    pub square: Sq,
    /// The entrance edge (`c1s`).
    pub edge: Edge,
    /// From the square into the Keep.
    pub inward: Dir,
}

/// A castle: whose it is and its two entrances.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Castle {
    /// Its owner.
    pub side: Side,
    /// Its entrances, west first.
    pub entrances: [Entrance; 2],
}

/// One battle-board's geometry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// Columns (9: a-i).
    pub cols: u8,
    /// Rows (12).
    pub rows: u8,
    /// The castles, South's first.
    pub castles: [Castle; 2],
    /// Each side's portals, west to east (where its army starts).
    pub portals: [[Sq; 5]; 2],
    /// Each side's rows, as a range of row indices (0 = row 1).
    pub halves: [(u8, u8); 2],
    /// The post row (y) no set-up piece may touch: the middle line.
    pub middle: u8,
}

const fn entrance(col: u8, row: u8, inward: Dir) -> Entrance {
    let edge = match inward {
        Dir::S => Edge::h(col, row),
        _ => Edge::h(col, row + 1),
    };
    Entrance {
        square: Sq::new(col, row),
        edge,
        inward,
    }
}

/// The one-board game's geometry: 9 x 12, castles behind rows 1 and 12.
pub const ONE_BOARD: Geometry = Geometry {
    cols: 9,
    rows: 12,
    castles: [
        Castle {
            side: SOUTH,
            entrances: [entrance(2, 0, Dir::S), entrance(6, 0, Dir::S)],
        },
        Castle {
            side: NORTH,
            entrances: [entrance(2, 11, Dir::N), entrance(6, 11, Dir::N)],
        },
    ],
    portals: [
        [
            Sq::new(1, 0),
            Sq::new(3, 0),
            Sq::new(4, 0),
            Sq::new(5, 0),
            Sq::new(7, 0),
        ],
        [
            Sq::new(1, 11),
            Sq::new(3, 11),
            Sq::new(4, 11),
            Sq::new(5, 11),
            Sq::new(7, 11),
        ],
    ],
    halves: [(0, 5), (6, 11)],
    middle: 6,
};

impl Geometry {
    /// The castle of `side`.
    pub fn castle(&self, side: Side) -> &Castle {
        &self.castles[usize::from(side) & 1]
    }

    /// The entrance whose edge is `edge`, and whose castle it is.
    pub fn entrance_at(&self, edge: Edge) -> Option<(Side, Entrance)> {
        self.castles.iter().find_map(|c| {
            c.entrances
                .iter()
                .find(|e| e.edge == edge)
                .map(|e| (c.side, *e))
        })
    }

    /// The entrance of `side`'s castle at square `sq`, if `sq` is one.
    pub fn entrance_of(&self, side: Side, sq: Sq) -> Option<Entrance> {
        self.castle(side)
            .entrances
            .iter()
            .find(|e| e.square == sq)
            .copied()
    }

    /// The Keep joined to `sq` (an entrance square), and the entrance.
    pub fn keep_next_to(&self, sq: Sq) -> Option<(Side, Entrance)> {
        self.castles.iter().find_map(|c| {
            c.entrances
                .iter()
                .find(|e| e.square == sq)
                .map(|e| (c.side, *e))
        })
    }

    /// Whether `edge` is stone: on the outer line and not an entrance.
    pub fn is_stone(&self, edge: Edge) -> bool {
        edge.on_perimeter() && self.entrance_at(edge).is_none()
    }

    /// Whether post `p` lies in `side`'s half for the set-up, off the
    /// middle line.
    pub fn post_in_half(&self, side: Side, p: Post) -> bool {
        if side == SOUTH {
            p.y < self.middle
        } else {
            p.y > self.middle
        }
    }
}

/// Read a square `c4` at the start of `text` (any case): the square and
/// the bytes used, or `None` when there is none on the board.
pub fn read_sq(text: &str) -> Option<(Sq, usize)> {
    let b = text.as_bytes();
    let col = b.first()?.to_ascii_lowercase();
    if !(b'a'..b'a' + ONE_BOARD.cols).contains(&col) {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let row: u8 = text[1..1 + digits].parse().ok()?;
    if row == 0 || row > ONE_BOARD.rows {
        return None;
    }
    Some((Sq::new(col - b'a', row - 1), 1 + digits))
}

/// Read an edge `d4n` at the start of `text`: a square and a direction
/// letter whose edge is on the board.
pub fn read_edge(text: &str) -> Option<(Edge, usize)> {
    let (sq, n) = read_sq(text)?;
    let dir = Dir::from_letter(char::from(*text.as_bytes().get(n)?))?;
    Some((sq.edge(dir), n + 1))
}
