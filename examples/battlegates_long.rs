//! Long signed Battlegates games with hidden hands, for measuring
//! `herald check`'s time a turn and memory as a game grows (issue 30,
//! `benches/RESULTS.md`):
//!
//! - `cargo run --release --example battlegates_long -- seeds`: the
//!   longest uniform self-play game of seeds 0 to 7 (844 turns, the game
//!   of `benches/deck.rs`'s `deck/long-game`);
//! - `cargo run --release --example battlegates_long -- peaceful TURNS
//!   [SEED]`: a game of TURNS turns in which nobody is killed (the
//!   policy `Peaceful` of `examples/common/long_games.rs`), cut there;
//! - `... -- replay FILE N`: replay the first N turns of the record in
//!   FILE in process (parse and referee, as `herald check` does, without
//!   process start): what `valgrind --tool=callgrind` counts a turn of;
//! - `... -- keys [SEED]`: write the two players' key files of the
//!   game of SEED (1 unless given), `south.key` and `north.key` in the
//!   current directory, so that the game can be ended and audited with
//!   `herald move FILE --key south.key resign` and `... audit`.
//!
//! The record goes to standard output.

use std::io::Write;

use herald::games::battlegates::Battlegates;
use herald::record::Source;
use herald::referee::replay;

#[path = "common/long_games.rs"]
mod long_games;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = match args.first().map(String::as_str) {
        Some("seeds") => long_games::longest_of_seeds(),
        Some("peaceful") => {
            let turns = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
            let seed = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
            long_games::peaceful(seed, turns)
        }
        Some("replay") => {
            let (Some(file), Some(n)) = (args.get(1), args.get(2).and_then(|a| a.parse().ok()))
            else {
                usage()
            };
            let text = std::fs::read_to_string(file).expect("the record reads");
            let (cut, turns) = long_games::first_turns(&text, n);
            let source = Source::new(cut.as_bytes()).unwrap();
            let record = herald::record::parse(&source).unwrap();
            let referee = replay::<Battlegates>(&record, |_, _| {}).unwrap();
            eprintln!("{turns} turns replayed, {} in the referee", referee.turns());
            return;
        }
        Some("keys") => {
            let seed = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
            let chain = herald::fairness::chain_id([
                ("Game", "battlegates"),
                ("South", "south@example.org"),
                ("North", "north@example.org"),
                ("Hands", "hidden"),
            ]);
            for (i, side) in ["South", "North"].into_iter().enumerate() {
                let secret = herald::selfplay::secret(seed, herald::game::Side(i as u8));
                let wallet =
                    herald::wallet::Wallet::from_secret("battlegates", side, chain, secret);
                let file = format!("{}.key", side.to_lowercase());
                std::fs::write(&file, wallet.to_text()).expect("the key file is written");
                eprintln!("wrote {file}");
            }
            return;
        }
        _ => usage(),
    };
    let turns = long_games::first_turns(&text, usize::MAX).1;
    eprintln!("{turns} turns, {} bytes", text.len());
    std::io::stdout().write_all(text.as_bytes()).unwrap();
}

fn usage() -> ! {
    eprintln!(
        "usage: battlegates_long seeds | peaceful TURNS [SEED] | replay FILE N | keys [SEED]"
    );
    std::process::exit(2);
}
