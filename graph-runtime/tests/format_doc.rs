//! The examples in `FORMAT.md` are real: each RON block parses, and the graph compiles.

use graph_runtime::{FlowField, Graph, Scene, compile};

fn ron_blocks() -> Vec<String> {
    let text = include_str!("../FORMAT.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```ron") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn every_example_in_the_format_document_loads() {
    let blocks: Vec<String> = ron_blocks()
        .into_iter()
        .filter(|b| b.trim_start().starts_with('('))
        .collect();
    assert_eq!(
        blocks.len(),
        5,
        "a graph, a scene, a flow field, a tuning problem and a replay example"
    );
    let graph = Graph::from_ron(&blocks[0], "FORMAT.md graph").expect("graph example parses");
    let program = compile(&graph).expect("graph example compiles");
    assert_eq!(program.len(), 6);
    let scene = Scene::from_ron(&blocks[1], "FORMAT.md scene").expect("scene example parses");
    assert_eq!(scene.groups.len(), 1);
    assert_eq!(scene.flow_fields.len(), 2);
    let field = FlowField::from_ron(&blocks[2], "FORMAT.md flow").expect("flow example parses");
    assert_eq!((field.width, field.height), (2, 1));
    #[cfg(feature = "tune")]
    {
        let problem = graph_runtime::tune::TuneFile::from_ron(&blocks[3], "FORMAT.md tune")
            .expect("tuning problem example parses");
        assert_eq!(problem.parameters.len(), 2);
        assert_eq!(problem.goals.len(), 2);
        assert_eq!((problem.seeds, problem.budget), (1, 200));
    }
    let replay = graph_runtime::replay::ReplayFile::from_ron(&blocks[4], "FORMAT.md replay")
        .expect("replay example parses");
    assert_eq!((replay.agents, replay.ticks(), replay.seed), (60, 2, 3));
    assert_eq!(replay.digest(2), Some(0xdeeb_e0f4_b93b_af0b));
    assert_eq!(replay.scene_digest, 0x3a60_412e_d376_8a26);
}
