//! What the preview's GPU run (`preview/gpu_run`) asks of the host: whether the running
//! simulation is built from the documents as they are, and the agents carried back to where
//! the GPU took them.

use glam::Vec2;

use super::Host;
use crate::editor::preview::OpenGraph;
use crate::editor::preview::scene_doc::SceneDocument;

/// An agent's motion as another stepper left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// Position.
    pub position: Vec2,
    /// Velocity.
    pub velocity: Vec2,
    /// Unit heading.
    pub forward: Vec2,
}

impl Host {
    /// Whether [`Host::follow`] would leave the simulation as it is: no graph edit, painted
    /// field or scene edit that it puts into the world or rebuilds for waits to go in, and no
    /// tick is running on the worker. (Edits it ignores, such as the description or the
    /// cursor target's place in the scene, keep it current.)
    pub fn is_current(&self, document: &SceneDocument, open: &OpenGraph<'_>) -> bool {
        let Some(simulation) = self.simulation.as_ref() else {
            return false;
        };
        self.worker.is_none()
            && self.applied_revision == Some(open.revision)
            && self.applied_fields_revision == document.fields_revision()
            && !self.needs_reset(document, open)
            && !simulation.differs_from(&document.scene)
    }

    /// The targets that moved in `document` since the simulation took it, by name and new
    /// place, when that is the only difference [`Host::follow`] would act on (no target added
    /// or removed, nothing else edited); `None` otherwise, and when nothing moved. The cursor
    /// follows the pointer, not the scene (as `Simulation::follow_scene` has it). The scene
    /// is copied only on a frame where a target moved.
    pub fn targets_moved(
        &self,
        document: &SceneDocument,
        open: &OpenGraph<'_>,
    ) -> Option<Vec<(String, Vec2)>> {
        let simulation = self.simulation.as_ref()?;
        if self.worker.is_some()
            || self.applied_revision != Some(open.revision)
            || self.applied_fields_revision != document.fields_revision()
            || self.needs_reset(document, open)
        {
            return None;
        }
        let world = simulation.world();
        let moved: Vec<(String, Vec2)> = (document.scene.targets.iter())
            .filter(|(name, at)| *name != "cursor" && world.target(name) != Some(**at))
            .map(|(name, at)| (name.clone(), *at))
            .collect();
        if moved.is_empty() {
            return None;
        }
        let mut unmoved = document.scene.clone();
        for (name, _) in &moved {
            if let Some(at) = world.target(name) {
                unmoved.targets.insert(name.clone(), at);
            }
        }
        (!simulation.differs_from(&unmoved)).then_some(moved)
    }

    /// Puts every agent where `motion` says (in agent order; `false`, with nothing changed,
    /// when the counts differ), as another stepper took them: an edit of the agents at the
    /// simulation's tick, as a drag is, which the recording keeps as a keyframe. The clock
    /// stays at the simulation's own tick (the other stepper's ticks are not the run's).
    pub fn adopt_motion(&mut self, motion: &[Motion]) -> bool {
        let Some(simulation) = self.simulation.as_mut() else {
            return false;
        };
        let vehicles = simulation.vehicles_mut();
        if vehicles.len() != motion.len() {
            return false;
        }
        for (vehicle, m) in vehicles.iter_mut().zip(motion) {
            vehicle.position = m.position;
            vehicle.velocity = m.velocity;
            vehicle.forward = m.forward;
        }
        true
    }
}
