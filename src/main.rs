//! The `herald` binary: everything is in the library (`herald::run`).

fn main() -> std::process::ExitCode {
    herald::run()
}
