//! What a steering graph asks of a vehicle for one tick: a linear force and an angular
//! acceleration (`BEHAVIORS.md`, "The angular layer").

use std::ops::{Add, AddAssign, Mul};

use glam::Vec2;

/// One tick's steering: the linear force `F` (mass · units / s²) and the angular
/// acceleration `τ` (radians / s², counter-clockwise positive).
///
/// Linear nodes give `angular = 0`, angular nodes (`ReachOrientation`, Face,
/// `LookWhereYouAreGoing`) `force = 0`; combiners combine both parts. A vehicle without
/// independent facing ignores the angular part. A `Vec2` converts to a steering without an
/// angular part, so [`crate::Vehicle::step`] takes either.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Steering {
    /// The linear force.
    pub force: Vec2,
    /// The angular acceleration.
    pub angular: f32,
}

impl Steering {
    /// No steering at all.
    pub const ZERO: Self = Self {
        force: Vec2::ZERO,
        angular: 0.0,
    };

    /// A linear force alone.
    #[inline]
    pub const fn force(force: Vec2) -> Self {
        Self {
            force,
            angular: 0.0,
        }
    }

    /// An angular acceleration alone.
    #[inline]
    pub const fn angular(angular: f32) -> Self {
        Self {
            force: Vec2::ZERO,
            angular,
        }
    }

    /// `sqrt(|F|² + τ²)`: what Priority and Dither compare with their epsilon. With `τ = 0`
    /// it is exactly `|F|`.
    #[inline]
    pub fn magnitude(self) -> f32 {
        (self.force.length_squared() + self.angular * self.angular).sqrt()
    }

    /// Whether both parts are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.force.is_finite() && self.angular.is_finite()
    }
}

impl From<Vec2> for Steering {
    #[inline]
    fn from(force: Vec2) -> Self {
        Self::force(force)
    }
}

impl Add for Steering {
    type Output = Self;

    #[inline]
    fn add(self, other: Self) -> Self {
        Self {
            force: self.force + other.force,
            angular: self.angular + other.angular,
        }
    }
}

impl AddAssign for Steering {
    #[inline]
    fn add_assign(&mut self, other: Self) {
        *self = *self + other;
    }
}

impl Mul<Steering> for f32 {
    type Output = Steering;

    #[inline]
    fn mul(self, steering: Steering) -> Steering {
        Steering {
            force: self * steering.force,
            angular: self * steering.angular,
        }
    }
}
