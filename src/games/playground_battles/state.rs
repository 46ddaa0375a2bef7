//! The position: twenty pieces (ten a side, each known by the back-row
//! square it started on), the board they stand on, whose turn it is, the
//! roll, and what waits for an opening (a battle, a piece entering a
//! stalemate).

use std::fmt;
use std::num::NonZeroU8;

use crate::game::{Outcome, Side};

use super::action::Choice;
use super::board::{opponent, Sq, ARMY_SLOTS, BLUE, COLS, RED, SQUARES, THROWS};

/// Rock, Paper or Scissors: a piece's hidden identity, or a throw.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    /// Beats Scissors.
    Rock,
    /// Beats Rock.
    Paper,
    /// Beats Paper.
    Scissors,
}

impl Kind {
    /// All three, in letter order R, P, S.
    pub const ALL: [Kind; 3] = [Kind::Rock, Kind::Paper, Kind::Scissors];

    /// `R`, `P` or `S`.
    pub fn letter(self) -> char {
        match self {
            Kind::Rock => 'R',
            Kind::Paper => 'P',
            Kind::Scissors => 'S',
        }
    }

    /// The kind written with this letter (any case).
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'R' => Some(Kind::Rock),
            'P' => Some(Kind::Paper),
            'S' => Some(Kind::Scissors),
            _ => None,
        }
    }

    /// The kind a hidden value names: exactly `R`, `P` or `S`.
    pub fn from_value(value: &str) -> Option<Kind> {
        match value {
            "R" => Some(Kind::Rock),
            "P" => Some(Kind::Paper),
            "S" => Some(Kind::Scissors),
            _ => None,
        }
    }

    /// `Rock`, `Paper` or `Scissors`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Rock => "Rock",
            Kind::Paper => "Paper",
            Kind::Scissors => "Scissors",
        }
    }

    /// The plural, for a stalemate of two: `Rocks`, `Papers`, `Scissors`.
    pub fn plural(self) -> &'static str {
        match self {
            Kind::Rock => "Rocks",
            Kind::Paper => "Papers",
            Kind::Scissors => "Scissors",
        }
    }

    /// Whether `self` beats `other`: Rock beats Scissors, Scissors beats
    /// Paper, Paper beats Rock.
    pub fn beats(self, other: Kind) -> bool {
        matches!(
            (self, other),
            (Kind::Rock, Kind::Scissors)
                | (Kind::Scissors, Kind::Paper)
                | (Kind::Paper, Kind::Rock)
        )
    }

    /// The kind that beats `self`.
    pub fn beaten_by(self) -> Kind {
        match self {
            Kind::Rock => Kind::Paper,
            Kind::Paper => Kind::Scissors,
            Kind::Scissors => Kind::Rock,
        }
    }
}

/// One piece: `side * 10 + column` of the back-row square it started on
/// (its index), kept plus one, so that `Option<PieceId>` takes one byte:
/// each of the board's 160 places is one byte, and the position is
/// copied every turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(NonZeroU8);

impl PieceId {
    /// The piece with index `index` (`side * 10 + column`).
    fn from_index(index: u8) -> PieceId {
        PieceId(NonZeroU8::MIN.saturating_add(index))
    }

    /// The piece of `side` that started on column `origin` (0 = `a`).
    pub fn new(side: Side, origin: u8) -> PieceId {
        PieceId::from_index(side.0 * COLS + origin)
    }

    /// Its index, `side * 10 + column`.
    fn index(self) -> u8 {
        self.0.get() - 1
    }

    /// Its side.
    pub fn side(self) -> Side {
        Side(self.index() / COLS)
    }

    /// The column of the back-row square it started on (0 = `a`).
    pub fn origin(self) -> u8 {
        self.index() % COLS
    }

    /// Its hidden value's slot: the back-row square it started on (`c1`).
    pub fn slot(self) -> &'static str {
        ARMY_SLOTS[usize::from(self.side().0)][usize::from(self.origin())]
    }

    /// The ten pieces of `side`, a to j (none for a side not in the
    /// game).
    pub fn of(side: Side) -> impl Iterator<Item = PieceId> {
        let count = if side == BLUE || side == RED { COLS } else { 0 };
        (0..count).map(move |origin| PieceId::new(side, origin))
    }

    /// Every piece, Blue's a to j, then Red's.
    pub fn all() -> impl Iterator<Item = PieceId> {
        (0..2 * COLS).map(PieceId::from_index)
    }

    fn idx(self) -> usize {
        usize::from(self.index())
    }
}

impl fmt::Debug for PieceId {
    /// `PieceId(12)`, by its index.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PieceId").field(&self.index()).finish()
    }
}

/// What the engine knows of a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Piece {
    /// Where it stands; `None` once it has left the board.
    pub at: Option<Sq>,
    /// Its identity, when known: opened (public), or in a player's own
    /// view, that player's own.
    pub kind: Option<Kind>,
    /// Whether its identity has been opened in the record.
    pub public: bool,
}

/// An attack waiting for the identities of its two pieces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Battle {
    /// The square fought over (the defender's).
    pub at: Sq,
    /// The piece that moved in.
    pub attacker: PieceId,
    /// The piece that stood there.
    pub defender: PieceId,
}

/// A piece that moved onto a stalemate square, waiting for its own
/// identity (its owner opens it on the same line).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The stalemate square.
    pub at: Sq,
    /// The piece that entered.
    pub piece: PieceId,
    /// The rescue choice written with the move, if any.
    pub choice: Option<Choice>,
}

/// How the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// It goes on.
    None,
    /// A piece of this side entered the opponent's base.
    Base(Side),
    /// This side resigned.
    Resigned(Side),
    /// This side began its turn with no free piece (none on the board, or
    /// all locked in stalemates).
    NoFreePiece(Side),
    /// Neither side had a free piece.
    NoFreePieces,
}

/// Something that happened during a turn, for its comment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// A battle was decided: the winner stays, the loser leaves.
    Won {
        /// The square.
        at: Sq,
        /// The piece that stays.
        winner: PieceId,
        /// The piece that leaves.
        loser: PieceId,
    },
    /// A battle of two alike: both locked on the square.
    Stalemate {
        /// The square.
        at: Sq,
        /// The identity both hold.
        kind: Kind,
    },
    /// A piece attacked; the battle waits for the defender's identity.
    Attack {
        /// The square.
        at: Sq,
        /// The attacker.
        attacker: PieceId,
    },
    /// A stalemate broken: the enemy piece removed, one piece kept on the
    /// square, the other sent to the back row (or out, when it is full).
    Rescue {
        /// The square.
        at: Sq,
        /// The piece kept on the square.
        kept: PieceId,
        /// Where the other went (`None`: it left the game).
        sent: Option<Sq>,
    },
    /// A piece entered a stalemate without the winning identity: lost.
    LostEntering {
        /// The square.
        at: Sq,
        /// The piece lost.
        piece: PieceId,
    },
    /// A piece entered the opponent's base from this square.
    Base {
        /// The piece.
        piece: PieceId,
        /// The back-row square it stepped in from.
        from: Sq,
    },
    /// No piece could use the roll.
    Passed,
}

/// What happened during the current turn (at most a few events).
pub type Log = [Option<Event>; 4];

/// A Playground Battles position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    pieces: [Piece; 20],
    /// Per square, the pieces standing there: one, or two (a stalemate,
    /// or a battle waiting for its openings). Kept in step with `pieces`.
    board: [[Option<PieceId>; 2]; SQUARES],
    /// The side whose turn it is (or comes next).
    pub to_move: Side,
    /// This turn's roll, 1 to 6, once the turn has begun.
    pub roll: Option<u8>,
    /// Whether the mover has moved this turn.
    pub moved: bool,
    /// The battle waiting for openings, if any.
    pub battle: Option<Battle>,
    /// The stalemate entry waiting for the mover's opening, if any.
    pub entry: Option<Entry>,
    /// The opening throws opened so far, per side.
    pub throws: [[Option<Kind>; THROWS]; 2],
    /// How the game stands.
    pub outcome: Outcome,
    /// How it ended.
    pub end: End,
    /// What happened this turn.
    pub log: Log,
}

impl State {
    /// The start: each side's ten pieces on its back row, identities
    /// unknown, Blue to move until the opening throws say otherwise.
    pub fn start() -> State {
        let mut s = State::empty();
        for side in [BLUE, RED] {
            let row = super::board::back_row(side);
            for col in 0..COLS {
                s.put(PieceId::new(side, col), Sq::new(col, row));
            }
        }
        s
    }

    /// A board with no pieces on it, Blue to move.
    pub fn empty() -> State {
        State {
            pieces: [Piece::default(); 20],
            board: [[None; 2]; SQUARES],
            to_move: BLUE,
            roll: None,
            moved: false,
            battle: None,
            entry: None,
            throws: [[None; THROWS]; 2],
            outcome: Outcome::Ongoing,
            end: End::None,
            log: [None; 4],
        }
    }

    /// What the engine knows of piece `id`.
    pub fn piece(&self, id: PieceId) -> Piece {
        self.pieces[id.idx()]
    }

    /// The pieces on `sq`: the one that stood there first, then the one
    /// that came second (a stalemate's, or a battle's attacker).
    pub fn at(&self, sq: Sq) -> [Option<PieceId>; 2] {
        self.board[sq.idx()]
    }

    /// The one piece on `sq` when it holds exactly one.
    pub fn single(&self, sq: Sq) -> Option<PieceId> {
        match self.board[sq.idx()] {
            [Some(p), None] => Some(p),
            _ => None,
        }
    }

    /// Whether `sq` holds two pieces locked in a stalemate.
    pub fn is_stalemate(&self, sq: Sq) -> bool {
        self.board[sq.idx()][1].is_some() && self.battle.is_none_or(|b| b.at != sq)
    }

    /// Whether nothing stands on `sq`.
    pub fn is_empty(&self, sq: Sq) -> bool {
        self.board[sq.idx()][0].is_none()
    }

    /// Whether `id` stands on the board free to move: alone on its square.
    pub fn is_free(&self, id: PieceId) -> bool {
        self.piece(id)
            .at
            .is_some_and(|sq| self.single(sq) == Some(id))
    }

    /// The pieces of `side` free to move, in square order.
    pub fn free_pieces(&self, side: Side) -> impl Iterator<Item = PieceId> + '_ {
        Sq::all()
            .filter_map(move |sq| self.single(sq))
            .filter(move |p| p.side() == side)
    }

    /// Whether `side` has a piece free to move: what
    /// `free_pieces(side).next().is_some()` says, found among the side's
    /// ten pieces instead of the eighty squares.
    pub fn has_free_piece(&self, side: Side) -> bool {
        PieceId::of(side).any(|p| self.is_free(p))
    }

    /// How many pieces of `side` stand on the board.
    pub fn on_board(&self, side: Side) -> usize {
        PieceId::all()
            .filter(|p| p.side() == side && self.piece(*p).at.is_some())
            .count()
    }

    /// Place `id` on `sq` (beside whatever stands there).
    pub fn put(&mut self, id: PieceId, sq: Sq) {
        self.lift(id);
        let cell = &mut self.board[sq.idx()];
        if cell[0].is_none() {
            cell[0] = Some(id);
        } else {
            cell[1] = Some(id);
        }
        self.pieces[id.idx()].at = Some(sq);
    }

    /// Take `id` off its square (it leaves the board unless put again).
    pub fn lift(&mut self, id: PieceId) {
        if let Some(sq) = self.pieces[id.idx()].at.take() {
            let cell = &mut self.board[sq.idx()];
            if cell[0] == Some(id) {
                *cell = [cell[1], None];
            } else if cell[1] == Some(id) {
                cell[1] = None;
            }
        }
    }

    /// Move `id` onto `sq` without counting it among the square's pieces:
    /// a piece entering a stalemate, until its identity decides whether it
    /// is a rescue.
    pub fn hold(&mut self, id: PieceId, sq: Sq) {
        self.lift(id);
        self.pieces[id.idx()].at = Some(sq);
    }

    /// Learn `id`'s identity; `public` when it was opened in the record.
    pub fn learn(&mut self, id: PieceId, kind: Kind, public: bool) {
        let p = &mut self.pieces[id.idx()];
        p.kind = Some(kind);
        p.public |= public;
    }

    /// Add `event` to this turn's log.
    pub fn note(&mut self, event: Event) {
        if let Some(slot) = self.log.iter_mut().find(|e| e.is_none()) {
            *slot = Some(event);
        }
    }

    /// End the game: `winner` wins (or a draw when `None`), for `end`.
    pub fn finish(&mut self, winner: Option<Side>, end: End) {
        self.outcome = winner.map_or(Outcome::Draw, Outcome::Won);
        self.end = end;
    }

    /// The side that is not `side`.
    pub fn other(side: Side) -> Side {
        opponent(side)
    }

    /// The identity a piece's public value shows, if opened.
    pub fn public_kind(&self, id: PieceId) -> Option<Kind> {
        let p = self.piece(id);
        p.kind.filter(|_| p.public)
    }

    /// The identity of the pieces locked on the stalemate square `sq`.
    pub fn locked_kind(&self, sq: Sq) -> Option<Kind> {
        self.board[sq.idx()][0].and_then(|p| self.public_kind(p))
    }

    /// The back-row squares of `side` with nothing on them, a to j.
    pub fn empty_back_row(&self, side: Side) -> impl Iterator<Item = Sq> + '_ {
        let row = super::board::back_row(side);
        (0..COLS)
            .map(move |c| Sq::new(c, row))
            .filter(|&sq| self.is_empty(sq))
    }
}

/// Blue and Red, for loops.
pub const SIDES: [Side; 2] = [BLUE, RED];

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A position reached from the start by `ops`: each piece put on a
    /// square (beside what stands there, when at most one piece does),
    /// held on one, or lifted off the board.
    fn shuffled(ops: &[(u8, u8, u8)]) -> State {
        let mut s = State::start();
        for &(what, piece, square) in ops {
            let id = PieceId::from_index(piece % (2 * COLS));
            let sq = Sq(square % SQUARES as u8);
            match what % 3 {
                0 if s.at(sq)[1].is_none() => s.put(id, sq),
                1 => s.hold(id, sq),
                2 => s.lift(id),
                _ => {}
            }
        }
        s
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 5_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// A side has a free piece, found among its pieces, exactly when
        /// a square holds one of its pieces alone.
        #[test]
        fn a_free_piece_is_found_among_the_sides_pieces_as_on_the_squares(
            ops in prop::collection::vec((0u8..3, 0u8..20, 0u8..80), 0..120)
        ) {
            let s = shuffled(&ops);
            for side in SIDES {
                let on_squares = s.free_pieces(side).next().is_some();
                prop_assert_eq!(s.has_free_piece(side), on_squares);
            }
        }
    }

    /// A piece keeps its side and column, reads as its index, and an
    /// empty place on the board takes one byte.
    #[test]
    fn a_piece_is_known_by_its_side_and_column_in_one_byte() {
        for (i, p) in PieceId::all().enumerate() {
            let side = Side(i as u8 / COLS);
            assert_eq!((p.side(), p.origin()), (side, i as u8 % COLS));
            assert_eq!(p, PieceId::new(side, i as u8 % COLS));
            assert_eq!(format!("{p:?}"), format!("PieceId({i})"));
        }
        assert_eq!(PieceId::of(RED).next(), Some(PieceId::new(RED, 0)));
        assert_eq!(PieceId::of(Side(2)).count(), 0, "no such side");
        assert_eq!(std::mem::size_of::<Option<PieceId>>(), 1);
        assert!(PieceId::new(BLUE, 9) < PieceId::new(RED, 0));
    }

    /// Both answers occur among the positions the property test tries:
    /// one side without a free piece, the other with one.
    #[test]
    fn a_side_without_a_free_piece_is_found_so() {
        let mut ops: Vec<(u8, u8, u8)> = (0..10).map(|p| (2, p, 0)).collect();
        ops.push((0, 10, 0));
        ops.push((0, 11, 0));
        let s = shuffled(&ops);
        assert!(!s.has_free_piece(BLUE) && s.free_pieces(BLUE).next().is_none());
        assert!(s.has_free_piece(RED));
    }
}
