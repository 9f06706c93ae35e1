//! A tuning running on a thread of its own, so the editor keeps answering: its progress, the
//! best distance after each candidate (what the window plots while it runs), a cancel, and
//! the result handed back once.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};

use graph_runtime::SceneAssets;
use graph_runtime::tune::{TuneControl, TuneError, TuneResult, TuneSpec, tune};

/// How a tuning thread ended.
#[derive(Debug)]
pub enum TuneOutcome {
    /// The budget was spent (or the goals met, when asked to stop then).
    Done(TuneResult),
    /// [`TuneJob::cancel`] stopped it.
    Cancelled,
    /// It could not run; the message says why.
    Failed(String),
}

/// A tuning in the background. Dropping it cancels the tuning.
pub struct TuneJob {
    spec: TuneSpec,
    control: Arc<TuneControl>,
    receiver: Receiver<TuneOutcome>,
    /// When it started, for the time left.
    pub started: std::time::Instant,
}

impl TuneJob {
    /// Starts `spec` on `assets` on a new thread with a rayon pool of its own, so the
    /// preview's steps never wait behind the tuning's runs.
    pub fn start(assets: SceneAssets, spec: TuneSpec) -> Result<Self, String> {
        let control = Arc::new(TuneControl::default());
        let (sender, receiver) = mpsc::channel();
        let (thread_spec, thread_control) = (spec.clone(), Arc::clone(&control));
        std::thread::Builder::new()
            .name("steergraph-tune".to_owned())
            .spawn(move || {
                let outcome = run(&assets, &thread_spec, &thread_control);
                // The window may be gone (it cancelled); nobody is left to tell.
                let _ = sender.send(outcome);
            })
            .map_err(|error| format!("cannot start the tuning's thread: {error}"))?;
        Ok(Self {
            spec,
            control,
            receiver,
            started: std::time::Instant::now(),
        })
    }

    /// The fraction of the budget evaluated, 0 to 1.
    pub fn progress(&self) -> f32 {
        self.control.progress(&self.spec)
    }

    /// The best distance after each candidate evaluated so far.
    pub fn best_distances(&self) -> Vec<f64> {
        self.control
            .best_distances
            .lock()
            .map(|d| d.clone())
            .unwrap_or_default()
    }

    /// The best candidate after each candidate evaluated so far.
    pub fn best_runs(&self) -> Vec<graph_runtime::tune::TuneRun> {
        self.control
            .best_runs
            .lock()
            .map(|runs| runs.clone())
            .unwrap_or_default()
    }

    /// Asks the tuning to stop; [`TuneJob::poll`] then reports it cancelled.
    pub fn cancel(&self) {
        self.control.cancel();
    }

    /// Whether [`TuneJob::cancel`] was called.
    pub fn is_cancelling(&self) -> bool {
        self.control.cancelled()
    }

    /// The outcome once the thread has finished, without waiting.
    pub fn poll(&self) -> Option<TuneOutcome> {
        match self.receiver.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(TuneOutcome::Failed(
                "the tuning's thread stopped without a result".to_owned(),
            )),
        }
    }
}

impl Drop for TuneJob {
    fn drop(&mut self) {
        self.control.cancel();
    }
}

fn run(assets: &SceneAssets, spec: &TuneSpec, control: &TuneControl) -> TuneOutcome {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|index| format!("steergraph-tune-{index}"))
        .build()
    {
        Ok(pool) => pool,
        Err(error) => {
            return TuneOutcome::Failed(format!("cannot start the tuning's workers: {error}"));
        }
    };
    match pool.install(|| tune(assets, spec, control, |_| {})) {
        Ok(result) => TuneOutcome::Done(result),
        Err(TuneError::Cancelled) => TuneOutcome::Cancelled,
        Err(error) => TuneOutcome::Failed(error.to_string()),
    }
}
