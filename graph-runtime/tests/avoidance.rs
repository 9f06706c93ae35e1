//! Avoidance priority and layers (issue 44): a VIP of high priority crosses a standing crowd
//! almost as fast as it walks alone, and two teams on disjoint masks never avoid each other,
//! checked agent by agent on Reciprocal's half-planes and on Separation's force.

mod levels;

use graph_runtime::{Guide, Simulation, Trace};

/// Arrival at the agent's own goal, then Reciprocal (ORCA) round the others.
const WALK: &str = r#"(format: "steergraph.graph", version: 1,
    vehicle: (mass: 1.0, max_force: 240.0, max_speed: 2.0, radius: 0.5),
    nodes: {
        1: Arrival(target: Own("goal"), slowing_distance: 2.0),
        2: Reciprocal(input: 1, time_horizon: 2.0, obstacle_time_horizon: 1.0,
                      neighbor_radius: 5.0, max_neighbors: 10.0, clearance: 0.1, keep_right: 0.0),
        3: Output(input: 2),
    })"#;

/// The VIP walks from (-30, 0) to (30, 0); `crowd` is the standing crowd's group, or none.
fn vip_scene(crowd: bool, priority: f32) -> String {
    let crowd = if crowd {
        // 300 agents standing on a 20 × 15 lattice, 2 apart, across the VIP's way (x from -19
        // to 19, y from -14 to 14): each holds its own spot (its goal is where it stands), a
        // body's width of room between neighbours, less than the VIP needs to pass.
        let spots: Vec<String> = (0..300)
            .map(|i| {
                let (x, y) = (-19.0 + (i % 20) as f32 * 2.0, -14.0 + (i / 20) as f32 * 2.0);
                format!("({x:?}, {y:?})")
            })
            .collect();
        let agents: Vec<String> = spots.iter().map(|p| format!("(position: {p})")).collect();
        format!(
            r#", (name: "crowd", graph: "walk.graph.ron", spawn: Agents([{}]),
                 goals: {{"goal": Each([{}])}})"#,
            agents.join(", "),
            spots.join(", ")
        )
    } else {
        String::new()
    };
    format!(
        r#"(format: "steergraph.scene", version: 1,
            bounds: (min: (-40.0, -20.0), max: (40.0, 20.0)), seed: 44,
            groups: [(name: "vip", graph: "walk.graph.ron",
                      spawn: Agents([(position: (-30.0, 0.0))]),
                      goals: {{"goal": Each([(30.0, 0.0)])}},
                      avoidance: Some((priority: {priority:?}))){crowd}])"#
    )
}

/// How long (s) the VIP takes to come within 1 unit of its goal (at most 60 s).
fn crossing_time(crowd: bool, priority: f32) -> f32 {
    let scene = vip_scene(crowd, priority);
    let graphs = [("walk.graph.ron", WALK)];
    let mut simulation =
        Simulation::new(&levels::assets(&scene, "vip.scene.ron", &graphs)).expect("runs");
    for tick in 1..=60 * 60 {
        simulation.step(1.0 / 60.0);
        if simulation.vehicles()[0]
            .position
            .distance(glam::Vec2::new(30.0, 0.0))
            < 1.0
        {
            return tick as f32 / 60.0;
        }
    }
    60.0
}

#[test]
fn a_vip_of_high_priority_crosses_a_standing_crowd_of_300_almost_as_fast_as_alone() {
    // Alone: 60 units at 2 u/s, slowing in the last 2: about 30 s.
    let alone = crossing_time(false, 1.0);
    // Priority 100 against the crowd's 1: the VIP takes 1/101 of each avoidance, the crowd
    // the rest. With equal priorities each takes half; at 0.01 the VIP gives way to all.
    let vip = crossing_time(true, 100.0);
    let equal = crossing_time(true, 1.0);
    let shy = crossing_time(true, 0.01);
    println!("alone {alone} s; through the crowd: priority 100 {vip} s, 1 {equal} s, 0.01 {shy} s");
    assert!((29.0..=32.0).contains(&alone), "{alone}");
    assert!(vip <= 1.25 * alone, "{vip} against {alone}");
    assert!(vip <= equal && equal < shy, "{vip}, {equal}, {shy}");
}

/// Two teams of 40 crossing each other's lines: team A (layer 1, avoiding layer 1) from the
/// west, team B (layer 2, avoiding layer 2) from the south.
const TEAMS: &str = r#"(format: "steergraph.scene", version: 1,
    bounds: (min: (-30.0, -30.0), max: (30.0, 30.0)), seed: 7,
    groups: [(name: "a", graph: "walk.graph.ron",
              spawn: Random(count: 40, area: Rect(min: (-20.0, -6.0), max: (-10.0, 6.0)), speed: 0.0),
              goals: {"goal": Random(Rect(min: (10.0, -6.0), max: (20.0, 6.0)))},
              avoidance: Some((layers: [1], mask: [1]))),
             (name: "b", graph: "walk.graph.ron",
              spawn: Random(count: 40, area: Rect(min: (-6.0, -20.0), max: (6.0, -10.0)), speed: 0.0),
              goals: {"goal": Random(Rect(min: (-6.0, 10.0), max: (6.0, 20.0)))},
              avoidance: Some((layers: [2], mask: [2])))])"#;

#[test]
fn two_teams_on_disjoint_masks_never_avoid_each_other_half_plane_by_half_plane() {
    let graphs = [("walk.graph.ron", WALK)];
    let mut simulation =
        Simulation::new(&levels::assets(TEAMS, "teams.scene.ron", &graphs)).expect("runs");
    let dt = 1.0 / 60.0;
    let (mut checked, mut cross_team_near) = (0, 0);
    for tick in 1..=15 * 60 {
        simulation.step(dt);
        if tick % 10 != 0 {
            continue;
        }
        let vehicles = simulation.vehicles().to_vec();
        for agent in 0..vehicles.len() {
            let team = agent / 40;
            // Within Reciprocal's neighbor radius (5): the teammates give half-planes (the
            // 10 nearest at most), the others none; the level has no walls or obstacles.
            let near = |other: usize| {
                other != agent && vehicles[other].position.distance(vehicles[agent].position) < 5.0
            };
            let mates = (0..vehicles.len())
                .filter(|&o| near(o) && o / 40 == team)
                .count();
            cross_team_near += (0..vehicles.len())
                .filter(|&o| near(o) && o / 40 != team)
                .count();
            let mut trace = Trace::default();
            simulation.trace(agent, dt, &mut trace).expect("a force");
            let total = trace
                .entries
                .iter()
                .find_map(|entry| match entry.guide {
                    Guide::Reciprocal { total, .. } => Some(usize::from(total)),
                    _ => None,
                })
                .expect("Reciprocal ran");
            assert_eq!(total, mates.min(10), "agent {agent} at tick {tick}");
            checked += 1;
        }
    }
    println!("{checked} agent-samples checked; {cross_team_near} times the other team was near");
    // The teams do meet: each check above had the other team's agents within reach.
    assert!(cross_team_near > 1_000, "{cross_team_near}");
}

#[test]
fn separation_pushes_from_teammates_and_not_from_the_other_team() {
    // Three agents 0.5 apart on a line: the middle one on team A, the left one on team A,
    // the right one on team B. Separation (radius 2) pushes the middle one away from its
    // teammate only: to the right, along +x.
    let graph = r#"(format: "steergraph.graph", version: 1,
        nodes: {1: Separation(radius: 2.0, fov: 360.0), 2: Output(input: 1)})"#;
    let scene = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
        groups: [(name: "a", graph: "sep.graph.ron",
                  spawn: Agents([(position: (0.0, 0.0)), (position: (-0.5, 0.0))])),
                 (name: "b", graph: "sep.graph.ron",
                  spawn: Agents([(position: (0.5, 0.0))]),
                  avoidance: Some((layers: [2], mask: [2])))])"#;
    let graphs = [("sep.graph.ron", graph)];
    let simulation =
        Simulation::new(&levels::assets(scene, "sep.scene.ron", &graphs)).expect("runs");
    let mut trace = Trace::default();
    let force = simulation
        .trace(0, 1.0 / 60.0, &mut trace)
        .expect("a force");
    // Separation's `p - q` over the squared distance: (0.5, 0) / 0.25 = (2, 0) from the one
    // teammate, truncated to the default max force (10): (2, 0).
    assert!(force.x > 1.99 && force.y.abs() < 1e-6, "{force}");
    // Without the layers, the two pushes cancel.
    let plain = scene.replace("avoidance: Some((layers: [2], mask: [2]))", "tags: []");
    let simulation =
        Simulation::new(&levels::assets(&plain, "sep.scene.ron", &graphs)).expect("runs");
    let force = simulation
        .trace(0, 1.0 / 60.0, &mut trace)
        .expect("a force");
    assert!(force.length() < 1e-5, "{force}");
}

#[test]
fn unaligned_collision_avoidance_dodges_teammates_only() {
    // Two agents head-on, 10 apart, closing at 4 u/s: Unaligned collision avoidance (look-ahead
    // 5 s) sees the collision 2.5 s ahead and steers agent 0 off the line. On disjoint masks it
    // sees nothing, and the force is zero.
    let graph = r#"(format: "steergraph.graph", version: 1,
        nodes: {1: UnalignedCollisionAvoidance(max_time: 5.0), 2: Output(input: 1)})"#;
    let scene = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-20.0, -20.0), max: (20.0, 20.0)),
        groups: [(name: "a", graph: "uca.graph.ron",
                  spawn: Agents([(position: (-5.0, 0.0), velocity: (2.0, 0.0))])),
                 (name: "b", graph: "uca.graph.ron",
                  spawn: Agents([(position: (5.0, 0.0), velocity: (-2.0, 0.0))]),
                  tags: [])])"#;
    let graphs = [("uca.graph.ron", graph)];
    let force = |scene: &str| {
        let simulation =
            Simulation::new(&levels::assets(scene, "uca.scene.ron", &graphs)).expect("runs");
        let mut trace = Trace::default();
        simulation
            .trace(0, 1.0 / 60.0, &mut trace)
            .expect("a force")
    };
    let together = force(scene);
    assert!(together.length() > 0.1, "{together}");
    let apart = force(&scene.replace("tags: []", "avoidance: Some((layers: [2], mask: [2]))"));
    assert_eq!(apart, glam::Vec2::ZERO);
}

/// Arrival, Separation seen over 270° and Unaligned collision avoidance blended, then
/// Reciprocal: every way a node reads its neighbors (sums, one by one, half-planes).
const STACKED: &str = r#"(format: "steergraph.graph", version: 1,
    vehicle: (mass: 1.0, max_force: 240.0, max_speed: 2.0, radius: 0.5),
    nodes: {
        1: Arrival(target: Own("goal"), slowing_distance: 2.0),
        2: Separation(radius: 3.0, fov: 270.0),
        3: UnalignedCollisionAvoidance(max_time: 2.0),
        4: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: 2.0), (node: 3, weight: 1.0)]),
        5: Reciprocal(input: 4, time_horizon: 2.0, obstacle_time_horizon: 1.0,
                      neighbor_radius: 5.0, max_neighbors: 10.0, clearance: 0.1, keep_right: 0.0),
        6: Output(input: 5),
    })"#;

/// Team A: 60 agents in a 1-unit square round the origin, each with its own goal; and, with
/// `others`, team B: 400 agents stacked on the origin on a layer team A does not avoid (and
/// avoiding only each other), as the fuzzer's stacked crowd with avoidance settings was.
fn stacked_teams(others: bool) -> String {
    let b = if others {
        r#", (name: "b", graph: "stacked.graph.ron",
              spawn: Random(count: 400, area: Rect(min: (0.0, 0.0), max: (0.0, 0.0))),
              goals: {"goal": Random(Rect(min: (-5.0, -5.0), max: (5.0, 5.0)))},
              avoidance: Some((layers: [2], mask: [2])))"#
    } else {
        ""
    };
    format!(
        r#"(format: "steergraph.scene", version: 1,
            bounds: (min: (-20.0, -20.0), max: (20.0, 20.0)), seed: 46,
            groups: [(name: "a", graph: "stacked.graph.ron",
                      spawn: Random(count: 60, area: Rect(min: (-0.5, -0.5), max: (0.5, 0.5))),
                      goals: {{"goal": Random(Rect(min: (-8.0, -8.0), max: (8.0, 8.0)))}}){b}])"#
    )
}

/// Team A moves to the bit as if team B were not there, though B's 400 agents stand in its
/// midst. With B, the cells round A hold 460 agents, more than the scans' limits (80 for
/// Reciprocal's 10 neighbors, 256 for the group nodes), so A's neighbors come from the k-d
/// tree, which tests each agent's layers (and skips subtrees with none on A's mask); without
/// B, 60 agents are scanned cell by cell. Both give each agent the same neighbors in the same
/// order. Before the tree tested layers, such a crowd listed and sorted the whole stack for
/// every agent (the fuzzer's input took 11.6 s for 100 ticks of 2,865 agents).
#[test]
fn a_team_beside_a_stacked_crowd_on_another_layer_moves_as_if_alone() {
    let graphs = [("stacked.graph.ron", STACKED)];
    let run = |others: bool| {
        let assets = levels::assets(&stacked_teams(others), "stacked.scene.ron", &graphs);
        let mut simulation = Simulation::new(&assets).expect("runs");
        assert_eq!(simulation.vehicles().len(), if others { 460 } else { 60 });
        let mut path = Vec::new();
        for _ in 0..120 {
            simulation.step(1.0 / 60.0);
            path.extend(simulation.vehicles()[..60].iter().map(|v| v.position));
        }
        path
    };
    let (alone, beside) = (run(false), run(true));
    let moved = alone[..60]
        .iter()
        .zip(&alone[alone.len() - 60..])
        .filter(|(first, last)| first.distance(**last) > 0.5)
        .count();
    // The team spreads out toward its goals: most of it moves, so the comparison means
    // something.
    assert!(moved > 40, "{moved} of 60 moved");
    for (tick, (a, b)) in alone.chunks(60).zip(beside.chunks(60)).enumerate() {
        for (agent, (a, b)) in a.iter().zip(b).enumerate() {
            assert_eq!(
                (a.x.to_bits(), a.y.to_bits()),
                (b.x.to_bits(), b.y.to_bits()),
                "agent {agent}, tick {}: {a} alone, {b} beside the crowd",
                tick + 1
            );
        }
    }
}
