//! Pictures of a position: one small, game-agnostic drawing model that
//! every engine fills from its state ([`crate::game::Game::picture`]), and
//! the writers that draw it: [`svg`] (one board) and [`html`] (the replay
//! page, every position of a game with step controls).
//!
//! The model says *what* is drawn, never how: cells with their shape,
//! ground and place name, the tokens standing on them (a side, a letter,
//! whether the identity is public, hidden, or known only to the viewer),
//! marks on edges (Gates), labels on the margins and a caption (side to
//! move, roll, pending events). Lengths are in board units: one square or
//! one hex across is about 1; x grows to the right, y downwards.
//!
//! An engine's text diagram reads the same per-game data: where practical
//! the picture itself (its caption lines, its cells' tokens), so that the
//! two never say different things.

pub mod html;
pub mod svg;

/// A point in board units (x to the right, y downwards).
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Point {
    /// Across.
    pub x: f32,
    /// Down.
    pub y: f32,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f32, y: f32) -> Point {
        Point { x, y }
    }
}

/// The outline of a cell.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Shape {
    /// A square `size` across, its top left corner at `at`.
    Square {
        /// Top left corner.
        at: Point,
        /// Side length.
        size: f32,
    },
    /// A regular hexagon around `centre`, `radius` from centre to corner.
    Hex {
        /// Centre.
        centre: Point,
        /// From the centre to a corner.
        radius: f32,
        /// Which way it stands.
        orient: HexOrient,
    },
    /// A rectangle with rounded corners (a place off the board, such as a
    /// home Keep), its top left corner at `at`.
    Place {
        /// Top left corner.
        at: Point,
        /// Width.
        width: f32,
        /// Height.
        height: f32,
    },
}

/// How a hexagon stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HexOrient {
    /// A corner at the top: hexes in rows (Battle of the Dale).
    PointyTop,
    /// An edge at the top: hexes in columns (Breach The Keep).
    FlatTop,
}

impl Shape {
    /// The centre of the shape, where its tokens gather.
    pub fn centre(&self) -> Point {
        match *self {
            Shape::Square { at, size } => Point::new(at.x + size / 2.0, at.y + size / 2.0),
            Shape::Hex { centre, .. } => centre,
            Shape::Place { at, width, height } => {
                Point::new(at.x + width / 2.0, at.y + height / 2.0)
            }
        }
    }

    /// About how wide the shape's inside is, for sizing its tokens.
    pub fn span(&self) -> f32 {
        match *self {
            Shape::Square { size, .. } => size,
            Shape::Hex { radius, .. } => radius * 1.6,
            Shape::Place { width, height, .. } => width.min(height),
        }
    }
}

/// What a cell is, as its fill shows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ground {
    /// An ordinary square or hex.
    Plain,
    /// A second kind of ordinary ground (Castle Danger's sand: no Walls).
    Sand,
    /// Ground nothing stands on (Castle Danger's river).
    Water,
    /// A place the rules name (a Portal, a Keep, a named space).
    Special,
    /// A place off the board (a home Keep, a base).
    Home,
}

/// What the viewer knows of a token's identity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Known {
    /// Everyone sees it (or the game hides nothing).
    Public,
    /// Nobody but its owner knows it: drawn as `?`.
    Hidden,
    /// Known only to the viewer (its own hidden piece, with `--key`).
    Own,
}

/// How a token is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Form {
    /// A piece: a disc in its side's colour with its letter.
    Piece,
    /// Two pieces stacked as one (a double): a disc with a ring.
    Double,
    /// Something that belongs to nobody and fills the cell (a Wall).
    Block,
    /// A marker left on the ground (Fire), in its side's colour.
    Marker,
}

impl Form {
    /// Whether the token counts as a piece (pieces and doubles do; Walls
    /// and markers do not).
    pub fn is_piece(self) -> bool {
        matches!(self, Form::Piece | Form::Double)
    }
}

/// Something standing on a cell.
#[derive(Clone, PartialEq, Debug)]
pub struct Token {
    /// Its side, an index into [`Picture::sides`]; `None` for nobody's.
    pub side: Option<usize>,
    /// Its letter or short code (`K`, `R`, `?`, `R`), never longer than
    /// three characters.
    pub text: String,
    /// How it is drawn.
    pub form: Form,
    /// What the viewer knows of its identity.
    pub known: Known,
    /// A small mark beside it (`!` for a Cannon that has fired).
    pub badge: Option<&'static str>,
    /// What it is in words, for a tooltip (`Blue King`).
    pub title: String,
}

impl Token {
    /// A public piece of side `side` with this letter and description.
    pub fn piece(side: usize, text: impl Into<String>, title: impl Into<String>) -> Token {
        Token {
            side: Some(side),
            text: text.into(),
            form: Form::Piece,
            known: Known::Public,
            badge: None,
            title: title.into(),
        }
    }
}

/// One cell of the board: a square, a hex, or a place off the board.
#[derive(Clone, PartialEq, Debug)]
pub struct Cell {
    /// Its name in the game's notation (`c3`, `C3`), or what the place is.
    pub name: String,
    /// Its outline.
    pub shape: Shape,
    /// Its ground.
    pub ground: Ground,
    /// What stands on it, in the order the text diagram writes them.
    pub tokens: Vec<Token>,
    /// Between two tokens: `=` a stalemate, `>` an attack waiting to be
    /// decided (the first token attacks the second).
    pub link: Option<&'static str>,
    /// A short name written inside the cell (`Chip`, a Keep's value).
    pub tag: Option<String>,
    /// Whether the last line changed what stands on it (outlined).
    pub changed: bool,
}

impl Cell {
    /// An empty cell.
    pub fn new(name: impl Into<String>, shape: Shape, ground: Ground) -> Cell {
        Cell {
            name: name.into(),
            shape,
            ground,
            tokens: Vec::new(),
            link: None,
            tag: None,
            changed: false,
        }
    }
}

/// The state of a passage on an edge between two cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Passage {
    /// Open to every side.
    Open,
    /// Closed to this side (an index into [`Picture::sides`]).
    ClosedTo(usize),
    /// Closed to every side.
    Closed,
    /// A wall: nothing ever passes (drawn solid, without a mark).
    Wall,
}

/// A mark on the edge between two cells (a gate or a wall).
#[derive(Clone, PartialEq, Debug)]
pub struct Edge {
    /// One end of the edge.
    pub from: Point,
    /// The other end.
    pub to: Point,
    /// Whether it lets pieces through.
    pub passage: Passage,
    /// Its name (`c5|c6`).
    pub name: String,
    /// What it is, in words, for its tooltip (`the Gate Gd4nw, hinged
    /// at c4ne`).
    pub title: String,
    /// The post it swings about, drawn as a ring, for a gate that turns.
    pub hinge: Option<Point>,
    /// Whether the last line put it there (drawn with an outline).
    pub changed: bool,
}

/// Where a label's text stands against its point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Anchor {
    /// The text starts at the point.
    Start,
    /// The text is centred on the point.
    Middle,
    /// The text ends at the point.
    End,
}

/// A text on or around the board: a coordinate on the margin, a place's
/// name.
#[derive(Clone, PartialEq, Debug)]
pub struct Label {
    /// Where its baseline's anchor stands.
    pub at: Point,
    /// The text.
    pub text: String,
    /// How it stands against `at`.
    pub anchor: Anchor,
    /// Smaller than a coordinate (a note beside the board).
    pub small: bool,
}

impl Label {
    /// A coordinate on the margin, centred on `at`.
    pub fn coordinate(at: Point, text: impl Into<String>) -> Label {
        Label {
            at,
            text: text.into(),
            anchor: Anchor::Middle,
            small: false,
        }
    }

    /// A small note starting at `at`.
    pub fn note(at: Point, text: impl Into<String>, anchor: Anchor) -> Label {
        Label {
            at,
            text: text.into(),
            anchor,
            small: true,
        }
    }
}

/// A colour of the palette (Okabe and Ito's, safe for colour-blind
/// readers), one for each side in a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Colour {
    /// `#0072B2`.
    Blue,
    /// `#D55E00`.
    Vermillion,
    /// `#009E73`.
    BluishGreen,
    /// `#E69F00`.
    Orange,
    /// `#CC79A7`.
    ReddishPurple,
    /// `#F0F0F0` with a dark letter (White's pieces).
    White,
    /// `#222222` (Black's pieces).
    Black,
}

impl Colour {
    /// The fill, as `#rrggbb`.
    pub fn hex(self) -> &'static str {
        match self {
            Colour::Blue => "#0072B2",
            Colour::Vermillion => "#D55E00",
            Colour::BluishGreen => "#009E73",
            Colour::Orange => "#E69F00",
            Colour::ReddishPurple => "#CC79A7",
            Colour::White => "#F4F4F4",
            Colour::Black => "#222222",
        }
    }

    /// The colour of a letter written on this fill.
    pub fn ink(self) -> &'static str {
        match self {
            Colour::White | Colour::Orange => "#000000",
            _ => "#FFFFFF",
        }
    }
}

/// A side as the picture colours it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SideKey {
    /// The side's name (`Blue`, `Elf`).
    pub name: &'static str,
    /// Its colour.
    pub colour: Colour,
}

/// The picture of one position.
#[derive(Clone, PartialEq, Debug)]
pub struct Picture {
    /// The game's title.
    pub title: &'static str,
    /// Width of the drawing, margins included, in board units.
    pub width: f32,
    /// Height of the drawing, margins included, in board units.
    pub height: f32,
    /// The sides, in the game's order; tokens name them by index.
    pub sides: Vec<SideKey>,
    /// The cells, in the order the game keeps them.
    pub cells: Vec<Cell>,
    /// Marks on edges between cells.
    pub edges: Vec<Edge>,
    /// Coordinates on the margins and other texts on the drawing.
    pub labels: Vec<Label>,
    /// Lines under the board: the side to move or the result, the roll,
    /// pending events, counts the game keeps.
    pub caption: Vec<String>,
    /// What the marks mean, a line each.
    pub legend: Vec<String>,
}

impl Picture {
    /// Coordinates around a grid of `cols` x `rows` unit squares whose
    /// top-left corner is at (`left`, `top`): column letters from `a`
    /// above and below, row numbers from 1 (at the bottom) on both sides,
    /// each centred in a margin `margin` wide.
    pub fn grid_coordinates(&mut self, cols: u8, rows: u8, (left, top): (f32, f32), margin: f32) {
        let bottom = top + f32::from(rows);
        for col in 0..cols {
            let x = left + f32::from(col) + 0.5;
            let text = char::from(b'a' + col).to_string();
            self.labels.push(Label::coordinate(
                Point::new(x, top - margin / 2.0),
                text.clone(),
            ));
            self.labels.push(Label::coordinate(
                Point::new(x, bottom + margin / 2.0),
                text,
            ));
        }
        let right = left + f32::from(cols);
        for row in 0..rows {
            let y = top + f32::from(rows - 1 - row) + 0.5;
            let text = (row + 1).to_string();
            self.labels.push(Label::coordinate(
                Point::new(left - margin / 2.0, y),
                text.clone(),
            ));
            self.labels
                .push(Label::coordinate(Point::new(right + margin / 2.0, y), text));
        }
    }

    /// Mark what differs from `before`, the picture of the position the
    /// last line started from: every cell whose tokens (or tag, or link)
    /// changed, where a piece left, arrived, was taken or turned; every
    /// edge that is new (a gate turned or moved, a wall placed). Adds a
    /// line to the legend when anything is marked. Pictures of other
    /// boards (another set-up) are left as they are.
    pub fn mark_changes(&mut self, before: &Picture) {
        if self.cells.len() != before.cells.len() {
            return;
        }
        let mut any = false;
        for (now, was) in self.cells.iter_mut().zip(&before.cells) {
            if now.name == was.name
                && (now.tokens != was.tokens || now.tag != was.tag || now.link != was.link)
            {
                now.changed = true;
                any = true;
            }
        }
        for edge in &mut self.edges {
            let same = |e: &&Edge| {
                e.from == edge.from
                    && e.to == edge.to
                    && e.passage == edge.passage
                    && e.title == edge.title
            };
            if !before.edges.iter().any(|e| same(&e)) {
                edge.changed = true;
                any = true;
            }
        }
        if any {
            self.legend
                .push("outlined in orange: what the last line changed".into());
        }
    }

    /// The names of what [`Picture::mark_changes`] marked: the changed
    /// cells in the picture's order, then each changed edge by what it is
    /// (its tooltip up to a comma or colon: `the Gate Gd4nw`), once.
    pub fn changed_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .cells
            .iter()
            .filter(|c| c.changed)
            .map(|c| c.name.clone())
            .collect();
        for edge in self.edges.iter().filter(|e| e.changed) {
            let what = edge
                .title
                .split([',', ':'])
                .next()
                .unwrap_or(&edge.title)
                .to_string();
            if !names.contains(&what) {
                names.push(what);
            }
        }
        names
    }

    /// An empty picture of `width` by `height` board units.
    pub fn new(title: &'static str, width: f32, height: f32, sides: Vec<SideKey>) -> Picture {
        Picture {
            title,
            width,
            height,
            sides,
            cells: Vec::new(),
            edges: Vec::new(),
            labels: Vec::new(),
            caption: Vec::new(),
            legend: Vec::new(),
        }
    }

    /// How many pieces stand on the board (doubles count once: one token).
    pub fn piece_count(&self) -> usize {
        self.cells
            .iter()
            .flat_map(|c| &c.tokens)
            .filter(|t| t.form.is_piece())
            .count()
    }
}

/// `text` with `&`, `<`, `>`, `"` and `'` written as XML entities.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Picture {
        let mut pic = Picture::new(
            "Tiny",
            2.0,
            1.0,
            vec![SideKey {
                name: "Blue & Co",
                colour: Colour::Blue,
            }],
        );
        let square = |x: f32| Shape::Square {
            at: Point::new(x, 0.0),
            size: 1.0,
        };
        let mut a = Cell::new("a1", square(0.0), Ground::Plain);
        a.tokens.push(Token {
            known: Known::Hidden,
            ..Token::piece(0, "?", "a <hidden> piece")
        });
        let mut b = Cell::new("b1", square(1.0), Ground::Special);
        b.tokens.push(Token {
            known: Known::Own,
            ..Token::piece(0, "R", "yours")
        });
        b.tokens.push(Token {
            side: None,
            form: Form::Block,
            ..Token::piece(0, "#", "Wall")
        });
        b.link = Some("=");
        pic.cells = vec![a, b];
        pic.caption = vec!["Blue & Co to move: \"rolled\" 3".into()];
        pic
    }

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(escape("a<b>&\"c'\u{7}"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }

    #[test]
    fn pieces_are_counted_without_walls_and_markers() {
        assert_eq!(tiny().piece_count(), 2);
    }

    #[test]
    fn a_picture_is_well_formed_svg_with_its_pieces_marked() {
        let svg = svg::document(&tiny(), "Tiny & small, after turn 1");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let groups: Vec<_> = doc
            .descendants()
            .filter_map(|n| n.attribute("class"))
            .filter(|c| c.starts_with("piece"))
            .collect();
        assert_eq!(groups, ["piece hidden", "piece own"]);
        assert!(doc
            .descendants()
            .any(|n| n.attribute("class") == Some("block")));
        assert!(svg.contains("Blue &amp; Co"));
    }

    #[test]
    fn the_page_holds_one_frame_per_position_and_escapes_its_text() {
        let frame = |turn: u32, line: &str| html::Frame {
            turn,
            label: format!("{turn}. Blue"),
            line: line.into(),
            comment: "Red's <King> hit".into(),
            svg: svg::document(&tiny(), "t"),
        };
        let page = html::page("T", "view", &[frame(0, ""), frame(1, "a1-b1")]);
        assert_eq!(page.matches("<section class=\"frame\"").count(), 2);
        assert_eq!(page.matches(" hidden>").count(), 1);
        assert!(page.contains("Red&#39;s &lt;King&gt; hit"));
        assert!(!page.contains("<script src"));
    }
}
