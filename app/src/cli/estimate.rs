//! How long a sweep or a tuning will take, said before it starts: a short trial of the scene
//! on one thread, times the runs and ticks asked for, over the worker threads. Above
//! [`LONGEST`] the command is refused unless `--long` asks for it (`FORMAT.md`, "The command
//! line refuses what it cannot finish").

use std::time::{Duration, Instant};

use graph_runtime::{SceneAssets, Simulation};

/// The longest a sweep or a tuning starts without `--long`: half an hour.
pub const LONGEST: Duration = Duration::from_secs(30 * 60);

/// Ticks of the trial, at most; it stops sooner once it has taken [`TRIAL_TIME`].
const TRIAL_TICKS: u32 = 30;
/// How long the trial may take, at most (past its first tick).
const TRIAL_TIME: Duration = Duration::from_millis(500);

/// The work a command asks for.
#[derive(Clone, Copy, Debug)]
pub struct Work {
    /// Whole simulation runs.
    pub runs: u64,
    /// Ticks of each run.
    pub ticks: u64,
    /// Worker threads the runs share.
    pub threads: usize,
}

/// The time `work` takes by a trial of `assets` (its first ticks of `dt`, on one thread):
/// each run as long as the trial's ticks, the runs spread over the threads. An estimate: a
/// crowd that spreads out or bunches up later takes less or more.
pub fn estimate(assets: &SceneAssets, dt: f32, work: Work) -> Result<Duration, Vec<String>> {
    let mut simulation = Simulation::new(assets)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let tick = super::with_threads(Some(1), || {
        let started = Instant::now();
        let mut ticks = 0;
        while ticks < TRIAL_TICKS && (ticks == 0 || started.elapsed() < TRIAL_TIME) {
            simulation.step(dt);
            ticks += 1;
        }
        started.elapsed() / ticks
    })?;
    let parallel = (work.threads as u64).clamp(1, work.runs.max(1));
    let ticks = work.runs as f64 * work.ticks as f64 / parallel as f64;
    Ok(tick.mul_f64(ticks.min(1e12)))
}

/// Says on stderr what `what` will take (`took` for `work`), and refuses it when that is more
/// than [`LONGEST`] and `long` is false.
pub fn announce(what: &str, work: Work, took: Duration, long: bool) -> Result<(), Vec<String>> {
    eprintln!(
        "{what}: {} runs × {} ticks on {} thread{}; about {} (from a trial of the scene)",
        work.runs,
        work.ticks,
        work.threads,
        if work.threads == 1 { "" } else { "s" },
        words(took)
    );
    if took > LONGEST && !long {
        return Err(vec![format!(
            "{what} would take about {} by a trial of the scene, more than {}: pass --long to run it anyway, or ask for fewer runs or seconds",
            words(took),
            words(LONGEST)
        )]);
    }
    Ok(())
}

/// A duration in words a person reads at a glance: `0.4 s`, `12 s`, `25 min`, `3.5 h` (the
/// command line's estimates, the editor's time left).
pub fn words(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 10.0 {
        format!("{seconds:.1} s")
    } else if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 2.0 * 3600.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::{LONGEST, Work, announce};

    /// Over half an hour is refused unless `--long` asks for it; the message says how long
    /// and what to do.
    #[test]
    fn a_long_estimate_is_refused_unless_asked_for() {
        let work = Work {
            runs: 300,
            ticks: 216_000,
            threads: 2,
        };
        let hours = std::time::Duration::from_secs(3 * 3600);
        let refused = announce("tune", work, hours, false).expect_err("refused");
        assert_eq!(
            refused,
            vec![
                "tune would take about 3.0 h by a trial of the scene, more than 30 min: pass --long to run it anyway, or ask for fewer runs or seconds"
                    .to_owned()
            ]
        );
        assert_eq!(announce("tune", work, hours, true), Ok(()));
        assert_eq!(announce("tune", work, LONGEST, false), Ok(()));
    }

    #[test]
    fn durations_read_at_a_glance() {
        use std::time::Duration;
        let words = |seconds: f64| super::words(Duration::from_secs_f64(seconds));
        assert_eq!(words(0.42), "0.4 s");
        assert_eq!(words(12.4), "12 s");
        assert_eq!(words(1_500.0), "25 min");
        assert_eq!(words(12_600.0), "3.5 h");
        assert_eq!(super::words(super::LONGEST), "30 min");
    }
}
