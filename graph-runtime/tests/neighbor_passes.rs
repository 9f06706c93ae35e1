//! The compiler plans one neighbor pass per distinct neighborhood (radius and field of view)
//! of a graph's Separation, Cohesion, Alignment and Flocking nodes, and the shared pass gives
//! each node exactly the force its formula gives on its own.

use glam::Vec2;
use graph_runtime::behaviors::{self, FieldOfView};
use graph_runtime::{
    AgentState, Bindings, Context, Graph, Link, Node, NodeId, Number, Program, Scratch,
    SpatialGrid, TagTable, Vehicle, VehicleParams, WeightedInput, World, compile,
};

fn weighted(node: NodeId, weight: f32) -> WeightedInput {
    WeightedInput {
        node: Link(Some(node)),
        weight: weight.into(),
    }
}

/// A blend of the three group nodes with the given radii (all with `fov`), weights 1, 2, 3.
fn three_group_nodes(radii: [Number; 3], fov: f32) -> Graph {
    let mut graph = Graph::default();
    let [a, b, c] = radii;
    let separation = graph.add(Node::Separation {
        radius: a,
        fov: fov.into(),
        max_neighbors: 64.0.into(),
    });
    let cohesion = graph.add(Node::Cohesion {
        radius: b,
        fov: fov.into(),
        max_neighbors: 64.0.into(),
    });
    let alignment = graph.add(Node::Alignment {
        radius: c,
        fov: fov.into(),
        max_neighbors: 64.0.into(),
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            weighted(separation, 1.0),
            weighted(cohesion, 2.0),
            weighted(alignment, 3.0),
        ],
    });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    graph
}

#[test]
fn group_nodes_with_one_neighborhood_share_one_pass() {
    let same = compile(&three_group_nodes(
        [5.0.into(), 5.0.into(), 5.0.into()],
        360.0,
    ))
    .expect("the test graph compiles");
    assert_eq!(same.neighbor_passes(), 1);
    let two = compile(&three_group_nodes(
        [2.0.into(), 5.0.into(), 5.0.into()],
        360.0,
    ))
    .expect("the test graph compiles");
    assert_eq!(two.neighbor_passes(), 2);
    let three = compile(&three_group_nodes(
        [1.0.into(), 2.0.into(), 3.0.into()],
        270.0,
    ))
    .expect("the test graph compiles");
    assert_eq!(three.neighbor_passes(), 3);
    // The same parameter is the same neighborhood; a literal of equal value is kept apart
    // (an override could change the parameter).
    let mut graph = three_group_nodes(
        [
            Number::Parameter("r".into()),
            Number::Parameter("r".into()),
            5.0.into(),
        ],
        360.0,
    );
    graph.parameters.insert("r".into(), 5.0);
    assert_eq!(
        compile(&graph)
            .expect("the test graph compiles")
            .neighbor_passes(),
        2
    );
    // A graph without group nodes plans none.
    let mut seek = Graph::default();
    let node = seek.add(Node::Seek {
        target: graph_runtime::Target::Point(1.0.into(), 1.0.into()),
    });
    seek.add(Node::Output {
        input: Link(Some(node)),
    });
    assert_eq!(
        compile(&seek)
            .expect("the test graph compiles")
            .neighbor_passes(),
        0
    );
}

/// Agent 0 at the origin facing +x at speed 1, and neighbors around it.
fn agents() -> Vec<Vehicle> {
    let params = VehicleParams::default();
    let at =
        |x: f32, y: f32, vx: f32, vy: f32| Vehicle::new(Vec2::new(x, y), Vec2::new(vx, vy), params);
    vec![
        at(0.0, 0.0, 1.0, 0.0),
        at(1.0, 0.0, 0.0, 1.0),   // ahead, distance 1
        at(0.0, 1.5, -1.0, 0.0),  // left, 1.5
        at(-2.5, 0.0, 0.0, -2.0), // behind, 2.5
        at(3.0, 3.0, 2.0, 2.0),   // ahead-left, 4.24
        at(0.0, -4.5, 1.0, 1.0),  // right, 4.5
        at(6.0, 0.0, 1.0, 0.0),   // beyond 5
    ]
}

fn steer(program: &Program, vehicles: &[Vehicle]) -> Vec2 {
    let world = World::default();
    let (bindings, errors) = Bindings::new(program, &world, &TagTable::default());
    assert!(errors.is_empty());
    let mut grid = SpatialGrid::new(2.0);
    grid.rebuild(vehicles);
    let params = program.default_parameters();
    let context = Context::new(&world, vehicles, &grid, &bindings, &params, 1.0 / 60.0);
    let mut state = AgentState::new(program, 1, 0);
    program.steer(&context, 0, &mut state, &mut Scratch::default())
}

#[test]
fn a_shared_pass_gives_each_node_the_force_of_its_own_formula() {
    let vehicles = agents();
    let me = &vehicles[0];
    // The neighbors in the order the sums take them: the grid's (as `steer` builds it).
    let mut grid = SpatialGrid::new(2.0);
    grid.rebuild(&vehicles);
    let near = |radius: f32, fov: f32| {
        let fov = FieldOfView::from_degrees(fov);
        let in_grid_order: Vec<&Vehicle> = grid
            .runs(me.position, radius)
            .flat_map(|run| run.agents.iter().filter(|&&agent| agent != 0))
            .map(|&agent| &vehicles[agent as usize])
            .collect();
        in_grid_order
            .into_iter()
            .filter(move |other| behaviors::in_neighborhood(me, other.position, radius, fov))
    };
    for (radii, fov) in [
        ([5.0, 5.0, 5.0], 360.0),
        ([5.0, 5.0, 5.0], 180.0),
        ([2.0, 5.0, 3.0], 270.0),
    ] {
        let program = compile(&three_group_nodes(radii.map(Into::into), fov))
            .expect("the test graph compiles");
        let expected = Vec2::ZERO
            + 1.0 * behaviors::separation(me, near(radii[0], fov))
            + 2.0 * behaviors::cohesion(me, near(radii[1], fov))
            + 3.0 * behaviors::alignment(me, near(radii[2], fov));
        assert_eq!(
            steer(&program, &vehicles),
            expected,
            "radii {radii:?}, fov {fov}"
        );
    }
    // Worked by hand for radius 5, full view: neighbors 1..=5 (agent 6 is 6 away).
    // Separation: (-1, 0)/1 + (0, -1.5)/2.25 + (2.5, 0)/6.25 + (-3, -3)/18 + (0, 4.5)/20.25
    //   = (-1 + 0.4 - 1/6, -2/3 - 1/6 + 2/9) = (-0.76667, -0.61111).
    let program = compile(&three_group_nodes(
        [5.0.into(), 5.0.into(), 5.0.into()],
        360.0,
    ))
    .expect("the test graph compiles");
    let separation = behaviors::separation(me, near(5.0, 360.0));
    assert!((separation - Vec2::new(-0.766_667, -0.611_111)).length() < 1e-5);
    // Cohesion: mean of (1,0), (0,1.5), (-2.5,0), (3,3), (0,-4.5) = (0.3, 0); alignment: mean
    // of the velocities (0,1), (-1,0), (0,-2), (2,2), (1,1) = (0.4, 0.4), minus (1, 0).
    let force = steer(&program, &vehicles);
    let by_hand = separation + 2.0 * Vec2::new(0.3, 0.0) + 3.0 * Vec2::new(-0.6, 0.4);
    assert!(
        (force - by_hand).length() < 1e-5,
        "{force} against {by_hand}"
    );
}
