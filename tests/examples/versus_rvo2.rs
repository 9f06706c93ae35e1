//! Steergraph's side of `scripts/versus_rvo2.sh`: RVO2's Circle and Blocks examples as a scene
//! and a graph, run on one thread (or `STEERGRAPH_THREADS`) with `dt = 0.25`, printing the same line as the RVO2 harness
//! (`scripts/rvo2/harness.cc`): steps, time per step, mean arrival time, overlapping pairs.
//!
//! The graph asks for RVO2's preferred velocity, `goal - p` cut to length 1:
//! `Blend(0.5 * Arrival(goal, slowing 1), 0.5 * MatchVelocity(0, 1 s))` is the force
//! `0.5 * desired - v`, so Reciprocal's `v + F / mass` is half of Arrival's desired velocity
//! (max speed 2). Reciprocal then has RVO2's parameters (no clearance, no keep-right), and a
//! `max_force` far above `2 * max_speed / dt` reaches the chosen velocity in one step, as
//! RVO2 sets it. Blocks' obstacles are closed walls.
//!
//! `cargo run --release -p tests --example versus_rvo2 -- circle 1000 [PHASE]` (or `blocks
//! [PHASE]`): PHASE (radians, default 0) turns every ring (Circle) or the whole scene (Blocks)
//! by that angle, the same scenario with other rounding, for an ensemble of runs. With `TRAJECTORY=FILE`, the positions after the steps
//! [`TRACED`] lists go to FILE as lines `step agent x y`, as the harness writes them.
//! `STEPS=N` stops after at most N steps (the issue's "100,000 agents × 100 steps"); the
//! arrival figures then count each agent not arrived as arriving at the last step, as at the
//! scenario's own step limit.

use std::fmt::Write as _;
use std::time::Instant;

use glam::Vec2;
use graph_runtime::{SceneAssets, Simulation};

/// A scenario: start and goal per agent, walls (closed polygons), RVO2's agent parameters.
struct Scenario {
    starts: Vec<Vec2>,
    goals: Vec<Vec2>,
    walls: Vec<Vec<Vec2>>,
    time_horizon: f32,
    radius: f32,
    max_steps: u32,
}

/// The steps after which `TRAJECTORY` records every position (as the harness's `traced`).
const TRACED: [u32; 11] = [1, 2, 5, 10, 20, 50, 100, 200, 400, 800, 1600];

/// As `circle` in the RVO2 harness: one ring scaled with the count up to 1,000 agents, rings
/// 5 units apart from radius 200 beyond, agents 5 units apart on each.
fn circle(count: usize, phase: f32) -> Scenario {
    let two_pi = std::f32::consts::TAU;
    let mut ring = if count <= 1000 {
        200.0 * count as f32 / 250.0
    } else {
        200.0
    };
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    let mut outer = ring;
    while starts.len() < count {
        let on_ring = if count <= 1000 {
            count
        } else {
            ((two_pi * ring / 5.0) as usize).min(count - starts.len())
        };
        for i in 0..on_ring {
            let a = i as f32 * two_pi / on_ring as f32 + phase;
            let p = ring * Vec2::new(a.cos(), a.sin());
            starts.push(p);
            goals.push(-p);
        }
        outer = ring;
        ring += 5.0;
    }
    Scenario {
        starts,
        goals,
        walls: Vec::new(),
        time_horizon: 10.0,
        radius: 1.5,
        max_steps: (4.0 * 2.0 * outer / 0.25) as u32,
    }
}

/// `p` turned by `angle` about the origin (as the harness's `turned`).
fn turned(p: Vec2, angle: f32) -> Vec2 {
    let (c, s) = (angle.cos(), angle.sin());
    Vec2::new(p.x * c - p.y * s, p.x * s + p.y * c)
}

fn blocks(phase: f32) -> Scenario {
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    for i in 0..5 {
        for j in 0..5 {
            let (x, y) = (55.0 + i as f32 * 10.0, 55.0 + j as f32 * 10.0);
            for (start, goal) in [
                ((x, y), (-75.0, -75.0)),
                ((-x, y), (75.0, -75.0)),
                ((x, -y), (-75.0, 75.0)),
                ((-x, -y), (75.0, 75.0)),
            ] {
                starts.push(Vec2::from(start));
                goals.push(Vec2::from(goal));
            }
        }
    }
    let square = |a: (f32, f32), b: (f32, f32)| {
        vec![
            Vec2::new(a.0, a.1),
            Vec2::new(b.0, a.1),
            Vec2::new(b.0, b.1),
            Vec2::new(a.0, b.1),
        ]
    };
    let mut walls = vec![
        square((-40.0, 10.0), (-10.0, 40.0)),
        square((10.0, 10.0), (40.0, 40.0)),
        square((10.0, -40.0), (40.0, -10.0)),
        square((-40.0, -40.0), (-10.0, -10.0)),
    ];
    if phase != 0.0 {
        for p in starts
            .iter_mut()
            .chain(&mut goals)
            .chain(walls.iter_mut().flatten())
        {
            *p = turned(*p, phase);
        }
    }
    Scenario {
        starts,
        goals,
        walls,
        time_horizon: 5.0,
        radius: 2.0,
        max_steps: 4000,
    }
}

fn points(list: &[Vec2]) -> String {
    list.iter().fold(String::new(), |mut out, p| {
        let _ = write!(out, "({:?}, {:?}),", p.x, p.y);
        out
    })
}

/// The scenario as a scene and graph, loaded as a game would load them.
fn assets(s: &Scenario) -> Result<SceneAssets, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let graph = format!(
        r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: 1.0, max_force: 1000000.0, max_speed: 2.0, radius: {radius:?}),
    nodes: {{
        1: Arrival(target: Own("goal"), slowing_distance: 1.0),
        2: MatchVelocity(velocity: Fixed(0.0, 0.0), time_to_target: 1.0),
        3: Blend(inputs: [(node: 1, weight: 0.5), (node: 2, weight: 0.5)]),
        4: Reciprocal(input: 3, time_horizon: {horizon:?}, obstacle_time_horizon: {horizon:?},
            neighbor_radius: 15.0, max_neighbors: 10.0, clearance: 0.0, keep_right: 0.0),
        5: Output(input: 4),
    }},
)"#,
        radius = s.radius,
        horizon = s.time_horizon,
    );
    let extent = s
        .starts
        .iter()
        .fold(100.0_f32, |m, p| m.max(p.x.abs()).max(p.y.abs()))
        + 50.0;
    let walls = s.walls.iter().fold(String::new(), |mut out, w| {
        let _ = write!(out, "(points: [{}], closed: true),", points(w));
        out
    });
    let spawn = s.starts.iter().fold(String::new(), |mut out, p| {
        let _ = write!(out, "(position: ({:?}, {:?})),", p.x, p.y);
        out
    });
    let scene = format!(
        r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: ({lo:?}, {lo:?}), max: ({extent:?}, {extent:?})),
    seed: 1,
    walls: [{walls}],
    groups: [(
        name: "agents",
        graph: "rvo.graph.ron",
        spawn: Agents([{spawn}]),
        goals: {{ "goal": Each([{goals}]) }},
    )],
)"#,
        lo = -extent,
        goals = points(&s.goals),
    );
    std::fs::write(dir.path().join("rvo.graph.ron"), graph)?;
    let path = dir.path().join("rvo.scene.ron");
    std::fs::write(&path, scene)?;
    SceneAssets::load(&path).map_err(|e| format!("{e:?}").into())
}

/// Pairs of agents closer than the sum of their radii.
fn overlapping_pairs(simulation: &Simulation, radius: f32) -> u64 {
    let vehicles = simulation.vehicles();
    let reach = 2.0 * radius;
    let mut grid = graph_runtime::SpatialGrid::new(reach);
    grid.rebuild(vehicles);
    let mut near = Vec::new();
    let mut pairs = 0;
    for (index, vehicle) in vehicles.iter().enumerate() {
        grid.query(vehicles, vehicle.position, reach, index, &mut near);
        pairs += near.iter().filter(|&&other| other as usize > index).count() as u64;
    }
    pairs
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("circle", String::as_str);
    let scenario = if which == "blocks" {
        blocks(args.get(1).map_or(Ok(0.0), |p| p.parse())?)
    } else {
        let phase = args.get(2).map_or(Ok(0.0), |p| p.parse())?;
        circle(args.get(1).map_or(Ok(250), |n| n.parse())?, phase)
    };
    let mut scenario = scenario;
    // `STEPS=N` stops after at most N steps (as the harness's).
    if let Ok(cap) = std::env::var("STEPS") {
        let most: u32 = cap
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("STEPS={cap}: not a positive number of steps"))?;
        scenario.max_steps = scenario.max_steps.min(most);
    }
    let mut trajectory = std::env::var_os("TRAJECTORY")
        .map(std::fs::File::create)
        .transpose()?
        .map(std::io::BufWriter::new);
    let assets = assets(&scenario)?;
    // One thread unless `STEERGRAPH_THREADS` says (versus_rvo2.sh's THREADS).
    let threads: usize = std::env::var("STEERGRAPH_THREADS").map_or(Ok(1), |t| t.parse())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    pool.install(|| -> Result<(), String> {
        let mut simulation = Simulation::new(&assets).map_err(|e| format!("{e:?}"))?;
        let n = simulation.vehicles().len();
        let mut arrived = vec![None; n];
        let mut remaining = n;
        let (mut stepping, mut steps, mut overlaps, mut most) = (0.0, 0_u32, 0_u64, 0_u64);
        let reach = scenario.radius * scenario.radius;
        while remaining > 0 && steps < scenario.max_steps {
            let start = Instant::now();
            simulation.step(0.25);
            stepping += start.elapsed().as_secs_f64();
            steps += 1;
            if let Some(out) = trajectory.as_mut().filter(|_| TRACED.contains(&steps)) {
                use std::io::Write as _;
                for (i, vehicle) in simulation.vehicles().iter().enumerate() {
                    let p = vehicle.position;
                    writeln!(out, "{steps} {i} {} {}", p.x, p.y).map_err(|e| e.to_string())?;
                }
            }
            let pairs = overlapping_pairs(&simulation, scenario.radius);
            overlaps += pairs;
            most = most.max(pairs);
            for (i, vehicle) in simulation.vehicles().iter().enumerate() {
                if arrived[i].is_none()
                    && vehicle.position.distance_squared(scenario.goals[i]) <= reach
                {
                    arrived[i] = Some(f64::from(steps) * 0.25);
                    remaining -= 1;
                }
            }
        }
        let sum: f64 = arrived
            .iter()
            .map(|t| t.unwrap_or(f64::from(steps) * 0.25))
            .sum();
        println!(
            "Steergraph-t{threads} {which} {n} agents: {steps} steps, {:.4} ms per step, mean arrival {:.2} s, \
             {remaining} not arrived, overlapping pairs {overlaps} (most at once {most})",
            stepping * 1e3 / f64::from(steps),
            sum / n as f64,
        );
        Ok(())
    })?;
    Ok(())
}
