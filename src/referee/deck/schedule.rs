//! Which lines carry what (spec section 3.9, "The schedule"): the set-up
//! lines of the deck, the positions dealt and drawn while the first deck
//! lasts, the shares each line owes, and when a reshuffle starts.
//!
//! Lines are counted in one sequence, set-up lines first, then turns;
//! `writers[l]` is the index (in turn order) of the side writing line
//! `l`. A draw happens at the start of a line, by its writer, before
//! the writer writes it.

/// What a set-up line carries for the deck.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DeckStep {
    /// The writer's `cardkey` item.
    Key,
    /// The writer's pass over the first deck: `commit shuffle-0` and a
    /// `deck` item for every position.
    Pass,
    /// Only the shares the writer owes.
    Shares,
}

/// The deck's set-up lines of `players` sides, in order, each with its
/// writer: every side's key (turn order), then every side's pass over
/// the first deck (turn order; the last pass makes the deck final and
/// carries the last side's shares), then a shares line by each side but
/// the first and the last (the first writes turn 1 before anybody needs
/// its shares; the last wrote the final pass).
pub fn setup_steps(players: usize) -> Vec<(usize, DeckStep)> {
    let keys = (0..players).map(|i| (i, DeckStep::Key));
    let passes = (0..players).map(|i| (i, DeckStep::Pass));
    let shares = (1..players.saturating_sub(1)).map(|i| (i, DeckStep::Shares));
    keys.chain(passes).chain(shares).collect()
}

/// The positions drawn at the start of turn `turn` (from 1) of a game of
/// `players` sides with hands of `hand` cards, while the first deck
/// lasts and every side plays in turn: on a side's first turn its hand
/// (dealt round: side `i` holds `i`, `i + players`, ...) and then its
/// turn's card; on later turns one card, the next position after the
/// hands, in turn order.
pub fn first_draws(players: u32, hand: u32, turn: u32) -> Vec<u32> {
    if players == 0 || turn == 0 {
        return Vec::new();
    }
    let side = (turn - 1) % players;
    let mut out = Vec::new();
    if turn <= players {
        out.extend((0..hand).map(|k| side.saturating_add(k.saturating_mul(players))));
    }
    out.push(hand.saturating_mul(players).saturating_add(turn - 1));
    out
}

/// One draw: by side `drawer`, of deck `position`, at the start of line
/// `line`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Draw {
    /// The drawer's index in turn order (the writer of `line`).
    pub drawer: usize,
    /// The deck position drawn.
    pub position: u32,
    /// The line at whose start it is drawn.
    pub line: usize,
}

/// The positions whose shares line `line` carries: every position that
/// another side draws after this line and before its writer's next
/// line (or to the end, if it writes no more), in increasing order.
pub fn shares_due(writers: &[usize], draws: &[Draw], line: usize) -> Vec<u32> {
    let Some(&writer) = writers.get(line) else {
        return Vec::new();
    };
    let next = (line + 1..writers.len())
        .find(|&l| writers[l] == writer)
        .unwrap_or(usize::MAX);
    let mut out: Vec<u32> = draws
        .iter()
        .filter(|d| d.drawer != writer && d.line > line && d.line < next)
        .map(|d| d.position)
        .collect();
    out.sort_unstable();
    out
}

/// Whether a plan works: for every draw and every side but its drawer,
/// the line that owes its share (that side's last line before the draw)
/// exists and comes at or after `ready(position)`, the line that makes
/// the position's deck final. The first failure: the draw and the side
/// that cannot give its share in time.
pub fn check_plan(
    players: usize,
    writers: &[usize],
    draws: &[Draw],
    ready: impl Fn(u32) -> usize,
) -> Result<(), (Draw, usize)> {
    for draw in draws {
        for side in (0..players).filter(|&s| s != draw.drawer) {
            let owed = (0..draw.line.min(writers.len()))
                .rev()
                .find(|&l| writers[l] == side);
            if owed.is_none_or(|l| l < ready(draw.position)) {
                return Err((*draw, side));
            }
        }
    }
    Ok(())
}

/// Whether a reshuffle of the discard pile starts on a line that begins
/// (before its draw) with `left` cards not yet drawn in the deck, in a
/// game of `players` sides drawing one card a turn: at `2 * players - 2`
/// cards or fewer. Then the `players` passes (that line's writer's and
/// the next ones') and the shares for the first new card are all
/// written before the old deck runs out.
pub fn reshuffle_due(players: u32, left: u32) -> bool {
    left <= (2 * players).saturating_sub(2)
}
