//! Chance (spec sections 3.3-3.5): values drawn at the start of a turn from
//! the mover's reveal and the others' latest, events declared on one line
//! and settled by the next player's reveal, and the facts a line records.

use super::header::Seat;
use super::{ErrorKind, Line, LineError, Place, Referee};
use crate::fairness::{self, Hash, Sampler};
use crate::game::{Chance, ChanceRequest, Game, Illegal, Side, Undrawn};

use super::line::Entry;

/// A chance value derived by the referee.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChanceEvent {
    /// The turn whose line carries the deciding reveal.
    pub turn: u32,
    /// For an event settled after a decision, the turn that declared it.
    pub declared: Option<u32>,
    /// The event label (`die`, `rally`).
    pub label: &'static str,
    /// The raw value in `0..n`.
    pub value: u32,
    /// The value as written in the record (`4`, `heads`).
    pub text: String,
    /// The sides whose reveals went into the seed, in order.
    pub reveals_of: Vec<String>,
}

/// A chance event declared and not yet settled.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PendingEvent {
    /// The declaring turn.
    pub declared: u32,
    /// The declaring side.
    pub side: String,
    /// The event label.
    pub label: &'static str,
    /// The side whose next reveal settles it.
    pub settled_by: String,
}

/// The reason given when chance comes up in a game without commitments.
pub(super) fn no_commitments(label: &str) -> String {
    format!("this game has no commitments: {label} needs them (see `herald keygen`)")
}

impl<G: Game> Referee<G> {
    /// The values that settle `request`, declared on turn `declared`, for
    /// the mover at `seat` whose line carries `reveal`: seeded by that
    /// reveal and the latest of every other committed player (the
    /// declarer's among them), so that the settler cannot know them before
    /// the declaring line, nor steer them with their key. They are added
    /// to `into`.
    pub(super) fn settle_values(
        &self,
        request: ChanceRequest,
        declared: u32,
        seat: Seat,
        reveal: &Hash,
        into: &mut Vec<ChanceEvent>,
    ) {
        let number = self.next_turn();
        let others: Vec<Hash> = self.ledger.others(seat).flatten().collect();
        let seed = fairness::settle_seed(
            self.header.game_id(),
            declared,
            number,
            request.label,
            reveal,
            &others,
        );
        let mut sampler = Sampler::new(&seed);
        into.extend((0..request.count).map(|_| {
            let value = sampler.below(request.n);
            ChanceEvent {
                turn: number,
                declared: Some(declared),
                label: request.label,
                value,
                text: G::chance_text(request.label, value),
                reveals_of: self.reveal_names(seat),
            }
        }));
    }

    /// The sides whose reveals went into a seed drawn on `seat`'s line.
    pub(super) fn reveal_names(&self, seat: Seat) -> Vec<String> {
        let mut names = Vec::new();
        self.reveal_names_into(seat, &mut names);
        names
    }

    /// [`Referee::reveal_names`] written over `names`, its strings used
    /// again (those of an event of an earlier turn).
    pub(super) fn reveal_names_into(&self, seat: Seat, names: &mut Vec<String>) {
        let mut count = 0;
        for i in self.ledger.seed_sides(seat, self.header.seats()) {
            let name = self.header.name::<G>(i);
            match names.get_mut(count) {
                Some(old) => {
                    old.clear();
                    old.push_str(name);
                }
                None => names.push(name.to_owned()),
            }
            count += 1;
        }
        names.truncate(count);
    }
}

/// Compare the chance facts written on `line` with the derived values.
/// A line without facts on a turn without chance, as most are, has
/// nothing to compare.
#[inline]
pub(super) fn check_facts(
    line: &Line<'_>,
    derived: &[ChanceEvent],
    at: super::At<'_>,
) -> Result<(), LineError> {
    let has_facts = || line.entries.iter().any(|e| matches!(e, Entry::Fact { .. }));
    if derived.is_empty() && !has_facts() {
        return Ok(());
    }
    compare_facts(line, derived, at)
}

/// [`check_facts`]: each fact written against the value derived in its
/// place.
fn compare_facts(
    line: &Line<'_>,
    derived: &[ChanceEvent],
    at: super::At<'_>,
) -> Result<(), LineError> {
    let mut next = derived.iter();
    for (seat, entry) in line.entries.iter().enumerate() {
        let Entry::Fact { label, value } = *entry else {
            continue;
        };
        let err = |message: String| {
            Err(LineError {
                kind: ErrorKind::Record,
                place: Place::Item(seat),
                turn: at.turn,
                line: at.line,
                side: at.side.into(),
                action: Some(format!("{label}={value}")),
                message,
            })
        };
        match next.next() {
            None => return err(format!("{label}={value}: no chance event happens here")),
            Some(e) if !e.label.eq_ignore_ascii_case(label) => {
                return err(format!(
                    "{label}={value}: the chance event here is {}",
                    e.label
                ))
            }
            Some(e) if !e.text.eq_ignore_ascii_case(value) => {
                return err(format!(
                    "{label}={value}: the commitments give {label}={}",
                    e.text
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The samplers of one turn's chance, one a label, each seeded when its
/// label is first drawn. Most turns draw one label or none: the first
/// sampler is kept in place, the others in a list.
#[derive(Default)]
pub(super) struct Samplers {
    first: Option<(&'static str, Sampler)>,
    more: Vec<(&'static str, Sampler)>,
}

impl Samplers {
    /// The sampler of `label`, seeded with `seed()` if it has none yet.
    fn of(&mut self, label: &'static str, seed: impl FnOnce() -> Hash) -> &mut Sampler {
        if self.first.as_ref().is_none_or(|(l, _)| *l == label) {
            let first = self
                .first
                .get_or_insert_with(|| (label, Sampler::new(&seed())));
            return &mut first.1;
        }
        let k = match self.more.iter().position(|(l, _)| *l == label) {
            Some(k) => k,
            None => {
                self.more.push((label, Sampler::new(&seed())));
                self.more.len() - 1
            }
        };
        &mut self.more[k].1
    }
}

/// Turn-start chance for the mover at `seat`. Borrows the referee, so a
/// turn without chance costs nothing; the seed's inputs are gathered only
/// when the game draws. The values drawn are added to `events`, each
/// written over one of `spent` (events of an earlier turn, no longer
/// wanted) while there are some.
pub(super) struct TurnChance<'a, G: Game> {
    pub(super) referee: &'a Referee<G>,
    pub(super) seat: Seat,
    pub(super) turn: u32,
    pub(super) mover: Option<Hash>,
    pub(super) samplers: Samplers,
    pub(super) events: &'a mut Vec<ChanceEvent>,
    pub(super) spent: &'a mut Vec<ChanceEvent>,
    /// How many events `events` held before the turn's start: those are
    /// not this chance's to describe.
    pub(super) from: usize,
}

impl<G: Game> Chance for TurnChance<'_, G> {
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal> {
        let Some(mover) = self.mover else {
            return Err(Illegal::new(no_commitments(label)));
        };
        let ledger = &self.referee.ledger;
        if ledger.others(self.seat).any(|other| other.is_none()) {
            return crate::illegal!(
                "not every side has a Commit tag: {label} needs all of them (see `herald keygen`)"
            );
        }
        let (game, turn) = (self.referee.header.game_id(), self.turn);
        let others = ledger.others(self.seat).flatten();
        let sampler = self.samplers.of(label, || {
            fairness::turn_seed_of(game, turn, label, &mover, others)
        });
        let value = sampler.below(n);
        let mut reveals_of = self.spent.pop().map_or_else(Vec::new, |e| e.reveals_of);
        self.referee.reveal_names_into(self.seat, &mut reveals_of);
        self.events.push(ChanceEvent {
            turn: self.turn,
            declared: None,
            label,
            value,
            text: G::chance_text(label, value),
            reveals_of,
        });
        Ok(value)
    }

    fn describe(&mut self, text: String) {
        if let Some(e) = self.events[self.from..].last_mut() {
            e.text = text;
        }
    }

    fn can_settle(&self, side: Side) -> bool {
        self.referee.can_settle(side)
    }
}

/// The chance drawn before turn 1, once the set-up is over
/// ([`Game::begin_play`]): seeded as turn-start chance of turn 0 (spec
/// section 3.3), the first side's latest reveal in the mover's place and
/// every other side's latest after it, in side order.
pub(super) struct OpeningChance<'a, G: Game> {
    pub(super) referee: &'a Referee<G>,
    /// Every side's latest reveal (or commitment), in side order.
    pub(super) reveals: Vec<Option<Hash>>,
    pub(super) samplers: Vec<(&'static str, Sampler)>,
    pub(super) events: Vec<ChanceEvent>,
}

impl<G: Game> Chance for OpeningChance<'_, G> {
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal> {
        let Some(all) = self.reveals.iter().copied().collect::<Option<Vec<Hash>>>() else {
            return Err(Illegal::new(no_commitments(label)));
        };
        let Some((first, others)) = all.split_first() else {
            return Err(Illegal::new(no_commitments(label)));
        };
        let k = match self.samplers.iter().position(|(l, _)| *l == label) {
            Some(k) => k,
            None => {
                let seed =
                    fairness::turn_seed(self.referee.header.game_id(), 0, label, first, others);
                self.samplers.push((label, Sampler::new(&seed)));
                self.samplers.len() - 1
            }
        };
        let value = self.samplers[k].1.below(n);
        self.events.push(ChanceEvent {
            turn: 0,
            declared: None,
            label,
            value,
            text: G::chance_text(label, value),
            reveals_of: self
                .referee
                .header
                .sides()
                .iter()
                .map(|s| s.name::<G>().to_owned())
                .collect(),
        });
        Ok(value)
    }

    fn describe(&mut self, text: String) {
        if let Some(e) = self.events.last_mut() {
            e.text = text;
        }
    }
}

/// The turn ahead before the mover writes its line (`herald legal`
/// without the mover's key): nothing is drawn yet, but whether a side can
/// settle what the mover declares is known.
pub(super) struct Lookahead<'a, G: Game> {
    pub(super) referee: &'a Referee<G>,
}

impl<G: Game> Chance for Lookahead<'_, G> {
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal> {
        Undrawn.draw(label, n)
    }

    fn can_settle(&self, side: Side) -> bool {
        self.referee.can_settle(side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::LineKind;
    use std::borrow::Cow;

    /// The samplers of a turn, the first kept in place and the others in
    /// a list, give each label the values of a sampler of its own seeded
    /// once, whatever the order the labels are drawn in.
    #[test]
    fn each_label_draws_from_one_sampler_seeded_when_first_drawn() {
        let seed_of = |label: &str| fairness::turn_seed(&[1; 32], 7, label, &[2; 32], &[[3; 32]]);
        let orders: [&[&'static str]; 4] = [
            &["die"],
            &["die", "die", "die"],
            &["die", "coin", "die", "card", "coin", "die", "card"],
            &["coin", "card", "card", "die", "coin"],
        ];
        for labels in orders {
            let mut samplers = Samplers::default();
            let mut seeded = Vec::new();
            let mut alone: Vec<(&str, Sampler)> = Vec::new();
            for &label in labels {
                let value = samplers
                    .of(label, || {
                        seeded.push(label);
                        seed_of(label)
                    })
                    .below(1000);
                let k = match alone.iter().position(|(l, _)| *l == label) {
                    Some(k) => k,
                    None => {
                        alone.push((label, Sampler::new(&seed_of(label))));
                        alone.len() - 1
                    }
                };
                assert_eq!(value, alone[k].1.below(1000), "{label} in {labels:?}");
            }
            let first_seen: Vec<&str> = alone.iter().map(|(l, _)| *l).collect();
            assert_eq!(seeded, first_seen, "each seeded once, when first drawn");
        }
    }

    /// The check skipped on a line without facts, on a turn without
    /// chance, would have passed; elsewhere the same check is made: both
    /// ways agree on lines with and without facts, with and without
    /// chance derived.
    #[test]
    fn facts_are_compared_only_where_a_line_or_its_turn_has_some() {
        let event = |text: &str| ChanceEvent {
            turn: 1,
            declared: None,
            label: "die",
            value: 3,
            text: text.into(),
            reveals_of: Vec::new(),
        };
        let fact = |value| Entry::Fact {
            label: "die",
            value,
        };
        let action = || Entry::Action(Cow::Borrowed("a1-a2"));
        let lines = [
            vec![],
            vec![action()],
            vec![action(), action()],
            vec![fact("4"), action()],
            vec![fact("3")],
            vec![action(), fact("4"), fact("4")],
        ];
        let derived = [vec![], vec![event("4")], vec![event("3"), event("4")]];
        let at = super::super::At {
            line: LineKind::Turn,
            turn: 1,
            side: "A",
        };
        let mut skipped = 0;
        for entries in &lines {
            let mut line = Line::of_actions(LineKind::Turn, 1, "A", &[]);
            line.entries = entries.clone();
            for derived in &derived {
                let checked = check_facts(&line, derived, at);
                assert_eq!(checked, compare_facts(&line, derived, at));
                if derived.is_empty() && entries.iter().all(|e| matches!(e, Entry::Action(_))) {
                    assert!(checked.is_ok());
                    skipped += 1;
                }
            }
        }
        assert_eq!(skipped, 3);
        // A fact on a turn without chance is still an error.
        let mut line = Line::of_actions(LineKind::Turn, 1, "A", &[]);
        line.entries = vec![fact("4")];
        let err = check_facts(&line, &[], at).unwrap_err();
        assert_eq!(err.message, "die=4: no chance event happens here");
    }
}

/// Chance events kept compactly, for a reader that lists every one of a
/// long record (`fate` read a part at a time): a few bytes an event where
/// a [`ChanceEvent`] holds two lists of strings. Each event is its
/// numbers as LEB128 varints and its words (the value as written, the
/// sides whose reveals went into it) as indices into words kept once.
#[derive(Debug, Default)]
pub struct ChanceLog {
    bytes: Vec<u8>,
    labels: Vec<&'static str>,
    words: Vec<String>,
    index: std::collections::HashMap<String, u64>,
}

impl ChanceLog {
    /// Keep `event`, after those kept before.
    pub fn push(&mut self, event: &ChanceEvent) {
        let label = match self.labels.iter().position(|l| *l == event.label) {
            Some(k) => k,
            None => {
                self.labels.push(event.label);
                self.labels.len() - 1
            }
        };
        let numbers = [
            u64::from(event.turn),
            event.declared.map_or(0, |d| u64::from(d) + 1),
            label as u64,
            u64::from(event.value),
        ];
        for n in numbers {
            self.number(n);
        }
        let text = self.word(&event.text);
        self.number(text);
        self.number(event.reveals_of.len() as u64);
        for name in &event.reveals_of {
            let name = self.word(name);
            self.number(name);
        }
    }

    /// Whether no event is kept.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The events kept, in order, each as it was pushed.
    pub fn iter(&self) -> impl Iterator<Item = ChanceEvent> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            if at >= self.bytes.len() {
                return None;
            }
            let mut next = || read_number(&self.bytes, &mut at);
            // Each number was pushed from a u32 or an index (the declared
            // turn plus one, from a u32).
            let (turn, declared, label, value) = (next(), next(), next(), next());
            let text = self.words[next() as usize].clone();
            let count = next();
            let reveals_of = (0..count)
                .map(|_| self.words[read_number(&self.bytes, &mut at) as usize].clone())
                .collect();
            Some(ChanceEvent {
                turn: turn as u32,
                declared: declared.checked_sub(1).map(|d| d as u32),
                label: self.labels[label as usize],
                value: value as u32,
                text,
                reveals_of,
            })
        })
    }

    /// The index of `word` among the words kept, kept now if new.
    fn word(&mut self, word: &str) -> u64 {
        if let Some(&k) = self.index.get(word) {
            return k;
        }
        let k = self.words.len() as u64;
        self.words.push(word.to_owned());
        self.index.insert(word.to_owned(), k);
        k
    }

    /// `n` appended as an LEB128 varint.
    fn number(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.bytes.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.bytes.push(n as u8);
    }
}

/// The LEB128 varint at `at` in `bytes` (written by [`ChanceLog`]), `at`
/// moved past it.
fn read_number(bytes: &[u8], at: &mut usize) -> u64 {
    let mut n = 0u64;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        n |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            break;
        }
        shift += 7;
    }
    n
}

#[cfg(test)]
mod log_tests {
    use super::*;

    fn event(
        turn: u32,
        declared: Option<u32>,
        label: &'static str,
        value: u32,
        text: &str,
        sides: &[&str],
    ) -> ChanceEvent {
        ChanceEvent {
            turn,
            declared,
            label,
            value,
            text: text.to_owned(),
            reveals_of: sides.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn a_chance_log_gives_back_every_event_as_pushed_in_order() {
        let events = [
            event(0, None, "die", 0, "1", &["A", "B", "C"]),
            event(1, Some(0), "rally", 5, "heads", &[]),
            event(127, Some(128), "die", 127, "6", &["C", "A"]),
            event(
                u32::MAX,
                Some(u32::MAX),
                "card",
                u32::MAX,
                "Kc1",
                &["Bärbel", "A"],
            ),
            event(300, None, "die", 2, "1", &["A", "B", "C"]),
        ];
        let mut log = ChanceLog::default();
        assert!(log.is_empty());
        for e in &events {
            log.push(e);
        }
        assert!(!log.is_empty());
        assert_eq!(log.iter().collect::<Vec<_>>(), events);
    }

    #[test]
    fn a_chance_log_keeps_a_word_once_however_many_events_name_it() {
        let mut log = ChanceLog::default();
        for turn in 1..=1000 {
            log.push(&event(
                turn,
                None,
                "die",
                turn % 6,
                &format!("{}", turn % 6 + 1),
                &["Red", "Blue"],
            ));
        }
        // Six values and two sides; a thousand events of a few bytes.
        assert_eq!(log.words.len(), 8);
        assert!(log.bytes.len() < 10 * 1000, "{} bytes", log.bytes.len());
        assert_eq!(log.iter().count(), 1000);
        assert_eq!(
            log.iter().nth(999),
            Some(event(1000, None, "die", 4, "5", &["Red", "Blue"]))
        );
    }
}
