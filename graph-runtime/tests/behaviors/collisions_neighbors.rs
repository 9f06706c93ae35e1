//! Unaligned collision avoidance and neighborhoods against numbers worked out by hand.

use super::{agent, assert_close, graph_force, v2};
use glam::Vec2;
use graph_runtime::behaviors::{self, FieldOfView};
use graph_runtime::{Node, World};

// ---------------------------------------------------------------------------------------------
// Unaligned collision avoidance
// ---------------------------------------------------------------------------------------------

#[test]
fn unaligned_collision_avoidance_steers_from_the_predicted_collision() {
    // me p = 0, v = (2,0); q p = (4,-3), v = (0,2). dp = (4,-3), dv = (-2,2), |dv|^2 = 8,
    // t = -dp.dv / 8 = 14/8 = 1.75 <= 3; |dp + dv t| = |(0.5,0.5)| = 0.707 < 1.
    // away = (3.5,0) - (4,0.5) = (-0.5,-0.5), F = (-1,-1)/sqrt(2) * 8
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let q = agent(v2(4.0, -3.0), v2(0.0, 2.0));
    let diagonal = 8.0 / 2f32.sqrt();
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&q], 3.0),
        v2(-diagonal, -diagonal),
    );
    // max_time 1.75: t <= max_time still holds
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&q], 1.75),
        v2(-diagonal, -diagonal),
    );
    // max_time 1: t = 1.75 > 1, zero
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&q], 1.0),
        Vec2::ZERO
    );
}

#[test]
fn unaligned_collision_avoidance_takes_the_soonest_collision() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let q1 = agent(v2(4.0, -3.0), v2(0.0, 2.0)); // t = 1.75, F = (-1,-1)/sqrt2 * 8
    // q2 p = (2.5,2), v = (0,-2): dp.dv = -5 - 4 = -9, t = 9/8 = 1.125;
    // dp + dv t = (0.25,-0.25), |.| < 1; away = (2.25,0) - (2.5,-0.25) = (-0.25,0.25)
    let q2 = agent(v2(2.5, 2.0), v2(0.0, -2.0));
    let diagonal = 8.0 / 2f32.sqrt();
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&q1, &q2], 3.0),
        v2(-diagonal, diagonal),
    );
    // through a graph: same answer
    let force = graph_force(
        Node::UnalignedCollisionAvoidance {
            max_time: 3.0.into(),
        },
        World::default(),
        vec![me, q1, q2],
        &[],
    );
    assert_close(force, v2(-diagonal, diagonal));
}

#[test]
fn unaligned_collision_avoidance_degenerate_cases() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let diagonal = 8.0 / 2f32.sqrt();
    // exact hit: q p = (4,-4), v = (0,2): t = 16/8 = 2, both at (4,0) -> away = 0,
    // use -dp = (-4,4): F = (-1,1)/sqrt2 * 8
    let head_on = agent(v2(4.0, -4.0), v2(0.0, 2.0));
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&head_on], 3.0),
        v2(-diagonal, diagonal),
    );
    // same velocity (|dv| < 1e-6), even though overlapping: skipped, zero
    let convoy = agent(v2(0.5, 0.0), v2(2.0, 0.0));
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&convoy], 3.0),
        Vec2::ZERO
    );
    // receding: q p = (-4,0), v = (-2,0): dv = (-4,0), t = -16/16 = -1 <= 0, zero
    let receding = agent(v2(-4.0, 0.0), v2(-2.0, 0.0));
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&receding], 3.0),
        Vec2::ZERO
    );
    // near miss: q p = (6,-3), v = (0,2): t = 18/8 = 2.25, |dp + dv t| = |(1.5,1.5)| >= 1
    let miss = agent(v2(6.0, -3.0), v2(0.0, 2.0));
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&miss], 3.0),
        Vec2::ZERO
    );
    // nobody: zero
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, std::iter::empty(), 3.0),
        Vec2::ZERO
    );
    assert_eq!(
        graph_force(
            Node::UnalignedCollisionAvoidance {
                max_time: 3.0.into()
            },
            World::default(),
            vec![me],
            &[],
        ),
        Vec2::ZERO
    );
}

// ---------------------------------------------------------------------------------------------
// Neighborhood
// ---------------------------------------------------------------------------------------------

#[test]
fn neighborhood_radius_is_strict() {
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let all = FieldOfView::from_degrees(360.0);
    // |q.p - p| < radius
    assert!(behaviors::in_neighborhood(&me, v2(2.9, 0.0), 3.0, all));
    assert!(!behaviors::in_neighborhood(&me, v2(3.0, 0.0), 3.0, all));
    assert!(!behaviors::in_neighborhood(&me, v2(0.0, -3.0), 3.0, all));
    // 360 degrees sees behind
    assert!(behaviors::in_neighborhood(&me, v2(-2.0, 0.0), 3.0, all));
    // radius 0: nobody
    assert!(!behaviors::in_neighborhood(&me, v2(0.1, 0.0), 0.0, all));
}

#[test]
fn field_of_view_is_an_angle_around_forward() {
    let me = agent(Vec2::ZERO, v2(1.0, 0.0)); // forward +x
    // 180 degrees: angle <= 90 -> ahead and exactly beside are seen, behind is not
    let half = FieldOfView::from_degrees(180.0);
    assert!(behaviors::in_neighborhood(&me, v2(2.0, 0.0), 3.0, half));
    assert!(behaviors::in_neighborhood(&me, v2(0.0, 2.0), 3.0, half));
    assert!(behaviors::in_neighborhood(&me, v2(0.0, -2.0), 3.0, half));
    assert!(!behaviors::in_neighborhood(&me, v2(-0.1, 2.0), 3.0, half));
    assert!(!behaviors::in_neighborhood(&me, v2(-2.0, 0.0), 3.0, half));
    // 90 degrees: 44 degrees off forward is seen, 46 is not (either side)
    let quarter = FieldOfView::from_degrees(90.0);
    let at = |degrees: f32| Vec2::from_angle(degrees.to_radians()) * 2.0;
    assert!(behaviors::in_neighborhood(&me, at(44.0), 3.0, quarter));
    assert!(behaviors::in_neighborhood(&me, at(-44.0), 3.0, quarter));
    assert!(!behaviors::in_neighborhood(&me, at(46.0), 3.0, quarter));
    assert!(!behaviors::in_neighborhood(&me, at(-46.0), 3.0, quarter));
    // 0 degrees: only straight ahead
    let none = FieldOfView::from_degrees(0.0);
    assert!(behaviors::in_neighborhood(&me, v2(2.0, 0.0), 3.0, none));
    assert!(!behaviors::in_neighborhood(&me, v2(2.0, 0.1), 3.0, none));
    // the view turns with forward: facing +y, (0,2) is ahead and (2,0) is 90 degrees off
    let up = agent(Vec2::ZERO, v2(0.0, 1.0));
    assert!(behaviors::in_neighborhood(&up, v2(0.0, 2.0), 3.0, quarter));
    assert!(!behaviors::in_neighborhood(&up, v2(2.0, 0.0), 3.0, quarter));
    // the test is relative to the agent's position
    let away = agent(v2(10.0, 10.0), v2(1.0, 0.0));
    assert!(behaviors::in_neighborhood(&away, v2(12.0, 10.0), 3.0, half));
    assert!(!behaviors::in_neighborhood(&away, v2(8.0, 10.0), 3.0, half));
}

#[test]
fn a_diagonal_neighbor_on_the_edge_of_a_270_degree_view_is_seen_on_a_grid() {
    // fov 270: half angle 135 degrees, exactly the angle of the two diagonal neighbors behind
    // an agent on a square grid that faces along the grid. The contract includes the edge
    // (angle <= fov / 2), so an agent inside the grid sees 7 of its 8 neighbors: all but the
    // one straight behind. Before the tolerance, f32's cos(135 degrees) and sqrt(2) left out
    // both diagonals behind on every exact grid.
    //
    // Grids whose f32 positions are exact (any origin, spacings that are binary fractions),
    // and grids with decimal spacings near the origin, whose position rounding stays within
    // the documented cosine tolerance (BEHAVIORS.md, "Neighborhoods").
    let exact = [
        (Vec2::ZERO, 1.0f32),
        (Vec2::ZERO, 0.5),
        (v2(-64.0, 32.0), 1.5),
        (v2(1000.0, -2000.0), 2.0),
        (v2(-3.25, 7.75), 0.25),
        (v2(4096.0, 4096.0), 8.0),
    ];
    let decimal = [
        (v2(0.1, 0.2), 0.7f32),
        (v2(-1.3, 2.9), 1.3),
        (v2(0.5, -0.5), 3.7),
        (v2(-4.9, -7.3), 2.2),
    ];
    let fov = FieldOfView::from_degrees(270.0);
    for (origin, spacing) in exact.into_iter().chain(decimal) {
        let at = |i: i32, j: i32| origin + v2(i as f32 * spacing, j as f32 * spacing);
        for heading in [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y] {
            for (i, j) in [(1, 1), (2, 1), (1, 3), (3, 2)] {
                let me = agent(at(i, j), heading);
                let mut wrong = Vec::new();
                for (di, dj) in [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ] {
                    let other = at(i + di, j + dj);
                    let behind = v2(di as f32, dj as f32) == -heading;
                    let seen = behaviors::in_neighborhood(&me, other, 1.5 * spacing, fov);
                    if seen == behind {
                        wrong.push((di, dj, seen));
                    }
                }
                assert!(
                    wrong.is_empty(),
                    "spacing {spacing}, origin {origin}, heading {heading}, agent ({i},{j}): \
                     wrong answers {wrong:?}"
                );
            }
        }
    }
    // Just beyond the edge is still out: 135.01 degrees off forward.
    let me = agent(Vec2::ZERO, Vec2::X);
    let beyond = Vec2::from_angle(135.01f32.to_radians()) * 2.0;
    assert!(!behaviors::in_neighborhood(&me, beyond, 3.0, fov));
    let inside = Vec2::from_angle(134.99f32.to_radians()) * 2.0;
    assert!(behaviors::in_neighborhood(&me, inside, 3.0, fov));
}

#[test]
fn separation_on_a_grid_with_a_270_degree_view_counts_the_diagonals_behind() {
    // Agent 0 at the centre of a 3 x 3 grid of spacing 2, facing +x, radius 3, fov 270.
    // The eight pushes (p - q) / |p - q|^2 cancel out; the view leaves out only the neighbor
    // straight behind, whose push is (2,0) / 4 = (0.5,0), so F = (-0.5,0). Dropping the two
    // diagonals behind as well would give (-1,0).
    let centre = v2(10.3, -4.1);
    let mut vehicles = vec![agent(centre, v2(1.0, 0.0))];
    for j in -1..=1 {
        for i in -1..=1 {
            if (i, j) != (0, 0) {
                vehicles.push(agent(
                    centre + v2(i as f32 * 2.0, j as f32 * 2.0),
                    Vec2::ZERO,
                ));
            }
        }
    }
    let force = graph_force(
        Node::Separation {
            radius: 3.0.into(),
            fov: 270.0.into(),
            max_neighbors: 64.0.into(),
        },
        World::default(),
        vehicles,
        &[],
    );
    assert_close(force, v2(-0.5, 0.0));
}

#[test]
fn coincident_agents_count_as_seen() {
    // The contract's angle is undefined for a zero offset; the implementation counts a
    // coincident agent as inside any field of view (tested as implemented).
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    assert!(behaviors::in_neighborhood(
        &me,
        Vec2::ZERO,
        1.0,
        FieldOfView::from_degrees(10.0)
    ));
}
