//! The run's metrics along the timeline (issue 45): every sample of the run (the plots show
//! the [`METRICS_SECONDS`] up to the tick shown, so going back and on again shows them as
//! they were), each agent's first arrival and routed walk's end, and each stall (an agent's
//! progress while it was stalled), so that the tracker made for a past tick counts arrivals,
//! walks and stalls as the run had them then. A fork drops what came after its tick; the run
//! it left keeps that, and **Original run** puts it back.

use graph_runtime::{MetricsTracker, RouteArrival, Sample, StallProgress};

use super::{Event, Host, METRICS_SECONDS};

/// The most samples kept (an hour of the run at ten a second); past it the oldest go.
pub const MAX_SAMPLES: usize = 36_000;

/// The most stalls kept that have ended (as many as the events a run keeps); past it the
/// oldest go, and going back before them counts those agents' stalls from the seconds seen
/// again.
pub const MAX_ENDED_STALLS: usize = super::events::MAX_EVENTS;

/// What a run had after a tick: its samples and events, and its agents' first arrivals and
/// routed walks' ends.
#[derive(Clone, Debug, Default)]
pub(super) struct Later {
    samples: Vec<Sample>,
    events: Vec<Event>,
    arrivals: Vec<f32>,
    route_arrivals: Vec<Option<RouteArrival>>,
    stalls: Vec<(usize, StallProgress, Option<f32>)>,
}

/// Within this of a sample's time, the sample belongs to the tick shown (ticks of 1/60 s
/// summed in `f32`).
const SAME_TIME: f32 = 1e-4;

impl Host {
    /// Keeps `sample`, taken at the tick just stepped, and the first arrivals its tracker saw.
    pub(super) fn push_sample(&mut self, sample: Sample) {
        self.samples.push_back(sample);
        while self.samples.len() > MAX_SAMPLES {
            self.samples.pop_front();
        }
        let seen = self.metrics.first_arrivals();
        if self.arrivals.len() < seen.len() {
            self.arrivals.resize(seen.len(), f32::INFINITY);
        }
        for (first, &at) in self.arrivals.iter_mut().zip(seen) {
            *first = first.min(at);
        }
        let seen = self.metrics.route_arrivals();
        if self.route_arrivals.len() < seen.len() {
            self.route_arrivals.resize(seen.len(), None);
        }
        for (kept, &arrival) in self.route_arrivals.iter_mut().zip(seen) {
            if kept.is_none() {
                *kept = arrival;
            }
        }
        self.note_stalls(sample.time);
    }

    /// Notes the stalls that ended at the sample at `time` and those that began.
    fn note_stalls(&mut self, time: f32) {
        let (open, stalls, metrics) = (&mut self.open_stalls, &mut self.stalls, &self.metrics);
        open.retain(|&agent, &mut at| {
            let still = metrics.stalled_for(agent).is_some();
            if !still && let Some(stall) = stalls.get_mut(at) {
                stall.2 = Some(time);
            }
            still
        });
        for (agent, progress) in metrics.stalls() {
            open.entry(agent).or_insert_with(|| {
                stalls.push((agent, progress, None));
                stalls.len() - 1
            });
        }
        // Past the bound by a tenth, the oldest ended stalls go (those under way stay).
        let ended = self.stalls.len() - self.open_stalls.len();
        if ended > MAX_ENDED_STALLS + MAX_ENDED_STALLS / 10 {
            let mut over = ended - MAX_ENDED_STALLS;
            self.stalls.retain(|stall| {
                let drop = over > 0 && stall.2.is_some();
                over -= usize::from(drop);
                !drop
            });
            self.reopen_stalls();
        }
    }

    /// The stalls under way, from the list of all of them.
    fn reopen_stalls(&mut self) {
        self.open_stalls = (self.stalls.iter().enumerate())
            .filter(|(_, stall)| stall.2.is_none())
            .map(|(at, stall)| (stall.0, at))
            .collect();
    }

    /// Each routed agent's arrival at the end of its first route in the run so far (`None`:
    /// not yet), with how far it walked there.
    pub fn route_arrivals(&self) -> &[Option<RouteArrival>] {
        &self.route_arrivals
    }

    /// The samples the plots show at the tick shown: those of the last `METRICS_SECONDS` (30 s)
    /// up to it, oldest first.
    pub fn shown_samples(&self) -> impl Iterator<Item = &Sample> + Clone {
        let now = self.time;
        let end = self
            .samples
            .partition_point(|sample| sample.time <= now + SAME_TIME);
        let start = self
            .samples
            .partition_point(|sample| sample.time < now - METRICS_SECONDS);
        self.samples.range(start.min(end)..end)
    }

    /// Makes `tracker` (one that has just seen the ticks before the tick shown again) count
    /// the arrivals and the routed walks that had ended as the run had them at the tick shown
    /// (a walk under way then counts from the first tick the tracker saw).
    pub(super) fn resume_arrivals(&self, tracker: &mut MetricsTracker) {
        let now = self.time + SAME_TIME;
        let arrived_at = (self.shown_samples().last()).map_or([None; 2], |s| s.arrived_at);
        let firsts = (self.arrivals.iter()).map(|&at| if at <= now { at } else { f32::INFINITY });
        tracker.resume_arrivals(firsts, arrived_at);
        let ended = (self.route_arrivals.iter()).map(|a| a.filter(|arrival| arrival.time <= now));
        tracker.resume_route_arrivals(ended);
        // The agents counting toward a stall the run went on to have, or stalled then, count
        // on from the run's progress (in order, so a later stall of an agent wins).
        let under_way = (self.stalls.iter())
            .filter(|(_, progress, until)| progress.since <= now && until.is_none_or(|u| u > now))
            .map(|&(agent, progress, _)| (agent, progress));
        tracker.resume_stalls(under_way);
    }

    /// Drops what the run had after tick `tick` (a fork replaces it), and returns it.
    pub(super) fn cut_history(&mut self, tick: u64) -> Later {
        let time = tick as f32 * self.tick_length + SAME_TIME;
        let kept = self.samples.partition_point(|sample| sample.time <= time);
        let samples = self.samples.drain(kept..).collect();
        let kept = self.events.partition_point(|event| event.tick <= tick);
        let events = self.events.drain(kept..).collect();
        let arrivals = self.arrivals.clone();
        for first in &mut self.arrivals {
            if *first > time {
                *first = f32::INFINITY;
            }
        }
        let route_arrivals = self.route_arrivals.clone();
        for ended in &mut self.route_arrivals {
            if ended.is_some_and(|arrival| arrival.time > time) {
                *ended = None;
            }
        }
        // Stalls counted from after the tick go; those under way then are under way again.
        let stalls = self.stalls.clone();
        self.stalls
            .retain(|(_, progress, _)| progress.since <= time);
        for stall in &mut self.stalls {
            if stall.2.is_some_and(|until| until > time) {
                stall.2 = None;
            }
        }
        self.reopen_stalls();
        Later {
            samples,
            events,
            arrivals,
            route_arrivals,
            stalls,
        }
    }

    /// Puts back what a run had after tick `tick`, in place of what a fork from there had.
    pub(super) fn restore_history(&mut self, tick: u64, later: Later) {
        self.cut_history(tick);
        self.samples.extend(later.samples);
        self.events.extend(later.events);
        self.arrivals = later.arrivals;
        self.route_arrivals = later.route_arrivals;
        self.stalls = later.stalls;
        self.reopen_stalls();
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec2;
    use graph_runtime::StallProgress;

    use super::{Host, MAX_ENDED_STALLS};

    /// A stall of agent `agent` from `since`, ended at `since + 6`.
    fn ended(agent: usize, since: f32) -> (usize, StallProgress, Option<f32>) {
        let progress = StallProgress {
            goal: Vec2::ZERO,
            nearest: 10.0,
            since,
        };
        (agent, progress, Some(since + 6.0))
    }

    #[test]
    fn past_the_bound_the_oldest_ended_stalls_go() {
        let mut host = Host::default();
        // A tenth over the bound: kept as they are.
        let within = MAX_ENDED_STALLS + MAX_ENDED_STALLS / 10;
        host.stalls = (0..within).map(|i| ended(i % 7, i as f32)).collect();
        host.note_stalls(1e6);
        assert_eq!(host.stalls.len(), within);
        // One more: down to the bound, the oldest gone.
        host.stalls.push(ended(3, within as f32));
        host.note_stalls(1e6);
        assert_eq!(host.stalls.len(), MAX_ENDED_STALLS);
        let first = host.stalls.first().map(|stall| stall.1.since);
        assert_eq!(first, Some((within + 1 - MAX_ENDED_STALLS) as f32));
        assert!(host.open_stalls.is_empty());
    }
}
