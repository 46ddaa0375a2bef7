//! A long legal record, for measuring `herald check`'s memory
//! (`benches/RESULTS.md`): a Castle Danger game of TURNS turns in which
//! Blue and Red pass in turn, each line padded with a comment so that the
//! record fills BYTES bytes when given (at most 8 MiB, the input limit).
//!
//! `cargo run --release --example long_record TURNS [BYTES] > game.pbem`
//! (TURNS at most 50,000, the most a record may hold).

use std::io::Write;

const HEADER: &str = "[Game \"castle-danger\"]\n\
                      [Blue \"ann@example.org\"]\n\
                      [Red \"bob@example.org\"]\n\
                      [Result \"*\"]\n\n";

/// The record: TURNS passing lines, each padded to about BYTES / TURNS.
fn record(turns: usize, bytes: Option<usize>) -> String {
    let mut text = String::from(HEADER);
    let bare: usize = (1..=turns).map(|n| line(n, 0).len()).sum();
    let spare = bytes.map_or(0, |b| b.saturating_sub(HEADER.len() + bare));
    let (each, extra) = (spare / turns.max(1), spare % turns.max(1));
    for n in 1..=turns {
        text.push_str(&line(n, each + usize::from(n <= extra)));
    }
    text
}

/// Line `n`, with a comment of `pad` bytes (at least 3: ` {}`) when asked.
fn line(n: usize, pad: usize) -> String {
    let side = if n % 2 == 1 { "Blue" } else { "Red" };
    let comment = match pad {
        0 => String::new(),
        1 => " ".into(),
        2 => "  ".into(),
        _ => format!(" {{{}}}", "a".repeat(pad - 3)),
    };
    format!("{n}. {side}: pass{comment}\n")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let turns: usize = match args.next().and_then(|a| a.parse().ok()) {
        Some(n) if n <= 50_000 => n,
        _ => {
            eprintln!("usage: long_record TURNS [BYTES] (TURNS at most 50000)");
            std::process::exit(2);
        }
    };
    let bytes = args.next().and_then(|a| a.parse().ok());
    let text = record(turns, bytes);
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        eprintln!("long_record: {e}");
        std::process::exit(2);
    }
}
