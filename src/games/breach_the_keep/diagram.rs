//! The position as text. The long columns (a c e g) sit half a row below
//! the short ones (b d f), so that every cell touches the cells drawn
//! diagonally next to it; Gates are drawn between their two cells, on the
//! line of their flanking Keeps.

use super::board::{cell, is_keep, Name, CELL_COL, CELL_ROW, COL_LEN, GATES, HOME_TOUCH, NCOLS};
use super::picture::{passage, status, zone_line};
use super::rules::SIDE_NAMES;
use super::state::{Pos, State};
use crate::game::DiagramStyle;
use crate::picture::{self as model, Form, Passage};

/// Left margin (row labels of the long columns).
const LEFT: usize = 4;
/// Width of one column.
const COLW: usize = 6;
/// Line width.
const WIDTH: usize = LEFT + COLW * NCOLS + 4;
/// Board lines: two per row, from row 10 of the long columns (line 0) down
/// to row 1 (line 18); short row n is on line 19 - 2n.
const LINES: usize = 19;

struct Glyphs {
    empty: char,
    keep_open: char,
    keep_close: char,
    home_open: char,
    home_close: char,
    gate_open: [char; 2],
    closed: char,
}

const ASCII: Glyphs = Glyphs {
    empty: '.',
    keep_open: '[',
    keep_close: ']',
    home_open: '{',
    home_close: '}',
    gate_open: ['=', '='],
    closed: 'x',
};

const UNICODE: Glyphs = Glyphs {
    empty: '·',
    keep_open: '⟦',
    keep_close: '⟧',
    home_open: '⟪',
    home_close: '⟫',
    gate_open: ['═', '═'],
    closed: '╳',
};

fn put(line: &mut [char], x: usize, text: &str) {
    for (i, ch) in text.chars().enumerate() {
        if x + i < line.len() {
            line[x + i] = ch;
        }
    }
}

/// Line of cell `row` of column `col` (0 = top line, row 10 of a long column).
fn line_of(col: usize, row: usize) -> usize {
    if col % 2 == 0 {
        2 * (10 - row)
    } else {
        19 - 2 * row
    }
}

/// A cell of the picture: `[Ww ]` a Keep and its stacks, `  w  ` a
/// stack, `  .  ` an empty cell.
fn token(spot: &model::Cell, keep: bool, g: &Glyphs) -> String {
    let mut l = [' '; 3];
    for (slot, t) in l.iter_mut().zip(&spot.tokens) {
        let c = if t.side == Some(0) { 'w' } else { 'b' };
        *slot = if t.form == Form::Double {
            c.to_ascii_uppercase()
        } else {
            c
        };
    }
    if keep {
        let mut s = String::new();
        s.push(g.keep_open);
        s.extend(l.iter());
        s.push(g.keep_close);
        s
    } else if spot.tokens.is_empty() {
        format!("  {}  ", g.empty)
    } else {
        format!("  {}  ", l[0])
    }
}

fn gate_token(pos: &Pos, gi: usize, g: &Glyphs) -> String {
    let mut s = String::from(" ");
    match passage(pos, gi) {
        // Breach The Keep's gates are never walls.
        Passage::Closed | Passage::Wall => {
            s.push(g.closed);
            s.push(g.closed);
        }
        Passage::ClosedTo(side) => {
            s.push(g.closed);
            s.push(if side == 1 { 'B' } else { 'W' });
        }
        Passage::Open => {
            s.push(g.gate_open[0]);
            s.push(g.gate_open[1]);
        }
    }
    s.push_str("  ");
    s
}

fn home_line(pos: &Pos, side: usize, g: &Glyphs) -> Vec<char> {
    let mut line = vec![' '; WIDTH + 30];
    let x = LEFT + COLW * 3;
    let v = pos.keep_value[side];
    put(
        &mut line,
        x,
        &format!("{} {} {}", g.home_open, v, g.home_close),
    );
    let t = HOME_TOUCH[side];
    put(
        &mut line,
        x + COLW + 1,
        &format!(
            "{} home Keep {v}, touches {} {} {}",
            SIDE_NAMES[side],
            Name(t[0]),
            Name(t[1]),
            Name(t[2])
        ),
    );
    line
}

fn finish(line: &[char]) -> String {
    let s: String = line.iter().collect();
    s.trim_end().to_string()
}

fn header(out: &mut Vec<String>) {
    let mut line = vec![' '; WIDTH];
    for col in 0..NCOLS {
        line[LEFT + COLW * col + 2] = (b'a' + col as u8) as char;
    }
    out.push(finish(&line));
}

/// Draw the whole diagram.
pub fn draw(state: &State, style: DiagramStyle) -> String {
    let pos = &state.pos;
    let pic = super::picture::picture(state);
    let g = if style.unicode { &UNICODE } else { &ASCII };
    let mut out: Vec<String> = Vec::new();
    out.push(zone_line(pos, 1));
    header(&mut out);
    out.push(finish(&home_line(pos, 1, g)));
    let mut grid = vec![vec![' '; WIDTH]; LINES];
    for (i, line) in grid.iter_mut().enumerate() {
        if i % 2 == 0 {
            put(line, 0, &format!("{:>2}", 10 - i / 2));
        } else {
            put(
                line,
                LEFT + COLW * NCOLS + 1,
                &format!("{}", 10 - i.div_ceil(2)),
            );
        }
    }
    for (col, &len) in COL_LEN.iter().enumerate() {
        for row in 1..=len as usize {
            let c = cell(col as u8, row as u8);
            let line = line_of(col, row);
            let spot = &pic.cells[usize::from(c)];
            put(
                &mut grid[line],
                LEFT + COLW * col,
                &token(spot, is_keep(c), g),
            );
        }
    }
    for (gi, gate) in GATES.iter().enumerate() {
        let col = CELL_COL[gate.low as usize] as usize;
        let row = CELL_ROW[gate.low as usize] as usize;
        let line = line_of(col, row) - 1;
        put(&mut grid[line], LEFT + COLW * col, &gate_token(pos, gi, g));
    }
    for line in &grid {
        out.push(finish(line));
    }
    out.push(finish(&home_line(pos, 0, g)));
    header(&mut out);
    out.extend(status(state));
    let (k0, k1, h0, h1, e) = if style.unicode {
        ("⟦", "⟧", "⟪", "⟫", "·")
    } else {
        ("[", "]", "{", "}", ".")
    };
    let (open, x) = if style.unicode {
        ("══", "╳")
    } else {
        ("==", "x")
    };
    out.push(format!(
        "Legend: w/W White single/double, b/B Black single/double, {e} empty cell,"
    ));
    out.push(format!(
        "  {k0}Ww {k1} Keep and the stacks in it, {h0} v {h1} home Keep of value v;"
    ));
    out.push(format!(
        "  Gates: {open} open, {x}W closed to White, {x}B closed to Black, {x}{x} to both;"
    ));
    out.push("  row numbers: a c e g at the left edge, b d f at the right edge.".to_string());
    let mut s = out.join("\n");
    s.push('\n');
    s
}
