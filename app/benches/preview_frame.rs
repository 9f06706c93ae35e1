//! One preview frame's CPU work on the boids scene: a 60 Hz tick, the metric sample when due
//! (every sixth tick), the agent mesh, the world and the selected agent's guides painted, and
//! tessellation into triangles. The baseline in the same run is the tick alone, the least
//! any frame must do.
//!
//! Two ways to grow the crowd: `same density` scales the preset's spawn circle and bounds with
//! the count (a bigger level), `same area` keeps them (what raising the count in the preset
//! scene does; density, and so the cost per agent, rise with the count).
//!
//! `preview drawing` is the drawing alone, no tick (5,000, 20,000 and 100,000 agents at the
//! preset's density): the world, the agents and the first agent's guides painted and
//! tessellated, the agents as an egui mesh (the fallback) or handed to the GPU (the instance
//! data filled and one paint callback; the upload and draw calls run after the frame, in the
//! window, and `STEERGRAPH_FRAME_STATS=1` reports their time).

use std::hint::black_box;
use std::path::Path;

use app::editor::{
    BlockedCells, Guides, TICK, View, agent_instances, agent_mesh, paint_guides, paint_world,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use graph_runtime::{Area, MetricsTracker, SceneAssets, Simulation, Spawn, Trace};

/// Agents in the preset scene.
const PRESET_AGENTS: f32 = 400.0;
/// Agent counts measured.
const AGENT_COUNTS: [u32; 3] = [1_000, 5_000, 20_000];
/// Ticks between metric samples in the preview (10 Hz at 60 Hz).
const TICKS_PER_SAMPLE: u32 = 6;
/// The viewport size of the default window (points).
const VIEWPORT: egui::Vec2 = egui::vec2(520.0, 640.0);

fn boids(agents: u32, same_density: bool) -> Simulation {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/boids.scene.ron");
    let mut assets = SceneAssets::load(&path).expect("the boids preset loads");
    let scale = if same_density {
        (agents as f32 / PRESET_AGENTS).sqrt()
    } else {
        1.0
    };
    let scene = &mut assets.scene;
    scene.bounds.min *= scale;
    scene.bounds.max *= scale;
    if let Spawn::Random { count, area, .. } = &mut scene.groups[0].spawn {
        *count = agents;
        if let Area::Circle { radius, .. } = area {
            *radius *= scale;
        }
    }
    let mut simulation = Simulation::new(&assets).expect("the boids preset runs");
    for _ in 0..30 {
        simulation.step(TICK);
    }
    simulation
}

/// State of the benchmarked preview between frames.
struct Frame {
    simulation: Simulation,
    metrics: MetricsTracker,
    trace: Trace,
    ticks: u32,
    ctx: egui::Context,
}

impl Frame {
    fn new(simulation: Simulation) -> Self {
        Self {
            simulation,
            metrics: MetricsTracker::default(),
            trace: Trace::default(),
            ticks: 0,
            ctx: egui::Context::default(),
        }
    }

    /// One frame: tick, sample when due, paint, tessellate; returns the triangle count.
    fn run(&mut self) -> usize {
        self.simulation.step(TICK);
        self.ticks += 1;
        if self.ticks.is_multiple_of(TICKS_PER_SAMPLE) {
            black_box(
                self.metrics
                    .observe(&self.simulation, self.ticks as f32 * TICK),
            );
        }
        self.simulation.trace(0, TICK, &mut self.trace);
        draw(
            &self.ctx,
            &self.simulation,
            &self.trace,
            Agents::Mesh,
            &mut Vec::new(),
        )
    }
}

fn preview_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("preview frame");
    group.sample_size(20);
    for same_density in [true, false] {
        let label = if same_density {
            "same density"
        } else {
            "same area"
        };
        for agents in AGENT_COUNTS {
            if !same_density && agents > 5_000 {
                continue; // seconds per tick: measured by hand, see BENCHMARKS.md
            }
            group.throughput(Throughput::Elements(u64::from(agents)));
            let mut frame = Frame::new(boids(agents, same_density));
            group.bench_with_input(
                BenchmarkId::new(format!("{label}, frame"), agents),
                &agents,
                |b, _| b.iter(|| black_box(frame.run())),
            );
            let mut simulation = boids(agents, same_density);
            group.bench_with_input(
                BenchmarkId::new(format!("{label}, tick alone"), agents),
                &agents,
                |b, _| b.iter(|| simulation.step(black_box(TICK))),
            );
        }
    }
    group.finish();
}

/// How the drawing bench hands the agents over.
#[derive(Clone, Copy, PartialEq)]
enum Agents {
    Mesh,
    Gpu,
}

/// One frame's drawing of `simulation` (no tick): world, agents, guides, tessellation;
/// returns the triangle count. `instances` is the GPU path's reused instance buffer.
fn draw(
    ctx: &egui::Context,
    simulation: &Simulation,
    trace: &Trace,
    agents: Agents,
    instances: &mut Vec<app::editor::AgentInstance>,
) -> usize {
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, VIEWPORT);
    let view = View::fit(simulation.world().bounds, screen);
    let input = egui::RawInput {
        screen_rect: Some(screen),
        ..Default::default()
    };
    let group_of = |a| simulation.group_of(a).unwrap_or(0);
    let output = ctx.run_ui(input, |ui| {
        let painter = ui.painter();
        paint_world(
            painter,
            screen,
            &view,
            simulation.world(),
            false,
            &mut BlockedCells::default(),
        );
        match agents {
            Agents::Mesh => {
                let mesh = agent_mesh(screen, &view, simulation.vehicles(), &[], group_of);
                painter.add(egui::Shape::mesh(mesh));
            }
            Agents::Gpu => {
                black_box(agent_instances(
                    &view,
                    simulation.vehicles(),
                    &[],
                    group_of,
                    instances,
                ));
                // The callback the viewport adds; eframe would call it after the frame.
                let callback = eframe::egui_glow::CallbackFn::new(|_, _| {});
                painter.add(egui::PaintCallback {
                    rect: screen,
                    callback: std::sync::Arc::new(callback),
                });
            }
        }
        if let Some(vehicle) = simulation.vehicles().first() {
            paint_guides(
                painter,
                screen,
                &view,
                vehicle,
                trace,
                None,
                &Guides::default(),
            );
        }
    });
    let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
    primitives
        .iter()
        .map(|p| match &p.primitive {
            egui::epaint::Primitive::Mesh(mesh) => mesh.indices.len() / 3,
            egui::epaint::Primitive::Callback(_) => 0,
        })
        .sum()
}

fn preview_drawing(c: &mut Criterion) {
    let mut group = c.benchmark_group("preview drawing");
    group.sample_size(20);
    for agents in [5_000, 20_000, 100_000] {
        group.throughput(Throughput::Elements(u64::from(agents)));
        let mut simulation = boids(agents, true);
        let mut trace = Trace::default();
        simulation.trace(0, TICK, &mut trace);
        let ctx = egui::Context::default();
        let mut instances = Vec::new();
        for (label, how) in [("egui mesh", Agents::Mesh), ("GPU instances", Agents::Gpu)] {
            group.bench_with_input(BenchmarkId::new(label, agents), &agents, |b, _| {
                b.iter(|| black_box(draw(&ctx, &simulation, &trace, how, &mut instances)));
            });
        }
        group.bench_with_input(BenchmarkId::new("tick alone", agents), &agents, |b, _| {
            b.iter(|| simulation.step(black_box(TICK)));
        });
    }
    group.finish();
}

criterion_group!(benches, preview_frame, preview_drawing);
criterion_main!(benches);
