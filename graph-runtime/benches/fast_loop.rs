//! The fastest honest hand-written flocking loop we could write, the baseline the compiled
//! graph is measured against (issue 15), and the two workloads it runs.
//!
//! The loop keeps every agent's state in a structure of arrays that is re-sorted by grid cell
//! at the start of every tick (a counting sort; agents move little between ticks, so the
//! permutation is nearly the identity). A 3 × 3 block of cells is then three contiguous runs of
//! the arrays. For the full-circle Flock each agent makes one branch-free pass over them; with
//! the Boids' field of view it first keeps the agents within the radius (a distance test each,
//! without a branch) and tests the view on those only, which was 3 % faster (10 % with the
//! one-pass loop and the cell runs as methods of their own, as now). It calls the
//! runtime's formulas (`NeighborSums`, `in_neighborhood`, `wander`, `obstacle_avoidance`,
//! `containment`, `Vehicle::step`), so it computes the same behavior; only its summation order
//! differs (its cells have their own corner, and a cell's agents follow last tick's order, not
//! agent index), so its motion matches the graph's to rounding, not bit for bit
//! (`tests/fast_loop.rs` checks how close).

use glam::Vec2;
use graph_runtime::behaviors::{self, FieldOfView, NeighborLanes, NeighborSums};
use graph_runtime::{
    AgentGroup, AgentRng, Area, Graph, Link, Node, Obstacle, Rect, Scene, SceneAssets, Simulation,
    Spawn, Turning, Vehicle, VehicleParams, WeightedInput,
};
use rayon::prelude::*;

/// Which behavior a run computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Workload {
    /// Issue 15's workload: `Blend[Separation, Cohesion, Alignment, Wander]`, radius 5, FOV
    /// 360, one agent per 25 square units, max speed 1.5.
    Flock,
    /// The boids benchmark (`boids_fixture.rs`): `Priority[ObstacleAvoidance, Containment,
    /// Blend[4 × Flocking(radius 4, FOV 270), 0.5 × Wander]]` among 16 obstacles, one agent
    /// per 16 square units, max speed 6.
    Boids,
}

/// Flock: weights of separation, cohesion, alignment and wander in the blend.
pub(crate) const FLOCK_WEIGHTS: [f32; 4] = [1.5, 1.0, 1.0, 0.5];
/// Flock: neighborhood radius (units); FOV is 360.
pub(crate) const FLOCK_RADIUS: f32 = 5.0;
/// Flock: square units per agent.
pub(crate) const FLOCK_AREA_PER_AGENT: f32 = 25.0;
/// Flock: wander distance, radius (units) and jitter (degrees / s).
pub(crate) const FLOCK_WANDER: (f32, f32, f32) = (2.0, 1.0, 90.0);
/// Flock: vehicle limits.
pub(crate) const FLOCK_VEHICLE: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 3.0,
    max_speed: 1.5,
    radius: 0.5,
};

/// Boids: the constants of `boids_fixture.rs`, repeated here so this file stands alone.
mod boids {
    pub(crate) const RADIUS: f32 = 4.0;
    pub(crate) const FOV: f32 = 270.0;
    pub(crate) const FLOCK: (f32, f32, f32) = (2.0, 1.0, 1.0);
    pub(crate) const BLEND: (f32, f32) = (4.0, 0.5);
    pub(crate) const WANDER: (f32, f32, f32) = (3.0, 1.0, 90.0);
    pub(crate) const AVOIDANCE: (f32, f32) = (2.0, 1.0);
    pub(crate) const CONTAINMENT: (f32, f32) = (1.0, 5.0);
    pub(crate) const EPSILON: f32 = 1e-3;
    pub(crate) const AREA_PER_AGENT: f32 = 16.0;
}

/// Tick length (s).
pub(crate) const DT: f32 = 1.0 / 60.0;
/// Scene seed.
pub(crate) const SEED: u64 = 42;

impl Workload {
    fn radius(self) -> f32 {
        match self {
            Self::Flock => FLOCK_RADIUS,
            Self::Boids => boids::RADIUS,
        }
    }

    pub(crate) fn vehicle(self) -> VehicleParams {
        match self {
            Self::Flock => FLOCK_VEHICLE,
            Self::Boids => VehicleParams {
                mass: 1.0,
                max_force: 12.0,
                max_speed: 6.0,
                radius: 0.5,
            },
        }
    }

    fn area_per_agent(self) -> f32 {
        match self {
            Self::Flock => FLOCK_AREA_PER_AGENT,
            Self::Boids => boids::AREA_PER_AGENT,
        }
    }

    fn wander(self) -> (f32, f32, f32) {
        match self {
            Self::Flock => FLOCK_WANDER,
            Self::Boids => boids::WANDER,
        }
    }

    /// The world bounds for `agents` at the workload's density, and its obstacles.
    pub(crate) fn world(self, agents: usize) -> (Rect, Vec<Obstacle>) {
        let half = (agents as f32 * self.area_per_agent()).sqrt() * 0.5;
        let mut obstacles = Vec::new();
        if self == Self::Boids {
            for i in 0..4 {
                for j in 0..4 {
                    let at = Vec2::new(i as f32 + 0.5, j as f32 + 0.5) / 4.0 * 2.0 * half - half;
                    obstacles.push(Obstacle {
                        center: at,
                        radius: half * 0.04 + 1.0,
                    });
                }
            }
        }
        (Rect::new(Vec2::splat(-half), Vec2::splat(half)), obstacles)
    }

    /// The workload as a graph.
    pub(crate) fn graph(self) -> Graph {
        let n = |v: f32| v.into();
        let mut graph = Graph::default();
        let (distance, radius, jitter) = self.wander();
        let wander = graph.add(Node::Wander {
            distance: n(distance),
            radius: n(radius),
            jitter: n(jitter),
            face: false,
        });
        let weighted = |node, weight: f32| WeightedInput {
            node: Link(Some(node)),
            weight: n(weight),
        };
        let root = match self {
            Self::Flock => {
                let radius = n(FLOCK_RADIUS);
                let fov = n(360.0);
                let separation = graph.add(Node::Separation {
                    radius: radius.clone(),
                    fov: fov.clone(),
                    max_neighbors: 64.0.into(),
                });
                let cohesion = graph.add(Node::Cohesion {
                    radius: radius.clone(),
                    fov: fov.clone(),
                    max_neighbors: 64.0.into(),
                });
                let alignment = graph.add(Node::Alignment {
                    radius,
                    fov,
                    max_neighbors: 64.0.into(),
                });
                let [ws, wc, wa, ww] = FLOCK_WEIGHTS;
                graph.add(Node::Blend {
                    inputs: vec![
                        weighted(separation, ws),
                        weighted(cohesion, wc),
                        weighted(alignment, wa),
                        weighted(wander, ww),
                    ],
                })
            }
            Self::Boids => {
                let avoid = graph.add(Node::ObstacleAvoidance {
                    min_length: n(boids::AVOIDANCE.0),
                    lookahead_time: n(boids::AVOIDANCE.1),
                });
                let contain = graph.add(Node::Containment {
                    bounds: graph_runtime::Region::World,
                    prediction_time: n(boids::CONTAINMENT.0),
                    margin: n(boids::CONTAINMENT.1),
                });
                let flock = graph.add(Node::Flocking {
                    separation_weight: n(boids::FLOCK.0),
                    cohesion_weight: n(boids::FLOCK.1),
                    alignment_weight: n(boids::FLOCK.2),
                    radius: n(boids::RADIUS),
                    fov: n(boids::FOV),
                    max_neighbors: 64.0.into(),
                });
                let blend = graph.add(Node::Blend {
                    inputs: vec![
                        weighted(flock, boids::BLEND.0),
                        weighted(wander, boids::BLEND.1),
                    ],
                });
                graph.add(Node::Priority {
                    inputs: vec![Link(Some(avoid)), Link(Some(contain)), Link(Some(blend))],
                    epsilon: n(boids::EPSILON),
                })
            }
        };
        graph.add(Node::Output {
            input: Link(Some(root)),
        });
        graph
    }

    /// A scene of `agents` spread over the world, heading every way at half speed.
    pub(crate) fn simulation(self, agents: usize) -> Simulation {
        self.simulation_of(self.graph(), agents)
    }

    /// The same scene with every agent running `graph` instead of the workload's own (the
    /// facing bench's variants of the Flock graph).
    pub(crate) fn simulation_of(self, graph: Graph, agents: usize) -> Simulation {
        let (bounds, obstacles) = self.world(agents);
        let scene = Scene {
            bounds,
            seed: SEED,
            obstacles,
            groups: vec![AgentGroup {
                vehicle: Some(self.vehicle()),
                ..AgentGroup::new(
                    "flock",
                    "flock.graph.ron",
                    Spawn::Random {
                        count: agents as u32,
                        area: Area::Rect {
                            min: bounds.min,
                            max: bounds.max,
                        },
                        speed: self.vehicle().max_speed * 0.5,
                    },
                )
            }],
            ..Scene::default()
        };
        let assets = SceneAssets {
            scene,
            origin: "bench".to_owned(),
            graphs: [("flock.graph.ron".to_owned(), graph)].into(),
            flow_fields: std::collections::BTreeMap::default(),
        };
        Simulation::new(&assets).expect("the workload's scene builds")
    }
}

/// The hand-written loop's state, in cell order: slot `s` holds agent `agent[s]`.
pub(crate) struct FastFlock {
    workload: Workload,
    bounds: Rect,
    obstacles: Vec<Obstacle>,
    position: Vec<Vec2>,
    velocity: Vec<Vec2>,
    forward: Vec<Vec2>,
    theta: Vec<f32>,
    rng: Vec<AgentRng>,
    agent: Vec<u32>,
    force: Vec<Vec2>,
    /// Per slot, its cell at the last sort.
    cell: Vec<u32>,
    /// Per cell, its first slot; one more entry than cells.
    cell_start: Vec<u32>,
    cursor: Vec<u32>,
    columns: usize,
    rows: usize,
    origin: Vec2,
    /// The re-sort's target arrays, swapped in after it.
    spare: Spare,
}

#[derive(Default)]
struct Spare {
    position: Vec<Vec2>,
    velocity: Vec<Vec2>,
    forward: Vec<Vec2>,
    theta: Vec<f32>,
    rng: Vec<AgentRng>,
    agent: Vec<u32>,
}

impl FastFlock {
    /// The loop's copy of `simulation`'s agents (which must run `workload`), with the same
    /// random streams and wander angles (zero) the graph starts from.
    pub(crate) fn new(workload: Workload, simulation: &Simulation) -> Self {
        let vehicles = simulation.vehicles();
        let (bounds, obstacles) = workload.world(vehicles.len());
        Self {
            workload,
            bounds,
            obstacles,
            position: vehicles.iter().map(|v| v.position).collect(),
            velocity: vehicles.iter().map(|v| v.velocity).collect(),
            forward: vehicles.iter().map(|v| v.forward).collect(),
            theta: vec![0.0; vehicles.len()],
            rng: (0..vehicles.len())
                .map(|i| AgentRng::new(simulation.seed(), i as u64))
                .collect(),
            agent: (0..vehicles.len() as u32).collect(),
            force: vec![Vec2::ZERO; vehicles.len()],
            cell: Vec::new(),
            cell_start: Vec::new(),
            cursor: Vec::new(),
            columns: 0,
            rows: 0,
            origin: Vec2::ZERO,
            spare: Spare::default(),
        }
    }

    /// Positions by agent index.
    pub(crate) fn positions(&self) -> Vec<Vec2> {
        let mut out = vec![Vec2::ZERO; self.position.len()];
        for (&agent, &position) in self.agent.iter().zip(&self.position) {
            out[agent as usize] = position;
        }
        out
    }

    /// One tick on the current rayon pool: re-sort, steer every agent, integrate.
    pub(crate) fn tick(&mut self) {
        self.sort();
        self.steer();
        let params = self.workload.vehicle();
        self.position
            .par_iter_mut()
            .zip(self.velocity.par_iter_mut())
            .zip(self.forward.par_iter_mut())
            .zip(self.force.par_iter())
            .with_min_len(1024)
            .for_each(|(((position, velocity), forward), &force)| {
                let mut vehicle = vehicle(params, *position, *velocity, *forward);
                vehicle.step(force, DT);
                *position = vehicle.position;
                *velocity = vehicle.velocity;
                *forward = vehicle.forward;
            });
    }

    /// Counting sort of every agent's state by grid cell (cells as wide as the radius).
    fn sort(&mut self) {
        let cell_size = self.workload.radius();
        let (mut min, mut max) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for &p in &self.position {
            min = min.min(p);
            max = max.max(p);
        }
        let extent = (max - min).max(Vec2::ZERO);
        self.origin = min;
        self.columns = (extent.x / cell_size) as usize + 1;
        self.rows = (extent.y / cell_size) as usize + 1;
        let (origin, columns) = (self.origin, self.columns);
        self.cell.clear();
        self.cell.extend(self.position.iter().map(|&p| {
            let c = ((p - origin) / cell_size).as_uvec2();
            c.y * columns as u32 + c.x
        }));
        self.cell_start.clear();
        self.cell_start.resize(self.columns * self.rows + 1, 0);
        for &cell in &self.cell {
            self.cell_start[cell as usize + 1] += 1;
        }
        // The running total in a register, as the grid's rebuild keeps it.
        let mut total = 0;
        for start in &mut self.cell_start {
            total += *start;
            *start = total;
        }
        self.cursor.clone_from(&self.cell_start);
        let n = self.position.len();
        let spare = &mut self.spare;
        spare.position.resize(n, Vec2::ZERO);
        spare.velocity.resize(n, Vec2::ZERO);
        spare.forward.resize(n, Vec2::ZERO);
        spare.theta.resize(n, 0.0);
        spare.rng.resize(n, AgentRng::new(0, 0));
        spare.agent.resize(n, 0);
        for (from, &cell) in self.cell.iter().enumerate() {
            let to = self.cursor[cell as usize] as usize;
            self.cursor[cell as usize] += 1;
            spare.position[to] = self.position[from];
            spare.velocity[to] = self.velocity[from];
            spare.forward[to] = self.forward[from];
            spare.theta[to] = self.theta[from];
            spare.rng[to] = self.rng[from].clone();
            spare.agent[to] = self.agent[from];
        }
        std::mem::swap(&mut self.position, &mut spare.position);
        std::mem::swap(&mut self.velocity, &mut spare.velocity);
        std::mem::swap(&mut self.forward, &mut spare.forward);
        std::mem::swap(&mut self.theta, &mut spare.theta);
        std::mem::swap(&mut self.rng, &mut spare.rng);
        std::mem::swap(&mut self.agent, &mut spare.agent);
    }

    /// Every agent's steering force, from the sorted arrays, in parallel chunks of slots.
    fn steer(&mut self) {
        let view = SortedView {
            workload: self.workload,
            position: &self.position,
            velocity: &self.velocity,
            forward: &self.forward,
            agent: &self.agent,
            cell_start: &self.cell_start,
            columns: self.columns,
            rows: self.rows,
            origin: self.origin,
            bounds: &self.bounds,
            obstacles: &self.obstacles,
        };
        self.force
            .par_chunks_mut(CHUNK)
            .zip(self.theta.par_chunks_mut(CHUNK))
            .zip(self.rng.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(chunk, ((forces, thetas), rngs))| {
                let slots = forces.iter_mut().zip(thetas).zip(rngs).enumerate();
                for (offset, ((force, theta), rng)) in slots {
                    *force = view.force(chunk * CHUNK + offset, theta, rng);
                }
            });
    }
}

/// The vehicle of one agent of the arrays (its heading kept as it is, not recomputed).
#[inline]
fn vehicle(params: VehicleParams, position: Vec2, velocity: Vec2, forward: Vec2) -> Vehicle {
    Vehicle {
        position,
        velocity,
        forward,
        mass: params.mass,
        max_force: params.max_force,
        max_speed: params.max_speed,
        radius: params.radius,
        orientation: 0.0,
        angular_velocity: 0.0,
        turning: Turning::DEFAULT,
    }
}

/// Room for the agents within the radius of one agent (Boids: about 3 on average).
const NEAR_MAX: usize = 64;

/// Slots per parallel chunk of the hand-written loop.
const CHUNK: usize = 1024;

/// What one agent's steering reads: the sorted arrays and the workload.
struct SortedView<'a> {
    workload: Workload,
    position: &'a [Vec2],
    velocity: &'a [Vec2],
    forward: &'a [Vec2],
    agent: &'a [u32],
    cell_start: &'a [u32],
    columns: usize,
    rows: usize,
    origin: Vec2,
    bounds: &'a Rect,
    obstacles: &'a [Obstacle],
}

impl SortedView<'_> {
    /// The steering force of the agent in `slot`; advances its wander angle and RNG.
    #[inline]
    fn force(&self, slot: usize, theta: &mut f32, rng: &mut AgentRng) -> Vec2 {
        let params = self.workload.vehicle();
        let me = vehicle(
            params,
            self.position[slot],
            self.velocity[slot],
            self.forward[slot],
        );
        if self.workload == Workload::Boids {
            let avoid = behaviors::obstacle_avoidance(
                &me,
                self.obstacles,
                boids::AVOIDANCE.0,
                boids::AVOIDANCE.1,
            );
            if avoid.length() > boids::EPSILON {
                return avoid;
            }
            let contain = behaviors::containment(
                &me,
                self.bounds,
                boids::CONTAINMENT.0,
                boids::CONTAINMENT.1,
            );
            if contain.length() > boids::EPSILON {
                return contain;
            }
        }
        let sums = self.neighbor_sums(&me, slot);
        let (wander_distance, wander_radius, jitter) = self.workload.wander();
        *theta += behaviors::wander_turn(rng, jitter.to_radians(), DT);
        let wander = behaviors::wander(&me, *theta, wander_distance, wander_radius);
        match self.workload {
            Workload::Flock => {
                let [ws, wc, wa, ww] = FLOCK_WEIGHTS;
                Vec2::ZERO
                    + ws * sums.separation()
                    + wc * sums.cohesion(&me)
                    + wa * sums.alignment(&me)
                    + ww * wander
            }
            Workload::Boids => {
                let flock = sums.flocking(&me, boids::FLOCK.0, boids::FLOCK.1, boids::FLOCK.2);
                let blended = Vec2::ZERO + boids::BLEND.0 * flock + boids::BLEND.1 * wander;
                if blended.length() > boids::EPSILON {
                    blended
                } else {
                    Vec2::ZERO
                }
            }
        }
    }

    /// The sums over the neighbors of the agent in `slot`: the 3 × 3 cells around its own are
    /// three runs of slots. With the Flock's full circle, one branch-free pass over them; with
    /// the Boids' field of view, first the agents within the radius (a distance test each,
    /// kept without a branch), then the view test and the sums over those only.
    #[inline]
    fn neighbor_sums(&self, me: &Vehicle, slot: usize) -> NeighborSums {
        let radius = self.workload.radius();
        let fov = FieldOfView::from_degrees(match self.workload {
            Workload::Flock => 360.0,
            Workload::Boids => boids::FOV,
        });
        if self.workload == Workload::Flock {
            return self.one_pass(me, slot, radius, fov);
        }
        let mut near = [(Vec2::ZERO, Vec2::ZERO); NEAR_MAX];
        let mut len = 0;
        let radius_squared = radius * radius;
        for run in self.runs(me, radius) {
            for other in run {
                let p = self.position[other];
                let inside = (other != slot) & (p.distance_squared(me.position) < radius_squared);
                near[len.min(NEAR_MAX - 1)] = (p, self.velocity[other]);
                len += usize::from(inside);
            }
        }
        if len >= NEAR_MAX {
            // More than the buffer holds (never at this density).
            return self.one_pass(me, slot, radius, fov);
        }
        let mut sums = NeighborSums::default();
        for &(p, v) in &near[..len] {
            let inside = behaviors::in_neighborhood(me, p, radius, fov);
            sums.add_if(me.position, p, v, inside);
        }
        sums
    }

    /// Every agent of the runs around `me` tested and added (masked) in one pass.
    #[inline]
    fn one_pass(&self, me: &Vehicle, slot: usize, radius: f32, fov: FieldOfView) -> NeighborSums {
        let mut sums = NeighborSums::default();
        if fov.is_full_circle() {
            // The distance computed once for the test and the sums (as the graph does).
            let radius_squared = radius * radius;
            let mut lanes = NeighborLanes::default();
            // Four candidates tested at once, the agent itself left out by its index (as the
            // graph's scan does).
            let arrays = (self.position, self.velocity, self.agent);
            let me_agent = self.agent[slot];
            for run in self.runs(me, radius) {
                lanes.add_slots(me.position, arrays, run, me_agent, radius_squared);
            }
            return lanes.sums();
        }
        for run in self.runs(me, radius) {
            for other in run {
                let p = self.position[other];
                let inside = other != slot && behaviors::in_neighborhood(me, p, radius, fov);
                sums.add_if(me.position, p, self.velocity[other], inside);
            }
        }
        sums
    }

    /// The slots of the 3 × 3 cells around `me`: one run per row.
    #[inline]
    fn runs(&self, me: &Vehicle, radius: f32) -> impl Iterator<Item = std::ops::Range<usize>> {
        // Truncation is the floor here (nothing negative), without calling floorf.
        let low = ((me.position - radius - self.origin) / radius)
            .max(Vec2::ZERO)
            .as_uvec2();
        let high = ((me.position + radius - self.origin) / radius).as_uvec2();
        let last_column = (high.x as usize).min(self.columns - 1);
        let last_row = (high.y as usize).min(self.rows - 1);
        (low.y as usize..=last_row).map(move |row| {
            let start = self.cell_start[row * self.columns + low.x as usize] as usize;
            let end = self.cell_start[row * self.columns + last_column + 1] as usize;
            start..end
        })
    }
}
