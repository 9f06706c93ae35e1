use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Link, Number, Target};
use crate::limits::{MAX_COORDINATE, MIN_MASS};

/// What travels along a wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortType {
    /// A steering force (world units · mass / s²).
    Steering,
    /// A plain number read by a sensor (distance, count, speed, parameter value).
    Scalar,
    /// A yes/no answer, used by `Gate`.
    Condition,
}

impl fmt::Display for PortType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Steering => "steering force",
            Self::Scalar => "scalar",
            Self::Condition => "condition",
        })
    }
}

/// A named place on a node: an input port or a numeric field, with an index for list entries.
/// Shown as the editor numbers them, from 1: entry 0 of `inputs` is `input 1`, entry 2 of
/// `weight` is `weight 3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The field's name as written in RON.
    pub name: &'static str,
    /// Position in a list field, if the field is a list.
    pub index: Option<usize>,
}

impl Slot {
    /// A plain field.
    pub const fn field(name: &'static str) -> Self {
        Self { name, index: None }
    }

    /// Entry `index` of a list field.
    pub const fn item(name: &'static str, index: usize) -> Self {
        Self {
            name,
            index: Some(index),
        }
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(index) => {
                let singular = self.name.strip_suffix('s').unwrap_or(self.name);
                write!(f, "{singular} {}", index + 1)
            }
            None => f.write_str(self.name),
        }
    }
}

/// The range a numeric field must lie in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// Any number within `±1e9` ([`crate::limits::MAX_COORDINATE`]).
    Finite,
    /// `>= 0` and at most `1e9` (distances, radii, times).
    NonNegative,
    /// At least `1e-6` ([`crate::limits::MIN_MASS`]) and at most `1e9` (mass).
    Positive,
    /// A probability in `[0, 1]`.
    Probability,
    /// An angle in degrees in `[0, 360]` (field of view).
    Angle,
    /// An angle in degrees in `[0, 90]` (a turn aside, such as Reciprocal's `keep_right`).
    RightAngle,
    /// A whole number from 1 to `max` (a count, such as Reciprocal's `max_neighbors`).
    Count {
        /// The largest count allowed.
        max: u16,
    },
}

impl Constraint {
    /// Whether `value` satisfies the constraint. Every number of a graph is finite and at most
    /// [`MAX_COORDINATE`] in magnitude, so products of a few of them stay finite in `f32`.
    pub fn accepts(self, value: f32) -> bool {
        value.is_finite()
            && value.abs() <= MAX_COORDINATE
            && match self {
                Self::Finite => true,
                Self::NonNegative => value >= 0.0,
                Self::Positive => value >= MIN_MASS,
                Self::Probability => (0.0..=1.0).contains(&value),
                Self::Angle => (0.0..=360.0).contains(&value),
                Self::RightAngle => (0.0..=90.0).contains(&value),
                Self::Count { max } => {
                    (1.0..=f32::from(max)).contains(&value) && value.fract() == 0.0
                }
            }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Self::Finite => "must be a finite number between -1e9 and 1e9",
            Self::NonNegative => "must be a finite number >= 0 and at most 1e9",
            Self::Positive => "must be a finite number >= 1e-6 and at most 1e9",
            Self::Probability => "must be a probability between 0 and 1",
            Self::Angle => "must be an angle between 0 and 360 degrees",
            Self::RightAngle => "must be an angle between 0 and 90 degrees",
            Self::Count { max } => return write!(f, "must be a whole number from 1 to {max}"),
        };
        f.write_str(text)
    }
}

/// Which way a path is travelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PathDirection {
    /// From the first point towards the last (`+1`).
    #[default]
    Forward,
    /// From the last point towards the first (`-1`).
    Backward,
}

impl PathDirection {
    /// `+1.0` or `-1.0`.
    pub fn sign(self) -> f32 {
        match self {
            Self::Forward => 1.0,
            Self::Backward => -1.0,
        }
    }
}

/// Which hand `WallFollowing` keeps the wall on, which sets the direction of travel along it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WallSide {
    /// The wall on the agent's left (`+1`).
    #[default]
    Left,
    /// The wall on the agent's right (`-1`).
    Right,
}

impl WallSide {
    /// `+1.0` for `Left`, `-1.0` for `Right`.
    pub fn sign(self) -> f32 {
        match self {
            Self::Left => 1.0,
            Self::Right => -1.0,
        }
    }
}

/// The rectangle `Containment` keeps agents inside.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Region {
    /// The world's (scene's) bounds.
    #[default]
    World,
    /// `Rect(min_x, min_y, max_x, max_y)` in world units.
    Rect(Number, Number, Number, Number),
}

/// How a `Compare` condition tests its sensor against the threshold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Comparison {
    /// `sensor < threshold`
    #[default]
    Less,
    /// `sensor <= threshold`
    LessOrEqual,
    /// `sensor > threshold`
    Greater,
    /// `sensor >= threshold`
    GreaterOrEqual,
}

impl Comparison {
    /// Applies the test.
    pub fn holds(self, sensor: f32, threshold: f32) -> bool {
        match self {
            Self::Less => sensor < threshold,
            Self::LessOrEqual => sensor <= threshold,
            Self::Greater => sensor > threshold,
            Self::GreaterOrEqual => sensor >= threshold,
        }
    }
}

/// One input of a `Blend`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedInput {
    /// The steering node feeding this input.
    pub node: Link,
    /// Its weight (any finite number; negative weights push away).
    pub weight: Number,
}

/// One input of a `Dither`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChanceInput {
    /// The steering node feeding this input.
    pub node: Link,
    /// Probability in `[0, 1]` that this input is considered on a tick.
    pub probability: Number,
}

fn zero() -> Number {
    Number::Literal(0.0)
}

fn default_epsilon() -> Number {
    Number::Literal(1e-3)
}

/// Every node a graph can hold: behaviors, combiners, sensors, conditions and the output.
///
/// Distances are world units, times seconds, angles degrees. Behaviors and combiners output a
/// steering force; sensors a scalar; conditions a yes/no. The exact formulas are the behavior
/// contract's (`graph-runtime/BEHAVIORS.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Node {
    /// Steer towards the target at full speed.
    Seek {
        /// Where to go.
        target: Target,
    },
    /// Steer away from the target, optionally only when closer than `panic_distance`.
    Flee {
        /// What to flee from.
        target: Target,
        /// Ignore the target beyond this distance (units, `>= 0`); `None`: always flee.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        panic_distance: Option<Number>,
    },
    /// Seek, slowing down linearly inside `slowing_distance` and stopping on the target.
    Arrival {
        /// Where to stop.
        target: Target,
        /// Radius of the slowing zone (units, `>= 0`).
        slowing_distance: Number,
    },
    /// Seek the quarry's predicted position.
    Pursuit {
        /// The agent to catch.
        quarry: Target,
        /// Longest look-ahead (s, `>= 0`).
        max_prediction: Number,
    },
    /// Flee the quarry's predicted position.
    Evasion {
        /// The agent to escape.
        quarry: Target,
        /// Longest look-ahead (s, `>= 0`).
        max_prediction: Number,
        /// Ignore the quarry beyond this distance (units, `>= 0`); `None`: always evade.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        panic_distance: Option<Number>,
    },
    /// Pursue a point beside the quarry, passing it at lateral distance `offset`.
    OffsetPursuit {
        /// The agent to pass.
        quarry: Target,
        /// Lateral passing distance (units, `>= 0`).
        offset: Number,
        /// Longest look-ahead (s, `>= 0`).
        max_prediction: Number,
    },
    /// Steer sideways away from the most threatening circle obstacle ahead.
    ObstacleAvoidance {
        /// Corridor length at rest (units, `>= 0`).
        min_length: Number,
        /// Extra corridor length per unit of speed (s, `>= 0`).
        lookahead_time: Number,
    },
    /// Steer away from walls felt by a central feeler and two side whiskers, and from the
    /// nearest wall point within `radius + margin`.
    WallAvoidance {
        /// Central feeler length at rest (units, `>= 0`).
        min_length: Number,
        /// Extra central feeler length per unit of speed (s, `>= 0`).
        lookahead_time: Number,
        /// Angle of each whisker from the heading (degrees, `0..=360`; 20 to 60 in practice).
        whisker_angle: Number,
        /// Clearance kept from the nearest wall beyond the agent's radius (units, `>= 0`).
        margin: Number,
    },
    /// Reynolds' wall following: travel along the nearest wall within `range`, keeping it on
    /// the chosen hand at `offset`.
    WallFollowing {
        /// Which hand the wall is kept on; it sets the direction of travel.
        side: WallSide,
        /// Distance kept from the wall (units, `>= 0`).
        offset: Number,
        /// How far ahead along the wall the agent aims per unit of speed (s, `>= 0`); at least
        /// the agent's radius ahead.
        lookahead_time: Number,
        /// Farthest wall followed (units, `>= 0`); beyond it the force is zero.
        range: Number,
    },
    /// Seek a point that drifts randomly on a circle ahead of the agent.
    Wander {
        /// Distance of the circle's centre ahead of the agent (units, `>= 0`).
        distance: Number,
        /// Circle radius (units, `>= 0`).
        radius: Number,
        /// Largest drift of the aim angle (degrees / s, `>= 0`).
        jitter: Number,
    },
    /// Follow a named path of the world.
    PathFollowing {
        /// Name of the path.
        path: String,
        /// How far ahead the position is predicted (s, `>= 0`).
        prediction_time: Number,
        /// How far along the path the aim point lies (units, `>= 0`).
        ahead_distance: Number,
        /// Which way to travel.
        #[serde(default)]
        direction: PathDirection,
        /// When true, do nothing while the predicted position is inside the path's radius.
        #[serde(default)]
        corrective: bool,
        /// When true, `path` names the agent's own route (set by the game with
        /// `Crowd::set_route`, or by its scene group), not a world path: each agent follows
        /// its own, and an agent without one gets zero. Not written when false.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        own: bool,
    },
    /// Steer back inside a rectangle when the predicted position leaves it.
    Containment {
        /// The rectangle.
        #[serde(default)]
        bounds: Region,
        /// How far ahead the position is predicted (s, `>= 0`).
        prediction_time: Number,
        /// How far inside the border the return point lies (units, `>= 0`).
        margin: Number,
    },
    /// Match the velocity that a named flow field asks for at the predicted position.
    FlowFieldFollowing {
        /// Name of the flow field.
        field: String,
        /// How far ahead the position is predicted (s, `>= 0`).
        prediction_time: Number,
    },
    /// Avoid the soonest predicted collision with another agent.
    UnalignedCollisionAvoidance {
        /// Longest look-ahead (s, `>= 0`).
        max_time: Number,
    },
    /// Reciprocal collision avoidance (ORCA): the force reaching the velocity nearest the
    /// one the input asks for that avoids neighbors, circle obstacles and walls for a time horizon,
    /// each agent taking half of the avoidance between two agents.
    Reciprocal {
        /// The preferred steering force.
        input: Link,
        /// How far ahead collisions with agents are avoided (s, `>= 0`; `0` ignores agents).
        time_horizon: Number,
        /// How far ahead collisions with circle obstacles and walls are avoided (s, `>= 0`;
        /// `0` ignores them).
        obstacle_time_horizon: Number,
        /// Agents closer than this are neighbors (units, `>= 0`).
        neighbor_radius: Number,
        /// At most this many neighbors, the nearest (a whole number from 1 to 32).
        max_neighbors: Number,
        /// Extra distance kept between agents, and from obstacles and walls (units, `>= 0`):
        /// it absorbs the force limit and rounding that would let exact ORCA touch.
        #[serde(default = "zero")]
        clearance: Number,
        /// When the preferred velocity would collide, aim this many degrees to its right
        /// instead (`0..=90`; `0` is plain ORCA): a keep-right convention that breaks the
        /// symmetric deadlocks of crossings.
        #[serde(default = "zero")]
        keep_right: Number,
    },
    /// Move away from neighbors, more strongly from closer ones.
    Separation {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number,
        /// Field of view (degrees, `0..=360`).
        fov: Number,
    },
    /// Move towards the neighbors' centre.
    Cohesion {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number,
        /// Field of view (degrees, `0..=360`).
        fov: Number,
    },
    /// Match the neighbors' mean velocity.
    Alignment {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number,
        /// Field of view (degrees, `0..=360`).
        fov: Number,
    },
    /// Separation, cohesion and alignment over one neighborhood, normalized and weighted.
    Flocking {
        /// Weight of the normalized separation.
        separation_weight: Number,
        /// Weight of the normalized cohesion.
        cohesion_weight: Number,
        /// Weight of the normalized alignment.
        alignment_weight: Number,
        /// Neighborhood radius (units, `>= 0`).
        radius: Number,
        /// Field of view (degrees, `0..=360`).
        fov: Number,
    },
    /// Arrive at a point behind a leader, stepping out of its way when in front of it.
    LeaderFollowing {
        /// The agent to follow.
        leader: Target,
        /// Distance behind the leader (units, `>= 0`).
        behind: Number,
        /// Slowing radius of the arrival (units, `>= 0`).
        slowing_distance: Number,
        /// Length of the leader's sight zone (units, `>= 0`).
        sight_length: Number,
        /// Width of the leader's sight zone (units, `>= 0`).
        sight_width: Number,
    },
    /// Arrive at the predicted midpoint between two agents.
    Interpose {
        /// First agent.
        a: Target,
        /// Second agent.
        b: Target,
        /// Slowing radius of the arrival (units, `>= 0`).
        slowing_distance: Number,
    },
    /// Arrive at the nearest spot behind an obstacle, as seen from the hunter.
    Hide {
        /// The agent to hide from.
        hunter: Target,
        /// Extra clearance behind the obstacle (units, `>= 0`).
        margin: Number,
        /// Slowing radius of the arrival (units, `>= 0`).
        slowing_distance: Number,
    },
    /// Weighted sum of the inputs.
    Blend {
        /// Inputs and their weights.
        inputs: Vec<WeightedInput>,
    },
    /// The first input whose force is larger than `epsilon`.
    Priority {
        /// Inputs, highest priority first.
        inputs: Vec<Link>,
        /// Forces at most this long count as "nothing to do" (`>= 0`).
        #[serde(default = "default_epsilon")]
        epsilon: Number,
    },
    /// Reynolds' prioritized dithering: each input is considered with its probability.
    Dither {
        /// Inputs, highest priority first, with their probabilities.
        inputs: Vec<ChanceInput>,
        /// Forces at most this long count as "nothing to do" (`>= 0`).
        #[serde(default = "default_epsilon")]
        epsilon: Number,
    },
    /// Prioritized acceleration allocation: inputs share `max_force` in order.
    Budget {
        /// Inputs, highest priority first.
        inputs: Vec<Link>,
    },
    /// The input's force while the condition holds, else zero.
    Gate {
        /// The steering input.
        input: Link,
        /// The condition input.
        condition: Link,
    },
    /// The input's force multiplied by `factor`.
    Scale {
        /// The steering input.
        input: Link,
        /// Any finite factor.
        factor: Number,
    },
    /// The input's force truncated to length `max`.
    Truncate {
        /// The steering input.
        input: Link,
        /// Longest force (`>= 0`).
        max: Number,
    },
    /// Sensor: distance from the agent to a target (units).
    Distance {
        /// What to measure to.
        target: Target,
    },
    /// Sensor: how many neighbors are within `radius` and the field of view.
    NeighborCount {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number,
        /// Field of view (degrees, `0..=360`).
        fov: Number,
    },
    /// Sensor: the agent's own speed (units / s).
    Speed,
    /// Sensor: distance from the agent to the nearest wall point (units; `+inf` without
    /// walls).
    WallDistance,
    /// Sensor: a constant or a graph parameter's value.
    Value {
        /// The value.
        value: Number,
    },
    /// Condition: compares a sensor with a threshold.
    Compare {
        /// The scalar input.
        sensor: Link,
        /// The comparison.
        test: Comparison,
        /// The threshold.
        threshold: Number,
    },
    /// Condition: a wall lies within `distance` straight ahead (the ray from the agent along
    /// its heading, `distance` long, hits a wall).
    WallAhead {
        /// Length of the ray ahead (units, `>= 0`).
        distance: Number,
    },
    /// Condition: every input holds (true when there are none).
    All {
        /// Condition inputs.
        inputs: Vec<Link>,
    },
    /// Condition: at least one input holds.
    Any {
        /// Condition inputs.
        inputs: Vec<Link>,
    },
    /// Condition: the input does not hold.
    Not {
        /// The condition input.
        input: Link,
    },
    /// Another graph file used as one node: the subgraph's graph parameters are this node's
    /// fields and its Output is this node's output (a steering force). The compiler inlines
    /// it, so it runs as fast as the same nodes written out.
    Subgraph {
        /// The graph file, relative to the folder of the graph that uses it.
        file: String,
        /// Values for the subgraph's parameters, by name: a literal or one of this graph's
        /// parameters. A parameter not listed keeps the subgraph's default.
        #[serde(
            default,
            skip_serializing_if = "BTreeMap::is_empty",
            deserialize_with = "crate::unique::names"
        )]
        parameters: BTreeMap<String, Number>,
    },
    /// A bend point for tidying long wires: passes its input on unchanged, whatever its type
    /// (a force, a scalar or a condition). It costs nothing at run time: the compiler links
    /// through it.
    Reroute {
        /// The value passed on.
        input: Link,
    },
    /// The graph's result: its force goes to the vehicle. Exactly one per graph.
    Output {
        /// The steering input.
        input: Link,
    },
}
