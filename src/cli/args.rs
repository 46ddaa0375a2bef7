//! The command line, as clap definitions. `herald man` and
//! `herald completions` are generated from these.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  herald new castle-danger --side Blue=ann@example.org --side Red=bob@example.org -o game.pbem
  herald keygen --side Blue game.pbem -o blue.key
  herald move game.pbem \"+C, Kc1-b1\" --key blue.key
  herald check game.pbem
  herald show game.pbem --turn 3 --unicode
  pbpaste | herald check -          (a record pasted out of an email)";

/// A referee for board games played by email.
///
/// herald checks a game record (the header and the log of turns that the
/// players mail each other), writes your next turn onto it, and draws the
/// position. Chance and hidden facts are fixed by SHA-256 commitments in
/// the record, so nobody needs to trust anybody's dice.
#[derive(Parser, Debug)]
#[command(name = "herald", version, after_help = EXAMPLES, max_term_width = 100)]
pub struct Cli {
    /// When to colour: auto (on a terminal, unless NO_COLOR is set),
    /// always or never. A global option: before or after the command.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true,
          help_heading = "Global options", hide_possible_values = true)]
    pub color: ColorWhen,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// `--format`: what the commands write. Each command offers only the
/// values it writes ([`FormatParser`]).
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum Format {
    /// Text for people.
    #[default]
    Text,
    /// JSON for programs (one JSON Schema per command in docs/schemas/).
    Json,
    /// An SVG picture of the board.
    Svg,
}

/// The `--format` values of a command, offered by help, completions and
/// man pages; any other value is refused by clap, saying what the command
/// writes and `hint`, where the other formats are.
#[derive(Clone, Debug)]
pub struct FormatParser {
    values: &'static [Format],
    hint: &'static str,
}

/// `--format` of a reader: text or JSON.
const TEXT_OR_JSON: FormatParser = FormatParser {
    values: &[Format::Text, Format::Json],
    hint: " (an SVG picture of the board: herald show --format svg; \
           a page of every position: herald replay --html)",
};

/// `--format` of `show`: text, JSON or an SVG picture.
const SHOW_FORMATS: FormatParser = FormatParser {
    values: &[Format::Text, Format::Json, Format::Svg],
    hint: "",
};

impl clap::builder::TypedValueParser for FormatParser {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Format, clap::Error> {
        let text = value.to_string_lossy();
        let offered = || self.values.iter().filter_map(|f| f.to_possible_value());
        offered()
            .position(|v| v.matches(&text, false))
            .map(|i| self.values[i])
            .ok_or_else(|| {
                let names: Vec<String> = offered().map(|v| v.get_name().to_owned()).collect();
                let arg = arg.map_or_else(|| "--format".to_owned(), |a| a.to_string());
                clap::Error::raw(
                    clap::error::ErrorKind::InvalidValue,
                    format!(
                        "invalid value '{text}' for '{arg}': herald {} writes {}{}\n\n  [possible values: {}]\n",
                        cmd.get_name(),
                        names.join(" or "),
                        self.hint,
                        names.join(", "),
                    ),
                )
                .with_cmd(cmd)
            })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            self.values.iter().filter_map(|f| f.to_possible_value()),
        ))
    }
}

/// The record to read: a file, or `-` for standard input.
#[derive(Args, Debug, Clone)]
pub struct Input {
    /// The game record: a file, or - to read standard input (an email or a
    /// pasted record is fine: quoting and text around it are skipped; a raw
    /// message, an mbox file or a Maildir folder too), or the id of a game
    /// `herald inbox` lists (its newest valid message).
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// In a mailbox (an mbox file or a Maildir folder) or a message
    /// holding several records, read the record of message N (from 1)
    /// rather than the newest record of the game.
    #[arg(long, value_name = "N")]
    pub message: Option<usize>,
    /// Output format: text for people, or JSON for programs (its schema:
    /// docs/schemas/COMMAND.json).
    #[arg(long, value_parser = TEXT_OR_JSON, default_value = "text")]
    pub format: Format,
}

/// The record `show` reads, and its formats (text, JSON or SVG).
#[derive(Args, Debug, Clone)]
pub struct ShowInput {
    /// The game record: a file, or - to read standard input (an email or a
    /// pasted record is fine: quoting and text around it are skipped; a raw
    /// message, an mbox file or a Maildir folder too), or the id of a game
    /// `herald inbox` lists (its newest valid message).
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// In a mailbox (an mbox file or a Maildir folder) or a message
    /// holding several records, read the record of message N (from 1)
    /// rather than the newest record of the game.
    #[arg(long, value_name = "N")]
    pub message: Option<usize>,
    /// Output format: text for people, JSON for programs (its schema:
    /// docs/schemas/show.json), or an SVG picture of the board.
    #[arg(long, value_parser = SHOW_FORMATS, default_value = "text")]
    pub format: Format,
}

/// The text `extract` reads (it writes a record: no `--format`).
#[derive(Args, Debug, Clone)]
pub struct ExtractInput {
    /// The message, mailbox or text: a file, or - to read standard input.
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// In a mailbox (an mbox file or a Maildir folder) or a message
    /// holding several records, take the record of message N (from 1)
    /// rather than the newest record of the game.
    #[arg(long, value_name = "N")]
    pub message: Option<usize>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Start a new game record.
    #[command(after_help = "\
Examples:
  herald new castle-danger --side Blue=ann@example.org --side Red=bob@example.org -o game.pbem
  herald new battle-of-the-dale --side Human=a@x --side Elf=b@x --side Goblin=c@x -o dale.pbem
  herald new breach-the-keep --side White=a@x --side Black=b@x --option WhiteKeep=4 -o keep.pbem
  herald new playground-battles --side Blue=a@x --side Red=b@x -o pg.pbem
  herald new battlegates --side South=a@x --side North=b@x -o bg.pbem
  herald new battlegates --side South=a@x --side North=b@x --key south.key \\
      --maze @south-maze.txt --reply -o 1.eml
                  (the game, your key, your set-up line and the first message to North in one)")]
    New(NewArgs),
    /// Check a turn and append it to the record (the file is rewritten
    /// atomically, and left as it was if anything is wrong).
    #[command(after_help = "\
Examples:
  herald move game.pbem \"+C, Kc1-b1\"
  herald move game.pbem \"Cd3*d7\" --key blue.key --expect-turn 12
  herald move game.pbem --forfeit --key red.key     (Blue stopped answering)
  echo \"Kc9-b9\" | herald move game.pbem - --dry-run
  herald move pg.pbem \"c8-c7-c6\" --key red.key     (openings the rules call for are added)
  herald move pg.pbem audit --key blue.key         (a finished game: your closing openings)
  herald move bob.eml \"Kc1-b1\" --key blue.key --reply -o ann.eml   (answer an email)
  herald move bg.pbem \"discard move-wall\" --key c3.key --hand-key c1.key
                              (a side playing from the hand c1.key's side holds)
  herald move 53.eml \"discard rotate, shoot d1 n\" --key c1.key --then \"discard move-wall\" --then-key c3.key --reply -o 55.eml
                              (your Castle1's turn, then your Castle3's, due
                               next: both lines in one message, each by its
                               castle's key file)")]
    Move(MoveArgs),
    /// Do your next set-up step in a game with hidden values: commit to
    /// your choices, or open what the rules open once all have committed.
    #[command(after_help = "\
The first call commits: give your choices (they are kept in the key file,
never in the record; a choice you leave out is drawn at random where the
game allows it). Each later call writes the openings that are due.

Examples:
  herald setup game.pbem --key blue.key --army RPSRRPSPRS
  herald setup game.pbem --key blue.key --army RPSRRPSPRS --throws RPSPRSSPRRPS
  herald setup bg.pbem --key south.key --maze @south-maze.txt
  herald setup game.pbem --key blue.key          (the next step: the openings)
  herald setup bob.eml --key blue.key --reply -o ann.eml   (answer an email)
  herald setup 1.eml --side North --key north.key --maze @north-maze.txt --reply -o 2.eml
                  (join a game: your key is made with your first set-up line)
  herald setup bg.pbem --key c3.key --hand-key c1.key   (a side of c1's hand)
  herald setup 4.eml --key blue.key --then \"+R, Rc1-c2\" --reply -o 5.eml
                  (the set-up's last line made you the first to move: your
                   first turn goes with it, one message)
  herald setup 6.eml --key c3.key --hand-key c1.key --then \"YOUR TURN\" --then-key c1.key --reply -o 7.eml
                  (your Castle3's line makes your Castle1 the first to
                   move: its turn goes with it, by its key file)")]
    Setup(SetupArgs),
    /// Replay the record and report OK or the first problem.
    #[command(after_help = "\
Examples:
  herald check game.pbem
  herald check - < email.txt
  herald check reply.eml                (a raw email message)
  herald check ~/Mail/games.mbox        (the newest record of the thread)
  herald check ~/Maildir/.games --all   (every record found, each checked)
  herald check *.pbem                   (each file: one verdict line each)
  herald check games/                   (every .pbem file in the folder)
  herald check game.pbem --format json
  herald check 12.eml --key blue.key    (and against what your key file remembers)

Several records (more than one file, or a folder that is no Maildir) are
checked at once on every core: one verdict line each, in the order given
(with --format json, one JSON object a line), and the exit code of the
worst (0 all valid, 1 one invalid, 2 one unreadable).")]
    Check(CheckArgs),
    /// Draw the position after a turn.
    #[command(after_help = "\
Examples:
  herald show game.pbem
  herald show game.pbem --turn 0 --unicode
  herald show game.pbem --format svg > board.svg
  herald show bg.pbem --key south.key   (your turn at a glance: hand, roll, actions)
  herald show pg.pbem --format svg --key blue.key > mine.svg   (your own pieces marked)
  herald show bg.pbem --key c3.key --hand-key c1.key   (with the hand c3 plays from)")]
    Show(ShowArgs),
    /// Draw every position in turn, each under the turn that led to it.
    #[command(after_help = "\
Examples:
  herald replay game.pbem | less -R
  herald replay game.pbem --unicode
  herald replay game.pbem --key blue.key   (your own hidden pieces shown)
  herald replay game.pbem --format json
  herald replay game.pbem --html -o game.html   (a page to step through in a browser)")]
    Replay(ReplayArgs),
    /// Print the record in canonical notation with a comment on every turn.
    #[command(after_help = "\
Examples:
  herald annotate game.pbem
  herald annotate game.pbem -o annotated.pbem")]
    Annotate(AnnotateArgs),
    /// List every legal action for the side to move, with its cost.
    #[command(after_help = "\
When a chance event is pending (a rally), the actions depend on how it
settles, which the mover's reveal decides: the mover gives --key to see them.

With --after, the turn's first actions are made (refused, with the
reason, when they are not legal) and what remains of the turn is listed:
a Battlegates dice phase after its card, Castle Danger's next move.

Examples:
  herald legal game.pbem
  herald legal game.pbem --key elf.key --format json
  herald legal bg.pbem --key south.key --after \"rotate90 Gd4nw cw, d1-d2\"
  herald legal bg.pbem --key c3.key --hand-key c1.key   (a side of c1's hand)")]
    Legal(LegalArgs),
    /// Show your hand of cards in a game with hidden hands, from your key
    /// file (nobody else can see it).
    #[command(after_help = "\
When your turn is next, the hand includes the cards you draw at its
start. The hand is printed only here, never written into the record.

Examples:
  herald hand game.pbem --key south.key
  herald hand game.pbem --key south.key --format json
  herald hand bg.pbem --key c3.key --hand-key c1.key   (the hand c3 plays from)")]
    Hand(HandArgs),
    /// List every chance event: turn, label, whose reveals went in, value.
    #[command(after_help = "\
Examples:
  herald fate dale.pbem
  herald fate dale.pbem --format json
  herald fate game.pbem --key blue.key      (adds your next roll when it is yours)")]
    Fate(FateArgs),
    /// Take the record out of an email message, a mailbox or any text, as
    /// a clean record file (quoting, mail encoding and text around it
    /// gone).
    #[command(after_help = "\
Examples:
  herald extract reply.eml -o game.pbem
  herald extract ~/Mail/games.mbox --message 4 -o game.pbem
  herald extract - < message.txt")]
    Extract(ExtractArgs),
    /// Create a private key for one side and add its Commit and Key tags.
    #[command(after_help = "\
The key file never leaves your machine and herald never prints it. The
Commit and Key tags are added to the record (or printed with --print)
before turn 1. Answering an email, --reply -o FILE writes the message that
carries them to the other players (the key file then goes to --key).

Examples:
  herald keygen --side Blue game.pbem -o blue.key
  herald keygen --side Red ann.eml --key red.key --reply -o bob.eml   (answer an email)
  herald keygen --side Red game.pbem -o red.key --print")]
    Keygen(KeygenArgs),
    /// Check the mail configuration: read it, then try the connections
    /// to send (SMTP or sendmail) and to read (IMAP, Maildir or mbox).
    #[command(after_help = "\
Examples:
  herald config check
  herald config check --config ~/games/herald.toml
  herald config password --smtp         (asks for it, without echo)
  pass show mail | herald config password --imap -")]
    Config(ConfigArgs),
    /// Send a message herald wrote (move --reply), as the mail
    /// configuration says: again, when it was lost or could not go.
    #[command(after_help = "\
Examples:
  herald send reply.eml
  herald send reply.eml --config ~/games/herald.toml")]
    Send(SendArgs),
    /// Read new mail and list your games: whose step is due, what the
    /// last message did; yours first. Mail is never moved or deleted.
    #[command(after_help = "\
Records in new mail are checked; a tampered or stale one is listed with
its verdict, never taken. The newest valid message of each game is kept,
so that `herald move GAME-ID ...` plays on it.

Examples:
  herald inbox
  herald inbox --format json
  herald move 3f2a9c1b04de \"Kc1-b1\" --key blue.key --reply -o reply.eml --send")]
    Inbox(InboxArgs),
    /// Print a game's rules and the rulings herald follows (through your
    /// pager on a terminal); without a game, list the games.
    #[command(after_help = "\
Examples:
  herald rules                       (the games, one line each)
  herald rules castle-danger         (paged on a terminal: $PAGER, else less -R)
  herald rules battlegates | grep -n Misery
  PAGER=more herald rules breach-the-keep")]
    Rules(RulesArgs),
    /// Print a shell completion script.
    #[command(after_help = "\
Examples:
  herald completions bash > ~/.local/share/bash-completion/completions/herald
  herald completions zsh > ~/.zfunc/_herald
  herald completions fish > ~/.config/fish/completions/herald.fish")]
    Completions(CompletionsArgs),
    /// Print the man page (roff): herald(1), or herald-<command>(1) with
    /// every option of that command.
    #[command(after_help = "\
Examples:
  herald man --dir ~/.local/share/man/man1   (every page: herald.1, herald-move.1, ...)
  herald man > ~/.local/share/man/man1/herald.1
  herald man move > ~/.local/share/man/man1/herald-move.1
  herald man | man -l -")]
    Man(ManArgs),
}

/// The arguments of `herald new`.
#[derive(Args, Debug)]
pub struct NewArgs {
    /// The game, by its id (the possible values listed).
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(crate::games::GAME_IDS))]
    pub game: String,
    /// A side and how to reach its player, as Side=contact; repeat for
    /// each side, in turn order where the game lets the header decide.
    #[arg(long = "side", value_name = "SIDE=CONTACT", required = true)]
    pub sides: Vec<String>,
    /// A game option as Name=value (e.g. WhiteKeep=3); see the spec.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = super::complete::options(),
          hide_possible_values = true)]
    pub options: Vec<String>,
    /// The days a player's step may be due before another player may
    /// claim its forfeit (the Deadline tag, 1 to 3650; every line is
    /// then dated).
    #[arg(long, value_name = "DAYS", default_value_t = 14,
          value_parser = clap::value_parser!(u16).range(1..=3650))]
    pub deadline: u16,
    /// Write the record here (refuses to overwrite); default: print it.
    /// With --reply, the message that carries the record.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Make your key too (as herald keygen does), for the side --as
    /// names, and add its Commit and Key tags: write the private key
    /// file here (refuses to overwrite).
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// The side you play, whose key --key makes (default: the first
    /// --side).
    #[arg(long = "as", value_name = "SIDE", requires = "key")]
    pub me: Option<String>,
    /// The protocol the record follows: 3 (a side's key joins with its
    /// first line, the shortest set-up), or 2 for players whose herald
    /// predates protocol 3 (every key before the set-up).
    #[arg(long, value_name = "VERSION", default_value = "3",
          value_parser = clap::builder::PossibleValuesParser::new(["2", "3"]))]
    pub protocol: String,
    /// Your hidden choices (a game with a set-up, with --key): the
    /// record begins with your set-up line, your commitments to them,
    /// so the first message carries them.
    #[command(flatten)]
    pub choices: SetupChoices,
    /// Write the first email message (-o FILE) instead of a record
    /// file: the new record with your key, To the player due next and
    /// Cc the others. Keep it: it is the game's record until the
    /// answer comes.
    #[arg(long, requires_all = ["output", "key"])]
    pub reply: bool,
    /// Whether the message goes now (--send), and by which mail
    /// configuration.
    #[command(flatten)]
    pub sending: Sending,
}

/// The arguments of `herald move`.
#[derive(Args, Debug)]
pub struct MoveArgs {
    /// The game record file, or the id of a game `herald inbox` lists
    /// (its newest valid message).
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// The turn's actions, separated by commas, `pass` or `resign`
    /// (`audit` once a game with hidden values has ended); `-` or
    /// nothing to read them from standard input. A `12. Blue:` in
    /// front, as the turn reads in the record, is checked and dropped.
    #[arg(value_name = "TURN")]
    pub turn: Option<String>,
    /// Your private key file (from `herald keygen`): adds your reveal
    /// and the openings of your hidden values that the rules call for.
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// The key file of the side that holds your hand of cards, when
    /// your side plays from another side's hand (a game of shared
    /// hands): its cards are drawn and shown with that key file. A
    /// key file serves one side: a player of two sides keeps one for
    /// each, and names with --key the side that writes, with
    /// --hand-key the side that holds the hand.
    #[arg(
        long,
        value_name = "KEYFILE",
        requires = "key",
        conflicts_with = "forfeit"
    )]
    pub hand_key: Option<PathBuf>,
    /// Check and print the new line (unsigned: herald signs only what it
    /// writes), but write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Refuse unless the record is at this turn number (guards against a
    /// stale copy of the game).
    #[arg(long, value_name = "N")]
    pub expect_turn: Option<u32>,
    /// Claim the forfeit of the side to move, whose player stopped
    /// answering: the line is signed with your key (--key), and that
    /// side loses.
    #[arg(long, requires = "key", conflicts_with = "turn")]
    pub forfeit: bool,
    /// When the line after yours is another side's of yours (one
    /// player of two castles in Battlegates' four-castles: a castle
    /// skipped between them, a farewell line, an audit): that line,
    /// written right after yours by that side's key file
    /// (--then-key), so that one message carries both, To the other
    /// player. `pass` for a farewell line, `audit` for an audit.
    /// Repeat it (each with its --then-key, in order) for a third
    /// line. Refused, writing nothing, when the next line is another
    /// player's or nothing is due.
    #[arg(
        long,
        value_name = "TURN",
        requires = "key",
        conflicts_with = "forfeit"
    )]
    pub then: Vec<String>,
    /// The key file of the side whose line the --then before it
    /// writes (one --then-key for each --then, in order).
    #[arg(long, value_name = "KEYFILE", requires = "then")]
    pub then_key: Vec<PathBuf>,
    /// Play turn 1 although some sides have Commit or Key tags and
    /// others not (they can never be added later). Records of
    /// protocol 2 only: under protocol 3 every side signs or none.
    #[arg(long)]
    pub no_commit: bool,
    /// The day to date the line with, YYYY-MM-DD, at most a day after
    /// today (default: today, UTC, by this computer's clock or
    /// HERALD_TODAY; the last line's day if that is later).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub date: Option<String>,
    /// Output format: text for people, or JSON for programs (its
    /// schema: docs/schemas/COMMAND.json).
    #[arg(long, value_parser = TEXT_OR_JSON, default_value = "text")]
    pub format: Format,
    /// Write the next email message too (-o FILE): the whole record
    /// with your turn, the diagram and whose turn it is, To the next
    /// player and Cc the others, threaded as a reply when RECORD is a
    /// message, ready for `sendmail -t`. A message given as RECORD is
    /// left as it is; a record file is updated as usual.
    #[arg(long, requires = "output")]
    pub reply: bool,
    /// Where --reply writes the message (a new file: never overwrites).
    #[arg(short, long, value_name = "FILE", requires = "reply")]
    pub output: Option<PathBuf>,
    /// Whether the message goes now (--send), and by which mail
    /// configuration.
    #[command(flatten)]
    pub sending: Sending,
}

/// The arguments of `herald setup`.
#[derive(Args, Debug)]
pub struct SetupArgs {
    /// The game record file.
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// The side you play. With a key file that does not exist yet,
    /// your key is made with your first set-up line: its Commit and
    /// Key tags join the header with it, and --key is written,
    /// readable by you alone.
    #[arg(long, value_name = "SIDE")]
    pub side: Option<String>,
    /// Your private key file (from `herald keygen`, `herald new --key`,
    /// or made here with --side): your choices are kept there, and
    /// your salts come from it.
    #[arg(long, value_name = "KEYFILE")]
    pub key: PathBuf,
    /// The key file of the side that holds your hand of cards, when
    /// your side plays from another side's hand (a game of shared
    /// hands): its cards are drawn and shown with that key file. A
    /// key file serves one side: a player of two sides keeps one for
    /// each, and names with --key the side that writes, with
    /// --hand-key the side that holds the hand.
    #[arg(long, value_name = "KEYFILE", requires = "key")]
    pub hand_key: Option<PathBuf>,
    /// Your hidden choices.
    #[command(flatten)]
    pub choices: SetupChoices,
    /// The day to date the line with, YYYY-MM-DD, at most a day after
    /// today (default: today, UTC, by this computer's clock or
    /// HERALD_TODAY; the last line's day if that is later).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub date: Option<String>,
    /// Check and print the set-up line (unsigned: herald signs only what
    /// it writes), but write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// When your set-up line is the set-up's last and makes you the
    /// first to move: your first turn, written right after it, so
    /// that one message carries both (no one waits on a message that
    /// holds nothing for them). Refused, with who moves first, when
    /// your line does not make you (or, with --then-key, another side
    /// of yours) the first to move.
    #[arg(long, value_name = "TURN")]
    pub then: Option<String>,
    /// With --then, when your set-up line makes another side of yours
    /// the first to move (one player of two castles in Battlegates'
    /// four-castles): that side's key file, which writes the turn.
    /// Both lines go in one message, to the other player.
    #[arg(long, value_name = "KEYFILE", requires = "then")]
    pub then_key: Option<PathBuf>,
    /// Output format: text for people, or JSON for programs (its
    /// schema: docs/schemas/COMMAND.json).
    #[arg(long, value_parser = TEXT_OR_JSON, default_value = "text")]
    pub format: Format,
    /// Write the next email message too (-o FILE): the whole record
    /// with your set-up line, To the player due next and Cc the
    /// others, threaded as a reply when RECORD is a message. A message
    /// given as RECORD is left as it is; a record file is updated as
    /// usual.
    #[arg(long, requires = "output", conflicts_with = "dry_run")]
    pub reply: bool,
    /// Where --reply writes the message (a new file: never overwrites).
    #[arg(short, long, value_name = "FILE", requires = "reply")]
    pub output: Option<PathBuf>,
    /// Whether the message goes now (--send), and by which mail
    /// configuration.
    #[command(flatten)]
    pub sending: Sending,
}

/// The arguments of `herald check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The record and the output format.
    #[command(flatten)]
    pub input: Input,
    /// List every record found in the input (a message, an mbox file,
    /// a Maildir folder) with its verdict.
    #[arg(long)]
    pub all: bool,
    /// More records to check, each on its own (one verdict line each).
    #[arg(value_name = "MORE")]
    pub more: Vec<PathBuf>,
    /// Your key file: check the record against what it remembers too
    /// (the record must hold your last line as you wrote it, or be
    /// the one you answered with it), and say where you stand. Nothing
    /// is written, the key file included.
    #[arg(long, value_name = "KEYFILE", conflicts_with_all = ["all", "more"])]
    pub key: Option<PathBuf>,
}

/// The arguments of `herald show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The record and the output format.
    #[command(flatten)]
    pub input: ShowInput,
    /// Show the position after this turn (0: the start); default: the last.
    #[arg(long, value_name = "N")]
    pub turn: Option<u32>,
    /// Your key file: the diagram adds what you know and others do not
    /// (your own hidden values, in games that have them), and under it
    /// one look at your turn: your hand with this turn's draw marked,
    /// your roll, the step due and whose it is, and the legal actions
    /// as the turn proceeds (card phase, then dice phase).
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// The key file of the side that holds your hand of cards, when
    /// your side plays from another side's hand (a game of shared
    /// hands): its cards are drawn and shown with that key file. A
    /// key file serves one side: a player of two sides keeps one for
    /// each, and names with --key the side that writes, with
    /// --hand-key the side that holds the hand.
    #[arg(long, value_name = "KEYFILE", requires = "key")]
    pub hand_key: Option<PathBuf>,
    /// Draw with box-drawing characters.
    #[arg(long)]
    pub unicode: bool,
}

/// The arguments of `herald replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record and the output format.
    #[command(flatten)]
    pub input: Input,
    /// Your key file: every diagram adds what you know and others do
    /// not (your own hidden values, in games that have them).
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// Draw with box-drawing characters.
    #[arg(long)]
    pub unicode: bool,
    /// Write one self-contained HTML page instead: the picture of
    /// every position, step controls and the turns with their comments.
    #[arg(long, conflicts_with = "unicode")]
    pub html: bool,
    /// With --html: write the page to this new file (refuses to
    /// overwrite); default: print it.
    #[arg(short, long, value_name = "FILE", requires = "html")]
    pub output: Option<PathBuf>,
}

/// The arguments of `herald annotate`.
#[derive(Args, Debug)]
pub struct AnnotateArgs {
    /// The record and the output format.
    #[command(flatten)]
    pub input: Input,
    /// Write the annotated record to this file instead of printing it.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The arguments of `herald legal`.
#[derive(Args, Debug)]
pub struct LegalArgs {
    /// The record and the output format.
    #[command(flatten)]
    pub input: Input,
    /// The mover's key file: settles pending chance first (nothing is
    /// written).
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// The key file of the side that holds your hand of cards, when
    /// your side plays from another side's hand (a game of shared
    /// hands): its cards are drawn and shown with that key file. A
    /// key file serves one side: a player of two sides keeps one for
    /// each, and names with --key the side that writes, with
    /// --hand-key the side that holds the hand.
    #[arg(long, value_name = "KEYFILE", requires = "key")]
    pub hand_key: Option<PathBuf>,
    /// The turn's first actions, as `move` takes them: list what
    /// remains of the turn after them (nothing is written).
    #[arg(long, value_name = "ACTIONS")]
    pub after: Option<String>,
}

/// The arguments of `herald hand`.
#[derive(Args, Debug)]
pub struct HandArgs {
    /// The record and the output format.
    #[command(flatten)]
    pub input: Input,
    /// Your key file.
    #[arg(long, value_name = "KEYFILE")]
    pub key: PathBuf,
    /// The key file of the side that holds your hand of cards, when
    /// your side plays from another side's hand (a game of shared
    /// hands): its cards are drawn and shown with that key file. A
    /// key file serves one side: a player of two sides keeps one for
    /// each, and names with --key the side that writes, with
    /// --hand-key the side that holds the hand.
    #[arg(long, value_name = "KEYFILE", requires = "key")]
    pub hand_key: Option<PathBuf>,
}

/// The arguments of `herald fate`.
#[derive(Args, Debug)]
pub struct FateArgs {
    /// The record and the output format.
    #[command(flatten)]
    pub input: Input,
    /// Your key file: when your line is due, adds the chance your
    /// reveal will settle or draw on it (nothing is written).
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
}

/// The arguments of `herald extract`.
#[derive(Args, Debug)]
pub struct ExtractArgs {
    /// The message (or mailbox, or text) and --message.
    #[command(flatten)]
    pub input: ExtractInput,
    /// Write the record to this new file (refuses to overwrite);
    /// default: print it.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The arguments of `herald keygen`.
#[derive(Args, Debug)]
pub struct KeygenArgs {
    /// The side the key is for.
    #[arg(long, value_parser = super::complete::sides(), hide_possible_values = true)]
    pub side: String,
    /// The game record file, or the email message that carries it.
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// Where to write the private key (refuses to overwrite); with
    /// --reply, the message (and the key goes to --key).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Where to write the private key (refuses to overwrite): the same
    /// as -o without --reply.
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// Print the Commit tag instead of adding it to the record.
    #[arg(long, conflicts_with = "reply")]
    pub print: bool,
    /// Write the next email message too (-o FILE): the whole record
    /// with your Commit and Key tags, To the player due next and Cc
    /// the others. A message given as RECORD is left as it is.
    #[arg(long, requires_all = ["output", "key"])]
    pub reply: bool,
    /// Whether the message goes now (--send), and by which mail
    /// configuration.
    #[command(flatten)]
    pub sending: Sending,
}

/// How a message written with --reply goes (`new`, `move`, `setup`,
/// `keygen`): sent now or kept, and the mail configuration.
#[derive(Args, Debug)]
pub struct Sending {
    /// With --reply: send the message too, as the mail configuration
    /// says (docs/mailbox.md); if it cannot go, it is kept, and
    /// `herald send FILE` sends it later.
    #[arg(long, requires = "reply")]
    pub send: bool,
    /// The mail configuration (default: HERALD_CONFIG, then
    /// ~/.config/herald/config.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `herald config`.
#[derive(Args, Debug)]
pub struct ConfigArgs {
    /// What to do: check, or store a password.
    #[command(subcommand)]
    pub action: ConfigAction,
}

/// The arguments of `herald send`.
#[derive(Args, Debug)]
pub struct SendArgs {
    /// The message file.
    #[arg(value_name = "MESSAGE")]
    pub message: PathBuf,
    /// The mail configuration (default: HERALD_CONFIG, then
    /// ~/.config/herald/config.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `herald inbox`.
#[derive(Args, Debug)]
pub struct InboxArgs {
    /// The mail configuration (default: HERALD_CONFIG, then
    /// ~/.config/herald/config.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Output format: text for people, or JSON for programs (its
    /// schema: docs/schemas/COMMAND.json).
    #[arg(long, value_parser = TEXT_OR_JSON, default_value = "text")]
    pub format: Format,
}

/// The arguments of `herald rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// The game's id (the games this build plays).
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(crate::games::GAME_IDS))]
    pub game: Option<String>,
}

/// The arguments of `herald completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

/// The arguments of `herald man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// A command, for its own page (herald-move(1)).
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub command: Option<String>,
    /// Write every page into this folder (created if missing):
    /// herald.1 and herald-COMMAND.1 for each command, replacing the
    /// pages of an earlier herald there.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `herald config` actions.
#[derive(Subcommand, Debug)]
pub enum ConfigAction {
    /// Read the configuration and try both connections.
    Check(ConfigCheckArgs),
    /// Store the password of [smtp] or [imap] in the OS keyring, for a
    /// server with password-keyring = true. It is read from the terminal
    /// without echo, or from standard input with `-`: never from an
    /// argument, never written in a file.
    #[command(after_help = "\
Examples:
  herald config password --smtp
  herald config password --imap
  pass show mail | herald config password --smtp -")]
    Password(ConfigPasswordArgs),
}

/// The arguments of `herald config check`.
#[derive(Args, Debug)]
pub struct ConfigCheckArgs {
    /// The mail configuration (default: HERALD_CONFIG, then
    /// ~/.config/herald/config.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `herald config password`.
#[derive(Args, Debug)]
pub struct ConfigPasswordArgs {
    /// The password of [smtp] (the default).
    #[arg(long, conflicts_with = "imap")]
    pub smtp: bool,
    /// The password of [imap].
    #[arg(long)]
    pub imap: bool,
    /// `-`: read the password from the first line of standard input
    /// (anything else is refused, without being repeated: a password
    /// is never taken from an argument).
    #[arg(value_name = "-")]
    pub stdin: Option<String>,
    /// The mail configuration (default: HERALD_CONFIG, then
    /// ~/.config/herald/config.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The hidden choices of a set-up line (`herald setup`, `herald new --key`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SetupChoices {
    /// Playground Battles: your army, one letter per back-row square from
    /// a to j, R (Rock), P (Paper) or S (Scissors), at least one of each.
    #[arg(long, value_name = "LETTERS")]
    pub army: Option<String>,
    /// Playground Battles: your opening throws, 12 letters R, P or S
    /// (default: drawn at random).
    #[arg(long, value_name = "LETTERS")]
    pub throws: Option<String>,
    /// Battlegates: your maze, the ten pieces of your half separated
    /// by spaces or commas (4 Brick walls Wd4n, 3 Gates Gd4nw, 3 Long
    /// gates Ld4nw), or @FILE to read them from a file (`#` starts a
    /// comment).
    #[arg(long, value_name = "PIECES")]
    pub maze: Option<String>,
}
