//! How long a background job (a sweep, a tuning) has left, from its progress so far: said
//! beside its progress bar, as the command line says its estimate before it starts.

use std::time::{Duration, Instant};

use egui::Ui;

/// Progress below which no time left is said: the first runs are too few to go by.
const FIRST_SHARE: f32 = 0.02;
/// Time before which no time left is said, whatever the progress.
const FIRST_TIME: Duration = Duration::from_secs(1);

/// The time left for a job `elapsed` into it with `progress` (0 to 1) done, at the pace so
/// far: `elapsed × (1 - progress) / progress`. `None` until [`FIRST_SHARE`] is done and
/// [`FIRST_TIME`] has passed, or when the progress is not a number in 0..=1.
pub fn time_left(elapsed: Duration, progress: f32) -> Option<Duration> {
    if !(FIRST_SHARE..=1.0).contains(&progress) || elapsed < FIRST_TIME {
        return None;
    }
    let left = elapsed.as_secs_f64() * f64::from(1.0 - progress) / f64::from(progress);
    Duration::try_from_secs_f64(left).ok()
}

/// "about 3 min left" beside a progress bar of a job started at `started`, once there is
/// something to go by.
pub fn show(ui: &mut Ui, started: Instant, progress: f32) {
    if let Some(left) = time_left(started.elapsed(), progress) {
        ui.weak(format!("about {} left", crate::cli::words(left)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_goes_by_the_pace_so_far() {
        // A quarter done in 10 s: three quarters left at that pace, 30 s.
        let left = time_left(Duration::from_secs(10), 0.25).expect("enough to go by");
        assert!((left.as_secs_f64() - 30.0).abs() < 1e-6, "{left:?}");
        assert_eq!(
            time_left(Duration::from_secs(10), 1.0),
            Some(Duration::ZERO)
        );
        // Too early to say: 1 % done, or under a second in.
        assert_eq!(time_left(Duration::from_secs(10), 0.01), None);
        assert_eq!(time_left(Duration::from_millis(500), 0.5), None);
        assert_eq!(time_left(Duration::from_secs(10), f32::NAN), None);
    }
}
