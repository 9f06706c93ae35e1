//! The editor in a desktop window: eframe's options and start-up (settings, file dialogs, the
//! scene given on the command line), and what eframe asks of the app (a frame, a save, the
//! exit: unsaved work kept in the autosave).

use std::path::PathBuf;

use egui::Ui;

use super::frame_stats::FrameStats;
use super::{Autosave, EditorApp, FileDialogs, Settings, files, preview};

/// Opens the editor window, on `file` or the default preset, and `scene` (with its graph)
/// in the preview.
///
/// With `STEERGRAPH_FRAME_STATS=1` in the environment, a line of frame statistics goes to
/// stderr every few seconds (for measuring the preview's performance).
pub fn run(file: Option<PathBuf>, scene: Option<PathBuf>) -> eframe::Result {
    #[cfg_attr(
        not(feature = "gpu"),
        expect(unused_mut, reason = "only wgpu has options here")
    )]
    let mut options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Steergraph")
            .with_inner_size([1560.0, 960.0])
            .with_min_inner_size([800.0, 500.0])
            .with_drag_and_drop(true),
        renderer: renderer(),
        glow_options: eframe::egui_glow::GlowConfiguration {
            vsync: std::env::var_os("STEERGRAPH_NO_VSYNC").is_none(),
            ..Default::default()
        },
        ..Default::default()
    };
    #[cfg(feature = "gpu")]
    {
        use eframe::egui_wgpu::{SurfaceConfig, WgpuConfiguration, wgpu::PresentMode};
        let present_mode = if std::env::var_os("STEERGRAPH_NO_VSYNC").is_some() {
            PresentMode::AutoNoVsync
        } else {
            PresentMode::AutoVsync
        };
        options.wgpu_options = WgpuConfiguration::default().with_surface_config(SurfaceConfig {
            present_mode,
            ..SurfaceConfig::LOW_LATENCY
        });
    }
    eframe::run_native(
        "Steergraph",
        options,
        Box::new(move |cc| {
            // Ctrl+wheel zooms in the same steps as the wheel does on the graph and preview.
            cc.egui_ctx.options_mut(|o| {
                o.input_options.scroll_zoom_speed = preview::viewport::WHEEL_ZOOM;
            });
            let settings = cc
                .storage
                .and_then(|storage| eframe::get_value::<Settings>(storage, files::SETTINGS_KEY))
                .unwrap_or_default();
            let Opening {
                file,
                scene,
                replay,
            } = Opening::of(file, scene);
            let mut app = EditorApp::new(settings, Autosave::default_directory(), file);
            app.services.files = FileDialogs::from_environment();
            if let Some(scene) = scene {
                app.open_scene_with_its_graph(&scene);
            }
            if let Some(replay) = replay {
                app.open_replay_on_start(&replay);
            }
            app.services.frame_stats = FrameStats::from_environment();
            Ok(Box::new(app))
        }),
    )
}

/// What the window paints with: OpenGL, or in a build with the GPU backend, wgpu where this
/// machine has an adapter for it (so the preview's GPU crowd is drawn from its own buffers),
/// unless `STEERGRAPH_RENDERER=glow` asks for OpenGL.
fn renderer() -> eframe::Renderer {
    #[cfg(feature = "gpu")]
    if std::env::var("STEERGRAPH_RENDERER").as_deref() != Ok("glow")
        && steergraph_gpu::Gpu::adapter_exists()
    {
        return eframe::Renderer::Wgpu;
    }
    eframe::Renderer::Glow
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        self.preview.gpu_agents.set_available(frame.gl().is_some());
        #[cfg(feature = "gpu")]
        {
            self.preview.gpu.set_renderer(frame.wgpu_render_state());
            self.preview.gpu_agents.set_wgpu(frame.wgpu_render_state());
        }
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, files::SETTINGS_KEY, &self.settings);
        // Also on eframe's periodic save: one more chance to keep unsaved work.
        if self.workspace.document.is_dirty() || self.workspace.scene.is_dirty() {
            let session = self.session();
            let _ = self.services.autosave.write_all(
                &self.workspace.document,
                &self.workspace.scene,
                &session,
            );
        }
    }

    fn on_exit(&mut self, gl: Option<&eframe::glow::Context>) {
        if let Some(gl) = gl {
            self.preview.gpu_agents.destroy(gl);
        }
        if !self.workspace.document.is_dirty() || self.allow_close {
            self.services.autosave.clear();
        }
        if !self.workspace.scene.is_dirty() || self.allow_close {
            self.services.autosave.clear_scene();
        }
    }
}

/// What the command line asks the editor to open.
#[derive(Debug, PartialEq)]
struct Opening {
    /// The graph to open.
    file: Option<PathBuf>,
    /// The scene to open in the preview, with the graph its first group runs.
    scene: Option<PathBuf>,
    /// The replay to play.
    replay: Option<PathBuf>,
}

impl Opening {
    /// `steergraph RUN.sgrec` plays the replay (with its scene and graph), and
    /// `steergraph LEVEL.scene.ron` opens the scene as `--scene` does (as a scene dropped on
    /// the window does); any other file is read as a graph.
    fn of(file: Option<PathBuf>, scene: Option<PathBuf>) -> Self {
        match file {
            Some(file) if super::is_replay(&file) => Self {
                file: None,
                scene,
                replay: Some(file),
            },
            Some(file) if super::is_scene_path(&file) && scene.is_none() => Self {
                file: None,
                scene: Some(file),
                replay: None,
            },
            file => Self {
                file,
                scene,
                replay: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_or_a_replay_given_as_the_file_opens_as_one() {
        let path = |p: &str| Some(PathBuf::from(p));
        let opening = |file, scene, replay| Opening {
            file,
            scene,
            replay,
        };
        assert_eq!(
            Opening::of(path("level.scene.ron"), None),
            opening(None, path("level.scene.ron"), None)
        );
        assert_eq!(
            Opening::of(path("run.sgrec"), None),
            opening(None, None, path("run.sgrec"))
        );
        assert_eq!(
            Opening::of(path("boids.graph.ron"), path("level.scene.ron")),
            opening(path("boids.graph.ron"), path("level.scene.ron"), None)
        );
        // With --scene given too, a scene as the file is read as a graph: its error says so.
        assert_eq!(
            Opening::of(path("a.scene.ron"), path("b.scene.ron")),
            opening(path("a.scene.ron"), path("b.scene.ron"), None)
        );
        assert_eq!(Opening::of(None, None), opening(None, None, None));
    }
}
