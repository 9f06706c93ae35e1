//! Group behaviors: neighborhoods (radius and field of view), the neighbor sums every group
//! node finishes from, separation, cohesion, alignment and flocking (`BEHAVIORS.md`).

use glam::Vec2;
use wide::{CmpGe, CmpLt, f32x4};

use super::{Quarry, arrival};
use crate::Vehicle;
use crate::math::{TINY, TINY_SQUARED, local, normalize, sign};

/// How far below `cos(fov / 2)` the cosine of a neighbor's angle may be and still count as on
/// the edge of the view (`BEHAVIORS.md`, "Neighborhoods"). f32 rounding of positions, of the
/// distance and of `cos(135 degrees)` moves the computed cosine of an exact-edge neighbor by a
/// few `1e-7`; this keeps such a neighbor (every diagonal neighbor behind an agent on a grid,
/// for the default 270 degrees) inside the view.
pub const FOV_COSINE_TOLERANCE: f32 = 1e-6;

/// A field of view, prepared once per evaluation from its angle in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldOfView {
    /// `cos(fov / 2) - FOV_COSINE_TOLERANCE`; `None` for a full circle (`fov >= 360`).
    min_cosine: Option<f32>,
    /// The angle it was made from, in degrees.
    degrees: f32,
}

impl FieldOfView {
    /// A field of view of `degrees` (`>= 360` sees everything; negative or NaN sees only
    /// straight ahead, like `0`).
    pub fn from_degrees(degrees: f32) -> Self {
        if degrees >= 360.0 {
            Self {
                min_cosine: None,
                degrees,
            }
        } else {
            Self {
                min_cosine: Some(
                    (degrees.max(0.0).to_radians() * 0.5).cos() - FOV_COSINE_TOLERANCE,
                ),
                degrees,
            }
        }
    }

    /// `cos(fov / 2) - 1e-6`, what [`FieldOfView::sees`] compares the cosine of a neighbor's
    /// angle with; `None` for a full circle.
    pub fn min_cosine(self) -> Option<f32> {
        self.min_cosine
    }

    /// The angle in degrees.
    pub fn degrees(self) -> f32 {
        self.degrees
    }

    /// Whether this view sees all around (360° or more): [`FieldOfView::sees`] is then
    /// always true.
    #[inline]
    pub fn is_full_circle(self) -> bool {
        self.min_cosine.is_none()
    }

    /// Whether `offset` (from the agent to the other) is within the view around `forward`:
    /// `forward · offset >= (cos(fov / 2) - 1e-6) * |offset|`, so a neighbor exactly on the
    /// edge counts. A coincident agent (`|offset| < 1e-6`) counts as seen.
    #[inline]
    pub fn sees(self, forward: Vec2, offset: Vec2) -> bool {
        let Some(min_cosine) = self.min_cosine else {
            return true;
        };
        let distance = offset.length();
        distance < TINY || forward.dot(offset) >= min_cosine * distance
    }

    /// [`FieldOfView::sees`] for four offsets at once, lane `i` being `(dx[i], dy[i])`: bit
    /// `i` of the answer is lane `i`'s. The same operations in the same order on each lane
    /// (IEEE's, square root included), so the same answers to the bit; the k-d tree tests a
    /// leaf's agents this way, four square roots in one instruction.
    #[inline]
    pub(crate) fn sees_lanes(self, forward: Vec2, dx: f32x4, dy: f32x4) -> u32 {
        let Some(min_cosine) = self.min_cosine else {
            return 0b1111;
        };
        let distance = (dx * dx + dy * dy).sqrt();
        let near = distance.cmp_lt(f32x4::splat(TINY));
        let dot = f32x4::splat(forward.x) * dx + f32x4::splat(forward.y) * dy;
        let inside = dot.cmp_ge(f32x4::splat(min_cosine) * distance);
        (near | inside).move_mask() as u32 & 0b1111
    }
}

/// The neighborhood test (`BEHAVIORS.md`, "Neighborhoods"): `|q.p - p| < radius` and within the field of view.
#[inline]
pub fn in_neighborhood(vehicle: &Vehicle, other: Vec2, radius: f32, fov: FieldOfView) -> bool {
    let offset = other - vehicle.position;
    // `&`, not `&&`: both tests are cheap and have no effects, and a scan over a cell's agents
    // runs without a branch to mispredict.
    (offset.length_squared() < radius * radius) & fov.sees(vehicle.forward, offset)
}

/// Most neighbors `NeighborCount` counts (`BEHAVIORS.md`, "Sensors and conditions"): a
/// denser neighborhood reads this many. Counting stops there, so a crowd stacked on one point
/// costs each agent at most about this many tests, not the whole crowd (20,000 stacked agents
/// took 0.35 s per tick counted in full; issue 28).
pub const MAX_COUNTED_NEIGHBORS: usize = 1_024;

/// `NeighborCount`: how many of the `candidates` (positions and agent indices, in runs) other
/// than agent `exclude` are in `vehicle`'s neighborhood of `radius` and `fov`, up to
/// [`MAX_COUNTED_NEIGHBORS`]. The count does not depend on the order of the candidates.
#[expect(
    clippy::needless_bitwise_bool,
    reason = "`&` keeps the count free of branches; both sides are plain comparisons"
)]
pub fn count_neighbors<'a>(
    vehicle: &Vehicle,
    candidates: impl IntoIterator<Item = (&'a [Vec2], &'a [u32])>,
    exclude: usize,
    (radius, fov): (f32, FieldOfView),
) -> usize {
    let mut count = 0;
    for (positions, agents) in candidates {
        // In chunks, so that a run of a whole stacked crowd stops soon after the limit.
        for (positions, agents) in positions.chunks(256).zip(agents.chunks(256)) {
            for (&position, &agent) in positions.iter().zip(agents) {
                count += usize::from(
                    in_neighborhood(vehicle, position, radius, fov) & (agent as usize != exclude),
                );
            }
            if count >= MAX_COUNTED_NEIGHBORS {
                return MAX_COUNTED_NEIGHBORS;
            }
        }
    }
    count
}

/// The neighbor sums of `vehicle` for each of several neighborhoods (radius and field of
/// view), into `sums` (one per neighborhood), from `near`: the other agents within the widest
/// radius as [`SpatialGrid::near`](crate::SpatialGrid::near) lists them, positions and
/// velocities in the grid's order (`BEHAVIORS.md`, "Neighborhoods"). That order depends on the
/// positions, the cell size and the agent indices alone, so the sums are the same for any
/// thread count and any order the caller keeps its agents in; a neighborhood's sums do not
/// depend on the other neighborhoods listed with it.
// Called once per agent-tick from the evaluator's neighbor pass: left to the compiler's
// heuristics it was once called out of line there, 17 more instructions per Boids agent-tick.
#[inline]
pub fn neighbor_sums_each<N: Neighborhood>(
    vehicle: &Vehicle,
    near: &[(Vec2, Vec2)],
    neighborhoods: &[N],
    sums: &mut [NeighborSums],
) {
    for (sums, neighborhood) in sums.iter_mut().zip(neighborhoods) {
        let (radius, fov) = neighborhood.radius_and_view();
        let mut pass = NeighborSums::default();
        for &(position, velocity) in near {
            let counts = in_neighborhood(vehicle, position, radius, fov);
            pass.add_if(vehicle.position, position, velocity, counts);
        }
        *sums = pass;
    }
}

/// A neighborhood as a neighbor pass lists it: its radius and field of view (a group node's
/// pass also carries its most neighbors, which the sums over a list do not read).
pub trait Neighborhood: Copy {
    /// The radius and the field of view.
    fn radius_and_view(self) -> (f32, FieldOfView);
}

impl Neighborhood for (f32, FieldOfView) {
    #[inline]
    fn radius_and_view(self) -> (f32, FieldOfView) {
        self
    }
}

impl Neighborhood for (f32, FieldOfView, usize) {
    #[inline]
    fn radius_and_view(self) -> (f32, FieldOfView) {
        (self.0, self.1)
    }
}

/// `value` when `keep`, else zero, by a bit mask: the compiler cannot turn it into a branch.
#[inline]
fn masked(value: Vec2, keep: bool) -> Vec2 {
    let mask = u32::from(keep).wrapping_neg();
    Vec2::new(
        f32::from_bits(value.x.to_bits() & mask),
        f32::from_bits(value.y.to_bits() & mask),
    )
}

/// The sums over one neighborhood that Separation, Cohesion, Alignment and Flocking need,
/// gathered in one pass (`BEHAVIORS.md`, "Separation, Cohesion, Alignment, Flocking"). The
/// four formulas below finish from them, so a graph whose group nodes share a radius and field
/// of view visits its neighbors once for all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NeighborSums {
    /// `Σ (p - q.p) / |p - q.p|²`, coincident neighbors skipped.
    pub separation: Vec2,
    /// `Σ q.p`.
    pub position: Vec2,
    /// `Σ q.v`.
    pub velocity: Vec2,
    /// How many neighbors were added.
    pub count: u32,
}

impl NeighborSums {
    /// Adds neighbor `(other_position, other_velocity)` of an agent at `me`.
    #[inline]
    pub fn add(&mut self, me: Vec2, other_position: Vec2, other_velocity: Vec2) {
        self.add_if(me, other_position, other_velocity, true);
    }

    /// Adds the neighbor when `counts`, without a branch: a loop over a cell's agents can test
    /// the distance and add in one straight pass. Adding nothing is exact (`x + 0 = x`), so
    /// the sums equal those of [`NeighborSums::add`] over the counted neighbors alone.
    #[inline]
    #[expect(
        clippy::needless_bitwise_bool,
        reason = "`&` keeps the scan free of branches; both sides are plain comparisons"
    )]
    pub fn add_if(&mut self, me: Vec2, other_position: Vec2, other_velocity: Vec2, counts: bool) {
        let away = me - other_position;
        let distance_squared = away.length_squared();
        // `|away| >= TINY`, without the square root (`TINY_SQUARED`).
        let repels = counts & (distance_squared >= TINY_SQUARED);
        // Masks, not branches: a scan over a cell's agents adds or not without a jump.
        self.separation += masked(away / distance_squared, repels);
        self.position += masked(other_position, counts);
        self.velocity += masked(other_velocity, counts);
        self.count += u32::from(counts);
    }

    /// Sums over `neighbors`, in the order given.
    pub fn over<'a>(vehicle: &Vehicle, neighbors: impl IntoIterator<Item = &'a Vehicle>) -> Self {
        let mut sums = Self::default();
        for other in neighbors {
            sums.add(vehicle.position, other.position, other.velocity);
        }
        sums
    }

    /// Separation: `F = Σ (p - q.p) / |p - q.p|²`.
    #[inline]
    pub fn separation(&self) -> Vec2 {
        self.separation
    }

    /// Cohesion: `F = mean(q.p) - p`; no neighbors: zero.
    #[inline]
    pub fn cohesion(&self, vehicle: &Vehicle) -> Vec2 {
        if self.count == 0 {
            Vec2::ZERO
        } else {
            self.position / self.count as f32 - vehicle.position
        }
    }

    /// Alignment: `F = mean(q.v) - v`; no neighbors: zero.
    #[inline]
    pub fn alignment(&self, vehicle: &Vehicle) -> Vec2 {
        if self.count == 0 {
            Vec2::ZERO
        } else {
            self.velocity / self.count as f32 - vehicle.velocity
        }
    }

    /// Flocking: `F = w_sep · normalize(Sep) + w_coh · normalize(Coh) + w_ali · normalize(Ali)`;
    /// no neighbors: zero.
    #[inline]
    pub fn flocking(
        &self,
        vehicle: &Vehicle,
        separation_weight: f32,
        cohesion_weight: f32,
        alignment_weight: f32,
    ) -> Vec2 {
        if self.count == 0 {
            return Vec2::ZERO;
        }
        separation_weight * normalize(self.separation())
            + cohesion_weight * normalize(self.cohesion(vehicle))
            + alignment_weight * normalize(self.alignment(vehicle))
    }
}

/// `F = Σ (p - q.p) / |p - q.p|²` over the neighbors, skipping coincident ones.
pub fn separation<'a>(vehicle: &Vehicle, neighbors: impl IntoIterator<Item = &'a Vehicle>) -> Vec2 {
    NeighborSums::over(vehicle, neighbors).separation()
}

/// `F = mean(q.p) - p`; no neighbors: zero.
pub fn cohesion<'a>(vehicle: &Vehicle, neighbors: impl IntoIterator<Item = &'a Vehicle>) -> Vec2 {
    NeighborSums::over(vehicle, neighbors).cohesion(vehicle)
}

/// `F = mean(q.v) - v`; no neighbors: zero.
pub fn alignment<'a>(vehicle: &Vehicle, neighbors: impl IntoIterator<Item = &'a Vehicle>) -> Vec2 {
    NeighborSums::over(vehicle, neighbors).alignment(vehicle)
}

/// `F = w_sep · normalize(Sep) + w_coh · normalize(Coh) + w_ali · normalize(Ali)` over one
/// neighborhood, in one pass.
pub fn flocking<'a>(
    vehicle: &Vehicle,
    neighbors: impl IntoIterator<Item = &'a Vehicle>,
    separation_weight: f32,
    cohesion_weight: f32,
    alignment_weight: f32,
) -> Vec2 {
    NeighborSums::over(vehicle, neighbors).flocking(
        vehicle,
        separation_weight,
        cohesion_weight,
        alignment_weight,
    )
}

/// Step aside at full force when inside the leader's sight zone
/// (`0 < l.x < sight_length`, `|l.y| < sight_width / 2` in the leader's frame); otherwise
/// arrive at the point `behind` units behind the leader.
pub fn leader_following(
    vehicle: &Vehicle,
    leader: &Quarry,
    behind: f32,
    slowing_distance: f32,
    sight_length: f32,
    sight_width: f32,
) -> Vec2 {
    let l = local(vehicle.position - leader.position, leader.forward);
    if l.x > 0.0 && l.x < sight_length && l.y.abs() < sight_width * 0.5 {
        return sign(l.y) * leader.forward.perp() * vehicle.max_force;
    }
    arrival(
        vehicle,
        leader_behind_point(leader, behind),
        slowing_distance,
    )
}

/// The point a follower arrives at: `behind` units behind the leader,
/// `leader.p - leader.forward * behind`.
#[inline]
pub fn leader_behind_point(leader: &Quarry, behind: f32) -> Vec2 {
    leader.position - leader.forward * behind
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four lanes at once answer as four calls of `sees` would, at the edges included: exactly
    /// on the edge of 270° and 90° views (diagonals behind and beside), coincident and nearly
    /// coincident agents, huge offsets, and a spread of angles all around.
    #[test]
    fn four_lanes_see_what_four_calls_see() {
        let mut offsets = vec![
            Vec2::ZERO,
            Vec2::splat(1e-7),
            Vec2::new(-1.0, -1.0),
            Vec2::new(-1.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(-3.0, 3.000_000_2),
            Vec2::new(1e30, -1e30),
            Vec2::new(-0.0, 0.0),
        ];
        offsets.extend((0..4_000).map(|i| {
            let angle = i as f32 * 0.0173;
            Vec2::new(angle.cos(), angle.sin()) * (0.001 + (i % 97) as f32 * 0.37)
        }));
        let forwards = [
            Vec2::X,
            Vec2::new(0.6, -0.8),
            Vec2::new(-0.707_106_77, 0.707_106_77),
        ];
        for degrees in [0.0, 90.0, 120.0, 180.0, 270.0, 359.0, 360.0] {
            let fov = FieldOfView::from_degrees(degrees);
            for forward in forwards {
                for four in offsets.chunks(4) {
                    let lane = |i: usize| four.get(i).copied().unwrap_or(Vec2::ZERO);
                    let dx = f32x4::new([0, 1, 2, 3].map(|i| lane(i).x));
                    let dy = f32x4::new([0, 1, 2, 3].map(|i| lane(i).y));
                    let expected = (0..4).fold(0, |mask, i| {
                        mask | (u32::from(fov.sees(forward, lane(i))) << i)
                    });
                    assert_eq!(
                        fov.sees_lanes(forward, dx, dy),
                        expected,
                        "{degrees}°, forward {forward}, offsets {four:?}"
                    );
                }
            }
        }
    }
}
