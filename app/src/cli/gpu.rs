//! `--gpu` for `bench` and `simulate`: the scene stepped by the GPU backend
//! (`integrations/gpu`, issue 48) in a build with the `gpu` feature; in a build without it, an
//! error that says how to get one. The CPU commands are unchanged either way.

use graph_runtime::Simulation;

/// A scene's agents on the GPU.
#[cfg(feature = "gpu")]
pub struct GpuRun(steergraph_gpu::GpuCrowd);

/// A build without the GPU backend has no run to hold.
#[cfg(not(feature = "gpu"))]
pub enum GpuRun {}

/// The simulation's agents on the first adapter; no adapter, or a graph or scene the GPU does
/// not run, is an error that says which.
#[cfg(feature = "gpu")]
pub fn start(simulation: &Simulation) -> Result<GpuRun, Vec<String>> {
    let gpu = steergraph_gpu::Gpu::new().map_err(|e| vec![e.to_string()])?;
    steergraph_gpu::GpuCrowd::new(gpu, simulation)
        .map(GpuRun)
        .map_err(|e| vec![e.to_string()])
}

/// Without the GPU backend: how to build it.
#[cfg(not(feature = "gpu"))]
pub fn start(_: &Simulation) -> Result<GpuRun, Vec<String>> {
    Err(vec![
        "this steergraph was built without the GPU backend: build it with \
         `cargo build --release -p app --features gpu` (wgpu; Vulkan, Metal or DX12 at run time)"
            .to_owned(),
    ])
}

#[cfg(feature = "gpu")]
impl GpuRun {
    /// `bench --gpu`: the adapter's line, then the timed line; `ticks` after `warm_up`.
    pub fn bench(&mut self, warm_up: u64, ticks: u64, dt: f32) -> Result<[String; 2], Vec<String>> {
        let crowd = &mut self.0;
        let adapter = format!("adapter: {}", crowd.gpu().describe());
        let fail = |e: steergraph_gpu::GpuError| vec![e.to_string()];
        for chunk in chunks(warm_up) {
            crowd.step(dt, chunk);
        }
        crowd.finish().map_err(fail)?;
        let start = std::time::Instant::now();
        for chunk in chunks(ticks) {
            crowd.step(dt, chunk);
        }
        crowd.finish().map_err(fail)?;
        let seconds = start.elapsed().as_secs_f64();
        let agents = crowd.len();
        Ok([
            adapter,
            format!(
                "{agents} agents x {ticks} ticks on the GPU in {seconds:.3} s: {:.0} agent-ticks/s ({:.3} ms/tick)",
                agents as f64 * ticks as f64 / seconds,
                seconds * 1000.0 / ticks as f64
            ),
        ])
    }

    /// `simulate --gpu`: every agent's position and velocity at tick `first` and after each
    /// of `ticks` ticks, handed to `row` (tick, agent, position, velocity) in agent order.
    pub fn rows(
        &mut self,
        first: u64,
        ticks: u64,
        dt: f32,
        mut row: impl FnMut(u64, usize, glam::Vec2, glam::Vec2) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        for t in 0..=ticks {
            if t > 0 {
                self.0.step(dt, 1);
            }
            let agents = self.0.agents().map_err(std::io::Error::other)?;
            for (agent, a) in agents.iter().enumerate() {
                row(first + t, agent, a.position.into(), a.velocity.into())?;
            }
        }
        Ok(())
    }
}

#[cfg(not(feature = "gpu"))]
impl GpuRun {
    /// Never called: there is no run.
    pub fn bench(&mut self, _: u64, _: u64, _: f32) -> Result<[String; 2], Vec<String>> {
        match *self {}
    }

    /// Never called: there is no run.
    pub fn rows(
        &mut self,
        _: u64,
        _: u64,
        _: f32,
        _: impl FnMut(u64, usize, glam::Vec2, glam::Vec2) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        match *self {}
    }
}

/// `ticks` in submissions of at most 64 ticks, so one submission never holds the GPU long.
#[cfg(feature = "gpu")]
fn chunks(ticks: u64) -> impl Iterator<Item = u32> {
    let full = ticks / 64;
    let rest = (ticks % 64) as u32;
    std::iter::repeat_n(64, full as usize).chain((rest > 0).then_some(rest))
}
