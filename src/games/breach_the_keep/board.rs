//! Board geometry (spec section 7): seven columns `a`-`g`; the long columns
//! `a c e g` have cells 1-10, the short columns `b d f` cells 1-9; 67 cells,
//! 11 of them interior Keeps; 10 Gates between consecutive cells of one
//! column; two home Keeps off the board.
//!
//! Cells are numbered column by column: `a1`..`a10` are 0..9, `b1`..`b9`
//! 10..18, `c1` 19, `d1` 29, `e1` 38, `f1` 48, `g1` 57. Every table here
//! is computed at compile time.

use std::fmt;

use crate::game::Side;

use super::state::WHITE;

/// Number of cells.
pub const NCELLS: usize = 67;
/// Number of columns.
pub const NCOLS: usize = 7;
/// Cells in each column.
pub const COL_LEN: [u8; NCOLS] = [10, 9, 10, 9, 10, 9, 10];
/// Index of the first cell (row 1) of each column.
pub const COL_START: [u8; NCOLS] = [0, 10, 19, 29, 38, 48, 57];
/// "No cell" (also the board edge beside an edge Gate).
pub const NONE: u8 = 255;
/// The end zone as the origin of a move (`Z`).
pub const ZONE: u8 = 254;
/// The opponent's home Keep as the target of a breach (`breach home`).
pub const HOME: u8 = 253;

/// The cell at column `col` (0 = a) and row `row` (1-based).
pub const fn cell(col: u8, row: u8) -> u8 {
    COL_START[col as usize] + row - 1
}

/// The cell named like `d3`, if it exists.
pub fn cell_at(col: u8, row: u32) -> Option<u8> {
    if (col as usize) < NCOLS && row >= 1 && row <= u32::from(COL_LEN[col as usize]) {
        Some(cell(col, row as u8))
    } else {
        None
    }
}

const fn build_col_row() -> ([u8; NCELLS], [u8; NCELLS]) {
    let mut col = [0u8; NCELLS];
    let mut row = [0u8; NCELLS];
    let mut c = 0;
    while c < NCOLS {
        let mut r = 1;
        while r <= COL_LEN[c] {
            let i = (COL_START[c] + r - 1) as usize;
            col[i] = c as u8;
            row[i] = r;
            r += 1;
        }
        c += 1;
    }
    (col, row)
}

const COL_ROW: ([u8; NCELLS], [u8; NCELLS]) = build_col_row();
/// Column (0 = a) of each cell.
pub const CELL_COL: [u8; NCELLS] = COL_ROW.0;
/// Row (1-based) of each cell.
pub const CELL_ROW: [u8; NCELLS] = COL_ROW.1;

/// Whether column `col` is a long one (a c e g).
pub const fn is_long(col: u8) -> bool {
    col % 2 == 0
}

const fn build_neighbours() -> ([[u8; 6]; NCELLS], [u8; NCELLS]) {
    let mut nb = [[NONE; 6]; NCELLS];
    let mut n = [0u8; NCELLS];
    let mut i = 0;
    while i < NCELLS {
        let c = CELL_COL[i];
        let r = CELL_ROW[i];
        let mut k = 0usize;
        // Left neighbour column, then the same column, then the right one:
        // this is ascending cell order.
        if c > 0 {
            let lc = c - 1;
            let (lo, hi) = if is_long(c) { (r - 1, r) } else { (r, r + 1) };
            let mut rr = lo;
            while rr <= hi {
                if rr >= 1 && rr <= COL_LEN[lc as usize] {
                    nb[i][k] = cell(lc, rr);
                    k += 1;
                }
                rr += 1;
            }
        }
        if r > 1 {
            nb[i][k] = cell(c, r - 1);
            k += 1;
        }
        if r < COL_LEN[c as usize] {
            nb[i][k] = cell(c, r + 1);
            k += 1;
        }
        if (c as usize) < NCOLS - 1 {
            let rc = c + 1;
            let (lo, hi) = if is_long(c) { (r - 1, r) } else { (r, r + 1) };
            let mut rr = lo;
            while rr <= hi {
                if rr >= 1 && rr <= COL_LEN[rc as usize] {
                    nb[i][k] = cell(rc, rr);
                    k += 1;
                }
                rr += 1;
            }
        }
        n[i] = k as u8;
        i += 1;
    }
    (nb, n)
}

const NEIGH_TABLE: ([[u8; 6]; NCELLS], [u8; NCELLS]) = build_neighbours();

/// The cells touching `c`, in ascending cell order.
pub fn neighbours(c: u8) -> &'static [u8] {
    let i = c as usize;
    &NEIGH_TABLE.0[i][..NEIGH_TABLE.1[i] as usize]
}

/// Whether two cells touch.
pub fn adjacent(p: u8, q: u8) -> bool {
    neighbours(p).contains(&q)
}

/// The 11 interior Keeps, in cell order.
pub const KEEPS: [u8; 11] = [
    cell(0, 3),
    cell(0, 8),
    cell(1, 5),
    cell(2, 3),
    cell(2, 8),
    cell(3, 5),
    cell(4, 3),
    cell(4, 8),
    cell(5, 5),
    cell(6, 3),
    cell(6, 8),
];

const fn build_is_keep() -> [bool; NCELLS] {
    let mut k = [false; NCELLS];
    let mut i = 0;
    while i < KEEPS.len() {
        k[KEEPS[i] as usize] = true;
        i += 1;
    }
    k
}

/// Whether each cell is a Keep.
pub const IS_KEEP: [bool; NCELLS] = build_is_keep();

/// Whether `c` is an interior Keep.
pub fn is_keep(c: u8) -> bool {
    (c as usize) < NCELLS && IS_KEEP[c as usize]
}

/// A Gate between two consecutive cells of one column.
#[derive(Clone, Copy, Debug)]
pub struct Gate {
    /// The lower cell.
    pub low: u8,
    /// The upper cell (`low + 1`).
    pub high: u8,
    /// The Keeps on its two sides, [`NONE`] for the board edge.
    pub flanks: [u8; 2],
}

/// The ten Gates and their flanking Keeps (spec section 7).
pub const GATES: [Gate; 10] = [
    Gate {
        low: cell(0, 5),
        high: cell(0, 6),
        flanks: [cell(1, 5), NONE],
    },
    Gate {
        low: cell(2, 5),
        high: cell(2, 6),
        flanks: [cell(1, 5), cell(3, 5)],
    },
    Gate {
        low: cell(4, 5),
        high: cell(4, 6),
        flanks: [cell(3, 5), cell(5, 5)],
    },
    Gate {
        low: cell(6, 5),
        high: cell(6, 6),
        flanks: [cell(5, 5), NONE],
    },
    Gate {
        low: cell(1, 2),
        high: cell(1, 3),
        flanks: [cell(0, 3), cell(2, 3)],
    },
    Gate {
        low: cell(3, 2),
        high: cell(3, 3),
        flanks: [cell(2, 3), cell(4, 3)],
    },
    Gate {
        low: cell(5, 2),
        high: cell(5, 3),
        flanks: [cell(4, 3), cell(6, 3)],
    },
    Gate {
        low: cell(1, 7),
        high: cell(1, 8),
        flanks: [cell(0, 8), cell(2, 8)],
    },
    Gate {
        low: cell(3, 7),
        high: cell(3, 8),
        flanks: [cell(2, 8), cell(4, 8)],
    },
    Gate {
        low: cell(5, 7),
        high: cell(5, 8),
        flanks: [cell(4, 8), cell(6, 8)],
    },
];

const fn build_gate_above() -> [u8; NCELLS] {
    let mut g = [NONE; NCELLS];
    let mut i = 0;
    while i < GATES.len() {
        g[GATES[i].low as usize] = i as u8;
        i += 1;
    }
    g
}

/// For each cell, the Gate between it and the cell above it, or [`NONE`].
pub const GATE_ABOVE: [u8; NCELLS] = build_gate_above();

/// The Gate crossed by the step between two touching cells, if any.
pub fn gate_between(p: u8, q: u8) -> Option<u8> {
    let lo = p.min(q);
    let hi = p.max(q);
    let g = GATE_ABOVE[lo as usize];
    if g != NONE && GATES[g as usize].high == hi {
        Some(g)
    } else {
        None
    }
}

/// The cells touching each side's home Keep: White's (index 0) touches
/// `c1 d1 e1`, Black's `c10 d9 e10`.
pub const HOME_TOUCH: [[u8; 3]; 2] = [
    [cell(2, 1), cell(3, 1), cell(4, 1)],
    [cell(2, 10), cell(3, 9), cell(4, 10)],
];

/// Whether `c` is one of `side`'s entry cells (White row 1 of every column,
/// Black the top cell of every column).
pub fn is_entry(side: Side, c: u8) -> bool {
    let col = CELL_COL[c as usize];
    let row = CELL_ROW[c as usize];
    if side == WHITE {
        row == 1
    } else {
        row == COL_LEN[col as usize]
    }
}

/// The entry cells of `side`, from column a to g.
pub fn entry_cells(side: Side) -> [u8; NCOLS] {
    let mut out = [0u8; NCOLS];
    for (col, slot) in out.iter_mut().enumerate() {
        *slot = if side == WHITE {
            cell(col as u8, 1)
        } else {
            cell(col as u8, COL_LEN[col])
        };
    }
    out
}

/// Display wrapper writing a cell's name, e.g. `d3`.
#[derive(Clone, Copy)]
pub struct Name(pub u8);

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0 as usize;
        write!(f, "{}{}", (b'a' + CELL_COL[c]) as char, CELL_ROW[c])
    }
}

/// Display wrapper writing a Gate's name, e.g. `c5|c6`.
#[derive(Clone, Copy)]
pub struct GateName(pub u8);

impl fmt::Display for GateName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = GATES[self.0 as usize];
        write!(f, "{}|{}", Name(g.low), Name(g.high))
    }
}

/// Append a cell's name to `out` without formatting machinery.
pub fn push_name(out: &mut String, c: u8) {
    let i = c as usize;
    out.push((b'a' + CELL_COL[i]) as char);
    let r = CELL_ROW[i];
    if r >= 10 {
        out.push('1');
        out.push((b'0' + r - 10) as char);
    } else {
        out.push((b'0' + r) as char);
    }
}
