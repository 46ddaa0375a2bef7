//! A [`Picture`] as one self-contained SVG document: no scripts, no
//! external fonts or images, the same bytes for the same picture.
//!
//! Every piece is a `<g class="piece">` with `data-side` and `data-cell`,
//! so that a program (or the replay page's tests) can count and find them;
//! a hidden identity is drawn `?` and never written anywhere else.

use std::fmt::Write;

use super::{
    escape, Anchor, Cell, Colour, Edge, Form, HexOrient, Known, Label, Passage, Picture, Point,
    Shape, Token,
};

/// Pixels per board unit.
const UNIT: f32 = 52.0;
/// The margin around everything, in pixels.
const PAD: f32 = 12.0;
/// Height of the title line.
const TITLE_H: f32 = 30.0;
/// Height of one caption or legend line (monospace text).
const LINE_H: f32 = 19.0;
/// Width of one character of caption text (monospace, 14 px).
const CHAR_W: f32 = 8.5;
/// The sans-serif fonts of letters and labels.
const SANS: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
/// The monospace fonts of the caption.
const MONO: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
/// The ring around a token known only to the viewer (Okabe-Ito yellow).
const OWN_RING: &str = "#F0E442";

/// A number of pixels, written short (`12`, `12.5`).
struct Px(f32);

impl std::fmt::Display for Px {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = (self.0 * 10.0).round() / 10.0;
        if v == v.trunc() {
            write!(f, "{}", v as i64)
        } else {
            write!(f, "{v:.1}")
        }
    }
}

/// Where board point `p` lands, in pixels.
fn px(p: Point, top: f32) -> (Px, Px) {
    (Px(PAD + p.x * UNIT), Px(top + p.y * UNIT))
}

/// The SVG document of `pic`, titled `heading` (e.g. `Castle Danger,
/// after turn 6`).
pub fn document(pic: &Picture, heading: &str) -> String {
    let board_w = pic.width * UNIT;
    let text_lines = pic.caption.iter().chain(&pic.legend);
    let text_w = text_lines
        .map(|l| l.chars().count() as f32 * CHAR_W)
        .fold(heading.chars().count() as f32 * 10.0, f32::max);
    let width = board_w.max(text_w) + 2.0 * PAD;
    let top = PAD + TITLE_H;
    let board_bottom = top + pic.height * UNIT;
    let keys_h = if pic.sides.is_empty() {
        0.0
    } else {
        LINE_H + 8.0
    };
    let lines = (pic.caption.len() + pic.legend.len()) as f32;
    let height = board_bottom + 8.0 + keys_h + lines * LINE_H + 8.0 + PAD;
    let mut out = String::with_capacity(16 * 1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"{SANS}\">",
        w = Px(width),
        h = Px(height),
    );
    let _ = writeln!(out, "<title>{}</title>", escape(heading));
    let _ = writeln!(
        out,
        "<rect class=\"background\" width=\"{}\" height=\"{}\" fill=\"#FFFFFF\"/>",
        Px(width),
        Px(height)
    );
    let _ = writeln!(
        out,
        "<text class=\"heading\" x=\"{}\" y=\"{}\" font-size=\"20\" font-weight=\"bold\" fill=\"#000000\">{}</text>",
        Px(PAD),
        Px(PAD + 20.0),
        escape(heading)
    );
    out.push_str("<g class=\"board\">\n");
    for cell in &pic.cells {
        draw_cell(&mut out, cell, top);
    }
    for edge in &pic.edges {
        draw_edge(&mut out, pic, edge, top);
    }
    for label in &pic.labels {
        draw_label(&mut out, label, top);
    }
    for cell in &pic.cells {
        draw_tokens(&mut out, pic, cell, top);
    }
    out.push_str("</g>\n");
    let mut y = board_bottom + 8.0;
    if !pic.sides.is_empty() {
        draw_keys(&mut out, pic, y);
        y += keys_h;
    }
    draw_lines(&mut out, "caption", &pic.caption, y, "#000000");
    y += pic.caption.len() as f32 * LINE_H;
    draw_lines(&mut out, "legend", &pic.legend, y, "#444444");
    out.push_str("</svg>\n");
    out
}

/// The fill and stroke of a cell's ground.
fn ground_style(cell: &Cell) -> (&'static str, &'static str, &'static str) {
    use super::Ground::*;
    match cell.ground {
        Plain => ("#F2EEE3", "#8C8C8C", "1"),
        Sand => ("#E3D3A4", "#8C8C8C", "1"),
        Water => ("#9CC9E6", "#5E8FB0", "1"),
        Special => ("#D4D4D4", "#333333", "2.5"),
        Home => ("#EBEBEB", "#333333", "2"),
    }
}

/// A hex's corners as an SVG `points` list.
fn hex_points(centre: Point, radius: f32, orient: HexOrient, top: f32) -> String {
    let points: Vec<String> = hex_corners(centre, radius, orient)
        .iter()
        .map(|&p| {
            let (x, y) = px(p, top);
            format!("{x},{y}")
        })
        .collect();
    points.join(" ")
}

fn hex_corners(centre: Point, radius: f32, orient: HexOrient) -> [Point; 6] {
    let start = match orient {
        HexOrient::PointyTop => -90.0f32,
        HexOrient::FlatTop => 0.0,
    };
    let mut corners = [Point::default(); 6];
    for (i, c) in corners.iter_mut().enumerate() {
        let a = (start + 60.0 * i as f32).to_radians();
        *c = Point::new(centre.x + radius * a.cos(), centre.y + radius * a.sin());
    }
    corners
}

fn draw_cell(out: &mut String, cell: &Cell, top: f32) {
    let (fill, stroke, width) = ground_style(cell);
    let _ = write!(
        out,
        "<g class=\"cell\" data-cell=\"{}\"><title>{}</title>",
        escape(&cell.name),
        escape(&cell.name)
    );
    let paint = format!("fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"");
    match cell.shape {
        Shape::Square { at, size } => {
            let (x, y) = px(at, top);
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{s}\" height=\"{s}\" {paint}/>",
                s = Px(size * UNIT)
            );
        }
        Shape::Hex {
            centre,
            radius,
            orient,
        } => {
            let points = hex_points(centre, radius, orient, top);
            let _ = write!(out, "<polygon points=\"{points}\" {paint}/>");
        }
        Shape::Place { at, width, height } => {
            let (x, y) = px(at, top);
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" rx=\"8\" {paint} stroke-dasharray=\"6 3\"/>",
                Px(width * UNIT),
                Px(height * UNIT)
            );
        }
    }
    if cell.changed {
        draw_outline(out, cell, top);
    }
    if let Some(tag) = &cell.tag {
        let c = cell.shape.centre();
        let (lift, size) = match cell.shape {
            Shape::Place { .. } => (0.0, 14),
            _ => (cell.shape.span() * 0.41, 10),
        };
        let (x, y) = px(Point::new(c.x, c.y - lift), top);
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{y}\" dy=\"0.35em\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"#333333\">{}</text>",
            escape(tag)
        );
    }
    out.push_str("</g>\n");
}

/// The orange outline of a cell the last line changed.
fn draw_outline(out: &mut String, cell: &Cell, top: f32) {
    let paint = format!("class=\"changed\" fill=\"none\" stroke=\"{CHANGED}\" stroke-width=\"4\"");
    match cell.shape {
        Shape::Square { at, size } => {
            let (x, y) = px(Point::new(at.x + 0.04, at.y + 0.04), top);
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{s}\" height=\"{s}\" {paint}/>",
                s = Px((size - 0.08) * UNIT)
            );
        }
        Shape::Hex {
            centre,
            radius,
            orient,
        } => {
            let points = hex_points(centre, radius * 0.9, orient, top);
            let _ = write!(out, "<polygon points=\"{points}\" {paint}/>");
        }
        Shape::Place { at, width, height } => {
            let (x, y) = px(at, top);
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" rx=\"8\" {paint}/>",
                Px(width * UNIT),
                Px(height * UNIT)
            );
        }
    }
}

/// The colour that marks what the last line changed (Okabe and Ito's
/// orange).
const CHANGED: &str = "#E69F00";

fn draw_edge(out: &mut String, pic: &Picture, edge: &Edge, top: f32) {
    let (x1, y1) = px(edge.from, top);
    let (x2, y2) = px(edge.to, top);
    let (class, stroke, width, dash, note) = match edge.passage {
        Passage::Open => (
            "gate open",
            "#009E73",
            "5",
            " stroke-dasharray=\"7 4\"",
            None,
        ),
        Passage::ClosedTo(s) => (
            "gate closed",
            "#222222",
            "6",
            "",
            Some(format!("\u{d7}{}", initial(pic, s))),
        ),
        Passage::Closed => (
            "gate closed",
            "#222222",
            "6",
            "",
            Some("\u{d7}\u{d7}".into()),
        ),
        Passage::Wall => ("wall", "#222222", "6", "", None),
    };
    if edge.changed {
        let _ = write!(
            out,
            "<line class=\"changed\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{CHANGED}\" stroke-width=\"12\" stroke-linecap=\"round\" stroke-opacity=\"0.7\"/>"
        );
    }
    let _ = write!(
        out,
        "<g class=\"{class}\" data-edge=\"{}\"><title>{}</title>\
         <line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-linecap=\"round\"{dash}/>",
        escape(&edge.name),
        escape(&edge.title),
    );
    if let Some(hinge) = edge.hinge {
        let (x, y) = px(hinge, top);
        let _ = write!(
            out,
            "<circle class=\"hinge\" cx=\"{x}\" cy=\"{y}\" r=\"6\" fill=\"#FFFFFF\" stroke=\"{stroke}\" stroke-width=\"3\"/>"
        );
    }
    if let Some(note) = note {
        let mid = Point::new(
            (edge.from.x + edge.to.x) / 2.0,
            (edge.from.y + edge.to.y) / 2.0,
        );
        let (x, y) = px(mid, top);
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{y}\" dy=\"-5\" font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#000000\">{}</text>",
            escape(&note)
        );
    }
    out.push_str("</g>\n");
}

/// The first letter of side `s`'s name.
fn initial(pic: &Picture, s: usize) -> char {
    pic.sides
        .get(s)
        .and_then(|k| k.name.chars().next())
        .unwrap_or('?')
}

fn draw_label(out: &mut String, label: &Label, top: f32) {
    let (x, y) = px(label.at, top);
    let anchor = match label.anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    let (size, class) = if label.small {
        ("12", "note")
    } else {
        ("15", "coordinate")
    };
    let _ = writeln!(
        out,
        "<text class=\"{class}\" x=\"{x}\" y=\"{y}\" dy=\"0.35em\" font-size=\"{size}\" text-anchor=\"{anchor}\" fill=\"#333333\">{}</text>",
        escape(&label.text)
    );
}

/// Where the tokens of a cell stand: their centres and radius.
fn token_places(cell: &Cell) -> (Vec<Point>, f32) {
    let c = cell.shape.centre();
    let span = cell.shape.span();
    let n = cell.tokens.len();
    let (r, step) = match n {
        0 | 1 => (span * 0.34, 0.0),
        2 => (span * 0.235, span * 0.5),
        _ => (span * 0.18, span * 0.38),
    };
    let first = c.x - step * (n.saturating_sub(1)) as f32 / 2.0;
    let places = (0..n)
        .map(|i| Point::new(first + step * i as f32, c.y))
        .collect();
    (places, r)
}

fn draw_tokens(out: &mut String, pic: &Picture, cell: &Cell, top: f32) {
    let (places, r) = token_places(cell);
    for (token, &at) in cell.tokens.iter().zip(&places) {
        let (x, y) = px(at, top);
        let spot = Spot {
            x: x.0,
            y: y.0,
            rad: r * UNIT,
        };
        draw_token(out, pic, cell, token, spot);
    }
    if let (Some(link), [a, b, ..]) = (cell.link, places.as_slice()) {
        // Above the gap between the two tokens.
        let mid = Point::new((a.x + b.x) / 2.0, a.y - r * 1.05);
        let (x, y) = px(mid, top);
        let _ = writeln!(
            out,
            "<text class=\"link\" x=\"{x}\" y=\"{y}\" dy=\"0.35em\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#000000\">{}</text>",
            escape(link)
        );
    }
}

/// Where a token is drawn, in pixels: its centre and radius.
#[derive(Clone, Copy)]
struct Spot {
    x: f32,
    y: f32,
    rad: f32,
}

fn side_colour(pic: &Picture, token: &Token) -> Option<Colour> {
    token
        .side
        .and_then(|s| pic.sides.get(s))
        .map(|key| key.colour)
}

/// One token as a group: `class` says what it is (`piece`, `piece
/// hidden`, `piece own`, `block`, `marker`), `data-side` and `data-cell`
/// where it stands, `<title>` what it is in words.
fn draw_token(out: &mut String, pic: &Picture, cell: &Cell, token: &Token, at: Spot) {
    let colour = side_colour(pic, token);
    let class = match (token.form, token.known) {
        (Form::Block, _) => "block",
        (Form::Marker, _) => "marker",
        (_, Known::Own) => "piece own",
        (_, Known::Hidden) => "piece hidden",
        _ => "piece",
    };
    let _ = write!(out, "<g class=\"{class}\"");
    if let Some(key) = token.side.and_then(|s| pic.sides.get(s)) {
        let _ = write!(out, " data-side=\"{}\"", escape(key.name));
    }
    let _ = write!(
        out,
        " data-cell=\"{}\"><title>{}</title>",
        escape(&cell.name),
        escape(&token.title)
    );
    match token.form {
        Form::Block => draw_block(out, cell, at),
        Form::Marker => draw_marker(out, colour, at),
        Form::Piece | Form::Double => draw_disc(out, token, colour, at),
    }
    if token.form != Form::Block && !token.text.is_empty() {
        draw_letter(out, token, colour, at);
    }
    if let Some(badge) = token.badge {
        let _ = write!(
            out,
            "<text class=\"badge\" x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" fill=\"#000000\">{}</text>",
            Px(at.x + at.rad * 0.75),
            Px(at.y - at.rad * 0.55),
            escape(badge)
        );
    }
    out.push_str("</g>\n");
}

/// A Wall: a dark block filling most of the cell, with a seam.
fn draw_block(out: &mut String, cell: &Cell, at: Spot) {
    let s = cell.shape.span() * 0.84 * UNIT;
    let (left, top) = (Px(at.x - s / 2.0), Px(at.y - s / 2.0));
    let _ = write!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{w}\" height=\"{w}\" fill=\"#5A5A5A\" stroke=\"#000000\" stroke-width=\"1\"/>\
         <path d=\"M{left} {y}h{w}M{x} {top}v{half}\" stroke=\"#9A9A9A\" stroke-width=\"2\"/>",
        w = Px(s),
        x = Px(at.x),
        y = Px(at.y),
        half = Px(s / 2.0),
    );
}

/// A marker (Fire): a diamond in its side's colour.
fn draw_marker(out: &mut String, colour: Option<Colour>, at: Spot) {
    let d = at.rad * 1.05;
    let fill = colour.map_or("#555555", Colour::hex);
    let _ = write!(
        out,
        "<polygon points=\"{x},{} {},{y} {x},{} {},{y}\" fill=\"{fill}\" stroke=\"#000000\" stroke-width=\"1.5\"/>",
        Px(at.y - d),
        Px(at.x + d),
        Px(at.y + d),
        Px(at.x - d),
        x = Px(at.x),
        y = Px(at.y),
    );
}

/// A piece: a disc in its side's colour; a double has a ring inside, a
/// piece known only to the viewer a dashed ring around.
fn draw_disc(out: &mut String, token: &Token, colour: Option<Colour>, at: Spot) {
    let fill = colour.map_or("#555555", Colour::hex);
    let ink = colour.map_or("#FFFFFF", Colour::ink);
    let (x, y) = (Px(at.x), Px(at.y));
    let _ = write!(
        out,
        "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"{fill}\" stroke=\"#000000\" stroke-width=\"1.5\"/>",
        Px(at.rad)
    );
    if token.form == Form::Double {
        let _ = write!(
            out,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"2\"/>",
            Px(at.rad * 0.78)
        );
    }
    if token.known == Known::Own {
        let _ = write!(
            out,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"{OWN_RING}\" stroke-width=\"3\" stroke-dasharray=\"4 3\"/>",
            Px(at.rad + 3.0)
        );
    }
}

/// The token's letter, as large as its disc allows; italic when only the
/// viewer knows it.
fn draw_letter(out: &mut String, token: &Token, colour: Option<Colour>, at: Spot) {
    let ink = if token.form == Form::Marker {
        "#FFFFFF"
    } else {
        colour.map_or("#FFFFFF", Colour::ink)
    };
    let scale = match token.text.chars().count() {
        0 | 1 => 1.15,
        2 => 0.9,
        _ => 0.65,
    };
    let size = (at.rad * scale).max(9.0);
    let italic = if token.known == Known::Own {
        " font-style=\"italic\""
    } else {
        ""
    };
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{}\" dy=\"0.35em\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\"{italic}>{}</text>",
        Px(at.x),
        Px(at.y),
        Px(size),
        escape(&token.text)
    );
}

/// One swatch and name per side.
fn draw_keys(out: &mut String, pic: &Picture, y: f32) {
    out.push_str("<g class=\"sides\">");
    let mut x = PAD;
    for key in &pic.sides {
        let _ = write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"8\" fill=\"{}\" stroke=\"#000000\" stroke-width=\"1.5\"/>\
             <text x=\"{}\" y=\"{}\" dy=\"0.35em\" font-size=\"14\" fill=\"#000000\">{}</text>",
            Px(x + 8.0),
            Px(y + 9.0),
            key.colour.hex(),
            Px(x + 22.0),
            Px(y + 9.0),
            escape(key.name)
        );
        x += 34.0 + key.name.chars().count() as f32 * 9.0;
    }
    out.push_str("</g>\n");
}

fn draw_lines(out: &mut String, class: &str, lines: &[String], y: f32, fill: &str) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<g class=\"{class}\" font-family=\"{MONO}\" font-size=\"14\" fill=\"{fill}\">"
    );
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" xml:space=\"preserve\">{}</text>",
            Px(PAD),
            Px(y + LINE_H * (i as f32 + 0.75)),
            escape(line)
        );
    }
    out.push_str("</g>\n");
}
