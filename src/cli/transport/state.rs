//! What herald remembers of the player's mail, in its state folder
//! (`$XDG_STATE_HOME/herald/`, or `HERALD_STATE_DIR`): the messages the
//! inbox has read (IMAP UIDs, Maildir and mbox message names), the
//! messages it sent, and the newest valid message of every game
//! (`games/GAME-ID.eml`, for `move GAME-ID`; for keys added at once on
//! two copies, both messages, one mailbox file read as their union).
//! Never the mail itself:
//! the inbox never deletes or moves a message.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::report::Failure;

/// The remembered state.
#[derive(Serialize, Deserialize, Default, Debug)]
pub(crate) struct State {
    /// Per mailbox (`imap:user@host/folder`, `maildir:PATH`), the
    /// messages read: IMAP as `UIDVALIDITY:UID`, others by name or id.
    #[serde(default)]
    pub(crate) read: BTreeMap<String, BTreeSet<String>>,
    /// The Message-IDs of the messages sent, with when (Unix seconds).
    #[serde(default)]
    pub(crate) sent: BTreeMap<String, u64>,
    /// Per game id, what the inbox last knew of it.
    #[serde(default)]
    pub(crate) games: BTreeMap<String, super::inbox::GameEntry>,
    /// Games in which two copies gave one side two different keys: game
    /// id, then the side's Key tag (lower case), then every value seen.
    /// No copy that holds one of those tags is taken again.
    #[serde(default)]
    pub(crate) key_conflicts: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
}

/// The state folder.
pub(crate) fn dir() -> Result<PathBuf, Failure> {
    if let Some(p) = std::env::var_os("HERALD_STATE_DIR").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let dirs = super::config::project_dirs().ok_or_else(|| {
        Failure::usage("no home folder is known, so herald cannot keep what the inbox read: set HERALD_STATE_DIR")
    })?;
    Ok(dirs
        .state_dir()
        .unwrap_or_else(|| dirs.data_local_dir())
        .to_owned())
}

fn file() -> Result<PathBuf, Failure> {
    Ok(dir()?.join("inbox.json"))
}

/// The state (empty when nothing was kept yet).
pub(crate) fn load() -> Result<State, Failure> {
    let path = file()?;
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            Failure::usage(format!(
                "{} cannot be read ({e}): it is herald's memory of your mail; move it away and run herald inbox again (every message is read anew)",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
        Err(e) => Err(Failure::usage(format!("cannot read {}: {e}", path.display()))),
    }
}

/// Write `bytes` to `path` (a file of the state folder, made if need
/// be) through a temporary file renamed over it.
pub(crate) fn replace(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            Failure::usage(format!("cannot make the folder {}: {e}", parent.display()))
        })?;
    }
    crate::cli::files::write_replacing(path, bytes, false)
}

/// Keep `state`.
pub(crate) fn save(state: &State) -> Result<(), Failure> {
    let text = serde_json::to_vec_pretty(state)
        .map_err(|e| Failure::usage(format!("cannot write the inbox state: {e}")))?;
    replace(&file()?, &text)
}

/// When the message `id` was sent before, if it was.
pub(crate) fn sent_before(id: &str) -> Option<u64> {
    load().ok()?.sent.get(id).copied()
}

/// Remember that the message `id` was sent now.
pub(crate) fn remember_sent(id: &str) -> Result<(), Failure> {
    let mut state = load()?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    state.sent.insert(id.to_owned(), now);
    save(&state)
}

/// The file holding the newest valid message of game `id` (or the
/// messages whose keys make the game, as an mbox file).
pub(crate) fn game_file(id: &str) -> Result<PathBuf, Failure> {
    Ok(dir()?.join("games").join(format!("{id}.eml")))
}
