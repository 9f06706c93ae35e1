//! Recording a simulation as it runs and going back to any tick of it (issue 45): keyframes
//! every few ticks ([`Keyframe`]), the `dt` of every step, and the world, targets and
//! programs each step saw; a past tick is the nearest keyframe at or before it, stepped on to
//! it. Runs are deterministic to the bit, so the tick reached is the tick the run had, and
//! stepping on from it (with an edit or without) is a fork of the run.
//!
//! A step is recorded just before it is taken ([`Recording::record`]), so what the designer
//! changed since the last step (the world, a graph swapped in, an agent dragged) is what the
//! step sees. Vehicles edited between steps cannot be stepped to again, so the tick they were
//! edited at keeps a keyframe of its own.
//!
//! Memory is bounded: past the budget, every other keyframe is dropped and the keyframes are
//! taken half as often (going back then steps more ticks); keyframes of edited vehicles are
//! never dropped that way, and if they alone overrun the budget the oldest part of the
//! recording goes.

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
    /// By tick, ascending, at most one a tick; the first is the recording's start. Each with
    /// whether it holds vehicles edited at its tick (never thinned out).
    keyframes: Vec<(Keyframe, bool)>,
    /// Ticks between keyframes (doubled each time the budget is reached).
    every: u64,
    /// The most bytes it may take.
    budget: usize,
    /// The `dt` of each step, from the start's tick on.
    dts: Vec<f32>,
    /// The world each step saw, from the step it was first seen in, ascending.
    worlds: Vec<(u64, Arc<World>)>,
    /// The targets' positions each step saw, from the step they were first seen in.
    targets: Vec<(u64, Targets)>,
    /// The groups' programs each step ran, from the step they were first run in.
    programs: Vec<(u64, Programs)>,
    /// The simulation's counts of world, program and vehicle edits at the last step.
    edits: [u64; 3],
}

/// Named targets' positions, in the world's order.
pub type Targets = Arc<[(String, Vec2)]>;

/// Each group's program and parameter values, in group order.
pub type Programs = Arc<[(Arc<Program>, ParamValues)]>;

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
    /// Starts recording `simulation` at its present tick, keeping about `budget` bytes at
    /// most (at least the start's keyframe is always kept).
    pub fn new(simulation: &Simulation, budget: usize) -> Self {
        let tick = simulation.tick();
        Self {
            keyframes: vec![(simulation.keyframe(), false)],
            every: FIRST_EVERY,
            budget,
            dts: Vec::new(),
            worlds: vec![(tick, Arc::new(simulation.world().clone()))],
            targets: vec![(tick, targets_of(simulation.world()))],
            programs: vec![(tick, programs_of(simulation))],
            edits: edits_of(simulation),
        }
    }

    /// The first tick recorded.
    pub fn first(&self) -> u64 {
        self.keyframes.first().map_or(0, |(k, _)| k.tick())
    }

    /// The last tick recorded: the tick after the last step recorded.
    pub fn last(&self) -> u64 {
        self.first() + self.dts.len() as u64
    }

    /// The `dt` of each step recorded, from [`Recording::first`] on.
    pub fn dts(&self) -> &[f32] {
        &self.dts
    }

    /// Each world the steps saw, with the first step that saw it, ascending (the first at
    /// [`Recording::first`]): a new one after every world edit.
    pub fn worlds(&self) -> &[(u64, Arc<World>)] {
        &self.worlds
    }

    /// The targets' positions the steps saw, with the first step that saw them, ascending:
    /// a new version when a target moved (the cursor) or the world was edited.
    pub fn target_versions(&self) -> &[(u64, Targets)] {
        &self.targets
    }

    /// The groups' programs the steps ran, with the first step that ran them, ascending: a
    /// new version when a group's program was swapped.
    pub fn program_versions(&self) -> &[(u64, Programs)] {
        &self.programs
    }

    /// Ticks between keyframes now.
    pub fn keyframe_every(&self) -> u64 {
        self.every
    }

    /// How many keyframes it keeps.
    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }

    /// The most bytes it keeps ([`Recording::bytes`]).
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Keeps at most `budget` bytes from now on (the designer set it): a recording over it
    /// is thinned at once, as one that grows past its budget is. A larger budget keeps what
    /// is recorded as it is (keyframes already thinned stay as far apart) and lets the rest
    /// of the run keep more.
    pub fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.keep_within_budget();
    }

    /// About how many bytes it keeps: its keyframes, the steps' `dt`s and the targets seen
    /// (a world's version is counted at its own size only: the walls, fields and meshes it
    /// holds are not).
    pub fn bytes(&self) -> usize {
        let keyframes: usize = self.keyframes.iter().map(|(k, _)| k.bytes()).sum();
        let targets: usize = (self.targets.iter())
            .map(|(_, t)| t.len() * (size_of::<(String, Vec2)>() + 16))
            .sum();
        keyframes
            + self.dts.capacity() * size_of::<f32>()
            + self.worlds.len() * size_of::<World>()
            + targets
    }

    /// Notes the step `simulation` is about to take with `dt`: call it just before every
    /// [`Simulation::step`]. A step from a tick before the last recorded (after
    /// [`Recording::seek`]: a fork) drops what was recorded after that tick first; a step from
    /// anywhere else outside the recording (the simulation was reset, or steps went
    /// unrecorded) starts the recording again there.
    pub fn record(&mut self, simulation: &Simulation, dt: f32) {
        let tick = simulation.tick();
        if tick < self.first() || tick > self.last() {
            *self = Self::new(simulation, self.budget);
        }
        self.truncate(tick);
        // What the step sees: the world (edited, or only its targets moved) and programs.
        let [worlds, programs, vehicles] = edits_of(simulation);
        if worlds != self.edits[0] {
            self.worlds
                .push((tick, Arc::new(simulation.world().clone())));
            self.targets.push((tick, targets_of(simulation.world())));
        } else if !same_targets(simulation.world(), &self.targets_at(tick)) {
            self.targets.push((tick, targets_of(simulation.world())));
        }
        if programs != self.edits[1] {
            self.programs.push((tick, programs_of(simulation)));
        }
        let edited = vehicles != self.edits[2];
        self.edits = [worlds, programs, vehicles];
        let due = (tick - self.first()).is_multiple_of(self.every);
        self.dts.push(dt);
        if self.keyframes.is_empty() || edited || due {
            self.keyframes.push((simulation.keyframe(), edited));
            self.keep_within_budget();
        }
    }

    /// Puts `simulation` (the one recorded, or one made from the same scene) at tick `tick`
    /// of the run, exactly as the run had it when the step from that tick started (after any
    /// edit made at that tick; the last tick as the last step left it): the nearest keyframe
    /// at or before it, stepped on with the recorded `dt`s, worlds and programs. Its world and
    /// programs are left as that step saw them. Recording a step from there forks the run.
    pub fn seek(&self, simulation: &mut Simulation, tick: u64) -> Result<(), SeekError> {
        self.seek_watching(simulation, tick, tick, |_| {})
    }

    /// [`Recording::seek`], starting from a keyframe at or before `watch_from` as well and
    /// calling `each` with the simulation at every tick from `watch_from` (or the recording's
    /// first) to `tick`: what a tracker of the run's last seconds needs to see again (the
    /// preview's stalled agents).
    pub fn seek_watching(
        &self,
        simulation: &mut Simulation,
        tick: u64,
        watch_from: u64,
        mut each: impl FnMut(&Simulation),
    ) -> Result<(), SeekError> {
        let (first, last) = (self.first(), self.last());
        if tick < first || tick > last {
            return Err(SeekError::NotRecorded { tick, first, last });
        }
        let watch_from = watch_from.clamp(first, tick);
        let at = self
            .keyframes
            .partition_point(|(k, _)| k.tick() <= watch_from)
            - 1;
        let keyframe = &self.keyframes[at].0;
        if keyframe.agents() != simulation.vehicles().len() {
            return Err(SeekError::Restore(RestoreError::Agents {
                keyframe: keyframe.agents(),
                simulation: simulation.vehicles().len(),
            }));
        }
        // The keyframe was taken just before its tick's step: with what that step saw.
        let mut put = Put::default();
        self.put_for(simulation, keyframe.tick(), &mut put);
        simulation.restore(keyframe)?;
        if keyframe.tick() >= watch_from {
            each(simulation);
        }
        for step in keyframe.tick()..tick {
            self.put_for(simulation, step, &mut put);
            simulation.step(self.dts[(step - first) as usize]);
            if step + 1 >= watch_from {
                each(simulation);
            }
        }
        Ok(())
    }

    /// Steps `simulation`, at a recorded tick before the last, on one tick as the run did
    /// (its `dt`, world, targets and programs): a second simulation kept in step with a fork
    /// shows the run as it was beside it. `cursor` remembers what was given already (one
    /// per simulation so kept), so a world is copied only when the run changed it.
    pub fn advance(
        &self,
        simulation: &mut Simulation,
        cursor: &mut Cursor,
    ) -> Result<(), SeekError> {
        let (first, last, tick) = (self.first(), self.last(), simulation.tick());
        if tick < first || tick >= last {
            return Err(SeekError::NotRecorded {
                tick: tick.saturating_add(1),
                first,
                last,
            });
        }
        self.put_for(simulation, tick, &mut cursor.0);
        simulation.step(self.dts[(tick - first) as usize]);
        Ok(())
    }

    /// Gives `simulation` the world, targets and programs step `step` saw (or, past the last
    /// step, the last step's), those it was not given yet.
    fn put_for(&self, simulation: &mut Simulation, step: u64, put: &mut Put) {
        let w = self.worlds.partition_point(|(from, _)| *from <= step) - 1;
        let t = self.targets.partition_point(|(from, _)| *from <= step) - 1;
        let p = self.programs.partition_point(|(from, _)| *from <= step) - 1;
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

    /// Drops what was recorded for steps from `from` on, but the world, targets and programs
    /// step `from` saw (a simulation sent back to `from` has them).
    fn truncate(&mut self, from: u64) {
        let keyframe_at_end = self.keyframes.last().is_some_and(|(k, _)| k.tick() >= from);
        if from == self.last() && !keyframe_at_end {
            // The usual step, at the end: nothing recorded from it on.
            return;
        }
        let first = self.first();
        self.dts.truncate((from - first) as usize);
        self.keyframes.retain(|(k, _)| k.tick() < from);
        self.worlds.retain(|(at, _)| *at <= from);
        self.targets.retain(|(at, _)| *at <= from);
        self.programs.retain(|(at, _)| *at <= from);
    }

    /// Drops every other keyframe (but the first and those of edited vehicles), and takes
    /// them half as often, while that brings the recording within its budget; then the
    /// oldest part of the recording, keyframe by keyframe.
    fn keep_within_budget(&mut self) {
        let unpinned =
            |keyframes: &[(Keyframe, bool)]| keyframes.iter().filter(|(_, edited)| !edited).count();
        while self.keyframes.len() > 1 && self.bytes() > self.budget {
            let before = unpinned(&self.keyframes);
            let span = self.last() - self.first();
            while before > 1 && self.every <= span && unpinned(&self.keyframes) == before {
                let (first, every) = (self.first(), self.every * 2);
                self.keyframes
                    .retain(|(k, edited)| *edited || (k.tick() - first).is_multiple_of(every));
                self.every = every;
            }
            if unpinned(&self.keyframes) == before {
                self.drop_oldest();
            }
        }
    }

    /// Starts the recording at its second keyframe.
    fn drop_oldest(&mut self) {
        let old = self.first();
        self.keyframes.remove(0);
        let first = self.first();
        self.dts.drain(..(first - old) as usize);
        // The last version of each seen at or before the new start stays, as its first.
        from_start(&mut self.worlds, first);
        from_start(&mut self.targets, first);
        from_start(&mut self.programs, first);
    }
}

/// Drops the versions before the last one seen at or before `first` (a recording's new
/// start).
fn from_start<T>(versions: &mut Vec<(u64, T)>, first: u64) {
    let before = versions.partition_point(|(at, _)| *at <= first);
    versions.drain(..before.saturating_sub(1));
}

/// What a simulation stepped with [`Recording::advance`] was given of the recording (its
/// world, targets and programs), so each is given again only when the run changed it. Start
/// with `Cursor::default()` after a [`Recording::seek`].
#[derive(Clone, Debug, Default)]
pub struct Cursor(Put);

/// Which versions a simulation being sent back was given, by their place in the lists.
#[derive(Clone, Debug, Default)]
struct Put {
    world: Option<usize>,
    targets: Option<usize>,
    programs: Option<usize>,
}

/// `simulation`'s counts of world, program and vehicle edits.
fn edits_of(simulation: &Simulation) -> [u64; 3] {
    [
        simulation.world_edits(),
        simulation.program_edits(),
        simulation.vehicle_edits(),
    ]
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
    let bits = |at: Vec2| at.to_array().map(f32::to_bits);
    let mut theirs = world.targets();
    targets.iter().all(|(name, at)| {
        theirs
            .next()
            .is_some_and(|(n, a)| n == name && bits(a) == bits(*at))
    }) && theirs.next().is_none()
}
