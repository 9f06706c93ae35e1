//! `steergraph bench`: simulation throughput in agent-ticks per second.

use std::path::PathBuf;
use std::time::Instant;

use graph_runtime::limits::MAX_AGENT_TICKS;
use graph_runtime::{Scene, Spawn};

/// Ticks run before timing starts, so caches and scratch buffers are warm.
const WARM_UP_TICKS: u64 = 10;

/// Options of `bench`.
pub struct Options {
    pub scene: PathBuf,
    pub agents: Option<u32>,
    pub ticks: u64,
    pub dt: f32,
    pub threads: Option<usize>,
    /// Step on the GPU (`super::gpu`).
    pub gpu: bool,
}

/// Runs the benchmark and prints one summary line.
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    if options.ticks == 0 {
        return Err(vec!["--ticks must be at least 1".to_owned()]);
    }
    super::check_dt(options.dt)?;
    let mut simulation = super::load_simulation(&options.scene, None, options.agents)?;
    let agents = simulation.vehicles().len();
    let work = (agents as u64).saturating_mul(options.ticks.saturating_add(WARM_UP_TICKS));
    if work > MAX_AGENT_TICKS {
        return Err(vec![format!(
            "--ticks {} with {agents} agents is {work} agent-ticks, more than {MAX_AGENT_TICKS}",
            options.ticks
        )]);
    }
    let (ticks, dt) = (options.ticks, options.dt);
    if options.gpu {
        for line in super::gpu::start(&simulation)?.bench(WARM_UP_TICKS, ticks, dt)? {
            println!("{line}");
        }
        return Ok(());
    }
    let elapsed = super::with_threads(options.threads, || {
        for _ in 0..WARM_UP_TICKS {
            simulation.step(dt);
        }
        let start = Instant::now();
        for _ in 0..ticks {
            simulation.step(dt);
        }
        start.elapsed()
    })?;
    let threads = options.threads.unwrap_or_else(rayon::current_num_threads);
    let agent_ticks = agents as f64 * ticks as f64;
    let seconds = elapsed.as_secs_f64();
    println!(
        "{agents} agents x {ticks} ticks on {threads} thread{} in {seconds:.3} s: {:.0} agent-ticks/s ({:.3} ms/tick)",
        if threads == 1 { "" } else { "s" },
        agent_ticks / seconds,
        seconds * 1000.0 / ticks as f64
    );
    Ok(())
}

/// Resizes the scene's randomly spawned groups so the scene has `total` agents, keeping their
/// proportions; explicitly placed agents are kept as they are.
pub fn scale_groups(scene: &mut Scene, total: u32) -> Result<(), Vec<String>> {
    let fixed: usize = scene
        .groups
        .iter()
        .filter(|g| matches!(g.spawn, Spawn::Agents(_)))
        .map(|g| g.spawn.count())
        .sum();
    let random: u64 = scene
        .groups
        .iter()
        .filter_map(|g| match g.spawn {
            Spawn::Random { count, .. } => Some(u64::from(count)),
            Spawn::Agents(_) => None,
        })
        .sum();
    if random == 0 {
        return Err(vec![
            "--agents needs a scene with at least one randomly spawned group".to_owned(),
        ]);
    }
    let wanted = u64::from(total).saturating_sub(fixed as u64);
    let mut assigned = 0u64;
    let last = scene
        .groups
        .iter()
        .rposition(|g| matches!(g.spawn, Spawn::Random { .. }));
    for (index, group) in scene.groups.iter_mut().enumerate() {
        if let Spawn::Random { count, .. } = &mut group.spawn {
            let share = if Some(index) == last {
                wanted - assigned
            } else {
                wanted * u64::from(*count) / random
            };
            assigned += share;
            *count = u32::try_from(share).unwrap_or(u32::MAX);
        }
    }
    Ok(())
}
