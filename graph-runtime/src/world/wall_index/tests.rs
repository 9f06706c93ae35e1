//! The wall index against scans over every segment: ray casts, nearest points and steps,
//! through the grid, the hierarchy, the boxes of few segments and the clear cells.

use proptest::prelude::*;

use super::*;
use crate::world::segment::{crossing, nearest_on_segment, step_meets};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Each segment knows where its wall goes on: around a closed square, along an open
/// polyline (nothing past its ends), over a repeated point, and not across walls or a
/// point that is not finite.
#[test]
fn each_segment_knows_the_points_before_and_after_it_along_its_wall() {
    let square = Wall::polygon(vec![v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0), v(0.0, 4.0)]);
    let bent = Wall::polyline(vec![v(10.0, 0.0), v(12.0, 0.0), v(12.0, 0.0), v(12.0, 3.0)]);
    let broken = Wall::polyline(vec![v(20.0, 0.0), v(f32::NAN, 0.0), v(22.0, 1.0)]);
    let index = WallIndex::new(&[square, bent, broken]);
    // The square: 0..4; the bent line: 4 (10,0)-(12,0), 5 (12,0)-(12,0), 6 (12,0)-(12,3);
    // the broken one keeps no segment.
    assert_eq!(index.segments().len(), 7);
    assert_eq!(index.around(0), (Some(v(0.0, 4.0)), Some(v(4.0, 4.0))));
    assert_eq!(index.around(3), (Some(v(4.0, 4.0)), Some(v(4.0, 0.0))));
    assert_eq!(index.around(4), (None, Some(v(12.0, 3.0))));
    assert_eq!(index.around(6), (Some(v(10.0, 0.0)), None));
    assert_eq!(index.around(5), (None, None));
    assert_eq!(index.around(99), (None, None));
}

/// The answers of a scan over every segment, ties to the lower index.
fn brute_ray(index: &WallIndex, from: Vec2, to: Vec2) -> Option<(f32, usize)> {
    let mut best: Option<(f32, usize)> = None;
    for (i, &(a, b)) in index.segments().iter().enumerate() {
        if let Some(t) = crossing(from, to - from, a, b)
            && best.is_none_or(|(bt, _)| t < bt)
        {
            best = Some((t, i));
        }
    }
    best
}

fn brute_nearest(index: &WallIndex, point: Vec2, radius: f32) -> Option<(f32, usize)> {
    let mut best: Option<(f32, usize)> = None;
    for (i, &(a, b)) in index.segments().iter().enumerate() {
        let squared = point.distance_squared(nearest_on_segment(point, a, b));
        if squared <= radius * radius && best.is_none_or(|(bs, _)| squared < bs) {
            best = Some((squared, i));
        }
    }
    best
}

#[test]
fn a_ray_hits_a_wall_across_it_with_the_normal_facing_the_ray() {
    let index = WallIndex::new(&[Wall::polyline(vec![v(2.0, -1.0), v(2.0, 1.0)])]);
    // d = (4, 0), e = (0, 2), w = (2, -1): t = (2 * 2 - (-1) * 0) / (4 * 2) = 0.5,
    // u = (2 * 0 - (-1) * 4) / 8 = 0.5; the point is (2, 0), 2 units away.
    let hit = index.ray_cast(v(0.0, 0.0), v(4.0, 0.0));
    assert_eq!(
        hit,
        Some(WallHit {
            point: v(2.0, 0.0),
            normal: v(-1.0, 0.0),
            distance: 2.0,
            segment: 0,
        })
    );
    // From the other side the normal turns round.
    let back = index.ray_cast(v(4.0, 0.5), v(0.0, 0.5)).map(|h| h.normal);
    assert_eq!(back, Some(v(1.0, 0.0)));
    // Too short (t = 2), parallel, and beyond the end of the wall (u = 1.5): no hit.
    assert_eq!(index.ray_cast(v(0.0, 0.0), v(1.0, 0.0)), None);
    assert_eq!(index.ray_cast(v(2.0, -3.0), v(2.0, 3.0)), None);
    assert_eq!(index.ray_cast(v(0.0, 2.0), v(4.0, 2.0)), None);
}

#[test]
fn the_first_wall_along_the_ray_wins_and_a_shared_corner_goes_to_the_lower_segment() {
    let walls = [
        Wall::polyline(vec![v(3.0, -1.0), v(3.0, 1.0)]),
        Wall::polyline(vec![v(2.0, -1.0), v(2.0, 0.0), v(2.0, 1.0)]),
    ];
    let index = WallIndex::new(&walls);
    let hit = index.ray_cast(v(0.0, 0.0), v(10.0, 0.0));
    // Segments 1 and 2 meet at (2, 0), 2 units along; segment 1 is the lower index.
    assert_eq!(
        hit.map(|h| (h.point, h.distance, h.segment)),
        Some((v(2.0, 0.0), 2.0, 1))
    );
}

#[test]
fn the_nearest_point_is_clamped_to_the_segment_and_the_radius_is_inclusive() {
    let index = WallIndex::new(&[
        Wall::polyline(vec![v(3.0, -1.0), v(3.0, 5.0)]),
        Wall::polyline(vec![v(1.0, 1.0), v(4.0, 1.0)]),
    ]);
    // Segment 1: t = ((0, 0) - (1, 1)) · (3, 0) / 9 = -1/3, clamped to 0: (1, 1), √2 away;
    // segment 0 is 3 away at (3, 0).
    let near = index.nearest(v(0.0, 0.0), 10.0);
    assert_eq!(
        near,
        Some(WallPoint {
            point: v(1.0, 1.0),
            distance: 2.0_f32.sqrt(),
            segment: 1,
        })
    );
    assert_eq!(index.nearest(v(0.0, 0.0), 1.4), None);
    // (7, 0): segment 0 at (3, 0) is 4 away, segment 1's end (4, 1) is √10 away.
    assert_eq!(index.nearest(v(7.0, 0.0), 4.0).map(|n| n.segment), Some(1));
    // (7, -1): 4 to (3, -1) exactly, √13 to (4, 1); radius 4 includes 4.
    let single = WallIndex::new(&[Wall::polyline(vec![v(3.0, -1.0), v(3.0, 5.0)])]);
    assert_eq!(
        single.nearest(v(7.0, -1.0), 4.0).map(|n| n.distance),
        Some(4.0)
    );
    assert_eq!(
        single.nearest(v(7.0, -1.0), f32::INFINITY).map(|n| n.point),
        Some(v(3.0, -1.0))
    );
}

#[test]
fn empty_and_non_finite_input_answer_nothing() {
    let empty = WallIndex::new(&[]);
    assert!(empty.is_empty());
    assert_eq!(empty.ray_cast(Vec2::ZERO, Vec2::X), None);
    assert_eq!(empty.nearest(Vec2::ZERO, f32::INFINITY), None);
    let index = WallIndex::new(&[Wall::polyline(vec![
        v(f32::NAN, 0.0),
        v(1.0, -1.0),
        v(1.0, 1.0),
    ])]);
    assert_eq!(index.segments(), &[(v(1.0, -1.0), v(1.0, 1.0))]);
    assert_eq!(index.ray_cast(v(f32::NAN, 0.0), Vec2::X), None);
    assert_eq!(index.nearest(Vec2::ZERO, f32::NAN), None);
}

/// A point farther than the radius from the box of all the walls along an axis finds none
/// without a search; at the radius exactly, along an axis or both, the search still runs and
/// finds what it finds. A square from (10, 10) to (40, 40) and a radius of 12, by hand.
#[test]
fn a_point_beyond_the_walls_box_finds_no_wall_without_a_search() {
    let square = Wall::polygon(vec![
        v(10.0, 10.0),
        v(40.0, 10.0),
        v(40.0, 40.0),
        v(10.0, 40.0),
    ]);
    let index = WallIndex::new(&[square]);
    let mut buffer = [WallPoint::default(); 4];
    // 15 to the right of the box, and 13 above it: out of reach.
    for point in [v(55.0, 25.0), v(25.0, 53.0), v(-3.0, -3.0)] {
        assert!(!index.may_reach(point, 12.0), "{point}");
        assert!(index.nearest_several(point, 12.0, &mut buffer).is_empty());
        assert_eq!(index.nearest(point, 12.0), None);
    }
    // 10 to the right: segment 1, (40, 10) to (40, 40), at (40, 25).
    assert!(index.may_reach(v(50.0, 25.0), 12.0));
    let near = index.nearest(v(50.0, 25.0), 12.0).expect("near");
    assert_eq!(
        (near.segment, near.point, near.distance),
        (1, v(40.0, 25.0), 10.0)
    );
    // 12 to the right: the radius is inclusive, so the same segment at 12.
    assert!(index.may_reach(v(52.0, 25.0), 12.0));
    assert_eq!(
        index.nearest(v(52.0, 25.0), 12.0).map(|n| n.distance),
        Some(12.0)
    );
    // 12 from the box along both axes: the search runs (the corner is 12√2 away) and finds
    // nothing.
    assert!(index.may_reach(v(52.0, 52.0), 12.0));
    assert_eq!(index.nearest(v(52.0, 52.0), 12.0), None);
    // Beside the box at every gap from 0.99 to 1.01 of the radius, in steps of a millionth
    // of it, and at coordinates a thousand times larger: the same answers as a scan.
    for scale in [1.0_f32, 1000.0] {
        let big = Wall::polygon(
            [v(10.0, 10.0), v(40.0, 10.0), v(40.0, 40.0), v(10.0, 40.0)]
                .map(|p| p * scale)
                .to_vec(),
        );
        let index = WallIndex::new(&[big]);
        let radius = 12.0 * scale;
        for k in -10_000..=10_000 {
            let gap = radius * (1.0 + k as f32 * 1e-6);
            let point = v(40.0 * scale + gap, 25.0 * scale);
            let found = index.nearest(point, radius).map(|n| n.segment);
            assert_eq!(found, brute_nearest(&index, point, radius).map(|(_, i)| i));
            assert!(index.may_reach(point, radius) || found.is_none());
        }
    }
}

fn walls_strategy(
    coordinate: impl Strategy<Value = f32> + Clone,
) -> impl Strategy<Value = Vec<Wall>> {
    some_walls_strategy(coordinate, 0..40)
}

fn some_walls_strategy(
    coordinate: impl Strategy<Value = f32> + Clone,
    walls: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Wall>> {
    let point = (coordinate.clone(), coordinate).prop_map(|(x, y)| Vec2::new(x, y));
    let wall = (prop::collection::vec(point, 2..6), any::<bool>())
        .prop_map(|(points, closed)| Wall { points, closed });
    prop::collection::vec(wall, walls)
}

/// Checks the index of `walls` as it is built, again with its boxes of few segments left
/// out, so that small sets of walls test the grid and the hierarchy too, and again without
/// its clear cells, so that the steps they answer reach the segments as well.
fn check_against_brute_force(walls: &[Wall], probes: &[(Vec2, Vec2, f32)]) {
    let index = WallIndex::new(walls);
    let mut without_boxes = index.clone();
    without_boxes.few = None;
    let mut without_clear = without_boxes.clone();
    without_clear.clear = None;
    check_index_against_brute_force(&index, probes);
    check_index_against_brute_force(&without_boxes, probes);
    check_index_against_brute_force(&without_clear, probes);
}

fn check_index_against_brute_force(index: &WallIndex, probes: &[(Vec2, Vec2, f32)]) {
    for &(from, to, radius) in probes {
        let meets = index
            .segments()
            .iter()
            .any(|&(a, b)| step_meets(from, to, a, b));
        assert_eq!(
            index.step_meets_a_wall(from, to),
            meets,
            "step {from} -> {to}"
        );
        let hit = index.ray_cast(from, to);
        assert_eq!(
            hit.map(|h| h.segment),
            brute_ray(index, from, to).map(|(_, i)| i),
            "ray {from} -> {to}"
        );
        // The same ray among feelers (itself turned both ways and shortened, as wall
        // avoidance's whiskers are) gets the same hit, and so does each whisker.
        let d = to - from;
        let fan = [to, from + d.perp() * 0.5, from - d.perp() * 0.5];
        let hits = index.ray_casts(from, fan);
        for (tip, fanned) in fan.into_iter().zip(hits) {
            assert_eq!(
                fanned,
                index.ray_cast(from, tip),
                "ray {from} -> {tip} in a fan"
            );
        }
        let mut all: Vec<(f32, usize)> = index
            .segments()
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| (from.distance_squared(nearest_on_segment(from, a, b)), i))
            .filter(|&(squared, _)| squared <= radius * radius)
            .collect();
        all.sort_by(|x, y| x.partial_cmp(y).expect("finite"));
        // A point the bounds say is out of reach has no segment within the radius.
        assert!(
            index.may_reach(from, radius) || all.is_empty(),
            "{from} within {radius}: {all:?} though out of reach"
        );
        let mut expected: Vec<usize> = all.iter().take(3).map(|&(_, i)| i).collect();
        expected.sort_unstable();
        let mut buffer = [WallPoint::default(); 3];
        let several: Vec<usize> = index
            .nearest_several(from, radius, &mut buffer)
            .iter()
            .map(|w| w.segment)
            .collect();
        assert_eq!(several, expected, "3 nearest to {from} within {radius}");
        // The same points nearest first, for Reciprocal: by distance, then segment.
        let mut by_distance = index.nearest_several(from, radius, &mut buffer).to_vec();
        by_distance.sort_by(|x, y| {
            (x.distance, x.segment)
                .partial_cmp(&(y.distance, y.segment))
                .expect("finite")
        });
        let mut first = [WallPoint::default(); 3];
        assert_eq!(
            index.nearest_first(from, radius, &mut first),
            &by_distance[..],
            "3 nearest to {from} within {radius}, nearest first"
        );
        let near = index.nearest(from, radius);
        assert_eq!(
            near.map(|n| n.segment),
            brute_nearest(index, from, radius).map(|(_, i)| i),
            "nearest to {from} within {radius}"
        );
        // `may_touch` never says no where a query finds a wall.
        let reach = Vec2::splat(radius);
        if near.is_some() {
            assert!(
                index.may_touch(from - reach, from + reach),
                "box round {from}"
            );
        }
        if hit.is_some() {
            assert!(
                index.may_touch(from.min(to), from.max(to)),
                "box of {from} -> {to}"
            );
        }
    }
}

proptest! {
    #[test]
    fn the_index_answers_as_a_scan_over_every_segment(
        walls in walls_strategy(-50.0_f32..50.0),
        probes in prop::collection::vec(
            (-60.0_f32..60.0, -60.0_f32..60.0, -60.0_f32..60.0, -60.0_f32..60.0, 0.0_f32..40.0),
            1..20,
        ),
    ) {
        let probes: Vec<_> = probes
            .into_iter()
            .map(|(x, y, tx, ty, r)| (Vec2::new(x, y), Vec2::new(tx, ty), r))
            .collect();
        check_against_brute_force(&walls, &probes);
    }

    /// Steps about as long as the clear cells (`clear.rs`), anywhere and from points on
    /// the walls and off them, among a few walls (room for clear cells) anywhere or on an
    /// integer grid (along the cells' axes): each meets a wall exactly when a scan says it
    /// does.
    #[test]
    fn short_steps_meet_a_wall_exactly_when_a_scan_says_so(
        walls in prop_oneof![
            some_walls_strategy(-50.0_f32..50.0, 1..4),
            some_walls_strategy((-8_i8..8).prop_map(f32::from), 1..4),
        ],
        steps in prop::collection::vec(
            (-55.0_f32..55.0, -55.0_f32..55.0, -1.0_f32..1.0, -1.0_f32..1.0, 0.0_f32..1.0),
            1..40,
        ),
    ) {
        let index = WallIndex::new(&walls);
        let scan = |from: Vec2, to: Vec2| {
            index.segments().iter().any(|&(a, b)| step_meets(from, to, a, b))
        };
        for (at, &(x, y, dx, dy, t)) in steps.iter().enumerate() {
            let d = Vec2::new(dx, dy);
            let mut steps = vec![(Vec2::new(x, y), d)];
            if let Some(&(a, b)) = index.segments().get(at % index.segments().len().max(1)) {
                // From the wall, and from 0.25 to 2 units off it (about a clear cell's
                // size) towards it, stopping just short of it or just past it.
                let on = a.lerp(b, t);
                let normal = (b - a).perp().normalize_or_zero();
                steps.extend([(on, d), (on + d * 0.01, d), (a, d), (b, d)]);
                for off in [0.25, 0.5, 0.75, 1.0, 1.5, 2.0] {
                    for side in [normal, -normal] {
                        steps.extend([0.9, 1.1].map(|k| (on + side * off, -side * off * k)));
                    }
                }
            }
            for (from, d) in steps {
                for to in [from + d, from + d * 0.1, from - d * 0.5] {
                    prop_assert_eq!(
                        index.step_meets_a_wall(from, to),
                        scan(from, to),
                        "step {} -> {}",
                        from,
                        to
                    );
                }
            }
        }
    }

    #[test]
    fn on_an_integer_grid_ties_go_to_the_lower_segment_as_in_a_scan(
        walls in walls_strategy((-8_i8..8).prop_map(f32::from)),
        probes in prop::collection::vec(
            (-10_i8..10, -10_i8..10, -10_i8..10, -10_i8..10, 0_i8..10),
            1..20,
        ),
    ) {
        let probes: Vec<_> = probes
            .into_iter()
            .map(|(x, y, tx, ty, r)| {
                (
                    Vec2::new(x.into(), y.into()),
                    Vec2::new(tx.into(), ty.into()),
                    f32::from(r),
                )
            })
            .collect();
        check_against_brute_force(&walls, &probes);
    }

    #[test]
    fn short_walls_answer_as_a_scan_through_the_grid_and_the_hierarchy(
        offset in prop_oneof![Just(0.0_f32), Just(1.0e4_f32), Just(-3.0e6_f32)],
        walls in prop::collection::vec(
            (-50.0_f32..50.0, -50.0_f32..50.0, -3.0_f32..3.0, -3.0_f32..3.0, 2_usize..5, any::<bool>()),
            1..80,
        ),
        probes in prop::collection::vec(
            (-55.0_f32..55.0, -55.0_f32..55.0, -6.0_f32..6.0, -6.0_f32..6.0, 0.0_f32..4.0, 1.0_f32..40.0),
            1..30,
        ),
    ) {
        // Zig-zag walls of a few short segments, somewhere far from the origin or not;
        // short probes (the grid) and the same probes stretched (the hierarchy).
        let at = |x: f32, y: f32| Vec2::new(x + offset, y + offset);
        let walls: Vec<Wall> = walls
            .into_iter()
            .map(|(x, y, dx, dy, corners, closed)| Wall {
                points: (0..corners)
                    .map(|k: usize| {
                        let zig = if k.is_multiple_of(2) { 1.0 } else { -0.5 };
                        let k = k as f32;
                        at(x + dx * k, y + dy * k * zig)
                    })
                    .collect(),
                closed,
            })
            .collect();
        let probes: Vec<_> = probes
            .into_iter()
            .flat_map(|(x, y, dx, dy, r, stretch)| {
                [
                    (at(x, y), at(x + dx, y + dy), r),
                    (at(x, y), at(x + dx * stretch, y + dy * stretch), r * stretch),
                ]
            })
            .collect();
        check_against_brute_force(&walls, &probes);
    }
}
