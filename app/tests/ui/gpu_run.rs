//! The preview's "Run on GPU" switch (issue 48). In a build without the GPU backend it says
//! how to build one and the CPU keeps running. With it (`--features gpu`, lavapipe in CI),
//! the agents step on the GPU from where the CPU run is, the CPU run waits at its tick, an
//! edit carries them back and restarts the GPU from there, switching off leaves them where
//! the GPU took them, and a scene with nodes outside the GPU's family is refused by name.

use crate::common;

use common::EditorHarness;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use app::editor::EditorApp;

/// The preview's CPU simulation.
fn cpu<'a>(harness: &'a Harness<'_, EditorApp>) -> &'a graph_runtime::Simulation {
    let simulation = harness.state().preview.host.simulation.as_ref();
    simulation.expect("the scene runs")
}

fn tick(harness: &Harness<'_, EditorApp>) -> u64 {
    cpu(harness).tick()
}

/// The editor on the preset graph `file` with its scene, frames of a sixtieth.
#[cfg(feature = "gpu")]
fn on_preset(dir: &std::path::Path, file: &'static str) -> Harness<'static, EditorApp> {
    EditorHarness::new(dir).sixtieth().preset(file).build()
}

fn flip_the_switch(harness: &mut Harness<'static, EditorApp>) {
    harness.get_by_label("Run on GPU").click();
    harness.run_steps(2);
}

#[cfg(not(feature = "gpu"))]
#[test]
fn without_the_gpu_backend_the_switch_says_how_to_build_it_and_the_cpu_runs_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    flip_the_switch(&mut harness);
    let preview = &harness.state().preview;
    assert!(!preview.gpu.is_on());
    assert_eq!(
        preview.gpu.problem.as_deref(),
        Some(app::editor::GpuSwitch::NOT_BUILT)
    );
    harness.get_by_label_contains("--features gpu");
    let before = tick(&harness);
    harness.run_steps(5);
    assert_eq!(
        tick(&harness),
        before + 5,
        "one tick a sixtieth, on the CPU"
    );
}

#[cfg(feature = "gpu")]
mod on_the_gpu {
    use super::*;

    /// Largest distance between the agents of two runs, agent by agent.
    fn farthest(a: &[graph_runtime::Vehicle], b: &[graph_runtime::Vehicle]) -> f32 {
        assert_eq!(a.len(), b.len());
        a.iter()
            .zip(b)
            .map(|(a, b)| a.position.distance(b.position))
            .fold(0.0, f32::max)
    }

    #[test]
    fn the_boids_run_on_the_gpu_and_come_back_where_the_gpu_took_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = EditorHarness::new(dir.path()).sixtieth().paused().build();
        let at_start = cpu(&harness).clone();
        flip_the_switch(&mut harness);
        let preview = &harness.state().preview;
        assert!(preview.gpu.is_on(), "{:?}", preview.gpu.problem);
        // The harness paints with no wgpu device: the crowd has its own and is read back.
        let status = preview.gpu.status().expect("on");
        assert!(
            status.contains("read back: the window paints with OpenGL"),
            "{status}"
        );
        // One short line says so; the tooltip says it in full.
        harness.get_by_label_contains("on the GPU: ");
        harness.get_by_label_contains(", read back");

        // Thirty running frames of a sixtieth: thirty ticks on the GPU, none on the CPU,
        // which waits at its tick.
        harness.state_mut().preview.host.running = true;
        harness.run_steps(30);
        harness.state_mut().preview.host.running = false;
        harness.run_steps(1);
        assert_eq!(harness.state().preview.gpu.ticks(), 30);
        assert_eq!(tick(&harness), at_start.tick());
        harness.get_by_label_contains("+ 0.5 s on the GPU");

        // Off: the CPU's agents are where the GPU took them, which is where the CPU itself
        // takes them in thirty ticks, within the GPU's tolerance (BEHAVIORS.md, "On the GPU").
        flip_the_switch(&mut harness);
        let preview = &harness.state().preview;
        assert!(!preview.gpu.is_on());
        assert_eq!(preview.gpu.problem, None);
        let mut reference = at_start.clone();
        for _ in 0..30 {
            reference.step(app::editor::TICK);
        }
        let back = preview.host.simulation.as_ref().expect("runs");
        assert_eq!(back.tick(), at_start.tick(), "the CPU's clock did not move");
        let apart = farthest(back.vehicles(), reference.vehicles());
        assert!(apart <= 1e-3, "{apart} from the CPU's own thirty ticks");
        let moved = farthest(back.vehicles(), at_start.vehicles());
        assert!(moved > 0.1, "the agents moved on the GPU: {moved}");
    }

    #[test]
    fn a_graph_edit_while_on_carries_the_agents_back_and_the_gpu_goes_on_from_there() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
        flip_the_switch(&mut harness);
        harness.run_steps(20);
        let before = cpu(&harness).clone();
        common::edit_the_graph(&mut harness);
        harness.run_steps(1);
        let preview = &harness.state().preview;
        assert!(preview.gpu.is_on(), "{:?}", preview.gpu.problem);
        // The CPU simulation took the edit with the agents where the GPU had them: not at the
        // tick it waited at, though its clock did not move.
        let after = preview.host.simulation.as_ref().expect("runs");
        assert_eq!(after.tick(), before.tick());
        let carried = farthest(after.vehicles(), before.vehicles());
        assert!(carried > 0.1, "the agents were carried back: {carried}");
        assert!(preview.gpu.ticks() <= 3, "the GPU started again from there");
    }

    #[test]
    fn a_target_moved_while_on_moves_on_the_gpu_without_a_restart() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = on_preset(dir.path(), "budget.graph.ron");
        flip_the_switch(&mut harness);
        assert!(harness.state().preview.gpu.is_on());
        let waiting = cpu(&harness).clone();
        harness.run_steps(60);
        // The goal moved in the scene, as dragging it with the Select tool does: from the far
        // right (32, 0) to the top left, above where the 30 walkers started.
        let goal = glam::Vec2::new(-30.0, 20.0);
        let scene = &mut harness.state_mut().workspace.scene.scene;
        scene.targets.insert("goal".to_owned(), goal);
        harness.run_steps(2);
        let preview = &harness.state().preview;
        assert!(preview.gpu.is_on());
        // One tick in the frame after the click that turned it on, then 60, then 2.
        assert_eq!(preview.gpu.ticks(), 63, "no restart: the ticks run on");
        let waited = preview.host.simulation.as_ref().expect("runs");
        assert_eq!(waited.world().target("goal"), Some(goal));
        assert_eq!(
            farthest(waited.vehicles(), waiting.vehicles()),
            0.0,
            "no carry-back: the CPU's agents wait where they were"
        );
        // Ten seconds on (top speed 5, at most about 25 units to go), the walkers have turned
        // back and gather on the goal's new place.
        harness.run_steps(600);
        flip_the_switch(&mut harness);
        let vehicles = cpu(&harness).vehicles();
        let centre =
            vehicles.iter().map(|v| v.position).sum::<glam::Vec2>() / vehicles.len() as f32;
        assert!(centre.distance(goal) < 3.0, "the crowd's centre {centre}");
    }

    #[test]
    fn an_edit_the_simulation_takes_no_part_in_leaves_the_gpu_running() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
        flip_the_switch(&mut harness);
        harness.run_steps(10);
        // The scene's description, and the cursor target's place (the pointer moves it).
        let scene = &mut harness.state_mut().workspace.scene.scene;
        scene.description = "Boids, described again.".to_owned();
        scene
            .targets
            .insert("cursor".to_owned(), glam::Vec2::new(3.0, 4.0));
        harness.run_steps(5);
        // One tick in the frame after the click, then 10, then 5: never started again.
        assert_eq!(harness.state().preview.gpu.ticks(), 16);
    }

    #[test]
    fn a_crowd_whose_ticks_run_on_the_worker_switches_after_the_tick_under_way() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
        // 6,000 boids, never measured: the window's pacing steps them on the worker thread,
        // one tick after another.
        let scene = &mut harness.state_mut().workspace.scene.scene;
        let graph_runtime::Spawn::Random { count, .. } = &mut scene.groups[0].spawn else {
            panic!("the boids spawn at random");
        };
        *count = 6_000;
        harness.state_mut().services.pacing = app::editor::Pacing::Budgeted;
        harness.run_steps(2);
        assert!(harness.state().preview.host.is_stepping());
        flip_the_switch(&mut harness);
        let preview = &harness.state().preview;
        assert!(preview.gpu.is_on(), "{:?}", preview.gpu.problem);
        assert!(!preview.host.is_stepping());
        assert_eq!(cpu(&harness).vehicles().len(), 6_000);
        assert!(harness.state().preview.gpu.ticks() > 0);
    }

    #[test]
    fn a_scene_outside_the_family_is_refused_by_name_and_stays_on_the_cpu() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = on_preset(dir.path(), "corridor.graph.ron");
        flip_the_switch(&mut harness);
        let preview = &harness.state().preview;
        assert!(!preview.gpu.is_on());
        let problem = preview.gpu.problem.clone().expect("a reason");
        assert!(problem.contains("WallAvoidance (node #"), "{problem}");
        harness.get_by_label_contains("not on the GPU:");
        let before = tick(&harness);
        harness.run_steps(3);
        assert_eq!(tick(&harness), before + 3, "the CPU runs on");
    }

    /// A wgpu device as the window's renderer opens it, headless.
    fn render_state() -> eframe::egui_wgpu::RenderState {
        use eframe::egui_wgpu::{RenderState, RendererOptions, WgpuConfiguration};
        let config = WgpuConfiguration::default();
        let instance = pollster::block_on(config.wgpu_setup.new_instance());
        pollster::block_on(RenderState::create(
            &config,
            &instance,
            None,
            RendererOptions::default(),
        ))
        .expect("a wgpu device (lavapipe in CI)")
    }

    /// Renders the shapes `clipped` alone (black behind) with the window's renderer, as RGBA
    /// rows of `size` pixels.
    fn render(
        state: &eframe::egui_wgpu::RenderState,
        ctx: &egui::Context,
        clipped: Vec<egui::epaint::ClippedShape>,
        size: [u32; 2],
    ) -> Vec<[u8; 4]> {
        use eframe::egui_wgpu::{ScreenDescriptor, wgpu};
        let (device, queue) = (&state.device, &state.queue);
        let screen = ScreenDescriptor {
            size_in_pixels: size,
            pixels_per_point: 1.0,
        };
        let primitives = ctx.tessellate(clipped, 1.0);
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d {
                width: size[0],
                height: size[1],
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: state.target_format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let mut renderer = state.renderer.write();
        let mut commands =
            renderer.update_buffers(device, queue, &mut encoder, &primitives, &screen);
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: None,
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            renderer.render(&mut pass, &primitives, &screen);
        }
        commands.push(encoder.finish());
        queue.submit(commands);
        read_pixels(state, &texture)
    }

    /// `texture`'s pixels (the window's format) as RGBA rows.
    fn read_pixels(
        state: &eframe::egui_wgpu::RenderState,
        texture: &eframe::egui_wgpu::wgpu::Texture,
    ) -> Vec<[u8; 4]> {
        use eframe::egui_wgpu::wgpu;
        let (device, queue) = (&state.device, &state.queue);
        let size = [texture.width(), texture.height()];
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let row = (size[0] * 4).next_multiple_of(256);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: u64::from(row * size[1]),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            texture.size(),
        );
        queue.submit([encoder.finish()]);
        buffer.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the draw finishes");
        let bytes = buffer
            .slice(..)
            .get_mapped_range()
            .expect("mapped")
            .to_vec();
        let bgra = matches!(
            state.target_format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        );
        (0..size[1] as usize)
            .flat_map(|y| {
                let line = &bytes[y * row as usize..][..size[0] as usize * 4];
                line.chunks_exact(4)
                    .map(move |p| {
                        if bgra {
                            [p[2], p[1], p[0], p[3]]
                        } else {
                            [p[0], p[1], p[2], p[3]]
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn on_a_software_window_device_the_crowd_gets_a_device_of_its_own_and_a_real_gpu_is_shared() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = EditorHarness::new(dir.path()).sixtieth().paused().build();
        let state = render_state();
        let software =
            state.adapter.get_info().device_type == eframe::egui_wgpu::wgpu::DeviceType::Cpu;
        let preview = &mut harness.state_mut().preview;
        preview.gpu.set_renderer(Some(&state));
        preview.gpu_agents.set_wgpu(Some(&state));
        flip_the_switch(&mut harness);
        let status = harness.state().preview.gpu.status().expect("on");
        // lavapipe in CI; on a machine whose window device is a real GPU, the crowd shares it.
        let expected = if software {
            "read back: a software device"
        } else {
            "drawn from its buffers"
        };
        assert!(status.contains(expected), "{status}");
        // Either way one paint callback draws the agents (read back, as the CPU's are: wgpu
        // instances; paused, the same agents as the CPU's).
        assert_agents_drawn_by_one_callback(&harness, &state);
        harness.state_mut().preview.host.running = true;
        harness.run_steps(3);
        assert_eq!(harness.state().preview.gpu.ticks(), 3);
    }

    #[test]
    fn with_a_wgpu_window_the_agents_are_drawn_from_the_gpus_own_buffer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = EditorHarness::new(dir.path()).sixtieth().paused().build();
        let state = render_state();
        let gpu = &mut harness.state_mut().preview.gpu;
        gpu.set_renderer(Some(&state));
        // lavapipe is a software device: drawn from its buffers only when asked.
        gpu.share_software_device = true;
        flip_the_switch(&mut harness);
        let status = harness.state().preview.gpu.status().expect("on");
        assert!(status.contains("drawn from its buffers"), "{status}");

        // Paused, the GPU has run no tick: its agents are the CPU's.
        assert_agents_drawn_by_one_callback(&harness, &state);
    }

    #[test]
    fn with_the_switch_off_a_wgpu_window_draws_the_cpus_agents_as_instances() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut harness = EditorHarness::new(dir.path()).sixtieth().paused().build();
        let state = render_state();
        harness
            .state_mut()
            .preview
            .gpu_agents
            .set_wgpu(Some(&state));
        harness.run_steps(2);
        assert!(!harness.state().preview.gpu.is_on());
        assert_agents_drawn_by_one_callback(&harness, &state);
    }

    /// The viewport's agents are one paint callback, not a mesh of 400 triangles, and drawn,
    /// the callback puts each agent's triangle (its group's color) where the CPU's agent is.
    fn assert_agents_drawn_by_one_callback(
        harness: &Harness<'static, EditorApp>,
        state: &eframe::egui_wgpu::RenderState,
    ) {
        let preview = &harness.state().preview;
        let rect = preview.rect().expect("viewport");
        let shapes = harness.output().shapes.clone();
        let (callbacks, others): (Vec<_>, Vec<_>) = shapes.into_iter().partition(
            |clipped| matches!(&clipped.shape, egui::Shape::Callback(c) if c.rect == rect),
        );
        assert_eq!(callbacks.len(), 1);
        let largest_mesh = (others.iter())
            .filter_map(|c| match &c.shape {
                egui::Shape::Mesh(mesh) => Some(mesh.indices.len() / 3),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        assert!(
            largest_mesh < 400,
            "an agent mesh of {largest_mesh} triangles"
        );
        let screen = harness.ctx.content_rect().size();
        let size = [screen.x as u32, screen.y as u32];
        let pixels = render(state, &harness.ctx, callbacks, size);
        let color = app::editor::group_color(0).to_array();
        let view = preview.view;
        let inside: Vec<egui::Pos2> = (cpu(harness).vehicles().iter())
            .map(|v| view.to_screen(rect, v.position))
            .filter(|p| rect.shrink(2.0).contains(*p))
            .collect();
        assert!(inside.len() > 300, "{} agents in view", inside.len());
        let at = |p: egui::Pos2| pixels[p.y as usize * size[0] as usize + p.x as usize];
        let colored = inside.iter().filter(|p| at(**p) == color).count();
        assert_eq!(
            colored,
            inside.len(),
            "agents' centres in their group's color"
        );
        // Away from every agent, nothing is drawn.
        let empty = (0..200)
            .map(|i| rect.left_top() + egui::vec2(3.0 + i as f32 * 0.37, 3.0 + i as f32 * 0.11))
            .filter(|p| inside.iter().all(|a| a.distance(*p) > 20.0))
            .filter(|p| at(*p) != [0, 0, 0, 255])
            .count();
        assert_eq!(empty, 0, "pixels away from the agents stay black");
    }
}
