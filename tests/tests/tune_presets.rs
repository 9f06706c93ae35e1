//! The tuning problems in `presets/`: each reads and validates, the graph's current values
//! miss at least one of its goals, and the search meets every goal (the full budgets are
//! measured in `BENCHMARKS.md`; here the search stops at the first candidate that meets them).

use graph_runtime::SceneAssets;
use graph_runtime::tune::{
    Strategy, TuneControl, TuneFile, TuneParameter, TuneResult, TuneSpec, tune, validate,
};
use tests::presets_dir;

const PROBLEMS: [&str; 3] = ["swap_circle", "errands", "boids"];

fn problem(name: &str) -> (TuneFile, SceneAssets) {
    let path = presets_dir().join(format!("{name}.tune.ron"));
    let file = TuneFile::load(&path).expect("the problem reads");
    let scene = file.scene_path(&path).expect("its scene is in its folder");
    let assets = SceneAssets::load(&scene).expect("its scene loads");
    (file, assets)
}

fn run(assets: &SceneAssets, spec: &TuneSpec) -> TuneResult {
    tune(assets, spec, &TuneControl::default(), |_| {}).expect("the tuning runs")
}

/// The graph's values, as the tuning reads them (a group's override, else the default).
fn current(assets: &SceneAssets, spec: &TuneSpec) -> Vec<f32> {
    let mut probe = spec.clone();
    probe.budget = 1;
    probe.seconds = 0.1;
    // A goal a run this short can be held to (one on arrival times beyond it is refused).
    probe.goals = vec!["mean_speed >= 0".parse().expect("a goal")];
    run(assets, &probe).current
}

#[test]
fn the_current_values_miss_a_goal_of_every_problem() {
    for name in PROBLEMS {
        let (file, assets) = problem(name);
        let spec = file.spec(Strategy::Random, 1);
        validate(&assets, &spec).expect("valid");
        let values = current(&assets, &spec);
        // Each range collapsed onto the current value: one candidate, the graph as it stands.
        let parameters = spec
            .parameters
            .iter()
            .zip(&values)
            .map(|(p, &value)| TuneParameter {
                name: p.name.clone(),
                from: value,
                to: value,
            })
            .collect();
        let result = run(
            &assets,
            &TuneSpec {
                budget: 1,
                parameters,
                ..spec.clone()
            },
        );
        let run = result.best().expect("one run");
        assert_eq!(run.values, values);
        let missed: Vec<String> = file
            .goals
            .iter()
            .filter(|goal| !goal.met(run.metric(goal.metric)))
            .map(ToString::to_string)
            .collect();
        eprintln!("{name}: the graph as it stands misses {missed:?}");
        assert!(
            !missed.is_empty(),
            "{name}: the current values meet every goal"
        );
    }
}

/// Smaller versions of the problems (the same parameters and ranges, looser goals, so that a
/// debug build meets them within seconds): the search meets every goal. The problems as saved
/// take 12 to 88 candidates (`BENCHMARKS.md`, "Tuning against random search").
#[test]
fn the_search_meets_every_goal_of_smaller_versions_of_every_problem() {
    let looser = [
        (
            "swap_circle",
            &["arrived_95 <= 22", "agent_overlaps <= 0"][..],
        ),
        (
            "errands",
            &["arrived_95 <= 16", "agent_overlaps <= 0.1"][..],
        ),
        (
            "boids",
            &[
                "min_spacing >= 1.2",
                "agent_overlaps <= 0.2",
                "polarization >= 0.9",
            ][..],
        ),
    ];
    for (name, goals) in looser {
        let (file, assets) = problem(name);
        let mut spec = file.spec(Strategy::Cmaes, 1);
        spec.goals = goals.iter().map(|g| g.parse().expect("a goal")).collect();
        spec.stop_when_met = true;
        let started = std::time::Instant::now();
        let result = run(&assets, &spec);
        eprintln!(
            "{name}: met after {} runs in {:.1?}",
            result.runs.len(),
            started.elapsed()
        );
        assert!(result.met(), "{name}: best {:?}", result.best());
        assert!(result.runs.len() <= file.budget);
    }
}
