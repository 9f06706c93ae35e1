//! "Export for game": the graph without its editor section, and each flow field it follows as
//! its own `.flow.ron` beside it, ready for a game to load with graph-runtime.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use graph_runtime::{FlowField, Graph, Node};

/// The file name a field called `name` is exported as (`"to goal"` → `to_goal.flow.ron`).
pub fn field_file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.flow.ron")
}

/// Writes `graph` (without its editor section) to `path` and every field it follows, from
/// `fields`, beside it. Returns the files written, or what went wrong (nothing is half-written:
/// each file is saved atomically).
pub fn export_for_game(
    graph: &Graph,
    fields: &BTreeMap<String, FlowField>,
    path: &Path,
) -> Result<Vec<PathBuf>, String> {
    let used: Vec<&String> = graph
        .nodes
        .values()
        .filter_map(|node| match node {
            Node::FlowFieldFollowing { field, .. } => Some(field),
            _ => None,
        })
        .collect();
    let missing: Vec<&str> = used
        .iter()
        .filter(|name| !fields.contains_key(name.as_str()))
        .map(|n| n.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the graph follows flow fields the open scene does not have: {}",
            missing.join(", ")
        ));
    }
    let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut written = Vec::new();
    graph
        .without_editor()
        .save(path)
        .map_err(|e| e.to_string())?;
    written.push(path.to_path_buf());
    for name in used {
        if let Some(field) = fields.get(name) {
            let file = directory.join(field_file_name(name));
            if !written.contains(&file) {
                field.save(&file).map_err(|e| e.to_string())?;
                written.push(file);
            }
        }
    }
    Ok(written)
}
