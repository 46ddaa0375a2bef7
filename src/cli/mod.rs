//! The command line: arguments, files and output formats. Thin: the
//! library does the work; this module reads and writes.

mod again;
mod args;
mod chain;
mod commands;
mod complete;
mod context;
mod files;
mod look;
mod mail;
mod many;
mod moves;
mod picture;
mod report;
mod rules;
mod sent;
mod setup;
mod stream;
mod transport;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

pub use args::{Cli, ColorWhen};
pub use report::{Exit, Failure, Problem};

/// Run herald with the process's arguments; returns the exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                Exit::Usage.into()
            } else {
                Exit::Ok.into()
            };
        }
    };
    match cli.color {
        ColorWhen::Always => anstream::ColorChoice::Always.write_global(),
        ColorWhen::Never => anstream::ColorChoice::Never.write_global(),
        ColorWhen::Auto => {}
    }
    match commands::run(cli.command) {
        Ok(exit) => exit.into(),
        Err(failure) => {
            match &failure {
                Failure::Usage(message) => report::eprint_usage(message),
                Failure::Invalid(problem, origin) => report::eprint_problem(problem, origin),
            }
            failure.exit().into()
        }
    }
}

/// Print to standard output (colour stripped where it is off).
pub(crate) fn out(text: &str) -> Result<(), Failure> {
    out_bytes(text.as_bytes()).map_err(|e| Failure::usage(format!("cannot write the output: {e}")))
}

/// [`out`] of bytes (a part of a text).
fn out_bytes(bytes: &[u8]) -> std::io::Result<()> {
    match anstream::stdout().write_all(bytes) {
        // A closed pipe (`herald replay x | head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        done => done,
    }
}

/// Standard output written as [`out`] writes it, some kilobytes at a
/// time: a long list printed as it is made, never held whole (`fate` of
/// a long record). Whatever is left is written by [`Printer::finish`].
#[derive(Default)]
pub(crate) struct Printer {
    buffer: Vec<u8>,
}

impl Printer {
    /// Bytes held before they are written.
    const CHUNK: usize = 16 * 1024;

    /// Print `text`.
    pub(crate) fn print(&mut self, text: &str) -> Result<(), Failure> {
        std::io::Write::write_all(self, text.as_bytes())
            .map_err(|e| Failure::usage(format!("cannot write the output: {e}")))
    }

    /// Write what is left.
    pub(crate) fn finish(mut self) -> Result<(), Failure> {
        std::io::Write::flush(&mut self)
            .map_err(|e| Failure::usage(format!("cannot write the output: {e}")))
    }
}

impl std::io::Write for Printer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= Self::CHUNK {
            self.flush()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let written = out_bytes(&self.buffer);
        self.buffer.clear();
        written
    }
}

/// `herald completions SHELL`.
fn completions(args: args::CompletionsArgs) -> Result<Exit, Failure> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "herald", &mut buf);
    out(&String::from_utf8_lossy(&buf))?;
    Ok(Exit::Ok)
}

/// `herald man [COMMAND]` or `herald man --dir DIR`.
fn man(args: args::ManArgs) -> Result<Exit, Failure> {
    match args {
        args::ManArgs { dir: Some(dir), .. } => write_man_pages(&dir)?,
        args::ManArgs { command, dir: None } => out(&man_page_of(command)?)?,
    }
    Ok(Exit::Ok)
}

/// `herald man --dir DIR`: herald.1 and herald-COMMAND.1 for each
/// command (and each command's own subcommands), every page checked
/// before any is written.
fn write_man_pages(dir: &std::path::Path) -> Result<(), Failure> {
    let mut cli = Cli::command();
    cli.build();
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::usage(format!("cannot create the folder {}: {e}", dir.display())))?;
    let mut pages = vec![("herald.1".to_string(), man_page(cli.clone())?)];
    for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = format!("herald-{}", sub.get_name());
        pages.push((format!("{name}.1"), man_page(sub.clone().name(&name))?));
        // A command's own subcommands (config check, config
        // password): herald-config-check.1, as its page names them.
        for nested in sub.get_subcommands().filter(|c| c.get_name() != "help") {
            let nested_name = format!("{name}-{}", nested.get_name());
            pages.push((
                format!("{nested_name}.1"),
                man_page(nested.clone().name(nested_name))?,
            ));
        }
    }
    for (file, _) in &pages {
        files::may_write_page(&dir.join(file))?;
    }
    for (file, page) in &pages {
        files::write_page(&dir.join(file), page.as_bytes())?;
    }
    out(&format!(
        "wrote {} man pages to {} (herald.1 and herald-COMMAND.1 for each command)\n",
        pages.len(),
        dir.display()
    ))
}

/// `herald man [COMMAND]`: the page of herald, of a command, or of a
/// command's own subcommand (`config-password` or `config password`).
fn man_page_of(command: Option<String>) -> Result<String, Failure> {
    let mut cli = Cli::command();
    cli.build();
    let Some(name) = command else {
        return man_page(cli);
    };
    let mut words = name.splitn(2, [' ', '-']);
    let first = words.next().unwrap_or_default();
    if let Some(nested) = words
        .next()
        .and_then(|rest| cli.find_subcommand(first)?.find_subcommand(rest).cloned())
    {
        let page_name = format!("herald-{first}-{}", nested.get_name());
        return man_page(nested.name(page_name));
    }
    let Some(sub) = cli.find_subcommand(&name) else {
        let names: Vec<&str> = cli
            .get_subcommands()
            .map(|c| c.get_name())
            .filter(|n| *n != "help")
            .collect();
        return Err(Failure::usage(format!(
            "herald has no command `{name}`: its commands are {}",
            names.join(", ")
        )));
    };
    let page_name = format!("herald-{}", sub.get_name());
    man_page(sub.clone().name(page_name))
}

/// The man page (roff) of `command`, with the EXIT STATUS section.
fn man_page(command: clap::Command) -> Result<String, Failure> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut buf)
        .map_err(|e| Failure::usage(format!("cannot render the man page: {e}")))?;
    buf.extend_from_slice(EXIT_STATUS.as_bytes());
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// The EXIT STATUS section every herald man page ends with (roff).
const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
All is well: the record is valid, the line was written.
.TP
\fB1\fR
An illegal or invalid game or turn: the record breaks a rule, a reveal,
signature or opening does not check, or the copy is stale; nothing was
written.
.TP
\fB2\fR
A usage or I/O error: bad arguments, a missing or unreadable file, a key
file problem, a file that may not be overwritten; nothing was written.
"#;
