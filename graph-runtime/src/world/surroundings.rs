use glam::Vec2;

use super::{FlowField, Obstacle, Path, Rect};

/// The static surroundings of a simulation, plus named points that may move (the editor's
/// `"cursor"`).
///
/// Paths, flow fields and targets are looked up by name once, when a program is bound to the
/// world ([`crate::Bindings`]); renaming or removing one needs a new binding, moving a target
/// does not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct World {
    /// The playing area; `Containment` with `bounds: World` keeps agents inside it.
    pub bounds: Rect,
    /// Circle obstacles.
    pub obstacles: Vec<Obstacle>,
    paths: Vec<(String, Path)>,
    flow_fields: Vec<(String, FlowField)>,
    targets: Vec<(String, Vec2)>,
}

fn position<T>(entries: &[(String, T)], name: &str) -> Option<usize> {
    entries.iter().position(|(entry, _)| entry == name)
}

fn upsert<T>(entries: &mut Vec<(String, T)>, name: &str, value: T) -> usize {
    if let Some(index) = position(entries, name) {
        if let Some(entry) = entries.get_mut(index) {
            entry.1 = value;
        }
        index
    } else {
        entries.push((name.to_owned(), value));
        entries.len() - 1
    }
}

impl World {
    /// An empty world with the given bounds.
    pub fn new(bounds: Rect) -> Self {
        Self {
            bounds,
            ..Self::default()
        }
    }

    /// Adds or replaces the path called `name`; returns its index.
    pub fn set_path(&mut self, name: &str, path: Path) -> usize {
        upsert(&mut self.paths, name, path)
    }

    /// Adds or replaces the flow field called `name`; returns its index.
    pub fn set_flow_field(&mut self, name: &str, field: FlowField) -> usize {
        upsert(&mut self.flow_fields, name, field)
    }

    /// Adds or moves the named target `name`; returns its index.
    pub fn set_target(&mut self, name: &str, position: Vec2) -> usize {
        upsert(&mut self.targets, name, position)
    }

    /// The path called `name`.
    pub fn path(&self, name: &str) -> Option<&Path> {
        position(&self.paths, name).and_then(|i| self.path_at(i))
    }

    /// The flow field called `name`.
    pub fn flow_field(&self, name: &str) -> Option<&FlowField> {
        position(&self.flow_fields, name).and_then(|i| self.flow_field_at(i))
    }

    /// Mutable access to the flow field called `name` (for painting).
    pub fn flow_field_mut(&mut self, name: &str) -> Option<&mut FlowField> {
        let index = position(&self.flow_fields, name)?;
        self.flow_fields.get_mut(index).map(|(_, field)| field)
    }

    /// The named target's position.
    pub fn target(&self, name: &str) -> Option<Vec2> {
        position(&self.targets, name).and_then(|i| self.target_at(i))
    }

    /// Paths with their names, in insertion order.
    pub fn paths(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.paths.iter().map(|(name, path)| (name.as_str(), path))
    }

    /// Flow fields with their names, in insertion order.
    pub fn flow_fields(&self) -> impl Iterator<Item = (&str, &FlowField)> {
        self.flow_fields
            .iter()
            .map(|(name, field)| (name.as_str(), field))
    }

    /// Named targets with their positions, in insertion order.
    pub fn targets(&self) -> impl Iterator<Item = (&str, Vec2)> {
        self.targets
            .iter()
            .map(|(name, position)| (name.as_str(), *position))
    }

    pub(crate) fn path_index(&self, name: &str) -> Option<usize> {
        position(&self.paths, name)
    }

    pub(crate) fn flow_field_index(&self, name: &str) -> Option<usize> {
        position(&self.flow_fields, name)
    }

    pub(crate) fn target_index(&self, name: &str) -> Option<usize> {
        position(&self.targets, name)
    }

    pub(crate) fn path_at(&self, index: usize) -> Option<&Path> {
        self.paths.get(index).map(|(_, path)| path)
    }

    pub(crate) fn flow_field_at(&self, index: usize) -> Option<&FlowField> {
        self.flow_fields.get(index).map(|(_, field)| field)
    }

    pub(crate) fn target_at(&self, index: usize) -> Option<Vec2> {
        self.targets.get(index).map(|(_, position)| *position)
    }
}
