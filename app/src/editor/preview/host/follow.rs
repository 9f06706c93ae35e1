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

    pub(super) fn needs_reset(&self, document: &SceneDocument, open: &OpenGraph<'_>) -> bool {
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
            let swapped =
                simulation.swap_program(index, (Arc::clone(&program), params), (vehicle, turning));
            match swapped {
                Ok(errors) => self.problems.extend(
                    (errors.iter()).map(|error| format!("group \"{}\": {error}", group.name)),
                ),
                // The preview keeps running the graph as it was before this edit.
                Err(error) => self.problems.push(format!(
                    "group \"{}\": this edit is not run: {error}",
                    group.name
                )),
            }
        }
    }

    fn apply_edits(&mut self, document: &SceneDocument) {
        let Some(simulation) = self.simulation.as_ref() else {
            return;
        };
        // Only an edit takes the world to change it: the recording keeps a copy each time.
        let fields_changed = self.applied_fields_revision != document.fields_revision();
        if !fields_changed
            && (!simulation.differs_from(&document.scene)
                || self.world_follows_replay(&document.scene))
        {
            return;
        }
        self.leave_replay("the scene was edited");
        let Some(simulation) = self.simulation.as_mut() else {
            return;
        };
        if fields_changed {
            let world = simulation.world_mut();
            for (name, field) in &document.fields {
                if let Some(live) = world.flow_field_mut(name) {
                    live.clone_from(field);
                }
            }
            self.applied_fields_revision = document.fields_revision();
        }
        simulation.follow_scene(&document.scene);
        if let Some((built, _)) = self.built.as_mut() {
            built.clone_from(&document.scene);
        }
    }
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
