//! The header of a record: tags read, checked and put in canonical case,
//! the sides in turn order with their contacts and commitments, and the
//! game id every derivation is bound to (spec section 3.2).

use super::RefereeError;
use crate::fairness::{self, Hash, Protocol};
use crate::game::{self, Game, Outcome, Setup, Side};
use crate::record::{self, Record, Span, Tag};
use ed25519_dalek::VerifyingKey;
use std::collections::HashSet;
use std::sync::OnceLock;

/// A side's seat: its place in a header's turn order (header order).
/// Only a [`Header`] makes one ([`Header::seat_of`], [`Header::seats`],
/// [`Header::seat_at`], ...), and only for a side it lists, so a seat
/// always names a side of the header that made it; lists the referee
/// keeps in turn order are indexed by [`Seat::index`]. Shown through the
/// header: [`Header::side`], [`Header::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// The seat's place in turn order, from 0: its index into the lists
    /// kept in turn order.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

#[cfg(test)]
impl Seat {
    /// A seat for a unit test of a component that numbers sides itself
    /// (a table of hands): never made so outside tests.
    pub(crate) fn test(index: u8) -> Seat {
        Seat(index)
    }
}

/// The header, checked. Sides, contacts and commitments are parallel
/// lists in turn order (header order), which is why the fields are private.
#[derive(Clone, Debug)]
pub struct Header {
    sides: Vec<Side>,
    contacts: Vec<String>,
    commits: Vec<Option<Hash>>,
    keys: Vec<Option<VerifyingKey>>,
    /// The game id and the chain id, each worked out from `tags` when
    /// first asked for: a record without commitments, keys or chance
    /// never needs them.
    game_id: OnceLock<Hash>,
    chain_id: OnceLock<Hash>,
    tags: Vec<(String, String)>,
    /// The `Deadline` tag's days (spec section 3.8), if the header has one.
    deadline: Option<i64>,
    /// The `Protocol` tag's version (spec section 3.1).
    protocol: Protocol,
    /// What each side's reveals are hashed under, in turn order, worked
    /// out with the chain id.
    side_chains: OnceLock<Vec<Hash>>,
    result_tag: String,
    result_span: Span,
    span: Span,
}

impl Header {
    /// Sides in turn order (header order).
    pub fn sides(&self) -> &[Side] {
        &self.sides
    }

    /// `side`'s seat, if it plays.
    #[inline]
    pub fn seat_of(&self, side: Side) -> Option<Seat> {
        self.sides.iter().position(|&s| s == side).map(Self::seat)
    }

    /// The seat at `index` in turn order, if the header has that many
    /// sides: for a place another list numbers (a hand's holder).
    #[inline]
    pub fn seat_at(&self, index: usize) -> Option<Seat> {
        (index < self.sides.len()).then(|| Self::seat(index))
    }

    /// The first seat in turn order (a header has at least one side).
    pub fn first_seat(&self) -> Seat {
        Seat(0)
    }

    /// Each seat once, in turn order.
    pub fn seats(&self) -> impl DoubleEndedIterator<Item = Seat> + ExactSizeIterator + Clone {
        (0..self.sides.len()).map(Self::seat)
    }

    /// Each seat once, in turn order from `first` round the table.
    pub fn seats_from(&self, first: Seat) -> impl Iterator<Item = Seat> + Clone {
        let n = self.sides.len();
        (0..n).map(move |k| Self::seat((first.index() + k) % n))
    }

    /// Each seat with its side, in turn order.
    pub fn seated(&self) -> impl DoubleEndedIterator<Item = (Seat, Side)> + '_ {
        self.seats().zip(self.sides.iter().copied())
    }

    /// The seat at `index`, which is below the number of sides (at most
    /// 256: sides are distinct `Side(u8)` values).
    #[inline]
    fn seat(index: usize) -> Seat {
        Seat(u8::try_from(index).expect("a header has at most 256 sides"))
    }

    /// The side in `seat`.
    #[inline]
    pub fn side(&self, seat: Seat) -> Side {
        self.sides[seat.index()]
    }

    /// The name of the side in `seat`, in game `G`.
    #[inline]
    pub fn name<G: Game>(&self, seat: Seat) -> &'static str {
        self.side(seat).name::<G>()
    }

    /// Each side's contact (the side tag's value), in turn order.
    pub fn contacts(&self) -> &[String] {
        &self.contacts
    }

    /// `side`'s commitment, the tip of its hash chain, if it has one.
    pub fn commit(&self, side: Side) -> Option<Hash> {
        self.seat_of(side).and_then(|s| self.commits[s.index()])
    }

    /// Each side's commitment, in turn order.
    pub fn commits(&self) -> &[Option<Hash>] {
        &self.commits
    }

    /// `side`'s public signing key (its `<Side>Key` tag), if it has one:
    /// then every line of `side` is signed (spec section 3.8).
    pub fn key(&self, side: Side) -> Option<&VerifyingKey> {
        self.seat_of(side)
            .and_then(|s| self.keys[s.index()].as_ref())
    }

    /// The signing key of the side in `seat`, if it has one.
    pub(super) fn key_at(&self, seat: Seat) -> Option<&VerifyingKey> {
        self.keys[seat.index()].as_ref()
    }

    /// Whether any side has a signing key.
    pub fn any_key(&self) -> bool {
        self.keys.iter().any(Option::is_some)
    }

    /// The game id (spec section 3.2).
    /// Under protocol 3 it is the chain id: it leaves out the Commit and
    /// Key tags, which may join the header after lines.
    pub fn game_id(&self) -> &Hash {
        if self.protocol.keys_join_late() {
            return self.chain_id();
        }
        self.game_id
            .get_or_init(|| fairness::game_id(self.tag_pairs()))
    }

    /// The chain id every hash chain of this game is bound to.
    pub fn chain_id(&self) -> &Hash {
        self.chain_id
            .get_or_init(|| fairness::chain_id(self.tag_pairs()))
    }

    /// Whether the game id and the chain id have been worked out.
    #[cfg(test)]
    pub(super) fn ids_worked_out(&self) -> (bool, bool) {
        (self.game_id.get().is_some(), self.chain_id.get().is_some())
    }

    /// Every tag, name and value, in file order.
    fn tag_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Every tag with its name in canonical case, in file order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The `Result` tag's value as written.
    pub fn result_tag(&self) -> &str {
        &self.result_tag
    }

    pub(super) fn result_span(&self) -> Span {
        self.result_span
    }

    /// The side of game `G` named `name` (any case) and its seat, if it
    /// plays in this game: [`Header::side_named`] and [`Header::seat_of`]
    /// in one look.
    /// A name as written is most often the canonical one: that is looked
    /// for first (no two sides' names differ just in case, so the side
    /// found is the same).
    pub(super) fn side_seat_named<G: Game>(&self, name: &str) -> Option<(Side, Seat)> {
        // Byte by byte: the names are a few letters, too short to be worth
        // a call to compare.
        let named = |s: &Side| {
            let own = s.name::<G>().as_bytes();
            own.len() == name.len() && own.iter().zip(name.as_bytes()).all(|(a, b)| a == b)
        };
        self.sides
            .iter()
            .position(named)
            .or_else(|| {
                self.sides
                    .iter()
                    .position(|s| s.name::<G>().eq_ignore_ascii_case(name))
            })
            .map(|i| (self.sides[i], Self::seat(i)))
    }

    /// The side of game `G` named `name` if it plays in this game.
    pub fn side_named<G: Game>(&self, name: &str) -> Option<Side> {
        game::side_by_name::<G>(name).filter(|s| self.sides.contains(s))
    }

    /// Why a game's first line cannot come when some sides have Commit
    /// (or Key) tags and others not: they can never be added later (under
    /// protocol 3, only with the side's first line, and a game is signed
    /// by every side or none), so those sides could never reveal (or
    /// sign), and chance would need them. `None` when the tags are even.
    pub fn uneven_tags<G: Game>(&self) -> Option<String> {
        let sides = self.sides();
        let commits: Vec<bool> = sides.iter().map(|&s| self.commit(s).is_some()).collect();
        let keys: Vec<bool> = sides.iter().map(|&s| self.key(s).is_some()).collect();
        for (what, has) in [("Commit", commits), ("Key", keys)] {
            let with = sides.iter().zip(&has).find(|(_, &h)| h).map(|(s, _)| s);
            let without = sides.iter().zip(&has).find(|(_, &h)| !h).map(|(s, _)| s);
            if let (Some(a), Some(b)) = (with, without) {
                let (a, b) = (a.name::<G>(), b.name::<G>());
                if self.protocol().keys_join_late() {
                    return Some(format!(
                        "{a} has a {a}{what} tag and {b} has none: under [Protocol \"3\"] a game is signed by every side or by none, and chance needs every side's commitment before turn 1; add {b}'s with {} first", super::Command::keygen(b)
                    ));
                }
                return Some(format!(
                    "{a} has a {a}{what} tag and {b} has none: Commit and Key tags are added before the first line and never after, so {b}'s lines could never carry a reveal or a signature (and chance needs them); add {b}'s with {}, or pass --no-commit to play so", super::Command::keygen(b)
                ));
            }
        }
        None
    }

    /// The names of the sides in turn order, joined by `, `.
    pub fn side_list<G: Game>(&self) -> String {
        let names: Vec<&str> = self.sides.iter().map(|s| s.name::<G>()).collect();
        names.join(", ")
    }

    /// Write the canonical header lines with `result` as the Result tag.
    pub fn write(&self, result: &str, out: &mut String) {
        let tags = self.tags.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        record::write_header(tags, result, out);
    }

    /// Read and check the header of `record` for game `G`, and set up the
    /// starting position.
    pub fn read<G: Game>(record: &Record<'_>) -> Result<(Header, G::State), RefereeError> {
        let read = read_tags::<G>(&record.tags)?;
        let span = Span::new(0, record.header_end.max(1));
        let (result_tag, result_span) = read.result.ok_or_else(|| {
            RefereeError::record(
                Some(span),
                "the header has no Result tag: [Result \"*\"] while the game runs",
            )
        })?;
        check_sides::<G>(record, &read.sides, span)?;
        let commits = by_side::<G, _>(&read.sides, read.commits, "Commit", span)?;
        let keys = by_side::<G, _>(&read.sides, read.keys, "Key", span)?;
        check_result_tag::<G>(&read.sides, &result_tag, result_span)?;
        let state = G::new_game(&Setup {
            sides: &read.sides,
            tags: &read.tags,
        })
        .map_err(|e| {
            let at = e
                .tag
                .as_deref()
                .and_then(|t| record.tag(t))
                .map_or(span, |t| t.value_span);
            RefereeError::record(Some(at), e.reason)
        })?;
        let deadline = match record
            .tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(DEADLINE_TAG))
        {
            Some(tag) => Some(
                tag.value
                    .parse::<i64>()
                    .ok()
                    .filter(|d| (1..=3650).contains(d))
                    .ok_or_else(|| {
                        RefereeError::record(
                            Some(tag.value_span),
                            "Deadline is a number of days from 1 to 3650 (herald new --deadline DAYS): a player has at least a day to answer before a forfeit may be claimed",
                        )
                    })?,
            ),
            None => None,
        };
        let protocol = match record
            .tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(Protocol::TAG))
        {
            Some(tag) => Protocol::from_tag(&tag.value).ok_or_else(|| {
                RefereeError::record(
                    Some(tag.value_span),
                    "Protocol is 3 (as herald new writes it) or 2; a record without the tag follows protocol 1",
                )
            })?,
            None => Protocol::One,
        };
        if protocol.binds_keys() {
            check_bound_pairs::<G>(&read.sides, &commits, &keys, span)?;
        }
        let header = Header {
            deadline,
            protocol,
            side_chains: OnceLock::new(),
            game_id: OnceLock::new(),
            chain_id: OnceLock::new(),
            sides: read.sides,
            contacts: read.contacts,
            commits,
            keys,
            tags: read.tags,
            result_tag,
            result_span,
            span,
        };
        Ok((header, state))
    }

    /// The days a side's step may be due before another player may claim
    /// its forfeit (the `Deadline` tag, spec section 3.8); `None` in a
    /// record without one.
    pub fn deadline(&self) -> Option<i64> {
        self.deadline
    }

    /// The whole header, for errors about it.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The protocol the record follows (its `Protocol` tag).
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// What the reveals of the side in `seat` are hashed under:
    /// the chain id, or in protocol 2 the chain id bound to the side's key
    /// (spec section 3.1).
    #[inline]
    pub fn side_chain(&self, seat: Seat) -> &Hash {
        &self.side_chains.get_or_init(|| {
            let chain = self.chain_id();
            self.keys
                .iter()
                .map(|k| {
                    self.protocol
                        .side_chain(chain, k.as_ref().map(|k| k.as_bytes()))
                })
                .collect()
        })[seat.index()]
    }
}

/// In protocol 2, a side's Commit and Key tags come together: its chain
/// is bound to its key, so a key removed, swapped or added alone is a
/// changed header, refused here or at the side's first reveal.
fn check_bound_pairs<G: Game>(
    sides: &[Side],
    commits: &[Option<Hash>],
    keys: &[Option<VerifyingKey>],
    span: Span,
) -> Result<(), RefereeError> {
    for ((side, commit), key) in sides.iter().zip(commits).zip(keys) {
        let name = side.name::<G>();
        let (has, lacks) = match (commit, key) {
            (Some(_), None) => ("Commit", "Key"),
            (None, Some(_)) => ("Key", "Commit"),
            _ => continue,
        };
        return Err(RefereeError::record(
            Some(span),
            format!(
                "{name}{has} has no {name}{lacks} beside it: under [Protocol \"2\"] or \"3\", a side's hash chain is bound to its signing key, so herald keygen adds the two tags together and neither is removed or added alone (this copy's header was changed)"
            ),
        ));
    }
    Ok(())
}

/// The tag that holds the days of a game's deadline.
pub const DEADLINE_TAG: &str = "Deadline";

/// Values given per side (`<Side>Commit`, `<Side>Key`), put in turn
/// order; a tag for a side that does not play is an error.
fn by_side<G: Game, T: Clone>(
    sides: &[Side],
    given: Vec<(Side, T)>,
    suffix: &str,
    span: Span,
) -> Result<Vec<Option<T>>, RefereeError> {
    let mut out = vec![None; sides.len()];
    for (side, value) in given {
        let Some(i) = sides.iter().position(|&s| s == side) else {
            return Err(RefereeError::record(
                Some(span),
                format!(
                    "{}{suffix} names a side that is not in this game",
                    side.name::<G>()
                ),
            ));
        };
        out[i] = Some(value);
    }
    Ok(out)
}

/// Up to this many tags, a header's duplicate names are looked for
/// among the tags read ([`read_tags`]); past it, in a hash set.
const FEW_TAGS: usize = 16;

/// The tags of a header, sorted by what they are.
struct ReadTags {
    tags: Vec<(String, String)>,
    sides: Vec<Side>,
    contacts: Vec<String>,
    commits: Vec<(Side, Hash)>,
    keys: Vec<(Side, VerifyingKey)>,
    result: Option<(String, Span)>,
}

/// The public key in a `<Side>Key` tag (spec section 3.8).
fn read_key(name: &str, tag: &Tag) -> Result<VerifyingKey, RefereeError> {
    let bad = |why: &str| RefereeError::record(Some(tag.value_span), format!("{name} {why}"));
    let mut bytes = [0u8; 32];
    if tag.value.len() != 64 || hex::decode_to_slice(&tag.value, &mut bytes).is_err() {
        return Err(bad("must be 64 hexadecimal digits (from `herald keygen`)"));
    }
    let key = VerifyingKey::from_bytes(&bytes)
        .map_err(|_| bad("is not an Ed25519 public key (from `herald keygen`)"))?;
    if key.is_weak() {
        return Err(bad(
            "is a weak Ed25519 key, which anyone could sign for: make a new one with `herald keygen`",
        ));
    }
    Ok(key)
}

fn read_tags<G: Game>(record_tags: &[Tag]) -> Result<ReadTags, RefereeError> {
    let mut read = ReadTags {
        tags: Vec::with_capacity(record_tags.len()),
        sides: Vec::new(),
        contacts: Vec::new(),
        commits: Vec::new(),
        keys: Vec::new(),
        result: None,
    };
    // The names seen so far, in lower case: a name is looked up once,
    // whatever the number of tags. A header of a few tags (most: the
    // game, the sides, the result) looks among the tags read instead,
    // without a name copied and hashed for each.
    let mut seen =
        (record_tags.len() > FEW_TAGS).then(|| HashSet::with_capacity(record_tags.len()));
    for tag in record_tags {
        let name = canonical_tag_name::<G>(&tag.name);
        let duplicate = match seen.as_mut() {
            Some(seen) => !seen.insert(name.to_ascii_lowercase()),
            None => read.tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name)),
        };
        if duplicate {
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
            if let Some(fault) = contact_fault(&tag.value) {
                return Err(RefereeError::record(
                    Some(tag.value_span),
                    format!("{name}'s contact {fault}"),
                ));
            }
            read.sides.push(side);
            read.contacts.push(tag.value.clone());
        } else if let Some(side) = commit_side::<G>(&name) {
            let mut h = [0u8; 32];
            if tag.value.len() != 64 || hex::decode_to_slice(&tag.value, &mut h).is_err() {
                return Err(RefereeError::record(
                    Some(tag.value_span),
                    format!("{name} must be 64 hexadecimal digits (from `herald keygen`)"),
                ));
            }
            read.commits.push((side, h));
        } else if let Some(side) = key_side::<G>(&name) {
            read.keys.push((side, read_key(&name, tag)?));
        } else if name == record::RESULT_TAG {
            read.result = Some((tag.value.clone(), tag.value_span));
        } else if let Some(other) = no_sides_key_tag(&name) {
            return Err(RefereeError::record(
                Some(tag.span),
                format!(
                    "{other} is not a side of {}: {name} is a side's key tag (herald keygen writes it), and the sides are {} (this copy's header was changed)",
                    G::TITLE,
                    G::SIDES.join(", ")
                ),
            ));
        }
        read.tags.push((name, value));
    }
    Ok(read)
}

/// How many sides `G` needs, as a player reads it (`2`, `2 to 5`).
fn sides_needed<G: Game>() -> String {
    if G::MIN_SIDES == G::MAX_SIDES {
        format!("{}", G::MIN_SIDES)
    } else {
        format!("{} to {}", G::MIN_SIDES, G::MAX_SIDES)
    }
}

fn check_sides<G: Game>(
    record: &Record<'_>,
    sides: &[Side],
    span: Span,
) -> Result<(), RefereeError> {
    let need = sides_needed::<G>();
    // A tag that names a player (its value is an address) but no side
    // of this game is a misspelt or foreign side: a player would be
    // left out of the game without a word.
    if let Some(tag) = record.tags.iter().find(|t| {
        t.value.contains('@')
            && game::side_by_name::<G>(&t.name).is_none()
            && commit_side::<G>(&t.name).is_none()
            && key_side::<G>(&t.name).is_none()
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
    // No side at all is refused whatever `G` asks: a header's seats begin
    // at its first ([`Header::first_seat`]).
    if sides.is_empty() || sides.len() < G::MIN_SIDES || sides.len() > G::MAX_SIDES {
        let listed: Vec<&str> = sides.iter().map(|s| s.name::<G>()).collect();
        return Err(RefereeError::record(
            Some(span),
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
    Ok(())
}

fn check_result_tag<G: Game>(
    sides: &[Side],
    result_tag: &str,
    result_span: Span,
) -> Result<(), RefereeError> {
    let listed: Vec<&str> = sides.iter().map(|s| s.name::<G>()).collect();
    // A side, or allies joined by `+`.
    let result_ok = result_tag == "*"
        || result_tag.eq_ignore_ascii_case("draw")
        || result_tag.eq_ignore_ascii_case(DRAW_BY_AGREEMENT)
        || result_tag
            .split('+')
            .all(|w| listed.iter().any(|s| s.eq_ignore_ascii_case(w)));
    if result_ok {
        return Ok(());
    }
    Err(RefereeError::record(
        Some(result_span),
        format!(
            "the Result tag is `*`, `draw`, `{DRAW_BY_AGREEMENT}` or a side of this game ({}), not `{result_tag}`",
            listed.join(", ")
        ),
    ))
}

fn canonical_tag_name<G: Game>(name: &str) -> String {
    if name.eq_ignore_ascii_case("Game") {
        return "Game".into();
    }
    if name.eq_ignore_ascii_case(record::RESULT_TAG) {
        return record::RESULT_TAG.into();
    }
    if let Some(side) = game::side_by_name::<G>(name) {
        return side.name::<G>().into();
    }
    if let Some(side) = commit_side::<G>(name) {
        return format!("{}Commit", side.name::<G>());
    }
    if let Some(side) = key_side::<G>(name) {
        return format!("{}Key", side.name::<G>());
    }
    if name.eq_ignore_ascii_case(Protocol::TAG) {
        return Protocol::TAG.into();
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
    suffixed_side::<G>(name, "Commit")
}

fn key_side<G: Game>(name: &str) -> Option<Side> {
    suffixed_side::<G>(name, "Key")
}

/// The name a `<Name>Commit` or `<Name>Key` tag gives, for a tag that
/// names no side of the game (`GreenKey` in Castle Danger): such a tag is
/// refused, as nothing checks or binds it (spec section 3.8). The name is
/// a word in capitals, so no other tag is taken for one.
fn no_sides_key_tag(name: &str) -> Option<&str> {
    let prefix = name
        .strip_suffix("Commit")
        .or_else(|| name.strip_suffix("Key"))?;
    let mut chars = prefix.chars();
    (chars.next()?.is_ascii_uppercase() && chars.all(|c| c.is_ascii_alphanumeric()))
        .then_some(prefix)
}

/// The side named by `name` less `suffix` (`BlueCommit`, `BlueKey`).
fn suffixed_side<G: Game>(name: &str, suffix: &str) -> Option<Side> {
    let cut = name.len().checked_sub(suffix.len())?;
    if !name.is_char_boundary(cut) || !name[cut..].eq_ignore_ascii_case(suffix) {
        return None;
    }
    game::side_by_name::<G>(&name[..cut])
}

/// The Result tag of a game drawn by agreement (spec section 3.10).
pub const DRAW_BY_AGREEMENT: &str = "draw:agreement";

/// The text of a result: `*`, the winner's name, or `draw`.
pub fn result_text<G: Game>(outcome: Outcome) -> String {
    match outcome {
        Outcome::Ongoing => "*".into(),
        Outcome::Draw => "draw".into(),
        won => won.winners::<G>().unwrap_or_default(),
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

/// Why `contact`, a side tag's value, cannot stand in a record and the
/// header of a mail ([`crate::record::Contact`]: one address, a name and
/// one address, or a name), in words. None when it can.
pub fn contact_fault(contact: &str) -> Option<String> {
    crate::record::Contact::fault(contact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{parse, Source, MAX_TAGS};

    /// The header of `text`, read for Castle Danger: its error, if any.
    fn header_error(text: &str) -> Option<RefereeError> {
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).unwrap();
        Header::read::<CastleDanger>(&record).err()
    }

    /// The header of `text`, read for Castle Danger.
    fn header(text: &str) -> Header {
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).unwrap();
        Header::read::<CastleDanger>(&record).unwrap().0
    }

    const RED_FIRST: &str =
        "[Game \"castle-danger\"]\n[Red \"c@d\"]\n[Blue \"a@b\"]\n[Result \"*\"]\n";

    #[test]
    fn a_seat_is_made_only_for_a_side_the_header_lists() {
        let header = header(RED_FIRST);
        assert_eq!(header.seat_at(0).map(Seat::index), Some(0));
        assert_eq!(header.seat_at(1).map(Seat::index), Some(1));
        // Past the last side: no seat, whatever the game's other sides.
        assert_eq!(header.seat_at(2), None);
        assert_eq!(header.seat_at(usize::MAX), None);
        // A side of the game seats where the header lists it.
        let red = game::side_by_name::<CastleDanger>("Red").unwrap();
        let blue = game::side_by_name::<CastleDanger>("Blue").unwrap();
        assert_eq!(header.seat_of(red), header.seat_at(0));
        assert_eq!(header.seat_of(blue), header.seat_at(1));
        assert_eq!(header.first_seat(), header.seat_at(0).unwrap());
        // A side that does not play has no seat.
        assert_eq!(header.seat_of(Side(7)), None);
    }

    #[test]
    fn the_seats_are_each_side_once_in_header_order() {
        let header = header(RED_FIRST);
        let names: Vec<&str> = header
            .seats()
            .map(|s| header.name::<CastleDanger>(s))
            .collect();
        assert_eq!(names, ["Red", "Blue"]);
        assert_eq!(header.seats().len(), header.sides().len());
        let seated: Vec<(usize, Side)> = header.seated().map(|(s, d)| (s.index(), d)).collect();
        assert_eq!(seated, [(0, header.sides()[0]), (1, header.sides()[1])]);
        for seat in header.seats() {
            assert_eq!(header.seat_of(header.side(seat)), Some(seat));
        }
    }

    #[test]
    fn a_header_without_sides_is_refused_so_it_has_a_first_seat() {
        let e = header_error("[Game \"castle-danger\"]\n[Result \"*\"]\n").expect("no sides");
        assert!(
            e.message.contains("the header names 0 (none)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_tag_name_given_twice_in_any_case_is_a_duplicate_named_at_the_second() {
        let mut text = String::from("[Game \"castle-danger\"]\n[Blue \"a@b\"]\n[Red \"c@d\"]\n");
        for k in 0..MAX_TAGS - 5 {
            text.push_str(&format!("[Event{k} \"x\"]\n"));
        }
        let second = text.len();
        text.push_str("[event17 \"y\"]\n[Result \"*\"]\n");
        let e = header_error(&text).expect("a duplicate");
        assert_eq!(e.span.map(|s| s.start), Some(second));
        assert!(e.message.contains("duplicate tag event17"), "{}", e.message);
        // The same header without the second one reads.
        let text = text.replace("[event17 \"y\"]\n", "");
        assert!(header_error(&text).is_none());
        // A header of a few tags is looked at the same way.
        let few = "[Game \"castle-danger\"]\n[Blue \"a@b\"]\n[Event \"x\"]\n[Red \"c@d\"]\n";
        for (second, name) in [
            ("[EVENT \"y\"]\n", "EVENT"),
            ("[blue \"e@f\"]\n", "Blue"),
            ("[result \"*\"]\n", "Result"),
        ] {
            let text = format!("{few}[Result \"*\"]\n{second}");
            let e = header_error(&text).expect("a duplicate");
            assert_eq!(e.span.map(|s| s.start), Some(text.len() - second.len()));
            let want = format!("duplicate tag {name}: a record has one of each tag");
            assert_eq!(e.message, want);
        }
        assert!(header_error(&format!("{few}[Result \"*\"]\n")).is_none());
    }
}
