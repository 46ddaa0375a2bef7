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
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| Failure::usage(format!("cannot write {}: {e}", path.display()));
    let mut tmp = tempfile::Builder::new()
        .prefix(".herald-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = tmp.as_file().set_permissions(meta.permissions());
    }
    tmp.write_all(contents).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
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

/// Create a new file that must not exist yet (for `herald new -o`).
pub fn write_new(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    if path.exists() {
        return Err(Failure::usage(format!(
            "{} exists already: choose another name or remove it first",
            path.display()
        )));
    }
    write_atomic(path, contents)
}
