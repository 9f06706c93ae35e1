//! Reciprocal's wall half-planes on the walls that tripped a first port of RVO2's obstacle
//! edges (`BEHAVIORS.md`, "Reciprocal"): a closed wall's hidden far side, a wall of more
//! segments than the agent avoids, a point repeated by rounding, an agent on a segment's line,
//! an agent inside a closed wall. Each checks what the agent relies on: a velocity into the
//! wall within the horizon is forbidden, one away from it permitted.

use glam::Vec2;
use graph_runtime::behaviors::{self, OrcaLine, ReciprocalSettings};
use graph_runtime::{Vehicle, VehicleParams, Wall, World};

fn v2(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The wall half-planes of an agent at `p` moving `v`, of radius `radius`, top speed 3, with
/// obstacle horizon `horizon` (no neighbors).
fn lines(walls: Vec<Wall>, p: Vec2, v: Vec2, radius: f32, horizon: f32) -> Vec<OrcaLine> {
    let mut world = World::default();
    world.set_walls(walls);
    let params = VehicleParams {
        mass: 1.0,
        max_force: 100.0,
        max_speed: 3.0,
        radius,
    };
    let me = Vehicle::new(p, v, params);
    let settings = ReciprocalSettings {
        time_horizon: 0.0,
        obstacle_time_horizon: horizon,
        neighbor_radius: 0.0,
        max_neighbors: 1,
        clearance: 0.0,
        keep_right: 0.0,
    };
    let lines = behaviors::orca_lines(&me, 0, [], &world, &settings, 0.1);
    let lines = lines.as_slice().to_vec();
    for line in &lines {
        assert!(
            line.point.is_finite() && line.direction.is_finite(),
            "{line:?}"
        );
        assert!(
            (line.direction.length() - 1.0).abs() < 1e-5,
            "not a unit direction: {line:?}"
        );
    }
    lines
}

fn permits(lines: &[OrcaLine], u: Vec2) -> bool {
    lines.iter().all(|line| line.violation(u) <= 0.0)
}

/// Outside a thin triangle, near its sharp corner (4, 0): the far side from (0, 0) to (4, 0)
/// is hidden behind the near one; taken as a wall of its own it forbade moving straight away,
/// (1, -1) from (5, 0.5), though nothing is there. The one half-plane left is RVO2's (its
/// obstacle code for the triangle listed counterclockwise, ported line by line to f64 for the
/// review: at rest, point (-0.365836, -0.182918) along (0.447214, -0.894427)).
#[test]
fn the_hidden_far_side_of_a_closed_wall_forbids_nothing() {
    let triangle = Wall::polygon(vec![v2(0.0, 0.0), v2(4.0, 0.0), v2(0.0, 1.0)]);
    let clockwise = Wall::polygon(vec![v2(0.0, 1.0), v2(4.0, 0.0), v2(0.0, 0.0)]);
    for wall in [triangle, clockwise] {
        let at_rest = lines(vec![wall.clone()], v2(5.0, 0.5), Vec2::ZERO, 0.3, 2.0);
        assert_eq!(at_rest.len(), 1, "{at_rest:?}");
        assert!((at_rest[0].point - v2(-0.365_836, -0.182_918)).length() < 1e-5);
        assert!((at_rest[0].direction - v2(0.447_214, -0.894_427)).length() < 1e-5);
        for v in [Vec2::ZERO, v2(1.0, -1.0)] {
            let lines = lines(vec![wall.clone()], v2(5.0, 0.5), v, 0.3, 2.0);
            assert!(
                permits(&lines, v2(1.0, -1.0)),
                "moving away forbidden at {v}: {lines:?}"
            );
            assert!(
                !permits(&lines, v2(-3.0, 0.0)),
                "moving in permitted at {v}: {lines:?}"
            );
        }
    }
}

/// A circle of 64 segments, radius 6, seen from 2.5 units out: more segments are in reach
/// than the 8 nearest the agent avoids, and the legs of those 8 point into segments beyond
/// them. Straight in at 2 u/s meets the wall within 1.25 s of the 2 s horizon: forbidden.
#[test]
fn a_wall_of_more_segments_than_are_avoided_still_keeps_the_agent_out() {
    let circle: Vec<Vec2> = (0..64)
        .map(|i| {
            let angle = i as f32 * std::f32::consts::TAU / 64.0;
            6.0 * v2(angle.cos(), angle.sin())
        })
        .collect();
    for v in [v2(2.0, 0.0), Vec2::ZERO, v2(0.0, 1.0)] {
        let lines = lines(
            vec![Wall::polygon(circle.clone())],
            v2(0.0, -8.5),
            v,
            0.5,
            2.0,
        );
        assert!(
            !permits(&lines, v2(0.0, 2.0)),
            "straight in permitted at {v}: {lines:?}"
        );
        assert!(
            permits(&lines, v2(0.0, -2.0)),
            "straight out forbidden at {v}: {lines:?}"
        );
    }
}

/// A corner whose point is repeated a rounding apart, (10, 0) and (10, 1e-7) (as a circle
/// closed by `sin(2π)` repeats its first point): the segment between gives no direction, and
/// the wall must still hold on both sides of it.
#[test]
fn a_point_repeated_by_rounding_leaves_no_gap() {
    let wall = Wall::polyline(vec![
        v2(0.0, 0.0),
        v2(10.0, 0.0),
        v2(10.0, 1e-7),
        v2(10.0, 10.0),
    ]);
    let lines = lines(vec![wall], v2(6.18, -3.9), v2(2.83, 0.9), 0.5, 2.0);
    // (0.16, 2.6) for 1.5 s crosses y = 0 at x = 6.42, on the first segment.
    assert!(!permits(&lines, v2(0.16, 2.6)), "{lines:?}");
    assert!(permits(&lines, v2(0.0, -2.0)), "{lines:?}");
}

/// An agent on the line of a segment, heading at its end: the end's cone limits it.
#[test]
fn an_agent_on_a_segments_line_heading_at_its_end_is_limited() {
    let wall = Wall::polyline(vec![v2(0.0, 0.0), v2(10.0, 0.0)]);
    let lines = lines(vec![wall], v2(-3.0, 0.0), v2(2.0, 0.0), 0.5, 2.0);
    assert!(
        !permits(&lines, v2(2.0, 0.0)),
        "head-on permitted: {lines:?}"
    );
    assert!(permits(&lines, v2(-2.0, 0.0)), "{lines:?}");
}

/// Inside a closed square room, 1 unit below its top wall: up at 2 u/s meets the wall within
/// the 1 s horizon (0.5 units to close), down is free; the room's other walls, beyond reach
/// or behind the agent, do not limit it.
#[test]
fn inside_a_closed_wall_its_sides_face_the_agent() {
    let room = Wall::polygon(vec![
        v2(-5.0, -5.0),
        v2(5.0, -5.0),
        v2(5.0, 5.0),
        v2(-5.0, 5.0),
    ]);
    for room in [
        room.clone(),
        Wall::polygon(room.points.iter().rev().copied().collect()),
    ] {
        let lines = lines(vec![room], v2(0.0, 4.0), Vec2::ZERO, 0.5, 1.0);
        assert!(!permits(&lines, v2(0.0, 2.0)), "up permitted: {lines:?}");
        assert!(permits(&lines, v2(0.0, -2.0)), "down forbidden: {lines:?}");
        assert!(
            permits(&lines, v2(2.0, 0.0)),
            "along the wall forbidden: {lines:?}"
        );
    }
}
