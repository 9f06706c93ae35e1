//! Fixes for the preview's stuck agents, proven on a thread of their own so the editor keeps
//! answering (`graph_runtime::diagnose::propose_fixes`: each candidate run on from the moment
//! with and without it): what the stuck panel shows and applies.

use std::sync::mpsc::{self, Receiver, TryRecvError};

use graph_runtime::diagnose::{Diagnosis, ProvenFix, propose_fixes};
use graph_runtime::{Keyframe, SceneAssets};

/// Seconds each fix is run on from the moment (as `steergraph diagnose` runs them).
pub const FIX_SECONDS: f32 = 5.0;

/// Where the search for fixes stands.
#[derive(Default)]
pub enum FixState {
    /// Not asked for (or the scene changed since).
    #[default]
    Idle,
    /// Proving fixes for `stuck` agents at tick `tick`.
    Running {
        /// The tick diagnosed.
        tick: u64,
        /// How many agents were stuck.
        stuck: usize,
        /// The answer, once.
        receiver: Receiver<Vec<ProvenFix>>,
    },
    /// The fixes proven at tick `tick` for `stuck` agents, best first.
    Done {
        /// The tick diagnosed.
        tick: u64,
        /// How many agents were stuck.
        stuck: usize,
        /// The fixes.
        fixes: Vec<ProvenFix>,
    },
    /// The search could not start.
    Failed(String),
}

impl FixState {
    /// Starts proving fixes for `diagnoses` on `assets` from `keyframe` (the simulation now,
    /// stepped with ticks of `dt`).
    pub fn start(
        assets: SceneAssets,
        keyframe: Keyframe,
        diagnoses: Vec<Diagnosis>,
        dt: f32,
    ) -> Self {
        let (sender, receiver) = mpsc::channel();
        let (tick, stuck) = (keyframe.tick(), diagnoses.len());
        let spawned = std::thread::Builder::new()
            .name("steergraph-fixes".to_owned())
            .spawn(move || {
                let fixes = propose_fixes(&assets, &keyframe, &diagnoses, dt, FIX_SECONDS);
                // The panel may have been reset; nobody is left to tell.
                let _ = sender.send(fixes);
            });
        match spawned {
            Ok(_) => Self::Running {
                tick,
                stuck,
                receiver,
            },
            Err(error) => Self::Failed(format!("cannot start the fixes' thread: {error}")),
        }
    }

    /// Takes the answer of a search that has finished.
    pub fn poll(&mut self) {
        let Self::Running {
            tick,
            stuck,
            receiver,
        } = self
        else {
            return;
        };
        match receiver.try_recv() {
            Ok(fixes) => {
                *self = Self::Done {
                    tick: *tick,
                    stuck: *stuck,
                    fixes,
                };
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                *self = Self::Failed("the search for fixes stopped without an answer".to_owned());
            }
        }
    }

    /// The fix at `index` of a finished search.
    pub fn fix(&self, index: usize) -> Option<&ProvenFix> {
        match self {
            Self::Done { fixes, .. } => fixes.get(index),
            _ => None,
        }
    }
}
