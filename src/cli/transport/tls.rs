//! TLS for the mail connections: the system's trusted certificates, and
//! those of a server's `ca-file` besides (a server whose certificate a
//! CA of its own signed). The TLS itself is native-tls's (OpenSSL on
//! Linux), through lettre for SMTP and directly for IMAP.

use super::config::Server;
use crate::cli::report::Failure;

/// The certificates of `server`'s `ca-file`, none without one.
pub(crate) fn ca_certificates(
    server: &Server,
    what: &str,
) -> Result<Vec<native_tls::Certificate>, Failure> {
    let Some(path) = &server.ca_file else {
        return Ok(Vec::new());
    };
    let shown = path.display();
    let pem = std::fs::read(path).map_err(|e| {
        Failure::usage(format!(
            "[{what}] ca-file = \"{shown}\" cannot be read: {e}"
        ))
    })?;
    let certificates = native_tls::Certificate::stack_from_pem(&pem).map_err(|e| {
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

/// A TLS connector trusting the system's certificates and `server`'s
/// `ca-file`.
pub(crate) fn connector(server: &Server, what: &str) -> Result<native_tls::TlsConnector, Failure> {
    let mut builder = native_tls::TlsConnector::builder();
    for certificate in ca_certificates(server, what)? {
        builder.add_root_certificate(certificate);
    }
    builder
        .build()
        .map_err(|e| Failure::usage(format!("[{what}] TLS cannot be set up: {e}")))
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
pub(crate) fn untrusted_help(error: &str, server: &Server, what: &str) -> String {
    let untrusted = [
        "certificate verify failed",
        "self-signed certificate",
        "self signed certificate",
        "unable to get local issuer certificate",
    ]
    .iter()
    .any(|s| error.contains(s));
    if !untrusted {
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
