//! Route efficiency: how far each routed agent walked to the end of its first route, against
//! that route's length (the shortest walk the navigation mesh found from where it stood).

use glam::Vec2;

use super::ARRIVAL_RADII;
use crate::Simulation;
use crate::navigation::Reach;

/// One routed agent's walk.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Walk {
    /// No route reaching its goal yet.
    #[default]
    Unplanned,
    /// Walking its first route, `shortest` long, to `end`: `walked` so far, last seen at `at`.
    Walking {
        shortest: f32,
        end: Vec2,
        walked: f32,
        at: Vec2,
    },
    /// Arrived: walked this many times the route's length (`None` for a route of no length).
    Arrived(Option<f32>),
}

/// How a routed agent arrived at the end of its first route: when (the sample's time, s) and
/// how far it walked, as a multiple of the route's length (`None` for a route of no length).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RouteArrival {
    /// The time of the sample that found it arrived.
    pub time: f32,
    /// Walked over shortest.
    pub ratio: Option<f32>,
}

/// Follows each agent's walk along the first route it was planned (its first Navigate node's)
/// that reaches its goal, sample by sample.
#[derive(Clone, Debug, Default)]
pub(super) struct RouteWalks {
    walks: Vec<Walk>,
    /// When each agent arrived (`None`: not yet), beside its walk.
    arrivals: Vec<Option<RouteArrival>>,
}

impl RouteWalks {
    /// Follows the agents of `simulation` one more sample and returns the mean of walked over
    /// shortest among the agents that have arrived (within [`ARRIVAL_RADII`] radii of their
    /// route's end, the distance left counted as walked); `None` when none has. The walk is summed from the positions at each
    /// sample, so it is the length of the polyline through them (a little under the true walk
    /// between samples that turn).
    pub(super) fn observe(&mut self, simulation: &Simulation, time: f32) -> Option<f32> {
        let vehicles = simulation.vehicles();
        self.walks.resize(vehicles.len(), Walk::Unplanned);
        self.arrivals.resize(vehicles.len(), None);
        let (mut sum, mut arrived) = (0.0_f64, 0_u32);
        for (agent, (walk, vehicle)) in self.walks.iter_mut().zip(vehicles).enumerate() {
            let p = vehicle.position;
            *walk = match *walk {
                Walk::Unplanned => match simulation
                    .routes(agent)
                    .first()
                    .map(crate::RouteSlot::route)
                {
                    Some(route) if route.reach == Some(Reach::Goal) && !route.points.is_empty() => {
                        Walk::Walking {
                            shortest: route.length(),
                            end: route.points[route.points.len() - 1],
                            walked: route.points[0].distance(p),
                            at: p,
                        }
                    }
                    _ => Walk::Unplanned,
                },
                Walk::Walking {
                    shortest,
                    end,
                    walked,
                    at,
                } => {
                    let walked = walked + at.distance(p);
                    let left = p.distance(end);
                    if left <= ARRIVAL_RADII * vehicle.radius {
                        // What is left to the end counts as walked: arrived within two radii,
                        // an agent that walked the route exactly scores 1.
                        let ratio = (walked + left) / shortest;
                        let ratio = (shortest > 0.0 && ratio.is_finite()).then_some(ratio);
                        if let Some(arrival) = self.arrivals.get_mut(agent) {
                            *arrival = Some(RouteArrival { time, ratio });
                        }
                        Walk::Arrived(ratio)
                    } else {
                        Walk::Walking {
                            shortest,
                            end,
                            walked,
                            at: p,
                        }
                    }
                }
                done @ Walk::Arrived(_) => done,
            };
            if let Walk::Arrived(Some(ratio)) = *walk {
                sum += f64::from(ratio);
                arrived += 1;
            }
        }
        (arrived > 0).then(|| (sum / f64::from(arrived)) as f32)
    }

    /// Each agent's arrival at the end of its first route (`None`: not arrived).
    pub(super) fn arrivals(&self) -> &[Option<RouteArrival>] {
        &self.arrivals
    }

    /// Takes the arrivals a run had (`Some` for each agent that had arrived) in place of what
    /// this follower saw of those agents; the others' walks go on as it follows them.
    pub(super) fn resume(&mut self, arrivals: impl IntoIterator<Item = Option<RouteArrival>>) {
        for (agent, arrival) in arrivals.into_iter().enumerate() {
            let Some(arrival) = arrival else {
                continue;
            };
            if agent >= self.walks.len() {
                self.walks.resize(agent + 1, Walk::Unplanned);
                self.arrivals.resize(agent + 1, None);
            }
            self.walks[agent] = Walk::Arrived(arrival.ratio);
            self.arrivals[agent] = Some(arrival);
        }
    }
}
