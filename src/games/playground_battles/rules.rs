//! The rules: moves (exact rolls, no revisiting, no jumping), attacks and
//! the battles they start, stalemates and rescues, base entry, the
//! start-of-turn loss, and the opening throws. Every function here is
//! pure; identities reach the rules only through [`open_piece`] (an
//! opening the referee verified) or a player's own view.

use crate::game::{Illegal, Side};
use crate::illegal;

use super::action::{Choice, Move, MAX_STEPS};
use super::board::{back_row, opponent, side_name as name, Dir, Spot, Sq, BLUE, THROWS};
use super::state::{Battle, End, Entry, Event, Kind, PieceId, State, SIDES};

/// "the Blue piece on c3" or "Blue's Rock on c3".
pub fn describe(s: &State, id: PieceId) -> String {
    let at = s
        .piece(id)
        .at
        .map_or(String::new(), |sq| format!(" on {sq}"));
    match s.piece(id).kind {
        Some(k) => format!("{}'s {}{at}", name(id.side()), k.name()),
        None => format!("the {} piece{at}", name(id.side())),
    }
}

/// What the last step of a move meets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Target {
    /// An empty square.
    Empty(Sq),
    /// An enemy piece standing alone on the square: an attack.
    Enemy(Sq, PieceId),
    /// A stalemate square: a rescue, or a lost piece.
    Stalemate(Sq),
    /// The opponent's base: the game is won.
    Base,
}

/// Make one move of the side to move.
pub fn apply(s: &mut State, mv: Move) -> Result<(), Illegal> {
    let me = s.to_move;
    if s.outcome.is_over() {
        return illegal!("the game is over");
    }
    let Some(roll) = s.roll else {
        return illegal!(
            "{}'s turn has not begun: the die is not rolled yet",
            name(me)
        );
    };
    if s.moved {
        return illegal!("{} has moved already: a turn is one move", name(me));
    }
    let piece = mover(s, mv.from)?;
    let target = check_path(s, &mv, roll)?;
    if mv.choice.is_some() && !matches!(target, Target::Stalemate(_)) {
        return illegal!(
            "a rescue choice ({}) goes with a move that ends on a stalemate",
            choice_text(mv.choice)
        );
    }
    s.moved = true;
    match target {
        Target::Base => {
            s.note(Event::Base {
                piece,
                from: last_square(&mv).unwrap_or(mv.from),
            });
            s.lift(piece);
            s.finish(Some(me), End::Base(me));
        }
        Target::Empty(to) => s.put(piece, to),
        Target::Enemy(at, defender) => {
            s.put(piece, at);
            s.battle = Some(Battle {
                at,
                attacker: piece,
                defender,
            });
            s.note(Event::Attack {
                at,
                attacker: piece,
            });
            resolve_battle(s)?;
        }
        Target::Stalemate(at) => {
            s.hold(piece, at);
            s.entry = Some(Entry {
                at,
                piece,
                choice: mv.choice,
            });
            resolve_entry(s)?;
        }
    }
    Ok(())
}

/// The last square a move steps on (before a base).
fn last_square(mv: &Move) -> Option<Sq> {
    mv.steps().iter().rev().find_map(|spot| match spot {
        Spot::Sq(sq) => Some(*sq),
        Spot::Base(_) => None,
    })
}

/// The mover's free piece on `from`.
fn mover(s: &State, from: Sq) -> Result<PieceId, Illegal> {
    let me = s.to_move;
    match s.at(from) {
        [None, _] => illegal!("no piece stands on {from}"),
        [Some(p), None] if p.side() == me => Ok(p),
        [Some(p), None] => illegal!(
            "{from} holds a {} piece, not a {} one",
            name(p.side()),
            name(me)
        ),
        [Some(_), Some(_)] => {
            illegal!("{from} is a stalemate: its pieces are locked until a rescue frees them")
        }
    }
}

/// Check the path of `mv` for a roll of `roll`: exactly that many steps,
/// each to a square next to the one before, none visited twice, through
/// empty squares only. Returns what the last step meets.
fn check_path(s: &State, mv: &Move, roll: u8) -> Result<Target, Illegal> {
    let me = s.to_move;
    let steps = mv.steps();
    if mv.unresolved {
        return illegal!(
            "no path of exactly {roll} step{} leads from {} to {} through empty squares",
            plural(roll),
            mv.from,
            spot_text(mv.to())
        );
    }
    if steps.len() != usize::from(roll) {
        return illegal!(
            "the roll is {roll}: a move takes exactly {roll} step{}, and this one takes {}",
            plural(roll),
            steps.len()
        );
    }
    let mut visited = 1u128 << mv.from.0;
    let mut at = mv.from;
    for (i, &spot) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        let to = match spot {
            Spot::Base(base) => return check_base(base, at, me, last),
            Spot::Sq(to) => to,
        };
        if !at.is_next_to(to) {
            return illegal!(
                "{to} is not next to {at}: a move goes one square at a time, never diagonally"
            );
        }
        if visited & (1u128 << to.0) != 0 {
            return illegal!("the path comes back to {to}: a move never visits a square twice");
        }
        visited |= 1u128 << to.0;
        if !last {
            if s.is_stalemate(to) {
                return illegal!(
                    "{to} is a stalemate: a move may only end there, never pass through"
                );
            }
            if let Some(p) = s.at(to)[0] {
                return illegal!(
                    "{to} holds {}: a move never jumps over a piece",
                    describe(s, p)
                );
            }
        }
        at = to;
    }
    target(s, at, me)
}

/// What a move's last step onto `at` meets for side `me`.
fn target(s: &State, at: Sq, me: Side) -> Result<Target, Illegal> {
    if s.is_stalemate(at) {
        return Ok(Target::Stalemate(at));
    }
    match s.single(at) {
        None => Ok(Target::Empty(at)),
        Some(p) if p.side() == me => {
            illegal!(
                "{at} holds {}: a piece never moves onto its own side",
                describe(s, p)
            )
        }
        Some(p) => Ok(Target::Enemy(at, p)),
    }
}

/// A step from `at` into `base`'s base by side `me`, as step `last` or not.
fn check_base(base: Side, at: Sq, me: Side, last: bool) -> Result<Target, Illegal> {
    if base == me || at.row() == back_row(me) {
        return illegal!(
            "{} may not enter its own base: only {}'s, beyond row {}",
            name(me),
            name(opponent(me)),
            back_row(opponent(me)) + 1
        );
    }
    if at.row() != back_row(base) {
        return illegal!(
            "only a piece on {}'s back row can step into its base, and {at} is not on it",
            name(base)
        );
    }
    if !last {
        return illegal!("a move ends in the base: nothing follows it");
    }
    Ok(Target::Base)
}

fn plural(n: u8) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `f1`, or `base`.
pub fn spot_text(spot: Spot) -> String {
    match spot {
        Spot::Sq(sq) => sq.to_string(),
        Spot::Base(_) => "base".into(),
    }
}

fn choice_text(choice: Option<Choice>) -> String {
    let mut out = String::new();
    if let Some(c) = choice {
        super::notation::write_choice(c, &mut out);
    }
    out
}

/// Decide the waiting battle once both identities are public: the loser
/// leaves the board, alike pieces lock in a stalemate. A battle decided
/// at the start of the defender's line is followed by that side's
/// start-of-turn check.
pub fn resolve_battle(s: &mut State) -> Result<(), Illegal> {
    let Some(b) = s.battle else { return Ok(()) };
    let (Some(a), Some(d)) = (s.public_kind(b.attacker), s.public_kind(b.defender)) else {
        return Ok(());
    };
    s.battle = None;
    if a == d {
        s.note(Event::Stalemate { at: b.at, kind: a });
    } else {
        let (winner, loser) = if a.beats(d) {
            (b.attacker, b.defender)
        } else {
            (b.defender, b.attacker)
        };
        s.lift(loser);
        s.note(Event::Won {
            at: b.at,
            winner,
            loser,
        });
    }
    if !s.moved {
        start_check(s);
    }
    Ok(())
}

/// Decide a piece's entry into a stalemate once its identity is public:
/// the winning identity rescues (the enemy piece leaves, the rescuer's
/// side keeps one of its two pieces there and sends the other to its back
/// row as the choice says); any other is lost.
pub fn resolve_entry(s: &mut State) -> Result<(), Illegal> {
    let Some(e) = s.entry else { return Ok(()) };
    let Some(kind) = s.public_kind(e.piece) else {
        return Ok(());
    };
    let locked = s.locked_kind(e.at).unwrap_or(kind);
    s.entry = None;
    if !kind.beats(locked) {
        if let Some(c) = e.choice {
            let mut text = String::new();
            super::notation::write_choice(c, &mut text);
            return illegal!(
                "{text}: this move is no rescue: only a {} frees a {} from a stalemate of {}, and the piece that entered is a {}",
                locked.beaten_by().name(),
                locked.name(),
                locked.plural(),
                kind.name()
            );
        }
        s.lift(e.piece);
        s.note(Event::LostEntering {
            at: e.at,
            piece: e.piece,
        });
        return Ok(());
    }
    rescue(s, e, kind, locked)
}

/// A rescue at `e.at` by a piece of identity `kind` over a stalemate of
/// `locked`, as the entry's choice says.
fn rescue(s: &mut State, e: Entry, kind: Kind, locked: Kind) -> Result<(), Illegal> {
    let me = e.piece.side();
    let [Some(a), Some(b)] = s.at(e.at) else {
        return illegal!("{} is no stalemate", e.at);
    };
    let (freed, enemy) = if a.side() == me { (a, b) } else { (b, a) };
    let example = rescue_example(s, me, kind);
    let Some(choice) = e.choice else {
        return illegal!(
            "this move frees {}'s {} on {}: say which of the two stays and where the other goes, e.g. `{example}`",
            name(me),
            locked.name(),
            e.at
        );
    };
    let leaves = if choice.leaves == kind {
        e.piece
    } else if choice.leaves == locked {
        freed
    } else {
        return illegal!(
            "neither of {}'s pieces on {} is a {}: name the {} (the rescuer) or the {} (the piece freed)",
            name(me),
            e.at,
            choice.leaves.name(),
            kind.name(),
            locked.name()
        );
    };
    let stays = if leaves == e.piece { freed } else { e.piece };
    // Checked while the stalemate still stands: its square is no empty
    // back-row square, even when it lies on the rescuer's back row.
    check_sent(s, me, choice.to)?;
    s.lift(enemy);
    s.lift(freed);
    s.lift(e.piece);
    s.put(stays, e.at);
    match choice.to {
        Some(to) => s.put(leaves, to),
        None => s.lift(leaves),
    }
    s.note(Event::Rescue {
        at: e.at,
        kept: stays,
        sent: choice.to,
    });
    Ok(())
}

/// A choice's destination for side `me`: an empty square of its back row,
/// or `out` only when that row is full.
fn check_sent(s: &State, me: Side, to: Option<Sq>) -> Result<(), Illegal> {
    let row = back_row(me);
    match to {
        Some(sq) if sq.row() != row => illegal!(
            "{sq} is not on {}'s back row (row {}): the piece not kept goes back there",
            name(me),
            row + 1
        ),
        Some(sq) if !s.is_empty(sq) => illegal!(
            "{sq} is taken: the piece not kept goes to an empty square of {}'s back row",
            name(me)
        ),
        None => match s.empty_back_row(me).next() {
            Some(free) => illegal!(
                "{}'s back row has room ({free} is empty): `out` is only for a full back row",
                name(me)
            ),
            None => Ok(()),
        },
        Some(_) => Ok(()),
    }
}

/// A rescue choice to show a player who left it out.
fn rescue_example(s: &State, me: Side, kind: Kind) -> String {
    let mut out = String::new();
    let to = s.empty_back_row(me).next();
    super::notation::write_choice(Choice { leaves: kind, to }, &mut out);
    out
}

/// Learn an opened identity of piece `id` and decide what waited for it.
pub fn open_piece(s: &mut State, id: PieceId, kind: Kind) -> Result<(), Illegal> {
    s.learn(id, kind, true);
    if s.outcome.is_over() {
        // The audit: nothing is decided any more.
        return Ok(());
    }
    resolve_battle(s)?;
    resolve_entry(s)
}

/// Learn an opened throw; once both sides' throws are open, the first
/// pair that differs decides who moves first (all alike: Blue).
pub fn open_throw(s: &mut State, side: Side, index: usize, kind: Kind) {
    s.throws[usize::from(side.0)][index] = Some(kind);
    if let Some(first) = first_mover(&s.throws) {
        s.to_move = first;
    }
}

/// Who moves first by the opening throws, once all are open.
pub fn first_mover(throws: &[[Option<Kind>; THROWS]; 2]) -> Option<Side> {
    for (b, r) in throws[0].iter().zip(&throws[1]) {
        let (b, r) = ((*b)?, (*r)?);
        if b != r {
            return Some(if b.beats(r) { BLUE } else { opponent(BLUE) });
        }
    }
    Some(BLUE)
}

/// The start-of-turn check for the side to move: with no free piece on
/// either side the game is drawn; a side with no free piece loses. (The
/// rules' third case, free pieces none of which can make a one-step
/// move, cannot arise: a free piece is stopped only by its own free
/// pieces and the board's edges, and such a group would fill the board.)
pub fn start_check(s: &mut State) {
    if s.outcome.is_over() {
        return;
    }
    let me = s.to_move;
    if s.has_free_piece(me) {
        // Most turns: nobody is out of free pieces.
        return;
    }
    if SIDES.iter().any(|&side| s.has_free_piece(side)) {
        s.finish(Some(opponent(me)), End::NoFreePiece(me));
    } else {
        s.finish(None, End::NoFreePieces);
    }
}

/// End the turn: a move is compulsory when any piece can use the roll.
/// Passes play on, and checks the next side's start of turn unless a
/// battle waits for its opening.
pub fn end_turn(s: &mut State) -> Result<(), Illegal> {
    if s.outcome.is_over() {
        return Ok(());
    }
    let me = s.to_move;
    if let Some(e) = s.entry {
        return illegal!(
            "{} must open {} on this line: it entered the stalemate on {}",
            name(me),
            e.piece.slot(),
            e.at
        );
    }
    if !s.moved {
        if let Some(mv) = first_legal(s) {
            let mut text = String::new();
            super::notation::write(&mv, &mut text);
            return illegal!(
                "{} must move: a move is compulsory, and the roll of {} can be used (e.g. {text})",
                name(me),
                s.roll.unwrap_or(0)
            );
        }
        s.note(Event::Passed);
    }
    s.to_move = opponent(me);
    s.moved = false;
    s.roll = None;
    let waits = s.battle.is_some_and(|b| b.defender.side() == s.to_move);
    if !waits {
        start_check(s);
    }
    Ok(())
}

/// `side` resigns.
pub fn resign(s: &mut State, side: Side) {
    if !s.outcome.is_over() {
        s.finish(Some(opponent(side)), End::Resigned(side));
    }
}

/// The first legal move, if any.
fn first_legal(s: &State) -> Option<Move> {
    let mut out = Vec::new();
    legal_moves(s, &mut out);
    out.first().copied()
}

/// Every legal move now: for each free piece of the mover, in square
/// order, one path to each place the roll can reach. A move onto a
/// stalemate square is listed bare when the mover's identity is unknown
/// or does not win there (the piece is lost: still a legal move), and
/// once per rescue choice when the mover's own view knows it rescues.
pub fn legal_moves(s: &State, out: &mut Vec<Move>) {
    let Some(roll) = s.roll else { return };
    if s.outcome.is_over() || s.moved || s.battle.is_some() {
        return;
    }
    let me = s.to_move;
    for piece in s.free_pieces(me).collect::<Vec<_>>() {
        let Some(from) = s.piece(piece).at else {
            continue;
        };
        for mv in Search::paths(s, me, from, roll) {
            with_choices(s, piece, mv, out);
        }
    }
}

/// Add `mv` to `out`: bare, or once per rescue choice when it is a
/// rescue the mover's view knows of.
fn with_choices(s: &State, piece: PieceId, mv: Move, out: &mut Vec<Move>) {
    let (Spot::Sq(at), Some(kind)) = (mv.to(), s.piece(piece).kind) else {
        out.push(mv);
        return;
    };
    let locked = match s.locked_kind(at) {
        Some(l) if s.is_stalemate(at) && kind.beats(l) => l,
        _ => {
            out.push(mv);
            return;
        }
    };
    let me = piece.side();
    let row = back_row(me);
    let open: Vec<Sq> = (0..super::board::COLS)
        .map(|c| Sq::new(c, row))
        .filter(|&sq| s.is_empty(sq) || sq == mv.from)
        .collect();
    for leaves in [kind, locked] {
        if open.is_empty() {
            out.push(Move::new(
                mv.from,
                mv.steps(),
                Some(Choice { leaves, to: None }),
            ));
        }
        for &to in &open {
            let choice = Some(Choice {
                leaves,
                to: Some(to),
            });
            out.push(Move::new(mv.from, mv.steps(), choice));
        }
    }
}

/// A depth-first search of the paths of one piece.
struct Search<'s> {
    s: &'s State,
    me: Side,
    from: Sq,
    path: [Spot; MAX_STEPS],
    /// The places reached so far (bit 80: the base).
    reached: u128,
    found: Vec<Move>,
}

impl<'s> Search<'s> {
    /// One path of exactly `roll` steps for `me`'s piece on `from` to each
    /// place it reaches, in search order.
    fn paths(s: &'s State, me: Side, from: Sq, roll: u8) -> Vec<Move> {
        let mut search = Search {
            s,
            me,
            from,
            path: [Spot::Sq(from); MAX_STEPS],
            reached: 0,
            found: Vec::new(),
        };
        search.walk(from, 0, usize::from(roll), 1u128 << from.0);
        search.found
    }

    fn record(&mut self, len: usize, bit: u32) {
        if self.reached & (1u128 << bit) == 0 {
            self.reached |= 1u128 << bit;
            self.found
                .push(Move::new(self.from, &self.path[..len], None));
        }
    }

    fn walk(&mut self, at: Sq, depth: usize, roll: usize, visited: u128) {
        let last = depth + 1 == roll;
        for dir in Dir::ALL {
            match Spot::step(at, dir) {
                Some(Spot::Base(base)) if last && base != self.me => {
                    self.path[depth] = Spot::Base(base);
                    self.record(roll, super::board::SQUARES as u32);
                }
                Some(Spot::Sq(to)) if visited & (1u128 << to.0) == 0 => {
                    self.path[depth] = Spot::Sq(to);
                    let open = self.s.is_empty(to);
                    if last {
                        let enemy = self.s.single(to).is_some_and(|p| p.side() != self.me);
                        if open || enemy || self.s.is_stalemate(to) {
                            self.record(roll, u32::from(to.0));
                        }
                    } else if open {
                        self.walk(to, depth + 1, roll, visited | (1u128 << to.0));
                    }
                }
                _ => {}
            }
        }
    }
}

/// A path of exactly `roll` steps from `from` to `to` for the mover, if
/// one exists (for a move written by its ends).
pub fn find_path(s: &State, from: Sq, to: Spot, roll: u8) -> Option<Move> {
    let me = s.single(from).map_or(s.to_move, PieceId::side);
    Search::paths(s, me, from, roll)
        .into_iter()
        .find(|m| m.to() == to)
}
