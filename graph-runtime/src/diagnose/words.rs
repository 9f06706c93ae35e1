//! A diagnosis in a designer's words, for the inspector, the graph and `steergraph diagnose`.

use super::{Cause, Diagnosis};

impl Diagnosis {
    /// The cause as a title for an agent that is stuck ([`Cause::title`]), or for one that is
    /// not (`stuck` false: an agent the designer picked): one walking toward its goal is
    /// `Walking`, not `Walking again`, which says it had stalled.
    pub fn title(&self, stuck: bool) -> &'static str {
        match self.cause {
            Cause::Walking { .. } if self.goal.is_none() => "Moving",
            Cause::Walking { .. } if !stuck => "Walking",
            ref cause => cause.title(),
        }
    }

    /// [`Diagnosis::words`] for an agent that is stuck, or for one that is not (`stuck`
    /// false): one walking toward its goal is held by nothing, and is not said to have been
    /// driven back from the nearest it had come.
    pub fn words_for(&self, stuck: bool) -> String {
        match self.cause {
            // A boid of a flock picked in the preview was "Unknown: held by nothing this
            // diagnosis knows" (seen under Xvfb), flying at 5.3 u/s.
            Cause::Walking { speed } if !stuck && self.goal.is_none() => format!(
                "nothing holds it: it moves at {speed:.1} u/s, and its graph heads for no goal (nothing to walk toward: wandering, flocking)"
            ),
            Cause::Walking { speed } if !stuck => {
                format!("nothing holds it: it walks toward its goal at {speed:.1} u/s")
            }
            _ => self.words(),
        }
    }

    /// What holds the agent, in a sentence a designer reads: which agent, wall or nodes, and
    /// what each does.
    pub fn words(&self) -> String {
        match &self.cause {
            Cause::HeadOn { other } => format!(
                "head-on with agent {other}: each stands in the other's way to its goal, and neither turns aside (a symmetric deadlock)"
            ),
            Cause::Jammed { at, others } => format!(
                "held in a jam: {others} more agents heading the same way are held with it by the wall at ({:.1}, {:.1}), more than the way through lets pass",
                at.x, at.y
            ),
            Cause::Pinned { wall, others } => format!(
                "pinned against the wall at ({:.1}, {:.1}) by {}",
                wall.x,
                wall.y,
                agents(others)
            ),
            Cause::BehindWall { wall } => format!(
                "its goal is behind the wall at ({:.1}, {:.1}), and its graph steers straight at it with no route round (a local-minimum trap)",
                wall.x, wall.y
            ),
            Cause::NoSafeVelocity { node, planes } => format!(
                "Reciprocal (node {node}) finds no safe velocity toward its goal: its {planes} half-planes (neighbors', walls' and obstacles', widened by its clearance) leave no headway toward it: none, a crawl, or a step aside"
            ),
            Cause::ForcesCancel { forces } => {
                let list: Vec<String> = (forces.iter())
                    .map(|(node, kind, force)| {
                        format!("{} (node {node}) {:.2}", kind.name(), force.length())
                    })
                    .collect();
                format!("its forces cancel: {}", list.join(", "))
            }
            Cause::Walking { speed } if self.goal.is_none() => {
                format!("not held now: it moves at {speed:.1} u/s, and its graph heads for no goal")
            }
            Cause::Walking { speed } => format!(
                "not held now: it walks toward its goal at {speed:.1} u/s; something (most often a crossing crowd) drove it back from the nearest it had come, and it counts as stalled until it makes that way up"
            ),
            Cause::Unknown => {
                "held by nothing this diagnosis knows (no agent, wall or node found that holds it)"
                    .to_owned()
            }
        }
    }
}

/// `agent 3`, `agents 3 and 5`, `agents 3, 5 and 8`.
fn agents(list: &[usize]) -> String {
    match list {
        [one] => format!("agent {one}"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(ToString::to_string).collect();
            format!("agents {} and {last}", init.join(", "))
        }
        [] => "agents".to_owned(),
    }
}
