//! Board geometry: 7 columns `a`-`g` by 9 rows `1`-`9`, Blue at row 1.
//!
//! Row 5 is the river, rows 4 and 6 are sand, everything else is grass.
//! The Portals are `d1` (Blue) and `d9` (Red).

use std::fmt;

use crate::game::Side;

/// Columns on the board (`a`-`g`).
pub const COLS: u8 = 7;
/// Rows on the board (`1`-`9`).
pub const ROWS: u8 = 9;
/// Number of squares.
pub const SQUARES: usize = (COLS as usize) * (ROWS as usize);

pub use crate::games::two_sides::{opponent, side_name, BLUE, RED};

/// A square, `row * 7 + col`, with row 0 = row `1` and col 0 = column `a`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sq(pub u8);

/// What a square is made of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Terrain {
    /// Grass: Walls may be built here.
    Grass,
    /// Sand (rows 4 and 6): like grass, but no Wall may be built.
    Sand,
    /// The river (row 5): nothing ever stands here.
    River,
}

/// One orthogonal step; the index is what a path stores (2 bits a step).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    /// Towards row 9.
    Up = 0,
    /// Towards row 1.
    Down = 1,
    /// Towards column g.
    Right = 2,
    /// Towards column a.
    Left = 3,
}

impl Dir {
    /// All four directions, in their stored order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Right, Dir::Left];

    /// The direction with this 2-bit code.
    pub fn from_bits(bits: u64) -> Dir {
        Dir::ALL[(bits & 3) as usize]
    }
}

impl Sq {
    /// The square at column `col` (0 = `a`) and row `row` (0 = `1`).
    pub const fn new(col: u8, row: u8) -> Sq {
        Sq(row * COLS + col)
    }

    /// Column index, 0 = `a`.
    pub const fn col(self) -> u8 {
        self.0 % COLS
    }

    /// Row index, 0 = row `1`.
    pub const fn row(self) -> u8 {
        self.0 / COLS
    }

    /// Index into a board array.
    pub const fn idx(self) -> usize {
        self.0 as usize
    }

    /// The square one step away, if it is on the board.
    pub fn step(self, dir: Dir) -> Option<Sq> {
        let (c, r) = (self.col(), self.row());
        match dir {
            Dir::Up if r + 1 < ROWS => Some(Sq::new(c, r + 1)),
            Dir::Down if r > 0 => Some(Sq::new(c, r - 1)),
            Dir::Right if c + 1 < COLS => Some(Sq::new(c + 1, r)),
            Dir::Left if c > 0 => Some(Sq::new(c - 1, r)),
            _ => None,
        }
    }

    /// The direction of the single step from `self` to `to`, if they are
    /// orthogonally next to each other.
    pub fn dir_to(self, to: Sq) -> Option<Dir> {
        let (c, r) = (self.col(), self.row());
        let (tc, tr) = (to.col(), to.row());
        if tc == c && r + 1 < ROWS && tr == r + 1 {
            Some(Dir::Up)
        } else if tc == c && r > 0 && tr + 1 == r {
            Some(Dir::Down)
        } else if tr == r && c + 1 < COLS && tc == c + 1 {
            Some(Dir::Right)
        } else if tr == r && c > 0 && tc + 1 == c {
            Some(Dir::Left)
        } else {
            None
        }
    }

    /// True when the two squares are orthogonally next to each other.
    pub fn is_next_to(self, other: Sq) -> bool {
        self.dir_to(other).is_some()
    }

    /// The terrain of the square.
    pub fn terrain(self) -> Terrain {
        match self.row() {
            4 => Terrain::River,
            3 | 5 => Terrain::Sand,
            _ => Terrain::Grass,
        }
    }

    /// The side whose half of the board (rows 1-4 Blue, 6-9 Red) holds the
    /// square; `None` for the river.
    pub fn half(self) -> Option<Side> {
        match self.row() {
            0..=3 => Some(BLUE),
            4 => None,
            _ => Some(RED),
        }
    }

    /// True for `d1` and `d9`.
    pub fn is_portal(self) -> bool {
        self == portal(BLUE) || self == portal(RED)
    }

    /// The column letter, `a`-`g`.
    pub fn col_char(self) -> char {
        char::from(b'a' + self.col())
    }

    /// Every square, `a1 b1 ... g1 a2 ... g9`.
    pub fn all() -> impl Iterator<Item = Sq> {
        (0..SQUARES as u8).map(Sq)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.col_char(), self.row() + 1)
    }
}

impl fmt::Debug for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The Portal of `side`: `d1` for Blue, `d9` for Red.
pub fn portal(side: Side) -> Sq {
    if side == BLUE {
        Sq::new(3, 0)
    } else {
        Sq::new(3, ROWS - 1)
    }
}

/// The row step of `side`'s cannonballs: Blue fires up (+1), Red down (-1).
pub fn forward(side: Side) -> i8 {
    if side == BLUE {
        1
    } else {
        -1
    }
}
