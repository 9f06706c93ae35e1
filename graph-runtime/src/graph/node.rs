//! The node table: every kind of node, described once. Each row gives the kind's docs, its
//! category, what its output carries, what it reads besides its own agent, a one-line
//! description, and its fields, each with its type, default and shape (its range, or what
//! port it is; `shape.rs`). The table's macro (`table.rs`) makes the [`Node`] enum (the file
//! format), the [`NodeKind`] catalogue, the defaults and the views the compiler and the
//! editor walk (`numbers`, `inputs`, `targets`).
//!
//! Adding a kind starts here (`CONTRIBUTING.md`, "Add a node kind").

use std::collections::BTreeMap;

use super::kind::{Category, Reads};
use super::ports::NameKind;
use super::ports::{GROUP_NEIGHBORS, RECIPROCAL_NEIGHBORS};
use super::shape::{
    Aim, Corners, Flag, Named, Num, Plain, Point, Port, Ports, Shape, Values, Weighted,
};
use super::values::{default_epsilon, zero};
use super::{
    ChanceInput, Choice, Comparison, Constraint, Heading, InputPort, Link, NameField, Number,
    NumberField, PathDirection, PortType, Region, Slot, Target, Unit, VelocitySource, WallSide,
    WeightedInput,
};

use Constraint::{Angle, Finite, NonNegative, Positive, Probability, RightAngle};
use Unit::{Acceleration, Degrees, DegreesPerSecond, Length, Seconds, Speed, Unitless};

const STEERING: Port = Port(PortType::Steering);
const CONDITION: Port = Port(PortType::Condition);

fn n(value: f32) -> Number {
    Number::Literal(value)
}

fn tagged(tag: &str) -> Target {
    Target::NearestTagged(tag.to_owned())
}

fn two_weighted(weight: f32) -> Vec<WeightedInput> {
    vec![
        WeightedInput {
            node: Link::NONE,
            weight: n(weight),
        };
        2
    ]
}

node_table! {
    /// Steer towards the target at full speed.
    Seek: Behavior, Steering, Own, "Steer towards a target at full speed." {
        /// Where to go.
        target: Target = Target::default() => Point,
    };
    /// Steer away from the target, optionally only when closer than `panic_distance`.
    Flee: Behavior, Steering, Own, "Steer away from a target, optionally only when it is close." {
        /// What to flee from.
        target: Target = Target::default() => Point,
        /// Ignore the target beyond this distance (units, `>= 0`); `None`: always flee.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        panic_distance: Option<Number> = None => Num(NonNegative, Length),
    };
    /// Seek, slowing down linearly inside `slowing_distance` and stopping on the target.
    Arrival: Behavior, Steering, Own, "Seek a target, slowing down to stop on it." {
        /// Where to stop.
        target: Target = Target::default() => Point,
        /// Radius of the slowing zone (units, `>= 0`).
        slowing_distance: Number = n(5.0) => Num(NonNegative, Length),
    };
    /// Seek the quarry's predicted position.
    Pursuit: Behavior, Steering, Own, "Chase an agent by seeking where it will be." {
        /// The agent to catch.
        quarry: Target = Target::default() => Point,
        /// Longest look-ahead (s, `>= 0`).
        max_prediction: Number = n(1.0) => Num(NonNegative, Seconds),
    };
    /// Flee the quarry's predicted position.
    Evasion: Behavior, Steering, Own, "Escape an agent by fleeing where it will be." {
        /// The agent to escape.
        quarry: Target = Target::default() => Point,
        /// Longest look-ahead (s, `>= 0`).
        max_prediction: Number = n(1.0) => Num(NonNegative, Seconds),
        /// Ignore the quarry beyond this distance (units, `>= 0`); `None`: always evade.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        panic_distance: Option<Number> = None => Num(NonNegative, Length),
    };
    /// Pursue a point beside the quarry, passing it at lateral distance `offset`.
    OffsetPursuit: Behavior, Steering, Own, "Pass beside an agent at a set lateral distance." {
        /// The agent to pass.
        quarry: Target = Target::default() => Point,
        /// Lateral passing distance (units, `>= 0`).
        offset: Number = n(2.0) => Num(NonNegative, Length),
        /// Longest look-ahead (s, `>= 0`).
        max_prediction: Number = n(1.0) => Num(NonNegative, Seconds),
    };
    /// Steer sideways away from the most threatening circle obstacle ahead.
    ObstacleAvoidance: Behavior, Steering, Own, "Steer sideways around circle obstacles ahead." {
        /// Corridor length at rest (units, `>= 0`).
        min_length: Number = n(2.0) => Num(NonNegative, Length),
        /// Extra corridor length per unit of speed (s, `>= 0`).
        lookahead_time: Number = n(1.0) => Num(NonNegative, Seconds),
    };
    /// Steer away from walls felt by a central feeler and two side whiskers, and from the
    /// nearest wall point within `radius + margin`.
    WallAvoidance: Behavior, Steering, Own, "Steer away from walls felt ahead and close by." {
        /// Central feeler length at rest (units, `>= 0`).
        min_length: Number = n(2.0) => Num(NonNegative, Length),
        /// Extra central feeler length per unit of speed (s, `>= 0`).
        lookahead_time: Number = n(1.0) => Num(NonNegative, Seconds),
        /// Angle of each whisker from the heading (degrees, `0..=360`; 20 to 60 in practice).
        whisker_angle: Number = n(40.0) => Num(Angle, Degrees),
        /// Clearance kept from the nearest wall beyond the agent's radius (units, `>= 0`).
        margin: Number = n(0.5) => Num(NonNegative, Length),
    };
    /// Reynolds' wall following: travel along the nearest wall within `range`, keeping it on
    /// the chosen hand at `offset`.
    WallFollowing: Behavior, Steering, Own, "Travel along the nearest wall at a set distance." {
        /// Which hand the wall is kept on; it sets the direction of travel.
        side: WallSide = WallSide::Left => Plain,
        /// Distance kept from the wall (units, `>= 0`).
        offset: Number = n(1.0) => Num(NonNegative, Length),
        /// How far ahead along the wall the agent aims per unit of speed (s, `>= 0`); at least
        /// the agent's radius ahead.
        lookahead_time: Number = n(1.0) => Num(NonNegative, Seconds),
        /// Farthest wall followed (units, `>= 0`); beyond it the force is zero.
        range: Number = n(3.0) => Num(NonNegative, Length),
    };
    /// Seek a point that drifts randomly on a circle ahead of the agent.
    Wander: Behavior, Steering, Own, "Drift randomly but smoothly." {
        /// Distance of the circle's centre ahead of the agent (units, `>= 0`).
        distance: Number = n(3.0) => Num(NonNegative, Length),
        /// Circle radius (units, `>= 0`).
        radius: Number = n(1.5) => Num(NonNegative, Length),
        /// Largest drift of the aim angle (degrees / s, `>= 0`).
        jitter: Number = n(180.0) => Num(NonNegative, DegreesPerSecond),
        /// The seed's second variant: face the wander target and drive along the facing at
        /// full force (a vehicle with independent facing). Not written when false.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        face: bool = false => Flag(
            "face the wander target",
            "The seed's second variant, for a vehicle with independent facing: turn to face \
             the wander target and drive along the facing at full force",
        ),
    };
    /// Follow a named path of the world.
    PathFollowing: Behavior, Steering, Own, "Travel along a named path." {
        /// Name of the path.
        path: String = String::new() => Named(NameKind::Path),
        /// How far ahead the position is predicted (s, `>= 0`).
        prediction_time: Number = n(0.5) => Num(NonNegative, Seconds),
        /// How far along the path the aim point lies (units, `>= 0`).
        ahead_distance: Number = n(2.0) => Num(NonNegative, Length),
        /// Which way to travel.
        #[serde(default)]
        direction: PathDirection = PathDirection::Forward => Plain,
        /// When true, do nothing while the predicted position is inside the path's radius.
        #[serde(default)]
        corrective: bool = true => Flag("corrective", ""),
        /// When true, `path` names the agent's own route (set by the game with
        /// `Crowd::set_route`, or by its scene group), not a world path: each agent follows
        /// its own, and an agent without one gets zero. Not written when false.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        own: bool = false => Flag(
            "the agent's own route",
            "Each agent follows its own route of this name, set by the game \
             (Crowd::set_route); an agent without one gets zero",
        ),
    };
    /// Walk a planned route to a target: round walls and through doors, along the shortest
    /// way the level's navigation mesh has for the agent's radius, re-planned when the target
    /// moves, the agent strays or is stuck, or a door ahead jams; arriving at the end.
    Navigate: Behavior, Steering, Own,
        "Walk a planned route to a target, round walls and through doors." {
        /// Where to go.
        target: Target = Target::default() => Point,
        /// How far along the route the aim point lies (units, `>= 0`).
        ahead_distance: Number = n(2.0) => Num(NonNegative, Length),
        /// Radius of the slowing zone at the route's end (units, `>= 0`).
        slowing_distance: Number = n(3.0) => Num(NonNegative, Length),
        /// Plan again when the target moves this far from where the route ends, or the agent
        /// strays this far from its route (units, `>= 0`).
        replan_distance: Number = n(2.0) => Num(NonNegative, Length),
        /// What each agent standing at a door on the way costs the route, as that much more
        /// walk (units, `>= 0`; `0` ignores crowds): a jammed door is routed round when
        /// another way is shorter, and a door that jams after the route was planned makes it
        /// plan again.
        #[serde(default = "zero")]
        crowd_cost: Number = n(4.0) => Num(NonNegative, Length),
    };
    /// Steer back inside a rectangle when the predicted position leaves it.
    Containment: Behavior, Steering, Own, "Stay inside a rectangle." {
        /// The rectangle.
        #[serde(default)]
        bounds: Region = Region::World => Corners,
        /// How far ahead the position is predicted (s, `>= 0`).
        prediction_time: Number = n(0.5) => Num(NonNegative, Seconds),
        /// How far inside the border the return point lies (units, `>= 0`).
        margin: Number = n(1.0) => Num(NonNegative, Length),
    };
    /// Match the velocity that a named flow field asks for at the predicted position.
    FlowFieldFollowing: Behavior, Steering, Own, "Move with the velocity a flow field asks for." {
        /// Name of the flow field.
        field: String = String::new() => Named(NameKind::FlowField),
        /// How far ahead the position is predicted (s, `>= 0`).
        prediction_time: Number = n(0.2) => Num(NonNegative, Seconds),
    };
    /// Avoid the soonest predicted collision with another agent.
    UnalignedCollisionAvoidance: GroupBehavior, Steering, Agents,
        "Dodge the soonest predicted collision with another agent." {
        /// Longest look-ahead (s, `>= 0`).
        max_time: Number = n(2.0) => Num(NonNegative, Seconds),
    };
    /// Reciprocal collision avoidance (ORCA): the force reaching the velocity nearest the
    /// one the input asks for that avoids neighbors, circle obstacles and walls for a time horizon,
    /// each agent taking half of the avoidance between two agents.
    Reciprocal: GroupBehavior, Steering, Agents,
        "Reciprocal collision avoidance (ORCA) around the input's velocity." {
        /// The preferred steering force.
        input: Link = Link::NONE => STEERING,
        /// How far ahead collisions with agents are avoided (s, `>= 0`; `0` ignores agents).
        time_horizon: Number = n(2.0) => Num(NonNegative, Seconds),
        /// How far ahead collisions with circle obstacles and walls are avoided (s, `>= 0`;
        /// `0` ignores them).
        obstacle_time_horizon: Number = n(1.0) => Num(NonNegative, Seconds),
        /// Agents closer than this are neighbors (units, `>= 0`).
        neighbor_radius: Number = n(5.0) => Num(NonNegative, Length),
        /// At most this many neighbors, the nearest (a whole number from 1 to 32).
        max_neighbors: Number = n(10.0) => Num(RECIPROCAL_NEIGHBORS, Unitless),
        /// Extra distance kept between agents, and from obstacles and walls (units, `>= 0`):
        /// it absorbs the force limit and rounding that would let exact ORCA touch.
        #[serde(default = "zero")]
        clearance: Number = n(0.1) => Num(NonNegative, Length),
        /// When the preferred velocity would collide, aim this many degrees to its right
        /// instead (`0..=90`; `0` is plain ORCA): a keep-right convention that breaks the
        /// symmetric deadlocks of crossings.
        #[serde(default = "zero")]
        keep_right: Number = n(10.0) => Num(RightAngle, Degrees),
    };
    /// Move away from neighbors, more strongly from closer ones.
    Separation: GroupBehavior, Steering, Grid, "Keep away from close neighbors." {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number = n(2.0) => Num(NonNegative, Length),
        /// Field of view (degrees, `0..=360`).
        fov: Number = n(270.0) => Num(Angle, Degrees),
        /// Most neighbors counted: the nearest, the lower agent index on a tie (a whole
        /// number from 1 to 4,096; 64 when not written).
        #[serde(
            default = "super::ports::default_group_neighbors",
            skip_serializing_if = "super::ports::is_default_group_neighbors"
        )]
        max_neighbors: Number = n(super::ports::DEFAULT_GROUP_NEIGHBORS) => Num(GROUP_NEIGHBORS, Unitless),
    };
    /// Move towards the neighbors' centre.
    Cohesion: GroupBehavior, Steering, Grid, "Move towards the neighbors' centre." {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number = n(5.0) => Num(NonNegative, Length),
        /// Field of view (degrees, `0..=360`).
        fov: Number = n(270.0) => Num(Angle, Degrees),
        /// Most neighbors counted: the nearest, the lower agent index on a tie (a whole
        /// number from 1 to 4,096; 64 when not written).
        #[serde(
            default = "super::ports::default_group_neighbors",
            skip_serializing_if = "super::ports::is_default_group_neighbors"
        )]
        max_neighbors: Number = n(super::ports::DEFAULT_GROUP_NEIGHBORS) => Num(GROUP_NEIGHBORS, Unitless),
    };
    /// Match the neighbors' mean velocity.
    Alignment: GroupBehavior, Steering, Grid, "Match the neighbors' heading and speed." {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number = n(5.0) => Num(NonNegative, Length),
        /// Field of view (degrees, `0..=360`).
        fov: Number = n(270.0) => Num(Angle, Degrees),
        /// Most neighbors counted: the nearest, the lower agent index on a tie (a whole
        /// number from 1 to 4,096; 64 when not written).
        #[serde(
            default = "super::ports::default_group_neighbors",
            skip_serializing_if = "super::ports::is_default_group_neighbors"
        )]
        max_neighbors: Number = n(super::ports::DEFAULT_GROUP_NEIGHBORS) => Num(GROUP_NEIGHBORS, Unitless),
    };
    /// Separation, cohesion and alignment over one neighborhood, normalized and weighted.
    Flocking: GroupBehavior, Steering, Grid, "Separation, cohesion and alignment, weighted." {
        /// Weight of the normalized separation.
        separation_weight: Number = n(1.5) => Num(Finite, Unitless),
        /// Weight of the normalized cohesion.
        cohesion_weight: Number = n(1.0) => Num(Finite, Unitless),
        /// Weight of the normalized alignment.
        alignment_weight: Number = n(1.0) => Num(Finite, Unitless),
        /// Neighborhood radius (units, `>= 0`).
        radius: Number = n(5.0) => Num(NonNegative, Length),
        /// Field of view (degrees, `0..=360`).
        fov: Number = n(270.0) => Num(Angle, Degrees),
        /// Most neighbors counted: the nearest, the lower agent index on a tie (a whole
        /// number from 1 to 4,096; 64 when not written).
        #[serde(
            default = "super::ports::default_group_neighbors",
            skip_serializing_if = "super::ports::is_default_group_neighbors"
        )]
        max_neighbors: Number = n(super::ports::DEFAULT_GROUP_NEIGHBORS) => Num(GROUP_NEIGHBORS, Unitless),
    };
    /// Arrive at a point behind a leader, stepping out of its way when in front of it.
    LeaderFollowing: GroupBehavior, Steering, Own,
        "Follow behind a leader, keeping out of its way." {
        /// The agent to follow.
        leader: Target = tagged("leader") => Point,
        /// Distance behind the leader (units, `>= 0`).
        behind: Number = n(2.0) => Num(NonNegative, Length),
        /// Slowing radius of the arrival (units, `>= 0`).
        slowing_distance: Number = n(3.0) => Num(NonNegative, Length),
        /// Length of the leader's sight zone (units, `>= 0`).
        sight_length: Number = n(4.0) => Num(NonNegative, Length),
        /// Width of the leader's sight zone (units, `>= 0`).
        sight_width: Number = n(2.0) => Num(NonNegative, Length),
    };
    /// Arrive at the predicted midpoint between two agents.
    Interpose: GroupBehavior, Steering, Own, "Get between two agents." {
        /// First agent.
        a: Target = tagged("a") => Point,
        /// Second agent.
        b: Target = tagged("b") => Point,
        /// Slowing radius of the arrival (units, `>= 0`).
        slowing_distance: Number = n(3.0) => Num(NonNegative, Length),
    };
    /// Arrive at the nearest spot behind an obstacle, as seen from the hunter.
    Hide: GroupBehavior, Steering, Own, "Hide behind the nearest obstacle from a hunter." {
        /// The agent to hide from.
        hunter: Target = tagged("hunter") => Point,
        /// Extra clearance behind the obstacle (units, `>= 0`).
        margin: Number = n(1.0) => Num(NonNegative, Length),
        /// Slowing radius of the arrival (units, `>= 0`).
        slowing_distance: Number = n(3.0) => Num(NonNegative, Length),
    };
    /// "Arrival for angles": turn the facing to an angle, a direction or an agent's facing,
    /// slowing the turn within `deceleration_radius` and braking it within
    /// `align_tolerance`. Gives only an angular part.
    ReachOrientation: Facing, Steering, Own,
        "Turn the facing to an angle, a direction or another agent's facing." {
        /// Where to turn: an angle (degrees), a direction, or a tagged agent's facing.
        orientation: Heading = Heading::default() => Aim,
        /// Within this angle the facing counts as aligned (degrees, `0..=360`).
        align_tolerance: Number = n(1.0) => Num(Angle, Degrees),
        /// Within this angle the turn slows down (degrees, `0..=360`).
        deceleration_radius: Number = n(30.0) => Num(Angle, Degrees),
        /// Time to reach the wanted angular speed (s, `> 0`).
        time_to_target: Number = n(0.1) => Num(Positive, Seconds),
    };
    /// Turn the facing toward a target (`ReachOrientation` of the direction to it). Gives only
    /// an angular part.
    Face: Facing, Steering, Own, "Turn the facing toward a target." {
        /// What to look at.
        target: Target = Target::default() => Point,
        /// Within this angle the facing counts as aligned (degrees, `0..=360`).
        align_tolerance: Number = n(1.0) => Num(Angle, Degrees),
        /// Within this angle the turn slows down (degrees, `0..=360`).
        deceleration_radius: Number = n(30.0) => Num(Angle, Degrees),
        /// Time to reach the wanted angular speed (s, `> 0`).
        time_to_target: Number = n(0.1) => Num(Positive, Seconds),
    };
    /// Turn the facing toward the direction of motion (Face toward the velocity), gradually.
    /// Gives only an angular part.
    LookWhereYouAreGoing: Facing, Steering, Own,
        "Turn the facing, gradually, toward where the agent is going." {
        /// Within this angle the facing counts as aligned (degrees, `0..=360`).
        align_tolerance: Number = n(1.0) => Num(Angle, Degrees),
        /// Within this angle the turn slows down (degrees, `0..=360`).
        deceleration_radius: Number = n(30.0) => Num(Angle, Degrees),
        /// Time to reach the wanted angular speed (s, `> 0`).
        time_to_target: Number = n(0.1) => Num(Positive, Seconds),
    };
    /// Reach a velocity: an agent's, or a fixed one.
    MatchVelocity: Facing, Steering, Own, "Reach a velocity: another agent's or a fixed one." {
        /// The velocity to match.
        velocity: VelocitySource = VelocitySource::default() => Aim,
        /// Time to reach it (s, `> 0`).
        time_to_target: Number = n(0.1) => Num(Positive, Seconds),
    };
    /// Run up to a jump link's take-off point at the velocity the jump needs (`MatchVelocity`),
    /// then jump: the simulation flies the agent to the landing point. Gives nothing once the
    /// agent has made the jump, or when the jump is not achievable.
    Jump: Facing, Steering, Own, "Run up to a jump link and jump it." {
        /// Name of the jump link.
        link: String = String::new() => Named(NameKind::JumpLink),
        /// Gravity on the jump's height (units / s², `> 0`).
        gravity: Number = n(20.0) => Num(Positive, Acceleration),
        /// Vertical take-off speed (units / s, `>= 0`).
        max_vertical_velocity: Number = n(8.0) => Num(NonNegative, Speed),
        /// How close to the take-off point the agent must be to jump (units, `>= 0`).
        position_tolerance: Number = n(0.6) => Num(NonNegative, Length),
        /// How close to the take-off velocity its velocity must be (units / s, `>= 0`).
        velocity_tolerance: Number = n(1.0) => Num(NonNegative, Speed),
        /// Length of the straight run-up before the take-off point (units, `>= 0`).
        run_up: Number = n(4.0) => Num(NonNegative, Length),
        /// `MatchVelocity`'s time to target during the run-up (s, `> 0`).
        time_to_target: Number = n(0.1) => Num(Positive, Seconds),
    };
    /// Weighted sum of the inputs.
    Blend: Combiner, Steering, Own, "Weighted sum of the inputs." {
        /// Inputs and their weights.
        inputs: Vec<WeightedInput> = two_weighted(1.0)
            => Weighted { item: "weight", constraint: Finite },
    };
    /// The first input whose force is larger than `epsilon`.
    Priority: Combiner, Steering, Own, "The first input that has something to do." {
        /// Inputs, highest priority first.
        inputs: Vec<Link> = vec![Link::NONE; 2] => Ports(PortType::Steering),
        /// Forces at most this long count as "nothing to do" (`>= 0`).
        #[serde(default = "default_epsilon")]
        epsilon: Number = n(1e-3) => Num(NonNegative, Unitless),
    };
    /// Reynolds' prioritized dithering: each input is considered with its probability.
    Dither: Combiner, Steering, Own,
        "Prioritized dithering: inputs considered by probability, in order." {
        /// Inputs, highest priority first, with their probabilities.
        inputs: Vec<ChanceInput> = vec![
            ChanceInput { node: Link::NONE, probability: n(0.5) },
            ChanceInput { node: Link::NONE, probability: n(1.0) },
        ] => Weighted { item: "probability", constraint: Probability },
        /// Forces at most this long count as "nothing to do" (`>= 0`).
        #[serde(default = "default_epsilon")]
        epsilon: Number = n(1e-3) => Num(NonNegative, Unitless),
    };
    /// Prioritized acceleration allocation: inputs share `max_force` in order.
    Budget: Combiner, Steering, Own, "Inputs share the force budget in priority order." {
        /// Inputs, highest priority first.
        inputs: Vec<Link> = vec![Link::NONE; 2] => Ports(PortType::Steering),
    };
    /// The input's force while the condition holds, else zero.
    Gate: Combiner, Steering, Own, "Passes the input only while a condition holds." {
        /// The steering input.
        input: Link = Link::NONE => STEERING,
        /// The condition input.
        condition: Link = Link::NONE => CONDITION,
    };
    /// The input's force multiplied by `factor`.
    Scale: Combiner, Steering, Own, "Multiplies a force by a factor." {
        /// The steering input.
        input: Link = Link::NONE => STEERING,
        /// Any finite factor.
        factor: Number = n(1.0) => Num(Finite, Unitless),
    };
    /// The input's force truncated to length `max`.
    Truncate: Combiner, Steering, Own, "Limits a force's length." {
        /// The steering input.
        input: Link = Link::NONE => STEERING,
        /// Longest force (`>= 0`).
        max: Number = n(1.0) => Num(NonNegative, Length),
    };
    /// Sensor: distance from the agent to a target (units).
    Distance: Condition, Scalar, Own, "Distance from the agent to a target." {
        /// What to measure to.
        target: Target = Target::default() => Point,
    };
    /// Sensor: how many neighbors are within `radius` and the field of view.
    NeighborCount: Condition, Scalar, Agents, "Number of neighbors within a radius." {
        /// Neighborhood radius (units, `>= 0`).
        radius: Number = n(5.0) => Num(NonNegative, Length),
        /// Field of view (degrees, `0..=360`).
        fov: Number = n(360.0) => Num(Angle, Degrees),
    };
    /// Sensor: the agent's own speed (units / s).
    Speed: Condition, Scalar, Own, "The agent's own speed.";
    /// Sensor: distance from the agent to the nearest wall point (units; `+inf` without
    /// walls).
    WallDistance: Condition, Scalar, Own, "Distance from the agent to the nearest wall.";
    /// Sensor: a constant or a graph parameter's value.
    Value: Condition, Scalar, Own, "A constant or a graph parameter." {
        /// The value.
        value: Number = n(1.0) => Num(Finite, Unitless),
    };
    /// Condition: compares a sensor with a threshold.
    Compare: Condition, Condition, Own, "Compares a sensor with a threshold." {
        /// The scalar input.
        sensor: Link = Link::NONE => Port(PortType::Scalar),
        /// The comparison.
        test: Comparison = Comparison::Less => Plain,
        /// The threshold.
        threshold: Number = n(1.0) => Num(Finite, Unitless),
    };
    /// Condition: a wall lies within `distance` straight ahead (the ray from the agent along
    /// its heading, `distance` long, hits a wall).
    WallAhead: Condition, Condition, Own,
        "Holds when a wall is within a distance straight ahead." {
        /// Length of the ray ahead (units, `>= 0`).
        distance: Number = n(2.0) => Num(NonNegative, Length),
    };
    /// Condition: the jump of a link is achievable for this agent (a flight time exists with
    /// a take-off velocity within its top speed), with the same numbers a Jump node uses.
    JumpAchievable: Condition, Condition, Own, "Holds when the agent can make a jump link's jump." {
        /// Name of the jump link.
        link: String = String::new() => Named(NameKind::JumpLink),
        /// Gravity on the jump's height (units / s², `> 0`).
        gravity: Number = n(20.0) => Num(Positive, Acceleration),
        /// Vertical take-off speed (units / s, `>= 0`).
        max_vertical_velocity: Number = n(8.0) => Num(NonNegative, Speed),
    };
    /// Condition: every input holds (true when there are none).
    All: Condition, Condition, Own, "Holds when every input holds." {
        /// Condition inputs.
        inputs: Vec<Link> = vec![Link::NONE; 2] => Ports(PortType::Condition),
    };
    /// Condition: at least one input holds.
    Any: Condition, Condition, Own, "Holds when any input holds." {
        /// Condition inputs.
        inputs: Vec<Link> = vec![Link::NONE; 2] => Ports(PortType::Condition),
    };
    /// Condition: the input does not hold.
    Not: Condition, Condition, Own, "Holds when its input does not." {
        /// The condition input.
        input: Link = Link::NONE => CONDITION,
    };
    /// Another graph file used as one node: the subgraph's graph parameters are this node's
    /// fields and its Output is this node's output (a steering force). The compiler inlines
    /// it, so it runs as fast as the same nodes written out.
    Subgraph: Combiner, Steering, Own,
        "Another graph file as one node: its parameters are the fields, its Output the output." {
        /// The graph file, relative to the folder of the graph that uses it.
        file: String = String::new() => Named(NameKind::GraphFile),
        /// Values for the subgraph's parameters, by name: a literal or one of this graph's
        /// parameters. A parameter not listed keeps the subgraph's default.
        #[serde(
            default,
            skip_serializing_if = "BTreeMap::is_empty",
            deserialize_with = "crate::unique::names"
        )]
        parameters: BTreeMap<String, Number> = BTreeMap::new() => Values,
    };
    /// A bend point for tidying long wires: passes its input on unchanged, whatever its type
    /// (a force, a scalar or a condition). It costs nothing at run time: the compiler links
    /// through it.
    Reroute: Combiner, Steering, Own,
        "A bend point that tidies a long wire: passes any value on unchanged." {
        /// The value passed on. A Reroute takes any type (the compiler skips its check);
        /// `Steering` is what a catalogue shows for it.
        input: Link = Link::NONE => STEERING,
    };
    /// The graph's result: its force goes to the vehicle. Exactly one per graph.
    Output: Output, Steering, Own, "The force that drives the vehicle. Exactly one per graph." {
        /// The steering input.
        input: Link = Link::NONE => STEERING,
    };
}
