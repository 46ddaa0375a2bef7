//! Board geometry: 10 columns `a`-`j` by 8 rows `1`-`8`. Blue's back row
//! is row 1, Red's row 8; each side's base lies one step off the board
//! beyond its back row, touching every square of it.

use std::fmt;

use crate::game::Side;

/// Columns on the board (`a`-`j`).
pub const COLS: u8 = 10;
/// Rows on the board (`1`-`8`).
pub const ROWS: u8 = 8;
/// Number of squares.
pub const SQUARES: usize = (COLS as usize) * (ROWS as usize);

pub use crate::games::two_sides::{opponent, side_name, BLUE, RED};

/// The row index (0 = row `1`) of `side`'s back row.
pub fn back_row(side: Side) -> u8 {
    if side == BLUE {
        0
    } else {
        ROWS - 1
    }
}

/// A square, `row * 10 + col`, with row 0 = row `1` and col 0 = column `a`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sq(pub u8);

/// One orthogonal step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    /// Towards row 8.
    Up,
    /// Towards row 1.
    Down,
    /// Towards column j.
    Right,
    /// Towards column a.
    Left,
}

impl Dir {
    /// All four directions, in the order moves are searched.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Right, Dir::Left];
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

    /// Every square, a1 first, row by row.
    pub fn all() -> impl Iterator<Item = Sq> {
        (0..SQUARES as u8).map(Sq)
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

    /// The squares orthogonally next to this one.
    pub fn neighbours(self) -> impl Iterator<Item = Sq> {
        Dir::ALL.into_iter().filter_map(move |d| self.step(d))
    }

    /// True when the two squares are orthogonally next to each other
    /// (`other` is one of [`Sq::neighbours`], worked out by arithmetic:
    /// one apart on a row, a row down, or a row up from below the last
    /// row).
    pub fn is_next_to(self, other: Sq) -> bool {
        let (a, b) = (self.0, other.0);
        match a.abs_diff(b) {
            1 => a / COLS == b / COLS,
            COLS => b < a || a < (ROWS - 1) * COLS,
            _ => false,
        }
    }

    /// The square named by a column letter and a row number, if on the board.
    pub fn from_name(col: char, row: u32) -> Option<Sq> {
        let col = col.to_ascii_lowercase();
        if !('a'..='j').contains(&col) || !(1..=u32::from(ROWS)).contains(&row) {
            return None;
        }
        Some(Sq::new(col as u8 - b'a', row as u8 - 1))
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col()), self.row() + 1)
    }
}

impl fmt::Debug for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Where a step may end: a square, or the base beyond a back row.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spot {
    /// A square of the board.
    Sq(Sq),
    /// The base of this side, beyond its back row.
    Base(Side),
}

impl Spot {
    /// The spot one step from `sq` in `dir`: a square, the base beyond a
    /// back row, or nothing (off a side edge).
    pub fn step(sq: Sq, dir: Dir) -> Option<Spot> {
        match (sq.step(dir), dir) {
            (Some(to), _) => Some(Spot::Sq(to)),
            (None, Dir::Up) => Some(Spot::Base(RED)),
            (None, Dir::Down) => Some(Spot::Base(BLUE)),
            (None, _) => None,
        }
    }
}

/// The slot names of the army: the back-row square each piece starts on.
pub const ARMY_SLOTS: [[&str; 10]; 2] = [
    ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"],
    ["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "i8", "j8"],
];

/// Number of opening throws each side commits to.
pub const THROWS: usize = 12;

/// The slot names of the opening throws.
pub const THROW_SLOTS: [&str; THROWS] = [
    "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12",
];

/// Every slot of a side, army first, then throws.
pub const ALL_SLOTS: [[&str; 22]; 2] = [
    [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1", "t1", "t2", "t3", "t4", "t5",
        "t6", "t7", "t8", "t9", "t10", "t11", "t12",
    ],
    [
        "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "i8", "j8", "t1", "t2", "t3", "t4", "t5",
        "t6", "t7", "t8", "t9", "t10", "t11", "t12",
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of squares (and of bytes beyond the board) is next to
    /// each other by arithmetic exactly when one is among the other's
    /// neighbours.
    #[test]
    fn squares_are_next_to_each_other_as_their_neighbours_say() {
        let mut next = 0;
        for a in 0..u8::MAX {
            for b in 0..=u8::MAX {
                let by_steps = Sq(a).neighbours().any(|s| s == Sq(b));
                assert_eq!(Sq(a).is_next_to(Sq(b)), by_steps, "{a} and {b}");
                next += usize::from(by_steps && usize::from(a) < SQUARES);
            }
        }
        // 10 x 8 squares: 2 * (9 * 8 + 10 * 7) ordered pairs.
        assert_eq!(next, 284);
    }
}
