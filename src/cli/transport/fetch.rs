//! Reading the player's mail: IMAP (the `imap` crate; messages are
//! fetched with BODY.PEEK, so none is marked read, moved or deleted), a
//! Maildir folder or an mbox file.

use std::collections::BTreeSet;
use std::path::Path;

use imap::{ClientBuilder, ConnectionMode};

use super::config::{Config, Encryption, Reading, Server};
use crate::cli::files;
use crate::cli::report::Failure;

/// A message not read before.
pub(crate) struct Message {
    /// Its name in the state's read set.
    pub(crate) id: String,
    pub(crate) bytes: Vec<u8>,
}

/// The mailbox's key in the state, and its new messages: those whose
/// names are not in `read`.
pub(crate) fn new_messages(
    config: &Config,
    read: impl Fn(&str) -> Option<BTreeSet<String>>,
) -> Result<(String, Vec<Message>), Failure> {
    match config.reading()? {
        Reading::Imap(server) => {
            let folder = server.folder.as_deref().unwrap_or("INBOX");
            let key = format!(
                "imap:{}@{}:{}/{folder}",
                server.user.as_deref().unwrap_or(""),
                server.host,
                server.port_or(993, 143)
            );
            let seen = read(&key).unwrap_or_default();
            Ok((key, imap_new(server, folder, &seen)?))
        }
        Reading::Maildir(dir) => {
            let key = format!("maildir:{}", dir.display());
            let seen = read(&key).unwrap_or_default();
            Ok((key, maildir_new(dir, &seen)?))
        }
        Reading::Mbox(path) => {
            let key = format!("mbox:{}", path.display());
            let seen = read(&key).unwrap_or_default();
            Ok((key, mbox_new(path, &seen)?))
        }
    }
}

type Session = imap::Session<imap::Connection>;

/// Log in to `server`.
pub(crate) fn login(server: &Server) -> Result<Session, Failure> {
    let port = server.port_or(993, 143);
    let place = format!("{}:{port}", server.host);
    let mode = match server.encryption {
        Encryption::Tls => ConnectionMode::Tls,
        Encryption::Starttls => ConnectionMode::StartTls,
        Encryption::None => ConnectionMode::Plaintext,
    };
    let client = ClientBuilder::new(server.host.as_str(), port)
        .mode(mode)
        .connect()
        .map_err(|e| {
            Failure::usage(format!(
                "[imap] cannot connect to {place} ({:?}): {e}",
                server.encryption
            ))
        })?;
    let user = server.user.as_deref().ok_or_else(|| {
        Failure::usage(
            "[imap] has no user: add user = \"ann\" (the login name) and password-command",
        )
    })?;
    let password = server.password("imap")?;
    client.login(user, password).map_err(|(e, _)| {
        Failure::usage(format!(
            "[imap] {place} refused the login of {user}: {e} (check user and what password-command prints)"
        ))
    })
}

fn imap_new(
    server: &Server,
    folder: &str,
    seen: &BTreeSet<String>,
) -> Result<Vec<Message>, Failure> {
    let mut session = login(server)?;
    let fail = |what: &str, e: imap::Error| Failure::usage(format!("[imap] {what}: {e}"));
    // EXAMINE: read-only, so that nothing in the folder changes.
    let mailbox = session
        .examine(folder)
        .map_err(|e| fail(&format!("cannot open the folder {folder}"), e))?;
    let validity = mailbox.uid_validity.unwrap_or(0);
    let mut uids: Vec<u32> = session
        .uid_search("ALL")
        .map_err(|e| fail("cannot list the messages", e))?
        .into_iter()
        .filter(|uid| !seen.contains(&format!("{validity}:{uid}")))
        .collect();
    uids.sort_unstable();
    let mut messages = Vec::new();
    for chunk in uids.chunks(100) {
        let set: Vec<String> = chunk.iter().map(u32::to_string).collect();
        let fetches = session
            .uid_fetch(set.join(","), "BODY.PEEK[]")
            .map_err(|e| fail("cannot fetch the messages", e))?;
        for f in fetches.iter() {
            if let (Some(uid), Some(body)) = (f.uid, f.body()) {
                messages.push(Message {
                    id: format!("{validity}:{uid}"),
                    bytes: body.to_vec(),
                });
            }
        }
    }
    let _ = session.logout();
    messages.sort_by_key(|m| m.id.split(':').nth(1).and_then(|u| u.parse::<u32>().ok()));
    Ok(messages)
}

fn maildir_new(dir: &Path, seen: &BTreeSet<String>) -> Result<Vec<Message>, Failure> {
    let mut found = Vec::new();
    for sub in ["cur", "new"] {
        let entries = match std::fs::read_dir(dir.join(sub)) {
            Ok(e) => e,
            Err(e) => {
                return Err(Failure::usage(format!(
                    "maildir = \"{}\": cannot read {sub}/ ({e}): a Maildir folder holds cur/, new/ and tmp/",
                    dir.display()
                )))
            }
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            // A message keeps its unique name when it moves from new/
            // to cur/; only its flags (after ':') change.
            let id = name.split(':').next().unwrap_or_default().to_owned();
            if name.starts_with('.') || seen.contains(&id) {
                continue;
            }
            let modified = entry.metadata().and_then(|m| m.modified()).ok();
            found.push((modified, id, entry.path()));
        }
    }
    found.sort();
    let mut messages = Vec::new();
    for (_, id, path) in found {
        messages.push(Message {
            id,
            bytes: files::read_bytes(&path)?,
        });
    }
    Ok(messages)
}

fn mbox_new(path: &Path, seen: &BTreeSet<String>) -> Result<Vec<Message>, Failure> {
    let bytes = files::read_bytes(path)?;
    let mut messages = Vec::new();
    for (_, message) in crate::record::mail::split_mbox(&bytes) {
        let id = super::send::message_id(message).unwrap_or_else(|| {
            use sha2::Digest;
            hex::encode(&sha2::Sha256::digest(message)[..12])
        });
        if !seen.contains(&id) {
            messages.push(Message {
                id,
                bytes: message.to_vec(),
            });
        }
    }
    Ok(messages)
}

/// `herald config check`: read the configuration, try both connections.
pub(crate) fn check(given: Option<&Path>) -> Result<crate::cli::report::Exit, Failure> {
    use crate::cli::out;
    let config = super::config::load(given)?;
    out(&format!(
        "{}: the configuration reads well (account {})\n",
        config.path.display(),
        config.account.address
    ))?;
    let mut ok = true;
    let mut report = |what: String, result: Result<(), Failure>| -> Result<(), Failure> {
        match result {
            Ok(()) => out(&format!("ok: {what}\n")),
            Err(f) => {
                ok = false;
                let m = match f {
                    Failure::Usage(m) => m,
                    Failure::Invalid(p, _) => p.message,
                };
                out(&format!("FAILED: {what}: {m}\n"))
            }
        }
    };
    match config.sending()? {
        super::config::Sending::Smtp(server) => {
            let what = format!("SMTP {}:{}", server.host, server.port_or(465, 587));
            let result = super::send::smtp(server).and_then(|t| match t.test_connection() {
                Ok(true) => Ok(()),
                Ok(false) => Err(Failure::usage(
                    "the server did not answer as SMTP".to_owned(),
                )),
                Err(e) => Err(Failure::usage(e.to_string())),
            });
            report(what, result)?;
        }
        super::config::Sending::Sendmail(cmd) => {
            let found = if cmd.contains('/') {
                Path::new(cmd).is_file()
            } else {
                std::env::var_os("PATH")
                    .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
            };
            report(
                format!("sendmail program {cmd}"),
                if found {
                    Ok(())
                } else {
                    Err(Failure::usage(format!(
                        "{cmd} is not found: install it or give its full path"
                    )))
                },
            )?;
        }
    }
    match config.reading()? {
        Reading::Imap(server) => {
            let folder = server.folder.as_deref().unwrap_or("INBOX");
            let what = format!(
                "IMAP {}:{} folder {folder}",
                server.host,
                server.port_or(993, 143)
            );
            let result = login(server).and_then(|mut s| {
                let r = s
                    .examine(folder)
                    .map(|_| ())
                    .map_err(|e| Failure::usage(format!("cannot open the folder {folder}: {e}")));
                let _ = s.logout();
                r
            });
            report(what, result)?;
        }
        Reading::Maildir(dir) => report(
            format!("Maildir {}", dir.display()),
            maildir_new(dir, &BTreeSet::new()).map(|_| ()),
        )?,
        Reading::Mbox(path) => report(
            format!("mbox {}", path.display()),
            files::read_bytes(path).map(|_| ()),
        )?,
    }
    Ok(if ok {
        crate::cli::report::Exit::Ok
    } else {
        crate::cli::report::Exit::Usage
    })
}
