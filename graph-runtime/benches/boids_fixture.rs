//! The boids workload shared by the benchmarks and the test that holds the compiled graph to
//! the hand-written loop: flocking with a little wander, obstacle avoidance and containment
//! combined by priority.

use glam::Vec2;
use graph_runtime::behaviors::{self, FieldOfView};
use graph_runtime::{
    AgentGroup, AgentRng, AgentState, Area, Bindings, Context, Graph, Link, Node, Obstacle,
    Program, Rect, Scene, SceneAssets, Scratch, SpatialGrid, Spawn, TagTable, Vehicle,
    VehicleParams, Wall, WeightedInput, World, compile,
};

/// Neighborhood radius of the flock (units).
pub(crate) const FLOCK_RADIUS: f32 = 4.0;
/// Field of view of the flock (degrees).
pub(crate) const FLOCK_FOV: f32 = 270.0;
/// Weights of separation, cohesion, alignment.
pub(crate) const FLOCK_WEIGHTS: (f32, f32, f32) = (2.0, 1.0, 1.0);
/// Weight of flocking and wander in the blend.
pub(crate) const BLEND_WEIGHTS: (f32, f32) = (4.0, 0.5);
/// Wander circle distance, radius (units) and jitter (degrees / s).
pub(crate) const WANDER: (f32, f32, f32) = (3.0, 1.0, 90.0);
/// Obstacle avoidance corridor: minimum length (units) and look-ahead (s).
pub(crate) const AVOIDANCE: (f32, f32) = (2.0, 1.0);
/// Containment prediction (s) and margin (units).
pub(crate) const CONTAINMENT: (f32, f32) = (1.0, 5.0);
/// Priority epsilon.
pub(crate) const EPSILON: f32 = 1e-3;
/// Vehicle limits.
pub(crate) const VEHICLE: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 12.0,
    max_speed: 6.0,
    radius: 0.5,
};
/// Tick length (s).
pub(crate) const DT: f32 = 1.0 / 60.0;
/// Seed of the agents' RNGs and of the spawn.
pub(crate) const SEED: u64 = 42;

/// A scene of the boids world with `agents` spread over it at 3 units/s, running `graph`, with
/// `walls` added: what the simulation benchmarks step.
pub(crate) fn scene_assets(agents: usize, graph: Graph, walls: Vec<Wall>) -> SceneAssets {
    let world = world(agents);
    let scene = Scene {
        bounds: world.bounds,
        seed: SEED,
        obstacles: world.obstacles.clone(),
        walls,
        groups: vec![AgentGroup {
            vehicle: Some(VEHICLE),
            ..AgentGroup::new(
                "boids",
                "boids.graph.ron",
                Spawn::Random {
                    count: agents as u32,
                    area: Area::Rect {
                        min: world.bounds.min,
                        max: world.bounds.max,
                    },
                    speed: 3.0,
                },
            )
        }],
        ..Scene::default()
    };
    SceneAssets {
        scene,
        origin: "bench".to_owned(),
        graphs: [("boids.graph.ron".to_owned(), graph)].into(),
        flow_fields: std::collections::BTreeMap::default(),
    }
}

/// The boids graph.
pub(crate) fn graph() -> Graph {
    let n = |v: f32| v.into();
    let mut graph = Graph::default();
    let avoid = graph.add(Node::ObstacleAvoidance {
        min_length: n(AVOIDANCE.0),
        lookahead_time: n(AVOIDANCE.1),
    });
    let contain = graph.add(Node::Containment {
        bounds: graph_runtime::Region::World,
        prediction_time: n(CONTAINMENT.0),
        margin: n(CONTAINMENT.1),
    });
    let flock = graph.add(Node::Flocking {
        separation_weight: n(FLOCK_WEIGHTS.0),
        cohesion_weight: n(FLOCK_WEIGHTS.1),
        alignment_weight: n(FLOCK_WEIGHTS.2),
        radius: n(FLOCK_RADIUS),
        fov: n(FLOCK_FOV),
        max_neighbors: 64.0.into(),
    });
    let wander = graph.add(Node::Wander {
        distance: n(WANDER.0),
        radius: n(WANDER.1),
        jitter: n(WANDER.2),
        face: false,
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: Link(Some(flock)),
                weight: n(BLEND_WEIGHTS.0),
            },
            WeightedInput {
                node: Link(Some(wander)),
                weight: n(BLEND_WEIGHTS.1),
            },
        ],
    });
    let priority = graph.add(Node::Priority {
        inputs: vec![Link(Some(avoid)), Link(Some(contain)), Link(Some(blend))],
        epsilon: n(EPSILON),
    });
    graph.add(Node::Output {
        input: Link(Some(priority)),
    });
    graph
}

/// A world sized to keep the density constant: about 16 square units per agent, with 16
/// obstacles on a grid.
pub(crate) fn world(agents: usize) -> World {
    let half = (agents as f32 * 16.0).sqrt() * 0.5;
    let mut world = World::new(Rect::new(Vec2::splat(-half), Vec2::splat(half)));
    for i in 0..4 {
        for j in 0..4 {
            let at = Vec2::new(i as f32 + 0.5, j as f32 + 0.5) / 4.0 * 2.0 * half - half;
            world.obstacles.push(Obstacle {
                center: at,
                radius: half * 0.04 + 1.0,
            });
        }
    }
    world
}

/// `agents` vehicles spread over the world by a seeded RNG, moving at half speed.
pub(crate) fn vehicles(world: &World, agents: usize) -> Vec<Vehicle> {
    let mut rng = AgentRng::new(SEED, u64::MAX);
    let size = world.bounds.size();
    (0..agents)
        .map(|_| {
            let position = world.bounds.min + size * Vec2::new(rng.unit(), rng.unit());
            let heading = Vec2::from_angle(rng.unit() * std::f32::consts::TAU);
            Vehicle::new(position, heading * VEHICLE.max_speed * 0.5, VEHICLE)
        })
        .collect()
}

/// Everything one run needs, for either evaluator.
pub(crate) struct Flock {
    pub(crate) world: World,
    pub(crate) vehicles: Vec<Vehicle>,
    pub(crate) forces: Vec<Vec2>,
    pub(crate) grid: SpatialGrid,
    pub(crate) program: Program,
    pub(crate) bindings: Bindings,
    pub(crate) params: graph_runtime::ParamValues,
    pub(crate) states: Vec<AgentState>,
    /// Hand-written state: RNG and wander angle per agent.
    pub(crate) rngs: Vec<AgentRng>,
    pub(crate) thetas: Vec<f32>,
    pub(crate) scratch: Scratch,
    /// Hand-written state: the agents near the one being steered.
    pub(crate) near: graph_runtime::Near,
}

impl Flock {
    /// A flock of `agents`.
    ///
    /// # Panics
    ///
    /// When the boids graph does not compile or bind (a bug in the fixture).
    pub(crate) fn new(agents: usize) -> Self {
        let world = world(agents);
        let vehicles = vehicles(&world, agents);
        let program = compile(&graph()).expect("the boids graph compiles");
        let (bindings, errors) = Bindings::new(&program, &world, &TagTable::default());
        assert!(errors.is_empty());
        let params = program.default_parameters();
        let states = (0..agents)
            .map(|i| AgentState::new(&program, SEED, i as u64))
            .collect();
        Self {
            forces: vec![Vec2::ZERO; agents],
            grid: SpatialGrid::new(FLOCK_RADIUS),
            rngs: (0..agents).map(|i| AgentRng::new(SEED, i as u64)).collect(),
            thetas: vec![0.0; agents],
            scratch: Scratch::default(),
            near: graph_runtime::Near::default(),
            world,
            vehicles,
            program,
            bindings,
            params,
            states,
        }
    }

    fn integrate(&mut self) {
        for (vehicle, force) in self.vehicles.iter_mut().zip(&self.forces) {
            vehicle.step(*force, DT);
        }
    }

    /// One tick through the compiled graph, on this thread.
    pub(crate) fn tick_graph(&mut self) {
        self.grid.rebuild(&self.vehicles);
        let context = Context::new(
            &self.world,
            &self.vehicles,
            &self.grid,
            &self.bindings,
            &self.params,
            DT,
        );
        self.program.steer_all(
            &context,
            &mut self.states,
            &mut self.scratch,
            &mut self.forces,
        );
        self.integrate();
    }

    /// One tick of the same behavior written by hand against the behavior functions.
    pub(crate) fn tick_hand_written(&mut self) {
        self.grid.rebuild(&self.vehicles);
        let fov = FieldOfView::from_degrees(FLOCK_FOV);
        for agent in 0..self.vehicles.len() {
            let me = &self.vehicles[agent];
            let avoid =
                behaviors::obstacle_avoidance(me, &self.world.obstacles, AVOIDANCE.0, AVOIDANCE.1);
            self.forces[agent] = if avoid.length() > EPSILON {
                avoid
            } else {
                let contain =
                    behaviors::containment(me, &self.world.bounds, CONTAINMENT.0, CONTAINMENT.1);
                if contain.length() > EPSILON {
                    contain
                } else {
                    self.grid
                        .near(me.position, FLOCK_RADIUS, agent, &mut self.near);
                    let mut sums = [behaviors::NeighborSums::default()];
                    let neighborhood = [(FLOCK_RADIUS, fov)];
                    behaviors::neighbor_sums_each(
                        me,
                        self.near.as_slice(),
                        &neighborhood,
                        &mut sums,
                    );
                    let flock =
                        sums[0].flocking(me, FLOCK_WEIGHTS.0, FLOCK_WEIGHTS.1, FLOCK_WEIGHTS.2);
                    let theta = &mut self.thetas[agent];
                    *theta +=
                        behaviors::wander_turn(&mut self.rngs[agent], WANDER.2.to_radians(), DT);
                    let wander = behaviors::wander(me, *theta, WANDER.0, WANDER.1);
                    let blended = Vec2::ZERO + BLEND_WEIGHTS.0 * flock + BLEND_WEIGHTS.1 * wander;
                    if blended.length() > EPSILON {
                        blended
                    } else {
                        Vec2::ZERO
                    }
                }
            };
        }
        self.integrate();
    }
}
