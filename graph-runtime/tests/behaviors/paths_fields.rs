//! Path following, Containment and Flow field following against numbers worked out by hand.

use super::{Harness, agent, assert_close, graph_force, graph_of, v2};
use glam::Vec2;
use graph_runtime::behaviors::{self};
use graph_runtime::{BindError, FlowField, Node, Path, PathDirection, Rect, Region, World};

// ---------------------------------------------------------------------------------------------
// Path following
// ---------------------------------------------------------------------------------------------

/// Open L: (0,0) -> (10,0) -> (10,10), length 20, radius 1.
fn l_path() -> Path {
    Path {
        points: vec![Vec2::ZERO, v2(10.0, 0.0), v2(10.0, 10.0)],
        radius: 1.0,
        closed: false,
    }
}

/// Square (0,0) (10,0) (10,10) (0,10), closed: length 40.
fn square(closed: bool) -> Path {
    Path {
        points: vec![Vec2::ZERO, v2(10.0, 0.0), v2(10.0, 10.0), v2(0.0, 10.0)],
        radius: 1.0,
        closed,
    }
}

#[test]
fn path_following_seeks_ahead_of_the_projection() {
    // p = (2,4), v = (0,-1), prediction 1: P = (2,3), nearest n = (2,0) at s = 2;
    // aim at s = 2 + 3 = 5: (5,0); aim - p = (3,-4), F = (2.4,-3.2) - (0,-1) = (2.4,-2.2)
    let me = agent(v2(2.0, 4.0), v2(0.0, -1.0));
    let path = l_path();
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 3.0, 1.0, false),
        v2(2.4, -2.2),
    );
    // corrective but |P - n| = 3 > radius 1: same force
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 3.0, 1.0, true),
        v2(2.4, -2.2),
    );
}

#[test]
fn corrective_path_following_rests_inside_the_path() {
    let path = l_path();
    // p = (5,0.8), v = 0: P = (5,0.8), n = (5,0), |P - n| = 0.8 <= 1: zero
    let me = agent(v2(5.0, 0.8), Vec2::ZERO);
    assert_eq!(
        behaviors::path_following(&me, &path, 1.0, 0.6, 1.0, true),
        Vec2::ZERO
    );
    // non-corrective: aim at s = 5.6: (5.6,0), aim - p = (0.6,-0.8), F = (2.4,-3.2)
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 0.6, 1.0, false),
        v2(2.4, -3.2),
    );
    // exactly on the border: |P - n| = 1 <= 1: zero
    let border = agent(v2(5.0, 1.0), Vec2::ZERO);
    assert_eq!(
        behaviors::path_following(&border, &path, 1.0, 0.6, 1.0, true),
        Vec2::ZERO
    );
    // prediction takes it outside: p = (5,0.5), v = (0,1), prediction 1: P = (5,1.5),
    // |P - n| = 1.5 > 1: aim at s = 5.6 -> (5.6,0), aim - p = (0.6,-0.5)
    let leaving = agent(v2(5.0, 0.5), v2(0.0, 1.0));
    let expected = v2(0.6, -0.5) / 0.61f32.sqrt() * 4.0 - v2(0.0, 1.0);
    assert_close(
        behaviors::path_following(&leaving, &path, 1.0, 0.6, 1.0, true),
        expected,
    );
}

#[test]
fn open_path_end_is_an_arrival() {
    let path = l_path();
    // p = (10,8), v = 0: n = (10,8) at s = 18; aim s = 21 >= 20 -> clamped to the end:
    // F = Arrival((10,10), 3): o = (0,2), d = 2, speed = min(4 * 2 / 3, 4) = 8/3,
    // F = (0,2) * (8/3 / 2) = (0, 8/3)
    let me = agent(v2(10.0, 8.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 3.0, 1.0, false),
        v2(0.0, 8.0 / 3.0),
    );
    // ahead 1: aim s = 19 < 20 -> Seek((10,9)) = (0,4) (not slowed)
    assert_eq!(
        behaviors::path_following(&me, &path, 1.0, 1.0, 1.0, false),
        v2(0.0, 4.0)
    );
    // exactly at the end, moving on: p = (10,10), v = (0,1): P = (10,11), n = (10,10),
    // s = 20, aim = end = p: Arrival with d = 0 gives F = -v = (0,-1)
    let done = agent(v2(10.0, 10.0), v2(0.0, 1.0));
    assert_eq!(
        behaviors::path_following(&done, &path, 1.0, 3.0, 1.0, false),
        v2(0.0, -1.0)
    );
}

#[test]
fn closed_path_wraps_around() {
    // p = (-1,4), v = 0: nearest point is (0,4) on the closing segment (0,10)->(0,0), at
    // s = 30 + 6 = 36; aim s = 36 + 6 = 42 -> 42 mod 40 = 2 -> (2,0);
    // aim - p = (3,-4), F = (2.4,-3.2)
    let me = agent(v2(-1.0, 4.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &square(true), 0.0, 6.0, 1.0, false),
        v2(2.4, -3.2),
    );
    // the same points as an open path have no closing segment: n = (0,0), s = 0,
    // aim s = 6 -> (6,0), aim - p = (7,-4), F = (7,-4) / sqrt(65) * 4
    assert_close(
        behaviors::path_following(&me, &square(false), 0.0, 6.0, 1.0, false),
        v2(7.0, -4.0) / 65f32.sqrt() * 4.0,
    );
}

#[test]
fn a_closed_two_point_path_follows_its_closing_segment_back() {
    // (0,0) <-> (10,0), closed: 20 long, the way back is the segment (10,0) -> (0,0).
    // p = (9,1), v = 0: n = (9,0) at s = 9 (the way back ties at s = 11; the first wins);
    // ahead 3: s = 12 -> 2 units back from (10,0): (8,0). aim - p = (-1,-1),
    // F = (-1,-1) / sqrt(2) * 4. Open, the same points clamp to the end: Arrival((10,0), 3).
    let shuttle = |closed| Path {
        points: vec![Vec2::ZERO, v2(10.0, 0.0)],
        radius: 1.0,
        closed,
    };
    let me = agent(v2(9.0, 1.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &shuttle(true), 0.0, 3.0, 1.0, false),
        v2(-1.0, -1.0) * (4.0 / 2f32.sqrt()),
    );
    // open: o = (1,-1), d = sqrt(2), speed = 4 * sqrt(2) / 3, F = o * (4 / 3)
    assert_close(
        behaviors::path_following(&me, &shuttle(false), 0.0, 3.0, 1.0, false),
        v2(1.0, -1.0) * (4.0 / 3.0),
    );
}

#[test]
fn backward_path_following_travels_towards_the_first_point() {
    let path = l_path();
    // p = (13,4), v = 0: n = (10,4) at s = 14. Backward, ahead 4: s = 10 -> (10,0),
    // aim - p = (-3,-4), F = (-2.4,-3.2). Forward: s = 18 -> (10,8), F = (-2.4,3.2).
    let me = agent(v2(13.0, 4.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &path, 0.0, 4.0, -1.0, false),
        v2(-2.4, -3.2),
    );
    assert_close(
        behaviors::path_following(&me, &path, 0.0, 4.0, 1.0, false),
        v2(-2.4, 3.2),
    );
    // Backward near the start: p = (3,4), n = (3,0), s = 3, ahead 10: s = -7 -> clamped to
    // the first point, the end of travel: Arrival((0,0), 10): o = (-3,-4), d = 5,
    // speed = min(4 * 5 / 10, 4) = 2, F = (-3,-4) * 2/5 = (-1.2,-1.6)
    let near_start = agent(v2(3.0, 4.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&near_start, &path, 0.0, 10.0, -1.0, false),
        v2(-1.2, -1.6),
    );
    // Backward on a closed square wraps: p = (4,-1), n = (4,0), s = 4, ahead 6: s = -2
    // -> 38 -> (0,2) on the closing segment; aim - p = (-4,3), F = (-3.2,2.4)
    let below = agent(v2(4.0, -1.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&below, &square(true), 0.0, 6.0, -1.0, false),
        v2(-3.2, 2.4),
    );
}

#[test]
fn path_following_graph_binds_the_named_path() {
    let node = |direction, corrective| Node::PathFollowing {
        own: false,
        path: "road".into(),
        prediction_time: 1.0.into(),
        ahead_distance: 3.0.into(),
        direction,
        corrective,
    };
    let mut world = World::default();
    world.set_path("road", l_path());
    // the first path case through a graph: (2.4,-2.2)
    let me = agent(v2(2.0, 4.0), v2(0.0, -1.0));
    let force = graph_force(
        node(PathDirection::Forward, false),
        world.clone(),
        vec![me],
        &[],
    );
    assert_close(force, v2(2.4, -2.2));
    assert_eq!(
        force,
        behaviors::path_following(&me, &l_path(), 1.0, 3.0, 1.0, false)
    );
    // Backward from p = (13,4), v = 0, ahead 3: s = 14 - 3 = 11 -> (10,1), aim - p = (-3,-3),
    // F = (-1,-1) / sqrt(2) * 4
    let east = agent(v2(13.0, 4.0), Vec2::ZERO);
    assert_close(
        graph_force(
            node(PathDirection::Backward, false),
            world.clone(),
            vec![east],
            &[],
        ),
        v2(-1.0, -1.0) * (4.0 / 2f32.sqrt()),
    );
    // corrective inside the path: zero
    let on_road = agent(v2(5.0, 0.5), Vec2::ZERO);
    assert_eq!(
        graph_force(
            node(PathDirection::Forward, true),
            world.clone(),
            vec![on_road],
            &[],
        ),
        Vec2::ZERO
    );
    // unknown path: zero, reported
    let mut harness = Harness::new(
        &graph_of(node(PathDirection::Forward, false)),
        World::default(),
        vec![me],
        &[],
    );
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownPath("road".into())]
    );
    let mut state = harness.state(1, 0);
    assert_eq!(harness.steer(0, &mut state), Vec2::ZERO);
}

// ---------------------------------------------------------------------------------------------
// Containment
// ---------------------------------------------------------------------------------------------

fn ten_by_ten() -> Rect {
    Rect::new(Vec2::ZERO, v2(10.0, 10.0))
}

#[test]
fn containment_does_nothing_while_the_prediction_is_inside() {
    // p = (5,5), v = (2,0), prediction 1: P = (7,5) inside: zero
    let me = agent(v2(5.0, 5.0), v2(2.0, 0.0));
    assert_eq!(
        behaviors::containment(&me, &ten_by_ten(), 1.0, 1.0),
        Vec2::ZERO
    );
    // P = (10,5) on the border counts as inside: zero
    let edge = agent(v2(8.0, 5.0), v2(2.0, 0.0));
    assert_eq!(
        behaviors::containment(&edge, &ten_by_ten(), 1.0, 1.0),
        Vec2::ZERO
    );
}

#[test]
fn containment_seeks_back_inside_the_shrunk_bounds() {
    // p = (6,5), v = (2,2), prediction 3: P = (12,11) outside; bounds shrunk by 1 = [1,9]^2,
    // clamp(P) = (9,9); aim - p = (3,4), F = (2.4,3.2) - (2,2) = (0.4,1.2)
    let me = agent(v2(6.0, 5.0), v2(2.0, 2.0));
    assert_close(
        behaviors::containment(&me, &ten_by_ten(), 3.0, 1.0),
        v2(0.4, 1.2),
    );
    // at rest outside: p = (12,5), P = p, aim = (9,5), F = (-4,0)
    let outside = agent(v2(12.0, 5.0), Vec2::ZERO);
    assert_eq!(
        behaviors::containment(&outside, &ten_by_ten(), 1.0, 1.0),
        v2(-4.0, 0.0)
    );
}

#[test]
fn containment_graph_uses_world_bounds_or_its_own_rect() {
    let outside = agent(v2(12.0, 5.0), Vec2::ZERO);
    // Region::World with world bounds [0,10]^2: F = (-4,0)
    let world = World::new(ten_by_ten());
    assert_eq!(
        graph_force(
            Node::Containment {
                bounds: Region::World,
                prediction_time: 1.0.into(),
                margin: 1.0.into(),
            },
            world,
            vec![outside],
            &[],
        ),
        v2(-4.0, 0.0)
    );
    // the default world bounds are [-50,50]^2: (12,5) is inside, zero
    assert_eq!(
        graph_force(
            Node::Containment {
                bounds: Region::World,
                prediction_time: 1.0.into(),
                margin: 1.0.into(),
            },
            World::default(),
            vec![outside],
            &[],
        ),
        Vec2::ZERO
    );
    // own rect [0,10]^2 margin 1 in the default world: the (0.4,1.2) case
    let me = agent(v2(6.0, 5.0), v2(2.0, 2.0));
    assert_close(
        graph_force(
            Node::Containment {
                bounds: Region::Rect(0.0.into(), 0.0.into(), 10.0.into(), 10.0.into()),
                prediction_time: 3.0.into(),
                margin: 1.0.into(),
            },
            World::default(),
            vec![me],
            &[],
        ),
        v2(0.4, 1.2),
    );
}

// ---------------------------------------------------------------------------------------------
// Flow field following
// ---------------------------------------------------------------------------------------------

/// 2x2 cells of size 2 at the origin; centres (1,1) (3,1) (1,3) (3,3) hold
/// +x, +y, -x and 0.
fn field() -> FlowField {
    let mut field = FlowField::new(Vec2::ZERO, 2.0, 2, 2);
    field.vectors = vec![Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::ZERO];
    field
}

#[test]
fn flow_field_following_matches_the_sampled_velocity() {
    // p = (0,1), v = (1,0), prediction 1: P = (1,1), w = (1,0), F = (4,0) - (1,0) = (3,0)
    let me = agent(v2(0.0, 1.0), v2(1.0, 0.0));
    assert_eq!(
        behaviors::flow_field_following(&me, &field(), 1.0),
        v2(3.0, 0.0)
    );
    // P = (2,1): halfway between (1,0) and (0,1): w = (0.5,0.5), desired (2,2)
    let between = agent(v2(2.0, 1.0), Vec2::ZERO);
    assert_eq!(
        behaviors::flow_field_following(&between, &field(), 1.0),
        v2(2.0, 2.0)
    );
    // P = (2,2), centre of the grid: w = mean of the four = (0,0.25), desired (0,1),
    // F = (0,1) - (1,0) = (-1,1)
    let centre = agent(v2(1.0, 2.0), v2(1.0, 0.0));
    assert_eq!(
        behaviors::flow_field_following(&centre, &field(), 1.0),
        v2(-1.0, 1.0)
    );
}

#[test]
fn flow_field_following_is_zero_where_the_field_is_zero_or_absent() {
    // P = (3,3): w = 0 -> zero exactly (not -v)
    let me = agent(v2(3.0, 2.0), v2(0.0, 1.0));
    assert_eq!(
        behaviors::flow_field_following(&me, &field(), 1.0),
        Vec2::ZERO
    );
    // P = (-1,1) outside the grid: zero
    let outside = agent(v2(-1.0, 1.0), v2(0.0, 1.0));
    assert_eq!(
        behaviors::flow_field_following(&outside, &field(), 0.0),
        Vec2::ZERO
    );
}

#[test]
fn flow_field_following_graph_binds_the_named_field() {
    let node = Node::FlowFieldFollowing {
        field: "wind".into(),
        prediction_time: 1.0.into(),
    };
    let mut world = World::default();
    world.set_flow_field("wind", field());
    let me = agent(v2(0.0, 1.0), v2(1.0, 0.0));
    assert_eq!(
        graph_force(node.clone(), world, vec![me], &[]),
        v2(3.0, 0.0)
    );
    let harness = Harness::new(&graph_of(node), World::default(), vec![me], &[]);
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownFlowField("wind".into())]
    );
}
