//! The picture of a position ([`crate::picture`]): the 19 hexes in their
//! five rows, the four named spaces, the units (their army's colour and
//! initial and their kind, `ER` an Elf Regular, as the position notation
//! writes them), the row letters on the margins, and the status lines of
//! the text diagram (the armies' table, options, a pending rally). The text
//! diagram draws its hexes' units from this picture.

use crate::picture::{
    Cell, Colour, Ground, HexOrient, Label, Picture, Point, Shape, SideKey, Token,
};

use super::board::{short_name, Hex, NAMED_MASK, ROW_LEN, ROW_LETTER};
use super::state::{State, ARMY};
use crate::game::Side;

/// From a hex's centre to a corner.
const R: f32 = 1.0;
/// The width of a hex (flat side to flat side).
const W: f32 = R * 1.732_050_8;
/// The margin for the row letters, left and right.
const SIDE_MARGIN: f32 = 0.7;
/// The margin above and below.
const TOP: f32 = 0.3;

/// The colour of each army, in army order.
const COLOURS: [Colour; 5] = [
    Colour::Blue,
    Colour::BluishGreen,
    Colour::Vermillion,
    Colour::Orange,
    Colour::ReddishPurple,
];

/// The army's initial, as the position notation writes it.
fn initial(side: Side) -> char {
    ARMY[usize::from(side)].chars().next().unwrap_or('?')
}

/// The centre of hex `num` (from 1) of row `row` (0 = A), in a row of `len`.
fn centre(row: usize, num: usize, len: usize) -> Point {
    let x = SIDE_MARGIN + (5 - len) as f32 * W / 2.0 + (num - 1) as f32 * W + W / 2.0;
    let y = TOP + R + row as f32 * 1.5 * R;
    Point::new(x, y)
}

/// The picture of `state`. Its cells are the hexes in label order
/// (`cells[h.idx()]` is `h`); its sides are the armies in play, in turn
/// order.
pub fn picture(state: &State) -> Picture {
    let sides: Vec<SideKey> = state
        .sides()
        .iter()
        .map(|&a| SideKey {
            name: ARMY[usize::from(a)],
            colour: COLOURS[usize::from(a)],
        })
        .collect();
    let mut pic = Picture::new(
        "Battle of the Dale",
        2.0 * SIDE_MARGIN + 5.0 * W,
        2.0 * TOP + 2.0 * R + 6.0 * R,
        sides,
    );
    for (row, &len) in ROW_LEN.iter().enumerate() {
        let len = usize::from(len);
        for num in 1..=len {
            if let Some(h) = Hex::at(row, num) {
                pic.cells.push(hex(state, h, centre(row, num, len)));
            }
        }
        let y = centre(row, 1, len).y;
        let letter = ROW_LETTER[row].to_string();
        let left = centre(row, 1, len).x - W / 2.0 - SIDE_MARGIN / 2.0;
        let right = centre(row, len, len).x + W / 2.0 + SIDE_MARGIN / 2.0;
        pic.labels
            .push(Label::coordinate(Point::new(left, y), letter.clone()));
        pic.labels
            .push(Label::coordinate(Point::new(right, y), letter));
    }
    pic.caption = vec![super::diagram::title_line(state)];
    let status = super::diagram::status(state);
    let plain = anstream::adapter::strip_str(&status).to_string();
    pic.caption.extend(plain.lines().map(str::to_string));
    pic.legend = vec![
        "a unit: its army's initial and kind (ER: an Elf Regular;".into(),
        "  R Regular, M Mounted, H Hero); grey, thick outline: a named space".into(),
    ];
    pic
}

fn hex(state: &State, h: Hex, centre: Point) -> Cell {
    let shape = Shape::Hex {
        centre,
        radius: R,
        orient: HexOrient::PointyTop,
    };
    let named = NAMED_MASK & h.bit() != 0;
    let ground = if named {
        Ground::Special
    } else {
        Ground::Plain
    };
    let mut cell = Cell::new(h.to_string(), shape, ground);
    cell.tag = Some(match short_name(h) {
        Some(n) => format!("{h} {n}"),
        None => h.to_string(),
    });
    if let Some((side, kind)) = state.unit(h) {
        let index = state.sides().iter().position(|&a| a == side);
        let text = format!("{}{}", initial(side), kind.letter());
        let title = format!("{} {}", ARMY[usize::from(side)], kind.name());
        cell.tokens.push(Token {
            side: index,
            ..Token::piece(0, text, title)
        });
    }
    cell
}
