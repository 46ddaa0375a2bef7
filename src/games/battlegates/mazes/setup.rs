//! The hidden maze set-up: each side's ten pieces in the slots
//! `w1`-`w4` (Brick walls), `g1`-`g3` (Gates) and `l1`-`l3` (Long
//! gates), how `herald setup --maze` text is read into them, and the
//! set-up rules a complete maze must obey.

use crate::game::Side;

use crate::games::battlegates::geometry::board::{Dir, Edge, Geometry};
use crate::games::battlegates::geometry::layouts::Layout;
use crate::games::battlegates::mazes::maze::{parse_piece, read_piece, Gate, Maze, Piece};

/// Every side's slots on one board, in order.
pub use crate::games::battlegates::geometry::layouts::ONE_BOARD_SLOTS as SLOTS;

/// The most slots a side has (Misery Run's twenty).
pub const MAX_SLOTS: usize = crate::games::battlegates::geometry::layouts::MISERY_RUN_SLOTS.len();

/// A side's slots in `layout`, in order ([`Layout::slots`]).
pub fn slots(layout: Layout) -> &'static [&'static str] {
    layout.slots()
}

/// The kind letter a slot holds: `W`, `G` or `L`.
pub fn slot_letter(slot: &str) -> Option<char> {
    match slot.as_bytes().first()? {
        b'w' => Some('W'),
        b'g' => Some('G'),
        b'l' => Some('L'),
        _ => None,
    }
}

/// The name of the kind of a letter.
fn kind_name(letter: char) -> &'static str {
    match letter {
        'W' => "Brick wall",
        'G' => "Gate",
        _ => "Long gate",
    }
}

/// Check that `value` is a piece of board `g` of the kind `slot` holds,
/// in canonical form.
pub fn check_value(g: &Geometry, slot: &str, value: &str) -> Result<Piece, String> {
    let piece = parse_piece(g, value)?;
    let want = slot_letter(slot).ok_or_else(|| format!("{slot} is no maze slot"))?;
    if piece.letter() != want {
        return Err(format!(
            "{slot} holds a {}, and {value} is a {}",
            kind_name(want),
            kind_name(piece.letter())
        ));
    }
    if piece.to_string() != value {
        return Err(format!("write {value} as {piece} (the canonical form)"));
    }
    Ok(piece)
}

/// Read `herald setup --maze` text: a piece for each of `slots` (ten on
/// one board), separated by spaces, commas or line breaks (`#` to the
/// end of a line is a comment), each kind's slots filled in canonical
/// order; squares of board `g`.
pub fn read_maze(
    g: &Geometry,
    slots: &'static [&'static str],
    text: &str,
) -> Result<Vec<(&'static str, String)>, String> {
    let mut pieces = Vec::new();
    for line in text.lines() {
        let body = line.split('#').next().unwrap_or("");
        for word in body.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let (piece, n) = read_piece(g, word).map_err(|e| format!("`{word}`: {e}"))?;
            if n != word.len() {
                return Err(format!(
                    "`{word}` is not a maze piece: {}",
                    crate::games::battlegates::mazes::maze::PIECE_FORM
                ));
            }
            pieces.push(piece);
        }
    }
    let of_kind = |letter: char| -> Vec<&'static str> {
        slots
            .iter()
            .copied()
            .filter(|s| slot_letter(s) == Some(letter))
            .collect()
    };
    let mut out = Vec::new();
    for letter in ['W', 'G', 'L'] {
        let kind_slots = of_kind(letter);
        let mut of: Vec<String> = pieces
            .iter()
            .filter(|p| p.letter() == letter)
            .map(Piece::to_string)
            .collect();
        if of.len() != kind_slots.len() {
            return Err(format!(
                "a maze is {} Brick walls (W), {} Gates (G) and {} Long gates (L): this has {} \
                 {}{}",
                of_kind('W').len(),
                of_kind('G').len(),
                of_kind('L').len(),
                of.len(),
                kind_name(letter),
                if of.len() == 1 { "" } else { "s" }
            ));
        }
        of.sort();
        out.extend(kind_slots.into_iter().zip(of));
    }
    Ok(out)
}

/// Check one piece of `side`'s maze on board `g`: its edges (no
/// entrance closed, the perimeter only for a Gate across its own
/// entrance, nothing across the Alley) and its posts (in its region, off
/// the forbidden lines).
fn check_piece(g: &Geometry, side: Side, p: Piece) -> Result<(), String> {
    let named = p.named();
    for e in p.edge_list() {
        if g.across_alley(e) {
            return Err(format!(
                "{named} lies across the Alley on {e}: no piece may lie across it in the set-up"
            ));
        }
        if let Some((castle, _)) = g.entrance_at(e) {
            match p {
                Piece::Wall(_) => {
                    return Err(format!(
                        "{named}: a Brick wall may never close a castle entrance"
                    ))
                }
                Piece::Gate(gate) if gate.long => {
                    return Err(format!(
                        "{named}: a Long gate may never close a castle entrance"
                    ))
                }
                Piece::Gate(_) if castle != side => {
                    return Err(format!(
                        "{named}: a Gate may stand across its own side's castle entrance only"
                    ))
                }
                Piece::Gate(_) => {}
            }
        } else if g.edge_on_perimeter(e) {
            return Err(format!(
                "{named}: {e} is on the stone perimeter; only a Gate across its own castle's \
                 entrance stands on the board's outer line"
            ));
        }
    }
    for post in p.posts() {
        if g.on_setup_line(post) {
            return Err(format!(
                "{named} touches {post} on the {} between rows {} and {}: nothing may touch it in \
                 the set-up",
                if g.run.is_some() {
                    "edge of the Misery Run"
                } else {
                    "middle line"
                },
                post.y,
                post.y + 1
            ));
        }
        if !g.post_in_region(side, post) {
            let (name, rows) = g
                .region(side)
                .map_or(("region", String::new()), |r| (r.name, r.describe(g)));
            return Err(format!(
                "{named} touches {post}, outside {}'s {name} ({rows})",
                g.side_name(side),
            ));
        }
    }
    Ok(())
}

/// Check a side's complete maze on board `g` against the set-up rules;
/// the reason names the piece at fault.
pub fn check_maze(g: &Geometry, side: Side, pieces: &[Piece]) -> Result<(), String> {
    for &p in pieces {
        check_piece(g, side, p)?;
    }
    for (i, &a) in pieces.iter().enumerate() {
        for &b in &pieces[i + 1..] {
            if let Some(e) = a
                .edge_list()
                .into_iter()
                .find(|e| b.edge_list().contains(e))
            {
                return Err(format!(
                    "{} and {} both lie on {e}: one piece an edge",
                    a.named(),
                    b.named()
                ));
            }
        }
    }
    let mut maze = Maze::default();
    for &p in pieces {
        maze.add(p);
    }
    if let Some((gate, p)) = maze.entrance_hinge_touched(g) {
        return Err(format!(
            "{} touches {}, the hinge post of {} across the castle entrance: nothing else \
             may touch it",
            p.named(),
            gate.hinge,
            gate.named()
        ));
    }
    Ok(())
}

/// A random maze for `side` on board `g` that obeys the set-up rules,
/// a piece for each of `slots`, with `pick(n)` a number in `0..n` (for
/// self-play). A maze of ten is drawn whole until one obeys the rules
/// (as it always was: recorded self-play figures rest on it); a larger
/// one piece by piece, each drawn again until it fits the pieces before
/// it, since twenty pieces drawn whole would hardly ever all fit.
pub fn random_maze(
    g: &Geometry,
    side: Side,
    slots: &'static [&'static str],
    pick: &mut dyn FnMut(usize) -> usize,
) -> Vec<(&'static str, String)> {
    let posts: Vec<_> = g.posts().filter(|&p| g.post_in_region(side, p)).collect();
    let kinds: Vec<char> = slots.iter().filter_map(|s| slot_letter(s)).collect();
    loop {
        let pieces = if kinds.len() <= SLOTS.len() {
            drawn_whole(g, side, &posts, &kinds, pick)
        } else {
            drawn_piece_by_piece(g, side, &posts, &kinds, pick)
        };
        if let Some(pieces) = pieces {
            let text: Vec<String> = pieces.iter().map(Piece::to_string).collect();
            if let Ok(values) = read_maze(g, slots, &text.join(" ")) {
                return values;
            }
        }
    }
}

/// A piece of kind `kind` at a random post of `posts`, lying a random
/// way; `None` for a wall off the board.
fn random_piece(
    g: &Geometry,
    posts: &[crate::games::battlegates::geometry::board::Post],
    kind: char,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<Piece> {
    let post = posts[pick(posts.len())];
    let dir = Dir::ALL[pick(4)];
    if kind == 'W' {
        g.go(post, dir, 1)
            .and_then(|q| Edge::between(post, q))
            .map(Piece::Wall)
    } else {
        Some(Piece::Gate(Gate {
            hinge: post,
            dir,
            long: kind == 'L',
        }))
    }
}

/// Whether `p` lies wholly on board `g`.
fn piece_on_board(g: &Geometry, p: &Piece) -> bool {
    match p {
        Piece::Gate(gate) => gate.on_board(g),
        Piece::Wall(e) => g.has_edge(*e),
    }
}

/// Every piece drawn at once; the maze if it obeys the rules.
fn drawn_whole(
    g: &Geometry,
    side: Side,
    posts: &[crate::games::battlegates::geometry::board::Post],
    kinds: &[char],
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<Vec<Piece>> {
    let pieces: Vec<Piece> = kinds
        .iter()
        .filter_map(|&kind| random_piece(g, posts, kind, pick))
        .collect();
    let whole = pieces.len() == kinds.len() && pieces.iter().all(|p| piece_on_board(g, p));
    (whole && check_maze(g, side, &pieces).is_ok()).then_some(pieces)
}

/// Each piece drawn until it fits with those before it (a few hundred
/// tries; `None` to start again if one never does).
fn drawn_piece_by_piece(
    g: &Geometry,
    side: Side,
    posts: &[crate::games::battlegates::geometry::board::Post],
    kinds: &[char],
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<Vec<Piece>> {
    let mut pieces: Vec<Piece> = Vec::new();
    for &kind in kinds {
        let fits = (0..400).find_map(|_| {
            let p = random_piece(g, posts, kind, pick)?;
            let mut with = pieces.clone();
            with.push(p);
            (piece_on_board(g, &p) && check_maze(g, side, &with).is_ok()).then_some(p)
        })?;
        pieces.push(fits);
    }
    Some(pieces)
}
