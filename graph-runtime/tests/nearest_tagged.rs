//! `NearestTagged` in a simulation: the nearest other agent carrying the tag, the lower agent on a
//! tie, whichever agents stand around it. A simulation reads only the tag's members (its
//! agents' tags do not change), so a crowd following a few tagged agents costs what the
//! tagged agents cost, not the whole crowd; the answer is the one reading every agent gives.

#[expect(dead_code, reason = "each test file uses the workloads it checks")]
mod workloads;

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Crowd, Graph, Link, Node, Scene, SceneAssets, Simulation, Spawn,
    TagTable, Target, Vehicle, VehicleParams, World, behaviors, compile,
};

const PARAMS: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 100.0,
    max_speed: 5.0,
    radius: 0.5,
};

fn seek_nearest(tag: &str) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::NearestTagged(tag.to_owned()),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    graph
}

fn group(name: &str, tags: &[&str], at: Vec<Vec2>) -> AgentGroup {
    AgentGroup {
        vehicle: Some(PARAMS),
        tags: tags.iter().map(|&tag| tag.to_owned()).collect(),
        ..AgentGroup::new(
            name,
            "seek_leader.graph.ron",
            Spawn::Agents(
                at.into_iter()
                    .map(|position| AgentSpawn {
                        position,
                        velocity: Vec2::ZERO,
                    })
                    .collect(),
            ),
        )
    }
}

/// Agents 0 and 1 are leaders at (10, 0) and (-10, 0); then untagged followers at (0, 0) and
/// (-4, 3), then a 20 × 15 grid of followers, then agents tagged "scout" (not "leader")
/// beside every follower. Every agent seeks the nearest other leader.
fn crowd() -> SceneAssets {
    let mut followers = vec![Vec2::new(0.0, 0.0), Vec2::new(-4.0, 3.0)];
    for row in 0..15_u8 {
        for column in 0..20_u8 {
            followers.push(Vec2::new(
                f32::from(column) * 1.7 - 16.0,
                f32::from(row) * 1.3 - 9.0,
            ));
        }
    }
    let scouts = followers
        .iter()
        .map(|p| *p + Vec2::new(0.25, 0.0))
        .collect();
    let scene = Scene {
        seed: 3,
        groups: vec![
            group(
                "leaders",
                &["leader"],
                vec![Vec2::new(10.0, 0.0), Vec2::new(-10.0, 0.0)],
            ),
            group("followers", &[], followers),
            group("scouts", &["scout"], scouts),
        ],
        ..Scene::default()
    };
    SceneAssets {
        scene,
        origin: "nearest_tagged.scene.ron".to_owned(),
        graphs: [("seek_leader.graph.ron".to_owned(), seek_nearest("leader"))].into(),
        flow_fields: BTreeMap::new(),
    }
}

#[test]
fn each_agent_seeks_the_nearest_other_leader_and_the_lower_leader_on_a_tie() {
    let mut simulation = Simulation::new(&crowd()).expect("the scene builds");
    let start = simulation.vehicles().to_vec();
    simulation.step(1.0 / 60.0);
    let forces = simulation.forces();

    // Max speed 5, at rest: the force is 5 toward the leader sought.
    // Leader 0 at (10, 0) seeks the other leader, (-10, 0): (-5, 0); leader 1 seeks leader 0.
    assert_eq!(forces[0], Vec2::new(-5.0, 0.0));
    assert_eq!(forces[1], Vec2::new(5.0, 0.0));
    // The follower at (0, 0) is 10 from both: the tie goes to leader 0, at (10, 0).
    assert_eq!(forces[2], Vec2::new(5.0, 0.0));
    // The follower at (-4, 3): 14² + 3² = 205 to leader 0 and 6² + 3² = 45 to leader 1,
    // so it seeks (-10, 0) along (-6, -3) / √45: (-4.472, -2.236).
    assert!(
        (forces[3] - Vec2::new(-4.472_136, -2.236_068)).length() < 1e-5,
        "{}",
        forces[3]
    );

    // Every agent, against the nearest leader found by reading every agent. The scouts
    // beside each follower are nearer than any leader and carry another tag: never sought.
    let leaders = [0_usize, 1];
    for (agent, vehicle) in start.iter().enumerate() {
        let mut nearest: Option<(f32, usize)> = None;
        for &leader in &leaders {
            let distance = start[leader].position.distance_squared(vehicle.position);
            if leader != agent && nearest.is_none_or(|(best, _)| distance < best) {
                nearest = Some((distance, leader));
            }
        }
        let (_, leader) = nearest.expect("two leaders");
        let expected = behaviors::seek(vehicle, start[leader].position);
        assert_eq!(
            forces[agent], expected,
            "agent {agent} at {} should seek leader {leader}",
            vehicle.position
        );
    }
}

#[test]
fn a_hot_swapped_or_rebound_program_still_reads_the_tags_members() {
    // After `set_program` and `rebind` the bindings are made again: they must still find the
    // leaders (a follower at (0, 0) seeks leader 0 at (10, 0), force (5, 0)).
    let mut simulation = Simulation::new(&crowd()).expect("the scene builds");
    let group = simulation.groups()[1].clone();
    let errors = simulation
        .set_program(1, group.program, group.params)
        .expect("within the neighbor limit");
    assert!(errors.is_empty(), "{errors:?}");
    simulation.step(1.0 / 60.0);
    assert_eq!(simulation.forces()[2], Vec2::new(5.0, 0.0));
    assert!(simulation.rebind().is_empty());
    simulation.step(1.0 / 60.0);
    // Still toward (10, 0) from near the origin: x dominates, y stays 0 (on the axis).
    let force = simulation.forces()[2];
    assert!(force.x > 4.9 && force.y == 0.0, "{force}");
}

/// Reading every agent for every follower was 40,000² = 1.6 billion distance tests a tick
/// (many seconds in a debug build); reading the two leaders is 80,000. How long two ticks take
/// is a release check (`examples/time_bounds.rs`); here, that every follower follows.
#[test]
fn forty_thousand_followers_of_two_leaders_all_follow() {
    let assets = workloads::followers_of_two_leaders();
    let mut simulation = Simulation::new(&assets).expect("the scene builds");
    simulation.step(workloads::TICK);
    simulation.step(workloads::TICK);
    assert_eq!(simulation.forces().len(), workloads::FOLLOWERS as usize + 2);
    // The second tick's force is the desired velocity (length 5) less the first tick's speed
    // gained (5 / 60), so its length is about 4.92.
    assert!(simulation.forces().iter().all(|f| f.length() > 4.0));
}

#[test]
fn a_crowd_follows_its_games_tags_as_they_change_and_after_a_hot_swap() {
    // A game's own loop: leaders at (10, 0) and (-10, 0), followers at (0, 0) and (-4, 3).
    let mut table = TagTable::default();
    let leader = table.mask(&["leader"]).expect("one tag");
    let graph = seek_nearest("leader");
    let mut crowd = Crowd::with_tags(
        compile(&graph).expect("compiles"),
        &World::default(),
        &table,
        1,
        &BTreeMap::new(),
    )
    .expect("binds");
    let at = |x: f32, y: f32| Vehicle::new(Vec2::new(x, y), Vec2::ZERO, PARAMS);
    let vehicles = [at(10.0, 0.0), at(-10.0, 0.0), at(0.0, 0.0), at(-4.0, 3.0)];
    let mut forces = Vec::new();
    let world = World::default();

    crowd.steer(
        &world,
        &vehicles,
        &[leader, leader, 0, 0],
        1.0 / 60.0,
        &mut forces,
    );
    assert_eq!(forces[2], Vec2::new(5.0, 0.0), "the tie goes to leader 0");
    assert!((forces[3] - Vec2::new(-4.472_136, -2.236_068)).length() < 1e-5);

    // Agent 1 is no leader any more: the follower at (-4, 3) turns to (10, 0), along
    // (14, -3) / √205 × 5 = (4.88901, -1.04765); leader 0 has no other leader: zero.
    let tags = [leader, 0, 0, 0];
    crowd.steer(&world, &vehicles, &tags, 1.0 / 60.0, &mut forces);
    assert!(
        (forces[3] - Vec2::new(4.889_012, -1.047_645)).length() < 1e-5,
        "{}",
        forces[3]
    );
    assert_eq!(forces[0], Vec2::ZERO);

    // A hot swap keeps reading the game's tags.
    crowd
        .set_program(compile(&graph).expect("compiles"), &world, &BTreeMap::new())
        .expect("binds");
    crowd.steer(&world, &vehicles, &tags, 1.0 / 60.0, &mut forces);
    assert!((forces[3] - Vec2::new(4.889_012, -1.047_645)).length() < 1e-5);
}

/// `count` points in rows of `across`, `spacing` apart, the first at `corner`.
fn lattice(count: u16, across: u16, spacing: f32, corner: Vec2) -> Vec<Vec2> {
    (0..count)
        .map(|i| corner + Vec2::new(f32::from(i % across), f32::from(i / across)) * spacing)
        .collect()
}

#[test]
fn with_hundreds_of_leaders_each_agent_still_seeks_the_nearest_and_the_lower_on_a_tie() {
    // 300 leaders on a lattice of spacing 2 (many followers equidistant from two or four of
    // them) and 500 followers on a finer lattice: enough readers and members that the
    // simulation searches the leaders by cell. Every force is the one the nearest
    // leader by reading them all gives, bit for bit.
    let leaders = lattice(300, 20, 2.0, Vec2::new(-20.0, -15.0));
    let followers = lattice(500, 25, 1.5, Vec2::new(-19.0, -14.0));
    let mut assets = crowd();
    assets.scene.groups = vec![
        group("leaders", &["leader"], leaders.clone()),
        group("followers", &[], followers),
    ];
    let mut simulation = Simulation::new(&assets).expect("the scene builds");
    for tick in 0..3 {
        let start = simulation.vehicles().to_vec();
        simulation.step(1.0 / 60.0);
        for (agent, vehicle) in start.iter().enumerate() {
            let mut nearest: Option<(f32, usize)> = None;
            for (leader, other) in start.iter().enumerate().take(leaders.len()) {
                let distance = other.position.distance_squared(vehicle.position);
                if leader != agent && nearest.is_none_or(|(best, _)| distance < best) {
                    nearest = Some((distance, leader));
                }
            }
            let (_, leader) = nearest.expect("300 leaders");
            let expected = behaviors::seek(vehicle, start[leader].position);
            assert_eq!(
                simulation.forces()[agent].to_array().map(f32::to_bits),
                expected.to_array().map(f32::to_bits),
                "tick {tick}: agent {agent} at {} should seek leader {leader}",
                vehicle.position
            );
        }
    }
}

#[test]
fn a_warm_tick_searching_the_leaders_by_cell_allocates_nothing() {
    // Placing 300 leaders in cells each tick reuses the cells' buffers. One thread, so every
    // allocation would happen on the measured thread.
    let leaders = lattice(300, 20, 2.0, Vec2::new(-20.0, -15.0));
    let mut assets = crowd();
    assets.scene.groups = vec![
        group("leaders", &["leader"], leaders),
        group("followers", &[], vec![Vec2::new(1.0, 2.0); 40]),
    ];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let mut simulation = Simulation::new(&assets).expect("the scene builds");
        for _ in 0..5 {
            simulation.step(1.0 / 60.0);
        }
        let info = allocation_counter::measure(|| {
            for _ in 0..5 {
                simulation.step(1.0 / 60.0);
            }
        });
        assert_eq!(info.count_total, 0, "allocations in 5 warm ticks");
    });
}
