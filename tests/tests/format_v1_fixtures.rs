//! Files written in format version 1 keep loading, compiling and running in every later
//! version of Steergraph (the fixtures in `tests/fixtures/v1/` are frozen copies).

use std::path::{Path, PathBuf};

use graph_runtime::{AssetKind, FlowField, Graph, SceneAssets, Simulation, compile, sniff_kind};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("v1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_version_1_fixture_still_loads_and_runs() {
    let files = fixtures();
    assert!(files.len() >= 38, "{} fixtures", files.len());
    let (mut graphs, mut scenes, mut fields) = (0, 0, 0);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        assert!(
            text.contains("version: 1,"),
            "{} is a version-1 file",
            file.display()
        );
        match sniff_kind(&text) {
            Some(AssetKind::Graph) => {
                let graph = Graph::load(&file).unwrap_or_else(|e| panic!("{e}"));
                compile(&graph).unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
                graphs += 1;
            }
            Some(AssetKind::Scene) => {
                let assets = SceneAssets::load(&file).unwrap_or_else(|e| panic!("{e:?}"));
                let mut simulation = Simulation::new(&assets).unwrap_or_else(|e| panic!("{e:?}"));
                simulation.step(1.0 / 60.0);
                scenes += 1;
            }
            Some(AssetKind::FlowField) => {
                FlowField::load(&file).unwrap_or_else(|e| panic!("{e}"));
                fields += 1;
            }
            Some(kind @ (AssetKind::Tune | AssetKind::Replay)) => {
                panic!(
                    "{}: no {kind:?} file belongs among the format fixtures",
                    file.display()
                )
            }
            None => panic!("{} is not a Steergraph asset", file.display()),
        }
    }
    assert!(
        graphs >= 4 && scenes >= 4 && fields >= 2,
        "{graphs} graphs, {scenes} scenes, {fields} fields"
    );
}
