//! The command line's part in email: reading records out of messages and
//! mailboxes (`check --all`, `extract`) and writing a reply message
//! (`move --reply`). The decoding itself is the record layer's
//! (`record::mail`, `record::find`); this module reads and writes files.

use super::commands::Ctx;
use super::report::Failure;

/// Writers rewrite a record file as it stands; a record read out of an
/// email message is not such a file.
pub(super) fn refuse_message(ctx: &Ctx<'_>) -> Result<(), Failure> {
    if ctx.source.from_message() {
        return Err(Failure::usage(format!(
            "{} is an email message: herald does not rewrite messages; write your turn as a reply (herald move {} \"...\" --key KEY --reply -o reply.eml), or take the record out first (herald extract {} -o game.pbem)",
            ctx.origin,
            ctx.path.display(),
            ctx.path.display()
        )));
    }
    Ok(())
}
