//! The position as text. The long columns (a c e g) sit half a row below
//! the short ones (b d f), so that every cell touches the cells drawn
//! diagonally next to it; Gates are drawn between their two cells, on the
//! line of their flanking Keeps.

use super::board::{
    cell, is_keep, Name, CELL_COL, CELL_ROW, COL_LEN, GATES, HOME_TOUCH, KEEPS, NCOLS,
};
use super::rules::{side_name, SIDE_NAMES};
use super::state::{Cell, Pos, State, WHITE};
use crate::game::{wrap_words, DiagramStyle, TEXT_WIDTH};

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

fn letters(c: &Cell) -> ([char; 3], usize) {
    let mut out = [' '; 3];
    let mut n = 0;
    let (single, double) = c.stack_letters();
    for _ in 0..c.d {
        if n < 3 {
            out[n] = double;
            n += 1;
        }
    }
    for _ in 0..c.s {
        if n < 3 {
            out[n] = single;
            n += 1;
        }
    }
    (out, n)
}

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

fn token(pos: &Pos, c: u8, g: &Glyphs) -> String {
    let cell = pos.cells[c as usize];
    if is_keep(c) {
        let (l, _) = letters(&cell);
        let mut s = String::new();
        s.push(g.keep_open);
        s.extend(l.iter());
        s.push(g.keep_close);
        s
    } else if cell.is_empty() {
        format!("  {}  ", g.empty)
    } else {
        let (l, _) = letters(&cell);
        format!("  {}  ", l[0])
    }
}

fn gate_token(pos: &Pos, gi: usize, g: &Glyphs) -> String {
    let flanks = GATES[gi].flanks;
    let h0 = pos.holder(flanks[0]);
    let h1 = pos.holder(flanks[1]);
    let mut s = String::from(" ");
    if h0.is_some() && h1.is_some() && h0 != h1 {
        s.push(g.closed);
        s.push(g.closed);
    } else if h0.is_some() && h0 == h1 {
        // Both held by one side: closed to the other.
        s.push(g.closed);
        s.push(if h0 == Some(WHITE) { 'B' } else { 'W' });
    } else {
        s.push(g.gate_open[0]);
        s.push(g.gate_open[1]);
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

/// The `Keeps held:` line, wrapped between Keeps when all eleven do not
/// fit on one line.
fn keeps_held(pos: &Pos, out: &mut Vec<String>) {
    // A no-break space inside each Keep's entry keeps it on one line.
    let mut keeps = String::new();
    for &k in KEEPS.iter() {
        let c = pos.cells[k as usize];
        if c.is_empty() {
            continue;
        }
        let (l, n) = letters(&c);
        let stacks: String = l[..n].iter().collect();
        if !keeps.is_empty() {
            keeps.push_str(", ");
        }
        keeps.push_str(&format!(
            "{}\u{a0}{}\u{a0}{}\u{a0}({stacks})",
            Name(k),
            c.owner().map_or("", side_name),
            c.points()
        ));
    }
    if keeps.is_empty() {
        keeps.push_str("none");
    }
    for line in wrap_words(&format!("Keeps held: {keeps}"), TEXT_WIDTH, "  ") {
        out.push(line.replace('\u{a0}', " "));
    }
}

/// Draw the whole diagram.
pub fn draw(state: &State, style: DiagramStyle) -> String {
    let pos = &state.pos;
    let g = if style.unicode { &UNICODE } else { &ASCII };
    let mut out: Vec<String> = Vec::new();
    let need = |side: usize| 2 * pos.keep_value[side];
    out.push(format!(
        "Black end zone (Z): {} pieces; White needs {} points around Black's home Keep",
        pos.zone[1],
        need(1)
    ));
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
            put(&mut grid[line], LEFT + COLW * col, &token(pos, c, g));
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
    out.push(format!(
        "White end zone (Z): {} pieces; Black needs {} points around White's home Keep",
        pos.zone[0],
        need(0)
    ));
    keeps_held(pos, &mut out);
    out.push(format!(
        "Points in play: White {}, Black {}",
        pos.points[0], pos.points[1]
    ));
    if pos.over() {
        let w = pos.winner.map_or("", side_name);
        out.push(format!("{w} won"));
    } else {
        let me = SIDE_NAMES[usize::from(pos.side)];
        out.push(format!(
            "{me} to move: {} of 4 movement points left",
            4 - pos.used
        ));
    }
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
