//! The map: 19 hexes in rows A (3), B (4), C (5), D (4), E (3).
//!
//! Hexes are numbered 0..19 in label order (A1 < A2 < ... < E3), so a bit
//! mask iterated from the lowest bit visits hexes in label order.

use std::fmt;

/// Number of hexes on the map.
pub const N_HEX: usize = 19;

/// First index of each row.
pub const ROW_START: [u8; 5] = [0, 3, 7, 12, 16];
/// Number of hexes in each row.
pub const ROW_LEN: [u8; 5] = [3, 4, 5, 4, 3];
/// Row letters.
pub const ROW_LETTER: [char; 5] = ['A', 'B', 'C', 'D', 'E'];

/// One hex of the map, by its index in label order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex(pub u8);

impl Hex {
    /// The hex in `row` (0 = A) with number `num` (from 1), if it exists.
    pub const fn at(row: usize, num: usize) -> Option<Hex> {
        if row >= 5 || num == 0 || num > ROW_LEN[row] as usize {
            None
        } else {
            Some(Hex(ROW_START[row] + num as u8 - 1))
        }
    }

    /// The row index (0 = A).
    pub const fn row(self) -> usize {
        let mut r = 4;
        while ROW_START[r] > self.0 {
            r -= 1;
        }
        r
    }

    /// The number within the row, from 1.
    pub const fn num(self) -> usize {
        (self.0 - ROW_START[self.row()]) as usize + 1
    }

    /// This hex as a one-bit mask.
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// Index for arrays.
    pub const fn idx(self) -> usize {
        self.0 as usize
    }

    /// Append the label, e.g. `C3`.
    pub fn write(self, out: &mut String) {
        out.push(ROW_LETTER[self.row()]);
        out.push(char::from(b'0' + self.num() as u8));
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", ROW_LETTER[self.row()], self.num())
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

const fn build_neigh() -> [u32; N_HEX] {
    let mut n = [0u32; N_HEX];
    let mut row = 0;
    while row < 5 {
        let mut i = 1;
        while i <= ROW_LEN[row] as usize {
            let h = ROW_START[row] as usize + i - 1;
            // Same row, consecutive numbers.
            if i < ROW_LEN[row] as usize {
                n[h] |= 1 << (h + 1);
                n[h + 1] |= 1 << h;
            }
            // Down to the next row.
            if row < 4 {
                let (a, b) = if row < 2 {
                    // Upper row shorter: upper i touches lower i and i+1.
                    (i, i + 1)
                } else {
                    // Lower row shorter: upper i touches lower i-1 and i.
                    (i - 1, i)
                };
                let mut k = 0;
                while k < 2 {
                    let j = if k == 0 { a } else { b };
                    if j >= 1 && j <= ROW_LEN[row + 1] as usize {
                        let l = ROW_START[row + 1] as usize + j - 1;
                        n[h] |= 1 << l;
                        n[l] |= 1 << h;
                    }
                    k += 1;
                }
            }
            i += 1;
        }
        row += 1;
    }
    n
}

/// Neighbour masks, per hex.
pub const NEIGH: [u32; N_HEX] = build_neigh();

const fn build_within2() -> [u32; N_HEX] {
    let mut w = [0u32; N_HEX];
    let mut h = 0;
    while h < N_HEX {
        let mut m = NEIGH[h];
        let mut k = 0;
        while k < N_HEX {
            if NEIGH[h] & (1 << k) != 0 {
                m |= NEIGH[k];
            }
            k += 1;
        }
        w[h] = m & !(1 << h);
        h += 1;
    }
    w
}

/// Hexes one or two steps away (any path), per hex.
pub const WITHIN2: [u32; N_HEX] = build_within2();

/// Every hex.
pub const ALL: u32 = (1 << N_HEX) - 1;

/// The map edge: all of rows A and E, plus B1, B4, C1, C5, D1, D4.
pub const EDGE: u32 = {
    let mut m = 0u32;
    let mut h = 0;
    while h < 3 {
        m |= 1 << h; // A1-A3
        m |= 1 << (16 + h); // E1-E3
        h += 1;
    }
    m | (1 << 3) | (1 << 6) | (1 << 7) | (1 << 11) | (1 << 12) | (1 << 15)
};

/// C3, the Riverport of Chip.
pub const CHIP: Hex = Hex(9);
/// B2, Foggy Mountain.
pub const FOG: Hex = Hex(4);
/// C4, Lookout Post.
pub const POST: Hex = Hex(10);
/// D2, Hangman's Tree.
pub const TREE: Hex = Hex(13);

/// The four named spaces in label order: hex, short name, full name.
pub const NAMED: [(Hex, &str, &str); 4] = [
    (FOG, "Fog", "Foggy Mountain"),
    (CHIP, "Chip", "Riverport of Chip"),
    (POST, "Post", "Lookout Post"),
    (TREE, "Tree", "Hangman's Tree"),
];

/// Mask of the named spaces.
pub const NAMED_MASK: u32 = FOG.bit() | CHIP.bit() | POST.bit() | TREE.bit();

/// The short name of a named space.
pub fn short_name(h: Hex) -> Option<&'static str> {
    NAMED.iter().find(|n| n.0 == h).map(|n| n.1)
}

/// Every hex adjacent to at least one hex of `mask`.
pub fn nbrs(mask: u32) -> u32 {
    let mut out = 0;
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        out |= NEIGH[i];
    }
    out
}

/// Grow `seed` through adjacency, staying within `within` (a chain).
pub fn grow(seed: u32, within: u32) -> u32 {
    let mut cur = seed;
    loop {
        let next = cur | (nbrs(cur) & within);
        if next == cur {
            return cur;
        }
        cur = next;
    }
}

/// Iterate the hexes of a mask in label order.
pub fn hexes(mask: u32) -> impl Iterator<Item = Hex> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(Hex(i))
        }
    })
}

/// Are two hexes neighbours?
pub fn adjacent(a: Hex, b: Hex) -> bool {
    NEIGH[a.idx()] & b.bit() != 0
}
