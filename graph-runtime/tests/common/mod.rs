//! Helpers the saving tests share.

use std::path::Path;

use graph_runtime::{Graph, Link, Node, Target};

/// The names of the files in `directory`, sorted.
pub fn files_in(directory: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(directory)
        .expect("list the directory")
        .map(|entry| {
            entry
                .expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A Seek wired into the Output: the smallest graph that compiles.
pub fn small_graph() -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::default(),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    graph
}
