//! TLS for the mail connections: rustls, with ring's cryptography (no
//! OpenSSL, no system library: a command that makes no connection maps
//! no TLS library at start), trusting the system's certificates (its CA
//! bundle, read by rustls-native-certs when a connection is made) and
//! those of a server's `ca-file` besides (a server whose certificate a
//! CA of its own signed). lettre makes the SMTP connection; the IMAP one
//! is made here ([`connect`]) and handed to the imap crate.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

use super::config::Server;
use crate::cli::report::Failure;

/// The certificates of `server`'s `ca-file` (DER), none without one.
pub(crate) fn ca_certificates(
    server: &Server,
    what: &str,
) -> Result<Vec<CertificateDer<'static>>, Failure> {
    let Some(path) = &server.ca_file else {
        return Ok(Vec::new());
    };
    let shown = path.display();
    let pem = std::fs::read(path).map_err(|e| {
        Failure::usage(format!(
            "[{what}] ca-file = \"{shown}\" cannot be read: {e}"
        ))
    })?;
    let certificates = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            Failure::usage(format!(
                "[{what}] ca-file = \"{shown}\" holds no certificate that reads ({e}): give a PEM file (-----BEGIN CERTIFICATE-----)"
            ))
        })?;
    if certificates.is_empty() {
        return Err(Failure::usage(format!(
            "[{what}] ca-file = \"{shown}\" holds no certificate: give a PEM file (-----BEGIN CERTIFICATE-----)"
        )));
    }
    Ok(certificates)
}

/// The CAs `server`'s connection trusts: the system's and its
/// `ca-file`'s.
fn roots(server: &Server, what: &str) -> Result<RootCertStore, Failure> {
    let mut roots = RootCertStore::empty();
    // A system certificate that does not read is left out, as OpenSSL
    // leaves it out; none at all leaves the ca-file's alone.
    roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    for certificate in ca_certificates(server, what)? {
        roots.add(certificate).map_err(|e| {
            Failure::usage(format!(
                "[{what}] ca-file: a certificate cannot be used as a CA: {e}"
            ))
        })?;
    }
    Ok(roots)
}

/// The TLS set-up of a connection to `server`: TLS 1.2 or 1.3, ring's
/// cryptography, the CAs of [`roots`].
pub(crate) fn client_config(server: &Server, what: &str) -> Result<Arc<ClientConfig>, Failure> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Failure::usage(format!("[{what}] TLS cannot be set up: {e}")))?
        .with_root_certificates(roots(server, what)?)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// A TLS connection over TCP, as the imap crate takes one.
pub(crate) struct Tls(StreamOwned<ClientConnection, TcpStream>);

impl Read for Tls {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl Write for Tls {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl imap::extensions::idle::SetReadTimeout for Tls {
    fn set_read_timeout(&mut self, timeout: Option<std::time::Duration>) -> imap::Result<()> {
        self.0
            .get_ref()
            .set_read_timeout(timeout)
            .map_err(imap::Error::Io)
    }
}

/// The TLS handshake with `host` over `tcp`, to its end: a certificate
/// not trusted fails here, not at the first command.
pub(crate) fn connect(
    config: Arc<ClientConfig>,
    host: &str,
    mut tcp: TcpStream,
) -> Result<Tls, Box<dyn std::error::Error + Send + Sync>> {
    let name = ServerName::try_from(host.to_owned())?;
    let mut connection = ClientConnection::new(config, name)?;
    while connection.is_handshaking() {
        connection.complete_io(&mut tcp)?;
    }
    Ok(Tls(StreamOwned::new(connection, tcp)))
}

/// An error and every error under it, in one line.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        let more = e.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = e.source();
    }
    text
}

/// What to do when `error` (an error's text, with its sources) says the
/// server's certificate is not trusted: name ca-file. Empty otherwise.
/// rustls says `invalid peer certificate: UnknownIssuer` when no CA
/// trusted signed it (an expired or misnamed certificate is another
/// error, which ca-file would not mend).
pub(crate) fn untrusted_help(error: &str, server: &Server, what: &str) -> String {
    if !error.contains("UnknownIssuer") {
        return String::new();
    }
    match &server.ca_file {
        None => format!(
            "\n  the server's certificate is not trusted: no CA this computer trusts signed it. If the server's certificate is signed by a CA of its own, give that CA's certificate (PEM) as ca-file = \"/path/to/ca.pem\" in [{what}]"
        ),
        Some(path) => format!(
            "\n  the server's certificate is not trusted, neither by this computer nor by ca-file = \"{}\" in [{what}]: give the PEM file of the CA that signed it",
            path.display()
        ),
    }
}
