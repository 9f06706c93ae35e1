//! `steergraph`: the Steergraph editor, with headless subcommands for scripts and CI.

mod cli;

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    let arguments = cli::Arguments::parse();
    match arguments.command {
        Some(command) => cli::run(command),
        None => {
            // The editor opens here once it lands; until then, say how to use the tool.
            let mut command = <cli::Arguments as clap::CommandFactory>::command();
            // Printing help can only fail on a closed stdout; nothing useful is left to do then.
            let _ = command.print_long_help();
            ExitCode::SUCCESS
        }
    }
}
