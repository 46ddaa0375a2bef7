//! `check` of a plain record read a part at a time
//! (`record::stream`): each turn is played as it is read and dropped,
//! so that memory stays flat however long the record. An input that is
//! not a plain text of one record (a message, a mailbox, quoted replies)
//! is handed back whole, for the readers' usual way.

use std::convert::Infallible;
use std::io::{BufRead, BufReader, Seek};
use std::path::Path;

use super::files;
use super::report::{Failure, Problem};
use crate::game::Game;
use crate::games::{self, GameVisitor, GAME_IDS};
use crate::record::stream::{self, ReadError, Reader, Stop, Survey, Visitor};
use crate::record::{Source, Turn};
use crate::referee::{self, Keep, Referee, RefereeError, Replay};

/// Bytes of input buffered at a time.
const BUFFER: usize = 16 * 1024;

/// What `check` does with a record replayed to its end: print its
/// verdict, or keep it among many.
pub(super) trait AfterCheck {
    /// What it gives.
    type Output;
    /// Do it with the referee after the last line of the record named
    /// `origin`.
    fn after<G: Game>(self, origin: &str, referee: &Referee<G>) -> Result<Self::Output, Failure>;
}

/// How [`check`] went.
pub(super) enum Checked<T> {
    /// The record was read a part at a time and replayed: what `after`
    /// gave.
    Done(T),
    /// The input is not a plain text of one record: its bytes, to read
    /// whole.
    Whole(Vec<u8>),
}

/// Replay the record in `path` (a file, or `-`) a part at a time, as
/// `check` does, and hand the referee to `after`; or give back the
/// input's bytes when it must be read whole.
pub(super) fn check<C: AfterCheck>(path: &Path, after: C) -> Result<Checked<C::Output>, Failure> {
    let origin = files::origin(path);
    let cannot = |e: std::io::Error| Failure::usage(format!("cannot read {origin}: {e}"));
    let mut file = files::open_input(path)?;
    file.rewind().map_err(cannot)?;
    let survey = stream::survey(BufReader::with_capacity(BUFFER, &mut file)).map_err(cannot)?;
    if survey == Survey::Whole {
        return files::read_input(&mut file, path).map(Checked::Whole);
    }
    file.rewind().map_err(cannot)?;
    let reader = Reader::new(BufReader::with_capacity(BUFFER, file))
        .map_err(|e| read_failure(e, &origin))?;
    let game = match referee::game_tag(reader.header()) {
        Ok(id) => id.to_owned(),
        Err(e) => return Err(header_failure(reader, &e, &origin)),
    };
    if !GAME_IDS.iter().any(|id| id.eq_ignore_ascii_case(&game)) {
        let tag = reader.header().tag("Game").map(|t| t.value_span);
        let unknown = format!(
            "unknown game `{game}`: herald plays {}",
            GAME_IDS.join(", ")
        );
        return Err(header_failure(
            reader,
            &RefereeError::record(tag, unknown),
            &origin,
        ));
    }
    let visit = Replaying {
        reader,
        origin: &origin,
        after,
    };
    let done = games::dispatch(&game, visit);
    done.unwrap_or_else(|| Err(Failure::usage(format!("unknown game `{game}`"))))
        .map(Checked::Done)
}

/// The record of a game `G` replayed as it is read.
struct Replaying<'a, R, C> {
    reader: Reader<R>,
    origin: &'a str,
    after: C,
}

impl<R: BufRead, C: AfterCheck> GameVisitor for Replaying<'_, R, C> {
    type Output = Result<C::Output, Failure>;

    fn visit<G: Game>(self) -> Self::Output {
        let origin = self.origin;
        let mut replay = match Replay::<G>::start(self.reader.header(), Keep::RULES) {
            Ok(replay) => replay,
            Err(e) => return Err(header_failure(self.reader, &e, origin)),
        };
        let head = self
            .reader
            .visit(&mut replay)
            .map_err(|stop| stopped(stop, origin))?;
        let referee = replay
            .finish()
            .and_then(|referee| referee.check_result().map(|()| referee))
            .map_err(|e| invalid(&e, &head, origin))?;
        self.after.after::<G>(origin, &referee)
    }
}

/// A problem with the header, `e`, reported once the rest of the record
/// is known to parse: a parse error comes first, as when the record is
/// read whole.
fn header_failure<R: BufRead>(reader: Reader<R>, e: &RefereeError, origin: &str) -> Failure {
    let head = reader.head().clone();
    match reader.visit(&mut Parsed) {
        Ok(_) => invalid(e, &head, origin),
        Err(Stop::Read(e)) => read_failure(e, origin),
        Err(Stop::Visit(never, _)) => match never {},
    }
}

/// A visitor that only lets the record be parsed.
struct Parsed;

impl Visitor for Parsed {
    type Error = Infallible;

    fn turn(&mut self, _: &Turn<'_>) -> Result<(), Infallible> {
        Ok(())
    }

    fn part_end(&mut self) -> Result<(), Infallible> {
        Ok(())
    }
}

fn invalid(e: &RefereeError, source: &Source, origin: &str) -> Failure {
    Failure::invalid(Problem::from_referee(e, source), origin)
}

fn read_failure(e: ReadError, origin: &str) -> Failure {
    match e {
        ReadError::Io(e) => Failure::usage(format!("cannot read {origin}: {e}")),
        ReadError::Parse(placed) => {
            let (e, source) = *placed;
            Failure::invalid(Problem::from_parse(&e, &source), origin)
        }
    }
}

fn stopped(stop: Stop<RefereeError>, origin: &str) -> Failure {
    match stop {
        Stop::Read(e) => read_failure(e, origin),
        Stop::Visit(e, source) => invalid(&e, &source, origin),
    }
}
