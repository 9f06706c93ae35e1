//! The benchmarks' fastest hand-written loop (`benches/fast_loop.rs`) computes the same
//! behavior as the compiled graph: from the same agents, their motion differs only by the
//! rounding of a different summation order (the loop's own cells, each in last tick's order,
//! instead of the runtime grid's order), so the speed comparison is between equals.

#[path = "../benches/fast_loop.rs"]
mod fast_loop;

use fast_loop::{DT, FastFlock, Workload};
use glam::Vec2;

/// The largest distance between the two runs' positions of the same agent.
fn largest_gap(graph: &[Vec2], fast: &[Vec2]) -> f32 {
    graph
        .iter()
        .zip(fast)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max)
}

fn compare(workload: Workload) {
    let agents = 2_000;
    let mut simulation = workload.simulation(agents);
    let mut fast = FastFlock::new(workload, &simulation);
    let start: Vec<Vec2> = simulation.vehicles().iter().map(|v| v.position).collect();
    simulation.step(DT);
    fast.tick();
    let after_graph: Vec<Vec2> = simulation.vehicles().iter().map(|v| v.position).collect();
    // One tick moves agents by up to max_speed * dt (0.025 or 0.1 units); the two loops
    // agree to far below that: a few units in the last place of the sums.
    let gap = largest_gap(&after_graph, &fast.positions());
    assert!(
        gap < 1e-5,
        "{workload:?}: positions differ by {gap} after one tick"
    );
    let moved = largest_gap(&start, &after_graph);
    assert!(moved > 1e-3, "{workload:?}: agents moved {moved}");
    for _ in 0..29 {
        simulation.step(DT);
        fast.tick();
    }
    let after_graph: Vec<Vec2> = simulation.vehicles().iter().map(|v| v.position).collect();
    let gap = largest_gap(&after_graph, &fast.positions());
    assert!(
        gap < 1e-3,
        "{workload:?}: positions differ by {gap} after 30 ticks"
    );
    // The agents have neighbors to flock with: at one agent per 25 (16) square units, a
    // circle of radius 5 (4) holds about pi others.
    let mut grid = graph_runtime::SpatialGrid::new(5.0);
    grid.rebuild(simulation.vehicles());
    let mut near = Vec::new();
    let mut total = 0;
    for (i, vehicle) in simulation.vehicles().iter().enumerate() {
        let radius = if workload == Workload::Flock {
            5.0
        } else {
            4.0
        };
        grid.query(
            simulation.vehicles(),
            vehicle.position,
            radius,
            i,
            &mut near,
        );
        total += near.len();
    }
    let mean = total as f32 / agents as f32;
    assert!(
        mean > 2.5 && mean < 4.0,
        "{workload:?}: {mean} neighbors on average"
    );
}

#[test]
fn the_fast_loop_moves_the_flock_like_the_compiled_graph() {
    compare(Workload::Flock);
}

#[test]
fn the_fast_loop_moves_the_boids_like_the_compiled_graph() {
    compare(Workload::Boids);
}

#[test]
fn an_agent_moved_between_ticks_starts_the_next_tick_where_it_was_put() {
    // The simulation works on its own cell-ordered copy of the agents; a change made through
    // `vehicles_mut` (the preview dragging an agent) must reach it.
    // Enough agents for the simulation to keep them in cell order.
    let mut simulation = Workload::Flock.simulation(20_000);
    for _ in 0..3 {
        simulation.step(DT);
    }
    let target = Vec2::new(1_000.0, -1_000.0);
    simulation.vehicles_mut()[7].position = target;
    simulation.vehicles_mut()[7].velocity = Vec2::new(1.0, 0.0);
    simulation.step(DT);
    let moved = simulation.vehicles()[7];
    // Alone out there: wander only, max speed 1.5, so it moved at most 1.5 / 60 units.
    assert!(
        moved.position.distance(target) <= 1.5 * DT + 1e-3,
        "{}",
        moved.position
    );
    // Every other agent is where its own motion took it: the agents stay in agent order.
    let positions: Vec<Vec2> = simulation.vehicles().iter().map(|v| v.position).collect();
    // (The world is 707 units wide, centred on the origin.)
    assert!(
        positions
            .iter()
            .enumerate()
            .all(|(i, p)| i == 7 || (p.x.abs() < 360.0 && p.y.abs() < 360.0))
    );
}

#[test]
fn the_cell_ordered_layout_changes_no_bit() {
    // 20,000 agents: enough for the simulation to keep them in cell order, re-sorted every
    // tick. The reference runs the same program in agent order, as a game loop would.
    let agents = 20_000;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    let mut simulation = Workload::Flock.simulation(agents);
    let program = graph_runtime::compile(&Workload::Flock.graph()).expect("compiles");
    let params = program.default_parameters();
    let tags = graph_runtime::TagTable::default();
    let (bindings, errors) = graph_runtime::Bindings::new(&program, simulation.world(), &tags);
    assert!(errors.is_empty());
    let mut vehicles = simulation.vehicles().to_vec();
    let mut states: Vec<graph_runtime::AgentState> = (0..agents)
        .map(|i| graph_runtime::AgentState::new(&program, simulation.seed(), i as u64))
        .collect();
    let mut grid = graph_runtime::SpatialGrid::new(5.0);
    let mut scratch = graph_runtime::Scratch::default();
    for _ in 0..20 {
        pool.install(|| simulation.step(DT));
        grid.rebuild(&vehicles);
        let context = graph_runtime::Context::new(
            simulation.world(),
            &vehicles,
            &grid,
            &bindings,
            &params,
            DT,
        );
        let forces: Vec<Vec2> = states
            .iter_mut()
            .enumerate()
            .map(|(i, state)| program.steer(&context, i, state, &mut scratch))
            .collect();
        for (vehicle, force) in vehicles.iter_mut().zip(&forces) {
            vehicle.step(*force, DT);
        }
        assert_eq!(simulation.forces(), forces.as_slice());
    }
    assert_eq!(simulation.vehicles(), vehicles.as_slice());
}
