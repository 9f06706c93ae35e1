//! Wall avoidance (feelers), wall following and the wall sensors (`BEHAVIORS.md`).

use glam::Vec2;

use crate::Vehicle;
use crate::math::{normalize, truncate};
use crate::world::{WallHit, WallIndex, WallPoint, facing_normal};

use super::{detection_length, seek};

/// How many wall segments near the agent push it away at most: the nearest ones within
/// `radius + margin` (`BEHAVIORS.md`, "`WallAvoidance`").
pub const WALL_CONTACTS: usize = 4;

/// One feeler of wall avoidance: a ray from the agent's position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feeler {
    /// Unit direction.
    pub direction: Vec2,
    /// Length (units, `>= 0`).
    pub length: f32,
}

impl Feeler {
    /// The far end of the feeler from `position`: `position + direction * length`.
    pub fn tip(&self, position: Vec2) -> Vec2 {
        position + self.direction * self.length
    }
}

/// Wall avoidance's three feelers, in order: the central one along `forward`, of length
/// `L = min_length + |v| * lookahead_time`; the left whisker, `forward` turned by
/// `+whisker_angle` (degrees), and the right one, turned by `-whisker_angle`, both of length
/// `L * 0.5`.
pub fn wall_feelers(
    vehicle: &Vehicle,
    min_length: f32,
    lookahead_time: f32,
    whisker_angle: f32,
) -> [Feeler; 3] {
    let length = detection_length(vehicle, min_length, lookahead_time);
    let forward = vehicle.forward;
    // One sine and cosine for both whiskers: `sin(-a) = -sin(a)` and `cos(-a) = cos(a)` hold
    // to the bit (the library computes both on `|a|`), so the right whisker is `forward`
    // rotated by `-a` exactly (tested).
    let turn = Vec2::from_angle(whisker_angle.to_radians());
    let back = Vec2::new(turn.x, -turn.y);
    [
        Feeler {
            direction: forward,
            length,
        },
        Feeler {
            direction: turn.rotate(forward),
            length: length * 0.5,
        },
        Feeler {
            direction: back.rotate(forward),
            length: length * 0.5,
        },
    ]
}

/// Steers away from walls (`BEHAVIORS.md`, "`WallAvoidance`"): each feeler that crosses a wall
/// pushes along that wall's normal in proportion to how far the feeler reaches past it; a
/// blocked central feeler also turns the agent towards the freer whisker (left on a tie); and
/// each of the [`WALL_CONTACTS`] nearest wall segments within `radius + margin` pushes the
/// agent straight away from its nearest point. The sum is truncated to `max_force`. No wall in
/// reach: zero.
pub fn wall_avoidance(
    vehicle: &Vehicle,
    walls: &WallIndex,
    min_length: f32,
    lookahead_time: f32,
    whisker_angle: f32,
    margin: f32,
) -> Vec2 {
    if walls.is_empty() {
        return Vec2::ZERO;
    }
    let p = vehicle.position;
    let max_force = vehicle.max_force;
    let reach = vehicle.radius + margin;
    // No wall within the longest feeler (the central one) or the clearance: nothing below
    // can find one, and the whiskers' directions need not be worked out.
    let longest = detection_length(vehicle, min_length, lookahead_time);
    let far = Vec2::splat(longest.max(reach));
    if far.is_finite() && !walls.may_touch(p - far, p + far) {
        return Vec2::ZERO;
    }
    let feelers = wall_feelers(vehicle, min_length, lookahead_time, whisker_angle);
    let mut force = Vec2::ZERO;
    let mut free = [0.0_f32; 3];
    let hits = walls.ray_casts(p, feelers.map(|feeler| feeler.tip(p)));
    for ((feeler, free), hit) in feelers.iter().zip(&mut free).zip(hits) {
        *free = feeler.length;
        if feeler.length.is_nan() || feeler.length <= 0.0 {
            continue;
        }
        if let Some(hit) = hit {
            *free = hit.distance;
            let penetration = (feeler.length - hit.distance).max(0.0);
            force += hit.normal * (max_force * penetration / feeler.length);
        }
    }
    let [central, ..] = feelers;
    let [central_free, left_free, right_free] = free;
    if central_free < central.length {
        let turn = if left_free >= right_free { 1.0 } else { -1.0 };
        let penetration = central.length - central_free;
        force +=
            (vehicle.side() * turn - vehicle.forward) * (max_force * penetration / central.length);
    }
    if reach > 0.0 {
        let mut buffer = [WallPoint::default(); WALL_CONTACTS];
        let contacts = walls.nearest_several(p, reach, &mut buffer);
        for (at, contact) in contacts.iter().enumerate() {
            let seen = contacts
                .get(..at)
                .is_some_and(|earlier| earlier.iter().any(|e| e.point == contact.point));
            if seen {
                continue;
            }
            let mut direction = normalize(p - contact.point);
            if direction == Vec2::ZERO {
                direction = walls
                    .segments()
                    .get(contact.segment)
                    .map_or(Vec2::ZERO, |&(a, b)| {
                        facing_normal(p, vehicle.forward, a, b)
                    });
            }
            force += direction * (max_force * (reach - contact.distance) / reach);
        }
    }
    truncate(force, max_force)
}

/// The distance from the agent to the nearest wall point (units); `+inf` without walls.
pub fn wall_distance(vehicle: &Vehicle, walls: &WallIndex) -> f32 {
    walls
        .nearest(vehicle.position, f32::INFINITY)
        .map_or(f32::INFINITY, |near| near.distance)
}

/// Where the ray along the agent's heading, `distance` long, first meets a wall
/// (`BEHAVIORS.md`, "`WallAhead`"): the ray cast from `p` to `p + forward * distance`. `None`
/// without walls, for `distance <= 0` and for a `distance` that is not finite.
pub fn wall_ahead_hit(vehicle: &Vehicle, walls: &WallIndex, distance: f32) -> Option<WallHit> {
    if !distance.is_finite() || distance <= 0.0 {
        return None;
    }
    let p = vehicle.position;
    walls.ray_cast(p, p + vehicle.forward * distance)
}

/// Whether a wall lies within `distance` (units) straight ahead of the agent: the condition
/// `WallAhead` (`BEHAVIORS.md`, "Sensors and conditions"). See [`wall_ahead_hit`].
pub fn wall_ahead(vehicle: &Vehicle, walls: &WallIndex, distance: f32) -> bool {
    wall_ahead_hit(vehicle, walls, distance).is_some()
}

/// Wall following's aim point (`BEHAVIORS.md`, "`WallFollowing`"): with `q` the nearest wall
/// point within `range` and `n` the unit vector from it to the agent, the point `offset` off
/// the wall, `max(|v| * lookahead_time, radius)` ahead along it: `q + n * offset + t * a` with
/// `t = side * n.perp()`. `side` is `+1` to keep the wall on the agent's left, `-1` on its
/// right. Returns `(q, aim)`, the nearest wall point with the aim (the guide draws both);
/// `None` when no wall is within `range`.
pub fn wall_following_aim(
    vehicle: &Vehicle,
    walls: &WallIndex,
    side: f32,
    offset: f32,
    lookahead_time: f32,
    range: f32,
) -> Option<(Vec2, Vec2)> {
    let p = vehicle.position;
    let near = walls.nearest(p, range)?;
    let mut normal = normalize(p - near.point);
    if normal == Vec2::ZERO {
        let &(a, b) = walls.segments().get(near.segment)?;
        normal = facing_normal(p, vehicle.forward, a, b);
    }
    let tangent = normal.perp() * side;
    let ahead = (vehicle.velocity.length() * lookahead_time).max(vehicle.radius);
    Some((near.point, near.point + normal * offset + tangent * ahead))
}

/// Reynolds' wall following (`BEHAVIORS.md`, "`WallFollowing`"): Seek of
/// [`wall_following_aim`]; zero when no wall is within `range`.
pub fn wall_following(
    vehicle: &Vehicle,
    walls: &WallIndex,
    side: f32,
    offset: f32,
    lookahead_time: f32,
    range: f32,
) -> Vec2 {
    wall_following_aim(vehicle, walls, side, offset, lookahead_time, range)
        .map_or(Vec2::ZERO, |(_, aim)| seek(vehicle, aim))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VehicleParams;
    use crate::math::rotate;

    /// The whiskers share one sine and cosine: each is `forward` turned by `±whisker_angle`
    /// exactly as `rotate` turns it, to the bit, for angles of either sign and any heading.
    #[test]
    fn the_whiskers_are_the_heading_rotated_both_ways_to_the_bit() {
        for heading in 0..64 {
            let velocity = Vec2::from_angle(heading as f32 * 0.1 + 0.03) * 2.0;
            let vehicle = Vehicle::new(Vec2::ZERO, velocity, VehicleParams::default());
            for angle in [
                -170.0, -40.0, -0.5, 0.0, 1e-3, 12.5, 40.0, 45.0, 90.0, 135.0, 359.0,
            ] {
                let [_, left, right] = wall_feelers(&vehicle, 2.0, 1.0, angle);
                let radians = f32::to_radians(angle);
                assert_eq!(left.direction, rotate(vehicle.forward, radians), "{angle}");
                assert_eq!(
                    right.direction,
                    rotate(vehicle.forward, -radians),
                    "{angle}"
                );
            }
        }
    }
}
