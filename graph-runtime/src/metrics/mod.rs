//! Measurements of a running simulation: what a designer watches while tuning, and what tests
//! assert about presets.

mod routes;
mod stalled;

pub use routes::RouteArrival;
pub use stalled::{CLOSER_RADII, STALLED_SECONDS, StallProgress};

use std::collections::HashSet;

use glam::Vec2;

use crate::spatial::agent_of;
use crate::{Simulation, SpatialGrid};

/// One measurement of the agents at a tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    /// Simulated time (s).
    pub time: f32,
    /// Mean speed (units / s).
    pub mean_speed: f32,
    /// Smallest centre-to-centre distance between two agents (units), when two are closer
    /// than [`MetricsTracker::SPACING_RANGE`] agent radii; `None` otherwise.
    pub min_spacing: Option<f32>,
    /// Agent pairs that started to overlap (`d < r_a + r_b`) since the previous sample. In a
    /// crowd each agent counts its [`MetricsTracker::CROWD_NEIGHBORS`] nearest only (see
    /// [`MetricsTracker::CROWD_LIMIT`]), so there the overlap counts are lower bounds.
    pub new_agent_overlaps: usize,
    /// Agent–obstacle pairs that started to overlap since the previous sample.
    pub new_obstacle_overlaps: usize,
    /// Agent pairs overlapping now.
    pub agent_overlaps: usize,
    /// Agents overlapping an obstacle now.
    pub obstacle_overlaps: usize,
    /// Steps that crossed a wall since the previous sample ([`Simulation::wall_crossings`]).
    pub new_wall_crossings: u64,
    /// Agents stuck now ([`Simulation::stuck_count`]).
    pub stuck_agents: usize,
    /// Agents with a goal ([`crate::Program::goal`]) more than [`ARRIVAL_RADII`] radii from
    /// it that have come no [`CLOSER_RADII`] radii closer for [`STALLED_SECONDS`], whatever
    /// their graph asks for (`BEHAVIORS.md`, "Stuck agents").
    pub stalled_agents: usize,
    /// Mean distance from each path-following agent to its path (units); `None` when no group
    /// follows a path.
    pub mean_path_distance: Option<f32>,
    /// Polarization: length of the mean heading, 1 when all agents head the same way.
    pub polarization: f32,
    /// The share (0 to 1) of the agents with a goal ([`crate::Program::goal`]) that have come
    /// within [`ARRIVAL_RADII`] radii of it at least once so far; `None` when no agent has
    /// one.
    pub arrived: Option<f32>,
    /// When (s) the share arrived first reached each of [`ARRIVAL_SHARES`]; `None` until it
    /// does.
    pub arrived_at: [Option<f32>; 2],
    /// Agents whose route cannot reach its goal ([`Simulation::unreachable_count`]); `None`
    /// when no group navigates.
    pub unreachable_agents: Option<usize>,
    /// Route efficiency: among the routed agents that reached the end of their first route
    /// (within [`ARRIVAL_RADII`] radii), the mean of the distance walked (through the
    /// positions at each sample, plus what was left to the end) over that route's length (1
    /// walks the shortest route exactly; crowds and detours make it more); `None` until one
    /// has.
    pub route_efficiency: Option<f32>,
}

/// An agent has arrived once it comes within this many of its radii of its goal.
pub const ARRIVAL_RADII: f32 = 2.0;
/// The shares of agents arrived whose time [`Sample::arrived_at`] records: half, and 95 %.
pub const ARRIVAL_SHARES: [f32; 2] = [0.5, 0.95];

/// Takes [`Sample`]s, remembering which pairs overlapped so that it can count new overlaps.
#[derive(Debug, Default)]
pub struct MetricsTracker {
    grid: Option<SpatialGrid>,
    neighbors: Vec<u32>,
    /// A crowded agent's nearest, as the grid's k-d tree answers (keys).
    nearest: Vec<u64>,
    agent_pairs: HashSet<(u32, u32)>,
    obstacle_pairs: HashSet<(u32, u32)>,
    wall_crossings: u64,
    /// Per agent: the time of the first sample that found it at its goal (`f32::INFINITY`:
    /// none yet).
    arrived: Vec<f32>,
    arrived_at: [Option<f32>; 2],
    /// Each routed agent's walk along its first route.
    walks: routes::RouteWalks,
    /// Each agent's progress toward its goal.
    stalls: stalled::Stalls,
    /// The time of the last sample (s).
    time: f32,
    /// The time of the sample before it (`None` before the second sample).
    before: Option<f32>,
    /// Whether it has taken a sample.
    sampled: bool,
}

impl MetricsTracker {
    /// Min spacing is looked for within this many times the largest agent radius.
    pub const SPACING_RANGE: f32 = 8.0;

    /// Where the cells around an agent hold more than this many agents, the agent looks only
    /// at its [`MetricsTracker::CROWD_NEIGHBORS`] nearest (from the grid's k-d tree): a crowd
    /// stacked on one point overlaps in every pair, and listing them cost the preview minutes
    /// and gigabytes per sample at 20,000 agents (issue 28). The smallest spacing stays exact
    /// (an agent's nearest is among them); overlap counts there are lower bounds.
    pub const CROWD_LIMIT: usize = 256;

    /// How many nearest neighbors an agent in a crowd counts overlaps with.
    pub const CROWD_NEIGHBORS: usize = 16;

    /// Measures `simulation` now.
    pub fn observe(&mut self, simulation: &Simulation, time: f32) -> Sample {
        let vehicles = simulation.vehicles();
        let count = vehicles.len().max(1) as f32;
        let mean_speed = vehicles.iter().map(|v| v.velocity.length()).sum::<f32>() / count;
        let heading: Vec2 = vehicles.iter().map(|v| v.forward).sum();
        let polarization = heading.length() / count;

        let max_radius = vehicles.iter().map(|v| v.radius).fold(0.0, f32::max);
        let range = (max_radius * Self::SPACING_RANGE).max(1.0);
        let grid = self.grid.get_or_insert_with(|| SpatialGrid::new(range));
        grid.set_cell_size(range);
        grid.rebuild(vehicles);
        let mut min_spacing: Option<f32> = None;
        let mut agent_pairs = HashSet::new();
        for (index, vehicle) in vehicles.iter().enumerate() {
            let center = vehicle.position;
            if grid.crowded(center, range, Self::CROWD_LIMIT) {
                let nearest = &mut self.nearest;
                grid.nearest(
                    center,
                    range,
                    Self::CROWD_NEIGHBORS,
                    index,
                    |_| true,
                    nearest,
                );
                self.neighbors.clear();
                self.neighbors
                    .extend(nearest.iter().map(|&key| agent_of(key)));
            } else {
                grid.query(vehicles, center, range, index, &mut self.neighbors);
            }
            for &other in &self.neighbors {
                let Some(neighbor) = vehicles.get(other as usize) else {
                    continue;
                };
                let distance = center.distance(neighbor.position);
                min_spacing = Some(min_spacing.map_or(distance, |m| m.min(distance)));
                // Each pair once, whichever of the two found it (in a crowd one may list the
                // other and not the other way round).
                if distance < vehicle.radius + neighbor.radius {
                    let me = index as u32;
                    agent_pairs.insert((me.min(other), me.max(other)));
                }
            }
        }
        let mut obstacle_pairs = HashSet::new();
        for (index, vehicle) in vehicles.iter().enumerate() {
            for (obstacle_index, obstacle) in simulation.world().obstacles.iter().enumerate() {
                if vehicle.position.distance(obstacle.center) < obstacle.radius + vehicle.radius {
                    obstacle_pairs.insert((index as u32, obstacle_index as u32));
                }
            }
        }
        let new_agent_overlaps = agent_pairs.difference(&self.agent_pairs).count();
        let new_obstacle_overlaps = obstacle_pairs.difference(&self.obstacle_pairs).count();
        let (arrived, stalled_agents) = self.arrivals(simulation, time);
        let sample = Sample {
            time,
            mean_speed,
            min_spacing,
            new_agent_overlaps,
            new_obstacle_overlaps,
            agent_overlaps: agent_pairs.len(),
            obstacle_overlaps: obstacle_pairs.len(),
            new_wall_crossings: simulation
                .wall_crossings()
                .saturating_sub(self.wall_crossings),
            stuck_agents: simulation.stuck_count(),
            stalled_agents,
            mean_path_distance: mean_path_distance(simulation),
            polarization,
            arrived,
            arrived_at: [None; 2],
            unreachable_agents: (simulation.groups().iter())
                .any(|group| group.program.navigates())
                .then(|| simulation.unreachable_count()),
            route_efficiency: self.walks.observe(simulation, time),
        };
        if let Some(share) = sample.arrived {
            for (at, wanted) in self.arrived_at.iter_mut().zip(ARRIVAL_SHARES) {
                if at.is_none() && share >= wanted {
                    *at = Some(time);
                }
            }
        }
        let sample = Sample {
            arrived_at: self.arrived_at,
            ..sample
        };
        self.agent_pairs = agent_pairs;
        self.obstacle_pairs = obstacle_pairs;
        self.wall_crossings = simulation.wall_crossings();
        self.before = self.sampled.then_some(self.time);
        self.sampled = true;
        self.time = time;
        sample
    }

    /// How long (s) agent `agent` had come no closer to its goal at the last sample, once that
    /// counts as stalled ([`Sample::stalled_agents`]); `None` otherwise.
    pub fn stalled_for(&self, agent: usize) -> Option<f32> {
        self.stalls.stalled_for(agent, self.time)
    }

    /// The agents stalled at the last sample, ascending.
    pub fn stalled_agents(&self) -> impl Iterator<Item = usize> + '_ {
        self.stalls.stalled(self.time)
    }

    /// The agents stalled at the last sample that were not at the sample before (all those
    /// stalled at a first sample), ascending: the moments a timeline marks.
    pub fn newly_stalled(&self) -> impl Iterator<Item = usize> + '_ {
        let before = self.before;
        self.stalled_agents().filter(move |&agent| {
            before.is_none_or(|time| self.stalls.stalled_for(agent, time).is_none())
        })
    }

    /// The agents stalled at the last sample, ascending, each with its progress toward its
    /// goal (constant while it stays stalled).
    pub fn stalls(&self) -> impl Iterator<Item = (usize, StallProgress)> + '_ {
        (self.stalled_agents()).filter_map(|agent| Some((agent, self.stalls.progress(agent)?)))
    }

    /// Takes over a run part-way, as [`MetricsTracker::resume_arrivals`], for the agents the
    /// run had stalled (or counting toward a stall) at the moment taken over: each counts on
    /// from its progress as the run had it, not from the first sample this tracker saw (which
    /// in a large crowd may be under [`STALLED_SECONDS`] before).
    pub fn resume_stalls(&mut self, stalls: impl IntoIterator<Item = (usize, StallProgress)>) {
        for (agent, progress) in stalls {
            self.stalls.resume(agent, progress);
        }
    }

    /// Per agent, when it arrived at the end of its first route and how far it walked there
    /// against the route's length (`None`: not arrived, or not routed); what
    /// [`Sample::route_efficiency`] averages.
    pub fn route_arrivals(&self) -> &[Option<RouteArrival>] {
        self.walks.arrivals()
    }

    /// Takes over a run part-way, as [`MetricsTracker::resume_arrivals`], for the routed
    /// agents' walks: those that had arrived at the end of their first route (`Some`) count
    /// as the run had them; the walks of the others are summed from the samples this tracker
    /// saw (so a walk under way counts only from the first of them).
    pub fn resume_route_arrivals(
        &mut self,
        arrivals: impl IntoIterator<Item = Option<RouteArrival>>,
    ) {
        self.walks.resume(arrivals);
    }

    /// Per agent, the time of the first sample that found it within [`ARRIVAL_RADII`] radii
    /// of its goal (`f32::INFINITY`: none yet); what [`Sample::arrived`] counts.
    pub fn first_arrivals(&self) -> &[f32] {
        &self.arrived
    }

    /// Takes over a run part-way (the preview's timeline, sent back to a past moment): the
    /// agents' first arrivals as the run had them by then (`f32::INFINITY`: not yet) and when
    /// half and 95 % of them had arrived ([`Sample::arrived_at`]), in place of what this
    /// tracker saw. The next samples count from them, as the run's own tracker would.
    pub fn resume_arrivals(
        &mut self,
        first_arrivals: impl IntoIterator<Item = f32>,
        arrived_at: [Option<f32>; 2],
    ) {
        self.arrived.clear();
        self.arrived.extend(first_arrivals);
        self.arrived_at = arrived_at;
    }
}

impl MetricsTracker {
    /// Marks the agents within [`ARRIVAL_RADII`] radii of their goal and returns the share of
    /// agents with a goal that ever were (`None` when none has a goal), and how many are
    /// stalled at `time` ([`Sample::stalled_agents`]).
    fn arrivals(&mut self, simulation: &Simulation, time: f32) -> (Option<f32>, usize) {
        let vehicles = simulation.vehicles();
        self.arrived.resize(vehicles.len(), f32::INFINITY);
        let (mut with_goal, mut arrived, mut stalled) = (0_usize, 0_usize, 0_usize);
        let nobody = crate::OwnGoals::default();
        for group in simulation.groups() {
            for agent in group.agents.clone() {
                let own = simulation.own(agent).unwrap_or(&nobody);
                let goal = group.program.goal(&group.params, simulation.world(), own);
                if let Some(vehicle) = vehicles.get(agent) {
                    let at = (vehicle.position, vehicle.radius);
                    stalled += usize::from(self.stalls.observe(agent, at, goal, time));
                }
                let (Some(goal), Some(vehicle), Some(first)) =
                    (goal, vehicles.get(agent), self.arrived.get_mut(agent))
                else {
                    continue;
                };
                with_goal += 1;
                if *first == f32::INFINITY
                    && vehicle.position.distance(goal) <= ARRIVAL_RADII * vehicle.radius
                {
                    *first = time;
                }
                arrived += usize::from(first.is_finite());
            }
        }
        let share = (with_goal > 0).then(|| arrived as f32 / with_goal as f32);
        (share, stalled)
    }
}

fn mean_path_distance(simulation: &Simulation) -> Option<f32> {
    let mut total = 0.0;
    let mut count = 0usize;
    for group in simulation.groups() {
        let Some(path) = group
            .program
            .path_names()
            .first()
            .and_then(|name| simulation.world().path(name))
        else {
            continue;
        };
        for vehicle in simulation
            .vehicles()
            .get(group.agents.clone())
            .unwrap_or(&[])
        {
            if let Some(projection) = path.project(vehicle.position) {
                total += vehicle.position.distance(projection.point);
                count += 1;
            }
        }
    }
    (count > 0).then(|| total / count as f32)
}
