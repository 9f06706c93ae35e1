//! Copy and paste of nodes as graph RON text, so nodes move between files and into a text
//! editor. Links among the copied nodes are kept; links to nodes left behind are cut. The
//! graph parameters the nodes use travel with them and are added where missing.

use std::collections::BTreeMap;

use egui::Pos2;
use graph_runtime::{EditorSection, Graph, Link, NodeId, Number};

use super::document::Document;
use super::mirror::{add_node, next_id};

/// The nodes `nodes` as a standalone graph file's text, or `None` when there is nothing to
/// copy.
pub fn copy(document: &Document, nodes: &[NodeId]) -> Option<String> {
    let mut fragment = Graph::default();
    let mut positions = BTreeMap::new();
    for &id in nodes {
        let info = document.snarl.get_node_info(document.snarl_id(id)?)?;
        fragment
            .nodes
            .insert(info.value.id, info.value.node.clone());
        positions.insert(info.value.id, glam::Vec2::new(info.pos.x, info.pos.y));
    }
    if fragment.nodes.is_empty() {
        return None;
    }
    let copied: Vec<NodeId> = fragment.nodes.keys().copied().collect();
    for node in fragment.nodes.values_mut() {
        for port in node.inputs() {
            if port
                .link
                .source()
                .is_some_and(|source| !copied.contains(&source))
                && let Some(link) = node.input_mut(port.slot)
            {
                *link = Link::NONE;
            }
        }
        for field in node.numbers() {
            if let Number::Parameter(name) = field.number
                && let Some(value) = document.parameters.get(name)
            {
                fragment.parameters.insert(name.clone(), *value);
            }
        }
    }
    fragment.vehicle = document.vehicle.clone();
    fragment.turning = document.turning.clone();
    fragment.editor = Some(EditorSection {
        positions,
        comments: Vec::new(),
        collapsed: std::collections::BTreeSet::new(),
    });
    fragment.to_ron().ok()
}

/// Pastes graph RON text with its top-left node at `at`: every node gets a fresh id, links
/// among the pasted nodes follow them. Returns the new nodes, or why the text is not a graph.
pub fn paste(document: &mut Document, text: &str, at: Pos2) -> Result<Vec<NodeId>, String> {
    let fragment = Graph::from_ron(text, "clipboard").map_err(|e| e.to_string())?;
    let positions = fragment
        .editor
        .as_ref()
        .map(|e| e.positions.clone())
        .unwrap_or_default();
    let origin = positions
        .values()
        .copied()
        .reduce(glam::Vec2::min)
        .unwrap_or(glam::Vec2::ZERO);
    let first = next_id(&document.snarl).0;
    let renumber: BTreeMap<NodeId, NodeId> = fragment
        .nodes
        .keys()
        .enumerate()
        .map(|(offset, id)| (*id, NodeId(first.saturating_add(offset as u32))))
        .collect();
    let mut added = Vec::new();
    for (index, (id, node)) in fragment.nodes.iter().enumerate() {
        let mut node = node.clone();
        for port in node.inputs() {
            if let Some(link) = node.input_mut(port.slot) {
                *link = Link(port.link.source().and_then(|s| renumber.get(&s).copied()));
            }
        }
        let offset = positions
            .get(id)
            .map_or(glam::Vec2::new(0.0, index as f32 * 40.0), |p| *p - origin);
        added.push(add_node(
            &mut document.snarl,
            node,
            at + egui::vec2(offset.x, offset.y),
        ));
    }
    super::mirror::rebuild_all_wires(&mut document.snarl);
    for (name, value) in fragment.parameters {
        document.parameters.entry(name).or_insert(value);
    }
    Ok(added)
}
