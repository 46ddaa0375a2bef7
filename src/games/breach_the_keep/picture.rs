//! The picture of a position ([`crate::picture`]): the 67 hexagonal cells
//! in their seven columns (the short columns b d f half a cell higher),
//! the eleven Keeps, the Gates on the edges between their two cells (open,
//! closed to one side, closed to both), the two home Keeps and end zones
//! off the board, the stacks (a ringed disc is a double), coordinates on
//! the margins and the status lines. The text diagram draws its cells,
//! Gates and status lines from the same data.
//!
//! The status lines (end zones, Keeps held, points) are written here and
//! the text diagram uses them: the diagram uses the picture, never the
//! other way.

use crate::picture::{
    Cell as Spot, Colour, Form, Ground, HexOrient, Label, Passage, Picture, Point, Shape, SideKey,
    Token,
};

use super::board::{cell, is_keep, Name, CELL_COL, CELL_ROW, COL_LEN, GATES, KEEPS, NCOLS};
use super::rules::{side_name, SIDE_NAMES};
use super::state::{Cell, Pos, State};
use crate::game::{wrap_words, TEXT_WIDTH};

/// From a cell's centre to a corner.
const R: f32 = 0.7;
/// The height of a cell (flat top to flat bottom).
const H: f32 = R * 1.732_050_8;
/// The margin for the coordinates, left and right.
const SIDE_MARGIN: f32 = 0.8;
/// The strip above and below the board for a home Keep and an end zone.
const STRIP: f32 = 1.0;
/// The margin for the column letters.
const LETTERS: f32 = 0.5;

/// Whether column `col` (0 = a) is a long one (a c e g).
fn long(col: usize) -> bool {
    col % 2 == 0
}

/// The centre of the cell at column `col`, row `row` (1-based).
fn centre(col: usize, row: usize) -> Point {
    let x = SIDE_MARGIN + R + 1.5 * R * col as f32;
    let first = STRIP + LETTERS;
    let y = if long(col) {
        first + (10 - row) as f32 * H + H / 2.0
    } else {
        first + (10 - row) as f32 * H
    };
    Point::new(x, y)
}

/// Whether a Gate lets pieces through: closed to both sides when its
/// Keeps are held one by each; closed to the other side when both are
/// held by one; open otherwise (the board edge counts as an empty Keep).
pub(super) fn passage(pos: &Pos, gate: usize) -> Passage {
    let flanks = GATES[gate].flanks;
    let h0 = pos.holder(flanks[0]);
    let h1 = pos.holder(flanks[1]);
    match (h0, h1) {
        (Some(a), Some(b)) if a != b => Passage::Closed,
        (Some(a), Some(_)) => Passage::ClosedTo(1 - usize::from(a)),
        _ => Passage::Open,
    }
}

/// The stacks on a cell as tokens, doubles first (as the position and
/// the text diagram write them).
pub(super) fn stacks(c: &Cell) -> Vec<Token> {
    let side = c.owner().map_or(0, usize::from);
    let name = SIDE_NAMES[side];
    let double = Token {
        form: Form::Double,
        ..Token::piece(side, "2", format!("{name} double"))
    };
    let single = Token::piece(side, "", format!("{name} single"));
    let mut out = vec![double; usize::from(c.d)];
    out.extend(std::iter::repeat_n(single, usize::from(c.s)));
    out.truncate(3);
    out
}

/// The picture of `state`. Its first cells are the board's, in cell
/// order (`cells[c]` is cell `c`); then the home Keeps and end zones.
pub fn picture(state: &State) -> Picture {
    let pos = &state.pos;
    let board_h = 10.0 * H;
    let mut pic = Picture::new(
        "Breach The Keep",
        2.0 * SIDE_MARGIN + 2.0 * R + 9.0 * R,
        2.0 * (STRIP + LETTERS) + board_h,
        vec![
            SideKey {
                name: "White",
                colour: Colour::White,
            },
            SideKey {
                name: "Black",
                colour: Colour::Black,
            },
        ],
    );
    for (col, &len) in COL_LEN.iter().enumerate() {
        for row in 1..=usize::from(len) {
            let c = cell(col as u8, row as u8);
            pic.cells.push(hex(pos, c, centre(col, row)));
        }
    }
    pic.edges = (0..GATES.len()).map(|g| gate(pos, g)).collect();
    places(&mut pic, pos);
    margins(&mut pic);
    pic.caption = vec![zone_line(pos, 1)];
    pic.caption.extend(status(state));
    pic.legend = vec![
        "disc: a single (2 points); ringed disc marked 2: a double (4)".into(),
        "thick outline: a Keep (up to three stacks of one side)".into(),
        "Gates: dashed green open; bar \u{d7}W closed to White, \u{d7}B to Black, \u{d7}\u{d7} both".into(),
    ];
    pic
}

fn hex(pos: &Pos, c: u8, centre: Point) -> Spot {
    let shape = Shape::Hex {
        centre,
        radius: R,
        orient: HexOrient::FlatTop,
    };
    let keep = is_keep(c);
    let ground = if keep { Ground::Special } else { Ground::Plain };
    let mut spot = Spot::new(Name(c).to_string(), shape, ground);
    if keep {
        spot.tag = Some("Keep".into());
    }
    spot.tokens = stacks(&pos.cells[usize::from(c)]);
    spot
}

/// The Gate's edge: the flat edge the two cells of its column share.
fn gate(pos: &Pos, g: usize) -> crate::picture::Edge {
    let low = usize::from(GATES[g].low);
    let col = usize::from(CELL_COL[low]);
    let below = centre(col, usize::from(CELL_ROW[low]));
    let y = below.y - H / 2.0;
    crate::picture::Edge {
        from: Point::new(below.x - R / 2.0, y),
        to: Point::new(below.x + R / 2.0, y),
        passage: passage(pos, g),
        name: super::board::GateName(g as u8).to_string(),
        title: format!("Gate {}", super::board::GateName(g as u8)),
        hinge: None,
        changed: false,
    }
}

/// The home Keeps (by the cells they touch, c d e) and the end zones.
fn places(pic: &mut Picture, pos: &Pos) {
    let bottom = STRIP + LETTERS + 10.0 * H + LETTERS;
    for (side, y) in [(0usize, bottom + 0.1), (1, 0.1)] {
        let name = SIDE_NAMES[side];
        let left = centre(2, 1).x - R;
        let home = Shape::Place {
            at: Point::new(left, y),
            width: centre(4, 1).x + R - left,
            height: STRIP - 0.2,
        };
        let mut keep = Spot::new(format!("{name} home Keep"), home, Ground::Home);
        keep.tag = Some(format!("{name} home Keep {}", pos.keep_value[side]));
        pic.cells.push(keep);
        let zone_left = centre(5, 1).x - R * 0.3;
        let zone = Shape::Place {
            at: Point::new(zone_left, y),
            width: centre(6, 1).x + R - zone_left,
            height: STRIP - 0.2,
        };
        let mut end = Spot::new(format!("{name} end zone"), zone, Ground::Home);
        end.tag = Some(format!("Z: {} pieces", pos.zone[side]));
        pic.cells.push(end);
    }
}

fn margins(pic: &mut Picture) {
    let top = STRIP + LETTERS / 2.0;
    let bottom = STRIP + LETTERS + 10.0 * H + LETTERS / 2.0;
    for col in 0..NCOLS {
        let x = centre(col, 1).x;
        let text = char::from(b'a' + col as u8).to_string();
        pic.labels
            .push(Label::coordinate(Point::new(x, top), text.clone()));
        pic.labels
            .push(Label::coordinate(Point::new(x, bottom), text));
    }
    let left = SIDE_MARGIN / 2.0;
    let right = centre(NCOLS - 1, 1).x + R + SIDE_MARGIN / 2.0;
    for row in 1..=10 {
        let y = centre(0, row).y;
        pic.labels
            .push(Label::coordinate(Point::new(left, y), row.to_string()));
    }
    for row in 1..=9 {
        let y = centre(1, row).y;
        pic.labels
            .push(Label::coordinate(Point::new(right, y), row.to_string()));
    }
}

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

/// `Black end zone (Z): 8 pieces; White needs 8 points around Black's
/// home Keep`: the line on `side`'s end zone.
pub(super) fn zone_line(pos: &Pos, side: usize) -> String {
    let other = 1 - side;
    format!(
        "{} end zone (Z): {} pieces; {} needs {} points around {}'s home Keep",
        SIDE_NAMES[side],
        pos.zone[side],
        SIDE_NAMES[other],
        2 * pos.keep_value[side],
        SIDE_NAMES[side]
    )
}

/// The lines under the board (the picture's caption after Black's end
/// zone): White's end zone, the Keeps held, the points in play, the side
/// to move and its points left, or the winner.
pub(super) fn status(state: &State) -> Vec<String> {
    let pos = &state.pos;
    let mut out = vec![zone_line(pos, 0)];
    keeps_held(pos, &mut out);
    out.push(format!(
        "Points in play: White {}, Black {}",
        pos.points[0], pos.points[1]
    ));
    if pos.over() {
        let w = pos.winner.map_or("", side_name);
        out.push(format!("{w} won"));
    } else {
        let me = side_name(pos.side);
        out.push(format!(
            "{me} to move: {} of 4 movement points left",
            4 - pos.used
        ));
    }
    out
}
