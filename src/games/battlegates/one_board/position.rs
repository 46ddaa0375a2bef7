//! The position notation: `<characters> <maze> <to-move> <cards>
//! <points> <result>`, e.g. the position before the set-up:
//! `b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 - - -/-/- 0/0 *`.
//!
//! - characters: South's five then North's five, `/` between, each in
//!   army order (Crusader, Archer, Gatekeeper, Archer, Crusader: the
//!   order of the portals west to east) as a square, `KS` or `KN` (in
//!   South's or North's Keep), or `x` (killed);
//! - maze: every wall and gate in canonical text, sorted, separated by
//!   `,` (`-` for none);
//! - to-move: `South` or `North`, `-` before the opening roll;
//! - cards: South's hand, North's hand and the discard pile, each as
//!   card letters in card order (`s` scale, `c` climb, `w` move-wall,
//!   `g` move-gate, `r` rotate90, `t` rotate180; `-` for none),
//!   separated by `/`; the deck is the rest of the 34;
//! - points: South's and North's, `/` between;
//! - result: `*`, or the winner and how (`South:no-characters`,
//!   `South:resignation`, `South:bad-maze`: North's maze broke the
//!   set-up rules), or `draw:no-characters` or `draw:bad-maze`.
//!
//! A set-up other than one board is named in front, as its `Setup` tag
//! value (`misery-run b1,d1,...`), and each side then lists every
//! character of its armies (ten in Misery Run); one board's positions
//! have no such word.

use crate::game::{position_fields, Outcome, PositionField, PositionParseError, Side};

use crate::games::battlegates::geometry::board::{opponent, read_sq, side_name, Loc, NORTH, SOUTH};
use crate::games::battlegates::geometry::layouts::{unknown_setup, Layout};
use crate::games::battlegates::mazes::maze::{read_piece, Piece, MAX_GATES, MAX_WALLS};
use crate::games::battlegates::one_board::state::{End, Id, State, MAX_SIDES};
use crate::games::battlegates::one_board::variant::Rules;
use crate::games::battlegates::pieces::cards::{Card, Pile};

const FIELDS: [&str; 6] = ["characters", "maze", "to-move", "cards", "points", "result"];

fn loc_text(loc: Option<Loc>) -> String {
    match loc {
        None => "x".into(),
        Some(Loc::Sq(sq)) => sq.to_string(),
        Some(Loc::Keep(k)) => keep_text(k),
    }
}

/// `KS`, `KN`, or `K1` to `K4` for the castles of Battle Alley.
fn keep_text(k: Side) -> String {
    let name = side_name(k);
    match name.strip_prefix("Castle") {
        Some(n) => format!("K{n}"),
        None => format!("K{}", &name[..1]),
    }
}

fn pile_text(p: &Pile) -> String {
    let s: String = p.list().iter().map(|c| c.letter()).collect();
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

/// Append the position notation of `state`.
pub fn write(state: &State, out: &mut String) {
    if state.layout != Layout::OneBoard {
        out.push_str(state.layout.tag());
        out.push(' ');
    }
    if state.cards.decks() != state.layout.decks(None) {
        out.push_str(ONE_DECK);
        out.push(' ');
    }
    let sides: Vec<String> = state
        .board
        .geo()
        .side_list()
        .into_iter()
        .map(|s| {
            state
                .board
                .ids(s)
                .map(|id| loc_text(state.board.loc(id)))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    out.push_str(&sides.join("/"));
    out.push(' ');
    let pieces: Vec<String> = state.board.pieces().iter().map(Piece::to_string).collect();
    out.push_str(&if pieces.is_empty() {
        "-".into()
    } else {
        pieces.join(",")
    });
    out.push(' ');
    out.push_str(if state.started {
        side_name(state.to_move)
    } else {
        "-"
    });
    out.push(' ');
    let c = &state.cards;
    let mut piles: Vec<String> = holders(state)
        .into_iter()
        .map(|h| pile_text(c.hand(h)))
        .collect();
    piles.push(pile_text(&c.discard));
    out.push_str(&piles.join("/"));
    let points: Vec<String> = state
        .board
        .geo()
        .side_list()
        .into_iter()
        .map(|s| state.points[usize::from(s) % MAX_SIDES].to_string())
        .collect();
    out.push_str(&format!(" {} ", points.join("/")));
    out.push_str(&result_text(state));
}

/// The sides holding a hand, in turn order (a four-castle team's hand
/// is held by its first castle).
fn holders(state: &State) -> Vec<Side> {
    let mut out: Vec<Side> = Vec::new();
    for s in state.board.geo().side_list() {
        let h = state.cards.holder(s);
        if !out.contains(&h) {
            out.push(h);
        }
    }
    out
}

/// The word after the set-up's when a four-player game plays with one
/// deck (its `Decks "1"` tag).
const ONE_DECK: &str = "one-deck";

/// The winners' names: a side, or a team joined by `+`.
pub(in crate::games::battlegates) fn winners_text(outcome: Outcome) -> Option<String> {
    match outcome {
        Outcome::Won(w) => Some(side_name(w).to_string()),
        Outcome::TeamWon(t) => Some(t.sides().map(side_name).collect::<Vec<_>>().join("+")),
        _ => None,
    }
}

fn result_text(state: &State) -> String {
    if let (Some(w), true) = (winners_text(state.outcome), state.layout.four_castles()) {
        let how = match state.end {
            End::Resigned(_) => "resignation",
            End::BadMaze(_) => "bad-maze",
            _ => "no-characters",
        };
        return format!("{w}:{how}");
    }
    match (state.outcome, state.end) {
        (Outcome::Won(w), End::Resigned(_)) => format!("{}:resignation", side_name(w)),
        (Outcome::Won(w), End::BadMaze(_)) => format!("{}:bad-maze", side_name(w)),
        (Outcome::Draw, End::BadMazes) => "draw:bad-maze".into(),
        (Outcome::Won(w), _) => format!("{}:no-characters", side_name(w)),
        (Outcome::Draw, _) => "draw:no-characters".into(),
        _ => "*".into(),
    }
}

/// The set-up named in front of a position, if any, and the text with
/// that word blanked out (so that every offset stays the original's).
fn layout_of(text: &str) -> (Option<Layout>, bool, String) {
    let body = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let word = body.split(|c: char| c.is_whitespace()).next().unwrap_or("");
    match Layout::ALL.into_iter().find(|l| l.tag() == word) {
        Some(layout) => {
            let at = text.len() - body.len();
            let mut end = at + word.len();
            let after = &text[end..];
            let next = after.trim_start_matches(' ');
            if next.starts_with(ONE_DECK)
                && next[ONE_DECK.len()..].starts_with(|c: char| c.is_whitespace())
            {
                end += after.len() - next.len() + ONE_DECK.len();
            }
            let one_deck = end > at + word.len();
            let blank = " ".repeat(end - at);
            let rest = format!("{}{blank}{}", &text[..at], &text[end..]);
            (Some(layout), one_deck, rest)
        }
        None => (None, false, text.to_string()),
    }
}

/// Read a position written by [`write`], of any set-up, played by the
/// set-up `rules` picks for its layout. A first word
/// that is no characters field (it has no `,` or `/`) and names no
/// set-up is refused as the `Setup` tag's would be.
pub fn parse_with(text: &str, rules: Rules) -> Result<State, PositionParseError> {
    let body = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let word = body.split(|c: char| c.is_whitespace()).next().unwrap_or("");
    let fields = body.split_whitespace().count();
    if fields > 1 && !word.contains([',', '/']) && layout_of(text).0.is_none() {
        let at = text.len() - body.len();
        return Err(PositionParseError::within(
            text,
            at,
            word.len(),
            unknown_setup(word),
        ));
    }
    let (layout, one_deck, blanked) = layout_of(text);
    let text = blanked.as_str();
    let [chars, maze, side, cards, points, result] = position_fields(text, FIELDS)?;
    let layout = layout.unwrap_or(Layout::OneBoard);
    let mut state = State::with_rules(layout, rules(layout));
    if one_deck && layout.players() > 2 {
        state.set_decks(1);
    }
    let sides = state.board.geo().side_list();
    read_chars(&chars, &mut state)?;
    read_maze(&maze, &mut state)?;
    let names: Vec<&str> = sides.iter().map(|&s| side_name(s)).collect();
    match side.value {
        "-" => state.started = false,
        v => match sides.iter().find(|&&s| side_name(s) == v) {
            Some(&s) => {
                state.started = true;
                state.to_move = s;
            }
            None => {
                return Err(side.whole(format!(
                    "the side to move is {} (- before the opening roll)",
                    names.join(" or ")
                )))
            }
        },
    }
    read_cards(&cards, &mut state)?;
    let numbers: Vec<u16> = points
        .value
        .split('/')
        .map_while(|n| {
            n.bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| n.parse().ok())
                .flatten()
        })
        .collect();
    if numbers.len() != sides.len() || points.value.split('/').count() != sides.len() {
        let zeros = vec!["0"; sides.len()].join("/");
        return Err(points.whole(match names.as_slice() {
            [a, b] => format!("the points are {a}'s and {b}'s: {zeros}"),
            _ => format!(
                "the points are {}'s, each in turn order: {zeros}",
                names.join("'s, ")
            ),
        }));
    }
    for (&s, n) in sides.iter().zip(numbers) {
        state.points[usize::from(s) % MAX_SIDES] = n;
    }
    let rules = state.rules;
    rules.read_result(&result, &mut state)?;
    Ok(state)
}

fn read_chars(field: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    let g = state.board.geo();
    let halves: Vec<&str> = field.value.split('/').collect();
    let sides = g.side_list();
    if halves.len() != sides.len() {
        return Err(field.whole(if sides.len() == 2 {
            "the characters are South's five and North's five, separated by `/`".to_string()
        } else {
            "the characters are each castle's five, Castle1's to Castle4's, separated by `/`"
                .to_string()
        }));
    }
    state.board = state.board.without_characters();
    let mut at = field.start;
    for (&side, half) in sides.iter().zip(&halves) {
        let items: Vec<&str> = half.split(',').collect();
        let count = state.board.ids(side).count();
        if items.len() != count {
            let what = if count == 5 {
                "five characters (Crusader, Archer, Gatekeeper, Archer, Crusader)".to_string()
            } else {
                format!(
                    "{count} characters (its armies, each Crusader, Archer, Gatekeeper, \
                     Archer, Crusader)"
                )
            };
            return Err(PositionParseError::within(
                field.text,
                at,
                half.len(),
                format!("{} has {what}, separated by `,`", side_name(side)),
            ));
        }
        let ids: Vec<Id> = state.board.ids(side).collect();
        for (&id, item) in ids.iter().zip(&items) {
            let err = |why: String| PositionParseError::within(field.text, at, item.len(), why);
            let keep = g
                .castles
                .iter()
                .map(|c| c.side)
                .find(|&k| keep_text(k) == *item);
            let loc = match *item {
                "x" => None,
                _ if keep.is_some() => keep.map(Loc::Keep),
                t => match read_sq(g, t) {
                    Some((sq, n)) if n == t.len() && t.bytes().all(|c| !c.is_ascii_uppercase()) => {
                        Some(Loc::Sq(sq))
                    }
                    _ => {
                        return Err(err(format!(
                            "a character stands on a square (a1 to {}), {} (a Keep), or is x \
                             (killed)",
                            g.last_sq(),
                            keeps_text(g)
                        )))
                    }
                },
            };
            if let Some(l) = loc {
                if let Some(other) = state.board.at(l) {
                    return Err(err(format!("{} stands there already", other.name())));
                }
            }
            state.board.set(id, loc);
            at += item.len() + 1;
        }
    }
    Ok(())
}

fn read_maze(field: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    state.board.maze = Default::default();
    if field.value == "-" {
        return Ok(());
    }
    let mut at = field.start;
    let mut seen: Vec<Piece> = Vec::new();
    let (mut walls, mut gates) = (0, 0);
    for item in field.value.split(',') {
        let err = |why: String| PositionParseError::within(field.text, at, item.len(), why);
        let g = state.board.geo();
        let piece = match read_piece(g, item) {
            Ok((p, n)) if n == item.len() && p.to_string() == item => p,
            Ok((p, _)) => return Err(err(format!("write {p} (canonical, without more)"))),
            Err(e) => return Err(err(e)),
        };
        if let Some(e) = piece.edge_list().iter().find(|&&e| !g.has_edge(e)) {
            return Err(err(format!("{e} is not on the board")));
        }
        if let Some(prev) = seen
            .iter()
            .find(|p| p.edge_list().iter().any(|e| piece.edge_list().contains(e)))
        {
            return Err(err(format!("{piece} and {prev} lie on one edge")));
        }
        if seen
            .last()
            .is_some_and(|p| p.to_string() >= piece.to_string())
        {
            return Err(err("the maze's pieces are listed sorted, each once".into()));
        }
        match piece {
            Piece::Wall(_) => walls += 1,
            Piece::Gate(_) => gates += 1,
        }
        if walls > MAX_WALLS || gates > MAX_GATES {
            return Err(err("too many maze pieces for one board".into()));
        }
        state.board.maze.add(piece);
        seen.push(piece);
        at += item.len() + 1;
    }
    Ok(())
}

/// `KS or KN`, `K1, K2, K3 or K4`: the Keeps of board `g`.
fn keeps_text(g: &crate::games::battlegates::geometry::board::Geometry) -> String {
    let keeps: Vec<String> = g.castles.iter().map(|c| keep_text(c.side)).collect();
    match keeps.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => keeps.join(""),
    }
}

/// The cards field holds more of `card` than the deck has.
fn too_many(field: &PositionField<'_>, card: Card, all: &Pile) -> PositionParseError {
    field.whole(format!(
        "there are {} {card} cards in the deck of {}, and this has more",
        all.count(card),
        all.total()
    ))
}

fn read_cards(field: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    let parts: Vec<&str> = field.value.split('/').collect();
    let holders = holders(state);
    if parts.len() != holders.len() + 1 {
        let hands: Vec<String> = holders
            .iter()
            .map(|&h| format!("{}'s hand", side_name(h)))
            .collect();
        return Err(field.whole(format!(
            "the cards are {} and the discard pile, separated by `/`",
            hands.join(", ")
        )));
    }
    let all = state.cards.all();
    let mut piles = vec![Pile::default(); parts.len()];
    let mut at = field.start;
    for (pile, part) in piles.iter_mut().zip(&parts) {
        let err = || {
            PositionParseError::within(
                field.text,
                at,
                part.len(),
                "cards are letters s c w g r t in that order (scale, climb, move-wall, \
                 move-gate, rotate90, rotate180), or - for none",
            )
        };
        if *part != "-" {
            let mut last = None;
            for ch in part.chars() {
                let card = Card::from_letter(ch).ok_or_else(err)?;
                if last.is_some_and(|l| l > card) {
                    return Err(err());
                }
                last = Some(card);
                if pile.count(card) >= all.count(card) {
                    return Err(too_many(field, card, &all));
                }
                pile.add(card);
            }
        }
        at += part.len() + 1;
    }
    let mut deck = all;
    for card in Card::ALL {
        for p in &piles {
            for _ in 0..p.count(card) {
                if !deck.take(card) {
                    return Err(too_many(field, card, &all));
                }
            }
        }
    }
    for (&h, pile) in holders.iter().zip(&piles) {
        state.cards.hands[usize::from(h) % MAX_SIDES] = *pile;
    }
    state.cards.discard = piles[holders.len()];
    state.cards.deck = deck;
    Ok(())
}

pub(in crate::games::battlegates) fn read_result(
    field: &PositionField<'_>,
    state: &mut State,
) -> Result<(), PositionParseError> {
    let gone = |s: Side| !state.board.has_characters(s);
    let v = field.value;
    if v == "*" {
        if let Some(s) = [SOUTH, NORTH].into_iter().find(|&s| gone(s)) {
            return Err(field.whole(format!(
                "{} has no characters: the game is over",
                side_name(s)
            )));
        }
        return Ok(());
    }
    if v == "draw:bad-maze" {
        state.finish(None, End::BadMazes);
        return Ok(());
    }
    if v == "draw:no-characters" {
        if !(gone(SOUTH) && gone(NORTH)) {
            return Err(field.whole("a draw needs both sides without characters"));
        }
        state.finish(None, End::NoCharacters(SOUTH));
        return Ok(());
    }
    let bad = || {
        field.whole(
            "the result is `*`, a winner and how (South:no-characters, South:resignation, \
             South:bad-maze) or a draw (draw:no-characters, draw:bad-maze)",
        )
    };
    let (who, how) = v.split_once(':').ok_or_else(bad)?;
    let w = match who {
        "South" => SOUTH,
        "North" => NORTH,
        _ => return Err(bad()),
    };
    let l = opponent(w);
    match how {
        "no-characters" if gone(l) && !gone(w) => state.finish(Some(w), End::NoCharacters(l)),
        "no-characters" => {
            return Err(field.whole(format!(
                "{} has characters left, or {} has none",
                side_name(l),
                side_name(w)
            )))
        }
        "resignation" => state.finish(Some(w), End::Resigned(l)),
        "bad-maze" => state.finish(Some(w), End::BadMaze(l)),
        _ => return Err(bad()),
    }
    Ok(())
}
