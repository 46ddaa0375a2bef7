//! The pieces on the board: each character (its kind and id), the
//! maze and where every character stands ([`Board`]), the squares a
//! move has visited and the dice phase of a turn.

use crate::game::Side;

use crate::games::battlegates::geometry::board::{side_name, Geometry, Loc, Sq};
use crate::games::battlegates::mazes::maze::{Maze, Piece};

/// A character's kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// Moves and attacks.
    Crusader,
    /// Moves, attacks and shoots.
    Archer,
    /// Moves and attacks; no opponent's gate turn carries it.
    Gatekeeper,
}

impl Kind {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Crusader => "Crusader",
            Kind::Archer => "Archer",
            Kind::Gatekeeper => "Gatekeeper",
        }
    }

    /// Its letter: `C`, `A` or `G`.
    pub fn letter(self) -> char {
        match self {
            Kind::Crusader => 'C',
            Kind::Archer => 'A',
            Kind::Gatekeeper => 'G',
        }
    }
}

/// An army, in the order of its portals west to east.
pub const ARMY: [Kind; 5] = [
    Kind::Crusader,
    Kind::Archer,
    Kind::Gatekeeper,
    Kind::Archer,
    Kind::Crusader,
];

/// The places a side has room for: two armies of five (in Misery Run
/// each player leads two armies; one board uses the first five).
pub const SIDE_PLACES: usize = 10;

/// The side indexes a position has room for: South and North, then
/// Castle1 to Castle4 (a game plays two or four of them).
pub const MAX_SIDES: usize = 6;

/// The characters a board has room for.
pub const CHARACTERS: usize = SIDE_PLACES * MAX_SIDES;

/// A character: side `id / 10`, place `id % 10` in its side's armies
/// (army `place / 5`, kind by `place % 5` in [`ARMY`] order).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Id(pub u8);

impl Id {
    /// The character at `place` (below [`SIDE_PLACES`]) of `side`.
    pub fn new(side: Side, place: usize) -> Id {
        Id(side.0 * SIDE_PLACES as u8 + (place % SIDE_PLACES) as u8)
    }

    /// Its side.
    pub fn side(self) -> Side {
        Side(self.0 / SIDE_PLACES as u8)
    }

    /// Its kind.
    pub fn kind(self) -> Kind {
        ARMY[self.place() % ARMY.len()]
    }

    /// Its place in its side's armies (0-9; 0-4 on one board).
    pub fn place(self) -> usize {
        usize::from(self.0) % SIDE_PLACES
    }

    /// `South's Archer`.
    pub fn name(self) -> String {
        format!("{}'s {}", side_name(self.side()), self.kind().name())
    }
}

/// The maze and where every character stands, on the board of the
/// game's set-up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Walls and gates.
    pub maze: Maze,
    chars: [Option<Loc>; CHARACTERS],
    /// Armies a side leads (1 on one board).
    armies: u8,
    /// The board's geometry: every square, post and edge is looked up
    /// in it.
    geo: &'static Geometry,
    /// Each side's team, by side index: sides of one team are allies
    /// (each side alone by default).
    teams: [u8; MAX_SIDES],
}

impl Board {
    /// Every army on its portals, no maze.
    pub fn start(geo: &'static Geometry) -> Board {
        let mut board = Board::empty(geo);
        let mut placed = [0; MAX_SIDES];
        for army in geo.armies {
            let side = usize::from(army.side.0) % MAX_SIDES;
            for sq in army.portals {
                board.chars[usize::from(Id::new(army.side, placed[side]).0)] = Some(Loc::Sq(sq));
                placed[side] += 1;
            }
        }
        board
    }

    /// No maze, no characters.
    pub fn empty(geo: &'static Geometry) -> Board {
        let most = geo.armies.iter().map(|a| geo.armies_of(a.side)).max();
        Board {
            maze: Maze::default(),
            chars: [None; CHARACTERS],
            armies: most.unwrap_or(1) as u8,
            geo,
            teams: [0, 1, 2, 3, 4, 5],
        }
    }

    /// The same board with no character on it.
    pub fn without_characters(&self) -> Board {
        Board {
            chars: [None; CHARACTERS],
            ..*self
        }
    }

    /// Make `a` and `b` allies (the four-castle teams).
    pub fn ally(&mut self, a: Side, b: Side) {
        let (ta, tb) = (self.team(a), self.team(b));
        for t in self.teams.iter_mut() {
            if *t == tb {
                *t = ta;
            }
        }
    }

    fn team(&self, side: Side) -> u8 {
        self.teams[usize::from(side) % MAX_SIDES]
    }

    /// Whether `a` and `b` are one side or allies: neither may kill the
    /// other, and each uses the other's Keep as its own.
    pub fn friendly(&self, a: Side, b: Side) -> bool {
        self.team(a) == self.team(b)
    }

    /// Whether `side` has a character left that is hostile to `side`'s
    /// team: while it has, a kill does not end the game.
    pub fn has_enemies(&self, side: Side) -> bool {
        self.geo
            .side_iter()
            .filter(|&s| !self.friendly(s, side))
            .any(|s| self.has_characters(s))
    }

    /// The board's geometry.
    pub fn geo(&self) -> &'static Geometry {
        self.geo
    }

    /// What lies on `edge`: stone, a wall or a gate.
    pub fn on_edge(
        &self,
        edge: crate::games::battlegates::geometry::board::Edge,
    ) -> Option<crate::games::battlegates::mazes::maze::OnEdge> {
        self.maze.on_edge(self.geo, edge)
    }

    /// Where `id` stands, if alive.
    pub fn loc(&self, id: Id) -> Option<Loc> {
        self.chars[usize::from(id.0)]
    }

    /// The character on `loc`.
    pub fn at(&self, loc: Loc) -> Option<Id> {
        self.chars
            .iter()
            .position(|c| *c == Some(loc))
            .map(|i| Id(i as u8))
    }

    /// The character on square `sq`.
    pub fn on(&self, sq: Sq) -> Option<Id> {
        self.at(Loc::Sq(sq))
    }

    /// Put `id` on `loc` (or take it off with `None`).
    pub fn set(&mut self, id: Id, loc: Option<Loc>) {
        self.chars[usize::from(id.0)] = loc;
    }

    /// The living characters of `side`.
    pub fn alive(&self, side: Side) -> impl Iterator<Item = (Id, Loc)> + '_ {
        self.ids(side)
            .filter_map(move |id| self.loc(id).map(|l| (id, l)))
    }

    /// Every character of `side` in play (killed or not), in place order.
    pub fn ids(&self, side: Side) -> impl Iterator<Item = Id> {
        (0..usize::from(self.armies) * ARMY.len()).map(move |i| Id::new(side, i))
    }

    /// Whether `side` has a character left.
    pub fn has_characters(&self, side: Side) -> bool {
        self.alive(side).next().is_some()
    }

    /// Every maze piece, in canonical order.
    pub fn pieces(&self) -> Vec<Piece> {
        self.maze.pieces()
    }
}

/// The locations a character has entered this turn by itself (where it
/// began the turn, and what its steps, a Scale or a Climb reached; not
/// where a gate carried it), as a set of
/// location indexes ([`Geometry::loc_index`]) below
/// [`Visited::CAPACITY`]: room for the squares and Keeps of a board of
/// up to 252 squares (Misery Run's 9 x 25 and Battle Alley's 19 x 12
/// included), not only the one board's 108.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Visited([u64; 4]);

impl Visited {
    /// How many location indexes the set can hold.
    pub const CAPACITY: usize = 256;

    /// The set of `loc` alone, on board `g`.
    pub fn only(g: &Geometry, loc: Loc) -> Visited {
        let mut v = Visited::default();
        v.add(g, loc);
        v
    }

    /// Whether `loc` of board `g` is in the set.
    pub fn has(&self, g: &Geometry, loc: Loc) -> bool {
        let i = g.loc_index(loc);
        self.0
            .get(i / 64)
            .is_some_and(|word| word & (1u64 << (i % 64)) != 0)
    }

    /// Put `loc` of board `g` in the set (an index beyond the capacity,
    /// which no board has, is left out rather than wrapped onto another).
    pub fn add(&mut self, g: &Geometry, loc: Loc) {
        let i = g.loc_index(loc);
        if let Some(word) = self.0.get_mut(i / 64) {
            *word |= 1u64 << (i % 64);
        }
    }
}

/// The dice phase of the turn in progress.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Dice {
    /// The roll's face, once rolled.
    pub(in crate::games::battlegates) roll: Option<u8>,
    /// How much of the roll the runs so far spent.
    pub(in crate::games::battlegates) spent: u8,
    /// How many runs were made.
    pub(in crate::games::battlegates) runs: u8,
    /// The mover's characters (by place) that made their run.
    pub(in crate::games::battlegates) ran: u16,
    /// Per place of the mover's characters, the locations it entered
    /// this turn by itself ([`Visited`]).
    pub(in crate::games::battlegates) visited: [Visited; SIDE_PLACES],
    /// An Archer shot.
    pub(in crate::games::battlegates) shot: bool,
    /// A card's kill forfeited the dice phase.
    pub(in crate::games::battlegates) forfeited: bool,
    /// The most of the roll that can be spent, once worked out.
    pub(in crate::games::battlegates) target: Option<u8>,
}
