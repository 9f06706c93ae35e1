//! Replay files (`*.sgrec`, issue 45): a headless run written down as what it needs to be run
//! again and the proof that it was. Runs are deterministic to the bit, so the file keeps no
//! agents' states: it names the scene (with a digest of it as run), the seed, the tick length
//! and the agent count, and one digest of the agents' state per tick
//! ([`state_digest`]: what `steergraph simulate` writes at that tick). Replaying steps the
//! scene again and checks every tick against its digest, so a replay either reproduces the
//! recorded run byte for byte or says at which tick it stopped doing so.
//!
//! A run edited while it ran (a fork from a past tick with an edit, a hot reload, a wall
//! drawn, the cursor moved) keeps its edits as changes by tick ([`Edits`], `changes.rs`),
//! put in before the steps that first saw them. Unlike [`crate::rewind::Recording`] (the
//! editor's run in memory, with its keyframes), a replay file holds no agents' states, and
//! one `dt`.

mod changes;
mod digest;
mod edited_assets;
mod file;
mod from_run;

pub use changes::{Change, Edits, GroupSwap, SceneEdit};
pub use digest::{scene_digest, state_digest};

use std::path::Path;

use crate::limits::{MAX_AGENT_TICKS, MAX_REPLAY_TICKS};
use crate::{FileAccess, LoadError, SaveError, SceneAssets, SceneError, Simulation};

/// A recorded run, as a replay file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayFile {
    /// The scene, relative to the replay file's folder.
    pub scene: String,
    /// The scene's digest as run, its seed set to [`ReplayFile::seed`] ([`scene_digest`]).
    pub scene_digest: u64,
    /// The seed the run used (the scene's own or a `--seed`).
    pub seed: u64,
    /// The length of every tick, in seconds.
    pub dt: f32,
    /// How many agents the run had.
    pub agents: usize,
    /// The edits made while it ran, put in before the steps that first saw them (none: a
    /// version 1 file).
    pub edits: Edits,
    /// The state's digest at each tick, from 0 (before the first step) to the last.
    digests: Vec<u64>,
}

/// Why a replay could not be recorded, opened or run.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The replay file could not be read or is not a valid replay.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The scene it names does not load or build.
    #[error("{replay}: its scene: {}", lines(.errors))]
    Scene {
        /// The replay file.
        replay: String,
        /// Every problem with the scene.
        errors: Vec<SceneError>,
    },
    /// The scene is not the one recorded: it, or a file it names, changed.
    #[error(
        "{replay}: the scene {scene} is not the one recorded (its digest is {found}, the replay's {recorded}): the scene or a file it names changed since, or the replay names another scene"
    )]
    SceneChanged {
        /// The replay file.
        replay: String,
        /// The scene's path.
        scene: String,
        /// The digest recorded.
        recorded: String,
        /// The digest of the scene now.
        found: String,
    },
    /// The scene makes another number of agents than the run had.
    #[error("{replay}: the run had {recorded} agents; its scene makes {found}")]
    Agents {
        /// The replay file.
        replay: String,
        /// Agents in the run.
        recorded: usize,
        /// Agents the scene makes now.
        found: usize,
    },
    /// Stepping again gave another state than the recorded run at `tick`.
    #[error(
        "{replay}: the replay differs from the recorded run at tick {tick} (its state's digest is {found}, the recording's {recorded}); the run was recorded by a build whose steering differs from this one's"
    )]
    Diverged {
        /// The replay file.
        replay: String,
        /// The first tick that differs.
        tick: u64,
        /// The digest recorded.
        recorded: String,
        /// The digest of the state replayed.
        found: String,
    },
    /// The tick asked for is not in the run.
    #[error("{replay}: tick {tick} is not in the run, which has ticks 0 to {ticks}")]
    NotRecorded {
        /// The replay file.
        replay: String,
        /// The tick asked for.
        tick: u64,
        /// The run's last tick.
        ticks: u64,
    },
    /// A run no replay file may hold: more ticks than [`MAX_REPLAY_TICKS`], more agent-ticks
    /// than [`MAX_AGENT_TICKS`], or a `dt` that is not a finite number > 0.
    #[error("{scene}: {why}")]
    Refused {
        /// The scene.
        scene: String,
        /// Why.
        why: String,
    },
    /// An edit of the run does not fit its scene (a group or a target the scene lacks, a
    /// graph that would make too much work).
    #[error("{replay}: {why}")]
    Edit {
        /// The replay file.
        replay: String,
        /// Which change, and why.
        why: String,
    },
    /// The scene's digest could not be worked out.
    #[error("the scene's digest: {0}")]
    Digest(#[from] SaveError),
}

/// Puts the change `edits` have at `simulation`'s tick into it; `replay` names the file (or
/// the scene being recorded) in errors.
fn put_edits(edits: &Edits, simulation: &mut Simulation, replay: &str) -> Result<(), ReplayError> {
    edits.put(simulation).map_err(|why| ReplayError::Edit {
        replay: replay.to_owned(),
        why,
    })
}

/// Scene errors, one a line.
fn lines(errors: &[SceneError]) -> String {
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    text.join("\n")
}

impl ReplayFile {
    /// Runs `assets` (its seed the one to record) `ticks` ticks of `dt` from the start and
    /// writes the run down; `scene` is the scene's path as the replay file will name it
    /// (relative to the file's folder). `each` sees the simulation at every tick, 0 included.
    /// A run beyond the limits ([`ReplayError::Refused`]) is refused before any step.
    pub fn record(
        assets: &SceneAssets,
        scene: String,
        ticks: u64,
        dt: f32,
        mut each: impl FnMut(&Simulation),
    ) -> Result<Self, ReplayError> {
        let whole = Self::record_while(assets, scene.clone(), ticks, dt, |simulation| {
            each(simulation);
            true
        })?;
        // `each` above never stops it.
        whole.ok_or_else(|| ReplayError::Refused {
            scene,
            why: "the recording stopped before its last tick".to_owned(),
        })
    }

    /// [`ReplayFile::record`], stopping as soon as `each` answers `false` (a user cancelled a
    /// long recording): then `Ok(None)`, after no more steps.
    pub fn record_while(
        assets: &SceneAssets,
        scene: String,
        ticks: u64,
        dt: f32,
        each: impl FnMut(&Simulation) -> bool,
    ) -> Result<Option<Self>, ReplayError> {
        Self::record_edited(assets, scene, (ticks, dt), Edits::default(), each)
    }

    /// [`ReplayFile::record_while`] of a run with `edits`, each change put in before the
    /// step from its tick ([`Edits::of_recording`] writes down a run the editor recorded).
    /// A change at or after `ticks` is refused, as one that does not fit the scene.
    pub fn record_edited(
        assets: &SceneAssets,
        scene: String,
        (ticks, dt): (u64, f32),
        edits: Edits,
        mut each: impl FnMut(&Simulation) -> bool,
    ) -> Result<Option<Self>, ReplayError> {
        let refused = |why: String| ReplayError::Refused {
            scene: scene.clone(),
            why,
        };
        if !(dt.is_finite() && dt > 0.0) {
            return Err(refused(format!(
                "dt {dt} is not a tick length (a finite number of seconds > 0)"
            )));
        }
        if ticks > MAX_REPLAY_TICKS {
            return Err(refused(format!(
                "{ticks} ticks; a replay holds at most {MAX_REPLAY_TICKS}"
            )));
        }
        if let Some(late) = edits.changes().iter().find(|c| c.tick >= ticks) {
            return Err(refused(format!(
                "a change at tick {} is not before the run's last tick ({ticks})",
                late.tick
            )));
        }
        let scene_digest = scene_digest(assets)?;
        let mut simulation = Simulation::new(assets).map_err(|errors| ReplayError::Scene {
            replay: scene.clone(),
            errors,
        })?;
        let agents = simulation.vehicles().len();
        let work = (agents as u64).saturating_mul(ticks);
        if work > MAX_AGENT_TICKS {
            return Err(refused(format!(
                "{agents} agents × {ticks} ticks is {work} agent-ticks; a replay holds at most {MAX_AGENT_TICKS}"
            )));
        }
        let mut digests = Vec::with_capacity(usize::try_from(ticks).unwrap_or(0).saturating_add(1));
        if !each(&simulation) {
            return Ok(None);
        }
        digests.push(state_digest(&simulation));
        for _ in 0..ticks {
            put_edits(&edits, &mut simulation, &scene)?;
            simulation.step(dt);
            if !each(&simulation) {
                return Ok(None);
            }
            digests.push(state_digest(&simulation));
        }
        Ok(Some(Self {
            scene,
            scene_digest,
            seed: assets.scene.seed,
            dt,
            agents,
            edits,
            digests,
        }))
    }

    /// The run's last tick (it has ticks 0 to this).
    pub fn ticks(&self) -> u64 {
        self.digests.len().saturating_sub(1) as u64
    }

    /// The state's digest recorded at `tick`.
    pub fn digest(&self, tick: u64) -> Option<u64> {
        self.digests.get(usize::try_from(tick).ok()?).copied()
    }

    /// The run's scene, loaded for the replay file at `path` and checked against the
    /// recording: found where the file names it ([`ReplayFile::scene_path`] with `access`),
    /// loading, its digest the recorded one once its seed is the replay's, making the same
    /// number of agents, and at tick 0 in the recorded state.
    pub fn open(&self, path: &Path, access: FileAccess) -> Result<Simulation, ReplayError> {
        self.open_with_assets(path, access)
            .map(|(_, simulation)| simulation)
    }

    /// [`ReplayFile::open`], with the scene as loaded (its seed the replay's): what a fix
    /// to the run is made on ([`crate::diagnose::propose_fixes`]).
    pub fn open_with_assets(
        &self,
        path: &Path,
        access: FileAccess,
    ) -> Result<(SceneAssets, Simulation), ReplayError> {
        let replay = path.display().to_string();
        let scene = self.scene_path(path, access)?;
        let scene_error = |errors| ReplayError::Scene {
            replay: replay.clone(),
            errors,
        };
        let mut assets = SceneAssets::load(&scene).map_err(scene_error)?;
        assets.scene.seed = self.seed;
        let found = scene_digest(&assets)?;
        if found != self.scene_digest {
            return Err(ReplayError::SceneChanged {
                replay,
                scene: scene.display().to_string(),
                recorded: file::hex(self.scene_digest),
                found: file::hex(found),
            });
        }
        let simulation = Simulation::new(&assets).map_err(scene_error)?;
        if simulation.vehicles().len() != self.agents {
            return Err(ReplayError::Agents {
                replay,
                recorded: self.agents,
                found: simulation.vehicles().len(),
            });
        }
        self.check(&simulation, &replay)?;
        Ok((assets, simulation))
    }

    /// Steps `simulation` (opened with [`ReplayFile::open`], at or before `tick`) on to tick
    /// `tick` with the recorded `dt`, checking every tick's state against the recording.
    /// `replay` names the file in errors.
    pub fn replay_to(
        &self,
        simulation: &mut Simulation,
        tick: u64,
        replay: &str,
    ) -> Result<(), ReplayError> {
        if tick > self.ticks() || tick < simulation.tick() {
            return Err(ReplayError::NotRecorded {
                replay: replay.to_owned(),
                tick,
                ticks: self.ticks(),
            });
        }
        while simulation.tick() < tick {
            self.step(simulation, replay)?;
            self.check(simulation, replay)?;
        }
        Ok(())
    }

    /// Steps `simulation` one tick as the run did: the change the run had at its tick put in
    /// first, then a step of the recorded `dt` (not checked: [`ReplayFile::check`]); `replay`
    /// names the file in errors.
    pub fn step(&self, simulation: &mut Simulation, replay: &str) -> Result<(), ReplayError> {
        self.put_edits(simulation, replay)?;
        simulation.step(self.dt);
        Ok(())
    }

    /// Puts the change the run had at `simulation`'s tick into it (nothing at a tick without
    /// one): what a driver stepping a replay itself (the editor's preview) calls before each
    /// step; `replay` names the file in errors.
    pub fn put_edits(&self, simulation: &mut Simulation, replay: &str) -> Result<(), ReplayError> {
        put_edits(&self.edits, simulation, replay)
    }

    /// Whether `simulation`'s state is the one recorded at its tick (a tick past the run is
    /// [`ReplayError::NotRecorded`]); `replay` names the file in errors.
    pub fn check(&self, simulation: &Simulation, replay: &str) -> Result<(), ReplayError> {
        let tick = simulation.tick();
        let found = state_digest(simulation);
        match self.digest(tick) {
            Some(recorded) if recorded == found => Ok(()),
            Some(recorded) => Err(ReplayError::Diverged {
                replay: replay.to_owned(),
                tick,
                recorded: file::hex(recorded),
                found: file::hex(found),
            }),
            None => Err(ReplayError::NotRecorded {
                replay: replay.to_owned(),
                tick,
                ticks: self.ticks(),
            }),
        }
    }
}
