//! `check`, `show`, `legal` and `fate` of a plain record read a part at
//! a time (`record::stream`): each turn is played as it is read and
//! dropped, so that memory stays flat however long the record. An input
//! that is not a plain text of one record (a message, a mailbox, quoted
//! replies) is handed back whole, for the readers' usual way.

use std::io::{BufRead, BufReader, Seek};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::context::dispatch_record;
use super::files;
use super::report::{Failure, Problem};
use crate::game::Game;
use crate::games::GameVisitor;
use crate::record::stream::{each_turn, ReadError, Reader, Stop, Visitor};
use crate::record::{LineKind, Source, Turn};
use crate::referee::{ChanceLog, Keep, Referee, RefereeError, Replay, Reread};

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

/// A reader of a plain record read a part at a time: what it does with
/// the record's reader, once its game is known.
pub(super) trait Streamed {
    /// What it gives.
    type Output;
    /// Replay the record `reader` reads, a record of `G` named `origin`
    /// (read again from `again` where the deck's audit needs it); `None`
    /// when the input must be read whole.
    fn replay<G: Game, R: BufRead>(
        self,
        reader: Reader<R>,
        origin: &str,
        again: Option<Arc<dyn Reread>>,
    ) -> Result<Option<Self::Output>, Failure>;
}

/// How [`check`] or [`read`] went.
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
    let keep = Keep::RULES.on(super::context::reader_today());
    read(path, Checking(after, keep))
}

/// What `fate` does with a record replayed to its end and the chance
/// values it drew, kept in a [`ChanceLog`].
pub(super) trait AfterChance {
    /// What it gives.
    type Output;
    /// Do it with the referee after the last line of the record `named`
    /// and its chance values, `log`.
    fn after<G: Game>(
        self,
        named: super::context::Named<'_>,
        referee: &Referee<G>,
        log: &ChanceLog,
    ) -> Result<Self::Output, Failure>;
}

/// Replay the record in `path` (a file, or `-`) a part at a time, as
/// `check` does, its chance values moved into a [`ChanceLog`] turn by
/// turn, and hand both to `after`; or give back the input's bytes when
/// it must be read whole.
pub(super) fn check_logging_chance<C: AfterChance>(
    path: &Path,
    after: C,
) -> Result<Checked<C::Output>, Failure> {
    read(path, LoggingChance(after, super::context::reader_today()))
}

/// Read the record in `path` (a file, or `-`) a part at a time with
/// `reader`; or give back the input's bytes when it must be read whole.
pub(super) fn read<S: Streamed>(path: &Path, reader: S) -> Result<Checked<S::Output>, Failure> {
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
        Ok(r) => replay(r, &origin, again, reader)?,
        Err(e) => stopped(Stop::Read(e), &origin)?,
    };
    match done {
        Some(done) => Ok(Checked::Done(done)),
        None => files::read_input(&mut file, path).map(Checked::Whole),
    }
}

/// The record that `reader` reads, handed to `streamed` with the engine
/// its Game tag names; `None` when the input must be read whole.
fn replay<R: BufRead, S: Streamed>(
    reader: Reader<R>,
    origin: &str,
    again: Option<Arc<dyn Reread>>,
    streamed: S,
) -> Result<Option<S::Output>, Failure> {
    match dispatch_record(reader.header(), Replaying(PhantomData)) {
        Ok(replay) => replay(reader, origin, again, streamed),
        Err(e) => refused(reader, e, origin),
    }
}

/// The replay of the game a record names, chosen before the reader is
/// handed to it.
type ReplayFn<R, S> = fn(
    Reader<R>,
    &str,
    Option<Arc<dyn Reread>>,
    S,
) -> Result<Option<<S as Streamed>::Output>, Failure>;

/// Picks [`replay_game`] for the game of the record.
struct Replaying<R, S>(PhantomData<(R, S)>);

impl<R: BufRead, S: Streamed> GameVisitor for Replaying<R, S> {
    type Output = ReplayFn<R, S>;

    fn visit<G: Game>(self) -> Self::Output {
        replay_game::<G, R, S>
    }
}

/// The record of a game `G` replayed as it is read.
fn replay_game<G: Game, R: BufRead, S: Streamed>(
    reader: Reader<R>,
    origin: &str,
    again: Option<Arc<dyn Reread>>,
    streamed: S,
) -> Result<Option<S::Output>, Failure> {
    streamed.replay::<G, R>(reader, origin, again)
}

/// `check`: the record replayed as `check` replays it (keeping what
/// the [`Keep`] says), then `after`.
struct Checking<C>(C, Keep);

impl<C: AfterCheck> Streamed for Checking<C> {
    type Output = C::Output;

    fn replay<G: Game, R: BufRead>(
        self,
        reader: Reader<R>,
        origin: &str,
        again: Option<Arc<dyn Reread>>,
    ) -> Result<Option<C::Output>, Failure> {
        match Replay::<G>::check_keeping(reader, self.1, again) {
            Ok(referee) => self
                .0
                .after::<G>(super::context::Named::file(origin), &referee)
                .map(Some),
            Err(stop) => stopped(*stop, origin),
        }
    }
}

/// `fate`: the record replayed as `check` replays it, its chance values
/// kept in a [`ChanceLog`] (read on the day given), then `after`.
struct LoggingChance<C>(C, Option<crate::record::Day>);

impl<C: AfterChance> Streamed for LoggingChance<C> {
    type Output = C::Output;

    fn replay<G: Game, R: BufRead>(
        self,
        reader: Reader<R>,
        origin: &str,
        again: Option<Arc<dyn Reread>>,
    ) -> Result<Option<C::Output>, Failure> {
        match Replay::<G>::check_logging_chance(reader, self.1, again) {
            Ok((referee, log)) => self
                .0
                .after::<G>(super::context::Named::file(origin), &referee, &log)
                .map(Some),
            Err(stop) => stopped(*stop, origin),
        }
    }
}

/// A record read a part at a time and replayed to one of its turns, as
/// `referee::replay_to_turn` replays a record read whole (`show`).
pub(super) struct AtTurn<G: Game> {
    /// The referee after that turn.
    pub(super) referee: Referee<G>,
    /// The turn: the one asked for, or the record's last.
    pub(super) upto: u32,
    /// The position that turn started from as anyone sees it
    /// ([`Referee::public_state`]), and its line's kind, number and
    /// side as written (`None` at turn 0).
    pub(super) before: Option<Before<G>>,
}

/// The position a turn started from, as anyone sees it, and its line.
pub(super) struct Before<G: Game> {
    pub(super) state: G::State,
    pub(super) kind: LineKind,
    pub(super) number: u32,
    pub(super) side: String,
}

/// Replay the record `reader` reads to its turn `upto` (its last when
/// `None`), as `show` does with a record read whole
/// (`referee::replay_to_turn`), holding a part of it at a time: the
/// set-up lines are played whatever the turn, the turns after `upto`
/// only parsed and counted, the `Result` tag checked at the last turn.
/// The same problems in the same order as the whole read: a parse error
/// anywhere, a turn past the last (a usage error), the header's
/// problems, then the first problem of the lines up to the turn.
/// `None` when the input must be read whole.
pub(super) fn to_turn<G: Game, R: BufRead>(
    reader: Reader<R>,
    upto: Option<u32>,
    origin: &str,
    again: Option<Arc<dyn Reread>>,
) -> Result<Option<AtTurn<G>>, Failure> {
    let keep = Keep::RULES.on(super::context::reader_today());
    let replay = Replay::<G>::start_again(reader.header(), keep, again);
    let mut visit = ToTurn {
        replay,
        upto,
        turns: 0,
        past: false,
        before: None,
    };
    let visited = match reader.visit(&mut visit) {
        Err(Stop::Read(e)) => return stopped(Stop::Read(e), origin),
        Ok(head) => Ok(head),
        Err(Stop::Visit(e, source)) => Err((e, source)),
    };
    let total = visit.turns;
    let upto = upto.unwrap_or(total);
    if upto > total {
        return Err(Failure::usage(format!(
            "{origin} has {total} turn{}: there is no turn {upto}",
            if total == 1 { "" } else { "s" }
        )));
    }
    let head = visited.map_err(|(e, source)| invalid(&e, &source, origin))?;
    let in_head = |e: RefereeError| invalid(&e, &head, origin);
    let referee = visit.replay.map_err(in_head)?.finish().map_err(in_head)?;
    if upto >= total {
        referee.check_result().map_err(in_head)?;
    }
    Ok(Some(AtTurn {
        referee,
        upto,
        before: visit.before,
    }))
}

/// [`to_turn`]'s visitor: the replay (or why its header was refused),
/// the turns counted, and the position before the turn asked for.
struct ToTurn<G: Game> {
    replay: Result<Replay<G>, RefereeError>,
    upto: Option<u32>,
    /// The turn lines read (set-up lines are not counted).
    turns: u32,
    /// Past the turn asked for: no line is played any more.
    past: bool,
    before: Option<Before<G>>,
}

impl<G: Game> ToTurn<G> {
    /// Count `turn`, a line read.
    fn count(&mut self, turn: &Turn<'_>) {
        if turn.kind == LineKind::Turn {
            self.past |= Some(self.turns) == self.upto;
            self.turns += 1;
        }
    }
}

impl<G: Game> Visitor for ToTurn<G> {
    type Error = RefereeError;

    fn turn(&mut self, turn: &Turn<'_>) -> Result<(), RefereeError> {
        self.count(turn);
        let Ok(replay) = &mut self.replay else {
            return Ok(());
        };
        if self.past {
            return Ok(());
        }
        // The turn asked for, or (for the last) each turn.
        if turn.kind == LineKind::Turn && self.upto.is_none_or(|upto| upto == self.turns) {
            let state = replay.referee().public_state();
            match &mut self.before {
                Some(before) => {
                    before.state = state;
                    before.number = turn.number;
                    before.side.clear();
                    before.side.push_str(turn.side);
                }
                None => {
                    self.before = Some(Before {
                        state,
                        kind: turn.kind,
                        number: turn.number,
                        side: turn.side.to_owned(),
                    })
                }
            }
        }
        replay.turn(turn)
    }

    fn part_end(&mut self) -> Result<(), RefereeError> {
        match &mut self.replay {
            Ok(replay) => replay.part_end(),
            Err(_) => Ok(()),
        }
    }

    fn skipped(&mut self, turn: &Turn<'_>) {
        self.count(turn);
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
pub(super) fn stopped<T>(stop: Stop<RefereeError>, origin: &str) -> Result<Option<T>, Failure> {
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
