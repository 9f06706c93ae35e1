//! Frame timing for `STEERGRAPH_FRAME_STATS=1`: a line on stderr every few seconds with
//! frames per second, the editor's CPU time per frame, the tick time and, when agents are
//! drawn on the GPU, the CPU time of that draw (upload and draw calls, after the frame).

/// Frame timing gathered over one reporting period.
#[derive(Debug, Default)]
pub struct FrameStats {
    started: Option<f64>,
    frames: u32,
    cpu_ms: Vec<f32>,
    tick_ms: Vec<f32>,
    draw_ms: Vec<f32>,
}

impl FrameStats {
    /// Seconds per report.
    const PERIOD: f64 = 5.0;

    /// Statistics on when `STEERGRAPH_FRAME_STATS` is set.
    pub fn from_environment() -> Option<Self> {
        std::env::var_os("STEERGRAPH_FRAME_STATS").map(|_| Self::default())
    }

    /// Adds one frame; prints and restarts once a period has passed.
    pub fn record(
        &mut self,
        now: f64,
        cpu_ms: f32,
        tick_ms: f32,
        agents: usize,
        gpu_draw_ms: Option<f32>,
    ) {
        let started = *self.started.get_or_insert(now);
        self.frames += 1;
        self.cpu_ms.push(cpu_ms);
        self.tick_ms.push(tick_ms);
        self.draw_ms.extend(gpu_draw_ms);
        if now - started < Self::PERIOD {
            return;
        }
        let fps = f64::from(self.frames) / (now - started);
        self.cpu_ms.sort_by(f32::total_cmp);
        let at = |fraction: usize| {
            self.cpu_ms
                .get(self.cpu_ms.len() * fraction / 100)
                .copied()
                .unwrap_or(0.0)
        };
        let (median, p95) = (at(50), at(95));
        let tick = self.tick_ms.iter().sum::<f32>() / self.tick_ms.len().max(1) as f32;
        let draw = if self.draw_ms.is_empty() {
            "agents drawn as a mesh".to_owned()
        } else {
            self.draw_ms.sort_by(f32::total_cmp);
            let median = self.draw_ms.get(self.draw_ms.len() / 2).copied();
            format!("GPU agents' draw median {:.2} ms", median.unwrap_or(0.0))
        };
        eprintln!(
            "frame-stats: {agents} agents, {fps:.1} frames/s, editor CPU per frame median {median:.2} ms, p95 {p95:.2} ms, tick {tick:.2} ms, {draw}"
        );
        *self = Self::default();
    }
}
