//! Criterion benchmarks of reading and refereeing records:
//! `cargo bench --bench replay` (one game: `cargo bench --bench replay -- castle-danger`).
//!
//! For each game, on random legal self-play records made once outside the
//! timed loop (50 records of up to 300 turns: plain, with commitments, and
//! signed: commitments and every line sealed, spec section 3.8),
//! throughput in turns per second:
//! - `<game>/<plain|commit|signed>/parse+replay`: `Source::new` +
//!   `record::parse` + `referee::replay` + `check_result` of every record;
//! - `<game>/<plain|commit|signed>/validate`: the same through
//!   `referee::replay_keeping` with `Keep::RULES` (no record digest unless
//!   a side signs, no copy of each turn's position before it);
//! - `<game>/<plain|commit|signed>/streamed`: what `herald check` does
//!   since it reads a plain record a part at a time: `stream::Reader`
//!   reading it once, `referee::Replay::check` handing each turn to
//!   `referee::Replay` (`Keep::RULES`) as it is read;
//! - `<game>/<plain|commit|signed>/parse`: `Source::new` + `record::parse`
//!   only;
//! - `<game>/check-<N>[-signed]/end-to-end`: one record of N = 300 turns
//!   (or the longest of 100 games when none lasts that long) with
//!   commitments (and signed), as `herald check` handles it (without the
//!   process and the file read). That record is also written to
//!   `target/tmp/check-<N>[-signed]-<game>.pbem` for timing the binary
//!   (`benches/RESULTS.md`); `<game>/check-<N>[-signed]/streamed` is the
//!   same record read as `herald check` reads it now (`streamed` above).
//!   For the signed record, both are then timed in CPU time against the
//!   floor of its signatures (as many, verified in merged-key batches of
//!   256; 21 interleaved rounds, printed to standard error).
//!
//! - `battlegates/legal/<card|dice>-phase`: `Game::legal_actions` on the
//!   most crowded Battlegates positions of 20 self-play games (the turn
//!   start, and the dice phase after a discard, with the most legal
//!   actions); their position text is written to
//!   `target/tmp/battlegates-legal-<phase>.txt`.
//!
//! With `HERALD_RECORDS_DIR=DIR`, the plain and committed records of
//! each game are written to `DIR/<game>-<plain|commit>-<seed>.pbem`
//! instead, and nothing is benchmarked (for `tools/compare-pgn.sh`,
//! which times `herald check` on them as whole processes).
//!
//! Every game of the registry (`herald::for_each_game!`) is benchmarked.
//! A filter that names games (`-- castle-danger/plain`) makes only their
//! records.

#[path = "common/cpu.rs"]
mod cpu;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use herald::game::{action_text, position_text, Game};
use herald::games::battlegates::Battlegates;
use herald::games::GAME_IDS;
use herald::record::{self, stream, Source};
use herald::referee;
use herald::selfplay::{self, Options};

/// Records per batch.
const RECORDS: usize = 50;
/// Turn limit of a self-play game.
const MAX_TURNS: u32 = 300;

/// What a benchmark record carries besides its moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Proofs {
    /// Nothing.
    Plain,
    /// Commitments and reveals.
    Commit,
    /// Commitments, reveals and a signature on every line.
    Signed,
}

impl Proofs {
    fn name(self) -> &'static str {
        match self {
            Proofs::Plain => "plain",
            Proofs::Commit => "commit",
            Proofs::Signed => "signed",
        }
    }
}

/// A self-play record of `G`, or `None` when the game cannot be played
/// this way (e.g. it needs commitments for its chance).
fn selfplay<G: Game>(seed: u64, proofs: Proofs) -> Option<String> {
    let mut options = Options::new::<G>(seed, G::MIN_SIDES);
    options.max_turns = MAX_TURNS;
    options.commitments = proofs != Proofs::Plain;
    options.signatures = proofs == Proofs::Signed;
    selfplay::record::<G>(&options).ok()
}

fn turns(text: &str) -> u64 {
    let source = Source::new(text.as_bytes()).expect("self-play text is a record");
    record::parse(&source)
        .expect("self-play parses")
        .turns
        .len() as u64
}

/// What `herald check` does with the bytes of a record of `G`, past the
/// file read; the number of turns.
fn check<G: Game>(bytes: &[u8]) -> u32 {
    let source = Source::new(bytes).expect("record text");
    let parsed = record::parse(&source).expect("record parses");
    let referee = referee::replay::<G>(&parsed, |_, _| {}).expect("record is valid");
    referee.check_result().expect("Result tag agrees");
    black_box(G::summary(referee.state()));
    referee.turns()
}

/// Parse and validate a record of `G`, keeping only what the rules need
/// (`Keep::RULES`: no record digest unless a side signs, no copy of each
/// turn's position before it), as `show`, `legal` and `check --all` do;
/// the number of turns.
fn validate<G: Game>(bytes: &[u8]) -> u32 {
    let source = Source::new(bytes).expect("record text");
    let parsed = record::parse(&source).expect("record parses");
    let referee = referee::replay_keeping::<G>(&parsed, referee::Keep::RULES, |_, _| {})
        .expect("record is valid");
    referee.check_result().expect("Result tag agrees");
    black_box(G::summary(referee.state()));
    referee.turns()
}

/// What `herald check` does with the bytes of a plain record of `G`
/// since it reads records a part at a time (`referee::Replay::check`,
/// which `check` calls): the record read once, a part at a time, each
/// turn played as it is read (`Keep::RULES`); the number of turns.
fn streamed<G: Game>(bytes: &[u8]) -> u32 {
    let reader = stream::Reader::new(bytes).expect("a plain record whose header parses");
    let referee = referee::Replay::<G>::check(reader, None).expect("record is valid");
    black_box(G::summary(referee.state()));
    referee.turns()
}

fn parse_only(bytes: &[u8]) -> usize {
    let source = Source::new(bytes).expect("record text");
    let parsed = record::parse(&source).expect("record parses");
    parsed.turns.len()
}

/// All the benchmarks of one game.
/// Write the plain and committed records of `G` to `dir`, as
/// `<game>-<plain|commit>-<seed>.pbem`.
fn write_records<G: Game>(dir: &std::path::Path) {
    std::fs::create_dir_all(dir).expect("the records' folder");
    for proofs in [Proofs::Plain, Proofs::Commit] {
        for seed in 0..RECORDS as u64 {
            if let Some(text) = selfplay::<G>(seed, proofs) {
                let name = format!("{}-{}-{seed}.pbem", G::ID, proofs.name());
                std::fs::write(dir.join(name), text).expect("a record written");
            }
        }
    }
}

fn game<G: Game>(c: &mut Criterion) {
    if let Some(dir) = std::env::var_os("HERALD_RECORDS_DIR") {
        write_records::<G>(std::path::Path::new(&dir));
        return;
    }
    for proofs in [Proofs::Plain, Proofs::Commit, Proofs::Signed] {
        let texts: Vec<String> = (0..RECORDS as u64)
            .filter_map(|seed| selfplay::<G>(seed, proofs))
            .collect();
        if texts.is_empty() {
            continue;
        }
        let total: u64 = texts.iter().map(|t| turns(t)).sum();
        let name = format!("{}/{}", G::ID, proofs.name());
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(total));
        group.sample_size(20);
        group.measurement_time(Duration::from_secs(8));
        group.bench_function("parse+replay", |b| {
            b.iter(|| {
                for text in &texts {
                    black_box(check::<G>(black_box(text.as_bytes())));
                }
            })
        });
        group.bench_function("validate", |b| {
            b.iter(|| {
                for text in &texts {
                    black_box(validate::<G>(black_box(text.as_bytes())));
                }
            })
        });
        group.bench_function("streamed", |b| {
            b.iter(|| {
                for text in &texts {
                    black_box(streamed::<G>(black_box(text.as_bytes())));
                }
            })
        });
        group.bench_function("parse", |b| {
            b.iter(|| {
                for text in &texts {
                    black_box(parse_only(black_box(text.as_bytes())));
                }
            })
        });
        group.finish();
    }

    long_record::<G>(c, Proofs::Commit);
    long_record::<G>(c, Proofs::Signed);
}

/// One long record: the first self-play game that runs the full 300
/// turns, else the longest of 100 (some games end sooner), with `proofs`
/// when the game allows them, as `herald check` handles it.
fn long_record<G: Game>(c: &mut Criterion, proofs: Proofs) {
    let (mut long, mut long_turns) = (String::new(), 0);
    for seed in 1000..1100 {
        let Some(text) = selfplay::<G>(seed, proofs).or_else(|| selfplay::<G>(seed, Proofs::Plain))
        else {
            continue;
        };
        let n = turns(&text);
        if n > long_turns {
            (long, long_turns) = (text, n);
        }
        if n == u64::from(MAX_TURNS) {
            break;
        }
    }
    assert!(long_turns > 0, "no self-play game of {}", G::ID);
    let suffix = if proofs == Proofs::Signed {
        "-signed"
    } else {
        ""
    };
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("check-{long_turns}{suffix}-{}.pbem", G::ID));
    std::fs::write(&file, &long).expect("write the long record");
    let mut group = c.benchmark_group(format!("{}/check-{long_turns}{suffix}", G::ID));
    group.throughput(Throughput::Elements(long_turns));
    group.bench_function("end-to-end", |b| {
        b.iter(|| black_box(check::<G>(black_box(long.as_bytes()))))
    });
    group.bench_function("streamed", |b| {
        b.iter(|| black_box(streamed::<G>(black_box(long.as_bytes()))))
    });
    group.finish();
    if proofs == Proofs::Signed && sealed_lines(&long) > 0 {
        signed_floor::<G>(&long, long_turns);
    }
}

/// The lines of `text` that carry a signature (`sig` item lines).
fn sealed_lines(text: &str) -> usize {
    text.lines()
        .filter(|l| l.trim_start().starts_with("sig "))
        .count()
}

/// A signed record's check against the floor of its signatures (issue
/// 30), in CPU time ([`cpu::cpu_pairs`]): as many Ed25519 signatures of
/// 240-byte messages (a line's sealed bytes are about as long) by two
/// keys as the record has sealed lines, verified in merged-key batches
/// of 256 (`fairness::seals_verify`, spec section 3.8; the replay's
/// window), against `herald check`'s streamed read and its whole read.
fn signed_floor<G: Game>(long: &str, turns: u64) {
    let n = sealed_lines(long);
    let (signers, messages, sigs) = signed_messages(n, 240);
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let floor = || {
        for at in (0..n).step_by(256) {
            let end = (at + 256).min(n);
            assert!(herald::fairness::seals_verify(
                &signers[at..end],
                black_box(&refs[at..end]),
                &sigs[at..end]
            ));
        }
    };
    let label = format!("{}/check-{turns}-signed ({n} signatures)", G::ID);
    let streamed = || {
        black_box(streamed::<G>(black_box(long.as_bytes())));
    };
    let whole = || {
        black_box(check::<G>(black_box(long.as_bytes())));
    };
    cpu::cpu_pairs(
        &format!("{label}, streamed"),
        &[("floor", &floor)],
        &streamed,
    );
    cpu::cpu_pairs(
        &format!("{label}, end-to-end"),
        &[("floor", &floor)],
        &whole,
    );
}

/// The crowded Battlegates positions: of every turn start of 20
/// self-play games (uniform random play, seeds 0 to 19, up to 300 turns),
/// the one with the most legal card actions, and of the dice phases after
/// a discard at those turn starts, the one with the most legal runs and
/// shots; with the text of the position the turn began from.
fn crowded_battlegates() -> [(String, <Battlegates as Game>::State, String); 2] {
    let mut best: [(usize, Option<<Battlegates as Game>::State>, String); 2] =
        [(0, None, String::new()), (0, None, String::new())];
    for seed in 0..20 {
        let Some(text) = selfplay::<Battlegates>(seed, Proofs::Commit) else {
            continue;
        };
        let source = Source::new(text.as_bytes()).expect("self-play text is a record");
        let parsed = record::parse(&source).expect("self-play parses");
        let mut before = String::new();
        referee::replay::<Battlegates>(&parsed, |played, referee| {
            let mut legal = Vec::new();
            // `replay` keeps every turn's position before it.
            let Some(start) = played.before.as_deref().cloned() else {
                return;
            };
            Battlegates::legal_actions(&start, &mut legal);
            let discard = legal
                .iter()
                .find(|a| action_text::<Battlegates>(a).starts_with("discard "))
                .copied();
            if legal.len() > best[0].0 {
                best[0] = (legal.len(), Some(start.clone()), before.clone());
            }
            if let Some(discard) = discard {
                let mut dice = start;
                if Battlegates::apply(&mut dice, discard).is_ok() {
                    legal.clear();
                    Battlegates::legal_actions(&dice, &mut legal);
                    if legal.len() > best[1].0 {
                        best[1] = (legal.len(), Some(dice), before.clone());
                    }
                }
            }
            before = position_text::<Battlegates>(referee.state());
        })
        .expect("self-play replays");
    }
    best.map(|(n, state, text)| {
        let state = state.expect("a Battlegates turn");
        (format!("{n} legal actions"), state, text)
    })
}

/// `legal_actions` on crowded Battlegates positions (must stay well under
/// 10 ms).
fn battlegates_legal(c: &mut Criterion) {
    let mut group = c.benchmark_group("battlegates/legal");
    for (phase, (count, state, text)) in ["card-phase", "dice-phase"]
        .into_iter()
        .zip(crowded_battlegates())
    {
        let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("battlegates-legal-{phase}.txt"));
        let mut legal = Vec::new();
        Battlegates::legal_actions(&state, &mut legal);
        let listed: Vec<String> = legal.iter().map(action_text::<Battlegates>).collect();
        let note = format!(
            "{count}; the turn began from\n{text}\n{}\n{}\n",
            Battlegates::summary(&state),
            listed.join("\n")
        );
        std::fs::write(&file, note).expect("write the crowded position");
        group.bench_function(phase, |b| {
            b.iter(|| {
                let mut out = Vec::new();
                Battlegates::legal_actions(black_box(&state), &mut out);
                black_box(out.len())
            })
        });
    }
    group.finish();
}

/// Signers' keys, messages and their signatures ([`signed_messages`]).
type Signed = (
    Vec<ed25519_dalek::VerifyingKey>,
    Vec<Vec<u8>>,
    Vec<[u8; 64]>,
);

/// `n` messages of `len` bytes (each different) signed by two keys in
/// turn, as a two-sided record's lines are: the signers' keys, the
/// messages and the signatures.
fn signed_messages(n: usize, len: usize) -> Signed {
    use ed25519_dalek::Signer;
    let keys = [
        herald::fairness::signing_key(&[1; 32]),
        herald::fairness::signing_key(&[2; 32]),
    ];
    let messages: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            let mut m = vec![b'x'; len];
            m[..8].copy_from_slice(&(i as u64).to_be_bytes());
            m
        })
        .collect();
    let signers = (0..n).map(|i| keys[i % 2].verifying_key()).collect();
    let sigs = (0..n)
        .map(|i| keys[i % 2].sign(&messages[i]).to_bytes())
        .collect();
    (signers, messages, sigs)
}

/// The floor of a signed record's seals (issue 30): `n` Ed25519
/// signatures of 200-byte messages by two keys, as a two-sided record
/// holds them, checked one by one (`verify_strict`) and as one batch
/// with each key once (`fairness::seals_verify`, spec section 3.8).
fn seals(c: &mut Criterion) {
    let mut group = c.benchmark_group("seals");
    group.sample_size(10);
    for n in [64usize, 256] {
        let (signers, messages, sigs) = signed_messages(n, 200);
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        assert!(herald::fairness::seals_verify(&signers, &refs, &sigs));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("one-by-one/{n}"), |b| {
            b.iter(|| {
                (0..n).all(|i| herald::fairness::seal_verifies(&signers[i], refs[i], &sigs[i]))
            })
        });
        group.bench_function(format!("merged-batch/{n}"), |b| {
            b.iter(|| herald::fairness::seals_verify(&signers, black_box(&refs), &sigs))
        });
    }
    group.finish();
}

/// Whether the benchmarks of game `id` may run: the free arguments of
/// the command line (criterion's filter among them) name this game, or
/// name none. A filter naming one game then skips making the other
/// games' records, which takes minutes.
fn selected(id: &str) -> bool {
    let free: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let names = |game: &str| free.iter().any(|a| a.contains(game));
    names(id) || !GAME_IDS.iter().any(|game| names(game))
}

fn benches(c: &mut Criterion) {
    fn run<G: Game>(c: &mut Criterion) {
        if selected(G::ID) {
            game::<G>(c);
        }
    }
    macro_rules! each {
        ($($module:ident: $game:ty),*) => {
            $(run::<$game>(c);)*
        };
    }
    herald::for_each_game!(each);
    if selected(Battlegates::ID) && std::env::var_os("HERALD_RECORDS_DIR").is_none() {
        battlegates_legal(c);
    }
    if selected("seals") && std::env::var_os("HERALD_RECORDS_DIR").is_none() {
        seals(c);
    }
}

criterion_group!(replay, benches);
criterion_main!(replay);
