//! The mail configuration (`$XDG_CONFIG_HOME/herald/config.toml`, or
//! `--config FILE`, or `HERALD_CONFIG`): one account, how to send (SMTP
//! or a sendmail program) and where its mail is read (IMAP, a Maildir or
//! an mbox file). A password is never in the file: it comes from
//! `password-command`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::report::Failure;

/// How a connection is encrypted.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Encryption {
    /// TLS from the first byte (SMTP 465, IMAP 993).
    Tls,
    /// A plain connection upgraded with STARTTLS (SMTP 587, IMAP 143).
    Starttls,
    /// No encryption: for a server on this machine only.
    None,
}

/// A server: SMTP or IMAP.
#[derive(Deserialize, Debug, Clone)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) struct Server {
    pub(crate) host: String,
    pub(crate) port: Option<u16>,
    #[serde(default = "starttls")]
    pub(crate) encryption: Encryption,
    /// The login name; none: no login (SMTP only).
    pub(crate) user: Option<String>,
    /// A shell command that prints the password (`pass show mail`).
    pub(crate) password_command: Option<String>,
    /// IMAP: the folder the game mail arrives in.
    pub(crate) folder: Option<String>,
    /// Refused: a password is never kept in the file.
    password: Option<toml::Value>,
}

fn starttls() -> Encryption {
    Encryption::Starttls
}

/// `[account]`.
#[derive(Deserialize, Debug, Clone)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) struct Account {
    /// The player's address: the sender of every message.
    pub(crate) address: String,
}

/// The whole file.
#[derive(Deserialize, Debug, Clone)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) struct Config {
    /// A sendmail-compatible program to send with instead of SMTP.
    pub(crate) sendmail: Option<String>,
    /// A Maildir folder to read instead of IMAP.
    pub(crate) maildir: Option<PathBuf>,
    /// An mbox file to read instead of IMAP.
    pub(crate) mbox: Option<PathBuf>,
    pub(crate) account: Account,
    pub(crate) smtp: Option<Server>,
    pub(crate) imap: Option<Server>,
    /// Where the file was read from, for messages.
    #[serde(skip)]
    pub(crate) path: PathBuf,
}

/// How messages are sent.
pub(crate) enum Sending<'a> {
    Smtp(&'a Server),
    Sendmail(&'a str),
}

/// Where mail is read.
pub(crate) enum Reading<'a> {
    Imap(&'a Server),
    Maildir(&'a Path),
    Mbox(&'a Path),
}

/// The configuration file to read: `--config`, then `HERALD_CONFIG`,
/// then `herald/config.toml` in the user's configuration folder.
pub(crate) fn path(given: Option<&Path>) -> Result<PathBuf, Failure> {
    if let Some(p) = given {
        return Ok(p.to_owned());
    }
    if let Some(p) = std::env::var_os("HERALD_CONFIG").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "herald")
        .map(|d| d.config_dir().join("config.toml"))
        .ok_or_else(|| {
            Failure::usage(
                "no home folder is known, so herald cannot find its configuration: give --config FILE",
            )
        })
}

/// Read and check the configuration.
pub(crate) fn load(given: Option<&Path>) -> Result<Config, Failure> {
    let path = path(given)?;
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Failure::usage(format!(
            "cannot read the mail configuration {}: {e}\n  write one as docs/mailbox.md shows (an [account] with your address, [smtp] and [imap]), or give --config FILE",
            path.display()
        ))
    })?;
    parse(&text, &path)
}

/// Read the configuration's text, read from `path`.
pub(crate) fn parse(text: &str, path: &Path) -> Result<Config, Failure> {
    let shown = path.display();
    let mut config: Config = toml::from_str(text).map_err(|e| {
        let message = e.message();
        let place = e
            .span()
            .map(|s| {
                let line = text[..s.start].matches('\n').count() + 1;
                format!(" (line {line})")
            })
            .unwrap_or_default();
        if message.contains("unknown field `password`") {
            Failure::usage(format!(
                "{shown}{place}: a password is never kept in the configuration: use password-command = \"pass show mail\" (any command that prints the password)"
            ))
        } else {
            Failure::usage(format!("{shown}{place}: {message}"))
        }
    })?;
    config.path = path.to_owned();
    for (name, server) in [("smtp", &config.smtp), ("imap", &config.imap)] {
        if server.as_ref().is_some_and(|s| s.password.is_some()) {
            return Err(Failure::usage(format!(
                "{shown}: [{name}] has a password: a password is never kept in the configuration: use password-command = \"pass show mail\" (any command that prints the password)"
            )));
        }
    }
    if !config.account.address.contains('@') {
        return Err(Failure::usage(format!(
            "{shown}: [account] address = \"{}\" is no email address: write it as address = \"ann@example.org\"",
            config.account.address
        )));
    }
    if let Some(cmd) = &config.sendmail {
        if cmd.split_whitespace().count() != 1 {
            return Err(Failure::usage(format!(
                "{shown}: sendmail = \"{cmd}\": give the program alone, as sendmail = \"/usr/sbin/sendmail\" or \"msmtp\": herald gives it the sender and the recipients itself (-i -f FROM -- TO...)"
            )));
        }
    }
    config.sending()?;
    config.reading()?;
    Ok(config)
}

impl Config {
    /// How this configuration sends.
    pub(crate) fn sending(&self) -> Result<Sending<'_>, Failure> {
        match (&self.smtp, &self.sendmail) {
            (Some(s), None) => Ok(Sending::Smtp(s)),
            (None, Some(cmd)) => Ok(Sending::Sendmail(cmd)),
            (Some(_), Some(_)) => Err(Failure::usage(format!(
                "{}: both [smtp] and sendmail are given: keep one, the way herald sends",
                self.path.display()
            ))),
            (None, None) => Err(Failure::usage(format!(
                "{}: no way to send: add [smtp] (host, port, encryption, user, password-command) or sendmail = \"/usr/sbin/sendmail\"",
                self.path.display()
            ))),
        }
    }

    /// Where this configuration reads mail.
    pub(crate) fn reading(&self) -> Result<Reading<'_>, Failure> {
        match (&self.imap, &self.maildir, &self.mbox) {
            (Some(s), None, None) => Ok(Reading::Imap(s)),
            (None, Some(m), None) => Ok(Reading::Maildir(m)),
            (None, None, Some(m)) => Ok(Reading::Mbox(m)),
            (None, None, None) => Err(Failure::usage(format!(
                "{}: no mailbox to read: add [imap] (host, port, encryption, user, password-command, folder), or maildir = PATH, or mbox = PATH",
                self.path.display()
            ))),
            _ => Err(Failure::usage(format!(
                "{}: more than one mailbox to read ([imap], maildir, mbox): keep one",
                self.path.display()
            ))),
        }
    }
}

impl Server {
    /// The port, or the usual one for the protocol and encryption.
    pub(crate) fn port_or(&self, tls: u16, starttls: u16) -> u16 {
        self.port.unwrap_or(match self.encryption {
            Encryption::Tls => tls,
            Encryption::Starttls | Encryption::None => starttls,
        })
    }

    /// The password, from `password-command`.
    pub(crate) fn password(&self, what: &str) -> Result<String, Failure> {
        let Some(cmd) = &self.password_command else {
            return Err(Failure::usage(format!(
                "[{what}] has a user but no password-command: add password-command = \"pass show mail\" (any command that prints the password)"
            )));
        };
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::inherit())
            .output()
            .map_err(|e| {
                Failure::usage(format!("[{what}] password-command could not be run: {e}"))
            })?;
        if !output.status.success() {
            return Err(Failure::usage(format!(
                "[{what}] password-command `{cmd}` failed ({}): run it yourself to see why",
                output.status
            )));
        }
        let text = String::from_utf8_lossy(&output.stdout);
        let password = text.lines().next().unwrap_or_default().to_owned();
        if password.is_empty() {
            return Err(Failure::usage(format!(
                "[{what}] password-command `{cmd}` printed nothing: it should print the password on its first line"
            )));
        }
        Ok(password)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(f: Failure) -> String {
        match f {
            Failure::Usage(m) => m,
            Failure::Invalid(p, _) => p.message,
        }
    }

    const GOOD: &str = r#"
[account]
address = "ann@example.org"
[smtp]
host = "mail.example.org"
user = "ann"
password-command = "echo secret"
[imap]
host = "mail.example.org"
encryption = "tls"
user = "ann"
password-command = "echo secret"
folder = "Games"
"#;

    #[test]
    fn a_full_configuration_reads_with_the_usual_ports() {
        let c = parse(GOOD, Path::new("c.toml")).unwrap();
        assert_eq!(c.account.address, "ann@example.org");
        let Ok(Sending::Smtp(smtp)) = c.sending() else {
            panic!("smtp expected")
        };
        assert_eq!(smtp.encryption, Encryption::Starttls);
        assert_eq!(smtp.port_or(465, 587), 587);
        let Ok(Reading::Imap(imap)) = c.reading() else {
            panic!("imap expected")
        };
        assert_eq!(imap.port_or(993, 143), 993);
        assert_eq!(imap.password("imap").unwrap(), "secret");
    }

    #[test]
    fn a_password_in_the_file_is_refused() {
        let text = GOOD.replace(
            "password-command = \"echo secret\"\nfolder",
            "password = \"hunter2\"\nfolder",
        );
        let m = message(parse(&text, Path::new("c.toml")).unwrap_err());
        assert!(
            m.contains("a password is never kept in the configuration"),
            "{m}"
        );
        assert!(m.contains("password-command"), "{m}");
        assert!(!m.contains("hunter2"), "{m}");
    }

    #[test]
    fn sendmail_with_arguments_is_refused() {
        let text = "sendmail = \"msmtp -t\"\nmaildir = \"/tmp/m\"\n[account]\naddress = \"a@b\"\n";
        let m = message(parse(text, Path::new("c.toml")).unwrap_err());
        assert!(m.contains("give the program alone"), "{m}");
    }

    #[test]
    fn no_way_to_send_is_refused() {
        let text = "maildir = \"/tmp/m\"\n[account]\naddress = \"a@b\"\n";
        let m = message(parse(text, Path::new("c.toml")).unwrap_err());
        assert!(m.contains("no way to send"), "{m}");
    }

    #[test]
    fn two_mailboxes_are_refused() {
        let text = "sendmail = \"sendmail\"\nmaildir = \"/tmp/m\"\nmbox = \"/tmp/x\"\n[account]\naddress = \"a@b\"\n";
        let m = message(parse(text, Path::new("c.toml")).unwrap_err());
        assert!(m.contains("more than one mailbox"), "{m}");
    }

    #[test]
    fn an_address_without_at_is_refused() {
        let text = "sendmail = \"sendmail\"\nmaildir = \"/tmp/m\"\n[account]\naddress = \"ann\"\n";
        let m = message(parse(text, Path::new("c.toml")).unwrap_err());
        assert!(m.contains("is no email address"), "{m}");
    }

    #[test]
    fn a_failing_password_command_says_so() {
        let text = GOOD.replace("echo secret\"\nfolder", "false\"\nfolder");
        let c = parse(&text, Path::new("c.toml")).unwrap();
        let Ok(Reading::Imap(imap)) = c.reading() else {
            panic!("imap expected")
        };
        let m = message(imap.password("imap").unwrap_err());
        assert!(m.contains("password-command `false` failed"), "{m}");
    }
}
