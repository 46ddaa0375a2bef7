//! Parse and validate the benchmark's self-play records in a loop, for a
//! profiler: `cargo run --release --example validate_loop GAME
//! plain|commit [SECONDS] [streamed]` (GAME as its `Game::ID`; SECONDS 0:
//! one pass, for counting instructions; `streamed`: read as `herald
//! check` reads a plain record, a part at a time, instead of whole). The
//! records are those of `benches/replay.rs` (seeds 0 to 49, up to 300
//! turns), made before the loop; it prints the turns validated a second.
//! Playground Battles and Battlegates have committed records only, and
//! Battlegates' carry hidden hands (its card protocol on every draw).

use std::hint::black_box;
use std::time::{Duration, Instant};

use herald::game::Game;
use herald::games::{self, GameVisitor};
use herald::record::{self, stream, Source};
use herald::referee;
use herald::selfplay::{self, Options};

#[inline(never)]
fn validate<G: Game>(bytes: &[u8]) -> u32 {
    let source = Source::new(bytes).expect("record text");
    let parsed = record::parse(&source).expect("record parses");
    let referee = referee::replay_keeping::<G>(&parsed, referee::Keep::RULES, |_, _| {})
        .expect("record is valid");
    referee.check_result().expect("Result tag agrees");
    black_box(G::summary(referee.state()));
    referee.turns()
}

/// What `herald check` does with a plain record (the `streamed`
/// benchmark, `referee::Replay::check`): the record read once, a part
/// at a time.
#[inline(never)]
fn validate_streamed<G: Game>(bytes: &[u8]) -> u32 {
    let reader = stream::Reader::new(bytes).expect("a plain record whose header parses");
    let referee = referee::Replay::<G>::check(reader, None).expect("record is valid");
    black_box(G::summary(referee.state()));
    referee.turns()
}

fn run<G: Game>(commit: bool, seconds: u64, streamed: bool) {
    let each = if streamed {
        validate_streamed::<G>
    } else {
        validate::<G>
    };
    let texts: Vec<String> = (0..50)
        .filter_map(|seed| {
            let mut options = Options::new::<G>(seed, G::MIN_SIDES);
            options.max_turns = 300;
            options.commitments = commit;
            selfplay::record::<G>(&options).ok()
        })
        .collect();
    let start = Instant::now();
    let mut turns = 0u64;
    loop {
        for text in &texts {
            turns += u64::from(each(black_box(text.as_bytes())));
        }
        if start.elapsed() >= Duration::from_secs(seconds) {
            break;
        }
    }
    let rate = turns as f64 / start.elapsed().as_secs_f64();
    println!(
        "{} {}{}: {turns} turns, {rate:.0} turns/s (a state {} bytes, an action {})",
        G::ID,
        if commit { "commit" } else { "plain" },
        if streamed { " streamed" } else { "" },
        std::mem::size_of::<G::State>(),
        std::mem::size_of::<G::Action>()
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let game = args.next().unwrap_or_default();
    let commit = args.next().as_deref() == Some("commit");
    let seconds = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let streamed = args.next().as_deref() == Some("streamed");
    let run = Run {
        commit,
        seconds,
        streamed,
    };
    if let Err(e) = games::dispatch(&game, run) {
        eprintln!("{e}\nusage: validate_loop GAME plain|commit [SECONDS] [streamed]");
    }
}

/// [`run`] for the game of the registry named on the command line.
struct Run {
    commit: bool,
    seconds: u64,
    streamed: bool,
}

impl GameVisitor for Run {
    type Output = ();
    fn visit<G: Game>(self) {
        run::<G>(self.commit, self.seconds, self.streamed);
    }
}
