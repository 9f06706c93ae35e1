//! `steergraph`: the Steergraph editor, with headless subcommands for scripts and CI.

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    let arguments = app::cli::Arguments::parse();
    match arguments.command {
        Some(command) => app::cli::run(command),
        None => match app::editor::run(arguments.file, arguments.scene) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: cannot open the editor window: {error}");
                ExitCode::FAILURE
            }
        },
    }
}
