//! Reading records and writing files safely: readers never modify a file;
//! writers write a temporary file beside the target and rename it over,
//! so the original stays untouched on any error.

use std::io::{Read, Write};
use std::path::Path;

use super::report::{Failure, Problem};
use crate::record::{Source, MAX_INPUT};

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

/// Read a record's source text from a file or `-`.
pub fn load(path: &Path) -> Result<Source, Failure> {
    let bytes = read_bytes(path)?;
    Source::new(&bytes).map_err(|e| Failure::invalid(Problem::from_input(&e), &origin(path)))
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
