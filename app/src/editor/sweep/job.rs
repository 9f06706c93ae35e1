//! A sweep running on a thread of its own, so the editor keeps answering: its progress, a
//! cancel, and the result handed back once.

use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, atomic::Ordering};

use graph_runtime::SceneAssets;
use graph_runtime::sweep::{SweepControl, SweepError, SweepResult, SweepSpec, sweep};

/// How a sweep thread ended.
#[derive(Debug)]
pub enum Outcome {
    /// Every run finished.
    Done(SweepResult),
    /// [`SweepJob::cancel`] stopped it.
    Cancelled,
    /// It could not run; the message says why (a value a field refuses, an unknown
    /// parameter, a scene that does not build).
    Failed(String),
}

/// A sweep in the background. Dropping it cancels the sweep (the thread stops within a tick
/// and its result is dropped).
pub struct SweepJob {
    spec: SweepSpec,
    control: Arc<SweepControl>,
    receiver: Receiver<Outcome>,
    /// When it started, for the time left.
    pub started: std::time::Instant,
}

impl SweepJob {
    /// Starts `spec` on `assets` on a new thread with a rayon pool of its own (one worker per
    /// core), so the preview's steps never wait behind the sweep's runs.
    pub fn start(assets: SceneAssets, spec: SweepSpec) -> Result<Self, String> {
        let control = Arc::new(SweepControl::default());
        let (sender, receiver) = mpsc::channel();
        let (thread_spec, thread_control) = (spec.clone(), Arc::clone(&control));
        std::thread::Builder::new()
            .name("steergraph-sweep".to_owned())
            .spawn(move || {
                let outcome = run(&assets, &thread_spec, &thread_control);
                // The window may be gone (it cancelled); nobody is left to tell.
                let _ = sender.send(outcome);
            })
            .map_err(|error| format!("cannot start the sweep's thread: {error}"))?;
        Ok(Self {
            spec,
            control,
            receiver,
            started: std::time::Instant::now(),
        })
    }

    /// What is being swept.
    pub fn spec(&self) -> &SweepSpec {
        &self.spec
    }

    /// The fraction of the sweep's ticks done, 0 to 1.
    pub fn progress(&self) -> f32 {
        self.control.progress(&self.spec)
    }

    /// Asks the sweep to stop; [`SweepJob::poll`] then reports it cancelled.
    pub fn cancel(&self) {
        self.control.cancel();
    }

    /// Whether [`SweepJob::cancel`] was called.
    pub fn is_cancelling(&self) -> bool {
        self.control.cancel.load(Ordering::Relaxed)
    }

    /// The outcome once the thread has finished, without waiting.
    pub fn poll(&self) -> Option<Outcome> {
        match self.receiver.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Outcome::Failed(
                "the sweep's thread stopped without a result".to_owned(),
            )),
        }
    }
}

impl Drop for SweepJob {
    fn drop(&mut self) {
        self.control.cancel();
    }
}

fn run(assets: &SceneAssets, spec: &SweepSpec, control: &SweepControl) -> Outcome {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|index| format!("steergraph-sweep-{index}"))
        .build()
    {
        Ok(pool) => pool,
        Err(error) => return Outcome::Failed(format!("cannot start the sweep's workers: {error}")),
    };
    match pool.install(|| sweep(assets, spec, control)) {
        Ok(result) => Outcome::Done(result),
        Err(SweepError::Cancelled) => Outcome::Cancelled,
        Err(error) => Outcome::Failed(error.to_string()),
    }
}
