//! Every test a document cites exists: the spec, the README and the
//! documents in `docs/` name the tests that hold their rules and rulings
//! (`a_shot_whose_first_hit_is_an_ally_is_illegal`), and a test renamed or
//! removed must take its citation with it. A citation is a name in
//! backticks of four or more lower-case words joined by `_`; it must be a
//! function (`fn name`) somewhere in `src/` or `tests/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// The names in backticks that read as test names.
fn citations(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| {
            let parts: Vec<&str> = word.split('_').collect();
            parts.len() >= 4
                && parts.iter().all(|p| {
                    !p.is_empty()
                        && p.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                })
                && word.starts_with(|c: char| c.is_ascii_lowercase())
        })
        .map(str::to_owned)
        .collect()
}

/// Every function name defined in `src/` and `tests/`.
fn functions(root: &Path) -> BTreeSet<String> {
    let mut files = Vec::new();
    files_under(&root.join("src"), "rs", &mut files);
    files_under(&root.join("tests"), "rs", &mut files);
    let mut names = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for piece in text.split("fn ").skip(1) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            names.insert(name);
        }
    }
    names
}

#[test]
fn every_test_a_document_cites_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut documents = vec![
        root.join("notation-spec.md"),
        root.join("README.md"),
        root.join("ARCHITECTURE.md"),
    ];
    files_under(&root.join("docs"), "md", &mut documents);
    let defined = functions(root);
    let mut cited = 0;
    let mut missing = Vec::new();
    for document in &documents {
        let Ok(text) = std::fs::read_to_string(document) else {
            continue;
        };
        for name in citations(&text) {
            cited += 1;
            if !defined.contains(&name) {
                missing.push(format!(
                    "{}: `{name}`",
                    document.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    // The spec alone cites hundreds: a reader that found none is broken.
    assert!(cited > 300, "only {cited} citations found");
    assert!(
        missing.is_empty(),
        "cited but no such test:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_citation_is_four_or_more_lower_case_words_in_backticks() {
    let text = "see `a_shot_is_never_free` and `chain_step`, `Not_A_Test_Name`, \
                `herald check --all`, `two_words_only`";
    assert_eq!(
        citations(text).into_iter().collect::<Vec<_>>(),
        vec!["a_shot_is_never_free".to_owned()]
    );
}
