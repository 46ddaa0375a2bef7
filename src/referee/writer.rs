//! What a command that writes a player's lines (`move`, `setup`) asks the
//! referee around them (spec sections 3.7 and 3.8): whether the line
//! answers the open claim on its writer, and voids it
//! ([`Referee::void_claim_answered`]); whether a line that ended the game
//! carries its writer's audit ([`Referee::carries_audit`]); what the line
//! voided ([`Referee::voided_note`]); whether play has begun with its
//! writer to move ([`Referee::moves_first`]); and why a message may not end
//! with a line whose next line is the same player's
//! ([`Referee::own_line_refused`]). The CLI reads the files, asks, and
//! writes.

use crate::game::{Game, Phase, Side};

use crate::record::{self, LineKind};

use super::{Command, ComposeError, Ending, Keys, Line, PlayedTurn, Referee, Step};

/// The line a writing command writes, as an open claim sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writes<'a> {
    /// A set-up line (`herald setup`).
    SetupLine,
    /// The turn typed (`herald move`): an audit when it is written as one
    /// ([`written_as_audit`]).
    Typed(&'a str),
}

/// Whether the turn typed is `audit`, alone on its line as the grammar
/// has it, with `N. Side:` in front or not. `Kc1-b1, audit` is no audit:
/// the record refuses it (`audit` stands alone on its line).
pub fn typed_audit(typed: &str) -> bool {
    let typed = typed.trim();
    let body = record::turn_prefix(typed).map_or(typed, |(_, _, body)| body);
    body.trim().eq_ignore_ascii_case("audit")
}

/// Whether the turn typed is written as an audit line when the game is in
/// `phase`, as [`Referee::compose_typed`] writes it: `audit`
/// ([`typed_audit`]), and in the audit also nothing, or `pass` (with `N.
/// Side:` in front or not), which are written as the audit
/// ([`Referee::typed_as`]).
pub fn written_as_audit(typed: &str, phase: Phase) -> bool {
    let typed = typed.trim();
    let body = record::turn_prefix(typed).map_or(typed, |(_, _, body)| body.trim());
    let in_audit = phase == Phase::Audit && (typed.is_empty() || body.eq_ignore_ascii_case("pass"));
    in_audit || typed_audit(typed)
}

impl<G: Game> Referee<G> {
    /// The claimed side's own line answers the claim made on it, and
    /// voids it (spec section 3.8): its set-up line a claim made in the
    /// set-up, its audit one made in the audit, any other turn one made in
    /// play. Void the open claim when the line `writes`, by the side named
    /// `writer` (its key file's), is that answer; whether it was voided.
    pub fn void_claim_answered(&mut self, writer: &str, writes: Writes<'_>) -> bool {
        let Some((target, phase)) = self.open_claim() else {
            return false;
        };
        let answers = match (writes, phase) {
            (Writes::SetupLine, phase) => phase == Phase::Setup,
            (Writes::Typed(_), Phase::Setup) => false,
            (Writes::Typed(typed), Phase::Audit) => written_as_audit(typed, phase),
            (Writes::Typed(typed), Phase::Play | Phase::Over) => !typed_audit(typed),
        };
        let voids = answers && writer.eq_ignore_ascii_case(target.name::<G>());
        if voids {
            self.void_claim();
        }
        voids
    }

    /// Whether the line `played`, just composed, goes out with its
    /// writer's audit: a line that ended the game with that audit due next
    /// carries it (the openings of what the writer still holds), since no
    /// player answers their own mail (spec section 3.7). Never a claim.
    pub fn carries_audit(&self, played: &PlayedTurn<G>) -> bool {
        played.claimant.is_none() && self.audit_due_of(played.side)
    }

    /// What the line `played` voided, in words, when it is the claimed
    /// side's own answer to a claim (`before`: how many claims were voided
    /// before it, [`Referee::voided_claims`]): said of that line alone.
    pub fn voided_note(&self, before: usize, played: &PlayedTurn<G>) -> Option<String> {
        self.voided_claims()
            .get(before)
            .filter(|f| f.side == played.side && played.claimant.is_none())
            .map(|f| {
                format!(
                    "this line answers {}'s claim on {}, which it voids\n",
                    f.claimant.name::<G>(),
                    f.line_name()
                )
            })
    }

    /// Compose `side`'s set-up line due now (its commitments, openings or
    /// shares, as its step calls for), by the key files `keys`: the line
    /// `herald setup` writes.
    pub fn compose_setup_line<'a>(
        &mut self,
        side: Side,
        keys: Keys<'a>,
    ) -> Result<PlayedTurn<G>, ComposeError> {
        let (_, number) = self.next_line();
        let line = Line {
            kind: LineKind::Setup,
            number,
            side: side.name::<G>(),
            entries: Vec::new(),
            ending: Ending::Actions,
            proofs: Vec::new(),
            claimant: None,
        };
        self.compose(line, keys)
    }

    /// Whether play has begun with `side` to move: after the set-up's
    /// last line, that its writer moves first.
    pub fn moves_first(&self, side: Side) -> bool {
        self.phase() == Phase::Play && self.to_move() == Some(side)
    }

    /// Why a message cannot end with `writer`'s line when `next`, another
    /// side of the same player ([`Referee::own_next`]), is due right after
    /// it: the message would go to its writer alone. `command`: the
    /// player's command as typed, when one `--then` more makes it write
    /// both (`--then "ACTION" --then-key next.key` added); `None` when it
    /// has other `--then` lines already.
    pub fn own_line_refused(&self, writer: Side, next: Side, command: Option<Command>) -> String {
        let name = next.name::<G>();
        let key = format!("{}.key", name.to_ascii_lowercase());
        let (line, action) = match self.step_due() {
            Some(d) if d.step == Step::Audit => (d.line, "audit"),
            Some(d) if d.step == Step::Farewell => (d.line, "pass"),
            Some(d) => (d.line, "YOUR TURN"),
            None => (String::new(), "YOUR TURN"),
        };
        let command = match command {
            Some(command) => command.then_by(action, &key).to_string(),
            None => format!(
                "this command with --then \"{action}\" --then-key {key} after its other --then"
            ),
        };
        format!(
            "{line} is {name}'s, another side of yours, due right after {}'s line: a message that ended here would go to you alone, so {name}'s line goes in it too, by {key} ({name}'s key file): {command}",
            writer.name::<G>()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{self, Source};

    type G = CastleDanger;

    fn referee(log: &str) -> Referee<G> {
        let text = format!(
            "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[Result \"*\"]\n\n{log}"
        );
        let source = Source::new(text.as_bytes()).expect("a record");
        let record = record::parse(&source).expect("parsed");
        super::super::replay::<G>(&record, |_, _| {}).expect("a legal record")
    }

    #[test]
    fn a_typed_line_is_an_audit_when_it_is_written_as_the_audit_line() {
        for phase in [Phase::Setup, Phase::Play, Phase::Over, Phase::Audit] {
            for audit in ["audit", " AUDIT ", "12. Blue: audit", "Red:audit"] {
                assert!(typed_audit(audit), "{audit}");
                assert!(written_as_audit(audit, phase), "{audit} {phase:?}");
            }
            // `audit` stands alone on its line: with an action it is no
            // audit line (the record refuses it).
            for other in ["Kc1-b1, audit", "audit, Kc1-b1", "Kc1-b1"] {
                assert!(!typed_audit(other), "{other}");
                assert!(!written_as_audit(other, phase), "{other} {phase:?}");
            }
        }
        // Nothing typed, or `pass`, is written as the audit in the audit.
        for typed in ["", " pass ", "12. Blue: pass", "Red: PASS"] {
            assert!(!typed_audit(typed), "{typed:?}");
            assert!(written_as_audit(typed, Phase::Audit), "{typed:?}");
            for phase in [Phase::Setup, Phase::Play, Phase::Over] {
                assert!(!written_as_audit(typed, phase), "{typed:?} {phase:?}");
            }
        }
    }

    #[test]
    fn no_line_voids_a_claim_when_none_is_open() {
        let mut referee = referee("1. Blue: Kc1-b1\n");
        assert!(!referee.void_claim_answered("Red", Writes::Typed("Kc9-b9")));
        assert!(!referee.void_claim_answered("Red", Writes::SetupLine));
        assert!(referee.voided_claims().is_empty());
    }

    #[test]
    fn the_side_to_move_after_the_last_line_moves_first() {
        let referee = referee("1. Blue: Kc1-b1\n");
        assert!(referee.moves_first(Side(1)));
        assert!(!referee.moves_first(Side(0)));
    }

    #[test]
    fn a_message_that_would_go_to_its_writer_alone_names_the_then_that_writes_both() {
        // Castle Danger's sides are two players: the words are the
        // referee's whatever the sides, checked here by hand.
        let referee = referee("1. Blue: Kc1-b1\n");
        let typed = Command::moves()
            .on("game.pbem")
            .typed("Kc1-b1")
            .key_file("blue.key")
            .reply_to("OUT.eml");
        assert_eq!(
            referee.own_line_refused(Side(0), Side(1), Some(typed)),
            "turn 2 is Red's, another side of yours, due right after Blue's line: a message that ended here would go to you alone, so Red's line goes in it too, by red.key (Red's key file): herald move game.pbem \"Kc1-b1\" --then \"YOUR TURN\" --then-key red.key --key blue.key --reply -o OUT.eml"
        );
        assert!(referee.own_line_refused(Side(0), Side(1), None).ends_with(
            ": this command with --then \"YOUR TURN\" --then-key red.key after its other --then"
        ));
    }
}
