//! Finding points on the mesh: the triangle a point stands in, and the nearest point of the
//! mesh (or of some of its islands) to a point off it.

use glam::{DVec2, Vec2};

use super::NavMesh;

/// How far outside a triangle's edge a point may lie and still count as in it, in world units:
/// a point on the edge between two triangles is in one of them whatever the rounding.
const EDGE_TOLERANCE: f64 = 1.0e-6;

impl NavMesh {
    /// The triangle `point` stands in (the lowest-numbered one for a point on a shared edge).
    pub(super) fn locate(&self, point: Vec2) -> Option<u32> {
        let p = point.as_dvec2();
        self.index.at(p).iter().copied().find(|&t| {
            // Inside each edge, or outside by at most the tolerance (squared: no root).
            self.sides(&self.triangles[t as usize], p)
                .iter()
                .all(|&(side, length_squared)| {
                    side >= 0.0 || side * side <= EDGE_TOLERANCE * EDGE_TOLERANCE * length_squared
                })
        })
    }

    /// For each edge of `triangle` (counter-clockwise): twice the signed area `p` makes with it
    /// (positive inside: the distance from the edge's line times its length), and the edge's
    /// squared length.
    fn sides(&self, triangle: &super::NavTriangle, p: DVec2) -> [(f64, f64); 3] {
        let [a, b, c] = self.corners(triangle).map(Vec2::as_dvec2);
        [(a, b), (b, c), (c, a)].map(|(from, to)| {
            let edge = to - from;
            (edge.perp_dot(p - from), edge.length_squared())
        })
    }

    /// Whether `point` lies inside triangle `t` farther from each of its edges than four times
    /// the edge tolerance: then no other triangle holds it, and [`NavMesh::locate`] would
    /// give `t` (a hint checked this way gives the same answer as a search).
    pub(super) fn deeply_in(&self, t: u32, point: Vec2) -> bool {
        let Some(triangle) = self.triangles.get(t as usize) else {
            return false;
        };
        let margin = 4.0 * EDGE_TOLERANCE;
        (self.sides(triangle, point.as_dvec2()).iter()).all(|&(side, length_squared)| {
            side > 0.0 && side * side >= margin * margin * length_squared
        })
    }

    /// The nearest point to `point` of the triangles whose island `keep` accepts, and its
    /// triangle (the lowest-numbered among equally near ones); `point` itself when it stands
    /// in one. Looks ring by ring outwards from the point's cell and stops once no nearer
    /// point can be left: bounded by the mesh's size.
    pub(super) fn nearest(&self, point: Vec2, keep: impl Fn(u32) -> bool) -> Option<(u32, Vec2)> {
        self.nearest_within(point, keep, self.index.rings(), None)
    }

    /// [`NavMesh::nearest`] among the triangles of the point's own cell and the ring of cells
    /// round it (`None` when none is there): where an agent pressed into a wall's band stands,
    /// without a search of the whole mesh. Triangle `hint` (where the point was last found,
    /// or `NONE`) only bounds the search: the answer is the same with any hint.
    pub(super) fn nearest_close(&self, point: Vec2, hint: u32) -> Option<u32> {
        let p = point.as_dvec2();
        // A bound only from a triangle the search meets anyway, so that it is never the
        // answer unless the search would give it.
        let bound = (self.triangles.get(hint as usize))
            .map(|triangle| self.corners(triangle).map(Vec2::as_dvec2))
            .filter(|[a, b, c]| {
                let (low, high) = (a.min(*b).min(*c), a.max(*b).max(*c));
                p.is_finite() && self.index.box_within(low, high, p, 1)
            })
            .map(|[a, b, c]| closest_on_triangle(p, a, b, c).distance_squared(p));
        self.nearest_within(point, |_| true, 1, bound)
            .map(|(t, _)| t)
    }

    /// [`NavMesh::nearest`] looking at most `rings` rings of cells out. `bound`, when given,
    /// is the squared distance to a triangle among those the search looks at: a triangle
    /// whose box is clearly farther is passed over without working out its nearest point
    /// (the nearest triangle, and those as near, never are).
    fn nearest_within(
        &self,
        point: Vec2,
        keep: impl Fn(u32) -> bool,
        rings: usize,
        bound: Option<f64>,
    ) -> Option<(u32, Vec2)> {
        if let Some(t) = self.locate(point)
            && keep(self.triangles[t as usize].island)
        {
            return Some((t, point));
        }
        let p = point.as_dvec2();
        if !p.is_finite() {
            return None;
        }
        let mut best: Option<(f64, u32, DVec2)> = None;
        for ring in 0..=rings.min(self.index.rings()) {
            for t in self.index.ring(p, ring) {
                let triangle = &self.triangles[t as usize];
                if !keep(triangle.island) {
                    continue;
                }
                let [a, b, c] = self.corners(triangle).map(Vec2::as_dvec2);
                let cap = best.map_or(bound, |(d, _, _)| Some(bound.map_or(d, |b| b.min(d))));
                if cap.is_some_and(|cap| clearly_beyond(p, [a, b, c], cap)) {
                    continue;
                }
                let q = closest_on_triangle(p, a, b, c);
                let d = q.distance_squared(p);
                if best.is_none_or(|(bd, bt, _)| d < bd || (d == bd && t < bt)) {
                    best = Some((d, t, q));
                }
            }
            let reach = ring as f64 * self.index.cell_size();
            if best.is_some_and(|(d, _, _)| d <= reach * reach) {
                break;
            }
        }
        best.map(|(_, t, q)| (t, q.as_vec2()))
    }
}

/// Whether every point of triangle `corners` is farther from `p` than the squared distance
/// `cap`, by more than any rounding of [`closest_on_triangle`] (a ten-thousandth of it, and
/// 1e-9): the distance to the triangle's box is a lower bound on the distance to it.
fn clearly_beyond(p: DVec2, [a, b, c]: [DVec2; 3], cap: f64) -> bool {
    let (low, high) = (a.min(b).min(c), a.max(b).max(c));
    let gap = (low - p).max(p - high).max(DVec2::ZERO);
    gap.length_squared() > cap * 1.0001 + 1e-9
}

/// The point of triangle `a`, `b`, `c` nearest to `p` (Ericson, "Real-Time Collision
/// Detection", 5.1.5: by the Voronoi region of the triangle's features `p` lies in).
pub(super) fn closest_on_triangle(p: DVec2, a: DVec2, b: DVec2, c: DVec2) -> DVec2 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denominator = va + vb + vc;
    if denominator.abs() < f64::MIN_POSITIVE {
        return a;
    }
    a + ab * (vb / denominator) + ac * (vc / denominator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_point_is_a_corner_an_edge_point_or_the_point_itself() {
        let (a, b, c) = (DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(0.0, 4.0));
        assert_eq!(closest_on_triangle(DVec2::new(-1.0, -1.0), a, b, c), a);
        assert_eq!(
            closest_on_triangle(DVec2::new(2.0, -3.0), a, b, c),
            DVec2::new(2.0, 0.0)
        );
        assert_eq!(
            closest_on_triangle(DVec2::new(3.0, 3.0), a, b, c),
            DVec2::new(2.0, 2.0)
        );
        assert_eq!(
            closest_on_triangle(DVec2::new(1.0, 1.0), a, b, c),
            DVec2::new(1.0, 1.0)
        );
    }
}
