//! The board's geometry, kept in data ([`Geometry`]): its size, the
//! castles (a Keep behind two entrance squares), the armies' portals,
//! each side's region for the set-up and the post lines no set-up piece
//! may touch; and the coordinates every other file uses: squares, posts
//! (the corners of squares), edges (between two neighbouring posts) and
//! directions. The set-ups' geometries are in `layouts.rs`.
//!
//! Coordinates are plain numbers, the same on every board; whether one
//! lies on the board is the geometry's to say (`Geometry::sq`,
//! `Geometry::step`, `Geometry::has_edge`, ...), and every lookup goes
//! through the geometry of the game in play (`Board::geo`).
//!
//! Posts are numbered `(x, y)` with `x` in `0..=cols` and `y` in
//! `0..=rows`: post `(x, y)` is the south-west corner of square
//! `(x, y)`. An edge is the unit segment from a post east (horizontal)
//! or north (vertical).

use std::fmt;

use crate::game::Side;

/// South: side 0 (rows 1-6 on one board).
pub const SOUTH: Side = Side(0);
/// North: side 1 (rows 7-12 on one board).
pub const NORTH: Side = Side(1);

/// Every side's name, by side index: South and North (one board,
/// Misery Run), then the four castles of Battle Alley (sides 2 to 5).
pub const SIDE_NAMES: [&str; 6] = ["South", "North", "Castle1", "Castle2", "Castle3", "Castle4"];

/// A side's name (`South`, `Castle3`).
pub fn side_name(side: Side) -> &'static str {
    SIDE_NAMES[usize::from(side) % SIDE_NAMES.len()]
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
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col), self.row + 1)
    }
}

impl Sq {
    /// Append the square's name (`b4`, as [`fmt::Display`] writes it)
    /// to `out`, without the formatting machinery: the referee writes
    /// every square of every run it reads.
    pub fn write_to(self, out: &mut String) {
        out.push(char::from(b'a' + self.col));
        let row = u32::from(self.row) + 1;
        let digit = |d: u32| char::from(b'0' + (d % 10) as u8);
        if row >= 100 {
            out.push(digit(row / 100));
        }
        if row >= 10 {
            out.push(digit(row / 10));
        }
        out.push(digit(row));
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
    /// The post `n` steps away in `dir`, wherever it lies: `None` only
    /// below 0 or beyond any board ([`Geometry::go`] keeps to the board).
    pub fn offset(self, dir: Dir, n: i16) -> Option<Post> {
        let (dx, dy) = dir.delta();
        let x = i16::from(self.x) + n * i16::from(dx);
        let y = i16::from(self.y) + n * i16::from(dy);
        Some(Post {
            x: u8::try_from(x).ok()?,
            y: u8::try_from(y).ok()?,
        })
    }
}

impl fmt::Display for Post {
    /// `d4ne`: the corner of the square to its south-west where there is
    /// one, else `nw` of the square to its south-east, `se` of the one to
    /// its north-west, `sw` of the one to its north-east. (For a post on
    /// the board the first of these with no coordinate below 0 is on the
    /// board, whatever its size.)
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, y) = (i16::from(self.x), i16::from(self.y));
        let candidates = [
            (x - 1, y - 1, "ne"),
            (x, y - 1, "nw"),
            (x - 1, y, "se"),
            (x, y, "sw"),
        ];
        for (c, r, corner) in candidates {
            if let (Ok(c), Ok(r)) = (u8::try_from(c), u8::try_from(r)) {
                return write!(f, "{}{corner}", Sq::new(c, r));
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

    /// The square to its south (or west), if its coordinates are not
    /// below 0: on the board for every edge of the board but those of
    /// row 1's south side and column a's west side.
    fn south_or_west(self) -> Option<Sq> {
        if self.vertical {
            self.x.checked_sub(1).map(|c| Sq::new(c, self.y))
        } else {
            self.y.checked_sub(1).map(|r| Sq::new(self.x, r))
        }
    }
}

impl fmt::Display for Edge {
    /// Canonical: `d4n` (the north edge of the square to the south) or
    /// `c4e` (the east edge of the square to the west); `c1s` and `a4w`
    /// only on row 1's south side and column a's west side.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.south_or_west() {
            Some(sq) => write!(f, "{sq}{}", if self.vertical { 'e' } else { 'n' }),
            None => write!(
                f,
                "{}{}",
                Sq::new(self.x, self.y),
                if self.vertical { 'w' } else { 's' }
            ),
        }
    }
}

/// Where a character stands: a square or a Keep.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Loc {
    /// A square of the board.
    Sq(Sq),
    /// The Keep of this side's castle (a side has at most one).
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
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Entrance {
    /// The entrance square (`c1`).
    pub square: Sq,
    /// The entrance edge (`c1s`).
    pub edge: Edge,
    /// From the square into the Keep.
    pub inward: Dir,
}

impl Entrance {
    /// The entrance on the `inward` side of square (`col`, `row`): south
    /// of a square of row 1, north of one of the last row.
    pub const fn new(col: u8, row: u8, inward: Dir) -> Entrance {
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
}

/// A castle in play: whose it is, and its Keep's two entrances (the
/// Keep is the owner's: [`Loc::Keep`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Castle {
    /// Its owner.
    pub side: Side,
    /// Its entrances, west first.
    pub entrances: [Entrance; 2],
}

/// An army's starting squares: five portals, west to east, of one side
/// (Misery Run's sides lead two armies each).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Army {
    /// Whose army.
    pub side: Side,
    /// Its portals, in army order (Crusader, Archer, Gatekeeper,
    /// Archer, Crusader).
    pub portals: [Sq; 5],
}

/// A side's own region for the set-up: a block of squares, whose posts
/// (its outline included) its maze pieces may touch, except those on a
/// forbidden line ([`Geometry::setup_lines`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Region {
    /// Its owner.
    pub side: Side,
    /// What the rules call it: `half` (one board), `board` (Misery
    /// Run), `half-board` (Battle Alley).
    pub name: &'static str,
    /// Its first and last column (0 = a).
    pub cols: (u8, u8),
    /// Its first and last row (0 = row 1).
    pub rows: (u8, u8),
}

impl Region {
    /// Whether post `p` lies on the region or its outline.
    pub fn holds_post(&self, p: Post) -> bool {
        (self.cols.0..=self.cols.1 + 1).contains(&p.x)
            && (self.rows.0..=self.rows.1 + 1).contains(&p.y)
    }

    /// `rows 1 to 6`, or `columns k to s, rows 1 to 6` for a region
    /// narrower than the board `g`.
    pub fn describe(&self, g: &Geometry) -> String {
        let rows = format!("rows {} to {}", self.rows.0 + 1, self.rows.1 + 1);
        if self.cols == (0, g.cols - 1) {
            rows
        } else {
            format!(
                "columns {} to {}, {rows}",
                char::from(b'a' + self.cols.0),
                char::from(b'a' + self.cols.1)
            )
        }
    }
}

/// One set-up's board: its size, castles, armies, regions and the lines
/// the set-up rules keep free. Every lookup of a square, post or edge
/// goes through it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Geometry {
    /// The sides' names, by side index.
    pub sides: &'static [&'static str],
    /// Columns (9 on one board: a-i; at most 19).
    pub cols: u8,
    /// Rows (12 on one board; at most 25).
    pub rows: u8,
    /// The castles in play, at most one a side.
    pub castles: &'static [Castle],
    /// Every army's portals, each side's in its place order.
    pub armies: &'static [Army],
    /// Each side's region for the set-up, by side.
    pub regions: &'static [Region],
    /// The post rows (y) no set-up piece may touch: one board's middle
    /// line, both long edges of Misery Run's row 13.
    pub setup_lines: &'static [u8],
    /// Battle Alley's column (0 = a): no Brick wall ever lies across it,
    /// and no gate at the set-up.
    pub alley: Option<u8>,
    /// Misery Run's row (0 = row 1), where characters die.
    pub run: Option<u8>,
}

impl Geometry {
    /// The name of `side` on this board (`South`, `Castle3`).
    pub fn side_name(&self, side: Side) -> &'static str {
        side_name(side)
    }

    /// The sides playing on this board, in turn order.
    pub fn side_list(&self) -> Vec<Side> {
        self.side_iter().collect()
    }

    /// [`Geometry::side_list`] without the list.
    pub fn side_iter(&self) -> impl Iterator<Item = Side> + '_ {
        self.sides
            .iter()
            .filter_map(|n| SIDE_NAMES.iter().position(|m| m == n))
            .map(|i| Side(i as u8))
    }

    /// The square at signed coordinates, if it is on the board.
    pub fn sq(&self, col: i16, row: i16) -> Option<Sq> {
        ((0..i16::from(self.cols)).contains(&col) && (0..i16::from(self.rows)).contains(&row))
            .then(|| Sq::new(col as u8, row as u8))
    }

    /// Whether `sq` is on the board.
    pub fn has_sq(&self, sq: Sq) -> bool {
        sq.col < self.cols && sq.row < self.rows
    }

    /// The neighbour of `sq` in `dir`, if on the board.
    pub fn step(&self, sq: Sq, dir: Dir) -> Option<Sq> {
        let (dx, dy) = dir.delta();
        self.sq(
            i16::from(sq.col) + i16::from(dx),
            i16::from(sq.row) + i16::from(dy),
        )
    }

    /// Every square, row 1 first, west to east.
    pub fn squares(&self) -> impl Iterator<Item = Sq> {
        let (cols, rows) = (self.cols, self.rows);
        (0..rows).flat_map(move |r| (0..cols).map(move |c| Sq::new(c, r)))
    }

    /// How many squares the board has.
    pub fn square_count(&self) -> usize {
        usize::from(self.cols) * usize::from(self.rows)
    }

    /// The index of `sq` in [`Geometry::squares`]' order.
    pub fn idx(&self, sq: Sq) -> usize {
        usize::from(sq.row) * usize::from(self.cols) + usize::from(sq.col)
    }

    /// The index of a location: the squares in [`Geometry::idx`] order,
    /// then the Keeps by side (below 256 on every set-up's board).
    pub fn loc_index(&self, loc: Loc) -> usize {
        match loc {
            Loc::Sq(sq) => self.idx(sq),
            Loc::Keep(side) => self.square_count() + usize::from(side.0),
        }
    }

    /// Whether post `p` is on the board.
    pub fn has_post(&self, p: Post) -> bool {
        p.x <= self.cols && p.y <= self.rows
    }

    /// The post at signed coordinates, if it is on the board.
    pub fn post(&self, x: i16, y: i16) -> Option<Post> {
        let p = Post {
            x: u8::try_from(x).ok()?,
            y: u8::try_from(y).ok()?,
        };
        self.has_post(p).then_some(p)
    }

    /// The post `n` steps from `p` in `dir`, if on the board.
    pub fn go(&self, p: Post, dir: Dir, n: i16) -> Option<Post> {
        p.offset(dir, n).filter(|&q| self.has_post(q))
    }

    /// Every post, column by column.
    pub fn posts(&self) -> impl Iterator<Item = Post> {
        let (cols, rows) = (self.cols, self.rows);
        (0..=cols).flat_map(move |x| (0..=rows).map(move |y| Post { x, y }))
    }

    /// Whether post `p` stands on the board's outer line.
    pub fn post_on_perimeter(&self, p: Post) -> bool {
        p.x == 0 || p.y == 0 || p.x == self.cols || p.y == self.rows
    }

    /// Whether `edge` lies on the board.
    pub fn has_edge(&self, edge: Edge) -> bool {
        if edge.vertical {
            edge.x <= self.cols && edge.y < self.rows
        } else {
            edge.x < self.cols && edge.y <= self.rows
        }
    }

    /// Whether `edge` lies on the board's outer line.
    pub fn edge_on_perimeter(&self, edge: Edge) -> bool {
        if edge.vertical {
            edge.x == 0 || edge.x == self.cols
        } else {
            edge.y == 0 || edge.y == self.rows
        }
    }

    /// The squares on `edge`'s two sides that are on the board: south
    /// then north, or west then east.
    pub fn edge_sides(&self, edge: Edge) -> [Option<Sq>; 2] {
        let (x, y) = (i16::from(edge.x), i16::from(edge.y));
        if edge.vertical {
            [self.sq(x - 1, y), self.sq(x, y)]
        } else {
            [self.sq(x, y - 1), self.sq(x, y)]
        }
    }

    /// Every edge of the board: the horizontal ones, then the vertical.
    pub fn edges(&self) -> impl Iterator<Item = Edge> {
        let (cols, rows) = (self.cols, self.rows);
        let h = (0..cols).flat_map(move |x| (0..=rows).map(move |y| Edge::h(x, y)));
        let v = (0..=cols).flat_map(move |x| (0..rows).map(move |y| Edge::v(x, y)));
        h.chain(v)
    }

    /// The castle of `side`, if it has one in play.
    pub fn castle(&self, side: Side) -> Option<&Castle> {
        self.castles.iter().find(|c| c.side == side)
    }

    /// Every castle entrance.
    pub fn entrances(&self) -> impl Iterator<Item = &Entrance> {
        self.castles.iter().flat_map(|c| c.entrances.iter())
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
        self.castle(side)?
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
        self.edge_on_perimeter(edge) && self.entrance_at(edge).is_none()
    }

    /// The portals of `side`'s armies, in its place order.
    pub fn portals(&self, side: Side) -> impl Iterator<Item = Sq> + '_ {
        self.armies
            .iter()
            .filter(move |a| a.side == side)
            .flat_map(|a| a.portals)
    }

    /// How many armies `side` leads.
    pub fn armies_of(&self, side: Side) -> usize {
        self.armies.iter().filter(|a| a.side == side).count()
    }

    /// Whether `sq` is a portal of any army.
    pub fn is_portal(&self, sq: Sq) -> bool {
        self.armies.iter().any(|a| a.portals.contains(&sq))
    }

    /// The set-up region of `side`.
    pub fn region(&self, side: Side) -> Option<&Region> {
        self.regions.iter().find(|r| r.side == side)
    }

    /// Whether post `p` lies on a line no set-up piece may touch.
    pub fn on_setup_line(&self, p: Post) -> bool {
        self.setup_lines.contains(&p.y)
    }

    /// Whether post `p` lies in `side`'s region and off every forbidden
    /// line: a post its set-up pieces may touch.
    pub fn post_in_region(&self, side: Side, p: Post) -> bool {
        !self.on_setup_line(p) && self.region(side).is_some_and(|r| r.holds_post(p))
    }

    /// Whether `edge` lies across the Alley: between two of its squares.
    pub fn across_alley(&self, edge: Edge) -> bool {
        self.alley
            .is_some_and(|col| !edge.vertical && edge.x == col && edge.y > 0 && edge.y < self.rows)
    }

    /// The last square (`i12` on one board), for messages.
    pub fn last_sq(&self) -> Sq {
        Sq::new(self.cols - 1, self.rows - 1)
    }
}

/// Read a square `c4` at the start of `text` (any case): the square and
/// the bytes used, or `None` when there is none on the board `g`.
pub fn read_sq(g: &Geometry, text: &str) -> Option<(Sq, usize)> {
    let b = text.as_bytes();
    let col = b.first()?.to_ascii_lowercase();
    if !(b'a'..b'a' + g.cols).contains(&col) {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let row: u8 = text[1..1 + digits].parse().ok()?;
    if row == 0 || row > g.rows {
        return None;
    }
    Some((Sq::new(col - b'a', row - 1), 1 + digits))
}

/// Read an edge `d4n` at the start of `text`: a square of `g` and a
/// direction letter.
pub fn read_edge(g: &Geometry, text: &str) -> Option<(Edge, usize)> {
    let (sq, n) = read_sq(g, text)?;
    let dir = Dir::from_letter(char::from(*text.as_bytes().get(n)?))?;
    Some((sq.edge(dir), n + 1))
}
