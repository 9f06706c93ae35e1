//! Steergraph's side of `scripts/versus_rvo2.sh`: RVO2's Circle and Blocks examples as a scene
//! and a graph, run on one thread (or `STEERGRAPH_THREADS`) with `dt = 0.25`, printing the same
//! line as the RVO2 harness (`scripts/rvo2/harness.cc`): steps, time per step, mean arrival
//! time, overlapping pairs.
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
//! by that angle, the same scenario with other rounding, for an ensemble of runs. With
//! `TRAJECTORY=FILE`, the positions after the steps [`TRACED`] lists go to FILE as lines
//! `step agent x y`, as the harness writes them. `STEPS=N` stops after at most N steps (the
//! issue's "100,000 agents × 100 steps"); the arrival figures then count each agent not
//! arrived as arriving at the last step, as at the scenario's own step limit.
//!
//! A step's time includes reading the agents back in agent order (`Simulation::vehicles`), as
//! the harness's checks after each step and a game read them: the simulation keeps its agents
//! in cell order and writes that copy once a tick, on first read, and Reciprocal's next step
//! reads it. (Until 2026-12-06 the untimed checks made the copy and the step did not pay for
//! it: Circle's first 1,000 steps at 10,000 agents on one thread took 5.32 ms a step with it
//! against 5.19 without, three runs of each in turn.)
//!
//! `STEERGRAPH_THREADS=1,16` (several thread counts) runs one simulation per count, each on a
//! pool of its own, in turns of [`TURN`] steps, in one process (issue 47): the counts time the
//! same steps moments apart, so a change in the machine's load falls on all of them, where
//! runs one after the other could time one count in a quiet minute and the other in a loud
//! one. Each count prints its line, then each count's speedup over the first: the median over
//! turns of the first count's mean step over its own in the same turn, and the ratio of the
//! whole run's means. Every count measures its own motion, and the run fails unless all agree
//! to the bit. `STEERGRAPH_PHASE_TIMES` (set) adds each count's milliseconds a step in each
//! phase of the tick ([`TickPhase`]), on standard error.

use std::fmt::Write as _;
use std::time::Instant;

use glam::Vec2;
use graph_runtime::{SceneAssets, Simulation, TickPhase};

/// A scenario: start and goal per agent, walls (closed polygons), RVO2's agent parameters.
struct Scenario {
    starts: Vec<Vec2>,
    goals: Vec<Vec2>,
    walls: Vec<Vec<Vec2>>,
    time_horizon: f32,
    radius: f32,
    max_steps: u32,
}

/// Steps each thread count takes in a row when several step in turn (`STEERGRAPH_THREADS`
/// with a comma): a few milliseconds of a 1-thread step at 10,000 agents, so a turn is long
/// beside waking a pool that slept through the others' turns, and short beside a minute's
/// change in the machine's load.
const TURN: u32 = 8;

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

/// Thread counts from `STEERGRAPH_THREADS` (comma-separated; one thread when unset).
fn thread_counts() -> Result<Vec<usize>, String> {
    let Ok(list) = std::env::var("STEERGRAPH_THREADS") else {
        return Ok(vec![1]);
    };
    list.split(',')
        .map(|count| match count.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!(
                "STEERGRAPH_THREADS={list}: {count:?} is not a positive number of threads"
            )),
        })
        .collect()
}

/// The median of `values` (NaN when there are none).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => 0.5 * (values[n / 2 - 1] + values[n / 2]),
    }
}

/// What the steps did to a simulation's agents: arrivals, overlaps, and the `TRAJECTORY` file
/// (the first thread count's).
struct Motion {
    goals: Vec<Vec2>,
    radius: f32,
    arrived: Vec<Option<f64>>,
    remaining: usize,
    overlaps: u64,
    most: u64,
    trajectory: Option<std::io::BufWriter<std::fs::File>>,
}

impl Motion {
    /// After step `step` of `simulation`: its overlapping pairs, the agents arrived, the
    /// positions when `TRAJECTORY` asks for that step.
    fn after(&mut self, simulation: &Simulation, step: u32) -> Result<(), String> {
        if let Some(out) = self.trajectory.as_mut().filter(|_| TRACED.contains(&step)) {
            use std::io::Write as _;
            for (i, vehicle) in simulation.vehicles().iter().enumerate() {
                let p = vehicle.position;
                writeln!(out, "{step} {i} {} {}", p.x, p.y).map_err(|e| e.to_string())?;
            }
        }
        let pairs = overlapping_pairs(simulation, self.radius);
        self.overlaps += pairs;
        self.most = self.most.max(pairs);
        let reach = self.radius * self.radius;
        for ((arrived, vehicle), goal) in (self.arrived.iter_mut())
            .zip(simulation.vehicles())
            .zip(&self.goals)
        {
            if arrived.is_none() && vehicle.position.distance_squared(*goal) <= reach {
                *arrived = Some(f64::from(step) * 0.25);
                self.remaining -= 1;
            }
        }
        Ok(())
    }
}

/// One thread count's pool, simulation, what its steps did, and their times: each turn's
/// steps and seconds, and the seconds spent in each phase of a step ([`TickPhase::ALL`]'s
/// order). Every count measures its own motion after each step, untimed, so that each count's
/// steps follow the same work (a count whose steps followed only its own steps ran them faster
/// than one whose steps followed the checks: in one run 0.22 against 0.34 ms a step, both on
/// one thread); the figures are the first count's, and the others must agree.
struct Run {
    threads: usize,
    pool: rayon::ThreadPool,
    simulation: Simulation,
    motion: Motion,
    turns: Vec<(u32, f64)>,
    phases: [f64; TickPhase::ALL.len()],
}

impl Run {
    /// A simulation of `assets` on a pool of its own of `threads` threads, its motion measured
    /// into `motion`.
    fn new(
        assets: &SceneAssets,
        threads: usize,
        motion: Motion,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let simulation = pool.install(|| Simulation::new(assets).map_err(|e| format!("{e:?}")))?;
        Ok(Self {
            threads,
            pool,
            simulation,
            motion,
            turns: Vec::new(),
            phases: [0.0; TickPhase::ALL.len()],
        })
    }

    /// Steps from step `from` up to step `until` (earlier once every agent has arrived),
    /// timing each step and measuring its motion after it. Returns the step reached.
    fn turn(&mut self, from: u32, until: u32) -> Result<u32, String> {
        let Self {
            pool,
            simulation,
            motion,
            turns,
            phases,
            ..
        } = self;
        let mut at = from;
        let mut stepping = 0.0;
        pool.install(|| -> Result<(), String> {
            while at < until && motion.remaining > 0 {
                let start = Instant::now();
                let mut last = start;
                simulation.step_observed(0.25, |phase| {
                    let now = Instant::now();
                    if let Some(i) = TickPhase::ALL.iter().position(|&p| p == phase) {
                        phases[i] += (now - last).as_secs_f64();
                    }
                    last = now;
                });
                // The agents read back in agent order, as the checks and a game read them: a
                // simulation re-sorted into cell order writes them back once a tick, on first
                // read, and Reciprocal's next step reads that copy. Timed with the step, so
                // that every count pays for it where it is made (the untimed checks would
                // make it for the first count only).
                std::hint::black_box(simulation.vehicles().first());
                stepping += start.elapsed().as_secs_f64();
                at += 1;
                motion.after(simulation, at)?;
            }
            Ok(())
        })?;
        turns.push((at - from, stepping));
        Ok(at)
    }

    /// The seconds of all its steps.
    fn seconds(&self) -> f64 {
        self.turns.iter().map(|&(_, seconds)| seconds).sum()
    }
}

/// An error unless every run left its agents where the first did, to the bit, and measured
/// the same arrivals and overlaps (issue 47's determinism): a thread count that did not would
/// have timed other work.
fn same_motion(runs: &[Run]) -> Result<(), String> {
    let Some((first, others)) = runs.split_first() else {
        return Ok(());
    };
    for other in others {
        let differ = (first.simulation.vehicles().iter())
            .zip(other.simulation.vehicles())
            .position(|(a, b)| a.position != b.position || a.velocity != b.velocity);
        let (a, b) = (&first.motion, &other.motion);
        if differ.is_some() || (&a.arrived, a.overlaps, a.most) != (&b.arrived, b.overlaps, b.most)
        {
            let agent = differ.map_or("the agents".to_owned(), |i| format!("agent {i}"));
            return Err(format!(
                "{} and {} threads moved {agent} differently",
                first.threads, other.threads
            ));
        }
    }
    Ok(())
}

/// Prints each run's line (as the RVO2 harness's), its phases when `STEERGRAPH_PHASE_TIMES`
/// asks, and each count's speedup over the first.
fn report(runs: &[Run], which: &str, steps: u32) {
    for run in runs {
        let motion = &run.motion;
        let n = motion.arrived.len();
        let sum: f64 = (motion.arrived.iter())
            .map(|t| t.unwrap_or(f64::from(steps) * 0.25))
            .sum();
        println!(
            "Steergraph-t{} {which} {n} agents: {steps} steps, {:.4} ms per step, mean arrival {:.2} s, \
             {} not arrived, overlapping pairs {} (most at once {})",
            run.threads,
            run.seconds() * 1e3 / f64::from(steps),
            sum / n as f64,
            motion.remaining,
            motion.overlaps,
            motion.most,
        );
        if std::env::var_os("STEERGRAPH_PHASE_TIMES").is_some() {
            let phases = (TickPhase::ALL.iter().zip(run.phases)).fold(
                String::new(),
                |mut out, (phase, seconds)| {
                    let _ = write!(out, " {phase:?} {:.4}", seconds * 1e3 / f64::from(steps));
                    out
                },
            );
            eprintln!(
                "Steergraph-t{} {which} {n} agents, ms a step by phase:{phases}",
                run.threads
            );
        }
    }
    let Some((first, others)) = runs.split_first() else {
        return;
    };
    let n = first.motion.arrived.len();
    for other in others {
        let paired = (first.turns.iter().zip(&other.turns))
            .filter(|((taken, _), _)| *taken > 0)
            .map(|((_, one), (_, many))| one / many)
            .collect::<Vec<_>>();
        let turns = paired.len();
        println!(
            "Steergraph speedup {} -> {} threads, {which} {n} agents: {:.2}x (median of {} turns \
             of {TURN} steps, each count's mean step in the same turn); {:.2}x by the whole \
             run's means",
            first.threads,
            other.threads,
            median(paired),
            turns,
            first.seconds() / other.seconds(),
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("circle", String::as_str);
    let mut scenario = if which == "blocks" {
        blocks(args.get(1).map_or(Ok(0.0), |p| p.parse())?)
    } else {
        let phase = args.get(2).map_or(Ok(0.0), |p| p.parse())?;
        circle(args.get(1).map_or(Ok(250), |n| n.parse())?, phase)
    };
    // `STEPS=N` stops after at most N steps (as the harness's).
    if let Ok(cap) = std::env::var("STEPS") {
        let most: u32 = cap
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("STEPS={cap}: not a positive number of steps"))?;
        scenario.max_steps = scenario.max_steps.min(most);
    }
    let assets = assets(&scenario)?;
    // One thread unless `STEERGRAPH_THREADS` says (versus_rvo2.sh's THREADS); several counts
    // step in turn.
    let mut trajectory = std::env::var_os("TRAJECTORY")
        .map(std::fs::File::create)
        .transpose()?
        .map(std::io::BufWriter::new);
    let mut runs = Vec::new();
    for threads in thread_counts()? {
        let motion = Motion {
            goals: scenario.goals.clone(),
            radius: scenario.radius,
            arrived: vec![None; scenario.starts.len()],
            remaining: scenario.starts.len(),
            overlaps: 0,
            most: 0,
            trajectory: trajectory.take(),
        };
        runs.push(Run::new(&assets, threads, motion)?);
    }
    // A turn at a time when several counts step in turn, every step in one when one does.
    let turn = if runs.len() > 1 { TURN } else { u32::MAX };
    let mut steps = 0;
    while steps < scenario.max_steps {
        let (first, others) = runs.split_first_mut().ok_or("no thread count")?;
        if first.motion.remaining == 0 {
            break;
        }
        // The first count steps until the turn ends or every agent has arrived; the others
        // then take the same steps.
        let until = steps.saturating_add(turn).min(scenario.max_steps);
        let reached = first.turn(steps, until)?;
        for run in others {
            run.turn(steps, reached)?;
        }
        steps = reached;
    }
    same_motion(&runs)?;
    report(&runs, which, steps);
    Ok(())
}
