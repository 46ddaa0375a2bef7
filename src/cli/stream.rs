//! `check` of a plain record read a part at a time
//! (`record::stream`): each turn is played as it is read and dropped,
//! so that memory stays flat however long the record. An input that is
//! not a plain text of one record (a message, a mailbox, quoted replies)
//! is handed back whole, for the readers' usual way.

use std::io::{BufRead, BufReader, Seek};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::context::dispatch_record;
use super::files;
use super::report::{Failure, Problem};
use crate::game::Game;
use crate::games::GameVisitor;
use crate::record::stream::{each_turn, ReadError, Reader, Stop};
use crate::record::{Source, Turn};
use crate::referee::{Referee, RefereeError, Replay, Reread};

/// Bytes of input buffered at a time.
const BUFFER: usize = 16 * 1024;

/// What `check` does with a record replayed to its end: print its
/// verdict, or keep it among many.
pub(super) trait AfterCheck {
    /// What it gives.
    type Output;
    /// Do it with the referee after the last line of the record `named`.
    fn after<G: Game>(
        self,
        named: super::context::Named<'_>,
        referee: &Referee<G>,
    ) -> Result<Self::Output, Failure>;
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
    // A buffer no larger than the input (plus the read that finds its end).
    let size = file.metadata().map_or(BUFFER as u64, |m| m.len() + 1);
    let capacity = usize::try_from(size).map_or(BUFFER, |s| s.clamp(1024, BUFFER));
    // The record is read again where the deck's audit needs past decks
    // (kept as digests meanwhile): a file from its path, standard input
    // and pipes from the unnamed temporary file they were copied to.
    let again: Option<Arc<dyn Reread>> = match files::record_file(path) {
        Ok(file) if file.as_os_str() != "-" && file.is_file() => {
            Some(Arc::new(FileAgain(file.into_owned())))
        }
        _ => file
            .try_clone()
            .ok()
            .map(|copy| Arc::new(SpoolAgain(Mutex::new(copy), origin.clone())) as Arc<dyn Reread>),
    };
    let done = match Reader::new(BufReader::with_capacity(capacity, &mut file)) {
        Ok(reader) => replay(reader, &origin, again, after)?,
        Err(e) => stopped(Stop::Read(e), &origin)?,
    };
    match done {
        Some(done) => Ok(Checked::Done(done)),
        None => files::read_input(&mut file, path).map(Checked::Whole),
    }
}

/// The record that `reader` reads, replayed by the engine its Game tag
/// names, and handed to `after`; `None` when the input must be read
/// whole.
fn replay<R: BufRead, C: AfterCheck>(
    reader: Reader<R>,
    origin: &str,
    again: Option<Arc<dyn Reread>>,
    after: C,
) -> Result<Option<C::Output>, Failure> {
    match dispatch_record(reader.header(), Replaying(PhantomData)) {
        Ok(replay) => replay(reader, origin, again, after),
        Err(e) => refused(reader, e, origin),
    }
}

/// The replay of the game a record names, chosen before the reader is
/// handed to it.
type ReplayFn<R, C> = fn(
    Reader<R>,
    &str,
    Option<Arc<dyn Reread>>,
    C,
) -> Result<Option<<C as AfterCheck>::Output>, Failure>;

/// Picks [`replay_game`] for the game of the record.
struct Replaying<R, C>(PhantomData<(R, C)>);

impl<R: BufRead, C: AfterCheck> GameVisitor for Replaying<R, C> {
    type Output = ReplayFn<R, C>;

    fn visit<G: Game>(self) -> Self::Output {
        replay_game::<G, R, C>
    }
}

/// The record of a game `G` replayed as it is read.
fn replay_game<G: Game, R: BufRead, C: AfterCheck>(
    reader: Reader<R>,
    origin: &str,
    again: Option<Arc<dyn Reread>>,
    after: C,
) -> Result<Option<C::Output>, Failure> {
    match Replay::<G>::check_again(reader, super::context::reader_today(), again) {
        Ok(referee) => after
            .after::<G>(super::context::Named::file(origin), &referee)
            .map(Some),
        Err(stop) => stopped(*stop, origin),
    }
}

/// A problem with the header, `e`, reported once the rest of the record
/// is known to parse: a parse error comes first, as when the record is
/// read whole.
fn refused<R: BufRead, T>(
    reader: Reader<R>,
    e: RefereeError,
    origin: &str,
) -> Result<Option<T>, Failure> {
    stopped(reader.refuse(e), origin)
}

fn invalid(e: &RefereeError, source: &Source, origin: &str) -> Failure {
    Failure::invalid(Problem::from_referee(e, source), origin)
}

/// Why the replay stopped, as a failure; `None` when the input must be
/// read whole.
fn stopped<T>(stop: Stop<RefereeError>, origin: &str) -> Result<Option<T>, Failure> {
    match stop {
        Stop::Read(ReadError::Whole) => Ok(None),
        Stop::Read(ReadError::Io(e)) => Err(Failure::usage(format!("cannot read {origin}: {e}"))),
        Stop::Read(ReadError::Input(e)) => Err(Failure::invalid(Problem::from_input(&e), origin)),
        Stop::Read(ReadError::Parse(placed)) => {
            let (e, source) = *placed;
            Err(Failure::invalid(Problem::from_parse(&e, &source), origin))
        }
        Stop::Visit(e, source) => Err(invalid(&e, &source, origin)),
    }
}

/// A record file read again from its path, for the deck's audit
/// ([`Reread`]): the turns given as they are read, a part at a time.
#[derive(Debug)]
struct FileAgain(PathBuf);

impl Reread for FileAgain {
    fn reread(&self, each: &mut dyn FnMut(&Turn<'_>) -> bool) -> Result<(), String> {
        let shown = self.0.display();
        let file =
            std::fs::File::open(&self.0).map_err(|e| format!("cannot read {shown} again: {e}"))?;
        again(
            BufReader::with_capacity(BUFFER, file),
            &shown.to_string(),
            each,
        )
    }
}

/// Standard input, or a pipe, read again from the unnamed temporary file
/// it was copied to ([`files::open_input`]), for the deck's audit
/// ([`Reread`]); with how to name it.
#[derive(Debug)]
struct SpoolAgain(Mutex<std::fs::File>, String);

impl Reread for SpoolAgain {
    fn reread(&self, each: &mut dyn FnMut(&Turn<'_>) -> bool) -> Result<(), String> {
        let shown = &self.1;
        let mut file = self
            .0
            .lock()
            .map_err(|_| format!("cannot read {shown} again"))?;
        file.rewind()
            .map_err(|e| format!("cannot read {shown} again: {e}"))?;
        let input = std::io::Read::take(&mut *file, (crate::record::MAX_INPUT + 1) as u64);
        again(BufReader::with_capacity(BUFFER, input), shown, each)
    }
}

/// The record `input` reads, named `shown`, read again: each turn given
/// to `each` ([`Reread`]).
fn again<R: BufRead>(
    input: R,
    shown: &str,
    each: &mut dyn FnMut(&Turn<'_>) -> bool,
) -> Result<(), String> {
    each_turn(input, each).map_err(|e| match e {
        ReadError::Io(e) => format!("cannot read {shown} again: {e}"),
        _ => format!(
            "the record changed while it was read: {shown} is no longer the record read before"
        ),
    })
}
