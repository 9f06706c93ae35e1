//! The preview's "Run on GPU" switch (issue 48): the scene's agents stepped by the GPU
//! backend (`integrations/gpu`) instead of the CPU simulation, from where the CPU run is.
//!
//! When the window paints with wgpu on a real GPU, the crowd runs on the window's own device
//! and its agents are drawn from the crowd's buffer (`paint.rs`): nothing is read back. When
//! the window paints with OpenGL, or its device is a software one (lavapipe, whose slow ticks
//! would hold up the window's frames), the crowd runs on a device of its own and is read back
//! whenever its ticks have run (`run.rs` paces it). While the GPU runs, the CPU simulation
//! waits at its tick: the timeline, plots and inspector show it there. A dragged target moves
//! on the GPU in place; any other edit the simulation takes carries the agents back to it,
//! lets it take the edit, and starts the GPU again from it; switching off carries them back
//! for good.
//!
//! Without the `gpu` feature the switch says how to build with it, and the CPU runs.

#[cfg(feature = "gpu")]
mod paint;
#[cfg(feature = "gpu")]
mod run;

use egui::{Painter, Rect};
use glam::Vec2;

use super::host::{Host, Pacing};
use super::scene_doc::SceneDocument;
use super::view::GpuAgents;
use super::{OpenGraph, View};

/// The switch and, when on, the crowd on the GPU.
#[derive(Default)]
pub struct GpuSwitch {
    #[cfg(feature = "gpu")]
    run: Option<run::Run>,
    /// The device the window paints with, when it paints with wgpu.
    #[cfg(feature = "gpu")]
    renderer: Option<eframe::egui_wgpu::RenderState>,
    /// Draw from the crowd's buffers on the window's device even when it is a software one
    /// (lavapipe: its slow ticks then hold up the window's frames); tests of the drawing set
    /// it.
    pub share_software_device: bool,
    /// Why the preview does not run on the GPU (no adapter, a node outside the GPU's family,
    /// an edit that took the scene outside it), shown beside the switch until it is tried
    /// again.
    pub problem: Option<String>,
}

impl GpuSwitch {
    /// What a build without the GPU backend says when the switch is tried.
    #[cfg(not(feature = "gpu"))]
    pub const NOT_BUILT: &str = "this build has no GPU backend: build the editor with \
                                 `cargo run --release -p app --features gpu`";

    /// Whether the GPU runs the preview.
    pub fn is_on(&self) -> bool {
        #[cfg(feature = "gpu")]
        return self.run.is_some();
        #[cfg(not(feature = "gpu"))]
        false
    }

    /// The adapter it runs on and how the agents reach the screen, while on.
    pub fn status(&self) -> Option<String> {
        #[cfg(feature = "gpu")]
        return self.run.as_ref().map(run::Run::status);
        #[cfg(not(feature = "gpu"))]
        None
    }

    /// The adapter's name and whether the agents are read back, in one short line, while on.
    pub fn summary(&self) -> Option<String> {
        #[cfg(feature = "gpu")]
        return self.run.as_ref().map(run::Run::summary);
        #[cfg(not(feature = "gpu"))]
        None
    }

    /// Ticks the GPU has run since it last started from the CPU simulation.
    pub fn ticks(&self) -> u64 {
        #[cfg(feature = "gpu")]
        return self.run.as_ref().map_or(0, |run| run.ticks);
        #[cfg(not(feature = "gpu"))]
        0
    }

    /// Tells which wgpu device the window paints with this frame (`None`: it paints with
    /// OpenGL, or in a test without a window).
    #[cfg(feature = "gpu")]
    pub fn set_renderer(&mut self, renderer: Option<&eframe::egui_wgpu::RenderState>) {
        if self.renderer.is_none() {
            self.renderer = renderer.cloned();
        }
    }

    /// Turns the GPU run on (from the CPU simulation as it is) or off (the agents carried
    /// back to it). A switch that cannot turn on says why in [`problem`](Self::problem).
    pub fn toggle(&mut self, host: &mut Host) {
        self.problem = None;
        #[cfg(feature = "gpu")]
        match self.run.take() {
            Some(run) => {
                if let Err(why) = run.carry_back(host) {
                    self.problem = Some(why);
                }
            }
            None => match run::Run::start(self.renderer.as_ref(), self.share_software_device, host)
            {
                Ok(run) => self.run = Some(run),
                Err(why) => self.problem = Some(why),
            },
        }
        #[cfg(not(feature = "gpu"))]
        {
            let _ = host;
            self.problem = Some(Self::NOT_BUILT.to_owned());
        }
    }

    /// One frame while on: a target dragged moves on both; any other edit waiting carries the
    /// agents back and restarts the GPU from the simulation that took it; the cursor target
    /// follows the pointer; the ticks due after `frame_seconds` run. Returns whether the GPU
    /// ran the clock (else the CPU runs).
    pub fn update(
        &mut self,
        host: &mut Host,
        document: &SceneDocument,
        open: &OpenGraph<'_>,
        frame_seconds: f32,
        cursor: Option<Vec2>,
        pacing: Pacing,
    ) -> bool {
        #[cfg(feature = "gpu")]
        {
            let Some(mut run) = self.run.take() else {
                return false;
            };
            // Most frames nothing waits: one check, and the scene is left alone.
            if !host.is_current(document, open) {
                if let Some(moved) = host.targets_moved(document, open) {
                    // A target dragged: the CPU world takes it, the GPU moves it; nothing else
                    // changed, so the agents stay where the GPU has them.
                    host.follow(document, open);
                    for (name, to) in moved {
                        run.move_target(&name, to);
                    }
                } else {
                    match run.follow_edit(host, |host| host.follow(document, open)) {
                        Ok(restarted) => run = restarted,
                        Err(why) => {
                            self.problem = Some(why);
                            return false;
                        }
                    }
                }
            }
            if let Some(cursor) = cursor {
                run.move_target("cursor", cursor);
            }
            let advanced = run.advance(host, frame_seconds, pacing);
            self.run = Some(run);
            self.keep_going(advanced)
        }
        #[cfg(not(feature = "gpu"))]
        {
            let _ = (host, document, open, frame_seconds, cursor, pacing);
            false
        }
    }

    /// Advances the GPU exactly one tick (the Step button while on).
    pub fn step_once(&mut self, host: &Host) {
        #[cfg(feature = "gpu")]
        if let Some(run) = self.run.as_mut() {
            let stepped = run.step(host.tick_length(), 1);
            self.keep_going(stepped);
        }
        #[cfg(not(feature = "gpu"))]
        let _ = host;
    }

    /// Respawns the agents (the Reset button): the CPU simulation is rebuilt and, while on,
    /// the GPU starts again from it.
    pub fn reset(&mut self, host: &mut Host, document: &SceneDocument, open: &OpenGraph<'_>) {
        #[cfg(feature = "gpu")]
        if let Some(run) = self.run.take() {
            let restarted = run.restart(host, |host| host.reset(document, open));
            self.keep(restarted);
            return;
        }
        host.reset(document, open);
    }

    /// Adds the GPU's agents to `painter` over `screen`, while on (read back, as `agents`
    /// draws the CPU's); false when off (the caller draws the CPU simulation's).
    pub fn paint(&self, painter: &Painter, screen: Rect, view: &View, agents: &GpuAgents) -> bool {
        #[cfg(feature = "gpu")]
        if let Some(run) = &self.run {
            run.paint(painter, screen, view, agents);
            return true;
        }
        let _ = (painter, screen, view, agents);
        false
    }

    /// Keeps a restarted run, or notes why there is none.
    #[cfg(feature = "gpu")]
    fn keep(&mut self, restarted: Result<run::Run, String>) -> bool {
        match restarted {
            Ok(run) => {
                self.run = Some(run);
                true
            }
            Err(why) => {
                self.problem = Some(why);
                false
            }
        }
    }

    /// Stops the run, noting why, when the device failed.
    #[cfg(feature = "gpu")]
    fn keep_going(&mut self, result: Result<(), String>) -> bool {
        match result {
            Ok(()) => true,
            Err(why) => {
                self.run = None;
                self.problem = Some(why);
                false
            }
        }
    }
}
