//! The action type: one piece's whole path, or a breach.

/// What moves from the origin cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A single stack (2 movement points); from the end zone always this.
    Single,
    /// A double stack moving whole (4 movement points).
    Double,
    /// One piece leaving a double (2 movement points): `d3:1-...`.
    Half,
}

impl Kind {
    /// Movement points (and the most steps) of this kind of move.
    pub fn allowance(self) -> u8 {
        match self {
            Kind::Double => 4,
            Kind::Single | Kind::Half => 2,
        }
    }

    /// Whether a single piece moves (a single or half a double).
    pub fn is_single(self) -> bool {
        !matches!(self, Kind::Double)
    }
}

/// One piece's path: from a cell (or the end zone, `ZONE`) through
/// `len` steps. Unused step slots are 0 so that equal moves compare equal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    /// Origin cell, or `ZONE`.
    pub from: u8,
    /// What moves.
    pub kind: Kind,
    /// Number of steps (1-4).
    pub len: u8,
    /// The cells stepped on, in order.
    pub steps: [u8; 4],
    /// A single entering a Keep that holds a single of its side stays
    /// apart from it (`c4-c3 apart`) instead of combining into a double.
    pub apart: bool,
}

impl Move {
    /// A move along `steps` (1 to 4 cells).
    pub fn new(from: u8, kind: Kind, steps: &[u8]) -> Move {
        let mut s = [0u8; 4];
        s[..steps.len()].copy_from_slice(steps);
        Move {
            from,
            kind,
            len: steps.len() as u8,
            steps: s,
            apart: false,
        }
    }

    /// The same move, entering its Keep apart from the single there.
    pub fn apart(self) -> Move {
        Move {
            apart: true,
            ..self
        }
    }

    /// The cells stepped on.
    pub fn path(&self) -> &[u8] {
        &self.steps[..self.len as usize]
    }

    /// The cell where the piece ends.
    pub fn dest(&self) -> u8 {
        self.steps[self.len as usize - 1]
    }
}

/// A breach: of an interior Keep (with up to three stacks moving in from
/// touching cells), or of the opponent's home Keep (`HOME`, none moving in).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Breach {
    /// The Keep, or `HOME`.
    pub target: u8,
    /// Stacks moving in.
    pub n: u8,
    /// Their cells, in the order written; unused slots are 0.
    pub ins: [u8; 3],
    /// The singles moving in stay apart (`apart`) instead of combining.
    pub apart: bool,
}

impl Breach {
    /// A breach of `target` with `ins` moving in (at most three).
    pub fn new(target: u8, ins: &[u8]) -> Breach {
        let mut s = [0u8; 3];
        s[..ins.len()].copy_from_slice(ins);
        Breach {
            target,
            n: ins.len() as u8,
            ins: s,
            apart: false,
        }
    }

    /// The same breach, the singles moving in staying apart.
    pub fn apart(self) -> Breach {
        Breach {
            apart: true,
            ..self
        }
    }

    /// The cells whose stacks move in.
    pub fn ins(&self) -> &[u8] {
        &self.ins[..self.n as usize]
    }
}

/// One action of Breach The Keep.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// A piece's path.
    Move(Move),
    /// A breach.
    Breach(Breach),
}
