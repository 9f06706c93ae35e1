//! The examples in `FORMAT.md` are real: each RON block parses, and the graph compiles.

use graph_runtime::{FlowField, Graph, NodeKind, Scene, compile};

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
        4,
        "a graph, a scene, a flow field and a tuning problem example"
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
}

/// The first cell and the whole line of every row of FORMAT.md's node tables (those whose
/// header's first cell is `node`).
fn node_rows() -> Vec<(String, String)> {
    let text = include_str!("../FORMAT.md");
    let mut rows = Vec::new();
    let mut in_nodes = false;
    for line in text.lines() {
        if !line.starts_with('|') {
            in_nodes = false;
            continue;
        }
        let first = line.split('|').nth(1).unwrap_or_default().trim().to_owned();
        if first == "node" {
            in_nodes = true;
        } else if in_nodes && !first.starts_with("---") {
            rows.push((first, line.to_owned()));
        }
    }
    rows
}

/// The names of the fields a kind's default node writes: the top-level `name:` entries of its
/// RON (optional fields left at their default are not written, and need not be named).
fn written_fields(kind: NodeKind) -> Vec<String> {
    let text = ron::to_string(&kind.instantiate()).expect("a node serializes");
    let Some(open) = text.find('(') else {
        return Vec::new(); // a kind without fields: `Speed`
    };
    let (mut depth, mut fields, mut current) = (0_i32, Vec::new(), String::new());
    for c in text[open + 1..].chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => current.clear(),
            ':' if depth == 0 && !current.is_empty() => {
                fields.push(std::mem::take(&mut current));
            }
            c if depth == 0 && (c.is_alphanumeric() || c == '_') => current.push(c),
            _ => {}
        }
    }
    fields
}

/// FORMAT.md's node tables are the node table's: every kind has a row, every field its
/// default node writes is named in that row, and every row names only real kinds. A new kind
/// or field that FORMAT.md does not describe fails here.
#[test]
fn the_format_documents_node_tables_match_the_node_table() {
    let rows = node_rows();
    assert!(rows.len() >= 40, "{} rows", rows.len());
    let kinds: Vec<&str> = NodeKind::ALL.iter().map(|kind| kind.name()).collect();
    for (first, _) in &rows {
        for named in first.split('`').skip(1).step_by(2) {
            assert!(
                kinds.contains(&named),
                "FORMAT.md lists `{named}`, no node kind"
            );
        }
    }
    let mut missing = Vec::new();
    for &kind in NodeKind::ALL {
        let name = format!("`{}`", kind.name());
        let Some((_, line)) = rows.iter().find(|(first, _)| first.contains(&name)) else {
            missing.push(format!("{}: no row", kind.name()));
            continue;
        };
        for field in written_fields(kind) {
            if !line.contains(&format!("`{field}")) {
                missing.push(format!("{}: field `{field}` not named", kind.name()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "FORMAT.md lacks:\n{}",
        missing.join("\n")
    );
}
