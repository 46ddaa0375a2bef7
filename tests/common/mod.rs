//! What the flow tests share: the real binary run in a player's
//! directory, its output read as text or JSON.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// `herald` in `dir`, without colour.
pub fn herald(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("herald").unwrap();
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

/// Run `herald ARGS` in `dir`; it must succeed. Its standard output.
pub fn run(dir: &Path, args: &[&str]) -> String {
    let out = herald(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "herald {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Run `herald ARGS` in `dir` (it must succeed) and read its JSON.
pub fn json(dir: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&run(dir, args)).unwrap()
}
