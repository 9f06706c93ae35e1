//! Following the documents while the scene runs: a changed program is hot-swapped with the
//! agents where they are, edits that need no reset go into the running world, anything else
//! rebuilds.

use std::sync::Arc;

use graph_runtime::{FlowFieldSource, Scene};

use super::Host;
use crate::editor::preview::OpenGraph;
use crate::editor::preview::scene_doc::SceneDocument;

impl Host {
    /// Follows the open graph and the scene: a changed program is swapped in with agents kept
    /// where they are; edits that need no reset (obstacles, walls, targets, paths, bounds,
    /// fields) go into the running world; anything else rebuilds. A scene that did not build
    /// is rebuilt as soon as the graph changes, so fixing the graph starts it.
    pub fn follow(&mut self, document: &SceneDocument, open: &OpenGraph<'_>) {
        self.collect();
        let graph_changed = self.applied_revision != Some(open.revision);
        if self.needs_reset(document, open)
            || (self.simulation.is_none() && self.worker.is_none() && graph_changed)
        {
            if self.built.is_some() {
                self.leave_replay("the scene or the graph was edited");
            }
            self.reset(document, open);
            return;
        }
        if self.worker.is_some() {
            // Edits and a new program go in once the tick in progress is back.
            return;
        }
        if graph_changed {
            self.leave_replay("the graph was edited");
            self.hot_swap(document, open);
        }
        self.apply_edits(document);
    }

    fn needs_reset(&self, document: &SceneDocument, open: &OpenGraph<'_>) -> bool {
        let Some((built, name)) = &self.built else {
            return true;
        };
        let scene = &document.scene;
        // A new target goes into the running world (its index follows the others', so
        // programs stay bound); a target renamed or deleted rebuilds, as does any change
        // while the scene does not run (the name may be what it lacked).
        let targets_changed = if self.simulation.is_some() || self.worker.is_some() {
            built.targets.keys().any(|k| !scene.targets.contains_key(k))
        } else {
            built.targets.keys().ne(scene.targets.keys())
        };
        built.groups != scene.groups
            || built.seed != scene.seed
            || field_sources(built) != field_sources(scene)
            || name != open.name
            || built.paths.keys().ne(scene.paths.keys())
            // Programs bind jump links by name, and only a world with gaps or links keeps
            // jump bookkeeping: adding the first or removing the last rebuilds.
            || built.jump_links.keys().ne(scene.jump_links.keys())
            || built.gaps.is_empty() != scene.gaps.is_empty()
            || targets_changed
    }

    fn hot_swap(&mut self, document: &SceneDocument, open: &OpenGraph<'_>) {
        self.applied_revision = Some(open.revision);
        // Without a program (the graph has problems) the last good one keeps running.
        let (Some(program), Some(simulation)) = (open.program.clone(), self.simulation.as_mut())
        else {
            return;
        };
        for (index, group) in document.scene.groups.iter().enumerate() {
            if group.graph != open.name {
                continue;
            }
            let params = match program.parameters(&group.parameters) {
                Ok(params) => params,
                Err(errors) => {
                    for error in errors {
                        self.problems
                            .push(format!("group \"{}\": {error}", group.name));
                    }
                    continue;
                }
            };
            let vehicle = group.vehicle.unwrap_or_else(|| program.vehicle(&params));
            let turning = graph_runtime::Turning::from(
                group.turning.unwrap_or_else(|| program.turning(&params)),
            );
            // The scene's warning that nothing turns the facing follows the graph as edited.
            let warning = graph_runtime::SceneWarning::FacingNeverTurns {
                origin: document.origin(),
                group: group.name.clone(),
                graph: group.graph.clone(),
            }
            .to_string();
            self.warnings.retain(|w| *w != warning);
            if program.leaves_facing_unturned(&turning) {
                self.warnings.push(warning);
            }
            match simulation.set_program(index, Arc::clone(&program), params) {
                Ok(errors) => self.problems.extend(
                    (errors.iter()).map(|error| format!("group \"{}\": {error}", group.name)),
                ),
                // The preview keeps running the graph as it was before this edit.
                Err(error) => {
                    self.problems.push(format!(
                        "group \"{}\": this edit is not run: {error}",
                        group.name
                    ));
                    continue;
                }
            }
            let agents = simulation.groups().get(index).map(|g| g.agents.clone());
            for agent in agents
                .and_then(|a| simulation.vehicles_mut().get_mut(a))
                .into_iter()
                .flatten()
            {
                agent.mass = vehicle.mass;
                agent.max_force = vehicle.max_force;
                agent.max_speed = vehicle.max_speed;
                agent.radius = vehicle.radius;
                if turning != agent.turning {
                    // Switching independent facing on starts the facing along the heading.
                    let facing = agent.facing();
                    agent.turning = turning;
                    agent.orientation = facing;
                    if !turning.independent_facing {
                        agent.angular_velocity = 0.0;
                    }
                }
            }
        }
    }

    fn apply_edits(&mut self, document: &SceneDocument) {
        let Some(simulation) = self.simulation.as_mut() else {
            return;
        };
        // Only an edit takes the world to change it: the recording keeps a copy each time.
        let fields_changed = self.applied_fields_revision != document.fields_revision();
        if !fields_changed && !scene_differs(simulation.world(), &document.scene) {
            return;
        }
        self.leave_replay("the scene was edited");
        let Some(simulation) = self.simulation.as_mut() else {
            return;
        };
        let world = simulation.world_mut();
        if self.applied_fields_revision != document.fields_revision() {
            for (name, field) in &document.fields {
                if let Some(live) = world.flow_field_mut(name) {
                    live.clone_from(field);
                }
            }
            self.applied_fields_revision = document.fields_revision();
        }
        let scene = &document.scene;
        // Walls, gaps and links rebuild the navigation meshes as they are set; bounds and
        // obstacles, plain fields, are rebuilt for here.
        let moved = world.bounds != scene.bounds || world.obstacles != scene.obstacles;
        world.bounds = scene.bounds;
        world.obstacles.clone_from(&scene.obstacles);
        if moved {
            // A level that can no longer have a mesh drops it: its agents' routes say so in
            // the inspector ("no navigation mesh for this radius").
            let _ = world.rebuild_navigation();
        }
        if world.walls() != scene.walls.as_slice() {
            // Rebuilds the wall index (and the navigation meshes), so only when the walls
            // changed.
            world.set_walls(scene.walls.clone());
        }
        world.set_passable_walls(scene.passable_walls);
        for (name, path) in &scene.paths {
            world.set_path(name, path.clone());
        }
        if world.gaps() != scene.gaps.as_slice() {
            world.set_gaps(scene.gaps.clone());
        }
        for (name, link) in &scene.jump_links {
            world.set_jump_link(name, *link);
        }
        for (name, position) in &scene.targets {
            if name != "cursor" {
                world.set_target(name, *position);
            }
        }
        if let Some((built, _)) = self.built.as_mut() {
            built.clone_from(scene);
        }
    }
}

/// Whether the running `world` differs from `scene` in what edits put into it (bounds,
/// obstacles, walls, passable walls, paths, gaps, jump links, targets but the cursor).
fn scene_differs(world: &graph_runtime::World, scene: &Scene) -> bool {
    world.bounds != scene.bounds
        || world.obstacles != scene.obstacles
        || world.walls() != scene.walls.as_slice()
        || world.passable_walls() != scene.passable_walls
        || world.gaps() != scene.gaps.as_slice()
        || (scene.paths.iter()).any(|(name, path)| world.path(name) != Some(path))
        || (scene.jump_links.iter()).any(|(name, link)| world.jump_link(name) != Some(link))
        || (scene.targets.iter())
            .any(|(name, at)| name != "cursor" && world.target(name) != Some(*at))
}

/// The names of a scene's flow fields and where each comes from (their data aside).
fn field_sources(scene: &Scene) -> Vec<(&String, Option<&String>)> {
    scene
        .flow_fields
        .iter()
        .map(|(name, source)| match source {
            FlowFieldSource::File(file) => (name, Some(file)),
            FlowFieldSource::Inline(_) => (name, None),
        })
        .collect()
}
