//! The mail configuration (`$XDG_CONFIG_HOME/herald/config.toml`, or
//! `--config FILE`, or `HERALD_CONFIG`): one account, how to send (SMTP
//! or a sendmail program) and where its mail is read (IMAP, a Maildir or
//! an mbox file). A password is never in the file: it comes from
//! `password-command` or from the OS keyring (`password-keyring = true`,
//! stored there by `herald config password`).

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
    /// The password is in the OS keyring (service `herald`, the login
    /// name as user), put there by `herald config password`.
    #[serde(default)]
    pub(crate) password_keyring: bool,
    /// A PEM file of certificates trusted besides the system's: for a
    /// server whose certificate a CA of its own signed.
    pub(crate) ca_file: Option<PathBuf>,
    /// IMAP: the folder the game mail arrives in.
    pub(crate) folder: Option<String>,
    /// Refused: a password is never kept in the file.
    password: Option<toml::Value>,
}

fn starttls() -> Encryption {
    Encryption::Starttls
}

/// herald's folders in the user's home (configuration, state), by the
/// platform's rules (XDG on Linux).
pub(crate) fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "herald")
}

/// The OS keyring's service name for herald's passwords.
const KEYRING_SERVICE: &str = "herald";

const NO_PASSWORD_IN_FILE: &str = "a password is never kept in the configuration: use password-command = \"pass show mail\" (any command that prints the password), or password-keyring = true and herald config password";

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
    project_dirs()
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
            Failure::usage(format!("{shown}{place}: {NO_PASSWORD_IN_FILE}"))
        } else {
            Failure::usage(format!("{shown}{place}: {message}"))
        }
    })?;
    config.path = path.to_owned();
    for (name, server) in [("smtp", &config.smtp), ("imap", &config.imap)] {
        let Some(server) = server else { continue };
        if server.password.is_some() {
            return Err(Failure::usage(format!(
                "{shown}: [{name}] has a password: {NO_PASSWORD_IN_FILE}"
            )));
        }
        if server.password_keyring && server.password_command.is_some() {
            return Err(Failure::usage(format!(
                "{shown}: [{name}] has both password-command and password-keyring = true: keep one, where the password comes from"
            )));
        }
        if server.password_keyring && server.user.is_none() {
            return Err(Failure::usage(format!(
                "{shown}: [{name}] has password-keyring = true but no user: the keyring keeps the password under the login name: add user = \"ann\""
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

    /// The password, from `password-command` or the OS keyring.
    pub(crate) fn password(&self, what: &str) -> Result<String, Failure> {
        if self.password_keyring {
            return self.keyring_password(what);
        }
        let Some(cmd) = &self.password_command else {
            return Err(Failure::usage(format!(
                "[{what}] has a user but no password source: add password-command = \"pass show mail\" (any command that prints the password), or password-keyring = true and store it with herald config password --{what}"
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

impl Server {
    /// The keyring entry of this server's login.
    fn keyring_entry(&self, what: &str) -> Result<(keyring::Entry, &str), Failure> {
        let user = self.user.as_deref().ok_or_else(|| {
            Failure::usage(format!(
                "[{what}] has no user: the OS keyring keeps the password under the login name: add user = \"ann\""
            ))
        })?;
        let entry = keyring::Entry::new(KEYRING_SERVICE, user).map_err(|e| {
            Failure::usage(format!(
                "[{what}] the OS keyring cannot be used for {user}: {e}"
            ))
        })?;
        Ok((entry, user))
    }

    /// The password kept in the OS keyring for this server's login.
    fn keyring_password(&self, what: &str) -> Result<String, Failure> {
        let (entry, user) = self.keyring_entry(what)?;
        entry.get_password().map_err(|e| match e {
            keyring::Error::NoEntry => Failure::usage(format!(
                "no password for {user} in the OS keyring: store one with herald config password --{what}"
            )),
            e => Failure::usage(format!(
                "[{what}] the password of {user} cannot be read from the OS keyring: {e}"
            )),
        })
    }
}

/// `herald config password --smtp|--imap [-]`: store the password of a
/// server in the OS keyring, read from the terminal without echo or
/// from standard input's first line.
pub(crate) fn store_password(
    given: Option<&Path>,
    what: &str,
    from_stdin: bool,
) -> Result<crate::cli::report::Exit, Failure> {
    let config = load(given)?;
    let server = match what {
        "imap" => config.imap.as_ref(),
        _ => config.smtp.as_ref(),
    }
    .ok_or_else(|| {
        Failure::usage(format!(
            "{}: there is no [{what}] to keep a password for",
            config.path.display()
        ))
    })?;
    if !server.password_keyring {
        return Err(Failure::usage(format!(
            "{}: [{what}] does not read its password from the keyring: add password-keyring = true to [{what}] (in place of password-command), then run this again",
            config.path.display()
        )));
    }
    let (entry, user) = server.keyring_entry(what)?;
    let password = if from_stdin {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).map_err(|e| {
            Failure::usage(format!("cannot read the password from standard input: {e}"))
        })?;
        line.trim_end_matches(['\n', '\r']).to_owned()
    } else {
        rpassword::prompt_password(format!("password of {user} ([{what}] {}): ", server.host))
            .map_err(|e| {
                Failure::usage(format!(
                    "cannot read the password from the terminal ({e}): give it on standard input: herald config password --{what} -"
                ))
            })?
    };
    if password.is_empty() {
        return Err(Failure::usage(
            "the password is empty: nothing was stored (give it on the first line)",
        ));
    }
    entry.set_password(&password).map_err(|e| match e {
        // keyutils refuses to write when the process has no session
        // keyring of its own (no login through pam_keyinit).
        keyring::Error::NoEntry => Failure::usage(format!(
            "[{what}] the OS keyring refused the password of {user}: this login has no keyring of its own (Linux: no session keyring); run it in one: keyctl session - herald config password --{what}, or use password-command"
        )),
        e => Failure::usage(format!(
            "[{what}] the password of {user} cannot be stored in the OS keyring: {e}"
        )),
    })?;
    crate::cli::out(&format!(
        "stored the password of {user} ([{what}] {}) in the OS keyring; herald config check tries it\n",
        server.host
    ))?;
    Ok(crate::cli::report::Exit::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(f: Failure) -> String {
        f.text()
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
    fn a_password_command_and_the_keyring_together_are_refused() {
        let text = GOOD.replace(
            "password-command = \"echo secret\"\nfolder",
            "password-command = \"echo secret\"\npassword-keyring = true\nfolder",
        );
        let m = message(parse(&text, Path::new("c.toml")).unwrap_err());
        assert!(
            m.contains("[imap] has both password-command and password-keyring = true"),
            "{m}"
        );
    }

    #[test]
    fn the_keyring_without_a_user_is_refused() {
        let text = "maildir = \"/tmp/m\"\n[account]\naddress = \"a@b\"\n[smtp]\nhost = \"h\"\npassword-keyring = true\n";
        let m = message(parse(text, Path::new("c.toml")).unwrap_err());
        assert!(
            m.contains("[smtp] has password-keyring = true but no user"),
            "{m}"
        );
    }

    #[test]
    fn an_unreadable_ca_file_says_which_and_why() {
        let text = GOOD.replace(
            "folder = \"Games\"",
            "folder = \"Games\"\nca-file = \"/nonexistent/ca.pem\"",
        );
        let c = parse(&text, Path::new("c.toml")).unwrap();
        let Ok(Reading::Imap(imap)) = c.reading() else {
            panic!("imap expected")
        };
        let m = message(super::super::tls::ca_certificates(imap, "imap").expect_err("refused"));
        assert!(
            m.contains("[imap] ca-file = \"/nonexistent/ca.pem\" cannot be read"),
            "{m}"
        );
    }

    #[test]
    fn a_ca_file_without_a_certificate_is_refused() {
        let dir = tempfile::TempDir::new().unwrap();
        let pem = dir.path().join("ca.pem");
        std::fs::write(&pem, "not a certificate\n").unwrap();
        let text = GOOD.replace(
            "folder = \"Games\"",
            &format!("folder = \"Games\"\nca-file = \"{}\"", pem.display()),
        );
        let c = parse(&text, Path::new("c.toml")).unwrap();
        let Ok(Reading::Imap(imap)) = c.reading() else {
            panic!("imap expected")
        };
        let m = message(super::super::tls::ca_certificates(imap, "imap").expect_err("refused"));
        assert!(m.contains("holds no certificate"), "{m}");
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
