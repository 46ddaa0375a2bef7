//! Mail transport for the command line (issue 31): the configuration,
//! sending the messages herald writes (lettre), reading new mail (IMAP,
//! Maildir, mbox) and `herald inbox`. Connection code only: the records
//! found are read and checked by the same layers as every command's.

pub(crate) mod config;
pub(crate) mod fetch;
pub(crate) mod inbox;
pub(crate) mod send;
pub(crate) mod state;
pub(crate) mod tls;
