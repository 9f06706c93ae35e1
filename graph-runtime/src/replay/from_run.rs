//! A run recorded as it went ([`Recording`]: the editor's preview) written down as a replay
//! file's edits: each world, targets and programs version the run's steps saw, against the
//! scene as it loads from disk, becomes a change at the tick it was first seen. What a replay
//! cannot put back is refused in words: a painted flow field, a tick length that changed, a
//! recording whose start was dropped.

use std::sync::Arc;

use glam::Vec2;

use super::changes::{Change, Edits, GroupSwap, SceneEdit};
use crate::rewind::Recording;
use crate::{AgentGroup, Graph, Program, Simulation, World};

impl Edits {
    /// The edits of the run `recording` holds from tick 0 to `upto`, stepped with `dt`,
    /// against `fresh` (its scene as loaded now, at tick 0) whose groups are `groups` (the
    /// scene's, for the limits and turning a swapped graph gives their agents, as the editor
    /// gives them). Why not, in a designer's words, when a replay file cannot hold them.
    pub fn of_recording(
        recording: &Recording,
        fresh: &Simulation,
        groups: &[AgentGroup],
        (upto, dt): (u64, f32),
    ) -> Result<Self, String> {
        if recording.first() != 0 {
            return Err(format!(
                "The recording no longer holds the run's start (it begins at tick {}: its oldest part was dropped to keep within its memory budget), and a replay file steps the scene from tick 0.",
                recording.first()
            ));
        }
        if upto > recording.last() {
            return Err(format!(
                "The recording ends at tick {}, before tick {upto}.",
                recording.last()
            ));
        }
        let steps = &recording.dts()[..upto as usize];
        if let Some(step) = steps.iter().position(|d| d.to_bits() != dt.to_bits()) {
            return Err(format!(
                "The tick length changed while the run ran (the step from tick {step} took {:.3} ms, the run {:.3} ms), and a replay file holds one.",
                steps[step] * 1000.0,
                dt * 1000.0
            ));
        }
        let mut edits = Self::default();
        let mut by_tick: Vec<Change> = Vec::new();
        // Graphs: a group whose program (its source) or values differ from the one before.
        let mut before: Vec<(Arc<Program>, Vec<f32>)> = (fresh.groups().iter())
            .map(|g| (Arc::clone(&g.program), g.params.values().to_vec()))
            .collect();
        let versions = recording.program_versions();
        for (tick, programs) in versions.iter().take_while(|(tick, _)| *tick < upto) {
            for (group, (program, params)) in programs.iter().enumerate() {
                let values = params.values();
                let same = before.get(group).is_some_and(|(p, v)| {
                    let same_graph = (p.source()).is_some_and(|s| Some(s) == program.source());
                    (Arc::ptr_eq(p, program) || same_graph) && v == values
                });
                if same {
                    continue;
                }
                let Some(spawned) = groups.get(group) else {
                    return Err(format!(
                        "The run has a group {group} its scene on disk does not have."
                    ));
                };
                let graph = edits.graph_index(program).ok_or_else(|| {
                    format!(
                        "The graph of group {group} was swapped in at tick {tick} without the graph it was compiled from (a game's program, not the editor's), and a replay file holds graphs."
                    )
                })?;
                let swap = GroupSwap {
                    group,
                    graph,
                    parameters: values.to_vec(),
                    vehicle: spawned.vehicle.unwrap_or_else(|| program.vehicle(params)),
                    turning: spawned.turning.unwrap_or_else(|| program.turning(params)),
                };
                change_at(&mut by_tick, *tick).graphs.push(swap);
                if let Some(slot) = before.get_mut(group) {
                    *slot = (Arc::clone(program), values.to_vec());
                }
            }
        }
        // The scene: a world whose edit differs from the one before; its flow fields never.
        let mut before = SceneEdit::of_world(fresh.world());
        let versions = recording.worlds();
        for (tick, world) in versions.iter().take_while(|(tick, _)| *tick < upto) {
            if !same_fields(world, fresh.world()) {
                return Err(format!(
                    "A flow field was painted while the run ran (first seen at tick {tick}), and a replay file holds no painted field. Save the field, reset the preview, let it run, then save the run."
                ));
            }
            let edit = SceneEdit::of_world(world);
            if edit != before {
                change_at(&mut by_tick, *tick).scene = Some(edit.clone());
                before = edit;
            }
        }
        // Targets: every position, when one moved (or the scene was edited).
        let mut before = targets_of(fresh.world());
        let versions = recording.target_versions();
        for (tick, targets) in versions.iter().take_while(|(tick, _)| *tick < upto) {
            let at: Vec<(String, Vec2)> = targets.to_vec();
            let bits = |t: &[(String, Vec2)]| -> Vec<(String, [u32; 2])> {
                (t.iter())
                    .map(|(n, a)| (n.clone(), a.to_array().map(f32::to_bits)))
                    .collect()
            };
            if bits(&at) != bits(&before) {
                change_at(&mut by_tick, *tick).targets = Some(at.clone());
                before = at;
            }
        }
        edits.changes = by_tick;
        Ok(edits)
    }

    /// The place of `program`'s graph among the edits' graphs, added if new; `None` for a
    /// program that kept no graph ([`Program::source`]).
    fn graph_index(&mut self, program: &Arc<Program>) -> Option<usize> {
        let source = program.source()?;
        if let Some(i) = self.graphs.iter().position(|g| g == source) {
            return Some(i);
        }
        self.graphs.push(Graph::clone(source));
        self.programs.push(Arc::clone(program));
        Some(self.graphs.len() - 1)
    }
}

/// The change at `tick` among `changes` (by tick), added empty if there is none yet.
fn change_at(changes: &mut Vec<Change>, tick: u64) -> &mut Change {
    let i = match changes.binary_search_by_key(&tick, |c| c.tick) {
        Ok(i) => i,
        Err(i) => {
            let change = Change {
                tick,
                graphs: Vec::new(),
                scene: None,
                targets: None,
            };
            changes.insert(i, change);
            i
        }
    };
    &mut changes[i]
}

/// Whether `a` and `b` hold the same flow fields.
fn same_fields(a: &World, b: &World) -> bool {
    a.flow_fields().eq(b.flow_fields())
}

/// `world`'s targets, in its order.
fn targets_of(world: &World) -> Vec<(String, Vec2)> {
    (world.targets())
        .map(|(name, at)| (name.to_owned(), at))
        .collect()
}
