//! Reading records and writing files safely: readers never modify a file;
//! writers write a temporary file beside the target and rename it over,
//! so the original stays untouched on any error.

use std::io::{Read, Write};
use std::path::Path;

use super::report::{Failure, Problem};
use crate::record::{self, Found, InputError, Source, MAX_INPUT};

/// How a path is named in messages (`-` is standard input).
pub fn origin(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// Read at most `MAX_INPUT + 1` bytes of a file, or of standard input for `-`.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, Failure> {
    let mut buf = Vec::new();
    let limit = (MAX_INPUT + 1) as u64;
    let result = if path.as_os_str() == "-" {
        std::io::stdin().lock().take(limit).read_to_end(&mut buf)
    } else {
        let meta = std::fs::metadata(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
        if meta.is_dir() {
            // A Maildir folder is read by `load_all`.
            return Err(Failure::usage(format!(
                "{} is a directory, not a game record",
                path.display()
            )));
        }
        std::fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut buf))
    };
    result.map_err(|e| Failure::usage(format!("cannot read {}: {e}", origin(path))))?;
    Ok(buf)
}

/// Read a record's source text from a file or `-`: a record, a text or
/// email holding one, an mbox file or a Maildir folder (the newest record
/// of the game, or the one in message `message`); with how to name where
/// it stands in messages.
pub fn load(path: &Path, message: Option<usize>) -> Result<(Source, String), Failure> {
    let found = record::newest(load_all(path)?, message).map_err(|e| invalid(&e, path))?;
    let origin = found_origin(path, &found);
    Ok((found.source, origin))
}

fn invalid(e: &InputError, path: &Path) -> Failure {
    Failure::invalid(Problem::from_input(e), &origin(path))
}

/// Every record in a file, `-` or a Maildir folder.
pub fn load_all(path: &Path) -> Result<Vec<Found>, Failure> {
    if path.as_os_str() != "-" && path.is_dir() {
        let messages = read_maildir(path)?;
        return record::records_in_messages(&messages).map_err(|e| invalid(&e, path));
    }
    let bytes = read_bytes(path)?;
    record::records(&bytes).map_err(|e| invalid(&e, path))
}

/// How a record found in `path` is named in messages: the file, and the
/// message and decoded part it stands in.
pub fn found_origin(path: &Path, found: &Found) -> String {
    let mut text = origin(path);
    if let Some(m) = found.message {
        text.push_str(&format!(", message {m}"));
    }
    if let Some(part) = found.source.part() {
        text.push_str(&format!(" [{part}]"));
    }
    text
}

/// Most messages read from a Maildir folder.
const MAX_MESSAGES: usize = 10_000;

/// The messages of a Maildir folder (`cur/` and `new/`), oldest first as
/// their names tell (a Maildir name starts with its delivery time).
fn read_maildir(dir: &Path) -> Result<Vec<Vec<u8>>, Failure> {
    let mut names = Vec::new();
    for sub in ["cur", "new"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                names.push((entry.file_name(), entry.path()));
            }
        }
    }
    if names.is_empty() {
        return Err(Failure::usage(format!(
            "{} is a directory, not a game record (nor a Maildir folder with messages in cur/ or new/)",
            dir.display()
        )));
    }
    if names.len() > MAX_MESSAGES {
        return Err(Failure::usage(format!(
            "{} holds more than {MAX_MESSAGES} messages: name one message file instead",
            dir.display()
        )));
    }
    names.sort();
    let mut messages = Vec::new();
    for (_, path) in names {
        messages.push(read_bytes(&path)?);
    }
    Ok(messages)
}

/// Replace `path` with `contents` atomically (temporary file + rename).
/// A symbolic link is followed: the file it points to is replaced. A new
/// file gets the usual permissions (0666 less the umask); an existing one
/// keeps its own.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    let resolved = std::fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    write_replacing(path, contents, false)
}

fn write_replacing(path: &Path, contents: &[u8], no_clobber: bool) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| Failure::usage(format!("cannot write {}: {e}", path.display()));
    let mut builder = tempfile::Builder::new();
    builder.prefix(".herald-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created with open(2)'s mode, so the umask applies.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(fail)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = tmp.as_file().set_permissions(meta.permissions());
    }
    tmp.write_all(contents).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    if no_clobber {
        tmp.persist_noclobber(path).map_err(|e| fail(e.error))?;
    } else {
        tmp.persist(path).map_err(|e| fail(e.error))?;
    }
    Ok(())
}

/// Create a new file that must not exist yet, atomically, readable by its
/// owner only (for key files).
pub fn write_new_private(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    if path.exists() {
        return Err(Failure::usage(format!(
            "{} exists already: herald never overwrites a key file",
            path.display()
        )));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| Failure::usage(format!("cannot write {}: {e}", path.display()));
    let mut tmp = tempfile::Builder::new()
        .prefix(".herald-key-")
        .tempfile_in(dir)
        .map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(fail)?;
    }
    tmp.write_all(contents).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist_noclobber(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Create a new file that must not exist yet (for `herald new -o`); the
/// final rename refuses to replace a file that appeared meanwhile.
pub fn write_new(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    let exists = || {
        Failure::usage(format!(
            "{} exists already: choose another name or remove it first",
            path.display()
        ))
    };
    if path.symlink_metadata().is_ok() {
        return Err(exists());
    }
    write_replacing(path, contents, true).map_err(|e| if path.exists() { exists() } else { e })
}
