//! A replay file played in the preview (issue 45): the recorded scene runs at the recording's
//! tick length, and every tick's state is checked against the file's digest as it is stepped,
//! so the editor reproduces a `steergraph record` run byte for byte or says at which tick it
//! stopped doing so. The run pauses at the recording's last tick; an edit leaves the replay
//! (what runs after it is no longer the recorded run) and the preview goes on as usual.

use graph_runtime::replay::ReplayFile;

use super::{Host, TICK};

/// A replay being played: the file, and how far its run was checked.
pub(super) struct Replaying {
    file: ReplayFile,
    /// The file as messages name it.
    name: String,
    /// The last tick checked and found as recorded.
    matched: Option<u64>,
    /// Why checking stopped, when it did.
    stopped: Option<Stop>,
    /// The ticks at which the run's own edits go in (a graph swapped, the scene edited),
    /// found once: the timeline asks every frame.
    edited: Vec<u64>,
}

/// Why a replay stopped being checked.
enum Stop {
    /// A tick differs from the recording (the file's words for it).
    Differs(String),
    /// An edit left the replay: what runs after it is another run.
    Left(String),
}

/// How a replay being played stands, for the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayStatus {
    /// Every tick up to `matched` is the recorded state; the recording ends at `last`.
    Matching {
        /// The replay file.
        name: String,
        /// The last tick checked.
        matched: u64,
        /// The recording's last tick.
        last: u64,
        /// The ticks at which the run's own edits go in (a graph swapped, the scene edited;
        /// targets moved aside): from each on, the run is not the open graph's or scene's.
        edited: Vec<u64>,
    },
    /// A tick differs from the recording: the run stopped there.
    Differs {
        /// Which tick and how, in full.
        why: String,
    },
    /// An edit left the replay: what runs after it is another run, not checked.
    Left {
        /// Which tick and what edit, in full.
        why: String,
    },
}

impl Host {
    /// Plays `file` (the replay file `name`) from tick 0: the scene, already this preview's,
    /// runs at the recording's tick length, checked tick by tick against it.
    pub fn play_replay(&mut self, file: ReplayFile, name: String) {
        self.tick_length = file.dt;
        let edited = (file.edits.changes().iter())
            .filter(|c| !c.graphs.is_empty() || c.scene.is_some())
            .map(|c| c.tick)
            .collect();
        self.replay = Some(Replaying {
            file,
            name,
            matched: None,
            stopped: None,
            edited,
        });
        self.running = true;
        self.check_replay();
    }

    /// The replay being played and how it stands; none when the preview plays no replay.
    pub fn replay_status(&self) -> Option<ReplayStatus> {
        let replay = self.replay.as_ref()?;
        Some(match &replay.stopped {
            Some(Stop::Differs(why)) => ReplayStatus::Differs { why: why.clone() },
            Some(Stop::Left(why)) => ReplayStatus::Left { why: why.clone() },
            None => ReplayStatus::Matching {
                name: replay.name.clone(),
                matched: replay.matched.unwrap_or(0),
                last: replay.file.ticks(),
                edited: replay.edited.clone(),
            },
        })
    }

    /// Whether a replay is being checked: the preview leaves alone what its recording did not
    /// have (the cursor target follows no mouse).
    pub fn replaying(&self) -> bool {
        self.replay.as_ref().is_some_and(|r| r.stopped.is_none())
    }

    /// Checks the tick the simulation shows against the replay being played: a tick as
    /// recorded is noted (the run pauses at the recording's last), a tick that differs stops
    /// the run there with the file's words for it. Ticks past the recording are not checked.
    pub(super) fn check_replay(&mut self) {
        let (Some(replay), Some(simulation)) = (self.replay.as_mut(), self.simulation.as_ref())
        else {
            return;
        };
        let tick = simulation.tick();
        if replay.stopped.is_some() || tick > replay.file.ticks() {
            return;
        }
        match replay.file.check(simulation, &replay.name) {
            Ok(()) => {
                replay.matched = Some(replay.matched.map_or(tick, |m| m.max(tick)));
                if tick == replay.file.ticks() {
                    self.running = false;
                }
            }
            Err(error) => {
                // Also among the preview's problems, in red above the viewport.
                self.problems.push(error.to_string());
                replay.stopped = Some(Stop::Differs(error.to_string()));
                self.running = false;
            }
        }
    }

    /// Puts the change the replay's run had at the tick about to be stepped into the
    /// simulation (a graph swapped, a wall drawn, the cursor moved while it was recorded); a
    /// change that does not fit stops the replay there, as a tick that differs does.
    pub(super) fn put_replay_edits(&mut self) {
        let (Some(replay), Some(simulation)) = (self.replay.as_mut(), self.simulation.as_mut())
        else {
            return;
        };
        if replay.stopped.is_some() || simulation.tick() >= replay.file.ticks() {
            return;
        }
        if let Err(error) = replay.file.put_edits(simulation, &replay.name) {
            self.problems.push(error.to_string());
            replay.stopped = Some(Stop::Differs(error.to_string()));
            self.running = false;
        }
    }

    /// `assets` (the scene and graphs shown) as the run being replayed had them at the tick
    /// shown: with the edits the replay's run had made by then (`ReplayFile::assets_at`),
    /// what a fix is proven on. As they are when no replay is being checked.
    pub fn as_replayed(&self, assets: graph_runtime::SceneAssets) -> graph_runtime::SceneAssets {
        match (&self.replay, self.tick()) {
            (Some(replay), Some(tick)) if replay.stopped.is_none() => {
                replay.file.assets_at(assets, tick)
            }
            _ => assets,
        }
    }

    /// Whether the scene's edits are the replay's own: while it is checked and the scene is
    /// as it was built, the world follows the run's changes, not the scene document.
    pub(super) fn world_follows_replay(&self, scene: &graph_runtime::Scene) -> bool {
        self.replaying() && self.built.as_ref().is_some_and(|(built, _)| built == scene)
    }

    /// An edit (`what`) at the tick shown: what runs after it is no longer the recorded run,
    /// so the replay stops being checked and the preview runs at its own tick length again
    /// from the next reset.
    pub(super) fn leave_replay(&mut self, what: &str) {
        let tick = self.tick().unwrap_or(0);
        if let Some(replay) = self.replay.as_mut()
            && !matches!(replay.stopped, Some(Stop::Left(_)))
        {
            replay.stopped = Some(Stop::Left(format!(
                "{}: left the replay at tick {tick}: {what}; the ticks after it are not checked",
                replay.name
            )));
        }
    }

    /// A reset: a replay left by an edit is over (the preview's own tick length again; the
    /// timeline still says where it was left, so the run shown is not taken for the
    /// recording); one still checked starts again from tick 0.
    pub(super) fn restart_replay(&mut self) {
        match self.replay.as_mut() {
            Some(Replaying {
                stopped: Some(Stop::Left(_)),
                ..
            }) => {
                self.tick_length = TICK;
            }
            Some(replay) => {
                replay.matched = None;
                replay.stopped = None;
            }
            None => {}
        }
    }
}
