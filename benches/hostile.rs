//! Criterion benchmarks of hostile input at the input limit:
//! `cargo bench --bench hostile` (one shape: `-- hostile/blank`).
//!
//! Each shape is a Castle Danger record of just under 8 MiB (the most
//! an input may be), made once outside the timed loop, read two ways,
//! throughput in bytes a second:
//! - `hostile/<shape>/streamed`: what `herald check` does with a plain
//!   record: `stream::Reader` reading it a part at a time,
//!   `referee::Replay::check` playing each turn as it is read;
//! - `hostile/<shape>/whole`: what `show` and the other readers do:
//!   `Source::new` + `record::parse` + `referee::replay_keeping`
//!   (`Keep::RULES`) of the whole text.
//!
//! `hostile-small/<shape>/whole` is the whole read of every shape at 256
//! KiB, to run in seconds (`-- hostile-small`); the figures at the input
//! limit for `show`, `legal` and `annotate` as whole processes are
//! paired whole-process runs' and `/usr/bin/time`'s (benches/RESULTS.md).
//!
//! The shapes: `valid`, the yardstick (50,000 passing turns, each line
//! padded with a `{...}` comment to fill the size, as
//! `examples/long_record.rs` makes it); `tags` (200,000 header tags:
//! refused at the 1,001st); `blank` (blank lines); `crlf` (lines of a
//! carriage return alone, the record's lines ended so too); `comment`
//! (`;` comment lines); `brace` (a `{...}` comment a line); `giant` (one
//! `{` comment over every line); `giant-line` (one `{` comment on one
//! line) and `spaces` (one line of spaces), both refused at that line,
//! longer than a record's line may be (`record::MAX_LINE`, 64 KiB);
//! `quote` (the record quoted `> > > > ` and lines of quote marks
//! alone). Every shape but the first holds three turns (or none, for
//! `tags`). A hostile shape is to be read at no less than a tenth of the
//! yardstick's bytes a second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use herald::games::castle_danger::CastleDanger;
use herald::record::{self, stream, Source};
use herald::referee;

#[path = "../examples/common/hostile_shapes.rs"]
mod hostile_shapes;
use hostile_shapes::{shapes, SIZE, SMALL};

/// Whether the shape `name` is a valid record: all but the header of
/// too many tags and the two lines longer than a record's line may be.
fn valid(name: &str) -> bool {
    !matches!(name, "tags" | "giant-line" | "spaces")
}

/// `herald check` of a plain record, past the file read: true when it
/// is valid.
fn streamed(bytes: &[u8]) -> bool {
    match stream::Reader::new(bytes) {
        Ok(reader) => referee::Replay::<CastleDanger>::check(reader, None).is_ok(),
        Err(_) => false,
    }
}

/// The whole read of the other readers: true when the record is valid.
fn whole(bytes: &[u8]) -> bool {
    let Ok(source) = Source::new(bytes) else {
        return false;
    };
    let Ok(parsed) = record::parse(&source) else {
        return false;
    };
    referee::replay_keeping::<CastleDanger>(&parsed, referee::Keep::RULES, |_, _| {}).is_ok()
}

fn benches(c: &mut Criterion) {
    for (name, text) in shapes(SMALL) {
        let valid = valid(name);
        assert_eq!(whole(text.as_bytes()), valid, "{name} whole, small");
        let mut group = c.benchmark_group(format!("hostile-small/{name}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(200));
        group.measurement_time(Duration::from_secs(1));
        group.bench_function("whole", |b| {
            b.iter(|| black_box(whole(black_box(text.as_bytes()))))
        });
        group.finish();
    }
    for (name, text) in shapes(SIZE) {
        assert!(text.len() <= 8 * 1024 * 1024, "{name}: {}", text.len());
        let valid = valid(name);
        assert_eq!(streamed(text.as_bytes()), valid, "{name} streamed");
        assert_eq!(whole(text.as_bytes()), valid, "{name} whole");
        let mut group = c.benchmark_group(format!("hostile/{name}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(3));
        group.bench_function("streamed", |b| {
            b.iter(|| black_box(streamed(black_box(text.as_bytes()))))
        });
        group.bench_function("whole", |b| {
            b.iter(|| black_box(whole(black_box(text.as_bytes()))))
        });
        group.finish();
    }
}

criterion_group!(hostile, benches);
criterion_main!(hostile);
