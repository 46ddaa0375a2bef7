//! Criterion benchmarks of what `move --key` and `legal --key` replay
//! (issue 30): `cargo bench --bench keyed`.
//!
//! For Castle Danger (committed, every line signed) and Battlegates
//! with hidden hands (signed), a self-played game of `n` = 30 and 300
//! turns, still going, and the key file of the side whose line is due,
//! remembering that side's last line (`sent:`, spec section 3.8), as
//! `move --key` leaves it:
//! - `keyed/<game>/<n>/whole`: the replay `move --key` made before, every
//!   signature and share proof verified (`referee::replay_keeping` with
//!   the record digest);
//! - `keyed/<game>/<n>/from-checked`: the replay it makes now
//!   (`referee::replay_from_checked` from the digest the key file
//!   remembers): the lines up to the player's last are not verified
//!   again.
//!
//! Each record and key file is also written to
//! `target/tmp/keyed-<game>-<n>.pbem` and `.key`, for timing the binary
//! (`herald move --dry-run`, benches/RESULTS.md); with
//! `HERALD_LONG_GAME=1` the long game of `benches/deck.rs` is written to
//! `target/tmp/long-battlegates.pbem` too (for peak memory). One thread; the
//! records are made outside the timed loop.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use herald::fairness::{chain_id, Hash};
use herald::game::{Game, Side};
use herald::games::battlegates::Battlegates;
use herald::games::castle_danger::CastleDanger;
use herald::record::{self, LineKind, Source};
use herald::referee::{self, Checked, Keep, Referee};
use herald::selfplay;
use herald::wallet::{Sent, Wallet};

/// A self-played, signed game of `G` of `turns` turns (or fewer, if it
/// ends first) with `tags`, and the key file of the side whose line is
/// due, remembering its last line.
fn keyed<G: Game>(seed: u64, turns: u32, tags: &[(&str, &str)]) -> (String, Wallet) {
    let mut options = selfplay::Options::new::<G>(seed, G::MIN_SIDES);
    options.tags = tags
        .iter()
        .map(|&(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    options.signatures = true;
    options.max_turns = turns;
    let text = selfplay::record::<G>(&options).unwrap();
    let source = Source::new(text.as_bytes()).unwrap();
    let parsed = record::parse(&source).unwrap();
    // Each line's kind, number, side and the digest before and after it.
    let mut lines: Vec<(LineKind, u32, Side, Hash, Hash)> = Vec::new();
    let mut before = None;
    let referee: Referee<G> = referee::replay_keeping(&parsed, Keep::ALL, |played, referee| {
        let after = *referee.digest().unwrap();
        let start = before.unwrap_or(after);
        lines.push((played.kind, played.number, played.side, start, after));
        before = Some(after);
    })
    .unwrap();
    let due = referee.to_move().expect("the game goes on");
    let &(kind, number, _, after, digest) = lines
        .iter()
        .rev()
        .find(|l| l.2 == due)
        .expect("the side due wrote a line");
    let mut chain_tags = vec![("Game".to_owned(), G::ID.to_owned())];
    for side in &options.sides {
        let name = side.name::<G>();
        chain_tags.push((
            name.into(),
            format!("{}@example.org", name.to_ascii_lowercase()),
        ));
    }
    chain_tags.extend(options.tags.iter().cloned());
    let chain = chain_id(chain_tags.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let mut wallet =
        Wallet::from_secret(G::ID, due.name::<G>(), chain, selfplay::secret(seed, due));
    wallet.set_sent(Sent {
        kind,
        number,
        digest,
        after: Some(after),
        ended: None,
        text: None,
        reply: None,
    });
    (text, wallet)
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, seed: u64, tags: &[(&str, &str)]) {
    let mut group = c.benchmark_group(format!("keyed/{name}"));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    for n in [30u32, 300] {
        let (text, wallet) = keyed::<G>(seed, n, tags);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmp");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("keyed-{name}-{n}.pbem")), &text).unwrap();
        std::fs::write(dir.join(format!("keyed-{name}-{n}.key")), wallet.to_text()).unwrap();
        let sent = wallet.sent().unwrap().clone();
        let keep = Keep {
            digest: true,
            ..Keep::RULES
        };
        group.throughput(Throughput::Elements(u64::from(n)));
        group.bench_function(format!("{n}/whole"), |b| {
            b.iter(|| {
                let source = Source::new(text.as_bytes()).unwrap();
                let parsed = record::parse(&source).unwrap();
                let referee: Referee<G> =
                    referee::replay_keeping(&parsed, keep, |_, _| {}).unwrap();
                black_box(referee.turns())
            })
        });
        group.bench_function(format!("{n}/from-checked"), |b| {
            b.iter(|| {
                let source = Source::new(text.as_bytes()).unwrap();
                let parsed = record::parse(&source).unwrap();
                let checked = referee::replay_from_checked::<G>(
                    &parsed,
                    keep,
                    sent.digest,
                    sent.after,
                    |_, _| {},
                )
                .unwrap();
                let Checked::Replayed(referee) = checked else {
                    panic!("the key file's digest is the record's")
                };
                black_box(referee.turns())
            })
        });
    }
    group.finish();
}

/// The longest self-played Battlegates game with hidden hands of seeds 0
/// to 7 (signed, up to 5,000 turns), as `benches/deck.rs`'s long game,
/// written to `target/tmp/long-battlegates.pbem` for measuring the
/// binary's peak memory (benches/RESULTS.md).
fn write_long_game() {
    let text = (0..8)
        .map(|seed| {
            let mut options = selfplay::Options::new::<Battlegates>(seed, 2);
            options.tags = vec![("Hands".into(), "hidden".into())];
            options.signatures = true;
            options.max_turns = 5000;
            selfplay::record::<Battlegates>(&options).unwrap()
        })
        .max_by_key(String::len)
        .unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmp");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("long-battlegates.pbem"), text).unwrap();
}

fn bench(c: &mut Criterion) {
    if std::env::var_os("HERALD_LONG_GAME").is_some() {
        write_long_game();
    }
    bench_game::<CastleDanger>(c, "castle-danger", 1000, &[]);
    bench_game::<Battlegates>(c, "battlegates", 0, &[("Hands", "hidden")]);
}

criterion_group!(benches, bench);
criterion_main!(benches);
