//! The GPU benchmark (issue 48): the adapter found, then milliseconds a tick for the
//! benchmarks' flock (`Blend[Separation, Cohesion, Alignment, Wander]`, radius 5, one agent
//! per 25 square units) at 100,000, 1,000,000 and 10,000,000 agents on the GPU, and the CPU
//! path (graph-runtime's `Simulation`, every core) in the same run.
//!
//! `cargo run --release --manifest-path integrations/gpu/Cargo.toml --example bench`
//! (`-- --sizes 100000,1000000` to choose). It keeps within about five minutes: each size runs
//! as many ticks as fit its share (at least three); a size that would not fit on one side (ten
//! times the last size's tick, four times over) is not run there, saying so. Without an
//! adapter it says so and exits 0.

use std::time::{Duration, Instant};

use glam::Vec2;
use graph_runtime::limits::MAX_AGENTS;
use graph_runtime::{AgentRng, Graph, Scene, SceneAssets, Simulation, Vehicle};
use steergraph_gpu::{Gpu, GpuCrowd, NewAgent};

const DT: f32 = 1.0 / 60.0;
/// The whole run's budget, and each size's share of it per side.
const BUDGET: Duration = Duration::from_secs(270);

const GRAPH: &str = r#"(format: "steergraph.graph", version: 1,
    vehicle: (mass: 1.0, max_force: 3.0, max_speed: 1.5, radius: 0.5),
    nodes: {1: Separation(radius: 5.0, fov: 360.0), 2: Cohesion(radius: 5.0, fov: 360.0),
    3: Alignment(radius: 5.0, fov: 360.0), 4: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
    5: Blend(inputs: [(node: 1, weight: 1.5), (node: 2, weight: 1.0), (node: 3, weight: 1.0),
    (node: 4, weight: 0.5)]), 6: Output(input: 5)})"#;

/// The flock's scene: bounds of 25 square units an agent for `area_of` agents, `agents` spawned.
fn flock(area_of: u32, agents: u32) -> SceneAssets {
    let half = (25.0 * area_of as f32).sqrt() / 2.0;
    let scene = format!(
        r#"(format: "steergraph.scene", version: 1, seed: 42,
        bounds: (min: ({m}, {m}), max: ({h}, {h})),
        groups: [(name: "flock", graph: "flock.graph.ron",
        spawn: Random(count: {agents}, area: Rect(min: ({m}, {m}), max: ({h}, {h})), speed: 1.0))])"#,
        m = -half,
        h = half
    );
    SceneAssets {
        scene: Scene::from_ron(&scene, "flock.scene.ron").expect("the flock scene parses"),
        origin: "flock.scene.ron".into(),
        graphs: [(
            "flock.graph.ron".to_owned(),
            Graph::from_ron(GRAPH, "flock.graph.ron").expect("the flock graph parses"),
        )]
        .into(),
        flow_fields: Default::default(),
    }
}

/// Runs `tick` once to warm up and time it, then as many more times as fit `share` (3 at
/// least, 100 at most); milliseconds a tick and the ticks timed.
fn time(share: Duration, mut tick: impl FnMut(u32)) -> (f64, u32) {
    let first = Instant::now();
    tick(1);
    let once = first.elapsed().max(Duration::from_micros(10));
    let ticks = (share.as_secs_f64() / once.as_secs_f64()).clamp(3.0, 100.0) as u32;
    let start = Instant::now();
    tick(ticks);
    (
        start.elapsed().as_secs_f64() * 1000.0 / f64::from(ticks),
        ticks,
    )
}

fn main() {
    let started = Instant::now();
    let sizes: Vec<u32> = match std::env::args().skip_while(|a| a != "--sizes").nth(1) {
        Some(list) => list
            .split(',')
            .filter_map(|s| s.trim().parse().ok())
            .collect(),
        None => vec![100_000, 1_000_000, 10_000_000],
    };
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            println!("{error}: no GPU figures on this machine.");
            return;
        }
    };
    println!("adapter: {}", gpu.describe());
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let mut gpu = Some(gpu);
    let mut last_cpu_tick = Duration::ZERO;
    let mut last_gpu_tick = Duration::ZERO;
    for (i, &agents) in sizes.iter().enumerate() {
        let left = BUDGET.saturating_sub(started.elapsed());
        let share = left / (2 * (sizes.len() - i)) as u32;
        // Beyond a scene's agent limit the CPU does not run; the GPU gets the agents one by
        // one, spawned as a scene spawns them (a rectangle, a heading, speed 1).
        let in_scene = agents as usize <= MAX_AGENTS;
        let assets = flock(agents, if in_scene { agents } else { 1 });
        let built = Instant::now();
        let mut cpu = match Simulation::new(&assets) {
            Ok(simulation) => simulation,
            Err(errors) => {
                println!("{agents} agents: the scene does not build: {errors:?}");
                continue;
            }
        };
        let given = (!in_scene).then(|| spawned(&cpu, agents));
        let build = built.elapsed();
        // A tick of ten times the agents takes about ten times the last one's; a size that
        // would not fit its share is not run, saying so.
        let fits = |last: Duration| last.is_zero() || last * 10 * 4 < share;
        if !fits(last_gpu_tick) {
            println!(
                "{agents} agents: not timed: at about {:.0} ms a tick on this adapter it would not fit the five minutes",
                last_gpu_tick.as_secs_f64() * 10_000.0
            );
            continue;
        }
        let Some(device) = gpu.take() else { break };
        let made = match &given {
            Some(given) => GpuCrowd::with_agents(device, &cpu, given),
            None => GpuCrowd::new(device, &cpu),
        };
        let mut crowd = match made {
            Ok(crowd) => crowd,
            Err(error) => {
                println!("{agents} agents: {error}");
                gpu = Gpu::new().ok();
                continue;
            }
        };
        let (gpu_ms, gpu_ticks) = time(share, |n| {
            crowd.step(DT, n);
            crowd.finish().expect("the GPU runs the ticks");
        });
        last_gpu_tick = Duration::from_secs_f64(gpu_ms / 1000.0);
        let cpu_line = if !in_scene {
            format!("CPU not run: a scene holds at most {MAX_AGENTS} agents")
        } else if fits(last_cpu_tick) {
            let (cpu_ms, cpu_ticks) = time(share, |n| {
                for _ in 0..n {
                    cpu.step(DT);
                }
            });
            last_cpu_tick = Duration::from_secs_f64(cpu_ms / 1000.0);
            format!("CPU {cpu_ms:.3} ms a tick on {threads} threads ({cpu_ticks} ticks)")
        } else {
            "CPU not timed: it would not fit the five minutes".to_owned()
        };
        println!(
            "{agents} agents (built in {:.1} s): GPU {gpu_ms:.3} ms a tick ({gpu_ticks} ticks); {cpu_line}",
            build.as_secs_f64()
        );
        gpu = Some(crowd.into_gpu());
        if started.elapsed() > BUDGET {
            println!("stopped: the five minutes are spent");
            break;
        }
    }
}

/// `agents` flockers over the template's bounds, spawned as a scene's random rectangle spawns
/// them, each with its own stream.
fn spawned(template: &Simulation, agents: u32) -> Vec<NewAgent> {
    let bounds = template.world().bounds;
    let params = template.groups()[0]
        .program
        .vehicle(&template.groups()[0].params);
    let mut spawn = AgentRng::new(42 ^ 0x5EED_5A17_0000_0000, 0);
    (0..agents)
        .map(|i| {
            let position =
                bounds.min + (bounds.max - bounds.min) * Vec2::new(spawn.unit(), spawn.unit());
            let heading = spawn.unit() * std::f32::consts::TAU;
            NewAgent {
                vehicle: Vehicle::new(position, Vec2::from_angle(heading), params),
                group: 0,
                rng: AgentRng::new(42, u64::from(i)),
                tags: 0,
            }
        })
        .collect()
}
