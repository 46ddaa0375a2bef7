//! The one interface between the referee and the game engines.
//!
//! Every game is a module folder under `games/` that implements [`Game`].
//! Engines are pure: no I/O, no clock, no global randomness. Chance comes in
//! through [`Chance`] (turn-start events) and [`Game::settle`] (events declared
//! by one player and settled by the next player's reveal); the engine never
//! sees a key or a seed.
//!
//! Two kinds of failure are kept apart, as shakmaty keeps `ParseSanError`
//! apart from `SanError`:
//! - [`ActionParseError`]: the text is not an action of this game at all
//!   (reported with line:column);
//! - [`Illegal`]: the action parsed but is not allowed in this position
//!   (reported with turn, side and reason).

use std::fmt;

/// A side, as an index into [`Game::SIDES`] (e.g. for Castle Danger Blue is 0).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Side(pub u8);

impl Side {
    /// The side's canonical name in game `G`.
    pub fn name<G: Game>(self) -> &'static str {
        G::SIDES[usize::from(self.0)]
    }
}

impl From<Side> for usize {
    /// The side's index into [`Game::SIDES`], and into an engine's
    /// per-side arrays.
    fn from(side: Side) -> usize {
        usize::from(side.0)
    }
}

/// A set of sides playing as one team (at most 8 sides), in side order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Team(u8);

impl Team {
    /// The team of these sides.
    pub fn of(sides: &[Side]) -> Team {
        Team(sides.iter().fold(0, |bits, s| bits | (1 << s.0)))
    }

    /// Whether `side` plays in the team.
    pub fn contains(self, side: Side) -> bool {
        self.0 & (1 << side.0) != 0
    }

    /// The team's sides, in side order.
    pub fn sides(self) -> impl Iterator<Item = Side> {
        (0..8u8).filter(move |i| self.0 & (1 << i) != 0).map(Side)
    }
}

/// How a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The game is over and this side won.
    Won(Side),
    /// The game is over and these allies won together.
    TeamWon(Team),
    /// The game is over without a winner.
    Draw,
}

/// Where a game stands in its life, as the referee tracks it (spec
/// section 3.7).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// Before turn 1: sides commit to their hidden values, and open what
    /// the rules open once all have committed.
    Setup,
    /// Turns.
    Play,
    /// The rules ended the game; the result is provisional until every
    /// side has opened the hidden values it still holds.
    Audit,
    /// The game is over.
    Over,
}

impl Phase {
    /// `setup`, `play`, `audit` or `over`, as JSON and the spec write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Play => "play",
            Phase::Audit => "audit",
            Phase::Over => "over",
        }
    }
}

/// A hidden value that a side must open now, as the rules demand it
/// (an attacker's identity, a defender's).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Demand {
    /// The side that holds the value.
    pub side: Side,
    /// The value's slot.
    pub slot: &'static str,
}

/// A hidden choice made before the game (spec section 3.7), as
/// `herald setup --NAME TEXT` takes it: one letter a slot (an army),
/// or any text the game reads into its slots ([`Game::read_choice`]: a
/// maze of pieces).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SetupChoice {
    /// The option's name, e.g. `army`.
    pub name: &'static str,
    /// What to write, for `--help` and errors, e.g. `one letter per
    /// back-row square, a to j: R, P or S`.
    pub help: &'static str,
    /// The letters a slot may hold, for a choice of one letter a slot
    /// (what [`ChoiceDefault::Random`] and the default
    /// [`Game::sample_choice`] draw from); empty for a choice read as a
    /// whole text.
    pub letters: &'static str,
    /// What herald does when the player leaves the choice out.
    pub default: ChoiceDefault,
}

/// What happens to a [`SetupChoice`] the player leaves out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChoiceDefault {
    /// The player must make it.
    Required,
    /// herald draws one letter a slot at random (from the operating
    /// system's randomness, never from anything in the record).
    Random,
}

impl Outcome {
    /// True once the game is over.
    pub fn is_over(self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// Who won, as the Result tag names them in game `G`: a side's name,
    /// or allies' names joined by `+` (`North+South`).
    pub fn winners<G: Game>(self) -> Option<String> {
        match self {
            Outcome::Won(side) => Some(side.name::<G>().into()),
            Outcome::TeamWon(team) => {
                let names: Vec<&str> = team.sides().map(|s| s.name::<G>()).collect();
                Some(names.join("+"))
            }
            Outcome::Ongoing | Outcome::Draw => None,
        }
    }
}

/// An action that parsed but may not be made here, with a reason a player
/// understands, e.g. `c2 holds a Wall`. The referee adds the action text,
/// the turn and the side.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Illegal {
    /// The reason, without the action text in front.
    pub reason: String,
}

impl Illegal {
    /// An illegal action with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Illegal {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// Shorthand for `Err(Illegal::new(format!(...)))`.
#[macro_export]
macro_rules! illegal {
    ($($arg:tt)*) => {
        Err($crate::game::Illegal::new(format!($($arg)*)))
    };
}

/// Text that is not an action of the game. `offset` and `len` are byte
/// positions inside the action text that was given to [`Game::parse_action`],
/// so that the caller can underline the offending part.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ActionParseError {
    /// Byte offset of the offending part within the action text.
    pub offset: usize,
    /// Byte length of the offending part (at least 1 when the text is not empty).
    pub len: usize,
    /// What was expected, e.g. `expected a square such as c3`.
    pub reason: String,
}

impl ActionParseError {
    /// An error covering `offset..offset + len`.
    pub fn new(offset: usize, len: usize, reason: impl Into<String>) -> Self {
        ActionParseError {
            offset,
            len,
            reason: reason.into(),
        }
    }
}

/// Text that is not a position of the game (see [`Game::parse_position`]).
/// `offset` and `len` are byte positions inside the position text, so that
/// the caller can underline the offending part.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionParseError {
    /// Byte offset of the offending part within the position text.
    pub offset: usize,
    /// Byte length of the offending part (at least 1 when the text is not empty).
    pub len: usize,
    /// What is wrong, e.g. `row 5 is the river: nothing stands there`.
    pub reason: String,
}

impl PositionParseError {
    /// An error covering `offset..offset + len` of `text`, moved onto the
    /// last character when it starts at the end and kept on character
    /// boundaries, so that it always points inside a non-empty text.
    pub fn within(text: &str, offset: usize, len: usize, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        if text.is_empty() {
            return PositionParseError {
                offset: 0,
                len: 0,
                reason,
            };
        }
        let mut start = offset.min(text.len());
        if start == text.len() {
            start = text.char_indices().next_back().map_or(0, |(i, _)| i);
        }
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = start.saturating_add(len.max(1)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        if end == start {
            end = start + text[start..].chars().next().map_or(0, char::len_utf8);
        }
        PositionParseError {
            offset: start,
            len: end - start,
            reason,
        }
    }
}

impl fmt::Display for PositionParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}

/// One field of a position text, for reading it and pointing at its bytes.
#[derive(Clone, Copy, Debug)]
pub struct PositionField<'a> {
    /// The whole position text.
    pub text: &'a str,
    /// Byte offset of the field in `text`.
    pub start: usize,
    /// The field.
    pub value: &'a str,
}

impl PositionField<'_> {
    /// An error over `len` bytes at `rest`, a suffix of the field.
    pub fn err(&self, rest: &str, len: usize, reason: impl Into<String>) -> PositionParseError {
        let at = self.start + self.value.len().saturating_sub(rest.len());
        PositionParseError::within(self.text, at, len, reason)
    }

    /// An error over the whole field.
    pub fn whole(&self, reason: impl Into<String>) -> PositionParseError {
        PositionParseError::within(self.text, self.start, self.value.len(), reason)
    }
}

/// How a position field is made of parts separated by `/` (the rows or
/// columns of a board), for [`PositionField::parts`] and its messages.
#[derive(Clone, Copy, Debug)]
pub struct Parts {
    /// What the field is, e.g. `the board`.
    pub whole: &'static str,
    /// What its parts are, e.g. `rows`.
    pub name: &'static str,
    /// How many parts it has.
    pub count: usize,
    /// How they are ordered, e.g. `A to E` or `row 9 first`.
    pub order: &'static str,
}

impl<'a> PositionField<'a> {
    /// Read the field's parts, separated by `/`: `part(i, rest)` reads part
    /// `i` (from 0) at the start of `rest` and leaves `rest` at its end. A
    /// missing or extra part is an error that says how the field is made.
    pub fn parts(
        &self,
        parts: Parts,
        mut part: impl FnMut(usize, &mut &'a str) -> Result<(), PositionParseError>,
    ) -> Result<(), PositionParseError> {
        let Parts {
            whole,
            name,
            count,
            order,
        } = parts;
        let mut rest = self.value;
        for i in 0..count {
            part(i, &mut rest)?;
            if i + 1 < count {
                rest = rest.strip_prefix('/').ok_or_else(|| {
                    self.whole(format!(
                        "{whole} has {} {name}, expected {count} ({order}, separated by `/`)",
                        i + 1
                    ))
                })?;
            }
        }
        if !rest.is_empty() {
            return Err(self.err(
                rest,
                rest.len(),
                format!("{whole} has more than {count} {name} ({order}, separated by `/`)"),
            ));
        }
        Ok(())
    }
}

/// Split a position text into its `N` fields, separated by single spaces
/// (whitespace around the whole text is ignored); `names` name the fields
/// for the error messages.
pub fn position_fields<'a, const N: usize>(
    text: &'a str,
    names: [&str; N],
) -> Result<[PositionField<'a>; N], PositionParseError> {
    let expected = || format!("a position has {N} fields: {}", names.join(", "));
    let body = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let start = text.len() - body.len();
    let body = body.trim_end_matches(|c: char| c.is_ascii_whitespace());
    if body.is_empty() {
        return Err(PositionParseError::within(
            text,
            0,
            text.len(),
            format!("empty position: {}", expected()),
        ));
    }
    let mut out = [PositionField {
        text,
        start: 0,
        value: "",
    }; N];
    let mut at = start;
    let mut rest = body;
    for (i, slot) in out.iter_mut().enumerate() {
        if rest.is_empty() {
            return Err(PositionParseError::within(
                text,
                text.len(),
                1,
                format!("the {} field is missing: {}", names[i], expected()),
            ));
        }
        let len = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        if len == 0 {
            return Err(PositionParseError::within(
                text,
                at,
                1,
                "fields are separated by single spaces",
            ));
        }
        slot.start = at;
        slot.value = &rest[..len];
        rest = &rest[len..];
        at += len;
        if let Some(r) = rest.strip_prefix(' ') {
            if i + 1 == N {
                break;
            }
            rest = r;
            at += 1;
        } else if !rest.is_empty() {
            return Err(PositionParseError::within(
                text,
                at,
                1,
                "fields are separated by single spaces",
            ));
        }
    }
    if !rest.is_empty() {
        let extra = rest.trim_start_matches(' ');
        let off = at + (rest.len() - extra.len());
        return Err(PositionParseError::within(
            text,
            off,
            extra.len(),
            format!(
                "unexpected text after the {} field: {}",
                names[N - 1],
                expected()
            ),
        ));
    }
    Ok(out)
}

/// The header of a record as a game sees it when a game starts: the sides
/// in play, in turn order as listed, and every header tag (for options such
/// as `WhiteKeep` or `Options`).
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    /// The sides named in the header, in the order of their tags.
    pub sides: &'a [Side],
    /// Every tag of the header, name and value, in file order.
    pub tags: &'a [(String, String)],
}

impl<'a> Setup<'a> {
    /// The value of the tag `name` (case-insensitive), if present.
    pub fn tag(&self, name: &str) -> Option<&'a str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A header that does not describe a playable game of this kind
/// (wrong number of sides, a bad option value, ...).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SetupError {
    /// The tag at fault, if one is (for pointing at it).
    pub tag: Option<String>,
    /// What is wrong, e.g. `WhiteKeep must be a number from 1 to 6`.
    pub reason: String,
}

/// An option tag that a game reads from the header.
#[derive(Clone, Copy, Debug)]
pub struct OptionTag {
    /// Tag name, e.g. `WhiteKeep`.
    pub name: &'static str,
    /// Value used when the tag is absent (written by `herald new`).
    pub default: &'static str,
    /// One line for `herald new --help` and the spec.
    pub help: &'static str,
}

/// Chance at the start of a turn (spec section 3.3), and what the referee can
/// settle after it. The referee derives each value from the commitments;
/// a game only asks for numbers by label, and whether a side's next line
/// can settle what the mover declares.
pub trait Chance {
    /// A uniform integer in `0..n` for the event `label` (e.g. `die`).
    /// Fails when the game has no commitments to derive it from.
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal>;

    /// Name the value drawn last as the record writes it, where its
    /// text depends on the position rather than on the value alone (a
    /// card drawn by its place in what is left of the deck:
    /// `card=rotate90`). Without it the text is [`Game::chance_text`]'s.
    fn describe(&mut self, _text: String) {}

    /// Whether chance declared on this turn (a [`Game::pending`] event,
    /// spec section 3.4) could be settled by `side`'s next line: only the
    /// referee knows (it takes a reveal that side may not have). An engine
    /// whose actions declare such chance asks in [`Game::begin_turn`] for
    /// the side that will settle, and treats an action whose chance that
    /// side cannot settle as not possible: [`Game::legal_actions`] leaves
    /// it out and it does not keep [`Game::end_turn`] from passing. (The
    /// referee refuses such an action where it is written anyway.) Yes
    /// unless the referee says otherwise.
    fn can_settle(&self, _side: Side) -> bool {
        true
    }
}

/// Chance not known yet: every draw fails, saying so, and anything
/// declared is taken to be settleable. Tests of games without turn-start
/// chance use it for [`Game::begin_turn`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Undrawn;

impl Chance for Undrawn {
    fn draw(&mut self, label: &'static str, _n: u32) -> Result<u32, Illegal> {
        illegal!(
            "this turn's {label} is not drawn yet: it comes from the mover's reveal when the turn is written"
        )
    }
}

/// A chance event declared on a turn and settled by the next player's
/// reveal (spec section 3.4): `count` values, each uniform in `0..n`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ChanceRequest {
    /// The event's label, e.g. `rally`.
    pub label: &'static str,
    /// Each value is uniform in `0..n` (2 for a coin).
    pub n: u32,
    /// How many values (2 for the Goblin Horde's double flip).
    pub count: u32,
}

/// A piece on the board as a reader lists it (`show --format json`):
/// where it stands and, in games with hidden identities, what the viewer
/// knows of it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PieceView {
    /// Its side.
    pub side: Side,
    /// The square it stands on, e.g. `c3`.
    pub square: String,
    /// The hidden value's slot that holds its identity, if it has one.
    pub slot: Option<&'static str>,
    /// Its identity (`Rock`), or `None` where the viewer cannot know it.
    pub identity: Option<&'static str>,
    /// Whether its identity has been opened for everyone.
    pub opened: bool,
}

/// Options for drawing a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DiagramStyle {
    /// Box-drawing and other Unicode symbols instead of plain ASCII.
    pub unicode: bool,
}

/// The side a diagram marks as the one whose step is due, where it
/// marks one ([`Game::diagram_marking`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Marked {
    /// The position's side to move while the game is on (the position
    /// alone, as the engine holds it).
    #[default]
    Mover,
    /// The side whose turn the referee says is due (a claim's target
    /// while its answer is due, whoever the board says moves).
    Side(Side),
    /// None: the step due is no side's turn (keys, a set-up line, an
    /// audit), or the game is over.
    Nobody,
}

/// A kind of card of a game's shared deck: cards of one kind play
/// alike (Battlegates deals 34 cards of six kinds). The game numbers
/// its kinds in its own order ([`Game::card_kind`]); the referee ties a
/// card opened to an action that spends a card of its kind
/// ([`Game::card_spent`]) by this number, never by a name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CardKind(pub u32);

/// A game's shared deck for hidden hands (spec section 3.9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HiddenDeck {
    /// The physical cards, indices `0 .. cards`.
    pub cards: u32,
    /// The cards dealt to each hand before its first turn's draw.
    pub hand: u32,
}

/// One board game, driven generically by the referee and the CLI.
///
/// A turn is played as: [`Game::settle`] (if [`Game::pending`] says so),
/// [`Game::begin_turn`], then [`Game::apply`] for each action on the line,
/// then [`Game::end_turn`] (or [`Game::resign`] instead).
pub trait Game: Sized + 'static {
    /// The whole position, including whose turn it is and what has been
    /// spent of the current turn.
    type State: Clone + fmt::Debug;
    /// One action: small and `Copy`.
    type Action: Copy + Eq + fmt::Debug;

    /// The `Game` tag value, e.g. `castle-danger`.
    const ID: &'static str;
    /// The game's title, e.g. `Castle Danger`.
    const TITLE: &'static str;
    /// Every side name in canonical case; a [`Side`] indexes this list.
    const SIDES: &'static [&'static str];
    /// Fewest sides in one game.
    const MIN_SIDES: usize;
    /// Most sides in one game.
    const MAX_SIDES: usize;
    /// Header tags that configure the game.
    const OPTIONS: &'static [OptionTag];

    /// The starting position for these sides and tags.
    fn new_game(setup: &Setup<'_>) -> Result<Self::State, SetupError>;

    /// The value `herald new` writes for an option the player did not
    /// give, knowing the options given (name and value): a default that
    /// depends on another option, such as Battlegates' hands on the
    /// four-castle boards. By default the option's own default.
    fn option_default(option: &OptionTag, _given: &[(&str, String)]) -> &'static str {
        option.default
    }

    /// The side whose turn it is (meaningless once the game is over).
    fn to_move(state: &Self::State) -> Side;

    /// Whether the game is over, and how.
    fn outcome(state: &Self::State) -> Outcome;

    /// A chance event declared on an earlier turn that the next reveal
    /// settles, if one is waiting.
    fn pending(_state: &Self::State) -> Option<ChanceRequest> {
        None
    }

    /// How a chance value is written in the record and shown to players,
    /// e.g. `heads` for a coin, `4` for a die face. The record compares
    /// texts, so two values may share a text only when they mean the
    /// same (Battlegates' die has two faces showing 2). By default the
    /// value plus one (a die of `n` faces numbered from 1). A text that
    /// depends on the position is given by the engine when it draws
    /// ([`Chance::describe`]).
    fn chance_text(_label: &str, value: u32) -> String {
        (value + 1).to_string()
    }

    /// Apply the settled values of the [`Game::pending`] event, before the
    /// settling player's own actions.
    fn settle(_state: &mut Self::State, _values: &[u32]) -> Result<(), Illegal> {
        illegal!("no chance event is pending")
    }

    /// Before turn 1, once the set-up (spec section 3.7) is over: chance
    /// that the rules draw before anyone moves (Battlegates' opening roll,
    /// which decides who moves first, and the deal). The referee calls it
    /// once, as the line that completes the set-up is played, with chance
    /// seeded like turn-start chance for turn 0 from every side's latest
    /// reveal (spec section 3.3). A game without a set-up phase is never
    /// called. By default nothing happens.
    fn begin_play(_state: &mut Self::State, _chance: &mut dyn Chance) -> Result<(), Illegal> {
        Ok(())
    }

    /// During the set-up, the side that moves first if play begins, when
    /// nothing the set-up has still to show can change the turns (no
    /// roll decides who moves first, and a side put out before turn 1
    /// ends the game rather than being skipped): the hands of a shared
    /// deck then know, before the set-up ends, which cards are drawn
    /// before their first turns, and give their shares of them on a
    /// set-up line (spec section 3.9, the schedule's rule 3). By
    /// default `None`: the turns are known once play begins.
    fn first_mover_before_play(_state: &Self::State) -> Option<Side> {
        None
    }

    /// Start the turn of [`Game::to_move`]: turn-start bookkeeping and
    /// turn-start chance.
    fn begin_turn(state: &mut Self::State, chance: &mut dyn Chance) -> Result<(), Illegal>;

    /// Read one action, written in this game's notation. May look at the
    /// position (e.g. to resolve a move given by its ends only).
    fn parse_action(state: &Self::State, text: &str) -> Result<Self::Action, ActionParseError>;

    /// Make one action of the current turn.
    fn apply(state: &mut Self::State, action: Self::Action) -> Result<(), Illegal>;

    /// Finish the current turn, checking that it is complete (e.g. a
    /// mandatory action was made) and passing play on.
    fn end_turn(state: &mut Self::State) -> Result<(), Illegal>;

    /// `side` resigns (at the end of its turn's actions).
    fn resign(state: &mut Self::State, side: Side);

    /// Append the canonical notation of `action` to `out`.
    fn write_action(action: &Self::Action, out: &mut String);

    /// Every action legal now, in a stable order. Contract: each one can be
    /// followed by a turn that [`Game::end_turn`] accepts, and when the list
    /// is empty [`Game::end_turn`] succeeds. An action declaring chance
    /// that the side to settle it cannot settle ([`Chance::can_settle`],
    /// asked when the turn began) is not listed, and does not count as
    /// possible when [`Game::end_turn`] decides whether the turn may pass.
    fn legal_actions(state: &Self::State, out: &mut Vec<Self::Action>);

    /// What `action` costs of the turn's allowance, for games that count
    /// (e.g. Castle Danger's moves), else `None`.
    fn action_cost(_state: &Self::State, _action: &Self::Action) -> Option<u32> {
        None
    }

    /// One line on the position for a player, e.g.
    /// `Blue to move: 6 moves (1 Wizard)`.
    fn summary(state: &Self::State) -> String;

    /// A comment on a finished turn, comparing the position before its
    /// first action with the position after it, e.g.
    /// `5 of 6 moves; removed Red Cannon d7; Fire on d7`.
    fn turn_comment(before: &Self::State, after: &Self::State) -> String;

    /// The position as a text diagram with coordinates and a legend. May
    /// contain ANSI colour sequences; the CLI strips them where colour is off.
    fn diagram(state: &Self::State, style: DiagramStyle) -> String;

    /// [`Game::diagram`], with `marked` as the side whose step is due in
    /// a diagram that marks one (the referee knows the step due: keys, a
    /// set-up line, an audit or a claim's answer, whoever the board says
    /// moves). By default the diagram, which marks no side.
    fn diagram_marking(state: &Self::State, style: DiagramStyle, marked: Marked) -> String {
        let _ = marked;
        Self::diagram(state, style)
    }

    /// The position as a picture (the drawing model of [`crate::picture`]:
    /// cells, pieces, coordinates, caption), for `show --format svg` and
    /// the replay page. Drawn from the same data as [`Game::diagram`].
    /// `None` (the default) for a game that has no picture yet.
    fn picture(_state: &Self::State) -> Option<crate::picture::Picture> {
        None
    }

    // ------------------------------------------------------------------
    // Hidden values (spec section 3.7). The defaults describe a game with
    // none: no set-up phase, nothing to open, nothing to audit. An engine
    // never sees a hidden value until the referee has verified its opening
    // and calls [`Game::open`].

    /// The slots `side` commits to on its set-up line before turn 1, in
    /// the order the line lists them (e.g. one per back-row square). Empty
    /// by default: the game has no set-up phase.
    fn hidden_slots(_state: &Self::State, _side: Side) -> &'static [&'static str] {
        &[]
    }

    /// Of [`Game::hidden_slots`], those the rules open once every side has
    /// committed (e.g. opening throws), each side on a second set-up line.
    fn opened_after_setup(_state: &Self::State, _side: Side) -> &'static [&'static str] {
        &[]
    }

    /// Whether `value` may stand in `slot` at all (a value of the right
    /// kind); checked when a player chooses it and when it is opened.
    fn check_hidden(_slot: &str, value: &str) -> Result<(), Illegal> {
        illegal!("`{value}`: this game has no hidden values")
    }

    /// The openings the rules demand now. A demand that stands when a
    /// side's line begins is answered on that line before its actions (a
    /// defender's identity); one that the mover's own actions make is
    /// answered on the same line after them (an attacker's).
    fn demands(_state: &Self::State) -> Vec<Demand> {
        Vec::new()
    }

    /// A hidden value that the referee has verified against its
    /// commitment, now public: the engine learns it (and may settle what
    /// waited for it, such as a battle).
    fn open(
        _state: &mut Self::State,
        _side: Side,
        slot: &str,
        _value: &str,
    ) -> Result<(), Illegal> {
        illegal!("{slot}: this game has no hidden values")
    }

    /// The end-of-game audit (spec section 3.7): every hidden value `side`
    /// held, now opened, checked against the set-up rules (e.g. an army
    /// with at least one of each kind). The values come in slot order.
    fn audit(_state: &Self::State, _side: Side, _values: &[(&str, &str)]) -> Result<(), Illegal> {
        Ok(())
    }

    // ------------------------------------------------------------------
    // Hidden hands from a shared deck (spec section 3.9). The defaults
    // describe a game without one. The referee keeps the deck (card keys,
    // passes, shares); an engine never sees cryptography: it learns that
    // a card was drawn once the referee has verified every share the
    // draw needs, and which card it is only when the card is opened (or,
    // in its drawer's own view, from the drawer's key).

    /// The shared deck this position deals hidden hands from, if any:
    /// how many cards, and how many each hand is dealt.
    fn hidden_deck(_state: &Self::State) -> Option<HiddenDeck> {
        None
    }

    /// `side` drew these cards at the start of its turn, after
    /// [`Game::begin_turn`]: each `Some(card)` (the card's index, in the
    /// game's order) where the one viewing knows it, `None` where it
    /// stays hidden.
    fn receive_cards(
        _state: &mut Self::State,
        _side: Side,
        _cards: &[Option<u32>],
    ) -> Result<(), Illegal> {
        illegal!("this game deals no hidden cards")
    }

    /// A hidden card of `side`'s hand is opened as card `card` (to be
    /// played or discarded on the line that opens it): the engine now
    /// knows it.
    fn open_card(_state: &mut Self::State, _side: Side, _card: u32) -> Result<(), Illegal> {
        illegal!("this game deals no hidden cards")
    }

    /// The name of card `card` for a player (`rotate90`); by default its
    /// number.
    fn card_text(card: u32) -> String {
        card.to_string()
    }

    /// The kind of card `card`: cards of one kind play alike, and an
    /// action that spends a card names its kind ([`Game::card_spent`]).
    /// By default every card is a kind of its own, numbered as the card.
    fn card_kind(card: u32) -> CardKind {
        CardKind(card)
    }

    /// The name of card kind `kind` for a player (`rotate90`); by
    /// default that of the card numbered as the kind (as
    /// [`Game::card_kind`] numbers them by default).
    fn kind_text(kind: CardKind) -> String {
        Self::card_text(kind.0)
    }

    /// The kind of card `action` spends from the mover's hand (plays or
    /// discards), if it spends one; asked in the position before the
    /// action. The referee ties each card a line opens to an action that
    /// spends a card of its kind ([`Game::card_kind`]), and refuses a line
    /// whose openings and actions do not match (spec section 3.9,
    /// "Openings"). By default no action spends a card.
    fn card_spent(_state: &Self::State, _action: &Self::Action) -> Option<CardKind> {
        None
    }

    /// The discard pile was made the next deck of the shared deck, at
    /// the start of a line (spec section 3.9, the schedule's rule 6).
    fn cards_reshuffled(_state: &mut Self::State) {}

    /// The side that holds the hand `side` draws into and plays from, in
    /// the starting position: by default `side` itself. Sides with one
    /// holder share one hand (spec section 3.9, "Shared hands"): the
    /// deck deals to the hand, whose card key, passes and shares are
    /// the holder's, made from the holder's key file, and stand on the
    /// lines of whichever of its sides writes next. The engine is told
    /// of a draw and an opened card by the side whose line it is
    /// ([`Game::receive_cards`], [`Game::open_card`]) and keeps the
    /// shared hand itself.
    fn hand_holder(_state: &Self::State, side: Side) -> Side {
        side
    }

    /// Whether `side` still takes its turns in `state`: by default every
    /// side does. The turns go round the sides in header order from the
    /// side to move, skipping a side that does not (a Battlegates castle
    /// without characters). The shared deck's schedule follows it: a
    /// hand's line owes its share of every card the other hands draw on
    /// the turns before its next one, as this order has them after the
    /// line (spec section 3.9, "Shared hands").
    fn takes_turns(_state: &Self::State, _side: Side) -> bool {
        true
    }

    /// The position as `viewer` sees it, knowing its own hidden values
    /// (`values`, by slot), for its diagram and its list of legal actions.
    /// By default what anyone sees.
    fn view(state: &Self::State, _viewer: Side, _values: &[(&str, &str)]) -> Self::State {
        state.clone()
    }

    /// The hidden values a player chooses before committing, each given to
    /// `herald setup` as `--NAME TEXT` (an army, a set of throws). Empty by
    /// default.
    const SETUP_CHOICES: &'static [SetupChoice] = &[];

    /// The slots of `side` that choice `name` (one of
    /// [`Game::SETUP_CHOICES`]) fills, in the order its text lists them.
    fn choice_slots(_state: &Self::State, _side: Side, _name: &str) -> &'static [&'static str] {
        &[]
    }

    /// Read the text of choice `name` for `side`: the value of each of its
    /// slots, or why the text is no such choice (wrong length, a value
    /// that cannot stand there). Whether the whole set of values obeys the
    /// set-up rules is [`Game::audit`]'s to say.
    fn read_choice(
        _state: &Self::State,
        _side: Side,
        name: &str,
        _text: &str,
    ) -> Result<Vec<(&'static str, String)>, Illegal> {
        illegal!("this game has no {name} to choose")
    }

    /// Values for choice `name` of `side` drawn at random, for self-play:
    /// `pick(n)` gives a number in `0..n`. By default one letter of the
    /// choice's [`SetupChoice::letters`] a slot; a game whose choice is
    /// not one letter a slot draws its own (and may draw again until the
    /// values obey its set-up rules).
    fn sample_choice(
        state: &Self::State,
        side: Side,
        name: &str,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Vec<(&'static str, String)> {
        let Some(choice) = Self::SETUP_CHOICES.iter().find(|c| c.name == name) else {
            return Vec::new();
        };
        let letters: Vec<char> = choice.letters.chars().collect();
        if letters.is_empty() {
            return Vec::new();
        }
        Self::choice_slots(state, side, name)
            .iter()
            .map(|&slot| {
                (
                    slot,
                    letters[pick(letters.len()) % letters.len()].to_string(),
                )
            })
            .collect()
    }

    /// The pieces on the board with what the viewer of `state` knows of
    /// them, for games whose pieces hide identities; `None` (the default)
    /// for games whose position notation says all there is.
    fn pieces(_state: &Self::State) -> Option<Vec<PieceView>> {
        None
    }

    /// Append the position notation of `state` to `out`: one line of
    /// ASCII fields separated by single spaces (board, side to move and the
    /// rest of what the game needs to go on; `docs/games/<game>.md`, "Position
    /// notation"). Canonical: one text per position.
    ///
    /// A position is taken between turns (after [`Game::end_turn`] or
    /// [`Game::resign`], or before a game's first turn): what is spent of a
    /// turn in progress and the turn log behind [`Game::turn_comment`] are
    /// not part of it.
    fn write_position(state: &Self::State, out: &mut String);

    /// Read a position written by [`Game::write_position`]. The state read
    /// behaves as the one written: same legal actions once its turn begins,
    /// same diagram, summary and outcome, and it writes the same text.
    /// Never panics; an error points at the offending bytes with a reason.
    fn parse_position(text: &str) -> Result<Self::State, PositionParseError>;
}

/// The position notation of `state` ([`Game::write_position`]).
pub fn position_text<G: Game>(state: &G::State) -> String {
    let mut s = String::new();
    G::write_position(state, &mut s);
    s
}

/// The widest line herald writes for people to read (diagrams, summaries,
/// notes): mail clients keep lines of up to 78 characters as they are.
pub const TEXT_WIDTH: usize = 78;

/// `text` broken at spaces into lines of at most `width` characters, every
/// line after the first starting with `indent` (the first keeps the spaces
/// `text` starts with). A word longer than a line stands alone on its
/// line; runs of spaces between words become one.
pub fn wrap_words(text: &str, width: usize, indent: &str) -> Vec<String> {
    let body = text.trim_start_matches(' ');
    let mut line = text[..text.len() - body.len()].to_owned();
    let mut len = line.len();
    let mut words = 0;
    let mut lines = Vec::new();
    for word in body.split(' ').filter(|w| !w.is_empty()) {
        let n = word.chars().count();
        if words > 0 && len + 1 + n > width {
            lines.push(std::mem::replace(&mut line, indent.to_owned()));
            len = indent.chars().count();
            words = 0;
        }
        if words > 0 {
            line.push(' ');
            len += 1;
        }
        line.push_str(word);
        len += n;
        words += 1;
    }
    lines.push(line);
    lines
}

/// The canonical text of one action.
pub fn action_text<G: Game>(action: &G::Action) -> String {
    let mut s = String::new();
    G::write_action(action, &mut s);
    s
}

/// Look up a side of game `G` by name, case-insensitively.
pub fn side_by_name<G: Game>(name: &str) -> Option<Side> {
    G::SIDES
        .iter()
        .position(|s| s.eq_ignore_ascii_case(name))
        .map(|i| Side(i as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_wraps_at_spaces_within_the_width() {
        let text = "Note: rally by Human settles with this turn's reveal, before the actions: \
                    give --key with Elf's key to list them";
        let lines = wrap_words(text, TEXT_WIDTH, "  ");
        assert_eq!(
            lines,
            [
                "Note: rally by Human settles with this turn's reveal, before the actions: give",
                "  --key with Elf's key to list them",
            ]
        );
        // The first line keeps its indent; a word too long stands alone.
        assert_eq!(
            wrap_words("  ab cd efghij kl", 6, "    "),
            ["  ab", "    cd", "    efghij", "    kl"]
        );
        assert_eq!(wrap_words("short", 78, "  "), ["short"]);
        assert_eq!(wrap_words("", 78, "  "), [""]);
    }
}
