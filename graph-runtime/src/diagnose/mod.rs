//! Why an agent is stuck (issue 45): what holds it, read from its evaluation (each node's
//! force, Reciprocal's half-planes) and the geometry around it (walls between it and its goal,
//! agents in contact, a crowd held at a narrow place). `BEHAVIORS.md`, "Why an agent is
//! stuck", gives every rule and threshold; `fixes.rs` proposes changes and proves each by
//! running the scene on from the moment with it.

mod candidates;
mod fixes;
mod geometry;
mod words;

pub use fixes::{Fix, FixEdit, FixEffect, KEEP_RIGHT, ProvenFix, WALKING_RADII, propose_fixes};

use glam::Vec2;

use crate::{Guide, NodeId, NodeKind, NodeValue, Simulation, Trace};

/// Two agents are in contact within this many times the sum of their radii.
pub const CONTACT: f32 = 1.25;

/// An agent is against a wall within this many of its radii (a wall-avoiding agent keeps a
/// margin off it while pressed).
pub const WALL_CONTACT: f32 = 2.5;

/// Head on: the other agent is within this many times the sum of the two radii (agents
/// keeping a distance with Separation stop apart).
pub const HEAD_ON_REACH: f32 = 3.0;

/// Head on: the other agent lies within this many degrees of the line to the agent's goal,
/// and its own goal within as many of the line back (each the other's way).
pub const HEAD_ON_DEGREES: f32 = 25.0;

/// A jam: at least this many other held agents (moving at under [`HELD_SPEED`] of their top
/// speed) heading the same way (goal directions within 60°) within [`JAM_RADII`] radii, with
/// a wall within [`JAM_RADII`] radii: a crowd over a narrow place's capacity.
pub const JAM_AGENTS: usize = 3;

/// How far (in the agent's radii) a jam's crowd and its narrow place are looked for.
pub const JAM_RADII: f32 = 8.0;

/// An agent is held while it moves at under this share of its top speed.
pub const HELD_SPEED: f32 = 0.25;

/// Reciprocal blocks an agent when the velocity it chooses makes headway (its part along the
/// direction the input asks for) under this share of the speed the input asks for: a crawl,
/// or a step aside as a crowd crosses its way (the share under which an agent is held,
/// [`HELD_SPEED`]).
pub const BLOCKED_SHARE: f32 = 0.25;

/// Forces cancel when their sum is under this share of the sum of their sizes, with at least
/// two leaves over [`CANCEL_SHARE`] of that sum.
pub const CANCEL_RATIO: f32 = 0.2;

/// A leaf counts among forces that cancel from this share of the leaves' summed sizes.
pub const CANCEL_SHARE: f32 = 0.1;

/// What holds a stuck agent.
#[derive(Clone, Debug, PartialEq)]
pub enum Cause {
    /// A symmetric head-on deadlock: agent `other` is in its way and it in the other's.
    HeadOn {
        /// The other agent.
        other: usize,
    },
    /// A crowd held at a narrow place (a door, a corridor) over its capacity.
    Jammed {
        /// The nearest point of the narrow place's wall.
        at: Vec2,
        /// The other held agents heading the same way nearby.
        others: usize,
    },
    /// Pressed between a wall and other agents.
    Pinned {
        /// The nearest point of the wall it touches.
        wall: Vec2,
        /// The agents pressing it, ascending.
        others: Vec<usize>,
    },
    /// A local-minimum trap: its goal is behind a wall and its graph has no route round it.
    BehindWall {
        /// Where the line to the goal first meets a wall.
        wall: Vec2,
    },
    /// Reciprocal finds no safe velocity toward where the agent is asked to go: its
    /// half-planes (neighbors', walls') permit none, or only a crawl or a step aside.
    NoSafeVelocity {
        /// The Reciprocal node.
        node: NodeId,
        /// How many half-planes it weighed.
        planes: usize,
    },
    /// Its forces cancel: the leaves that pull against each other, largest first.
    ForcesCancel {
        /// Each node with its kind and force.
        forces: Vec<(NodeId, NodeKind, Vec2)>,
    },
    /// Not held now: it walks toward its goal at `speed` (at least [`HELD_SPEED`] of its top
    /// speed along the way to it). A stalled agent that something (most often a crossing
    /// crowd) drove back from the nearest it had come, making that way up again.
    Walking {
        /// Its speed toward its goal (its velocity's part along the way to it).
        speed: f32,
    },
    /// Nothing of the above.
    Unknown,
}

impl Cause {
    /// The cause's short name, as `steergraph diagnose` writes it: `head_on`, `jammed`,
    /// `pinned`, `behind_wall`, `no_safe_velocity`, `forces_cancel`, `walking` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::HeadOn { .. } => "head_on",
            Self::Jammed { .. } => "jammed",
            Self::Pinned { .. } => "pinned",
            Self::BehindWall { .. } => "behind_wall",
            Self::NoSafeVelocity { .. } => "no_safe_velocity",
            Self::ForcesCancel { .. } => "forces_cancel",
            Self::Walking { .. } => "walking",
            Self::Unknown => "unknown",
        }
    }

    /// The cause as a title for a designer: `Jammed`, `Pinned`, `Head on`, `Behind a wall`,
    /// `No safe velocity`, `Forces cancel`, `Walking again` or `Unknown`.
    pub fn title(&self) -> &'static str {
        match self {
            Self::HeadOn { .. } => "Head on",
            Self::Jammed { .. } => "Jammed",
            Self::Pinned { .. } => "Pinned",
            Self::BehindWall { .. } => "Behind a wall",
            Self::NoSafeVelocity { .. } => "No safe velocity",
            Self::ForcesCancel { .. } => "Forces cancel",
            Self::Walking { .. } => "Walking again",
            Self::Unknown => "Unknown",
        }
    }

    /// Every cause's short name, in the order the rules are tried (`unknown` last).
    pub const NAMES: [&'static str; 8] = [
        "jammed",
        "pinned",
        "head_on",
        "behind_wall",
        "no_safe_velocity",
        "forces_cancel",
        "walking",
        "unknown",
    ];

    /// The graph nodes the cause is about (to highlight on the graph).
    pub fn nodes(&self) -> Vec<NodeId> {
        match self {
            Self::NoSafeVelocity { node, .. } => vec![*node],
            Self::ForcesCancel { forces } => forces.iter().map(|(node, _, _)| *node).collect(),
            _ => Vec::new(),
        }
    }
}

/// What holds one agent, found at one tick.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnosis {
    /// The agent.
    pub agent: usize,
    /// Its goal, as the arrival metrics take it (`None`: its graph heads for none).
    pub goal: Option<Vec2>,
    /// What holds it.
    pub cause: Cause,
}

/// What holds agent `agent` of `simulation` now, its evaluation traced with `dt`; `None` for
/// an agent that does not exist. The rules are tried in [`Cause::NAMES`]'s order and the first
/// that holds is the cause (`BEHAVIORS.md`, "Why an agent is stuck").
pub fn diagnose(simulation: &Simulation, agent: usize, dt: f32) -> Option<Diagnosis> {
    let mut trace = Trace::default();
    let net = simulation.trace(agent, dt, &mut trace)?;
    diagnose_traced(simulation, agent, &trace, net)
}

/// [`diagnose`] from the agent's evaluation already traced (`trace`, its output force `net`):
/// the preview traces the selected agent once a frame for its live values.
pub fn diagnose_traced(
    simulation: &Simulation,
    agent: usize,
    trace: &Trace,
    net: Vec2,
) -> Option<Diagnosis> {
    let around = geometry::Around::of(simulation, agent)?;
    let group = simulation.groups().get(simulation.group_of(agent)?)?;
    let program = &group.program;
    let cause = around
        .jam()
        .map(|(at, others)| Cause::Jammed { at, others })
        .or_else(|| {
            around
                .pinned()
                .map(|(wall, others)| Cause::Pinned { wall, others })
        })
        .or_else(|| around.head_on().map(|other| Cause::HeadOn { other }))
        .or_else(|| {
            (!program.navigates())
                .then(|| around.wall_to_goal())
                .flatten()
                .map(|wall| Cause::BehindWall { wall })
        })
        .or_else(|| no_safe_velocity(trace))
        .or_else(|| forces_cancel(trace, program, net))
        .or_else(|| around.walking().map(|speed| Cause::Walking { speed }))
        .unwrap_or(Cause::Unknown);
    Some(Diagnosis {
        agent,
        goal: around.goal,
        cause,
    })
}

/// A Reciprocal node of the trace whose half-planes leave no safe velocity toward where its
/// input asks to go: none at all (it took the least violation), or only velocities making
/// headway under [`BLOCKED_SHARE`] of the speed asked for (a crawl, or a step aside).
fn no_safe_velocity(trace: &Trace) -> Option<Cause> {
    trace.entries.iter().find_map(|entry| match entry.guide {
        Guide::Reciprocal {
            fallback,
            total,
            preferred,
            chosen,
            ..
        } if fallback || headway(chosen, preferred) < BLOCKED_SHARE * preferred.length() => {
            Some(Cause::NoSafeVelocity {
                node: entry.node,
                planes: usize::from(total),
            })
        }
        _ => None,
    })
}

/// How fast `velocity` goes the way `asked` points (negative: away); 0 when nothing is asked.
fn headway(velocity: Vec2, asked: Vec2) -> f32 {
    velocity.dot(asked.normalize_or_zero())
}

/// The leaves whose forces cancel: the graph's output `net` under [`CANCEL_RATIO`] of the
/// leaves' summed sizes (whatever weights combined them), two or more of them over
/// [`CANCEL_SHARE`] of it.
fn forces_cancel(trace: &Trace, program: &crate::Program, net: Vec2) -> Option<Cause> {
    let leaves: Vec<(NodeId, NodeKind, Vec2)> = (trace.entries.iter())
        .filter_map(|entry| {
            let kind = program.kind_of(entry.node)?;
            if kind.takes_inputs() || kind == NodeKind::Output {
                return None;
            }
            let force = match entry.value {
                NodeValue::Force(force) => force,
                NodeValue::Steering(steering) => steering.force,
                NodeValue::Scalar(_) | NodeValue::Condition(_) => return None,
            };
            Some((entry.node, kind, force))
        })
        .collect();
    let sizes: f32 = leaves.iter().map(|(_, _, f)| f.length()).sum();
    if sizes.is_nan() || sizes <= 0.0 || net.length() >= CANCEL_RATIO * sizes {
        return None;
    }
    let mut forces: Vec<_> = (leaves.into_iter())
        .filter(|(_, _, f)| f.length() > CANCEL_SHARE * sizes)
        .collect();
    if forces.len() < 2 {
        return None;
    }
    forces.sort_by(|a, b| b.2.length().total_cmp(&a.2.length()));
    Some(Cause::ForcesCancel { forces })
}
