//! Where an agent's centre may not stand: every wall segment, obstacle and gap grown by the
//! agent's radius, as shapes the navigation mesh's triangles are sorted by.

use glam::DVec2;

use super::grid::CellIndex;
use crate::Gap;

/// Sides of the polygon that stands for a circle obstacle. The polygon circumscribes the
/// grown circle, so a route that clears it clears the circle.
pub(super) const DISC_SIDES: usize = 16;

/// A region an agent's centre may not enter.
pub(super) enum Shape {
    /// A convex polygon, counter-clockwise: a wall segment's band, an obstacle.
    Convex(Vec<DVec2>),
    /// The inside of a gap ([`Gap::contains`], the even-odd rule), its corners beside it. (The
    /// band along its edges is made of `Convex` shapes, so a point this tests in `f32` is
    /// never within the clearance of an edge.)
    Area(Gap, Vec<DVec2>),
}

impl Shape {
    /// The band around the segment `a`–`b`: every point within `radius` of it along its
    /// normal, and `radius` past each end (square caps, so a route around a wall's end turns
    /// at a corner whose place is exact: `radius` out and `radius` past the end).
    pub(super) fn band(a: DVec2, b: DVec2, radius: f64) -> Self {
        let along = (b - a).try_normalize().unwrap_or(DVec2::X) * radius;
        let side = along.perp();
        Self::Convex(vec![
            a - along - side,
            b + along - side,
            b + along + side,
            a - along + side,
        ])
    }

    /// A circle of `radius` around `centre`, as a polygon of [`DISC_SIDES`] sides around it.
    pub(super) fn disc(centre: DVec2, radius: f64) -> Self {
        let step = std::f64::consts::TAU / DISC_SIDES as f64;
        let corner = radius / (step / 2.0).cos();
        Self::Convex(
            (0..DISC_SIDES)
                .map(|i| centre + DVec2::from_angle(step * i as f64) * corner)
                .collect(),
        )
    }

    /// The corners, in order.
    pub(super) fn corners(&self) -> &[DVec2] {
        match self {
            Self::Convex(corners) | Self::Area(_, corners) => corners,
        }
    }

    /// The edges, each from a corner to the next.
    pub(super) fn edges(&self) -> impl Iterator<Item = (DVec2, DVec2)> + '_ {
        let corners = self.corners();
        (0..corners.len()).map(move |i| (corners[i], corners[(i + 1) % corners.len()]))
    }

    /// The smallest axis-aligned box around the shape.
    pub(super) fn bounds(&self) -> (DVec2, DVec2) {
        self.corners().iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        )
    }

    /// Whether `point` is strictly inside (a point on an edge is not).
    pub(super) fn contains(&self, point: DVec2) -> bool {
        match self {
            Self::Convex(corners) => {
                self.edges().all(|(a, b)| (b - a).perp_dot(point - a) > 0.0) && corners.len() >= 3
            }
            Self::Area(gap, _) => gap.contains(point.as_vec2()),
        }
    }
}

/// Whether any of `shapes` contains `point`, asking only the shapes `index` lists in the
/// point's cell (an index built over the shapes' boxes).
pub(super) fn blocked(shapes: &[Shape], index: &CellIndex, point: DVec2) -> bool {
    index
        .at(point)
        .iter()
        .any(|&shape| shapes[shape as usize].contains(point))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_reaches_the_radius_out_and_past_each_end() {
        let band = Shape::band(DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0), 0.5);
        assert_eq!(
            band.corners(),
            [
                DVec2::new(-0.5, -0.5),
                DVec2::new(4.5, -0.5),
                DVec2::new(4.5, 0.5),
                DVec2::new(-0.5, 0.5)
            ]
        );
        assert!(band.contains(DVec2::new(4.4, 0.4)));
        assert!(!band.contains(DVec2::new(4.6, 0.0)));
        assert!(!band.contains(DVec2::new(2.0, 0.5)), "an edge is outside");
    }

    #[test]
    fn a_disc_circumscribes_its_circle() {
        let disc = Shape::disc(DVec2::new(1.0, 1.0), 2.0);
        // The middle of each side is exactly the radius from the centre.
        for (a, b) in disc.edges() {
            assert!((((a + b) / 2.0).distance(DVec2::new(1.0, 1.0)) - 2.0).abs() < 1e-12);
        }
        assert!(disc.contains(DVec2::new(2.99, 1.0)));
    }

    #[test]
    fn an_area_is_its_gaps_inside_by_the_even_odd_rule() {
        let corners: Vec<glam::Vec2> = [
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (0.0, 2.0),
        ]
        .iter()
        .map(|&(x, y)| glam::Vec2::new(x, y))
        .collect();
        let wide = corners.iter().map(|p| p.as_dvec2()).collect();
        let l_shape = Shape::Area(Gap::new(corners), wide);
        assert!(l_shape.contains(DVec2::new(0.5, 1.5)));
        assert!(l_shape.contains(DVec2::new(1.5, 0.5)));
        assert!(!l_shape.contains(DVec2::new(1.5, 1.5)));
    }

    #[test]
    fn the_grid_asks_the_shapes_near_the_point() {
        let shapes = vec![
            Shape::band(DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0), 0.25),
            Shape::disc(DVec2::new(9.0, 9.0), 0.5),
        ];
        let boxes: Vec<_> = shapes.iter().map(Shape::bounds).collect();
        let index = CellIndex::new(&boxes, DVec2::ZERO, DVec2::splat(10.0));
        assert!(blocked(&shapes, &index, DVec2::new(0.5, 0.1)));
        assert!(blocked(&shapes, &index, DVec2::new(9.2, 9.0)));
        assert!(!blocked(&shapes, &index, DVec2::new(5.0, 5.0)));
    }
}
