//! A line typed by a player (`herald move game.pbem "Kc1-b1"`): read
//! against the line due and composed, the one way a typed turn becomes a
//! line of the record.

use super::compose::AfterActions;
use super::{ComposeError, Keys, PlayedTurn, Referee, RefereeError};
use crate::game::{self, Game, Phase, Side};
use crate::record::{self, ParseError, Turn, TypedLine};

/// Why a typed line cannot be composed.
#[derive(Clone, Debug)]
pub enum TypedError {
    /// Not a line the player may type now, a mistake in how herald was
    /// asked (during the set-up, a side of no game named, text after the
    /// turn, proof items or chance facts typed): says why.
    Usage(String),
    /// The turn names another turn or side than the one due: it was
    /// written against another copy of the record (a record problem).
    Stale(String),
    /// The line cannot be read or played: the problem placed in the line
    /// as read ([`TypedLine::source`]).
    InLine(Box<(RefereeError, TypedLine)>),
    /// The line cannot be composed for another reason.
    Compose(ComposeError),
}

/// What a line typed is written as when the referee writes it as other
/// than it says, in the phase now ([`Referee::typed_as`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypedAs {
    /// `pass` typed when the line due is the player's audit (the rules
    /// ended the game): the line written is the audit.
    PassAsAudit,
}

impl TypedAs {
    /// What the player is told, on a line of its own.
    pub fn note(self) -> &'static str {
        match self {
            TypedAs::PassAsAudit => {
                "the game is over, so the line due from you is your audit: `pass` was written as `audit`"
            }
        }
    }
}

impl From<ComposeError> for TypedError {
    fn from(e: ComposeError) -> Self {
        TypedError::Compose(e)
    }
}

impl From<ParseError> for RefereeError {
    fn from(e: ParseError) -> Self {
        RefereeError {
            kind: super::ErrorKind::Parse,
            span: Some(e.span),
            turn: e.turn,
            setup_line: e.setup_line,
            side: e.side,
            action: None,
            message: e.message,
        }
    }
}

impl<G: Game> Referee<G> {
    /// Compose the next line from what the player typed (`text`: the
    /// actions, `pass` or `resign`, with `N. Side:` in front or not) and
    /// their key files (`keys`), and play it, as [`Referee::compose`]
    /// does. Once the rules ended a game with hidden values, the line due
    /// is the side's audit, and nothing need be typed.
    pub fn compose_typed(
        &mut self,
        text: &str,
        keys: Keys<'_>,
    ) -> Result<PlayedTurn<G>, TypedError> {
        let wallet = keys.own_file();
        let number = self.next_turn();
        let side = match self.closing_side(wallet)? {
            Some(side) => side,
            None => self.open_side()?,
        };
        if let Some(note) = self.setup_note() {
            let last = text.rsplit(',').next().unwrap_or_default();
            if record::DrawItem::read(last).is_some() {
                return Err(TypedError::Usage(format!(
                    "no draw can be offered or accepted during the set-up: {note}"
                )));
            }
            return Err(TypedError::Usage(note.to_string()));
        }
        let text = match text.trim() {
            "" if self.phase() == Phase::Audit => "audit",
            _ => text,
        };
        let body = Self::typed_body(text, number, side)?;
        let typed = TypedLine::new(number, side.name::<G>(), body);
        let in_line = |e: RefereeError| TypedError::InLine(Box::new((e, typed.clone())));
        let (turns, rest) = typed.turns().map_err(|e| in_line(e.into()))?;
        let turn = only_actions(&turns, rest)?;
        self.compose(super::Line::from_turn(turn), keys)
            .map_err(|e| match e {
                ComposeError::Line(e) => in_line(e.in_turn(turn)),
                other => TypedError::Compose(other),
            })
    }

    /// What `text`, typed for the next line, is written as in the phase
    /// now, when [`Referee::compose_typed`] writes it as other than it
    /// says: `pass` typed when the line due is the audit (with `N. Side:`
    /// in front or not) is written as the audit. `None` when it is written as typed.
    pub fn typed_as(&self, text: &str) -> Option<TypedAs> {
        let body = record::turn_prefix(text).map_or(text, |(_, _, body)| body);
        (self.phase() == Phase::Audit && body.trim().eq_ignore_ascii_case("pass"))
            .then_some(TypedAs::PassAsAudit)
    }

    /// What remains of the turn due after the actions typed as `text`
    /// (`legal --after`): they are read as [`Referee::compose_typed`]
    /// reads a line, and made from `start` (the position the turn
    /// begins in, as its player sees it) as [`Referee::preview_after`]
    /// makes them.
    pub fn preview_typed_after(
        &self,
        start: &G::State,
        text: &str,
    ) -> Result<AfterActions<G>, TypedError> {
        let number = self.next_turn();
        let side = self.open_side()?;
        let body = Self::typed_body(text, number, side)?;
        let typed = TypedLine::new(number, side.name::<G>(), body);
        let in_line = |e: RefereeError| TypedError::InLine(Box::new((e, typed.clone())));
        let (turns, rest) = typed.turns().map_err(|e| in_line(e.into()))?;
        let turn = only_actions(&turns, rest)?;
        self.preview_after(start, &super::Line::from_turn(turn))
            .map_err(|e| in_line(e.in_turn(turn)))
    }

    /// The body of turn `number` of `side` typed as `text`: without a
    /// `12. Blue:` or `Blue:` in front (as the turn reads in the record)
    /// when that names this turn; a prefix that names another turn or
    /// side is refused.
    fn typed_body(text: &str, number: u32, side: Side) -> Result<&str, TypedError> {
        let Some((given_number, name, body)) = record::turn_prefix(text) else {
            return Ok(text);
        };
        let Some(named) = game::side_by_name::<G>(name) else {
            return if given_number.is_some() {
                Err(TypedError::Usage(format!(
                    "`{name}` is not a side of {}: give the turn as `{number}. {}: <actions>` or just the actions",
                    G::ID,
                    side.name::<G>()
                )))
            } else {
                Ok(text)
            };
        };
        let number_matches = given_number.is_none_or(|n| n.parse::<u32>().ok() == Some(number));
        if named != side || !number_matches {
            // Like --expect-turn: the player wrote this turn against
            // another copy of the record.
            return Err(TypedError::Stale(format!(
                "this turn is written as `{}{}:`, but the record is at turn {number}, {}'s: is this the latest copy of the game?",
                given_number.map_or(String::new(), |n| format!("{n}. ")),
                named.name::<G>(),
                side.name::<G>()
            )));
        }
        Ok(body)
    }
}

/// The one turn typed, if it holds only actions (or `pass`, or
/// `resign`): nothing after it, no chance facts, no proof items (those
/// are the referee's to write).
fn only_actions<'t>(turns: &'t [Turn<'t>], rest: &str) -> Result<&'t Turn<'t>, TypedError> {
    let usage = |m: &str| Err(TypedError::Usage(m.into()));
    let Some(turn) = turns.first() else {
        return usage("no turn given: write the actions, `pass` or `resign`");
    };
    if !rest.trim().is_empty() {
        return usage(
            "text after the turn: write the whole turn on one line, its actions separated by commas (a blank line ends a turn)",
        );
    }
    if turns.len() > 1 || !turn.proofs.is_empty() || turn.actions().count() != turn.items.len() {
        return usage(
            "write only your actions (or pass, or resign): herald adds the turn number, reveals and chance values itself",
        );
    }
    Ok(turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{parse, Source, Span};
    use crate::referee::{replay, ErrorKind};

    const HEADER: &str = "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[Result \"*\"]\n";

    /// The referee after `log`, a game without keys.
    fn after(log: &str) -> Referee<CastleDanger> {
        let text = format!("{HEADER}\n{log}");
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).unwrap();
        replay::<CastleDanger>(&record, |_, _| {}).unwrap()
    }

    fn composed(typed: &str) -> Result<String, TypedError> {
        after("1. Blue: Kc1-b1\n")
            .compose_typed(typed, Keys::NONE)
            .map(|played| played.line())
    }

    /// The problem placed in the line as read, and that line.
    fn placed(typed: &str) -> (RefereeError, String) {
        match composed(typed) {
            Err(TypedError::InLine(placed)) => {
                let (error, line) = *placed;
                (error, line.source().text().to_owned())
            }
            other => panic!("{typed}: not placed in the line: {other:?}"),
        }
    }

    #[test]
    fn a_typed_move_is_composed_with_or_without_its_prefix() {
        for typed in ["Kc9-b9", "2. Red: Kc9-b9", "2. red:Kc9-b9", "Red: Kc9-b9"] {
            assert_eq!(composed(typed).unwrap(), "2. Red: Kc9-b9\n", "{typed}");
        }
    }

    #[test]
    fn an_illegal_typed_action_is_placed_in_the_line_it_becomes() {
        let (error, line) = placed("Kc9-c4");
        assert_eq!(line, "2. Red: Kc9-c4\n");
        // "2. Red: " is 8 bytes: the action is bytes 8..14 (column 9).
        assert_eq!(error.span, Some(Span::new(8, 14)));
        assert_eq!(error.kind, ErrorKind::Illegal);
        assert_eq!((error.turn, error.side.as_deref()), (Some(2), Some("Red")));
        assert_eq!(error.message, "Kc9-c4: c4 is across the river");
        // With its prefix, the spaces after the colon stay as typed: the
        // action is bytes 10..16 of "2. Red:   Kc9-c4".
        let (error, line) = placed("2. Red:  Kc9-c4");
        assert_eq!(line, "2. Red:   Kc9-c4\n");
        assert_eq!(error.span, Some(Span::new(10, 16)));
    }

    #[test]
    fn typed_text_that_cannot_be_read_is_a_parse_error_in_the_line() {
        let (error, line) = placed("Kc9-b9 {x");
        assert_eq!(line, "2. Red: Kc9-b9 {x\n");
        // The `{` after "2. Red: Kc9-b9 " (15 bytes).
        assert_eq!(error.span, Some(Span::new(15, 16)));
        assert_eq!(error.kind, ErrorKind::Parse);
        assert_eq!(error.message, "this comment `{` is never closed with `}`");
    }

    #[test]
    fn a_prefix_naming_another_turn_or_side_is_a_stale_copy() {
        let stale = |typed: &str| match composed(typed) {
            Err(TypedError::Stale(m)) => m,
            other => panic!("{typed}: not stale: {other:?}"),
        };
        assert_eq!(
            stale("3. Red: Kc9-b9"),
            "this turn is written as `3. Red:`, but the record is at turn 2, Red's: is this the latest copy of the game?"
        );
        assert_eq!(
            stale("blue: Kb1-a1"),
            "this turn is written as `Blue:`, but the record is at turn 2, Red's: is this the latest copy of the game?"
        );
    }

    #[test]
    fn what_a_player_may_not_type_is_refused_with_the_reason() {
        let usage = |typed: &str| match composed(typed) {
            Err(TypedError::Usage(m)) => m,
            other => panic!("{typed}: not refused: {other:?}"),
        };
        assert!(usage("2. Green: Kc9-b9").starts_with(
            "`Green` is not a side of castle-danger: give the turn as `2. Red: <actions>`"
        ));
        assert!(usage("Kc9-b9\n\nKc9-c8").starts_with("text after the turn"));
        assert!(usage("Kc9-b9, rally=heads").starts_with("write only your actions"));
        let reveal = format!("Kc9-b9\n    reveal {}", "00".repeat(32));
        assert!(usage(&reveal).starts_with("write only your actions"));
    }

    #[test]
    fn the_turn_ahead_lists_the_actions_legal_and_no_pass_note() {
        let preview = after("1. Blue: Kc1-b1\n").preview_for(Keys::NONE).unwrap();
        let listed: Vec<String> = preview
            .legal_actions()
            .iter()
            .map(crate::game::action_text::<CastleDanger>)
            .collect();
        assert!(listed.iter().any(|a| a == "Kc9-b9"), "{listed:?}");
        assert_eq!(preview.legal_note(), None);
    }

    #[test]
    fn a_view_without_a_key_file_is_refused_and_told_to_add_one() {
        let referee = after("1. Blue: Kc1-b1\n");
        match referee.view(Keys::NONE) {
            Err(ComposeError::Keys(m)) => assert!(m.contains("add --key"), "{m}"),
            other => panic!("not refused: {other:?}"),
        }
        match referee.look(Keys::NONE) {
            Err(ComposeError::Keys(m)) => assert!(m.contains("add --key"), "{m}"),
            other => panic!("not refused: {:?}", other.map(|l| l.viewer)),
        }
    }

    #[test]
    fn no_line_is_typed_once_the_game_is_over() {
        let mut referee = after("1. Blue: resign\n");
        match referee.compose_typed("Kc9-b9", Keys::NONE) {
            Err(TypedError::Compose(ComposeError::Closed(kind, m))) => {
                assert_eq!(kind, ErrorKind::Illegal);
                assert!(m.starts_with("the game is over"), "{m}");
            }
            other => panic!("not refused: {:?}", other.map(|p| p.line())),
        }
    }

    #[test]
    fn the_final_result_is_known_once_the_typed_line_ends_the_game() {
        let mut referee = after("1. Blue: Kc1-b1\n");
        assert_eq!(referee.final_result(), None);
        let played = referee.compose_typed("resign", Keys::NONE).unwrap();
        assert_eq!(played.line(), "2. Red: resign\n");
        assert_eq!(referee.final_result().as_deref(), Some("Blue"));
    }
}
