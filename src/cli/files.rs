//! Reading records and writing files safely: readers never modify a file;
//! writers create only new files, or rewrite a file herald read (a record,
//! a key file) under a lock, after reading it again, never through a
//! symbolic link, keeping hard links; a temporary file beside the target
//! renamed over it, so the original stays untouched on any error.

use std::io::{Read, Write};
use std::path::Path;

use super::report::{Failure, Problem};
use crate::record::{self, Found, InputError, Source, MAX_INPUT};
use crate::referee::ErrorKind;

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
        // Room for the whole file at once (and the byte that tells it
        // ended), not grown by doubling: a long record is not copied
        // from buffer to buffer as it is read.
        buf.reserve(meta.len().min(limit) as usize + 1);
        std::fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut buf))
    };
    result.map_err(|e| Failure::usage(format!("cannot read {}: {e}", origin(path))))?;
    Ok(buf)
}

/// The file a RECORD argument names: the file itself, or, for the id of
/// a game the inbox knows (`herald show 3f2a9c1b04de`), that game's
/// newest valid message in the inbox's state folder (docs/mailbox.md).
/// The one place a game id is resolved: every command that reads or
/// writes one record opens it through here ([`open_input`], [`load`],
/// [`load_all`], and `context::with_loaded` for the file a writer
/// rewrites). A name that is a file is that file, never looked up.
pub(crate) fn record_file(path: &Path) -> Result<std::borrow::Cow<'_, Path>, Failure> {
    Ok(match super::transport::inbox::resolve(path)? {
        Some(file) => std::borrow::Cow::Owned(file),
        None => std::borrow::Cow::Borrowed(path),
    })
}

/// Open a file, or `-`, to read a record from more than once (read a
/// part at a time, or whole when it must be): standard input, or a pipe
/// named as a file (`<(...)`), is first copied to an unnamed temporary
/// file (at most `MAX_INPUT + 1` bytes), so that memory stays flat for
/// it too.
pub fn open_input(path: &Path) -> Result<std::fs::File, Failure> {
    let path = &*record_file(path)?;
    let fail = |e: std::io::Error| Failure::usage(format!("cannot read {}: {e}", origin(path)));
    if path.as_os_str() == "-" {
        return spool(std::io::stdin().lock()).map_err(fail);
    }
    let meta = std::fs::metadata(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    if meta.is_dir() {
        return Err(Failure::usage(format!(
            "{} is a directory, not a game record",
            path.display()
        )));
    }
    let file = std::fs::File::open(path).map_err(fail)?;
    if meta.is_file() {
        return Ok(file);
    }
    spool(file).map_err(fail)
}

/// At most `MAX_INPUT + 1` bytes of `input`, copied to an unnamed
/// temporary file.
fn spool(input: impl Read) -> std::io::Result<std::fs::File> {
    let mut spool = tempfile::tempfile()?;
    std::io::copy(&mut input.take((MAX_INPUT + 1) as u64), &mut spool)?;
    Ok(spool)
}

/// The whole of an input opened by [`open_input`] (at most `MAX_INPUT +
/// 1` bytes, as [`read_bytes`] reads).
pub fn read_input(file: &mut std::fs::File, path: &Path) -> Result<Vec<u8>, Failure> {
    use std::io::Seek;
    let mut buf = Vec::new();
    file.rewind()
        .and_then(|()| file.take((MAX_INPUT + 1) as u64).read_to_end(&mut buf))
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", origin(path))))?;
    Ok(buf)
}

/// [`load`] of the bytes read from `path`, for a reader.
pub fn load_bytes(path: &Path, bytes: &[u8]) -> Result<(Source, String), Failure> {
    let all = record::records(bytes).map_err(|e| invalid(&e, path))?;
    let found = record::newest(all, None).map_err(|e| invalid(&e, path))?;
    let origin = found_origin(path, &found);
    Ok((found.source, origin))
}

/// Read a record's source text from a file or `-`: a record, a text or
/// email holding one, an mbox file or a Maildir folder (the newest record
/// of the game, or the one in message `message`); with how to name where
/// it stands in messages, and, when `stamping` asks for it, the stamp of
/// the bytes read (a writer checks it before it rewrites the file;
/// readers skip the hash).
pub fn load(
    path: &Path,
    message: Option<usize>,
    stamping: Stamping,
) -> Result<(Source, String, Option<Stamp>), Failure> {
    let (all, stamp) = read_all(path, stamping)?;
    let found = record::newest(all, message).map_err(|e| invalid(&e, path))?;
    let origin = found_origin(path, &found);
    Ok((found.source, origin, stamp))
}

/// Whether [`load`] takes the stamp of the bytes it reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stamping {
    /// A writer: the stamp, to check before rewriting the file.
    Stamp,
    /// A reader: no stamp (it rewrites nothing).
    Skip,
}

fn invalid(e: &InputError, path: &Path) -> Failure {
    Failure::invalid(Problem::from_input(e), &origin(path))
}

/// Every record in a file, `-` or a Maildir folder.
pub fn load_all(path: &Path) -> Result<Vec<Found>, Failure> {
    read_all(path, Stamping::Skip).map(|(all, _)| all)
}

/// Every record in a file, `-` or a Maildir folder, and the stamp of the
/// bytes read when `stamping` asks for it (a folder's is all zeros: no
/// writer rewrites one).
fn read_all(path: &Path, stamping: Stamping) -> Result<(Vec<Found>, Option<Stamp>), Failure> {
    let path = &*record_file(path)?;
    if path.as_os_str() != "-" && path.is_dir() {
        let messages = read_maildir(path)?;
        let all = record::records_in_messages(&messages).map_err(|e| invalid(&e, path))?;
        return Ok((all, (stamping == Stamping::Stamp).then_some([0; 32])));
    }
    let bytes = read_bytes(path)?;
    let all = record::records(&bytes).map_err(|e| invalid(&e, path))?;
    Ok((all, (stamping == Stamping::Stamp).then(|| stamp(&bytes))))
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

/// The SHA-256 of the bytes a writer read, to see whether the file
/// changed before it writes.
pub type Stamp = [u8; 32];

/// The stamp of `bytes`.
pub fn stamp(bytes: &[u8]) -> Stamp {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// `-` means standard input or output, never a file herald writes.
fn refuse_dash(path: &Path) -> Result<(), Failure> {
    if path.as_os_str() == "-" {
        return Err(Failure::usage(
            "`-` means standard output here: herald never writes a file named `-` (use ./- if you must)",
        ));
    }
    Ok(())
}

/// The refusal of a file that changed while herald was writing it.
fn stale(path: &Path) -> Failure {
    Failure::invalid(
        Problem::plain(
            ErrorKind::Record,
            format!(
                "{} changed while herald was writing it (another herald command at the same time?): nothing was written; run your command again, and it reads the file as it is now",
                path.display()
            ),
        ),
        &origin(path),
    )
}

/// Why `path` could not be written, in the system's words (tempfile's
/// own wording, which names the hidden temporary file, left out), and
/// that nothing was: every writer leaves the key file, the record and
/// the message as they were when one of them cannot be written.
fn cannot_write(path: &Path, e: &std::io::Error) -> Failure {
    let reason = e.to_string();
    // tempfile's error reads `<the system's> at path "<temporary file>"`.
    let reason = match (e.get_ref(), reason.rfind(" at path \"")) {
        (Some(_), Some(at)) => &reason[..at],
        _ => &reason[..],
    };
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let hint = match e.kind() {
        std::io::ErrorKind::PermissionDenied => format!(
            " (herald writes a file through a new one in the same folder: {} must let you create files, and the file itself be yours to replace)",
            folder.display()
        ),
        _ => String::new(),
    };
    Failure::usage(format!(
        "cannot write {}: {reason}{hint}; nothing was written",
        path.display()
    ))
}

/// Rewrite `path`, a file herald read (a record, or a key file), with
/// `contents`. Never follows a symbolic link. Under an exclusive lock on
/// the file, it is read again first: if another writer replaced or changed
/// it since it was read (its bytes no longer have `read`'s stamp), nothing
/// is written and the change is refused as stale, so no turn is lost.
/// A file with one name is replaced atomically (temporary file + rename,
/// keeping its permissions); a file with hard links is rewritten in place,
/// so that every name keeps seeing it.
pub fn rewrite(path: &Path, read: Option<&Stamp>, contents: &[u8]) -> Result<(), Failure> {
    refuse_dash(path)?;
    let fail = |e: std::io::Error| cannot_write(path, &e);
    let meta = std::fs::symlink_metadata(path).map_err(fail)?;
    if meta.file_type().is_symlink() {
        return Err(Failure::usage(format!(
            "{} is a symbolic link: herald rewrites only the file itself, never through a link (name the file it points to)",
            path.display()
        )));
    }
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut lock = fd_lock::RwLock::new(file);
    let mut guard = lock.write().map_err(fail)?;
    // The name may now stand for a file another writer put in its place.
    let now = std::fs::symlink_metadata(path).map_err(fail)?;
    let held = guard.metadata().map_err(fail)?;
    if !same_file(&now, &held) {
        return Err(stale(path));
    }
    if let Some(read) = read {
        let mut again = Vec::new();
        guard.read_to_end(&mut again).map_err(fail)?;
        if stamp(&again) != *read {
            return Err(stale(path));
        }
    }
    if links(&held) > 1 {
        write_in_place(path, contents)
    } else {
        write_replacing(path, contents, false)
    }
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

#[cfg(unix)]
fn links(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.nlink()
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

/// Overwrite the file at `path` itself (a file with hard links, held
/// locked): a copy of the new contents is written beside it first, so a
/// full disk fails before the file is touched.
fn write_in_place(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    let fail = |e: std::io::Error| cannot_write(path, &e);
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut spare = tempfile::Builder::new()
        .prefix(".herald-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    spare.write_all(contents).map_err(fail)?;
    spare.as_file().sync_all().map_err(fail)?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .map_err(fail)?;
    file.write_all(contents).map_err(fail)?;
    file.sync_all().map_err(fail)
}

/// Write `contents` to `path` through a temporary file in the same
/// folder renamed over it (or, with `no_clobber`, only where no file is).
pub(crate) fn write_replacing(
    path: &Path,
    contents: &[u8],
    no_clobber: bool,
) -> Result<(), Failure> {
    write_replacing_from(path, &mut &contents[..], no_clobber)
}

/// [`write_replacing`] of what `contents` reads (copied a buffer at a
/// time, never held whole).
fn write_replacing_from(
    path: &Path,
    contents: &mut dyn std::io::Read,
    no_clobber: bool,
) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| cannot_write(path, &e);
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
    std::io::copy(contents, &mut tmp).map_err(fail)?;
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
    refuse_dash(path)?;
    if path.symlink_metadata().is_ok() {
        return Err(Failure::usage(format!(
            "{} exists already: herald never overwrites a key file",
            path.display()
        )));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| cannot_write(path, &e);
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

/// Whether a man page herald generates may be written to `path`: it is
/// new, or the page an earlier herald wrote there (any other file is left
/// alone and refused).
pub fn may_write_page(path: &Path) -> Result<(), Failure> {
    if path.symlink_metadata().is_ok() {
        let ours = std::fs::read(path)
            .is_ok_and(|old| String::from_utf8_lossy(&old).contains(".TH herald"));
        if !ours {
            return Err(Failure::usage(format!(
                "{} exists and is not a herald man page: herald leaves it alone (remove it, or \
                 choose another folder)",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Write a man page herald generates to `path` ([`may_write_page`]
/// asked first): a temporary file renamed over it.
pub fn write_page(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    write_replacing(path, contents, false)
}

/// Refuse at once a new file's path that exists already, before anything
/// else is written (`move --reply -o`, written last).
pub fn refuse_existing(path: &Path) -> Result<(), Failure> {
    if path.symlink_metadata().is_ok() {
        return Err(Failure::usage(format!(
            "{} exists already: choose another name or remove it first",
            path.display()
        )));
    }
    Ok(())
}

/// Create a new file that must not exist yet (for `herald new -o` and
/// `annotate -o`); the final rename refuses to replace a file that
/// appeared meanwhile (or a symbolic link).
pub fn write_new(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    write_new_from(path, &mut &contents[..])
}

/// [`write_new`] of what `contents` reads (copied a buffer at a time,
/// never held whole: `annotate -o` of a long record).
pub fn write_new_from(path: &Path, contents: &mut dyn std::io::Read) -> Result<(), Failure> {
    refuse_dash(path)?;
    let exists = || {
        Failure::usage(format!(
            "{} exists already: choose another name or remove it first",
            path.display()
        ))
    };
    if path.symlink_metadata().is_ok() {
        return Err(exists());
    }
    write_replacing_from(path, contents, true).map_err(|e| if path.exists() { exists() } else { e })
}
