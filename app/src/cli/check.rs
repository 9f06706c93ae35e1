//! `steergraph check`: validates asset files and prints every problem.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use graph_runtime::{AssetKind, FlowField, Graph, Scene, SceneAssets, Simulation, Subgraphs};

/// Checks every file; prints `ok` lines to stdout and problems to stderr; exit 1 on any problem.
pub fn run(files: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    for file in files {
        match check(file) {
            Ok(summary) => println!("ok: {}: {summary}", file.display()),
            Err(problems) => {
                failed = true;
                for problem in problems {
                    eprintln!("{problem}");
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn kind_of(file: &Path, text: &str) -> Option<AssetKind> {
    graph_runtime::sniff_kind(text).or_else(|| {
        let name = file.file_name()?.to_string_lossy().into_owned();
        [
            (".graph.ron", AssetKind::Graph),
            (".scene.ron", AssetKind::Scene),
            (".flow.ron", AssetKind::FlowField),
            (".tune.ron", AssetKind::Tune),
            (".sgrec", AssetKind::Replay),
        ]
        .into_iter()
        .find(|(suffix, _)| name.ends_with(suffix))
        .map(|(_, kind)| kind)
    })
}

fn check(file: &Path) -> Result<String, Vec<String>> {
    let origin = file.display().to_string();
    // The runtime's reader: regular files only, at most `limits::MAX_FILE_BYTES`.
    let text = graph_runtime::read_asset_text(file).map_err(|e| vec![e.to_string()])?;
    let Some(kind) = kind_of(file, &text) else {
        return Err(vec![format!(
            "{origin}: not a Steergraph asset (no `format: \"steergraph.graph\"`, \"steergraph.scene\", \"steergraph.flow\", \"steergraph.tune\" or \"steergraph.replay\" field, and no .graph.ron, .scene.ron, .flow.ron, .tune.ron or .sgrec name)"
        )]);
    };
    match kind {
        AssetKind::Graph => {
            let graph = Graph::from_ron(&text, &origin).map_err(|e| vec![e.to_string()])?;
            let subgraphs = Subgraphs::load(&graph, file);
            let program = subgraphs
                .compile(&graph)
                .map_err(|errors| subgraphs.messages(&origin, &errors))?;
            let used = match subgraphs.library.len() {
                0 => String::new(),
                1 => ", 1 subgraph file".to_owned(),
                n => format!(", {n} subgraph files"),
            };
            Ok(format!(
                "graph, {} nodes ({} reachable), {} parameters{used}",
                graph.nodes.len(),
                program.len(),
                program.parameter_names().len()
            ))
        }
        AssetKind::FlowField => {
            let field = FlowField::from_ron(&text, &origin).map_err(|e| vec![e.to_string()])?;
            Ok(format!(
                "flow field, {}x{} cells of {} units",
                field.width, field.height, field.cell_size
            ))
        }
        AssetKind::Tune => check_tune(file, &text, &origin),
        AssetKind::Replay => check_replay(file, &text, &origin),
        AssetKind::Scene => {
            let scene = Scene::from_ron(&text, &origin).map_err(|e| vec![e.to_string()])?;
            let directory = file.parent().map(Path::to_path_buf).unwrap_or_default();
            let strings = |errors: Vec<graph_runtime::SceneError>| {
                errors.iter().map(ToString::to_string).collect::<Vec<_>>()
            };
            let assets = SceneAssets::resolve(scene, &origin, &directory).map_err(strings)?;
            let simulation = Simulation::new(&assets).map_err(strings)?;
            for warning in simulation.warnings() {
                eprintln!("warning: {warning}");
            }
            Ok(format!(
                "scene, {}, {}",
                crate::editor::plural(simulation.groups().len(), "group"),
                crate::editor::plural(simulation.vehicles().len(), "agent")
            ))
        }
    }
}

/// A replay: it reads, its scene is found, loads, is the one recorded and makes the run's
/// agents in their recorded state at tick 0 (the run itself is not stepped: `replay` does).
fn check_replay(file: &Path, text: &str, origin: &str) -> Result<String, Vec<String>> {
    use graph_runtime::replay::ReplayFile;
    let replay = ReplayFile::from_ron(text, origin).map_err(|e| vec![e.to_string()])?;
    replay
        .open(file, graph_runtime::FileAccess::Anywhere)
        .map_err(|e| vec![e.to_string()])?;
    let changes = replay.edits.changes().len();
    let edited = match changes {
        0 => String::new(),
        1 => ", with 1 change by tick (an edit while it ran)".to_owned(),
        n => format!(", with {n} changes by tick (edits while it ran)"),
    };
    Ok(format!(
        "replay of {}, {}, ticks 0 to {} of {} s{edited}",
        replay.scene,
        crate::editor::plural(replay.agents, "agent"),
        replay.ticks(),
        replay.dt
    ))
}

/// A tuning problem: it reads, its scene loads and runs, and the search would start (every
/// parameter declared, both ends of its range accepted, the work within the limits).
fn check_tune(file: &Path, text: &str, origin: &str) -> Result<String, Vec<String>> {
    use graph_runtime::tune::{Strategy, TuneFile, validate};
    let problem = TuneFile::from_ron(text, origin).map_err(|e| vec![e.to_string()])?;
    let scene = problem.scene_path(file).map_err(|e| vec![e.to_string()])?;
    let assets = SceneAssets::load(&scene)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    validate(&assets, &problem.spec(Strategy::Cmaes, 1))
        .map_err(|error| vec![format!("{origin}: {error}")])?;
    Ok(format!(
        "tuning problem on {}, {}, {}, a budget of {} runs",
        problem.scene,
        crate::editor::plural(problem.parameters.len(), "parameter"),
        crate::editor::plural(problem.goals.len(), "goal"),
        problem.budget
    ))
}
