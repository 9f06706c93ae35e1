//! The shaders written for every preset of the family parse and validate with naga, wgpu's own
//! shader front end, on any machine: no adapter is needed, so a mistake in what `lower.rs`
//! writes shows here even where the parity tests cannot run.

mod common;

use common::simulation;
use steergraph_gpu::{GpuError, shader_source};

/// Every preset whose graphs lower gives a module that validates; those that do not are
/// refused by name, and at least the river, boids and seek presets lower.
#[test]
fn every_presets_shader_validates_or_is_refused_by_name() {
    let mut validated = Vec::new();
    for scene in tests_presets() {
        match shader_source(&simulation(&scene)) {
            Ok(source) => {
                let module = naga::front::wgsl::parse_str(&source)
                    .unwrap_or_else(|e| panic!("{scene}: {}", e.emit_to_string(&source)));
                naga::valid::Validator::new(
                    naga::valid::ValidationFlags::all(),
                    naga::valid::Capabilities::default(),
                )
                .validate(&module)
                .unwrap_or_else(|e| panic!("{scene}: {}", e.emit_to_string(&source)));
                validated.push(scene);
            }
            Err(GpuError::Unsupported(nodes)) => {
                assert!(
                    nodes.iter().all(|n| n.contains(" (node #")),
                    "{scene}: {nodes:?}"
                );
            }
            Err(other) => panic!("{scene}: {other}"),
        }
    }
    eprintln!("validated: {validated:?}");
    for wanted in ["river.scene.ron", "boids.scene.ron", "seek.scene.ron"] {
        assert!(
            validated.iter().any(|s| s == wanted),
            "{wanted}: {validated:?}"
        );
    }
}

/// The preset scenes, by file name.
fn tests_presets() -> Vec<String> {
    let mut scenes: Vec<String> = std::fs::read_dir(common::presets())
        .expect("the presets folder")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.ends_with(".scene.ron").then_some(name)
        })
        .collect();
    scenes.sort();
    scenes
}
