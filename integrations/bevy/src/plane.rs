//! How the runtime's 2D plane maps onto Bevy's 3D space.

use bevy_math::{Quat, Vec3};

/// The plane agents move in, in Bevy's space (right-handed, y up).
///
/// The runtime is 2D with y up; [`Plane::XY`] maps its `(x, y)` to Bevy's `(x, y)` (2D games),
/// [`Plane::XZ`] to `(x, -y)` on the ground of a 3D game, so that turning left stays turning
/// left seen from above. The third coordinate of the `Transform` is left as the game set it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Plane {
    /// Runtime `(x, y)` is Bevy `(x, y)`; agents turn about +z.
    #[default]
    XY,
    /// Runtime `(x, y)` is Bevy `(x, -z)`; agents turn about +y.
    XZ,
}

impl Plane {
    /// The Bevy translation of runtime point `(x, y)`, keeping `current`'s height (z for
    /// [`Plane::XY`], y for [`Plane::XZ`]).
    pub fn place(self, x: f32, y: f32, current: Vec3) -> Vec3 {
        match self {
            Self::XY => Vec3::new(x, y, current.z),
            Self::XZ => Vec3::new(x, current.y, -y),
        }
    }

    /// The rotation that turns Bevy's +x onto the runtime heading `(x, y)` (a unit vector).
    pub fn facing(self, x: f32, y: f32) -> Quat {
        let angle = y.atan2(x);
        match self {
            Self::XY => Quat::from_rotation_z(angle),
            Self::XZ => Quat::from_rotation_y(angle),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xz_keeps_left_turns_left_seen_from_above() {
        // Heading 90° (runtime +y) maps to Bevy -z; +x rotated by the facing lands there.
        let point = Plane::XZ.place(2.0, 3.0, Vec3::new(0.0, 1.5, 0.0));
        assert_eq!(point, Vec3::new(2.0, 1.5, -3.0));
        let turned = Plane::XZ.facing(0.0, 1.0) * Vec3::X;
        assert!((turned - Vec3::NEG_Z).length() < 1e-6, "{turned}");
        let turned = Plane::XY.facing(0.0, 1.0) * Vec3::X;
        assert!((turned - Vec3::Y).length() < 1e-6, "{turned}");
        assert_eq!(
            Plane::XY.place(2.0, 3.0, Vec3::new(9.0, 9.0, -4.0)),
            Vec3::new(2.0, 3.0, -4.0)
        );
    }
}
