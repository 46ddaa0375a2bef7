//! The referee: replays a record through a game engine, checks the header,
//! turn order, reveals and recorded chance, and derives every chance value
//! from the players' commitments (RULINGS 1). Generic over [`Game`]; no I/O.

use crate::fairness::{self, chain_step, Hash, Sampler};
use crate::game::{self, Chance, Game, Illegal, Outcome, Setup, Side};
use crate::record::{ItemKind, Record, Span, Turn};

/// Which kind of problem a record has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ErrorKind {
    /// Text that cannot be read (line:column).
    Parse,
    /// A turn that parsed but breaks the rules (turn, side, reason).
    Illegal,
    /// A record-level problem: header, numbering, reveals, result.
    Record,
}

impl ErrorKind {
    /// `parse`, `illegal` or `record`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse",
            ErrorKind::Illegal => "illegal",
            ErrorKind::Record => "record",
        }
    }
}

/// The first problem found in a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefereeError {
    /// Parse, illegal or record.
    pub kind: ErrorKind,
    /// Where, in the record's clean text.
    pub span: Option<Span>,
    /// The turn number, when a turn is at fault.
    pub turn: Option<u32>,
    /// The side of that turn.
    pub side: Option<String>,
    /// The action's text, when an action is at fault.
    pub action: Option<String>,
    /// The reason, for a player (with the action text in front where one is
    /// at fault: `Kc1-c4: c2 holds a Wall`).
    pub message: String,
}

impl RefereeError {
    /// A record-level error.
    pub fn record(span: Option<Span>, message: impl Into<String>) -> Self {
        RefereeError {
            kind: ErrorKind::Record,
            span,
            turn: None,
            side: None,
            action: None,
            message: message.into(),
        }
    }

    fn at_turn(mut self, turn: u32, side: &str) -> Self {
        self.turn = Some(turn);
        self.side = Some(side.to_owned());
        self
    }
}

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

/// The header, checked.
#[derive(Clone, Debug)]
pub struct Header {
    /// Sides in turn order (header order).
    pub sides: Vec<Side>,
    /// Each side's contact (the side tag's value), in the same order.
    pub contacts: Vec<String>,
    /// Each side's commitment, in the same order.
    pub commits: Vec<Option<Hash>>,
    /// The game id (RULINGS 1.3).
    pub game_id: Hash,
    /// The chain id every hash chain of this game is bound to.
    pub chain_id: Hash,
    /// Every tag with its name in canonical case, in file order.
    pub tags: Vec<(String, String)>,
    /// The `Result` tag's value.
    pub result_tag: String,
    result_span: Span,
}

impl Header {
    fn index_of(&self, side: Side) -> Option<usize> {
        self.sides.iter().position(|&s| s == side)
    }
}

/// The text of a result: `*`, the winner's name, or `draw`.
pub fn result_text<G: Game>(outcome: Outcome) -> String {
    match outcome {
        Outcome::Ongoing => "*".into(),
        Outcome::Won(side) => side.name::<G>().into(),
        Outcome::Draw => "draw".into(),
    }
}

/// The game id named by a record's `Game` tag, checked to be the only one.
pub fn game_tag<'r>(record: &'r Record<'_>) -> Result<&'r str, RefereeError> {
    let mut found = None;
    for tag in &record.tags {
        if tag.name.eq_ignore_ascii_case("Game") {
            if found.is_some() {
                return Err(RefereeError::record(
                    Some(tag.span),
                    "duplicate tag Game: a record has one of each tag",
                ));
            }
            found = Some(tag);
        }
    }
    found.map(|t| t.value.as_str()).ok_or_else(|| {
        RefereeError::record(
            Some(Span::new(0, 1)),
            "the header has no Game tag, as in [Game \"castle-danger\"]",
        )
    })
}

/// What one played turn did.
#[derive(Clone, Debug)]
pub struct PlayedTurn<G: Game> {
    /// Turn number.
    pub number: u32,
    /// Who played it.
    pub side: Side,
    /// The position after settlement and the turn's start, before its first
    /// action.
    pub before: G::State,
    /// The actions made, in order.
    pub actions: Vec<G::Action>,
    /// The line ended with `resign`.
    pub resign: bool,
    /// Chance values derived on this turn (settled events first).
    pub chance: Vec<ChanceEvent>,
}

impl<G: Game> PlayedTurn<G> {
    /// The turn as herald writes it: chance facts, canonical actions,
    /// `resign`, and `reveal` if the line carries one.
    pub fn text(&self, reveal: Option<Hash>) -> crate::record::TurnText {
        crate::record::TurnText {
            number: self.number,
            side: self.side.name::<G>().into(),
            facts: self
                .chance
                .iter()
                .map(|c| (c.label.to_owned(), c.text.clone()))
                .collect(),
            actions: self.actions.iter().map(game::action_text::<G>).collect(),
            resign: self.resign,
            reveal,
            comment: None,
        }
    }
}

/// A game being refereed: the position after the turns played so far and
/// everything needed to check the next one.
#[derive(Clone, Debug)]
pub struct Referee<G: Game> {
    /// The checked header.
    pub header: Header,
    /// The position now.
    pub state: G::State,
    /// Turns played.
    pub turns: u32,
    /// Each side's latest reveal (or its commitment), in header order.
    latest: Vec<Option<Hash>>,
    /// Lines played by each side, in header order.
    lines: Vec<u32>,
    /// Every chance value derived so far.
    pub chance: Vec<ChanceEvent>,
    /// The turn and side that declared the pending event, if one is pending.
    declared: Option<(u32, Side)>,
}

fn canonical_tag_name<G: Game>(name: &str) -> String {
    if name.eq_ignore_ascii_case("Game") {
        return "Game".into();
    }
    if name.eq_ignore_ascii_case("Result") {
        return "Result".into();
    }
    if let Some(side) = game::side_by_name::<G>(name) {
        return side.name::<G>().into();
    }
    if let Some(side) = commit_side::<G>(name) {
        return format!("{}Commit", side.name::<G>());
    }
    if let Some(opt) = G::OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
    {
        return opt.name.into();
    }
    name.into()
}

fn commit_side<G: Game>(name: &str) -> Option<Side> {
    let cut = name.len().checked_sub("Commit".len())?;
    if !name.is_char_boundary(cut) || !name[cut..].eq_ignore_ascii_case("Commit") {
        return None;
    }
    game::side_by_name::<G>(&name[..cut])
}

impl<G: Game> Referee<G> {
    /// Check a record's header and set up the starting position.
    pub fn start(record: &Record<'_>) -> Result<Self, RefereeError> {
        let mut tags: Vec<(String, String)> = Vec::with_capacity(record.tags.len());
        let mut sides = Vec::new();
        let mut contacts = Vec::new();
        let mut commit_tags: Vec<(Side, Hash)> = Vec::new();
        let mut result = None;
        for tag in &record.tags {
            let name = canonical_tag_name::<G>(&tag.name);
            if tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name)) {
                return Err(RefereeError::record(
                    Some(tag.span),
                    format!("duplicate tag {name}: a record has one of each tag"),
                ));
            }
            let value = if name == "Game" {
                tag.value.to_ascii_lowercase()
            } else {
                tag.value.clone()
            };
            if let Some(side) = game::side_by_name::<G>(&name) {
                sides.push(side);
                contacts.push(tag.value.clone());
            } else if let Some(side) = commit_side::<G>(&name) {
                let mut h = [0u8; 32];
                if tag.value.len() != 64 || hex::decode_to_slice(&tag.value, &mut h).is_err() {
                    return Err(RefereeError::record(
                        Some(tag.value_span),
                        format!("{name} must be 64 hexadecimal digits (from `herald keygen`)"),
                    ));
                }
                commit_tags.push((side, h));
            } else if name == "Result" {
                result = Some((tag.value.clone(), tag.value_span));
            }
            tags.push((name, value));
        }
        let header_span = Some(Span::new(0, record.header_end.max(1)));
        let (result_tag, result_span) = result.ok_or_else(|| {
            RefereeError::record(
                header_span,
                "the header has no Result tag: [Result \"*\"] while the game runs",
            )
        })?;
        let listed: Vec<&str> = sides.iter().map(|s| s.name::<G>()).collect();
        let need = if G::MIN_SIDES == G::MAX_SIDES {
            format!("{}", G::MIN_SIDES)
        } else {
            format!("{} to {}", G::MIN_SIDES, G::MAX_SIDES)
        };
        // A tag that names a player (its value is an address) but no side
        // of this game is a misspelt or foreign side: a player would be
        // left out of the game without a word.
        if let Some(tag) = record.tags.iter().find(|t| {
            t.value.contains('@')
                && game::side_by_name::<G>(&t.name).is_none()
                && commit_side::<G>(&t.name).is_none()
        }) {
            return Err(RefereeError::record(
                Some(tag.span),
                format!(
                    "`{}` is not a side of {}: its sides are {} (it needs {need})",
                    tag.name,
                    G::ID,
                    G::SIDES.join(", ")
                ),
            ));
        }
        if sides.len() < G::MIN_SIDES || sides.len() > G::MAX_SIDES {
            return Err(RefereeError::record(
                header_span,
                format!(
                    "{} needs {need} side tags from {}; the header names {} ({})",
                    G::ID,
                    G::SIDES.join(", "),
                    sides.len(),
                    if listed.is_empty() {
                        "none".into()
                    } else {
                        listed.join(", ")
                    }
                ),
            ));
        }
        let mut commits = vec![None; sides.len()];
        for (side, h) in commit_tags {
            let Some(i) = sides.iter().position(|&s| s == side) else {
                return Err(RefereeError::record(
                    header_span,
                    format!(
                        "{}Commit names a side that is not in this game",
                        side.name::<G>()
                    ),
                ));
            };
            commits[i] = Some(h);
        }
        let result_ok = result_tag == "*"
            || result_tag.eq_ignore_ascii_case("draw")
            || listed.iter().any(|s| s.eq_ignore_ascii_case(&result_tag));
        if !result_ok {
            return Err(RefereeError::record(
                Some(result_span),
                format!(
                    "the Result tag is `*`, `draw` or a side of this game ({}), not `{result_tag}`",
                    listed.join(", ")
                ),
            ));
        }
        let state = G::new_game(&Setup {
            sides: &sides,
            tags: &tags,
        })
        .map_err(|e| {
            let span = e
                .tag
                .as_deref()
                .and_then(|t| record.tag(t))
                .map_or(header_span, |t| Some(t.value_span));
            RefereeError::record(span, e.reason)
        })?;
        let game_id = fairness::game_id(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        let chain_id = fairness::chain_id(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        let n = sides.len();
        Ok(Referee {
            latest: commits.clone(),
            header: Header {
                sides,
                contacts,
                commits,
                game_id,
                chain_id,
                tags,
                result_tag,
                result_span,
            },
            state,
            turns: 0,
            lines: vec![0; n],
            chance: Vec::new(),
            declared: None,
        })
    }

    /// The number the next turn must carry.
    pub fn next_turn(&self) -> u32 {
        self.turns + 1
    }

    /// How many lines `side` has played.
    pub fn lines_of(&self, side: Side) -> u32 {
        self.header.index_of(side).map_or(0, |i| self.lines[i])
    }

    /// The value `side`'s next reveal must hash to (its latest reveal or its
    /// commitment), if it has a commitment.
    pub fn latest_reveal(&self, side: Side) -> Option<Hash> {
        self.header.index_of(side).and_then(|i| self.latest[i])
    }

    /// The chance event waiting to be settled, if any.
    pub fn pending(&self) -> Option<PendingEvent> {
        let request = G::pending(&self.state)?;
        let (declared, declarer) = self.declared?;
        Some(PendingEvent {
            declared,
            side: declarer.name::<G>().into(),
            label: request.label,
            settled_by: G::to_move(&self.state).name::<G>().into(),
        })
    }

    /// Replay one turn of the record, checking everything.
    pub fn play(&mut self, turn: &Turn<'_>) -> Result<PlayedTurn<G>, RefereeError> {
        let number = self.next_turn();
        if turn.number != number {
            return Err(RefereeError::record(
                Some(turn.number_span),
                format!(
                    "turn {number} is numbered {}: turns count up from 1 without gaps",
                    turn.number
                ),
            )
            .at_turn(number, turn.side));
        }
        let Some(side) =
            game::side_by_name::<G>(turn.side).filter(|s| self.header.sides.contains(s))
        else {
            let names: Vec<&str> = self.header.sides.iter().map(|s| s.name::<G>()).collect();
            return Err(RefereeError::record(
                Some(turn.side_span),
                format!(
                    "unknown side `{}`: the sides of this game are {}",
                    turn.side,
                    names.join(", ")
                ),
            )
            .at_turn(number, turn.side));
        };
        let side_name = side.name::<G>();
        let illegal = |span: Span, action: Option<String>, reason: String| RefereeError {
            kind: ErrorKind::Illegal,
            span: Some(span),
            turn: Some(number),
            side: Some(side_name.into()),
            message: match &action {
                Some(a) => format!("{a}: {reason}"),
                None => reason,
            },
            action,
        };
        let outcome = G::outcome(&self.state);
        if outcome.is_over() {
            return Err(illegal(
                turn.span,
                None,
                format!(
                    "the game is already over ({}): no turn may follow",
                    match outcome {
                        Outcome::Won(w) => format!("{} won", w.name::<G>()),
                        _ => "a draw".into(),
                    }
                ),
            ));
        }
        let to_move = G::to_move(&self.state);
        if side != to_move {
            return Err(illegal(
                turn.side_span,
                None,
                format!("it is {}'s turn, not {side_name}'s", to_move.name::<G>()),
            ));
        }
        let index = self.header.index_of(side).expect("side in header");
        self.check_reveal(turn, side, index, number)?;
        if turn.is_bare_resign() && self.latest[index].is_some() {
            // A forfeit (RULINGS 1.8), written by another player for a side
            // that stopped answering: it settles nothing and draws nothing;
            // a pending event stays pending (declared where it was) for the
            // next player's reveal.
            let before = self.state.clone();
            let mut state = before.clone();
            G::resign(&mut state, side);
            let declared = self.declared;
            let played = PlayedTurn {
                number,
                side,
                before,
                actions: Vec::new(),
                resign: true,
                chance: Vec::new(),
            };
            let played = self.commit_turn(index, None, state, played);
            self.declared = declared.filter(|_| G::pending(&self.state).is_some());
            return Ok(played);
        }

        let (mut state, derived) = self
            .start_turn(turn.reveal.map(|r| r.value))
            .map_err(|e| illegal(turn.span, None, e.reason))?;
        if line_only_passes::<G>(&state, side) {
            // The pending event settled on this line ended the game or put
            // this side out: the line may carry nothing but its reveal.
            if let Some(item) = turn.actions().next() {
                return Err(illegal(
                    item.span,
                    Some(item.text.to_string()),
                    format!(
                        "{side_name} is out since {} settled at the start of this turn: the line may only pass",
                        derived.first().map_or("the pending event", |e| e.label)
                    ),
                ));
            }
            check_facts(turn, &derived, number, side_name)?;
            let played = PlayedTurn {
                number,
                side,
                before: state.clone(),
                actions: Vec::new(),
                resign: false,
                chance: derived,
            };
            return Ok(self.commit_turn(index, turn.reveal.map(|r| r.value), state, played));
        }
        let before = state.clone();
        let mut actions = Vec::with_capacity(turn.items.len());
        for item in turn.actions() {
            if G::outcome(&state).is_over() {
                return Err(illegal(
                    item.span,
                    Some(item.text.to_string()),
                    "the game ended with the action before".into(),
                ));
            }
            let action = G::parse_action(&state, &item.text).map_err(|e| {
                let start = (item.span.start + e.offset).min(item.span.end);
                let end = (start + e.len.max(1)).min(item.span.end.max(start + 1));
                RefereeError {
                    kind: ErrorKind::Parse,
                    span: Some(Span::new(start, end)),
                    turn: Some(number),
                    side: Some(side_name.into()),
                    action: Some(item.text.to_string()),
                    message: format!("{}: {}", item.text, e.reason),
                }
            })?;
            G::apply(&mut state, action)
                .map_err(|e| illegal(item.span, Some(item.text.to_string()), e.reason))?;
            actions.push(action);
        }
        let end_span = turn.pass.or(turn.resign).unwrap_or(turn.span);
        if turn.resign.is_some() {
            if G::outcome(&state).is_over() {
                return Err(illegal(
                    end_span,
                    Some("resign".into()),
                    "the game is already over".into(),
                ));
            }
            G::resign(&mut state, side);
        } else if !G::outcome(&state).is_over() {
            G::end_turn(&mut state).map_err(|e| {
                let what = if turn.pass.is_some() {
                    "pass"
                } else {
                    "end of turn"
                };
                illegal(end_span, Some(what.into()), e.reason)
            })?;
        }
        check_facts(turn, &derived, number, side_name)?;
        if let Some(request) = G::pending(&state) {
            // Chance after a decision is settled by the next player's
            // reveal: without that player's commitment it never can be, so
            // the declaring turn is the error (RULINGS 1.9).
            let settler = G::to_move(&state);
            if self.latest_reveal(settler).is_none() {
                let item = turn
                    .actions()
                    .find(|i| i.text.to_ascii_lowercase().starts_with(request.label))
                    .or_else(|| turn.actions().last());
                let reason = if self.header.commits.iter().all(Option::is_none) {
                    format!(
                        "this game has no commitments: {} needs them (see `herald keygen`)",
                        request.label
                    )
                } else {
                    format!(
                        "{} has no Commit tag: {} is settled by {}'s next reveal (see `herald keygen`)",
                        settler.name::<G>(),
                        request.label,
                        settler.name::<G>()
                    )
                };
                return Err(illegal(
                    item.map_or(turn.span, |i| i.span),
                    item.map(|i| i.text.to_string()),
                    reason,
                ));
            }
        }

        let played = PlayedTurn {
            number,
            side,
            before,
            actions,
            resign: turn.resign.is_some(),
            chance: derived,
        };
        Ok(self.commit_turn(index, turn.reveal.map(|r| r.value), state, played))
    }

    /// Make `played` (which left the game in `state`) part of the game.
    fn commit_turn(
        &mut self,
        index: usize,
        reveal: Option<Hash>,
        state: G::State,
        played: PlayedTurn<G>,
    ) -> PlayedTurn<G> {
        if let Some(r) = reveal {
            self.latest[index] = Some(r);
        }
        self.lines[index] += 1;
        self.turns = played.number;
        self.state = state;
        // An event pending now was declared by this turn (any earlier one
        // was settled at its start).
        self.declared = G::pending(&self.state).map(|_| (played.number, played.side));
        self.chance.extend(played.chance.iter().cloned());
        played
    }

    /// The position at the start of the next turn, for a mover whose line
    /// carries `reveal`: a pending event settled, turn-start bookkeeping and
    /// chance done. Returns the chance values derived.
    pub fn start_turn(
        &self,
        reveal: Option<Hash>,
    ) -> Result<(G::State, Vec<ChanceEvent>), Illegal> {
        let number = self.next_turn();
        let side = G::to_move(&self.state);
        let index = self
            .header
            .index_of(side)
            .ok_or_else(|| Illegal::new("the side to move is not in the header"))?;
        let mut derived = Vec::new();
        let mut state = self.state.clone();
        if let Some(request) = G::pending(&state) {
            let declared = self.declared.map_or(number - 1, |d| d.0);
            let Some(reveal) = reveal else {
                return crate::illegal!(
                    "this game has no commitments: {} needs them (see `herald keygen`)",
                    request.label
                );
            };
            // The settler's reveal and the latest of every other committed
            // player (the declarer's from line `declared` among them), as
            // for turn-start chance: the settler cannot know the value
            // before the declaring line, nor steer it with their key.
            let others: Vec<Hash> = self.others(index).flatten().collect();
            let seed = fairness::settle_seed(
                &self.header.game_id,
                declared,
                number,
                request.label,
                &reveal,
                &others,
            );
            let mut sampler = Sampler::new(&seed);
            let values: Vec<u32> = (0..request.count)
                .map(|_| sampler.below(request.n))
                .collect();
            for &value in &values {
                derived.push(ChanceEvent {
                    turn: number,
                    declared: Some(declared),
                    label: request.label,
                    value,
                    text: G::chance_text(request.label, value),
                    reveals_of: self.reveal_names(index),
                });
            }
            G::settle(&mut state, &values)
                .map_err(|e| Illegal::new(format!("{}: {e}", request.label)))?;
        }
        if line_only_passes::<G>(&state, side) {
            // The settlement ended the game, or put the settling player out
            // (their line then carries nothing but its reveal).
            return Ok((state, derived));
        }
        let mut chance = TurnChance {
            referee: self,
            index,
            turn: number,
            mover: reveal,
            samplers: Vec::new(),
            events: Vec::new(),
        };
        G::begin_turn(&mut state, &mut chance)?;
        derived.append(&mut chance.events);
        Ok((state, derived))
    }

    fn check_reveal(
        &self,
        turn: &Turn<'_>,
        side: Side,
        index: usize,
        number: u32,
    ) -> Result<(), RefereeError> {
        let name = side.name::<G>();
        match (self.latest[index], turn.reveal) {
            (None, None) => Ok(()),
            (None, Some(r)) => Err(RefereeError::record(
                Some(r.span),
                format!("{name} has no Commit tag, so its lines carry no reveal"),
            )
            .at_turn(number, name)),
            (Some(_), None) if turn.is_bare_resign() => Ok(()),
            (Some(_), None) => Err(RefereeError::record(
                Some(turn.span),
                format!(
                    "{name} has a Commit tag, so every {name} line carries a reveal (herald move --key)"
                ),
            )
            .at_turn(number, name)),
            (Some(previous), Some(r)) => {
                if chain_step(&self.header.chain_id, &r.value) == previous {
                    Ok(())
                } else {
                    let what = if self.lines[index] == 0 {
                        format!("{name}'s commitment")
                    } else {
                        format!("{name}'s previous reveal")
                    };
                    // Every chain is bound to the header: a header edited
                    // after the keys were made fails at the first reveal.
                    let header = if self.lines[index] == 0 {
                        " (or the header was changed after the Commit tags were made)"
                    } else {
                        ""
                    };
                    Err(RefereeError::record(
                        Some(r.span),
                        format!(
                            "this reveal does not hash to {what}: the line was not written with {name}'s key, or was altered{header}"
                        ),
                    )
                    .at_turn(number, name))
                }
            }
        }
    }

    /// The latest reveals (or commitments) of every side but `index`, in
    /// header order (`None` for a side without a Commit tag). Both kinds of
    /// chance seed end with these (RULINGS 1.4, 1.5).
    fn others(&self, index: usize) -> impl Iterator<Item = Option<Hash>> + '_ {
        (0..self.latest.len())
            .filter(move |&i| i != index)
            .map(|i| self.latest[i])
    }

    /// The sides whose reveals went into a seed drawn on `index`'s line: that
    /// side, then every other side with a Commit tag, in header order.
    fn reveal_names(&self, index: usize) -> Vec<String> {
        std::iter::once(index)
            .chain((0..self.latest.len()).filter(|&i| i != index && self.latest[i].is_some()))
            .map(|i| self.header.sides[i].name::<G>().to_owned())
            .collect()
    }

    /// The position at the start of the next turn, as far as it can be known
    /// before the mover writes the line: a pending event is not settled, and
    /// turn-start chance makes this fail with a reason.
    pub fn preview(&self) -> Result<G::State, Illegal> {
        let mut state = self.state.clone();
        G::begin_turn(&mut state, &mut game::Undrawn)?;
        Ok(state)
    }

    /// Check the `Result` tag against the game (after the last turn).
    pub fn check_result(&self) -> Result<(), RefereeError> {
        let computed = result_text::<G>(G::outcome(&self.state));
        if computed.eq_ignore_ascii_case(&self.header.result_tag) {
            Ok(())
        } else {
            Err(RefereeError::record(
                Some(self.header.result_span),
                format!(
                    "the Result tag says `{}` but the game's result is `{computed}`",
                    self.header.result_tag
                ),
            ))
        }
    }
}

/// Whether `side`'s line may carry nothing but its reveal (and the settled
/// facts) in `state`, its position after [`Referee::start_turn`]: the
/// event settled there ended the game or put `side` out.
pub fn line_only_passes<G: Game>(state: &G::State, side: Side) -> bool {
    G::outcome(state).is_over() || G::to_move(state) != side
}

/// Compare the chance facts written on a line with the derived values.
fn check_facts(
    turn: &Turn<'_>,
    derived: &[ChanceEvent],
    number: u32,
    side: &str,
) -> Result<(), RefereeError> {
    let mut next = derived.iter();
    for item in &turn.items {
        let ItemKind::Fact { label, value } = item.kind else {
            continue;
        };
        let err = |message: String| {
            Err(RefereeError {
                kind: ErrorKind::Record,
                span: Some(item.span),
                turn: Some(number),
                side: Some(side.into()),
                action: Some(item.text.to_string()),
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

/// Turn-start chance for the mover at `index`. Borrows the referee, so a
/// turn without chance costs nothing; the seed's inputs are gathered only
/// when the game draws.
struct TurnChance<'a, G: Game> {
    referee: &'a Referee<G>,
    index: usize,
    turn: u32,
    mover: Option<Hash>,
    samplers: Vec<(&'static str, Sampler)>,
    events: Vec<ChanceEvent>,
}

impl<G: Game> Chance for TurnChance<'_, G> {
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal> {
        let Some(mover) = self.mover else {
            return crate::illegal!(
                "this game has no commitments: {label} needs them (see `herald keygen`)"
            );
        };
        let Some(others) = self.referee.others(self.index).collect::<Option<Vec<_>>>() else {
            return crate::illegal!(
                "not every side has a Commit tag: {label} needs all of them (see `herald keygen`)"
            );
        };
        let k = match self.samplers.iter().position(|(l, _)| *l == label) {
            Some(k) => k,
            None => {
                let seed = fairness::turn_seed(
                    &self.referee.header.game_id,
                    self.turn,
                    label,
                    &mover,
                    &others,
                );
                self.samplers.push((label, Sampler::new(&seed)));
                self.samplers.len() - 1
            }
        };
        let value = self.samplers[k].1.below(n);
        self.events.push(ChanceEvent {
            turn: self.turn,
            declared: None,
            label,
            value,
            text: G::chance_text(label, value),
            reveals_of: self.referee.reveal_names(self.index),
        });
        Ok(value)
    }
}

/// Replay a whole record, calling `each` after every turn with the turn and
/// the referee after it. Stops at the first problem.
pub fn replay<G: Game>(
    record: &Record<'_>,
    mut each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, RefereeError> {
    let mut referee = Referee::<G>::start(record)?;
    for turn in &record.turns {
        let played = referee.play(turn)?;
        each(&played, &referee);
    }
    Ok(referee)
}

#[cfg(test)]
mod tests {
    //! Turn-start chance (RULINGS 1.4) through a minimal dice game: no
    //! engine of today draws at turn start, so the derivation is pinned
    //! here.
    use super::*;
    use crate::fairness::{chain_id, chain_prefix, turn_seed};
    use crate::game::{ActionParseError, DiagramStyle, OptionTag, SetupError};
    use crate::record::{self, Source};

    /// Three sides take turns; each turn rolls one six-sided `die`.
    #[derive(Debug)]
    struct Dice;

    #[derive(Clone, Debug)]
    struct Rolls {
        order: Vec<Side>,
        next: usize,
        rolls: Vec<u32>,
    }

    impl Game for Dice {
        type State = Rolls;
        type Action = ();
        const ID: &'static str = "dice";
        const TITLE: &'static str = "Dice";
        const SIDES: &'static [&'static str] = &["A", "B", "C"];
        const MIN_SIDES: usize = 2;
        const MAX_SIDES: usize = 3;
        const OPTIONS: &'static [OptionTag] = &[];

        fn new_game(setup: &Setup<'_>) -> Result<Rolls, SetupError> {
            Ok(Rolls {
                order: setup.sides.to_vec(),
                next: 0,
                rolls: Vec::new(),
            })
        }
        fn to_move(s: &Rolls) -> Side {
            s.order[s.next]
        }
        fn outcome(_: &Rolls) -> Outcome {
            Outcome::Ongoing
        }
        fn begin_turn(s: &mut Rolls, chance: &mut dyn Chance) -> Result<(), Illegal> {
            s.rolls.push(chance.draw("die", 6)?);
            Ok(())
        }
        fn parse_action(_: &Rolls, text: &str) -> Result<(), ActionParseError> {
            Err(ActionParseError::new(0, text.len(), "no actions"))
        }
        fn apply(_: &mut Rolls, _: ()) -> Result<(), Illegal> {
            Ok(())
        }
        fn end_turn(s: &mut Rolls) -> Result<(), Illegal> {
            s.next = (s.next + 1) % s.order.len();
            Ok(())
        }
        fn resign(_: &mut Rolls, _: Side) {}
        fn write_action(_: &(), _: &mut String) {}
        fn legal_actions(_: &Rolls, _: &mut Vec<()>) {}
        fn summary(_: &Rolls) -> String {
            String::new()
        }
        fn turn_comment(_: &Rolls, _: &Rolls) -> String {
            String::new()
        }
        fn diagram(_: &Rolls, _: DiagramStyle) -> String {
            String::new()
        }
        fn write_position(_: &Rolls, _: &mut String) {}
        fn parse_position(text: &str) -> Result<Rolls, crate::game::PositionParseError> {
            Err(crate::game::PositionParseError::within(
                text,
                0,
                text.len(),
                "no positions",
            ))
        }
    }

    const HEADER: [(&str, &str); 4] = [("Game", "dice"), ("C", "c"), ("A", "a"), ("B", "b")];

    /// A record of `turns` passes by C, A, B (header order), committed with
    /// the secrets [1; 32], [2; 32], [3; 32].
    fn record_text(turns: usize) -> (String, Vec<Vec<Hash>>) {
        let chain = chain_id(HEADER);
        let chains: Vec<Vec<Hash>> = (1..=3u8)
            .map(|k| chain_prefix(&[k; 32], &chain, 10))
            .collect();
        let mut text = String::new();
        for (name, value) in HEADER {
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        for (i, name) in ["C", "A", "B"].iter().enumerate() {
            text.push_str(&format!(
                "[{name}Commit \"{}\"]\n",
                hex::encode(chains[i][0])
            ));
        }
        text.push_str("[Result \"*\"]\n\n");
        for t in 0..turns {
            let side = t % 3;
            let line = t / 3 + 1;
            text.push_str(&format!(
                "{}. {}: pass reveal {}\n",
                t + 1,
                ["C", "A", "B"][side],
                hex::encode(chains[side][line])
            ));
        }
        (text, chains)
    }

    #[test]
    fn turn_start_chance_seeds_from_the_movers_reveal_and_the_others_latest_in_header_order() {
        let (text, chains) = record_text(4);
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let referee = replay::<Dice>(&rec, |_, _| {}).unwrap();
        let game = referee.header.game_id;
        // Turn 4: C's second line; A and B have revealed once each.
        let seed = turn_seed(
            &game,
            4,
            "die",
            &chains[0][2],
            &[chains[1][1], chains[2][1]],
        );
        assert_eq!(referee.state.rolls[3], Sampler::new(&seed).below(6));
        // Turn 2: A's first line; C revealed once, B only committed.
        let seed = turn_seed(
            &game,
            2,
            "die",
            &chains[1][1],
            &[chains[0][1], chains[2][0]],
        );
        assert_eq!(referee.state.rolls[1], Sampler::new(&seed).below(6));
        let event = &referee.chance[1];
        assert_eq!((event.turn, event.label), (2, "die"));
        assert_eq!(event.reveals_of, ["A", "C", "B"]);
        assert_eq!(event.text, (referee.state.rolls[1] + 1).to_string());
    }

    #[test]
    fn turn_start_chance_without_commitments_is_an_error_at_that_turn() {
        let text = "[Game \"dice\"]\n[A \"a\"]\n[B \"b\"]\n[Result \"*\"]\n\n1. A: pass\n";
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let err = replay::<Dice>(&rec, |_, _| {}).unwrap_err();
        assert_eq!((err.kind, err.turn), (ErrorKind::Illegal, Some(1)));
        assert!(err
            .message
            .contains("this game has no commitments: die needs them"));
    }
}
