//! What walls cost (issue 11):
//!
//! - `walls_tick_10000`: one tick of 10,000 agents running the boids graph with `WallAvoidance`
//!   first in its Priority, in a world with 1,000 wall segments (250 closed squares) against
//!   the same scene without walls. Same graph, same agents, same seed: the difference is the
//!   feelers' ray casts, the clearance queries and the wall-crossing count.
//! - `wall_index_build_10000_segments`: building the index over 10,000 segments.
//! - `wall_ray_cast_1000_segments`: 10,000 feeler-length ray casts through the index against
//!   the fastest plain alternative, a scan over every segment with the same formula.
//!
//! Run with `cargo bench -p graph-runtime --bench walls`.

#[path = "boids_fixture.rs"]
#[expect(
    dead_code,
    reason = "this benchmark uses the fixture's graph and world, not its hand-written flock"
)]
mod boids_fixture;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use graph_runtime::{AgentRng, Link, Node, Simulation, Wall, WallIndex};

/// Agents in the tick benchmark.
const AGENTS: usize = 10_000;
/// Squares of four segments: 1,000 segments.
const SQUARES: usize = 250;
/// Side of a square (units).
const SQUARE_SIDE: f32 = 6.0;

/// `count` closed squares of side `side` on a lattice over `bounds` (row by row), so the
/// walls spread over the whole world as the rooms and pillars of a level would.
fn squares(min: Vec2, max: Vec2, count: usize, side: f32) -> Vec<Wall> {
    let per_row = (count as f32).sqrt().ceil() as usize;
    let spacing = (max - min) / per_row as f32;
    (0..count)
        .map(|i| {
            let corner =
                min + spacing * Vec2::new((i % per_row) as f32 + 0.3, (i / per_row) as f32 + 0.3);
            Wall::polygon(vec![
                corner,
                corner + Vec2::new(side, 0.0),
                corner + Vec2::splat(side),
                corner + Vec2::new(0.0, side),
            ])
        })
        .collect()
}

/// The boids graph with `WallAvoidance` put first in its `Priority`.
fn graph() -> graph_runtime::Graph {
    let mut graph = boids_fixture::graph();
    let avoid_walls = graph.add(Node::WallAvoidance {
        min_length: 2.0.into(),
        lookahead_time: 1.0.into(),
        whisker_angle: 40.0.into(),
        margin: 0.5.into(),
    });
    for node in graph.nodes.values_mut() {
        if let Node::Priority { inputs, .. } = node {
            inputs.insert(0, Link(Some(avoid_walls)));
        }
    }
    graph
}

fn simulation(walls: Vec<Wall>) -> Simulation {
    let assets = boids_fixture::scene_assets(AGENTS, graph(), walls);
    let mut simulation = Simulation::new(&assets).expect("bench scene");
    for _ in 0..30 {
        simulation.step(boids_fixture::DT);
    }
    simulation
}

fn tick(c: &mut Criterion) {
    let bounds = boids_fixture::world(AGENTS).bounds;
    let walls = squares(bounds.min, bounds.max, SQUARES, SQUARE_SIDE);
    let segments: usize = walls.iter().map(|w| w.segments().count()).sum();
    assert_eq!(segments, 1_000);
    let mut group = c.benchmark_group("walls_tick_10000");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(AGENTS as u64));
    let mut without = simulation(Vec::new());
    let mut with = simulation(walls);
    group.bench_function("no_walls", |b| {
        b.iter(|| without.step(black_box(boids_fixture::DT)));
    });
    group.bench_function("1000_segments", |b| {
        b.iter(|| with.step(black_box(boids_fixture::DT)));
    });
    group.finish();
    eprintln!(
        "walls_tick_10000: {} wall crossings in {} ticks with 1,000 segments",
        with.wall_crossings(),
        with.tick()
    );
    interleaved(&mut without, &mut with);
}

/// The two scenes tick by tick in turn, so both see the same machine load (criterion's two
/// groups run seconds apart, and on a shared machine their ratio swings with the load).
fn interleaved(without: &mut Simulation, with: &mut Simulation) {
    const TICKS: usize = 600;
    let mut times = [Vec::with_capacity(TICKS), Vec::with_capacity(TICKS)];
    for round in 0..TICKS {
        for pick in [round % 2, 1 - round % 2] {
            let simulation = if pick == 0 { &mut *without } else { &mut *with };
            let start = std::time::Instant::now();
            simulation.step(boids_fixture::DT);
            times[pick].push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    for list in &mut times {
        list.sort_by(f64::total_cmp);
    }
    let [no_walls, walls] = &times;
    let (min, median) = (|l: &[f64]| l[0], |l: &[f64]| l[l.len() / 2]);
    eprintln!(
        "walls_tick_10000 interleaved, {TICKS} ticks each: no walls {:.3} ms (median {:.3}), \
         1,000 segments {:.3} ms (median {:.3}): walls add {:.0} % (median {:.0} %)",
        min(no_walls),
        median(no_walls),
        min(walls),
        median(walls),
        (min(walls) / min(no_walls) - 1.0) * 100.0,
        (median(walls) / median(no_walls) - 1.0) * 100.0,
    );
}

fn index_build(c: &mut Criterion) {
    let walls = squares(Vec2::splat(-1_000.0), Vec2::splat(1_000.0), 2_500, 10.0);
    c.bench_function("wall_index_build_10000_segments", |b| {
        b.iter(|| WallIndex::new(black_box(&walls)));
    });
}

/// The first hit along `from → to` by a scan over every segment, with the ray cast formula
/// of `BEHAVIORS.md` ("Walls"): the baseline the index must beat.
fn scan_ray_cast(segments: &[(Vec2, Vec2)], from: Vec2, to: Vec2) -> Option<(f32, usize)> {
    let d = to - from;
    let mut best: Option<(f32, usize)> = None;
    for (index, &(a, b)) in segments.iter().enumerate() {
        let s = b - a;
        let den = d.perp_dot(s);
        if den == 0.0 {
            continue;
        }
        let w = a - from;
        let t = w.perp_dot(s) / den;
        let u = w.perp_dot(d) / den;
        if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) && best.is_none_or(|(b, _)| t < b) {
            best = Some((t, index));
        }
    }
    best
}

fn ray_casts(c: &mut Criterion) {
    let bounds = boids_fixture::world(AGENTS).bounds;
    let walls = squares(bounds.min, bounds.max, SQUARES, SQUARE_SIDE);
    let index = WallIndex::new(&walls);
    let segments = index.segments().to_vec();
    let mut rng = AgentRng::new(7, 0);
    let size = bounds.size();
    let rays: Vec<(Vec2, Vec2)> = (0..AGENTS)
        .map(|_| {
            let from = bounds.min + size * Vec2::new(rng.unit(), rng.unit());
            let to = from + Vec2::from_angle(rng.unit() * std::f32::consts::TAU) * 8.0;
            (from, to)
        })
        .collect();
    let hits_index = rays
        .iter()
        .filter(|(f, t)| index.ray_cast(*f, *t).is_some())
        .count();
    let hits_scan = rays
        .iter()
        .filter(|(f, t)| scan_ray_cast(&segments, *f, *t).is_some())
        .count();
    assert_eq!(hits_index, hits_scan, "both find the same hits");
    eprintln!("wall_ray_cast_1000_segments: {hits_index} of {AGENTS} rays hit a wall");
    let mut group = c.benchmark_group("wall_ray_cast_1000_segments");
    group.throughput(Throughput::Elements(AGENTS as u64));
    group.bench_function("index", |b| {
        b.iter(|| {
            rays.iter()
                .filter(|(f, t)| index.ray_cast(*f, *t).is_some())
                .count()
        });
    });
    group.bench_function("scan", |b| {
        b.iter(|| {
            rays.iter()
                .filter(|(f, t)| scan_ray_cast(&segments, *f, *t).is_some())
                .count()
        });
    });
    group.finish();
}

criterion_group!(benches, tick, index_build, ray_casts);
criterion_main!(benches);
