//! Reading and writing `.graph.ron` files: the envelope, `file:line:col` errors, one style.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{EditorSection, Graph, Node, NodeId, TurningSpec, VehicleSpec};
use crate::format::{self, AssetKind, FORMAT_VERSION, LoadError, SaveError, VERSION_1};

/// The on-disk shape of a graph, field order as written; a replay file holds the graphs its
/// run swapped in in the same shape (`replay/changes.rs`).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Graph")]
pub(crate) struct GraphFile {
    format: String,
    version: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String,
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::unique::names"
    )]
    parameters: BTreeMap<String, f32>,
    #[serde(default)]
    vehicle: VehicleSpec,
    #[serde(default, skip_serializing_if = "TurningSpec::is_default")]
    turning: TurningSpec,
    #[serde(deserialize_with = "crate::unique::nodes")]
    nodes: BTreeMap<NodeId, Node>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    muted: BTreeSet<NodeId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    editor: Option<EditorSection>,
}

impl Graph {
    /// Parses a graph from RON text. `origin` names the text in error messages (a file path).
    ///
    /// # Examples
    ///
    /// ```
    /// let text = r#"(
    ///     format: "steergraph.graph",
    ///     version: 1,
    ///     nodes: {
    ///         1: Seek(target: Named("cursor")),
    ///         2: Output(input: 1),
    ///     },
    /// )"#;
    /// let graph = graph_runtime::Graph::from_ron(text, "seek.graph.ron")?;
    /// assert_eq!(graph.nodes.len(), 2);
    /// # Ok::<(), graph_runtime::LoadError>(())
    /// ```
    pub fn from_ron(text: &str, origin: &str) -> Result<Self, LoadError> {
        let file: GraphFile = format::parse(text, origin, AssetKind::Graph)?;
        Ok(file.into_graph())
    }

    /// Reads and parses a `.graph.ron` file.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let (text, origin) = format::read_text(path)?;
        Self::from_ron(&text, &origin)
    }

    /// The oldest format version that holds this graph: 1 unless it uses the angular layer,
    /// jumps or a group node's `max_neighbors` other than the default ([`FORMAT_VERSION`]).
    pub fn format_version(&self) -> u32 {
        let uses_version_2 = !self.turning.is_default()
            || self.nodes.values().any(|node| {
                let most = match node {
                    Node::Separation { max_neighbors, .. }
                    | Node::Cohesion { max_neighbors, .. }
                    | Node::Alignment { max_neighbors, .. }
                    | Node::Flocking { max_neighbors, .. } => Some(max_neighbors),
                    _ => None,
                };
                most.is_some_and(|most| !super::ports::is_default_group_neighbors(most))
                    || matches!(
                        node,
                        Node::ReachOrientation { .. }
                            | Node::Face { .. }
                            | Node::LookWhereYouAreGoing { .. }
                            | Node::MatchVelocity { .. }
                            | Node::Jump { .. }
                            | Node::JumpAchievable { .. }
                            | Node::Wander { face: true, .. }
                    )
            });
        if uses_version_2 {
            FORMAT_VERSION
        } else {
            VERSION_1
        }
    }

    /// The graph as RON text, in the oldest format version that holds it
    /// ([`Graph::format_version`]).
    pub fn to_ron(&self) -> Result<String, SaveError> {
        format::to_text(&GraphFile::of(self))
    }

    /// Saves the graph atomically (temporary file, then rename).
    pub fn save(&self, path: &Path) -> Result<(), SaveError> {
        crate::save::write_atomically(path, self.to_ron()?)
    }
}

impl GraphFile {
    /// `graph` as written, in the oldest format version that holds it.
    pub(crate) fn of(graph: &Graph) -> Self {
        Self {
            format: AssetKind::Graph.tag().to_owned(),
            version: graph.format_version(),
            description: graph.description.clone(),
            parameters: graph.parameters.clone(),
            vehicle: graph.vehicle.clone(),
            turning: graph.turning.clone(),
            nodes: graph.nodes.clone(),
            muted: graph.muted.clone(),
            editor: graph.editor.clone(),
        }
    }

    /// The graph read (its `format` and `version` checked by whoever parsed it:
    /// [`GraphFile::check`] where it is not a file of its own).
    pub(crate) fn into_graph(self) -> Graph {
        Graph {
            description: self.description,
            parameters: self.parameters,
            vehicle: self.vehicle,
            turning: self.turning,
            nodes: self.nodes,
            muted: self.muted,
            editor: self.editor,
        }
    }

    /// Whether a graph held inside another file (`origin` naming its place) is one this
    /// build reads: a graph's `format` and a version it reads, as a graph file's header is
    /// checked.
    pub(crate) fn check(&self, origin: &str) -> Result<(), LoadError> {
        format::check_envelope(
            origin,
            AssetKind::Graph,
            Some(&self.format),
            Some(self.version),
        )
    }
}
