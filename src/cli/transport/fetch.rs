//! Reading the player's mail: IMAP (the `imap` crate; messages are
//! fetched with BODY.PEEK, so none is marked read, moved or deleted), a
//! Maildir folder or an mbox file.

use std::collections::BTreeSet;
use std::path::Path;

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
    let client = connect(server, port).map_err(|e| {
        let e = super::tls::chain(&*e);
        Failure::usage(format!(
            "[imap] cannot connect to {place} ({}): {e}{}",
            match server.encryption {
                Encryption::Tls => "TLS",
                Encryption::Starttls => "STARTTLS",
                Encryption::None => "no encryption",
            },
            super::tls::untrusted_help(&e, server, "imap")
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

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Connect to `server` and read its greeting. The TLS is made here
/// (rustls, [`super::tls`]: the system's CAs and the ca-file's) and the
/// connection handed to the imap crate, built without TLS of its own;
/// for STARTTLS the one STARTTLS command is sent here, as the crate's
/// builder would send it, because the crate offers no other public way
/// to send it before the login.
fn connect(server: &Server, port: u16) -> Result<imap::Client<imap::Connection>, Error> {
    let host = server.host.as_str();
    let tcp = std::net::TcpStream::connect((host, port))?;
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(60)))?;
    if server.encryption == Encryption::None {
        let mut client = imap::Client::new(Box::new(tcp) as imap::Connection);
        client.read_greeting()?;
        return Ok(client);
    }
    let config = super::tls::client_config(server, "imap").map_err(|f| f.text())?;
    let tls = |tcp| -> Result<imap::Connection, Error> {
        Ok(Box::new(super::tls::connect(config, host, tcp)?))
    };
    if server.encryption == Encryption::Tls {
        let mut client = imap::Client::new(tls(tcp)?);
        client.read_greeting()?;
        return Ok(client);
    }
    let mut plain = imap::Client::new(tcp);
    plain.read_greeting()?;
    if !plain.capabilities()?.has_str("STARTTLS") {
        return Err(imap::Error::StartTlsNotAvailable.into());
    }
    let mut tcp = plain.into_inner()?;
    starttls(&mut tcp)?;
    let mut client = imap::Client::new(tls(tcp)?);
    // The greeting came before STARTTLS.
    client.greeting_read = true;
    Ok(client)
}

/// Send STARTTLS (RFC 3501 6.2.1) and read the server's answer, up to
/// its tagged OK, byte by byte: nothing past it is read.
fn starttls(tcp: &mut std::net::TcpStream) -> Result<(), Error> {
    use std::io::{Read, Write};
    tcp.write_all(b"herald1 STARTTLS\r\n")?;
    let mut line = Vec::new();
    loop {
        let mut byte = [0u8];
        if tcp.read(&mut byte)? == 0 {
            return Err("the server closed the connection after STARTTLS".into());
        }
        line.push(byte[0]);
        if byte[0] != b'\n' {
            continue;
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_owned();
        if let Some(answer) = text.strip_prefix("herald1 ") {
            if answer
                .get(..2)
                .is_some_and(|a| a.eq_ignore_ascii_case("OK"))
            {
                return Ok(());
            }
            return Err(format!("the server refused STARTTLS: {answer}").into());
        }
        line.clear();
    }
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
                out(&format!("FAILED: {what}: {}\n", f.text()))
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
                Err(e) => {
                    let e = super::tls::chain(&e);
                    let help = super::tls::untrusted_help(&e, server, "smtp");
                    Err(Failure::usage(format!("{e}{help}")))
                }
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
