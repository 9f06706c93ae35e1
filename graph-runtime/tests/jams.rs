//! A door that jams while agents walk to it: routes that pay for the agents standing at a door
//! are planned again, round by the other door, and everyone arrives; routes that ignore crowds
//! keep pressing into the jam.

mod levels;

use graph_runtime::Simulation;

/// A wall across the level at x = 0 with two 3-unit doors: A in the middle (y from -1.5 to
/// 1.5) and B near the top (y from 9 to 12). 30 walkers far north-west, each with its own goal
/// south-east (a grid of points 2 apart, so that no two walkers' goals crowd each other out:
/// Separation keeps them 1.6 apart), so the way through A is the short one (B is about 6 units
/// longer); 8 blockers
/// south-west of A that walk into it and stand there, plugging it, 2 to 3 s in.
const SCENE: &str = r#"(format: "steergraph.scene", version: 1,
    bounds: (min: (-20.0, -15.0), max: (20.0, 15.0)), seed: 45,
    walls: [(points: [(0.0, -15.0), (0.0, -1.5)], closed: false),
            (points: [(0.0, 1.5), (0.0, 9.0)], closed: false),
            (points: [(0.0, 12.0), (0.0, 15.0)], closed: false)],
    groups: [(name: "walkers", graph: "walk.graph.ron",
              spawn: Random(count: 30, area: Rect(min: (-19.0, 3.0), max: (-15.0, 8.0)), speed: 0.0),
              goals: {"goal": Each([(4.0, 1.0), (6.0, 1.0), (8.0, 1.0), (10.0, 1.0), (12.0, 1.0), (14.0, 1.0), (4.0, -1.0), (6.0, -1.0), (8.0, -1.0), (10.0, -1.0), (12.0, -1.0), (14.0, -1.0), (4.0, -3.0), (6.0, -3.0), (8.0, -3.0), (10.0, -3.0), (12.0, -3.0), (14.0, -3.0), (4.0, -5.0), (6.0, -5.0), (8.0, -5.0), (10.0, -5.0), (12.0, -5.0), (14.0, -5.0), (4.0, -7.0), (6.0, -7.0), (8.0, -7.0), (10.0, -7.0), (12.0, -7.0), (14.0, -7.0)])}),
             (name: "blockers", graph: "stand.graph.ron",
              spawn: Random(count: 8, area: Rect(min: (-5.0, -7.0), max: (-2.0, -4.0)), speed: 0.0),
              goals: {"goal": Random(Rect(min: (-0.4, -1.1), max: (0.4, 1.1)))})])"#;

/// Walls, Separation, then the route to the agent's own goal, paying `crowd_cost` per agent
/// standing at a door; slower than the blockers so that the door jams before they reach it.
fn walk(crowd_cost: f32) -> String {
    format!(
        r#"(format: "steergraph.graph", version: 1,
        vehicle: (mass: 1.0, max_force: 20.0, max_speed: 3.0, radius: 0.5),
        nodes: {{
            1: WallAvoidance(min_length: 1.0, lookahead_time: 0.4, whisker_angle: 35.0, margin: 0.4),
            2: Separation(radius: 1.6, fov: 360.0),
            3: Scale(input: 2, factor: 2.0),
            4: Navigate(target: Own("goal"), ahead_distance: 2.0, slowing_distance: 3.0,
                        replan_distance: 2.0, crowd_cost: {crowd_cost:?}),
            5: Budget(inputs: [1, 3, 4]),
            6: Output(input: 5),
        }})"#
    )
}

/// The blockers walk their route to a point of door A and stand there.
const STAND: &str = r#"(format: "steergraph.graph", version: 1,
    vehicle: (mass: 1.0, max_force: 20.0, max_speed: 4.0, radius: 0.5),
    nodes: {
        1: Navigate(target: Own("goal"), ahead_distance: 2.0, slowing_distance: 1.0,
                    replan_distance: 2.0, crowd_cost: 0.0),
        2: Output(input: 1),
    })"#;

const WALKERS: usize = 30;

fn simulation(crowd_cost: f32) -> Simulation {
    let walk = walk(crowd_cost);
    let graphs = [
        ("walk.graph.ron", walk.as_str()),
        ("stand.graph.ron", STAND),
    ];
    Simulation::new(&levels::assets(SCENE, "jam.scene.ron", &graphs)).expect("runs")
}

/// Whether walker `agent`'s route goes by door B (turns at a corner of it).
fn by_door_b(simulation: &Simulation, agent: usize) -> bool {
    let at_b = |p: &glam::Vec2| p.x.abs() <= 1.0 && p.y > 8.0;
    (simulation.routes(agent).iter()).any(|slot| slot.route().points.iter().any(at_b))
}

/// Whether the blockers jam door A: half of them in it, standing (slower than a quarter of
/// their top speed, 4).
fn jammed(simulation: &Simulation) -> bool {
    let standing = (WALKERS..simulation.vehicles().len()).filter(|&b| {
        let v = simulation.vehicles()[b];
        v.position.x.abs() < 1.0 && v.position.y.abs() < 1.5 && v.velocity.length() < 1.0
    });
    standing.count() * 2 >= simulation.vehicles().len() - WALKERS
}

/// Marks the walkers within two radii of their goals (for good: they arrived).
fn mark_arrivals(simulation: &Simulation, arrived: &mut [bool]) {
    for (agent, done) in arrived.iter_mut().enumerate() {
        let goal = simulation.own(agent).and_then(|own| own.goal("goal"));
        let v = simulation.vehicles()[agent];
        *done |= goal.is_some_and(|goal| v.position.distance(goal) <= 2.0 * v.radius);
    }
}

#[test]
fn walkers_heading_for_a_door_that_jams_take_the_other_door_and_all_arrive() {
    let mut simulation = simulation(4.0);
    let dt = 1.0 / 60.0;
    // First plans: every walker's route goes through door A, the short way.
    simulation.step(dt);
    let first_by_b = (0..WALKERS).filter(|&a| by_door_b(&simulation, a)).count();
    assert_eq!(
        first_by_b, 0,
        "before the jam, door A is the short way for all"
    );
    let mut arrived = [false; WALKERS];
    let (mut jammed_at, mut heading) = (None, Vec::new());
    let mut rerouted_after = [None; WALKERS];
    let mut everyone_at = None;
    for tick in 2..=70 * 60 {
        simulation.step(dt);
        let t = tick as f32 * dt;
        if jammed_at.is_none() && jammed(&simulation) {
            jammed_at = Some(t);
            // Those still west of the wall whose route goes through A.
            heading = (0..WALKERS)
                .filter(|&a| simulation.vehicles()[a].position.x < -1.0)
                .filter(|&a| !by_door_b(&simulation, a))
                .collect();
        }
        if let Some(jammed_at) = jammed_at {
            for &agent in &heading {
                if rerouted_after[agent].is_none() && by_door_b(&simulation, agent) {
                    rerouted_after[agent] = Some(t - jammed_at);
                }
            }
        }
        mark_arrivals(&simulation, &mut arrived);
        if arrived.iter().all(|&a| a) {
            everyone_at = Some(t);
            break;
        }
    }
    let jammed_at = jammed_at.expect("the blockers jam door A");
    let within_3 = (heading.iter())
        .filter(|&&a| rerouted_after[a].is_some_and(|r| r <= 3.0))
        .count();
    println!(
        "door A jammed at {jammed_at} s; {} heading for it; re-routed within 3 s: {within_3} ({rerouted_after:?}); everyone arrived at {everyone_at:?} s",
        heading.len()
    );
    assert!(heading.len() >= WALKERS * 9 / 10, "{}", heading.len());
    assert!(
        within_3 * 10 >= heading.len() * 9,
        "{within_3} of {}",
        heading.len()
    );
    assert!(everyone_at.is_some_and(|t| t <= 60.0), "{everyone_at:?}");
}

#[test]
fn walkers_whose_routes_ignore_crowds_press_into_the_jam() {
    // The same level and seeds with `crowd_cost: 0`: the routes never pay for the blockers, so
    // the walkers keep heading for door A and, after 60 s, few have squeezed through.
    let mut simulation = simulation(0.0);
    let mut arrived = [false; WALKERS];
    for _ in 0..60 * 60 {
        simulation.step(1.0 / 60.0);
        mark_arrivals(&simulation, &mut arrived);
    }
    let by_b = (0..WALKERS).filter(|&a| by_door_b(&simulation, a)).count();
    let arrivals = arrived.iter().filter(|&&a| a).count();
    println!("ignoring crowds: {arrivals} of {WALKERS} arrived in 60 s, {by_b} routed by door B");
    assert_eq!(by_b, 0);
    assert!(arrivals <= WALKERS / 2, "{arrivals}");
}

#[test]
fn an_agent_held_in_place_plans_its_route_again_each_time_its_stuck_clock_fires() {
    // A game whose physics holds an agent still (something the mesh does not know blocks it):
    // its stuck clock runs, and once it reads 2 s on a route planned 2 s or more before, the
    // route is planned again. The first plan comes on tick 2 (tick 1's evaluation asks for
    // it); the route's age and the clock then count 1/60 s a tick, and 120 of those sum in
    // f32 to just under 2 s, so each clock fires after 121 ticks: plans on ticks 123, 244 and
    // 365 (a plan resets neither the clock nor the hold).
    let world = {
        let scene = levels::assets(SCENE, "jam.scene.ron", &[]).scene;
        let mut world =
            graph_runtime::World::from_scene(&scene, &std::collections::BTreeMap::default());
        world.build_navigation(0.5).expect("the level builds");
        world
    };
    let walk = walk(4.0);
    let program = graph_runtime::compile(
        &graph_runtime::Graph::from_ron(&walk, "walk.graph.ron").expect("parses"),
    )
    .expect("compiles");
    let mut crowd =
        graph_runtime::Crowd::new(program, &world, 1, &std::collections::BTreeMap::default())
            .expect("binds");
    crowd
        .set_goal(0, "goal", glam::Vec2::new(10.0, 0.0))
        .expect("a finite goal");
    let params = graph_runtime::VehicleParams::default();
    let start = glam::Vec2::new(-10.0, 0.0);
    let mut vehicles = vec![graph_runtime::Vehicle::new(start, glam::Vec2::ZERO, params)];
    let mut plans = Vec::new();
    for tick in 1..=420 {
        crowd.step(&world, &mut vehicles, &[], 1.0 / 60.0);
        // Held: the game puts it back where it was, at rest.
        vehicles[0].position = glam::Vec2::new(-10.0, 0.0);
        vehicles[0].velocity = glam::Vec2::ZERO;
        let planned = crowd.routes(0)[0].plans();
        if plans.last().is_none_or(|&(_, p)| p != planned) {
            plans.push((tick, planned));
        }
    }
    println!("plans (tick, count): {plans:?}");
    assert_eq!(plans, [(1, 0), (2, 1), (123, 2), (244, 3), (365, 4)]);
}

#[test]
fn route_efficiency_is_one_for_a_straight_walk_and_counts_the_detour_round_a_jam() {
    // One agent in an empty 20 × 20 level, from (-5, 0) to its own goal (5, 0): its route is
    // the straight line, 10 long; sampled every tick, the walk through the sampled positions
    // plus what is left to the goal on arrival is 10 too, so the ratio is 1 (to rounding).
    let scene = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)), seed: 1,
        groups: [(name: "one", graph: "walk.graph.ron",
                  spawn: Agents([(position: (-5.0, 0.0))]),
                  goals: {"goal": Each([(5.0, 0.0)])})])"#;
    let walk = walk(4.0);
    let graphs = [("walk.graph.ron", walk.as_str())];
    let mut simulation =
        Simulation::new(&levels::assets(scene, "one.scene.ron", &graphs)).expect("runs");
    let mut tracker = graph_runtime::MetricsTracker::default();
    let mut sample = tracker.observe(&simulation, 0.0);
    for tick in 1..=600 {
        simulation.step(1.0 / 60.0);
        sample = tracker.observe(&simulation, tick as f32 / 60.0);
    }
    let straight = sample.route_efficiency.expect("it arrived");
    assert!((straight - 1.0).abs() < 1e-4, "{straight}");
    assert_eq!(sample.unreachable_agents, Some(0));
    // The jammed door: the walkers' first routes go through door A, but they walk round by
    // door B, about 6 units longer on routes of 26 to 30: more than 1.15 times as far.
    let mut simulation = crate::simulation(4.0);
    let mut tracker = graph_runtime::MetricsTracker::default();
    for tick in 0..=60 * 60 {
        if tick > 0 {
            simulation.step(1.0 / 60.0);
        }
        if tick % 6 == 0 {
            sample = tracker.observe(&simulation, tick as f32 / 60.0);
        }
    }
    let round = sample.route_efficiency.expect("they arrived");
    println!("route efficiency: straight {straight}, round the jam {round}");
    assert!(round > 1.15, "{round}");
}

#[test]
fn a_sweep_of_the_crowd_cost_reads_the_routes_arrivals_and_efficiency() {
    use graph_runtime::sweep::{Metric, SweepControl, SweepSpec, sweep};
    // The walkers' graph with the crowd cost as its parameter "crowd_cost".
    let walk = walk(4.0)
        .replacen(
            "vehicle:",
            r#"parameters: {"crowd_cost": 4.0}, vehicle:"#,
            1,
        )
        .replace("crowd_cost: 4.0)", r#"crowd_cost: "crowd_cost")"#);
    let graphs = [
        ("walk.graph.ron", walk.as_str()),
        ("stand.graph.ron", STAND),
    ];
    let assets = levels::assets(SCENE, "jam.scene.ron", &graphs);
    let spec = SweepSpec {
        parameter: "crowd_cost".to_owned(),
        values: vec![0.0, 4.0],
        seeds: 1,
        seconds: 60.0,
    };
    let result = sweep(&assets, &spec, &SweepControl::default()).expect("runs");
    let at = |point: usize, metric: Metric| result.points[point].stat(metric).mean;
    println!(
        "crowd cost 0: arrived {:?}, efficiency {:?}; 4: arrived {:?}, efficiency {:?}",
        at(0, Metric::Arrived),
        at(0, Metric::RouteEfficiency),
        at(1, Metric::Arrived),
        at(1, Metric::RouteEfficiency)
    );
    // The blockers (8 of 38 agents with a goal) arrive either way; ignoring crowds, no walker
    // does, and no route was walked to its end.
    assert_eq!(at(0, Metric::Arrived), Some(f64::from(8.0_f32 / 38.0)));
    // The blockers' own routes count: they walk theirs, near enough straight (under 1.1).
    assert!(at(0, Metric::RouteEfficiency).is_some_and(|e| e < 1.1));
    // Paying for crowds, everyone arrives, the walkers by the longer way.
    assert_eq!(at(1, Metric::Arrived), Some(1.0));
    assert!(at(1, Metric::RouteEfficiency).is_some_and(|e| e > 1.15));
    assert_eq!(at(1, Metric::Unreachable), Some(0.0));
}

/// The preview's timeline makes a tracker for a past moment that sees only its last seconds
/// again: it takes the routed walks the run had finished from the run's tracker
/// (`route_arrivals`), so the walked-over-shortest figure goes on as the run's. Here every
/// walker has arrived by 40 s; a tracker that sees 34.5 to 40 s again and takes them over
/// samples the rest of the minute as the whole run's tracker did, while one that only saw
/// those seconds counts each walk from where it saw it: a straight line from the route's start,
/// shorter than the detour by door B.
#[test]
fn a_tracker_taking_over_part_way_counts_the_routed_walks_as_they_were() {
    let mut simulation = crate::simulation(4.0);
    let mut whole = graph_runtime::MetricsTracker::default();
    let (mut resumed, mut afresh) = (
        graph_runtime::MetricsTracker::default(),
        graph_runtime::MetricsTracker::default(),
    );
    let (mut all, mut taken_over, mut fresh) = (Vec::new(), Vec::new(), Vec::new());
    let (from, at) = (34.5 * 60.0, 40.0 * 60.0);
    for tick in 0..=60 * 60_u32 {
        if tick > 0 {
            simulation.step(1.0 / 60.0);
        }
        if tick % 6 != 0 {
            continue;
        }
        let time = tick as f32 / 60.0;
        let sample = whole.observe(&simulation, time);
        if (tick as f32) >= from && (tick as f32) <= at {
            // Seen again, as a seek does.
            resumed.observe(&simulation, time);
            afresh.observe(&simulation, time);
        }
        if tick as f32 == at {
            let arrivals: Vec<_> = whole.route_arrivals().to_vec();
            assert!(
                arrivals.iter().take(crate::WALKERS).all(Option::is_some),
                "every walker arrived by 40 s"
            );
            let by_then = arrivals
                .iter()
                .map(|a| a.filter(|arrival| arrival.time <= time));
            resumed.resume_route_arrivals(by_then);
        } else if tick as f32 > at {
            taken_over.push(resumed.observe(&simulation, time).route_efficiency);
            fresh.push(afresh.observe(&simulation, time).route_efficiency);
        }
        all.push(sample.route_efficiency);
    }
    let after: Vec<Option<f32>> = all[all.len() - taken_over.len()..].to_vec();
    assert_eq!(taken_over, after);
    let (run, seen) = (
        after.last().copied().flatten().expect("arrived"),
        fresh.last().copied().flatten().expect("arrived"),
    );
    println!("walked over shortest: the run {run}, seen from 34.5 s only {seen}");
    assert!(run > 1.15, "{run}");
    assert!(seen < run - 0.1, "{seen} against {run}");
}
