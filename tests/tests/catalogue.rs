//! Every node kind is where a designer and a game programmer look for it (`CONTRIBUTING.md`,
//! "Add a node kind"): described in the catalogue, written down in `BEHAVIORS.md`, and used
//! by a preset, unless it is listed below with the reason it has none. A new kind that
//! misses one of these fails here.

use graph_runtime::{NodeKind, PortType};

/// Kinds no preset uses yet, and why each is fine without one.
const WITHOUT_PRESET: &[(NodeKind, &str)] = &[
    (
        NodeKind::Cohesion,
        "the boids preset has it inside Flocking",
    ),
    (
        NodeKind::Alignment,
        "the boids preset has it inside Flocking",
    ),
    (
        NodeKind::Truncate,
        "a plain helper; the force budget preset shows limiting",
    ),
    (
        NodeKind::NeighborCount,
        "a sensor; combiners.rs and behaviors_doc cover it",
    ),
    (
        NodeKind::Speed,
        "a sensor; combiners.rs and behaviors_doc cover it",
    ),
    (
        NodeKind::WallDistance,
        "a sensor; walls.rs and behaviors_doc cover it",
    ),
    (
        NodeKind::WallAhead,
        "a condition; the wall tests in behaviors_doc cover it",
    ),
    (
        NodeKind::All,
        "a condition over conditions; combiners.rs covers it",
    ),
    (
        NodeKind::Any,
        "a condition over conditions; combiners.rs covers it",
    ),
    (
        NodeKind::Subgraph,
        "needs a second file; the subgraph tests build one",
    ),
    (
        NodeKind::Reroute,
        "a bend point, layout only; it compiles to nothing",
    ),
];

fn presets() -> Vec<String> {
    let dir = tests::presets_dir();
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the presets folder") {
        let path = entry.expect("an entry").path();
        if path.to_string_lossy().ends_with(".graph.ron") {
            texts.push(std::fs::read_to_string(&path).expect("a preset"));
        }
    }
    texts
}

#[test]
fn every_kind_is_in_the_catalogue_the_formulas_and_a_preset() {
    let behaviors = include_str!("../../graph-runtime/BEHAVIORS.md");
    let presets = presets();
    let mut problems = Vec::new();
    for &kind in NodeKind::ALL {
        let name = kind.name();
        // The catalogue: a name, a one-line description, a category and an output type.
        if kind.description().trim().is_empty() || !kind.description().ends_with('.') {
            problems.push(format!("{name}: no one-line description in the node table"));
        }
        if kind.category().to_string().is_empty() {
            problems.push(format!("{name}: no category"));
        }
        let _: PortType = kind.output();
        // The formulas: named as code (`Name` or `Name(`) or in a heading.
        let in_doc = behaviors.contains(&format!("`{name}`"))
            || behaviors.contains(&format!("`{name}("))
            || behaviors
                .lines()
                .any(|line| line.starts_with('#') && line.contains(name));
        if !in_doc {
            problems.push(format!("{name}: not in BEHAVIORS.md"));
        }
        // A preset: a node of the kind (`Name(` for kinds with fields, `Name,` without).
        let used = presets.iter().any(|text| {
            text.contains(&format!(": {name}(")) || text.contains(&format!(": {name},"))
        });
        let exempt = WITHOUT_PRESET.iter().any(|(k, _)| *k == kind);
        if !used && !exempt {
            problems.push(format!(
                "{name}: no preset uses it (add one, or list it in WITHOUT_PRESET with why)"
            ));
        }
        if used && exempt {
            problems.push(format!(
                "{name}: a preset uses it now: take it off WITHOUT_PRESET"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
