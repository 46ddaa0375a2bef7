//! The ledger: what each side has committed to and what it has shown so
//! far. Today that is each side's hash chain (spec section 3.1): the latest
//! value it revealed (or its commitment before its first line) and how many
//! lines it has written.

use super::header::Seat;
use crate::fairness::{chain_step, Hash};

/// Each side's chain, in turn order: a side is its [`Seat`], its
/// place in the lists [`Seat::index`].
#[derive(Clone, Debug)]
pub(super) struct Ledger {
    /// Each side's latest reveal, or its commitment before its first line.
    latest: Vec<Option<Hash>>,
    /// Lines written by each side.
    lines: Vec<u32>,
    /// Whether any side has a commitment (asked for by the engines several
    /// times a turn, through [`super::Referee::can_settle`]).
    any: bool,
}

/// Why a line's reveal is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum RevealFault {
    /// The side has no commitment, yet the line carries a reveal.
    Uncommitted,
    /// The side has a commitment, yet the line carries no reveal.
    Missing,
    /// The reveal does not hash to the side's previous value; `first` when
    /// that value is the commitment itself.
    Broken {
        /// This is the side's first line.
        first: bool,
    },
}

impl Ledger {
    /// A ledger before any line, for sides with these commitments.
    pub(super) fn new(commits: &[Option<Hash>]) -> Self {
        Ledger {
            latest: commits.to_vec(),
            lines: vec![0; commits.len()],
            any: commits.iter().any(Option::is_some),
        }
    }

    /// The value side `seat`'s next reveal must hash to.
    pub(super) fn latest(&self, seat: Seat) -> Option<Hash> {
        self.latest[seat.index()]
    }

    /// How many lines side `seat` has written: for a committed side, the
    /// lines that carried its reveal (a forfeit claimed for it carries
    /// none), so the next reveal is link `lines + 1` of its chain.
    pub(super) fn lines(&self, seat: Seat) -> u32 {
        self.lines[seat.index()]
    }

    /// Whether side `seat` has a commitment.
    pub(super) fn is_committed(&self, seat: Seat) -> bool {
        self.latest[seat.index()].is_some()
    }

    /// Whether no side has a commitment.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        !self.any
    }

    /// Check the reveal a line of side `seat` carries (a forfeit carries
    /// none and is checked apart).
    #[inline]
    pub(super) fn check(
        &self,
        chain_id: &Hash,
        seat: Seat,
        reveal: Option<Hash>,
    ) -> Result<(), RevealFault> {
        let index = seat.index();
        match (self.latest[index], reveal) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(RevealFault::Uncommitted),
            (Some(_), None) => Err(RevealFault::Missing),
            (Some(previous), Some(r)) if chain_step(chain_id, &r) == previous => Ok(()),
            (Some(_), Some(_)) => Err(RevealFault::Broken {
                first: self.lines[index] == 0,
            }),
        }
    }

    /// Record a line of side `seat` with its reveal.
    pub(super) fn record(&mut self, seat: Seat, reveal: Option<Hash>) {
        let index = seat.index();
        match reveal {
            Some(r) => {
                self.latest[index] = Some(r);
                self.lines[index] += 1;
                self.any = true;
            }
            None if self.latest[index].is_none() => self.lines[index] += 1,
            None => {}
        }
    }

    /// The latest values of every side but `seat`, in turn order (`None`
    /// for a side without a commitment). Chance seeds end with these
    /// (spec sections 3.3, 3.4).
    pub(super) fn others(&self, seat: Seat) -> impl Iterator<Item = Option<Hash>> + '_ {
        (0..self.latest.len())
            .filter(move |&i| i != seat.index())
            .map(|i| self.latest[i])
    }

    /// `seat`, then every other committed side of `seats` (the header's,
    /// in turn order): whose reveals go into a seed drawn on `seat`'s
    /// line.
    pub(super) fn seed_sides<'s>(
        &'s self,
        seat: Seat,
        seats: impl Iterator<Item = Seat> + 's,
    ) -> impl Iterator<Item = Seat> + 's {
        std::iter::once(seat).chain(seats.filter(move |&s| s != seat && self.is_committed(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether any side has a commitment is kept, not looked for: it
    /// agrees with a look over every side's latest value, from the
    /// start and after every line.
    #[test]
    fn a_ledger_knows_whether_any_side_has_a_commitment_as_a_look_would() {
        let looked = |l: &Ledger| l.latest.iter().all(Option::is_none);
        let starts: [&[Option<Hash>]; 4] = [
            &[None, None],
            &[Some([1; 32]), None],
            &[None, None, Some([2; 32])],
            &[],
        ];
        for commits in starts {
            let mut ledger = Ledger::new(commits);
            assert_eq!(ledger.is_empty(), looked(&ledger));
            for (k, reveal) in [None, Some([3; 32]), None, Some([4; 32])]
                .into_iter()
                .enumerate()
            {
                if commits.is_empty() {
                    break;
                }
                ledger.record(Seat::test((k % commits.len()) as u8), reveal);
                assert_eq!(ledger.is_empty(), looked(&ledger), "{commits:?} line {k}");
            }
        }
    }
}
