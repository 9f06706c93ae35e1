//! "Export for game": the graph without its editor section, the subgraph files it uses (at
//! the same paths from it as beside the open graph), and each flow field it or they follow as
//! its own `.flow.ron` beside it, ready for a game to load with graph-runtime.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use graph_runtime::{FlowField, Graph, Node, Subgraphs};

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

/// Writes `graph` (without its editor section) to `path`, the files of `subgraphs` (read from
/// beside the open graph) at the same paths from it, and every field any of them follows,
/// from `fields`, beside it. Returns the files written, or what went wrong (nothing is
/// half-written: each file is saved atomically).
pub fn export_for_game(
    graph: &Graph,
    subgraphs: &Subgraphs,
    fields: &BTreeMap<String, FlowField>,
    path: &Path,
) -> Result<Vec<PathBuf>, String> {
    if !subgraphs.missing.is_empty() {
        let missing: Vec<&str> = subgraphs.missing.iter().map(String::as_str).collect();
        return Err(format!(
            "the graph uses subgraph files that are not there: {}",
            missing.join(", ")
        ));
    }
    let used: Vec<&String> = std::iter::once(graph)
        .chain(subgraphs.library.values())
        .flat_map(|g| g.nodes.values())
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
    // Exported beside the open graph, the subgraph files are there already, with their
    // layout: rewriting them without it would lose the designer's work.
    let same_folder = |a: &Path, b: &Path| {
        let real = |p: &Path| {
            std::fs::canonicalize(if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            })
        };
        matches!((real(a), real(b)), (Ok(a), Ok(b)) if a == b)
    };
    let beside = same_folder(&directory, &subgraphs.folder);
    for (key, subgraph) in subgraphs.library.iter().filter(|_| !beside) {
        let file = directory.join(key);
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        }
        subgraph
            .without_editor()
            .save(&file)
            .map_err(|e| e.to_string())?;
        written.push(file);
    }
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
