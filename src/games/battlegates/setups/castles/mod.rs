//! The four-castle set-ups on Battle Alley (`four-castles`,
//! `four-castles-allies`, `four-castles-solo`): who is allied with whom,
//! whose hand a castle plays from, how many decks, the turn order
//! (Castle1, Castle2, Castle3, Castle4, a castle without characters
//! skipped), the deal (Castle1 deals: no opening roll) and the end.
//! [`FourCastles`] hands them to the one-board game as its [`Variant`]
//! hooks; [`header`] checks the header's sides and `Decks` tag.

pub mod header;
#[cfg(test)]
mod tests;

use crate::game::{
    Chance, Illegal, Outcome, PositionField, PositionParseError, Setup, SetupError, Side, Team,
};
use crate::games::battlegates::one_board::variant::Variant;

use crate::games::battlegates::geometry::board::opponent;
use crate::games::battlegates::geometry::layouts::{Layout, CASTLES};
use crate::games::battlegates::one_board::state::{Board, End, State};
use crate::games::battlegates::pieces::cards::Cards;

/// The two teams of `four-castles` and `four-castles-allies`: Castle1
/// with Castle3, Castle2 with Castle4. The first of each holds the hand
/// the two share.
pub const TEAMS: [[Side; 2]; 2] = [[CASTLES[0], CASTLES[2]], [CASTLES[1], CASTLES[3]]];

/// Seat the sides of `layout`: allies on the board, and the hand each
/// castle plays from.
pub fn seat(layout: Layout, board: &mut Board, cards: &mut Cards) {
    if !layout.teams() {
        return;
    }
    for [first, second] in TEAMS {
        board.ally(first, second);
        cards.share(second, first);
    }
}

/// How many whole decks `layout` plays with ([`Layout::decks`]).
pub fn decks(layout: Layout, tag: Option<u8>) -> u8 {
    layout.decks(tag)
}

/// The team `side` plays in (itself alone in the solo game).
pub fn team_of(layout: Layout, side: Side) -> Team {
    TEAMS
        .into_iter()
        .find(|t| layout.teams() && t.contains(&side))
        .map_or_else(|| Team::of(&[side]), |t| Team::of(&t))
}

/// The side to move after `side`: on two-sided boards its opponent; on
/// Battle Alley the next castle in the order 1, 2, 3, 4 that has a
/// character left.
pub fn next_to_move(state: &State, side: Side) -> Side {
    if !state.layout.four_castles() {
        return opponent(side);
    }
    let n = CASTLES.len();
    let at = CASTLES.iter().position(|&c| c == side).unwrap_or(0);
    (1..=n)
        .map(|k| CASTLES[(at + k) % n])
        .find(|&c| state.board.has_characters(c))
        .unwrap_or(side)
}

/// The start of play on Battle Alley, once every maze is open: no
/// opening roll; Castle1 (the first castle still in play) moves first
/// and deals each hand its cards,
/// one at a time, in turn order, beginning with the hand after its own
/// (label `deal`). A castle whose maze breaks the set-up rules loses
/// before turn 1, and so does its team (see [`bad_mazes`]).
pub fn begin_play(state: &mut State, chance: &mut dyn Chance) -> Result<(), Illegal> {
    let bad = state.bad_mazes();
    if !bad.is_empty() {
        bad_mazes(state, &bad);
        if state.outcome.is_over() {
            return Ok(());
        }
    }
    // The castles still in play (alone, a bad maze puts only its own
    // castle out) deal and move, the first of them first.
    let playing: Vec<Side> = CASTLES
        .into_iter()
        .filter(|&c| state.board.has_characters(c))
        .collect();
    let mut holders: Vec<Side> = Vec::new();
    for c in playing.iter().copied() {
        let h = state.cards.holder(c);
        if !holders.contains(&h) {
            holders.push(h);
        }
    }
    let deal = if state.cards.is_hidden() {
        0
    } else {
        state.layout.hand_size() as usize * holders.len()
    };
    for k in 0..deal {
        let to = holders[(k + 1) % holders.len()];
        crate::games::battlegates::one_board::rules::deal_card(state, chance, to)?;
    }
    state.to_move = playing.first().copied().unwrap_or(CASTLES[0]);
    state.started = true;
    Ok(())
}

/// Before play, the castle that moves first if play begins, when no maze
/// still to open can change the turns: with teams, Castle1 (a bad maze
/// puts its whole team out, and so ends the game before turn 1); alone,
/// none is known, since a castle whose maze breaks the rules is skipped
/// and the others play on without it.
pub fn first_mover_before_play(state: &State) -> Option<Side> {
    state.layout.teams().then_some(CASTLES[0])
}

/// Castles whose mazes broke the set-up rules lose before turn 1: with
/// teams, the team of any such castle; alone, the castle itself, and the
/// game is won when one castle (or team) is left, a draw when none is.
/// A castle that lost this way has its characters taken off.
pub fn bad_mazes(state: &mut State, bad: &[Side]) {
    for &b in bad {
        for c in CASTLES {
            if team_of(state.layout, b).contains(c) {
                for id in state.board.ids(c).collect::<Vec<_>>() {
                    state.board.set(id, None);
                }
            }
        }
    }
    let left: Vec<Side> = CASTLES
        .into_iter()
        .filter(|&c| state.board.has_characters(c))
        .collect();
    match left.as_slice() {
        [] => state.finish(None, End::BadMazes),
        [one, ..]
            if left
                .iter()
                .all(|&c| team_of(state.layout, *one).contains(c)) =>
        {
            let team = team_of(state.layout, *one);
            let winner = winner(state.layout, team);
            state.outcome = winner;
            state.end = End::BadMaze(bad[0]);
        }
        _ => {}
    }
}

/// The outcome when `team` won: a side alone, or the team.
fn winner(layout: Layout, team: Team) -> Outcome {
    let sides: Vec<Side> = team.sides().collect();
    match sides.as_slice() {
        [one] if !layout.teams() => Outcome::Won(*one),
        _ => Outcome::TeamWon(team),
    }
}

/// End the game on Battle Alley when a team (or, alone, every castle
/// but one) has no character left; a castle of the solo game left
/// without characters puts its hand on the discard pile.
pub fn judge(state: &mut State) {
    if !state.started {
        return;
    }
    let gone: Vec<Side> = CASTLES
        .into_iter()
        .filter(|&c| !state.board.has_characters(c))
        .collect();
    if !state.layout.teams() {
        for &c in &gone {
            state.cards.give_up(c);
        }
    }
    let left: Vec<Side> = CASTLES.into_iter().filter(|c| !gone.contains(c)).collect();
    let Some(&first) = left.first() else {
        state.finish(None, End::NoCharacters(CASTLES[0]));
        return;
    };
    let team = team_of(state.layout, first);
    if left.iter().all(|&c| team.contains(c)) {
        let loser = gone
            .iter()
            .copied()
            .find(|&c| !team.contains(c))
            .unwrap_or(CASTLES[0]);
        state.outcome = winner(state.layout, team);
        state.end = End::NoCharacters(loser);
    }
}

/// The outcome of a resignation by `side`: its team loses; in the solo
/// game the castle alone drops out (its characters taken off, its hand
/// discarded) and the game goes on while two castles are left.
pub fn resign(state: &mut State, side: Side) {
    let team = team_of(state.layout, side);
    for c in CASTLES {
        if team.contains(c) {
            for id in state.board.ids(c).collect::<Vec<_>>() {
                state.board.set(id, None);
            }
        }
    }
    judge(state);
    if state.outcome.is_over() {
        state.end = End::Resigned(side);
    } else {
        // The solo game goes on: the next castle's turn.
        state.to_move = next_to_move(state, side);
        state.dice = crate::games::battlegates::one_board::state::Dice::default();
        state.drawn = None;
        state.card_done = false;
    }
}

/// Read the result field of a four-castle position: `*`, the winners
/// (`Castle1+Castle3`, or one castle alone) and how, or a draw.
pub fn read_result(field: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    let v = field.value;
    let left: Vec<Side> = CASTLES
        .into_iter()
        .filter(|&c| state.board.has_characters(c))
        .collect();
    let one_team = |l: &[Side]| {
        l.first()
            .is_some_and(|&f| l.iter().all(|&c| team_of(state.layout, f).contains(c)))
    };
    match v {
        "*" if one_team(&left) || left.is_empty() => {
            return Err(
                field.whole("only one team (or castle) has characters left: the game is over")
            )
        }
        "*" => return Ok(()),
        "draw:bad-maze" => {
            state.finish(None, End::BadMazes);
            return Ok(());
        }
        "draw:no-characters" if left.is_empty() => {
            state.finish(None, End::NoCharacters(CASTLES[0]));
            return Ok(());
        }
        "draw:no-characters" => {
            return Err(field.whole("a draw needs every castle without characters"))
        }
        _ => {}
    }
    let bad = || {
        let example = if state.layout.teams() {
            "Castle1+Castle3"
        } else {
            "Castle1"
        };
        field.whole(format!(
            "the result is `*`, the winners and how ({example}:no-characters, \
             {example}:resignation, {example}:bad-maze) or a draw (draw:no-characters, \
             draw:bad-maze)"
        ))
    };
    let (who, how) = v.split_once(':').ok_or_else(bad)?;
    let team = CASTLES
        .into_iter()
        .map(|c| team_of(state.layout, c))
        .find(|&t| {
            crate::games::battlegates::one_board::position::winners_text(winner(state.layout, t))
                .as_deref()
                == Some(who)
        })
        .ok_or_else(bad)?;
    let loser = CASTLES
        .into_iter()
        .find(|&c| !team.contains(c))
        .unwrap_or(CASTLES[0]);
    let end = match how {
        "no-characters" => End::NoCharacters(loser),
        "resignation" => End::Resigned(loser),
        "bad-maze" => End::BadMaze(loser),
        _ => return Err(bad()),
    };
    if how == "no-characters" && (left.is_empty() || !left.iter().all(|&c| team.contains(c))) {
        return Err(field.whole(format!(
            "{who} won by no-characters only when nobody else has characters left"
        )));
    }
    state.outcome = winner(state.layout, team);
    state.end = end;
    Ok(())
}

/// The four-castle set-ups' rules as hooks over the one-board game.
#[derive(Debug)]
pub struct FourCastles;

impl Variant for FourCastles {
    fn layouts(&self) -> &'static [Layout] {
        &[
            Layout::FourCastles,
            Layout::FourCastlesAllies,
            Layout::FourCastlesSolo,
        ]
    }

    fn check_sides(&self, setup: &Setup<'_>, layout: Layout) -> Result<(), SetupError> {
        header::check_sides(setup, layout)
    }

    fn takes_turns(&self, state: &State, side: Side) -> bool {
        // A castle without characters is skipped.
        state.board.has_characters(side)
    }

    fn hand_discarded(&self, state: &State, side: Side) -> bool {
        // A castle out of the game discards its hand (rulings 33, 34).
        !state.board.has_characters(side)
    }

    fn seat(&self, layout: Layout, board: &mut Board, cards: &mut Cards) {
        seat(layout, board, cards);
    }

    fn begin_play(
        &self,
        state: &mut State,
        chance: &mut dyn Chance,
    ) -> Option<Result<(), Illegal>> {
        Some(begin_play(state, chance))
    }

    fn first_mover_before_play(&self, state: &State) -> Option<Side> {
        first_mover_before_play(state)
    }

    fn next_to_move(&self, state: &State, side: Side) -> Side {
        next_to_move(state, side)
    }

    fn resign(&self, state: &mut State, side: Side) {
        resign(state, side);
    }

    fn judge(&self, state: &mut State) {
        judge(state);
    }

    fn read_result(
        &self,
        field: &PositionField<'_>,
        state: &mut State,
    ) -> Result<(), PositionParseError> {
        read_result(field, state)
    }

    fn team_of(&self, layout: Layout, side: Side) -> Team {
        team_of(layout, side)
    }
}
