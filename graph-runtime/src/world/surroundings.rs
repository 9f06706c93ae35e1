//! The world agents steer in: bounds, obstacles, walls, gaps, named paths, flow fields,
//! targets and jump links.

use std::sync::Arc;

use glam::Vec2;

use super::named::Named;
use super::{FlowField, Gap, GapIndex, JumpLink, Obstacle, Path, Rect, Wall, WallIndex};
use crate::navigation::{NavError, NavMesh};

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
    gaps: Vec<Gap>,
    gap_index: GapIndex,
    paths: Named<Path>,
    flow_fields: Named<FlowField>,
    targets: Named<Vec2>,
    jump_links: Named<JumpLink>,
    /// Whether steps pass through walls (the game's own physics keeps agents out); by
    /// default they are stopped and slide ([`World::step_vehicle`]).
    passable_walls: bool,
    /// Navigation meshes, one per agent radius routed on, by ascending radius.
    navigation: Vec<Arc<NavMesh>>,
    /// Counts the times the meshes were built: a route planned on an older count is planned
    /// again ([`crate::tick::RoutePlanner`]).
    navigation_revision: u64,
}

impl World {
    /// An empty world with the given bounds.
    pub fn new(bounds: Rect) -> Self {
        Self {
            bounds,
            ..Self::default()
        }
    }

    /// The world a scene describes: its bounds, obstacles, walls, gaps, paths, targets and
    /// jump links, with `flow_fields` (the scene's fields by name, loaded:
    /// [`crate::SceneAssets::flow_fields`]). The world a [`crate::Simulation`] of the scene runs
    /// in, for a game that steers its own agents in a level made in the editor.
    pub fn from_scene(
        scene: &crate::Scene,
        flow_fields: &std::collections::BTreeMap<String, FlowField>,
    ) -> Self {
        let mut world = Self::new(scene.bounds);
        world.obstacles.clone_from(&scene.obstacles);
        world.set_walls(scene.walls.clone());
        for (name, path) in &scene.paths {
            world.set_path(name, path.clone());
        }
        for (name, position) in &scene.targets {
            world.set_target(name, *position);
        }
        for (name, field) in flow_fields {
            world.set_flow_field(name, field.clone());
        }
        world.set_gaps(scene.gaps.clone());
        for (name, link) in &scene.jump_links {
            world.set_jump_link(name, *link);
        }
        world.passable_walls = scene.passable_walls;
        world
    }

    /// Moves `vehicle` by `steering` over `dt` ([`Vehicle::step`](crate::Vehicle::step)) in this world: with solid
    /// walls (the default) a step that would cross a wall is stopped at it and slides along
    /// it (`BEHAVIORS.md`, "Solid walls"). Returns whether the step met a wall: blocked with
    /// solid walls, crossed with passable ones. Games that move their own agents call this
    /// for the editor's motion, walls included.
    pub fn step_vehicle(
        &self,
        vehicle: &mut crate::Vehicle,
        steering: impl Into<crate::Steering>,
        dt: f32,
    ) -> bool {
        let from = vehicle.position;
        vehicle.step(steering, dt);
        if self.wall_index.is_empty() {
            return false;
        }
        if self.passable_walls {
            self.wall_index
                .ray_cast(from, vehicle.position)
                .is_some_and(|hit| hit.distance > 0.0)
        } else {
            super::solid::keep_to_its_side(&self.wall_index, from, vehicle)
        }
    }

    /// Whether steps pass through walls ([`World::set_passable_walls`]).
    pub fn passable_walls(&self) -> bool {
        self.passable_walls
    }

    /// Lets steps pass through walls (`true`), for a game whose own physics keeps agents out
    /// (crossings are then counted), or makes walls solid again (`false`, the default).
    pub fn set_passable_walls(&mut self, passable: bool) {
        self.passable_walls = passable;
    }

    /// Replaces the walls and rebuilds their index ([`WallIndex::new`]); the only way walls
    /// change, so the index is built once per change, never per tick.
    pub fn set_walls(&mut self, walls: Vec<Wall>) {
        self.wall_index = WallIndex::new(&walls);
        self.walls = walls;
        self.navigation_changed();
    }

    /// The walls, in the order given to [`World::set_walls`].
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// The index over the walls' segments, for ray casts and nearest-point queries.
    pub fn wall_index(&self) -> &WallIndex {
        &self.wall_index
    }

    /// Replaces the gaps, the regions walking agents fall into.
    pub fn set_gaps(&mut self, gaps: Vec<Gap>) {
        self.gap_index = GapIndex::new(&gaps);
        self.gaps = gaps;
        self.navigation_changed();
    }

    /// The gaps, in the order given to [`World::set_gaps`].
    pub fn gaps(&self) -> &[Gap] {
        &self.gaps
    }

    /// Whether `point` is inside a gap.
    pub fn in_gap(&self, point: Vec2) -> bool {
        !self.gap_index.is_empty() && self.gap_index.contains(point)
    }

    /// Adds or replaces the jump link called `name`; returns its index.
    pub fn set_jump_link(&mut self, name: &str, link: JumpLink) -> usize {
        let same = self
            .jump_links
            .position(name)
            .and_then(|i| self.jump_links.at(i))
            == Some(&link);
        let index = self.jump_links.upsert(name, link);
        if !same {
            self.navigation_changed();
        }
        index
    }

    /// The jump link called `name`.
    pub fn jump_link(&self, name: &str) -> Option<&JumpLink> {
        self.jump_links
            .position(name)
            .and_then(|i| self.jump_link_at(i))
    }

    /// Jump links with their names, in insertion order.
    pub fn jump_links(&self) -> impl Iterator<Item = (&str, &JumpLink)> {
        self.jump_links.iter()
    }

    pub(crate) fn jump_link_index(&self, name: &str) -> Option<usize> {
        self.jump_links.position(name)
    }

    pub(crate) fn jump_link_at(&self, index: usize) -> Option<&JumpLink> {
        self.jump_links.at(index)
    }

    /// The name of the jump link at `index` (in insertion order).
    pub fn jump_link_name(&self, index: usize) -> Option<&str> {
        self.jump_links.name_at(index)
    }

    /// Whether the world has gaps or jump links: only then do agents jump or fall.
    pub fn has_jumps(&self) -> bool {
        !self.gaps.is_empty() || self.jump_links.iter().next().is_some()
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

/// Navigation: the meshes Navigate nodes' routes are planned on, one per agent radius.
impl World {
    /// The mesh for agents of `radius`: the one built for that radius, else the one of the
    /// smallest radius above it (its routes keep more clearance); none when every mesh is for
    /// smaller agents (a route on one would lead the agent into walls).
    pub fn navigation(&self, radius: f32) -> Option<&NavMesh> {
        self.navigation_numbered(radius).map(|(_, mesh)| mesh)
    }

    /// [`World::navigation`] with where the mesh is among [`World::navigation_meshes`] (what
    /// the route planner keeps each mesh's crowd count by).
    pub(crate) fn navigation_numbered(&self, radius: f32) -> Option<(usize, &NavMesh)> {
        (self.navigation_meshes().enumerate()).find(|(_, mesh)| mesh.radius() >= radius)
    }

    /// The meshes, by ascending radius.
    pub fn navigation_meshes(&self) -> impl Iterator<Item = &NavMesh> {
        self.navigation.iter().map(|mesh| &**mesh)
    }

    /// Builds the mesh for agents of `radius` from the world as it is (replacing one of the
    /// same radius). A game with its own navigation hands its routes in with
    /// `Crowd::set_route` instead and follows them with Path following.
    pub fn build_navigation(&mut self, radius: f32) -> Result<(), NavError> {
        let mesh = Arc::new(NavMesh::build(self, radius)?);
        self.navigation.retain(|m| m.radius() != radius);
        let at = self.navigation.partition_point(|m| m.radius() < radius);
        self.navigation.insert(at, mesh);
        self.navigation_revision += 1;
        Ok(())
    }

    /// How many times meshes were built or rebuilt: routes planned before the last time are
    /// planned again, a bounded number a tick.
    pub fn navigation_revision(&self) -> u64 {
        self.navigation_revision
    }

    /// Walls, gaps or links changed: the meshes built follow (a mesh that can no longer be
    /// built is dropped, and its agents report it through their route status).
    fn navigation_changed(&mut self) {
        if !self.navigation.is_empty() {
            // The error is each agent's `RouteStatus::NoNavigation`.
            let _ = self.rebuild_navigation();
        }
    }

    /// Builds every mesh again, for the radii the world has meshes for: after a change to
    /// walls, gaps, obstacles or jump links. A radius whose mesh can no longer be built
    /// loses it (its agents report `RouteStatus::NoNavigation`); the first error is returned.
    pub fn rebuild_navigation(&mut self) -> Result<(), NavError> {
        let radii: Vec<f32> = self.navigation.iter().map(|m| m.radius()).collect();
        self.navigation.clear();
        self.navigation_revision += 1;
        let mut first = Ok(());
        for radius in radii {
            if let Err(error) = self.build_navigation(radius)
                && first.is_ok()
            {
                first = Err(error);
            }
        }
        first
    }
}
