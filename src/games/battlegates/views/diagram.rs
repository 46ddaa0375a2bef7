//! The text diagram, the summary and the turn comments.
//!
//! ```text
//!                  North's Keep: -
//!      a   b   c   d   e   f   g   h   i
//!    +---+---+---.   .---+---+---.   .---+---+---+
//! 12 |     c   *   a   g   a       *   c   |
//! ```
//! Squares are three characters wide with the edges between them:
//! `###`/`#` a Brick wall, `===`/`H` a gate (`o` its hinge post),
//! `---`/`|` the stone perimeter, a gap an open edge (and an open castle
//! entrance). South's characters in capitals (`C A G`), North's in small
//! letters; `*` an empty portal; `~` an empty square of the Misery Run.

use std::fmt::Write;

use crate::game::{DiagramStyle, Outcome, Side};

use crate::games::battlegates::geometry::board::{side_name, Dir, Edge, Loc, Post, Sq, SOUTH};
use crate::games::battlegates::geometry::layouts::Layout;
use crate::games::battlegates::mazes::maze::OnEdge;
use crate::games::battlegates::one_board::rules::hand_text;
use crate::games::battlegates::one_board::state::{End, State, MAX_SIDES};

/// The characters of the drawing, by style.
struct Ink {
    wall_h: &'static str,
    wall_v: char,
    gate_h: &'static str,
    gate_v: char,
    stone_h: &'static str,
    stone_v: char,
    post: char,
    corner: char,
    hinge: char,
    portal: char,
    run: char,
}

const ASCII: Ink = Ink {
    wall_h: "###",
    wall_v: '#',
    gate_h: "===",
    gate_v: 'H',
    stone_h: "---",
    stone_v: '|',
    post: '.',
    corner: '+',
    hinge: 'o',
    portal: '*',
    run: '~',
};

const UNICODE: Ink = Ink {
    wall_h: "━━━",
    wall_v: '┃',
    gate_h: "═══",
    gate_v: '║',
    stone_h: "───",
    stone_v: '│',
    post: '·',
    corner: '┼',
    hinge: '●',
    portal: '∗',
    run: '≈',
};

/// The first character of a drawn edge, for the legend.
fn first(text: &str) -> char {
    text.chars().next().unwrap_or(' ')
}

/// A character's letter: capital for South, small for North.
fn letter(state: &State, loc: Loc) -> Option<char> {
    let id = state.board.at(loc)?;
    let c = id.kind().letter();
    Some(if id.side() == SOUTH {
        c
    } else {
        c.to_ascii_lowercase()
    })
}

fn post_char(state: &State, p: Post, ink: &Ink) -> char {
    if state.board.maze.gates().any(|(_, g)| g.hinge == p) {
        ink.hinge
    } else if state.board.geo().post_on_perimeter(p) {
        ink.corner
    } else {
        ink.post
    }
}

fn edge_h(state: &State, e: Edge, ink: &Ink) -> &'static str {
    match state.board.on_edge(e) {
        Some(OnEdge::Stone) => ink.stone_h,
        Some(OnEdge::Wall) => ink.wall_h,
        Some(OnEdge::Gate(_)) => ink.gate_h,
        None => "   ",
    }
}

fn edge_v(state: &State, e: Edge, ink: &Ink) -> char {
    match state.board.on_edge(e) {
        Some(OnEdge::Stone) => ink.stone_v,
        Some(OnEdge::Wall) => ink.wall_v,
        Some(OnEdge::Gate(_)) => ink.gate_v,
        None => ' ',
    }
}

fn post_line(state: &State, y: u8, ink: &Ink, out: &mut String) {
    let cols = state.board.geo().cols;
    out.push_str("   ");
    for x in 0..=cols {
        out.push(post_char(state, Post { x, y }, ink));
        if x < cols {
            out.push_str(edge_h(state, Edge::h(x, y), ink));
        }
    }
    out.push('\n');
}

/// The line of the Keeps beyond the board's `end` (`Dir::N` or
/// `Dir::S`), each with the character in it; none when no castle is
/// there.
fn keep_line(state: &State, end: Dir, out: &mut String) {
    let g = state.board.geo();
    let texts: Vec<String> = g
        .castles
        .iter()
        .filter(|c| c.entrances[0].inward == end)
        .map(|c| {
            let who = letter(state, Loc::Keep(c.side)).unwrap_or('-');
            format!("{}'s Keep: {who}", g.side_name(c.side))
        })
        .collect();
    if texts.is_empty() {
        return;
    }
    let text = texts.join("   ");
    let width = 4 + 4 * usize::from(g.cols);
    let pad = width.saturating_sub(text.len()) / 2;
    let _ = writeln!(out, "{:pad$}{text}", "");
}

fn columns(state: &State, out: &mut String) {
    out.push_str("     ");
    for c in 0..state.board.geo().cols {
        out.push(char::from(b'a' + c));
        out.push_str("   ");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
}

/// Draw the position.
pub fn draw(state: &State, style: DiagramStyle) -> String {
    let ink = if style.unicode { &UNICODE } else { &ASCII };
    let g = state.board.geo();
    let mut out = String::new();
    if state.layout != Layout::OneBoard {
        let _ = writeln!(
            out,
            "Setup: {} ({} x {})",
            state.layout.tag(),
            g.cols,
            g.rows
        );
    }
    if !crate::games::battlegates::views::compact::full_fits(g.cols) {
        crate::games::battlegates::views::compact::draw(state, style, &mut out);
        out.push_str(&info(state));
        return out;
    }
    keep_line(state, Dir::N, &mut out);
    columns(state, &mut out);
    for row in (0..g.rows).rev() {
        post_line(state, row + 1, ink, &mut out);
        let _ = write!(out, "{:>2} ", row + 1);
        for col in 0..=g.cols {
            out.push(edge_v(state, Edge::v(col, row), ink));
            if col == g.cols {
                break;
            }
            let sq = Sq::new(col, row);
            let c = match letter(state, Loc::Sq(sq)) {
                Some(c) => c,
                None if g.is_portal(sq) => ink.portal,
                None if g.run == Some(row) => ink.run,
                None => ' ',
            };
            let _ = write!(out, " {c} ");
        }
        let _ = writeln!(out, " {}", row + 1);
    }
    post_line(state, 0, ink, &mut out);
    columns(state, &mut out);
    keep_line(state, Dir::S, &mut out);
    out.push_str(&info(state));
    out.push_str("C A G: South's Crusader, Archer, Gatekeeper; c a g: North's.\n");
    let _ = writeln!(
        out,
        "Walls {} {}, gates {} {} with {} the hinge post, stone {} {}, {} an empty portal.",
        first(ink.wall_h),
        ink.wall_v,
        first(ink.gate_h),
        ink.gate_v,
        ink.hinge,
        first(ink.stone_h),
        ink.stone_v,
        ink.portal
    );
    if let Some(run) = g.run {
        let _ = writeln!(
            out,
            "{} the Misery Run, row {}: a character there when a turn ends dies.",
            ink.run,
            run + 1
        );
    }
    out
}

/// The lines under the board: roll, hands, deck, points, legend.
fn info(state: &State) -> String {
    let mut out = String::new();
    if let Some(roll) = state.dice.roll {
        let _ = write!(out, "Roll: {roll}");
        if let Some(c) = state.drawn {
            let _ = write!(out, "  (drew {c})");
        }
        out.push('\n');
    }
    for (holder, sides) in hand_holders(state) {
        let _ = writeln!(out, "{sides}'s hand: {}", hand_text(state, holder));
    }
    let sides = state.board.geo().side_list();
    let points = match sides.as_slice() {
        [a, b] => format!(
            "{} {}, {} {}",
            side_name(*a),
            state.points[usize::from(*a) % MAX_SIDES],
            side_name(*b),
            state.points[usize::from(*b) % MAX_SIDES]
        ),
        _ => format!("{} (in turn order)", points_text(state)),
    };
    let _ = writeln!(
        out,
        "Deck: {} cards, discard pile: {}; points: {points}",
        state.cards.deck_count(),
        state.cards.discard.total(),
    );
    out
}

/// Each hand, by the side holding it, with the sides playing from it
/// (`South`, `Castle1+Castle3`).
fn hand_holders(state: &State) -> Vec<(Side, String)> {
    let sides = state.board.geo().side_list();
    let mut out: Vec<(Side, String)> = Vec::new();
    for &s in &sides {
        let h = state.cards.holder(s);
        if out.iter().any(|(o, _)| *o == h) {
            continue;
        }
        let names: Vec<&str> = sides
            .iter()
            .filter(|&&t| state.cards.holder(t) == h)
            .map(|&t| side_name(t))
            .collect();
        out.push((h, names.join("+")));
    }
    out
}

/// The points in turn order, `/` between.
fn points_text(state: &State) -> String {
    let points: Vec<String> = state
        .board
        .geo()
        .side_list()
        .into_iter()
        .map(|s| state.points[usize::from(s) % MAX_SIDES].to_string())
        .collect();
    points.join("/")
}

/// One line on the position.
pub fn summary(state: &State) -> String {
    if state.layout.four_castles() {
        if let Some(text) = castles_end(state) {
            return text;
        }
    }
    match (state.outcome, state.end) {
        (Outcome::Won(w), End::Resigned(l)) => {
            return format!("{} won: {} resigned", side_name(w), side_name(l))
        }
        (Outcome::Won(w), End::NoCharacters(l)) => {
            return format!(
                "{} won: {} has no characters left",
                side_name(w),
                side_name(l)
            )
        }
        (Outcome::Won(w), End::BadMaze(l)) => {
            return format!(
                "{} won: {}'s maze broke the set-up rules",
                side_name(w),
                side_name(l)
            )
        }
        (Outcome::Draw, End::BadMazes) => return "draw: both mazes broke the set-up rules".into(),
        (Outcome::Draw, _) => return "draw: neither side has characters left".into(),
        _ => {}
    }
    if !state.started && state.layout.four_castles() {
        return "set-up: Castle1 deals once every maze is open".into();
    }
    if !state.started {
        return "set-up: the opening roll and the deal follow once both mazes are open".into();
    }
    let side = state.to_move;
    let mut text = format!("{} to move", side_name(side));
    if let Some(roll) = state.dice.roll {
        let _ = write!(text, ": roll {roll}");
    }
    let hands: Vec<String> = hand_holders(state)
        .into_iter()
        .map(|(h, names)| format!("{names} {}", state.cards.held(h)))
        .collect();
    let _ = write!(
        text,
        "; hands {}; deck {}; points {}",
        hands.join(", "),
        state.cards.deck_count(),
        points_text(state)
    );
    text
}

/// How a four-castle game ended, if it did.
fn castles_end(state: &State) -> Option<String> {
    let who = crate::games::battlegates::one_board::position::winners_text(state.outcome);
    let loser = |l: Side| {
        let team = state.rules.team_of(state.layout, l);
        team.sides().map(side_name).collect::<Vec<_>>().join("+")
    };
    Some(match (who, state.end) {
        (Some(w), End::Resigned(l)) => format!("{w} won: {} resigned", side_name(l)),
        (Some(w), End::BadMaze(l)) => {
            format!("{w} won: {}'s maze broke the set-up rules", loser(l))
        }
        (Some(w), _) => format!("{w} won: nobody else has characters left"),
        (None, End::BadMazes) => "draw: every maze left broke the set-up rules".into(),
        (None, _) if state.outcome.is_over() => "draw: no castle has characters left".into(),
        _ => return None,
    })
}

/// A comment on a finished turn.
pub fn comment(before: &State, after: &State) -> String {
    if !before.started {
        return setup_comment(before, after);
    }
    let mut parts = Vec::new();
    if let Some(c) = before.drawn {
        parts.push(format!("drew {c}"));
    }
    if let Some(r) = before.dice.roll {
        parts.push(format!("rolled {r}"));
    }
    parts.extend(after.log.iter().cloned());
    if after.points != before.points {
        parts.push(format!("points {}", points_text(after)));
    }
    if parts.is_empty() {
        "nothing happened".into()
    } else {
        parts.join("; ")
    }
}

/// A comment on a set-up line: the maze opened, and once the set-up is
/// over the opening roll and the deal.
fn setup_comment(before: &State, after: &State) -> String {
    let opened =
        after.board.pieces().len() - before.board.pieces().len().min(after.board.pieces().len());
    let mut parts = Vec::new();
    if opened > 0 {
        parts.push(format!("{opened} maze pieces opened"));
    }
    if after.started && after.layout.four_castles() {
        parts.push(format!(
            "Castle1 moves first and deals {} cards to each hand",
            after.layout.hand_size()
        ));
    }
    if let (true, Some([s, n])) = (after.started, after.opening) {
        parts.push(format!(
            "opening roll South {s}, North {n}: {} moves first and deals three cards each",
            side_name(after.to_move)
        ));
    }
    if parts.is_empty() {
        "commitments to the maze".into()
    } else {
        parts.join("; ")
    }
}
