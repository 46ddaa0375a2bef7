//! Battlegates self-play, surveyed: for each policy, the mean length of a
//! game and how its characters were killed, over seeds 0 to N - 1.
//!
//! `cargo run --release --example battlegates_selfplay [N] [MAX_TURNS]
//! [greedy|uniform|both] [SETUP]` (N 200, MAX_TURNS 2000, both policies
//! and the set-up `one-board` unless given; SETUP is a `Setup` tag value
//! such as `misery-run` or `four-castles-solo`). The greedy policy takes
//! about 2 minutes for 200 one-board games on one core, uniform random
//! play about as long.

use herald::games::battlegates::layouts::Layout;
use herald::games::battlegates::selfplay::{survey, Kill, Play};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let max_turns: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let plays: Vec<Play> = match args.next().as_deref() {
        Some("greedy") => vec![Play::Greedy],
        Some("uniform") => vec![Play::Uniform],
        _ => vec![Play::Greedy, Play::Uniform],
    };
    let layout = match args.next() {
        None => Layout::OneBoard,
        Some(tag) => match Layout::from_tag(&tag) {
            Some(l) => l,
            None => {
                eprintln!("no such set-up: {tag}");
                std::process::exit(2);
            }
        },
    };
    for play in plays {
        let s = match survey(layout, 0..n, play, max_turns) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}: {e}", play.name());
                std::process::exit(1);
            }
        };
        println!(
            "{} on {}: {} games, seeds 0 to {}",
            play.name(),
            layout.tag(),
            s.games,
            n.saturating_sub(1)
        );
        println!(
            "  finished within {max_turns} turns: {}; mean length {:.1} turns \
             (longest {})",
            s.finished,
            s.mean_turns(),
            s.longest
        );
        let all: u32 = s.kills.iter().sum();
        println!("  kills: {all}");
        for (kind, n) in Kill::ALL.iter().zip(s.kills) {
            let share = if all == 0 {
                0.0
            } else {
                100.0 * f64::from(n) / f64::from(all)
            };
            println!("    {:<8} {n:>6} {share:>5.1}%", kind.name());
        }
    }
}
