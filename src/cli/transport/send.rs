//! Sending a message herald wrote (lettre: SMTP or a sendmail program),
//! and `herald send`.

use std::path::Path;

use lettre::address::{Address, Envelope};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{SendmailTransport, SmtpTransport, Transport};

use super::config::{Config, Encryption, Sending, Server};
use super::state;
use crate::cli::files;
use crate::cli::report::Failure;

/// The SMTP transport of `server`, with its login when it has a user.
pub(crate) fn smtp(server: &Server) -> Result<SmtpTransport, Failure> {
    let host = server.host.as_str();
    let refused = |e: lettre::transport::smtp::Error| {
        Failure::usage(format!(
            "[smtp] host = \"{host}\": {}",
            super::tls::chain(&e)
        ))
    };
    let mut builder = SmtpTransport::builder_dangerous(host);
    if server.encryption != Encryption::None {
        let mut parameters = TlsParameters::builder(host.to_owned());
        // lettre's rustls, with the system's CAs (rustls-native-certs)
        // and the ca-file's, as the IMAP connection has them.
        for certificate in super::tls::ca_certificates(server, "smtp")? {
            parameters = parameters.add_root_certificate(
                Certificate::from_der(certificate.to_vec()).map_err(refused)?,
            );
        }
        let parameters = parameters.build_rustls().map_err(refused)?;
        builder = builder.tls(match server.encryption {
            Encryption::Tls => Tls::Wrapper(parameters),
            _ => Tls::Required(parameters),
        });
    }
    let mut builder = builder
        .port(server.port_or(465, 587))
        .timeout(Some(std::time::Duration::from_secs(30)));
    if let Some(user) = &server.user {
        builder = builder.credentials(Credentials::new(user.clone(), server.password("smtp")?));
    }
    Ok(builder.build())
}

/// The envelope of `message`: from the account's address, to every
/// address in its To and Cc headers.
fn envelope(config: &Config, message: &[u8], shown: &str) -> Result<Envelope, Failure> {
    let bad = |what: String| Failure::usage(format!("{shown}: {what}"));
    let from: Address = config.account.address.parse().map_err(|e| {
        bad(format!(
            "the account's address {} cannot be sent from: {e}",
            config.account.address
        ))
    })?;
    let (headers, _) = mailparse::parse_headers(message)
        .map_err(|e| bad(format!("this is no email message herald can send: {e}")))?;
    let mut to = Vec::new();
    for name in ["To", "Cc"] {
        for header in headers
            .iter()
            .filter(|h| h.get_key_ref().eq_ignore_ascii_case(name))
        {
            let list = mailparse::addrparse_header(header)
                .map_err(|e| bad(format!("its {name} header cannot be read: {e}")))?;
            for addr in list.iter() {
                let singles: Vec<&mailparse::SingleInfo> = match addr {
                    mailparse::MailAddr::Single(s) => vec![s],
                    mailparse::MailAddr::Group(g) => g.addrs.iter().collect(),
                };
                for s in singles {
                    let a: Address = s.addr.parse().map_err(|e| {
                        bad(format!(
                            "{name}: {} is no address mail can go to: {e}",
                            s.addr
                        ))
                    })?;
                    if !to.contains(&a) {
                        to.push(a);
                    }
                }
            }
        }
    }
    if to.is_empty() {
        return Err(bad(
            "the message has no recipient (To or Cc): herald writes them from the record's contacts (--side Blue=ann@example.org)".into(),
        ));
    }
    Envelope::new(Some(from), to).map_err(|e| bad(e.to_string()))
}

/// Send `message` (read from `path`) as `config` says.
pub(crate) fn send(config: &Config, path: &Path, message: &[u8]) -> Result<String, Failure> {
    let shown = path.display().to_string();
    let envelope = envelope(config, message, &shown)?;
    let to: Vec<String> = envelope.to().iter().map(ToString::to_string).collect();
    match config.sending()? {
        Sending::Smtp(server) => {
            smtp(server)?.send_raw(&envelope, message).map_err(|e| {
                let e = super::tls::chain(&e);
                Failure::usage(format!(
                    "{shown} could not be sent through {}:{}: {e}{}",
                    server.host,
                    server.port_or(465, 587),
                    super::tls::untrusted_help(&e, server, "smtp")
                ))
            })?;
        }
        Sending::Sendmail(cmd) => {
            SendmailTransport::new_with_command(cmd)
                .send_raw(&envelope, message)
                .map_err(|e| {
                    Failure::usage(format!("{shown} could not be sent with {cmd}: {e}"))
                })?;
        }
    }
    Ok(to.join(", "))
}

/// Send the message in `path` as the configuration says and remember
/// that it went: its Message-ID among the messages sent, the game it
/// carries at its new line. `Ok(Some(when))` when it was sent before.
fn send_and_remember(config: &Config, path: &Path) -> Result<(String, Option<u64>), Failure> {
    let message = files::read_bytes(path)?;
    let id = message_id(&message);
    let before = id.as_deref().and_then(state::sent_before);
    let to = send(config, path, &message)?;
    if let Some(id) = &id {
        state::remember_sent(id)?;
    }
    super::inbox::remember_sent_message(&config.account.address, &message)?;
    Ok((to, before))
}

/// `herald send FILE`: send a message herald wrote, again if need be.
pub(crate) fn send_file(config: Option<&Path>, path: &Path) -> Result<(), Failure> {
    let config = super::config::load(config)?;
    let (to, before) = send_and_remember(&config, path)?;
    crate::cli::out(&format!(
        "sent {} to {to}{}\n",
        path.display(),
        if before.is_some() {
            " (sent before: the same message again, never a second different line)"
        } else {
            ""
        }
    ))
}

/// `move --reply -o FILE --send`: send the message just written; when it
/// cannot go, say that it is kept and how to send it again.
pub(crate) fn send_written(config: Option<&Path>, path: &Path) -> Result<String, Failure> {
    let retry = |f: Failure| {
        Failure::usage(format!(
            "{}\n  the line is written and the message is kept in {}: send it again with herald send {} (never play the turn a second time)",
            f.text(),
            path.display(),
            path.display()
        ))
    };
    let config = super::config::load(config).map_err(retry)?;
    let (to, _) = send_and_remember(&config, path).map_err(retry)?;
    Ok(format!("sent {} to {to}\n", path.display()))
}

/// The Message-ID of a message, with its angle brackets.
pub(crate) fn message_id(message: &[u8]) -> Option<String> {
    crate::record::mail::envelope(message)?.message_id
}
