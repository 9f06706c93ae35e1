//! Recording a simulation as it runs and going back to any tick of it (issue 45): keyframes
//! every few ticks ([`Keyframe`]), the `dt` of every step and the world as each step saw it;
//! a past tick is the nearest keyframe at or before it, stepped on to it. Runs are
//! deterministic to the bit, so the tick reached is the tick the run had, and stepping on
//! from it (with an edit or without) is a fork of the run.
//!
//! Memory is bounded: past the budget, every other keyframe is dropped and the keyframes are
//! taken half as often (going back then steps more ticks).

use std::sync::Arc;

use glam::Vec2;

use crate::{Keyframe, ParamValues, Program, RestoreError, Simulation, World};

/// The memory a recording keeps unless told otherwise: 64 MiB.
pub const DEFAULT_BUDGET: usize = 64 << 20;

/// Ticks between keyframes at the start of a recording (a second at 60 ticks a second).
pub const FIRST_EVERY: u64 = 60;

/// A run as it went, to go back to any of its ticks.
#[derive(Clone, Debug)]
pub struct Recording {
    /// By tick, ascending; the first is the recording's start.
    keyframes: Vec<Keyframe>,
    /// Ticks between keyframes (doubled each time the budget is reached).
    every: u64,
    /// The most bytes the keyframes may take.
    budget: usize,
    /// The `dt` of each step, from the start's tick on.
    dts: Vec<f32>,
    /// The world each step saw, from the step it was first seen in (the first at the start).
    worlds: Vec<(u64, Arc<World>)>,
    /// The targets' positions each step saw, from the step they were first seen in.
    targets: Vec<(u64, Targets)>,
    /// The groups' programs each step ran, from the step they were first run in.
    programs: Vec<(u64, Programs)>,
    /// The simulation's counts of world and program edits the last world and programs were
    /// taken at.
    edits: (u64, u64),
}

/// Named targets' positions, in the world's order.
type Targets = Arc<[(String, Vec2)]>;

/// Each group's program and parameter values, in group order.
type Programs = Arc<[(Arc<Program>, ParamValues)]>;

/// Why a recording could not go to a tick.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeekError {
    /// The tick is before the recording's start or after its end.
    #[error("tick {tick} is not recorded (the recording holds ticks {first} to {last})")]
    NotRecorded {
        /// The tick asked for.
        tick: u64,
        /// The first tick recorded.
        first: u64,
        /// The last tick recorded.
        last: u64,
    },
    /// The simulation is not the one recorded.
    #[error(transparent)]
    Restore(#[from] RestoreError),
}

impl Recording {
    /// Starts recording `simulation` at its present tick, keeping at most `budget` bytes of
    /// keyframes (at least the first is always kept).
    pub fn new(simulation: &Simulation, budget: usize) -> Self {
        let tick = simulation.tick();
        Self {
            keyframes: vec![simulation.keyframe()],
            every: FIRST_EVERY,
            budget,
            dts: Vec::new(),
            worlds: vec![(tick, Arc::new(simulation.world().clone()))],
            targets: vec![(tick, targets_of(simulation.world()))],
            programs: vec![(tick, programs_of(simulation))],
            edits: (simulation.world_edits(), simulation.program_edits()),
        }
    }

    /// The first tick recorded.
    pub fn first(&self) -> u64 {
        self.keyframes.first().map_or(0, Keyframe::tick)
    }

    /// The last tick recorded (the simulation's tick after the last step recorded).
    pub fn last(&self) -> u64 {
        self.first() + self.dts.len() as u64
    }

    /// Ticks between keyframes now.
    pub fn keyframe_every(&self) -> u64 {
        self.every
    }

    /// How many keyframes it keeps.
    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }

    /// About how many bytes it keeps: its keyframes, the steps' `dt`s and the targets seen
    /// (the world's versions are shared with the simulation's until edited, and counted at
    /// their own size only: the walls, fields and meshes they hold are not).
    pub fn bytes(&self) -> usize {
        let keyframes: usize = self.keyframes.iter().map(Keyframe::bytes).sum();
        let targets: usize = (self.targets.iter())
            .map(|(_, t)| t.len() * (size_of::<(String, Vec2)>() + 16))
            .sum();
        keyframes
            + self.dts.capacity() * size_of::<f32>()
            + self.worlds.len() * size_of::<World>()
            + targets
    }

    /// Notes the step `simulation` has just taken with `dt`: call it after every
    /// [`Simulation::step`]. A step from a tick before the last recorded (after
    /// [`Recording::seek`]: a fork) drops what was recorded after that tick first; a step from
    /// anywhere else outside the recording (the simulation was reset, or steps went
    /// unrecorded) starts the recording again there.
    pub fn record(&mut self, simulation: &Simulation, dt: f32) {
        let tick = simulation.tick();
        let Some(from) = tick.checked_sub(1) else {
            *self = Self::new(simulation, self.budget);
            return;
        };
        if from < self.first() || from > self.last() {
            *self = Self::new(simulation, self.budget);
            return;
        }
        self.truncate(from);
        // The world the step saw: edited through `world_mut`, or only its targets moved; and
        // the programs it ran.
        let (world_edits, program_edits) = (simulation.world_edits(), simulation.program_edits());
        if world_edits != self.edits.0 {
            self.worlds
                .push((from, Arc::new(simulation.world().clone())));
            self.targets.push((from, targets_of(simulation.world())));
        } else if !same_targets(simulation.world(), &self.targets_at(from)) {
            self.targets.push((from, targets_of(simulation.world())));
        }
        if program_edits != self.edits.1 {
            self.programs.push((from, programs_of(simulation)));
        }
        self.edits = (world_edits, program_edits);
        self.dts.push(dt);
        if (tick - self.first()).is_multiple_of(self.every) {
            self.keyframes.push(simulation.keyframe());
            self.keep_within_budget();
        }
    }

    /// Puts `simulation` (the one recorded, or one made from the same scene) at tick `tick`
    /// of the run, exactly as the run had it: the nearest keyframe at or before it, stepped on
    /// with the recorded `dt`s and worlds. Its world is left as the last step to `tick` saw
    /// it. Stepping on from there and calling [`Recording::record`] forks the run.
    pub fn seek(&self, simulation: &mut Simulation, tick: u64) -> Result<(), SeekError> {
        let (first, last) = (self.first(), self.last());
        if tick < first || tick > last {
            return Err(SeekError::NotRecorded { tick, first, last });
        }
        let at = self.keyframes.partition_point(|k| k.tick() <= tick) - 1;
        let keyframe = &self.keyframes[at];
        if keyframe.agents() != simulation.vehicles().len() {
            return Err(SeekError::Restore(RestoreError::Agents {
                keyframe: keyframe.agents(),
                simulation: simulation.vehicles().len(),
            }));
        }
        // The world and programs the keyframe's state was reached with (the last step's; at
        // the start, those the recording began with), then the state.
        let mut put = Put::default();
        let before = keyframe.tick().checked_sub(1).filter(|&step| step >= first);
        match before {
            Some(step) => self.put_world(simulation, step, &mut put),
            None => self.put_start(simulation, &mut put),
        }
        simulation.restore(keyframe)?;
        for step in keyframe.tick()..tick {
            self.put_world(simulation, step, &mut put);
            simulation.step(self.dts[(step - first) as usize]);
        }
        Ok(())
    }

    /// Gives `simulation` the world, targets and programs the recording began with.
    fn put_start(&self, simulation: &mut Simulation, put: &mut Put) {
        self.put_versions(simulation, (0, 0, 0), put);
    }

    /// Gives `simulation` the world, targets and programs step `step` saw.
    fn put_world(&self, simulation: &mut Simulation, step: u64, put: &mut Put) {
        let last = |froms: &mut dyn Iterator<Item = u64>| {
            froms.filter(|&from| from <= step).count().saturating_sub(1)
        };
        let versions = (
            last(&mut self.worlds.iter().map(|(from, _)| *from)),
            last(&mut self.targets.iter().map(|(from, _)| *from)),
            last(&mut self.programs.iter().map(|(from, _)| *from)),
        );
        self.put_versions(simulation, versions, put);
    }

    /// Gives `simulation` the versions (by their place in the lists) of the world, targets
    /// and programs it has not been given yet.
    fn put_versions(
        &self,
        simulation: &mut Simulation,
        (w, t, p): (usize, usize, usize),
        put: &mut Put,
    ) {
        let new_world = put.world != Some(w);
        if new_world {
            simulation.put_world(&self.worlds[w].1);
            put.world = Some(w);
            put.targets = None;
        }
        if put.targets != Some(t) {
            let world = simulation.world_quietly();
            for (name, at) in self.targets[t].1.iter() {
                world.set_target(name, *at);
            }
            put.targets = Some(t);
        }
        if put.programs != Some(p) {
            // Bound to the world as it is now, as the step that first ran them had them.
            for (group, (program, params)) in self.programs[p].1.iter().enumerate() {
                simulation.put_program(group, Arc::clone(program), params.clone());
            }
            put.programs = Some(p);
        } else if new_world {
            // The names bound again against the world put back (the same unless it renamed).
            let _ = simulation.rebind();
        }
    }

    /// The targets step `step` saw.
    fn targets_at(&self, step: u64) -> Targets {
        let t = self.targets.partition_point(|(from, _)| *from <= step) - 1;
        Arc::clone(&self.targets[t].1)
    }

    /// Drops what was recorded for steps from `from` on.
    fn truncate(&mut self, from: u64) {
        let first = self.first();
        self.dts.truncate((from - first) as usize);
        // Keyframes after `from` (the one at `from` is the state the step starts from).
        self.keyframes.retain(|k| k.tick() <= from);
        self.worlds.retain(|(at, _)| *at < from || *at == first);
        self.targets.retain(|(at, _)| *at < from || *at == first);
        self.programs.retain(|(at, _)| *at < from || *at == first);
    }

    /// Drops every other keyframe, and takes them half as often, until the keyframes fit the
    /// budget (the first is always kept).
    fn keep_within_budget(&mut self) {
        while self.keyframes.len() > 1 && self.bytes() > self.budget {
            let (first, every) = (self.first(), self.every * 2);
            self.keyframes
                .retain(|k| (k.tick() - first).is_multiple_of(every));
            self.every = every;
        }
    }
}

/// Which versions a simulation being sent back was given, by their place in the lists.
#[derive(Default)]
struct Put {
    world: Option<usize>,
    targets: Option<usize>,
    programs: Option<usize>,
}

/// Each group's program and parameter values in `simulation`.
fn programs_of(simulation: &Simulation) -> Programs {
    (simulation.groups().iter())
        .map(|group| (Arc::clone(&group.program), group.params.clone()))
        .collect()
}

/// The targets of `world`, in its order.
fn targets_of(world: &World) -> Targets {
    world
        .targets()
        .map(|(name, at)| (name.to_owned(), at))
        .collect()
}

/// Whether `world`'s targets are `targets` (the same names at the same bits).
fn same_targets(world: &World, targets: &[(String, Vec2)]) -> bool {
    let mut theirs = world.targets();
    targets.iter().all(|(name, at)| {
        theirs.next().is_some_and(|(n, a)| {
            n == name && a.to_array().map(f32::to_bits) == at.to_array().map(f32::to_bits)
        })
    }) && theirs.next().is_none()
}
