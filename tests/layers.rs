//! The layers of the code, read from the source files: an arrow that goes
//! upward fails here.
//!
//! Battlegates (`src/games/battlegates`) is declared in [`BATTLEGATES`],
//! lowest layer first. A module may name modules of its own unit, of
//! units in lower layers, and nothing else: not a unit of a higher layer,
//! not a sibling unit of its own layer (each set-up is a layer over the
//! one-board game on its own). References are the paths `crate::games::
//! battlegates::...` and `super::...` in code (comments are skipped);
//! test modules (`tests.rs`, and a file's `#[cfg(test)]` tail) test the
//! whole game and are not part of a layer.
//!
//! Every game's `diagram.rs` and `picture.rs` are checked too: one may use
//! the other, not both ways.

use std::fs;
use std::path::{Path, PathBuf};

/// Battlegates' layers, lowest first: each a list of units (module paths
/// under `src/games/battlegates`, `/` between segments). The empty path
/// is the composition (`mod.rs`), above everything but the game's
/// self-play, which plays it.
const BATTLEGATES: &[&[&str]] = &[
    &["geometry"],
    &["mazes"],
    &["pieces"],
    &["moves"],
    &["one_board"],
    &["views/compact"],
    &["views/diagram"],
    &["views/picture", "views"],
    &["setups/misery", "setups/castles"],
    &["setups"],
    &[""],
    // The game's self-play plays the whole game.
    &["selfplay"],
];

const ROOT: &str = "src/games/battlegates";
const PREFIX: &str = "crate::games::battlegates::";

/// The layer and unit of a module path (its segments): the longest unit
/// that is a prefix of it.
fn unit_of(path: &[String]) -> (usize, &'static str) {
    let mut best: Option<(usize, &'static str, usize)> = None;
    for (layer, units) in BATTLEGATES.iter().enumerate() {
        for &unit in units.iter() {
            let segs: Vec<&str> = unit.split('/').filter(|s| !s.is_empty()).collect();
            let fits = segs.len() <= path.len() && segs.iter().zip(path).all(|(a, b)| *a == b);
            if fits && best.is_none_or(|(_, _, n)| segs.len() > n) {
                best = Some((layer, unit, segs.len()));
            }
        }
    }
    let (layer, unit, _) = best.expect("the empty unit fits every path");
    (layer, unit)
}

/// The module path of a source file under `ROOT`: `one_board/state.rs`
/// is `one_board::state`, `setups/castles/mod.rs` is `setups::castles`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut segs: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    segs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file, each line with its number: comments and the
/// `#[cfg(test)]` tail left out.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut all = text.lines().enumerate().peekable();
    while let Some((n, line)) = all.next() {
        let t = line.trim_start();
        if t == "#[cfg(test)]"
            && all
                .peek()
                .is_some_and(|(_, next)| next.trim_start().starts_with("mod "))
        {
            // `mod tests;` (a file of its own) or `mod tests { ... }`
            // to the end of the file.
            let (_, next) = all.next().unwrap_or_default();
            if next.trim_end().ends_with('{') {
                break;
            }
            continue;
        }
        if !t.starts_with("//") {
            lines.push((n + 1, line));
        }
    }
    lines
}

/// The identifier that starts `text`.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The module paths a line of `module`'s code names.
fn references(line: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices(PREFIX) {
        let rest = &line[at + PREFIX.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::games::battlegates::{a::X, b}`: each item's path.
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let mut segs: Vec<String> = Vec::new();
                let mut item = item.trim();
                while !item.is_empty() && !item.starts_with('{') {
                    segs.push(ident(item).to_string());
                    match item[ident(item).len()..].strip_prefix("::") {
                        Some(next) => item = next,
                        None => break,
                    }
                }
                out.push(segs);
            }
        } else {
            out.push(segments(rest));
        }
    }
    for (at, _) in line.match_indices("super::") {
        // Only the first `super::` of a chain.
        if line[..at].ends_with("super::") || line[..at].ends_with(PREFIX) {
            continue;
        }
        let mut rest = &line[at..];
        let mut base: Vec<String> = module.to_vec();
        while let Some(next) = rest.strip_prefix("super::") {
            base.pop();
            rest = next;
        }
        base.extend(segments(rest));
        out.push(base);
    }
    out
}

/// The lowercase path segments at the start of `text` (`a::b::Type`:
/// `a`, `b`).
fn segments(mut text: &str) -> Vec<String> {
    let mut segs = Vec::new();
    loop {
        let word = ident(text);
        if word.is_empty() || !word.starts_with(|c: char| c.is_ascii_lowercase()) {
            break;
        }
        segs.push(word.to_string());
        match text[word.len()..].strip_prefix("::") {
            Some(next) => text = next,
            None => break,
        }
    }
    segs
}

/// Every arrow of Battlegates that goes upward or sideways, as
/// `file:line: from -> to`.
fn wrong_arrows() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(ROOT);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).expect("under the root");
        if rel.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let module = module_of(rel);
        let (layer, unit) = unit_of(&module);
        let text = fs::read_to_string(file).expect("a source file");
        for (n, line) in code_lines(&text) {
            for target in references(line, &module) {
                let (to_layer, to_unit) = unit_of(&target);
                if to_layer > layer || (to_layer == layer && to_unit != unit) {
                    wrong.push(format!(
                        "{}:{}: `{unit}` (layer {layer}) names `{}` (unit `{to_unit}`, layer \
                         {to_layer}): {}",
                        rel.display(),
                        n,
                        target.join("::"),
                        line.trim()
                    ));
                }
            }
        }
    }
    wrong
}

#[test]
fn battlegates_layers_import_only_downward() {
    let wrong = wrong_arrows();
    assert!(
        wrong.is_empty(),
        "arrows that go up or sideways (invert them: a hook in \
         one_board/variant.rs, or data passed in):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn battlegates_every_folder_is_a_declared_unit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(ROOT);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    for file in files {
        let rel = file.strip_prefix(&root).expect("under the root");
        let folder: Vec<String> = rel
            .parent()
            .map(|p| p.iter().map(|s| s.to_string_lossy().to_string()).collect())
            .unwrap_or_default();
        if folder.is_empty() {
            assert!(
                ["mod.rs", "tests.rs"].contains(&rel.to_string_lossy().as_ref()),
                "{}: a file beside mod.rs belongs in a layer's folder",
                rel.display()
            );
        } else {
            assert_ne!(
                unit_of(&folder).1,
                "",
                "{}: its folder is in no layer of BATTLEGATES",
                rel.display()
            );
        }
    }
}

/// The test's own reader on a made-up file: an upward `use`, a `super::`
/// chain and a group are each seen, comments are not.
#[test]
fn layer_reader_sees_crate_paths_super_chains_and_groups() {
    let module: Vec<String> = vec!["one_board".into(), "rules".into()];
    let text = "use crate::games::battlegates::setups::misery;\n\
                // use crate::games::battlegates::views::diagram;\n\
                let x = super::super::views::picture::draw();\n\
                use crate::games::battlegates::{geometry::board::Loc, moves};\n\
                #[cfg(test)]\nmod tests {\nuse crate::games::battlegates::setups;\n}\n";
    let found: Vec<Vec<String>> = code_lines(text)
        .into_iter()
        .flat_map(|(_, l)| references(l, &module))
        .collect();
    let units: Vec<&str> = found.iter().map(|p| unit_of(p).1).collect();
    assert_eq!(
        units,
        ["setups/misery", "views/picture", "geometry", "moves"]
    );
    assert_eq!(unit_of(&module), (4, "one_board"));
}

/// Whether `file` names `sibling` (`super::NAME` or `games::GAME::NAME`).
fn names_sibling(file: &Path, game: &str, sibling: &str) -> bool {
    let Ok(text) = fs::read_to_string(file) else {
        return false;
    };
    let direct = format!("super::{sibling}");
    let full = format!("games::{game}::{sibling}");
    code_lines(&text).into_iter().any(|(_, l)| {
        [&direct, &full].iter().any(|p| {
            l.match_indices(p.as_str()).any(|(at, _)| {
                let after = &l[at + p.len()..];
                !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            })
        })
    })
}

#[test]
fn diagram_and_picture_do_not_import_each_other() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut checked = 0;
    for entry in fs::read_dir(&games).expect("src/games") {
        let dir = entry.expect("a folder entry").path();
        if !dir.is_dir() {
            continue;
        }
        let game = dir
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        let (diagram, picture) = (dir.join("diagram.rs"), dir.join("picture.rs"));
        if !diagram.exists() || !picture.exists() {
            continue;
        }
        checked += 1;
        let both =
            names_sibling(&diagram, &game, "picture") && names_sibling(&picture, &game, "diagram");
        assert!(
            !both,
            "{game}: diagram.rs and picture.rs import each other; keep the shared drawing \
             data in one of them (the picture) and the arrow one way"
        );
    }
    assert!(
        checked >= 4,
        "only {checked} games have diagram.rs and picture.rs"
    );
}
