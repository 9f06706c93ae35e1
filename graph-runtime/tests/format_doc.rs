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
    assert_eq!(blocks.len(), 3, "a graph, a scene and a flow field example");
    let graph = Graph::from_ron(&blocks[0], "FORMAT.md graph").expect("graph example parses");
    let program = compile(&graph).expect("graph example compiles");
    assert_eq!(program.len(), 6);
    let scene = Scene::from_ron(&blocks[1], "FORMAT.md scene").expect("scene example parses");
    assert_eq!(scene.groups.len(), 1);
    assert_eq!(scene.flow_fields.len(), 2);
    let field = FlowField::from_ron(&blocks[2], "FORMAT.md flow").expect("flow example parses");
    assert_eq!((field.width, field.height), (2, 1));
}
