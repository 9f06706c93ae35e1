//! The plain values nodes are made of: port types, slots, ranges, directions, sides,
//! rectangles, comparisons and the entries of weighted input lists.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Link, Number};
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

/// What a numeric field measures, for showing its unit (world units `u`, seconds, degrees).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A distance (`u`).
    Length,
    /// A speed (`u/s`).
    Speed,
    /// An acceleration (`u/s²`).
    Acceleration,
    /// A time (`s`).
    Seconds,
    /// An angle (`°`).
    Degrees,
    /// An angular speed (`°/s`).
    DegreesPerSecond,
    /// An angular acceleration (`°/s²`).
    DegreesPerSecondSquared,
    /// A weight, a probability, a count, a factor: no unit.
    Unitless,
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

/// The default of Reciprocal's `clearance` and `keep_right`.
pub(super) fn zero() -> Number {
    Number::Literal(0.0)
}

/// The default of Priority's and Dither's `epsilon`.
pub(super) fn default_epsilon() -> Number {
    Number::Literal(1e-3)
}
