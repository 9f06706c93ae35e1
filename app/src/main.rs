//! `steergraph`: the Steergraph editor, with headless subcommands for scripts and CI.

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    quiet_guarded_panics();
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

/// Keeps the panic hook quiet about a panic the runtime catches and reports as an error (a
/// triangulation library's bug on a heap of nearly coinciding walls: "the triangulation failed
/// on walls, gaps or obstacles that overlap or nearly coincide near (x, y)"), which printed a
/// crash's message before the clear error; every other panic is printed as before.
fn quiet_guarded_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !graph_runtime::navigation::in_guarded_call() {
            default(info);
        }
    }));
}
