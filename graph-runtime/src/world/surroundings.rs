//! The world agents steer in: bounds, obstacles, walls, named paths, flow fields and targets.

use glam::Vec2;

use super::named::Named;
use super::{FlowField, Obstacle, Path, Rect, Wall, WallIndex};

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
    walls: Vec<Wall>,
    wall_index: WallIndex,
    paths: Named<Path>,
    flow_fields: Named<FlowField>,
    targets: Named<Vec2>,
}

impl World {
    /// An empty world with the given bounds.
    pub fn new(bounds: Rect) -> Self {
        Self {
            bounds,
            ..Self::default()
        }
    }

    /// Replaces the walls and rebuilds their index ([`WallIndex::new`]); the only way walls
    /// change, so the index is built once per change, never per tick.
    pub fn set_walls(&mut self, walls: Vec<Wall>) {
        self.wall_index = WallIndex::new(&walls);
        self.walls = walls;
    }

    /// The walls, in the order given to [`World::set_walls`].
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// The index over the walls' segments, for ray casts and nearest-point queries.
    pub fn wall_index(&self) -> &WallIndex {
        &self.wall_index
    }

    /// Adds or replaces the path called `name`; returns its index.
    pub fn set_path(&mut self, name: &str, path: Path) -> usize {
        self.paths.upsert(name, path)
    }

    /// Adds or replaces the flow field called `name`; returns its index.
    pub fn set_flow_field(&mut self, name: &str, field: FlowField) -> usize {
        self.flow_fields.upsert(name, field)
    }

    /// Adds or moves the named target `name`; returns its index.
    pub fn set_target(&mut self, name: &str, position: Vec2) -> usize {
        self.targets.upsert(name, position)
    }

    /// The path called `name`.
    pub fn path(&self, name: &str) -> Option<&Path> {
        self.paths.position(name).and_then(|i| self.path_at(i))
    }

    /// The flow field called `name`.
    pub fn flow_field(&self, name: &str) -> Option<&FlowField> {
        self.flow_fields
            .position(name)
            .and_then(|i| self.flow_field_at(i))
    }

    /// Mutable access to the flow field called `name` (for painting).
    pub fn flow_field_mut(&mut self, name: &str) -> Option<&mut FlowField> {
        let index = self.flow_fields.position(name)?;
        self.flow_fields.at_mut(index)
    }

    /// The named target's position.
    pub fn target(&self, name: &str) -> Option<Vec2> {
        self.targets.position(name).and_then(|i| self.target_at(i))
    }

    /// Paths with their names, in insertion order.
    pub fn paths(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.paths.iter()
    }

    /// Flow fields with their names, in insertion order.
    pub fn flow_fields(&self) -> impl Iterator<Item = (&str, &FlowField)> {
        self.flow_fields.iter()
    }

    /// Named targets with their positions, in insertion order.
    pub fn targets(&self) -> impl Iterator<Item = (&str, Vec2)> {
        self.targets
            .iter()
            .map(|(name, position)| (name, *position))
    }

    pub(crate) fn path_index(&self, name: &str) -> Option<usize> {
        self.paths.position(name)
    }

    pub(crate) fn flow_field_index(&self, name: &str) -> Option<usize> {
        self.flow_fields.position(name)
    }

    pub(crate) fn target_index(&self, name: &str) -> Option<usize> {
        self.targets.position(name)
    }

    pub(crate) fn path_at(&self, index: usize) -> Option<&Path> {
        self.paths.at(index)
    }

    pub(crate) fn flow_field_at(&self, index: usize) -> Option<&FlowField> {
        self.flow_fields.at(index)
    }

    pub(crate) fn target_at(&self, index: usize) -> Option<Vec2> {
        self.targets.at(index).copied()
    }
}
