//! The hostile shapes of `benches/hostile.rs`: Castle Danger records of
//! a given size (at most 8 MiB, the input limit), one a shape. Shared by
//! that bench and the example `hostile_record` (`#[path]`), which writes
//! one to a file for whole-process measures (`/usr/bin/time`).

#![allow(dead_code)]

/// The size of every input: the input limit less a little room.
pub const SIZE: usize = 8 * 1024 * 1024 - 4096;

/// The size of the inputs of `hostile-small/<shape>/whole`: the whole
/// read of each shape, small enough to run in seconds
/// (`cargo bench --bench hostile -- hostile-small`).
pub const SMALL: usize = 256 * 1024;

const HEADER: &str = "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n\
    [Red \"bob@example.org\"]\n[Result \"*\"]\n\n";

const TURNS: &str = "1. Blue: +B, Bd1-d2, Bd2+d3, Kc1-b1\n2. Red: +C, Cd9-d8, Cd8*d3\n";

/// The header, two turns, `filler` as many times as fits in `size`, a
/// last turn.
fn filled(size: usize, filler: &str) -> String {
    let mut text = format!("{HEADER}{TURNS}");
    let room = size - text.len() - 40;
    text.push_str(&filler.repeat(room / filler.len().max(1)));
    text + "3. Blue: pass\n"
}

/// The yardstick: passing turns (50,000 at `SIZE`) padded with comments
/// to `size`.
fn valid(size: usize) -> String {
    let turns = 50_000 * size / SIZE;
    let line = |n: usize| format!("{n}. {}: pass", if n % 2 == 1 { "Blue" } else { "Red" });
    let bare: usize = (1..=turns).map(|n| line(n).len() + 1).sum();
    let pad = (size - HEADER.len() - bare) / turns;
    let mut text = String::from(HEADER);
    for n in 1..=turns {
        text.push_str(&format!("{} {{{}}}\n", line(n), "a".repeat(pad - 3)));
    }
    text
}

/// Every shape, of `size` bytes or a little less.
pub fn shapes(size: usize) -> Vec<(&'static str, String)> {
    let filled = |filler: &str| filled(size, filler);
    let tags: String = (0..200_000).map(|k| format!("[Tag{k} \"v\"]\n")).collect();
    let tags = format!("{HEADER}{TURNS}").replace("[Result", &format!("{tags}[Result"));
    let giant = filled("").replace(
        "3. Blue",
        &format!("{{{}}}\n3. Blue", "a comment line\n".repeat(size / 15 - 10)),
    );
    let giant_line = filled("").replace(
        "3. Blue",
        &format!("{{{}}}\n3. Blue", "a".repeat(size - 300)),
    );
    let spaces = filled("").replace("3. Blue", &format!("{}\n3. Blue", " ".repeat(size - 300)));
    let quote = |text: &str| -> String { text.lines().map(|l| format!("> > > > {l}\n")).collect() };
    let mut quoted = quote(&format!("{HEADER}{TURNS}"));
    let last = quote("3. Blue: pass\n");
    let filler = quote(">\n");
    quoted.push_str(&filler.repeat((size - quoted.len() - last.len()) / filler.len()));
    quoted.push_str(&last);
    vec![
        ("valid", valid(size)),
        ("tags", tags),
        ("blank", filled("\n")),
        (
            "crlf",
            filled("\r\n").replace('\n', "\r\n").replace("\r\r", "\r"),
        ),
        ("comment", filled("; a comment line\n")),
        ("brace", filled("{ a comment }\n")),
        ("giant", giant),
        ("giant-line", giant_line),
        ("spaces", spaces),
        ("quote", quoted),
    ]
}
