//! The `herald` binary: everything is in the library (`herald::cli`).

fn main() -> std::process::ExitCode {
    herald::cli::main()
}
