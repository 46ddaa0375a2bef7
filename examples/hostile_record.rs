//! One hostile shape of `benches/hostile.rs` at the input limit (just
//! under 8 MiB), written to standard output, for whole-process measures
//! such as `herald check`'s peak memory (`benches/RESULTS.md`):
//! `cargo run --release --example hostile_record -- SHAPE > shape.pbem`
//! (SHAPE `valid`, `tags`, `blank`, `crlf`, `comment`, `brace`, `giant`,
//! `giant-line`, `spaces` or `quote`; `list` names them).

use std::io::Write;

#[path = "common/hostile_shapes.rs"]
mod hostile_shapes;

fn main() {
    let wanted = std::env::args().nth(1).unwrap_or_default();
    let shapes = hostile_shapes::shapes(hostile_shapes::SIZE);
    if wanted == "list" {
        for (name, _) in &shapes {
            println!("{name}");
        }
        return;
    }
    let Some((_, text)) = shapes.into_iter().find(|(name, _)| *name == wanted) else {
        eprintln!("no such shape: {wanted} (list names them)");
        std::process::exit(2);
    };
    std::io::stdout().write_all(text.as_bytes()).unwrap();
}
