//! The stuck corpus (issue 45): `write` saves the generated scenes to `tests/stuck/`; without
//! it, each scene is run, its subject's stuck agents diagnosed and fixes proven, and a line
//! per scene and the confusion table are printed.
//!
//! ```text
//! cargo run --release -p tests --example stuck_corpus [-- write]
//! ```

use tests::diagnosing::judge;
use tests::stuck_corpus::scenes;

fn main() {
    let write = std::env::args().nth(1).is_some_and(|a| a == "write");
    if write {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("stuck");
        std::fs::create_dir_all(&folder).expect("the corpus folder");
        for scene in scenes() {
            scene
                .assets
                .scene
                .save(&folder.join(format!("{}.scene.ron", scene.name)))
                .expect("saved");
            for (file, graph) in &scene.assets.graphs {
                graph.save(&folder.join(file)).expect("saved");
            }
        }
        return;
    }
    let names = graph_runtime::diagnose::Cause::NAMES;
    let mut table = vec![vec![0_usize; names.len() + 1]; names.len()];
    for scene in scenes() {
        let verdict = judge(&scene);
        let best = verdict.fixes.first();
        println!(
            "{:22} expected {:17} named {:17} stuck {:2} causes [{}] best fix: {}",
            verdict.name,
            verdict.expected,
            verdict.named,
            verdict.diagnoses.len(),
            (verdict.diagnoses.iter())
                .map(|d| d.cause.name())
                .collect::<Vec<_>>()
                .join(" "),
            best.map_or("none".to_owned(), |fix| format!(
                "{} freed {}/{} (without {}), overlaps {:.2}→{:.2}, wall contacts {:.2}→{:.2}: {}",
                "",
                fix.effect.freed,
                fix.effect.stuck,
                fix.effect.freed_without,
                fix.effect.overlaps[0],
                fix.effect.overlaps[1],
                fix.effect.wall_contacts[0],
                fix.effect.wall_contacts[1],
                fix.fix.words
            ))
        );
        let row = names
            .iter()
            .position(|n| *n == verdict.expected)
            .unwrap_or(0);
        let column = names
            .iter()
            .position(|n| *n == verdict.named)
            .unwrap_or(names.len());
        table[row][column] += 1;
    }
    println!("\nexpected \\ named: {} none", names.join(" "));
    for (name, row) in names.iter().zip(&table) {
        println!("{name:17} {row:?}");
    }
}
