//! Running a scene of the stuck corpus to its jam, diagnosing its subject's stuck agents and
//! proving the fixes offered (`tests/stuck_corpus.rs` and the `stuck_corpus` example).

use graph_runtime::diagnose::{Diagnosis, ProvenFix, diagnose, propose_fixes};
use graph_runtime::{MetricsTracker, Simulation};

use crate::stuck_corpus::{SUBJECT, StuckScene};

/// Seconds a corpus scene runs before its stuck agents are diagnosed.
pub const RUN_SECONDS: f32 = 10.0;

/// Seconds a fix is run on from the moment diagnosed.
pub const FIX_SECONDS: f32 = 5.0;

/// The tick length.
pub const DT: f32 = 1.0 / 60.0;

/// What the diagnosis made of one corpus scene.
#[derive(Debug)]
pub struct Verdict {
    /// The scene's name.
    pub name: String,
    /// The cause it was made for.
    pub expected: &'static str,
    /// Each stuck subject agent's diagnosis.
    pub diagnoses: Vec<Diagnosis>,
    /// The cause named most often among them (the first in the rules' order on a tie);
    /// `"none"` when no subject agent was stuck.
    pub named: &'static str,
    /// The fixes offered, best first.
    pub fixes: Vec<ProvenFix>,
}

/// Runs `scene` for [`RUN_SECONDS`], diagnoses its subject's stuck agents (stalled, or on the
/// stuck clock) and proves fixes for them over [`FIX_SECONDS`].
///
/// # Panics
///
/// When the scene does not build (the corpus is generated valid).
pub fn judge(scene: &StuckScene) -> Verdict {
    let mut simulation = Simulation::new(&scene.assets).expect("a corpus scene builds");
    let mut tracker = MetricsTracker::default();
    let ticks = (RUN_SECONDS / DT).round() as u32;
    for tick in 1..=ticks {
        simulation.step(DT);
        tracker.observe(&simulation, tick as f32 * DT);
    }
    let subject = (simulation.groups().iter())
        .find(|group| group.name == SUBJECT)
        .map(|group| group.agents.clone())
        .unwrap_or_default();
    let stalled: Vec<usize> = tracker.stalled_agents().collect();
    let stuck: Vec<usize> = subject
        .filter(|&agent| {
            stalled.contains(&agent) || graph_runtime::is_stuck(simulation.stuck_for(agent))
        })
        .collect();
    let diagnoses: Vec<Diagnosis> = (stuck.iter())
        .filter_map(|&agent| diagnose(&simulation, agent, DT))
        .collect();
    let names = graph_runtime::diagnose::Cause::NAMES;
    let named = (names.iter())
        .max_by_key(|name| {
            let count = diagnoses
                .iter()
                .filter(|d| d.cause.name() == **name)
                .count();
            let order = names.iter().position(|n| n == *name).unwrap_or(0);
            (count, usize::MAX - order)
        })
        .filter(|_| !diagnoses.is_empty())
        .copied()
        .unwrap_or("none");
    let keyframe = simulation.keyframe();
    let fixes = propose_fixes(&scene.assets, &keyframe, &diagnoses, DT, FIX_SECONDS);
    Verdict {
        name: scene.name.clone(),
        expected: scene.cause,
        diagnoses,
        named,
        fixes,
    }
}
