//! What an op's operands resolve to: numbers (a constant or a parameter slot), fields of
//! view, targets, headings, velocities, and slices of the program's list tables.

use crate::behaviors::FieldOfView;

use super::ParamValues;

/// The name tables of a program: the names an op refers to by index (its paths, flow fields,
/// targets, tags, own goals and routes, jump links), each interned once.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Names {
    Paths = 0,
    Fields = 1,
    Targets = 2,
    Tags = 3,
    Own = 4,
    JumpLinks = 5,
}

/// A number resolved by the compiler: a constant or a parameter slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Const(f32),
    Param(u16),
}

impl Num {
    #[inline]
    pub(crate) fn get(self, params: &ParamValues) -> f32 {
        match self {
            Self::Const(value) => value,
            Self::Param(slot) => {
                // Values are made for the program whose slots these are.
                debug_assert!(
                    (slot as usize) < params.values.len(),
                    "parameter slot {slot} of {}",
                    params.values.len()
                );
                params.values.get(slot as usize).copied().unwrap_or(0.0)
            }
        }
    }
}

/// A field of view resolved by the compiler: prepared once when it is a literal, so the
/// per-agent evaluation does no trigonometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fov {
    Const(FieldOfView),
    Param(u16),
}

impl Fov {
    #[inline]
    pub(crate) fn get(self, params: &ParamValues) -> FieldOfView {
        match self {
            Self::Const(fov) => fov,
            Self::Param(slot) => FieldOfView::from_degrees(Num::Param(slot).get(params)),
        }
    }
}

/// A target resolved by the compiler: a point, or an index into the program's name tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TargetRef {
    Point(Num, Num),
    Named(u16),
    Tagged(u16),
    /// The agent's own point, by its index in the program's own names.
    Own(u16),
}

/// Where a `ReachOrientation` turns, resolved: an angle (radians), a vector, or a target's
/// facing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum HeadingRef {
    /// Degrees in the asset; the evaluator converts.
    Angle(Num),
    Direction(Num, Num),
    Of(TargetRef),
}

/// The velocity a `MatchVelocity` matches, resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum VelocityRef {
    Fixed(Num, Num),
    Of(TargetRef),
}

/// `ReachOrientation`'s three numbers (the two angles in degrees).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AlignNums {
    pub tolerance: Num,
    pub deceleration_radius: Num,
    pub time_to_target: Num,
}

/// A Jump's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct JumpNums {
    pub gravity: Num,
    pub max_vertical_velocity: Num,
    pub position_tolerance: Num,
    pub velocity_tolerance: Num,
    pub run_up: Num,
    pub time_to_target: Num,
}

/// A slice of one of the program's list tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}
