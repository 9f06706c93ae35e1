//! `steergraph`: the Steergraph editor, with headless subcommands for scripts and CI.

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    // A panic the runtime catches (a triangulation library's bug on a heap of nearly
    // coinciding walls) is reported as its error, not printed as a crash first.
    graph_runtime::navigation::quiet_caught_panics();
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
