//! One tick's work on the agents: the tick core (`tick.rs`) run batch by batch, in parallel
//! chunks, each batch advanced right after it is steered.

use glam::Vec2;
use rayon::prelude::*;

use super::Simulation;
use crate::Motion;
use crate::compile::{BATCH, Scratch};
use crate::pool::{Warm, run_tasks};
use crate::spatial::{Body, Extent, farther};
use crate::tick::{Group, Tick, advance};
use crate::{Steering, Vehicle};

impl Simulation {
    /// Steers every agent from the state at the start of the tick and steps it, in slot order;
    /// returns the wall crossings of this tick and the extent of the agents after their steps
    /// (for the next grid). `vehicles` are the agents in agent order at
    /// the start of the tick, for programs that read other agents by index (empty when none
    /// does).
    ///
    /// Each batch is stepped right after it is steered, in the same parallel task: a force
    /// reads the agent's own working vehicle and everything else from the start of the tick
    /// (neighbors from the grid's copies, targets from `vehicles`), so stepping a batch changes
    /// no other agent's force, and the tick needs one parallel pass instead of two.
    ///
    /// When `track` (a program reads other agents by index, as Reciprocal does), also returns
    /// the farthest any agent moved in its step (units; infinite when an agent left or came
    /// back from a position that is not finite): the grid's notes of each agent's nearest
    /// neighbors bound the next tick's queries by it (`spatial/bounds.rs`).
    pub(super) fn steer_and_step(
        &mut self,
        dt: f32,
        vehicles: &[Vehicle],
        track: bool,
        (chunk, warm): (usize, &Warm),
    ) -> (u64, Extent, Option<f32>) {
        let tick = Tick {
            world: &self.world,
            vehicles,
            tags: &self.tags,
            avoidance: &self.avoidance,
            grid: &self.grid,
            dt,
        };
        let world = &self.world;
        let motions = &self.jumps.motion;
        let groups = &self.groups;
        let group_of = &self.group_of;
        let layout = &self.layout;
        let chunks = self.slot_forces.len().div_ceil(chunk);
        if self.scratches.len() < chunks {
            self.scratches.resize_with(chunks, Scratch::default);
        }
        // Every slot's body is written below: resized, not cleared.
        self.bodies.resize(self.slot_forces.len(), Body::default());
        let tasks = (self.slot_forces.par_chunks_mut(chunk))
            .zip(self.states.par_chunks_mut(chunk))
            .zip(self.working.par_chunks_mut(chunk))
            .zip(self.stuck_for.par_chunks_mut(chunk))
            .zip(self.bodies.par_chunks_mut(chunk))
            .zip(self.scratches.par_iter_mut())
            .enumerate();
        let totals = run_tasks(
            warm,
            tasks,
            |(chunk_index, (((((forces, states), working), stuck_for), bodies), scratch))| {
                let mut crossings = 0;
                let mut extent = Extent::EMPTY;
                let mut moved_squared = 0.0_f32;
                let batches = forces
                    .chunks_mut(BATCH)
                    .zip(states.chunks_mut(BATCH))
                    .zip(working.chunks_mut(BATCH))
                    .zip(stuck_for.chunks_mut(BATCH))
                    .zip(bodies.chunks_mut(BATCH));
                for (batch_index, ((((forces, states), working), stuck_for), bodies)) in
                    batches.enumerate()
                {
                    let first = chunk_index * chunk + batch_index * BATCH;
                    // Never short of agents (the layout has a slot per vehicle); if it
                    // were, the batch would step without force like an agent without a
                    // group.
                    let agents = layout.agents(first..first + forces.len());
                    let agents = agents.unwrap_or_else(|| {
                        forces.fill(Steering::ZERO);
                        &[]
                    });
                    let group = |index: usize| {
                        groups.get(index).map(|group| Group {
                            program: &group.program,
                            bindings: &group.bindings,
                            params: &group.params,
                        })
                    };
                    // Where the batch's agents start, when their steps are measured (a
                    // flock's batches copy nothing).
                    let from = track.then(|| {
                        let mut from = [Vec2::ZERO; BATCH];
                        for (from, vehicle) in from.iter_mut().zip(&*working) {
                            *from = vehicle.position;
                        }
                        from
                    });
                    tick.steer_runs(
                        (groups.len(), group_of, group),
                        agents,
                        (working, states, forces),
                        scratch,
                    );
                    crossings += advance_batch(
                        Batch {
                            working,
                            forces,
                            states,
                            stuck_for,
                            agents,
                        },
                        world,
                        motions,
                        &mut scratch.falls,
                        dt,
                    );
                    // Each batch's vehicles just stepped, still in the cache: their
                    // extent and bodies for the next grid.
                    let from = from.as_ref();
                    fold_steps(working, bodies, from, (&mut extent, &mut moved_squared));
                }
                (crossings, extent, moved_squared)
            },
            // A whole number of crossings, an extent (minima and maxima) and a maximum: each
            // the same in any order, so any thread count gives the same.
            (
                (0, Extent::EMPTY, 0.0_f32),
                |(a, left, m), (b, right, n)| (a + b, left.join(right), m.max(n)),
            ),
        );
        let (crossings, extent, moved_squared) = totals;
        (crossings, extent, track.then(|| moved_squared.sqrt()))
    }
}

/// Folds a batch's agents just stepped (`working`, still in the cache) into the extent and
/// writes their bodies, for the next grid; with where they started (`from`), also the longest
/// step's length squared.
fn fold_steps(
    working: &[Vehicle],
    bodies: &mut [Body],
    from: Option<&[Vec2; BATCH]>,
    (extent, moved_squared): (&mut Extent, &mut f32),
) {
    if let Some(from) = from {
        for ((vehicle, body), &from) in working.iter().zip(bodies).zip(from) {
            *extent = extent.add(vehicle);
            *moved_squared = farther(*moved_squared, from, vehicle.position);
            *body = Body::from(vehicle);
        }
    } else {
        for (vehicle, body) in working.iter().zip(bodies) {
            *extent = extent.add(vehicle);
            *body = Body::from(vehicle);
        }
    }
}

/// One batch's agents after steering, by slot: their working vehicles, steering, states,
/// stuck clocks and agent indices.
struct Batch<'a> {
    working: &'a mut [Vehicle],
    forces: &'a [Steering],
    states: &'a [crate::AgentState],
    stuck_for: &'a mut [f32],
    agents: &'a [u32],
}

/// Advances a batch's agents (the tick core's `advance`); returns its wall crossings. In a
/// world with gaps or jump links (`motions` not empty) only walkers step (flights move at the
/// tick's end), and a walker whose step ends in a gap is added to `falls`.
#[inline]
fn advance_batch(
    batch: Batch<'_>,
    world: &crate::World,
    motions: &[Motion],
    falls: &mut Vec<u32>,
    dt: f32,
) -> u64 {
    let Batch {
        working,
        forces,
        states,
        stuck_for,
        agents,
    } = batch;
    let mut crossings = 0;
    let each = working.iter_mut().zip(forces).zip(states);
    if motions.is_empty() {
        for (((vehicle, &force), state), stuck) in each.zip(stuck_for.iter_mut()) {
            let preferred = state.preferred();
            crossings += u64::from(advance(vehicle, force, dt, preferred, stuck, world));
        }
        return crossings;
    }
    let each = each.zip(stuck_for.iter_mut()).zip(agents);
    for ((((vehicle, &force), state), stuck), &agent) in each {
        let motion = motions.get(agent as usize).copied();
        if motion.unwrap_or_default() != Motion::Walking {
            continue;
        }
        let preferred = state.preferred();
        crossings += u64::from(advance(vehicle, force, dt, preferred, stuck, world));
        if world.in_gap(vehicle.position) {
            falls.push(agent);
        }
    }
    crossings
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use crate::{SceneAssets, Simulation};

    #[test]
    fn reciprocal_and_unaligned_collision_avoidance_are_costly_per_agent_and_flocking_is_not() {
        let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
        let costly = |scene: &str| {
            let assets = SceneAssets::load(&presets.join(scene)).expect("a preset");
            let simulation = Simulation::new(&assets).expect("builds");
            (simulation.groups.iter()).any(|g| g.program.costly_per_agent())
        };
        assert!(costly("swap_circle.scene.ron"), "Reciprocal");
        assert!(costly("swap_circle_separation.scene.ron"), "Unaligned");
        assert!(!costly("boids.scene.ron"), "Flocking");
        assert!(!costly("seek.scene.ron"), "Seek");
    }

    fn bits(simulation: &Simulation) -> Vec<[u32; 4]> {
        super::super::vehicle_bits(simulation.vehicles())
    }

    /// A stacked crowd of 10,000 flockers (each agent's 64 nearest from the k-d tree): walked
    /// in the order of last tick's tree with the tree built before the tick (as a crowd is),
    /// and again with the simulation made to forget each tick that it used a tree (so it
    /// builds the tree on the first query and walks the grid's order): every position and
    /// velocity the same after 6 ticks. The walking order and when the tree is built change
    /// no result.
    #[test]
    fn a_crowd_moves_the_same_in_the_trees_order_and_in_the_grids() {
        use std::collections::BTreeMap;

        use glam::Vec2;

        use crate::{AgentGroup, Area, Graph, Link, Node, Rect, Scene, Spawn};

        let mut graph = Graph::default();
        let flocking = graph.add(Node::Flocking {
            separation_weight: 1.5.into(),
            cohesion_weight: 1.0.into(),
            alignment_weight: 1.0.into(),
            radius: 5.0.into(),
            fov: 270.0.into(),
            max_neighbors: 64.0.into(),
        });
        graph.add(Node::Output {
            input: Link(Some(flocking)),
        });
        let point = Vec2::new(3.0, -2.0);
        let assets = SceneAssets {
            scene: Scene {
                bounds: Rect::new(Vec2::splat(-100.0), Vec2::splat(100.0)),
                groups: vec![AgentGroup {
                    name: "crowd".to_owned(),
                    graph: "g.graph.ron".to_owned(),
                    spawn: Spawn::Random {
                        count: 10_000,
                        area: Area::Rect {
                            min: point,
                            max: point,
                        },
                        speed: 1.0,
                    },
                    vehicle: None,
                    tags: Vec::new(),
                    avoidance: None,
                    parameters: BTreeMap::new(),
                    goals: BTreeMap::new(),
                    turning: None,
                }],
                ..Scene::default()
            },
            origin: "crowd.scene.ron".to_owned(),
            graphs: [("g.graph.ron".to_owned(), graph)].into(),
            flow_fields: BTreeMap::new(),
        };
        let mut in_tree_order = Simulation::new(&assets).expect("builds");
        let mut in_grid_order = in_tree_order.clone();
        for tick in 0..6 {
            in_tree_order.step(1.0 / 60.0);
            in_grid_order.step(1.0 / 60.0);
            in_grid_order.grid.forget_tree_use();
            assert!(
                bits(&in_tree_order) == bits(&in_grid_order),
                "tick {tick} differs"
            );
        }
        // The first really walked the tree's order: its layout is not the grid's.
        let grid_order = in_tree_order.grid.sources().iter().enumerate();
        assert!(
            grid_order
                .clone()
                .any(|(slot, &source)| slot != source as usize)
        );
    }

    /// The extent a tick folds while stepping is the extent of the agents it leaves, exactly
    /// what the next rebuild would compute, and the bodies it writes are their positions and
    /// velocities: a grid built from them is the grid built from the vehicles. An edit
    /// through the API throws them away, and in a world with jumps (flights move after the
    /// steps) none is kept.
    #[test]
    fn the_extent_folded_while_stepping_is_the_agents_extent() {
        use crate::spatial::{Body, Extent};

        let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
        let assets = SceneAssets::load(&presets.join("boids.scene.ron")).expect("the boids preset");
        let mut simulation = Simulation::new(&assets).expect("builds");
        assert_eq!(simulation.extent, None);
        for _ in 0..5 {
            simulation.step(1.0 / 60.0);
            let folded = simulation.working.iter().fold(Extent::EMPTY, Extent::add);
            assert_eq!(simulation.extent, Some(folded));
            let bodies: Vec<Body> = simulation.working.iter().map(Body::from).collect();
            assert_eq!(simulation.bodies, bodies);
            // The next rebuild from the bodies, and one from the vehicles.
            let mut from_bodies = simulation.clone();
            from_bodies.step(1.0 / 60.0);
            let mut from_vehicles = simulation.clone();
            from_vehicles.extent = None;
            from_vehicles.step(1.0 / 60.0);
            let grid = |s: &Simulation| {
                let (positions, velocities, agents) = s.grid.slots();
                (positions.to_vec(), velocities.to_vec(), agents.to_vec())
            };
            assert_eq!(grid(&from_bodies), grid(&from_vehicles));
            assert_eq!(from_bodies.grid.sources(), from_vehicles.grid.sources());
            assert!(bits(&from_bodies) == bits(&from_vehicles));
        }
        if let Some(first) = simulation.vehicles_mut().first_mut() {
            first.position.x += 1_000.0;
        }
        // The next tick starts from the moved agent: its own extent, not the folded one.
        let mut again = simulation.clone();
        again.step(1.0 / 60.0);
        let mut fresh = simulation.clone();
        fresh.extent = None;
        fresh.step(1.0 / 60.0);
        assert!(bits(&again) == bits(&fresh));
        assert!(again.grid.max_speed() == fresh.grid.max_speed());

        let jumps = SceneAssets::load(&presets.join("chasm.scene.ron")).expect("a jump preset");
        let mut simulation = Simulation::new(&jumps).expect("builds");
        simulation.step(1.0 / 60.0);
        assert_eq!(simulation.extent, None);
    }

    /// Every preset runs 60 ticks with its programs evaluated in batches and again agent by
    /// agent (batch plans removed): every position and velocity must agree bit for bit, and so
    /// every draw from every agent's RNG (a Wander drawn for an agent that should not reach it
    /// would turn that agent's later ticks).
    #[test]
    fn every_preset_moves_the_same_in_batches_and_agent_by_agent() {
        let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
        let mut scenes: Vec<_> = std::fs::read_dir(&presets)
            .expect("the presets folder")
            .filter_map(|entry| Some(entry.ok()?.path()))
            .filter(|path| path.to_string_lossy().ends_with(".scene.ron"))
            .collect();
        scenes.sort();
        let (mut planned, mut per_agent) = (0, 0);
        for path in &scenes {
            let assets = SceneAssets::load(path).expect("a preset loads");
            let mut batched = Simulation::new(&assets).expect("a preset builds");
            let mut reference = batched.clone();
            for group in &mut reference.groups {
                if group.program.batch_plan.is_some() {
                    planned += 1;
                } else {
                    per_agent += 1;
                }
                Arc::make_mut(&mut group.program).batch_plan = None;
            }
            for tick in 0..60 {
                batched.step(1.0 / 60.0);
                reference.step(1.0 / 60.0);
                assert!(
                    bits(&batched) == bits(&reference),
                    "{}: tick {tick} differs",
                    path.display()
                );
            }
        }
        // Batches and the per-agent evaluator both ran.
        assert!(
            planned >= 10 && per_agent >= 5,
            "{planned} planned, {per_agent} not"
        );
    }

    /// Reciprocal runs in the batch after its input (the graph is planned), and a crowd of it
    /// moves as the per-agent evaluator moves it, bit for bit, 300 ticks: the swap circle's
    /// 200 agents (starting 40 units out) meeting walls in their way 28 units out (two open
    /// walls across the x axis, a closed square on the y axis: wall half-planes of both
    /// kinds), preferring `Blend(Arrival, LookWhereYouAreGoing)`, whose angular part
    /// Reciprocal passes through (the batch's values then carry a turn).
    #[test]
    fn a_reciprocal_crowd_among_walls_moves_the_same_in_batches_and_agent_by_agent() {
        use crate::{Graph, Wall};
        use glam::Vec2;
        let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
        let mut assets =
            SceneAssets::load(&presets.join("swap_circle.scene.ron")).expect("the preset");
        let wall = |points: &[(f32, f32)]| points.iter().map(|&p| Vec2::from(p)).collect();
        assets.scene.walls = vec![
            Wall::polyline(wall(&[(28.0, -10.0), (28.0, 10.0)])),
            Wall::polyline(wall(&[(-28.0, 10.0), (-28.0, -10.0)])),
            Wall::polygon(wall(&[
                (-3.0, 26.0),
                (3.0, 26.0),
                (3.0, 32.0),
                (-3.0, 32.0),
            ])),
        ];
        let graph = r#"(format: "steergraph.graph", version: 2,
            vehicle: (mass: 1.0, max_force: 240.0, max_speed: 4.0, radius: 0.5),
            turning: (independent_facing: true, max_angular_speed: 180.0,
                max_angular_acceleration: 360.0),
            nodes: {
                1: Arrival(target: Own("goal"), slowing_distance: 4.0),
                2: LookWhereYouAreGoing(align_tolerance: 2.0, deceleration_radius: 45.0,
                    time_to_target: 0.2),
                3: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: 1.0)]),
                4: Reciprocal(input: 3, time_horizon: 2.0, obstacle_time_horizon: 1.0,
                    neighbor_radius: 5.0, max_neighbors: 10.0, clearance: 0.1, keep_right: 10.0),
                5: Output(input: 4),
            })"#;
        let graph = Graph::from_ron(graph, "turning_orca.graph.ron").expect("the graph parses");
        for group in &mut assets.scene.groups {
            group.graph = "turning_orca.graph.ron".to_owned();
        }
        assets.graphs = [("turning_orca.graph.ron".to_owned(), graph)].into();
        let mut batched = Simulation::new(&assets).expect("builds");
        let mut reference = batched.clone();
        for group in &mut reference.groups {
            assert!(group.program.batch_plan.is_some(), "Reciprocal is planned");
            Arc::make_mut(&mut group.program).batch_plan = None;
        }
        // Independent facing: the orientation and its turn rate, beside position and velocity.
        let facing = |simulation: &Simulation| -> Vec<[u32; 2]> {
            (simulation.vehicles().iter())
                .map(|v| [v.orientation.to_bits(), v.angular_velocity.to_bits()])
                .collect()
        };
        let facing_at_start = facing(&batched);
        let mut near_the_walls = 0;
        for tick in 0..300 {
            batched.step(1.0 / 60.0);
            reference.step(1.0 / 60.0);
            assert!(bits(&batched) == bits(&reference), "tick {tick} differs");
            assert!(
                facing(&batched) == facing(&reference),
                "tick {tick}: facing differs"
            );
            let vehicles = batched.vehicles().iter();
            near_the_walls += vehicles
                .filter(|v| (26.0..30.0).contains(&v.position.x.abs()) && v.position.y.abs() < 11.0)
                .count();
        }
        // The crowd turned, and met the open walls.
        let turned = facing(&batched).into_iter().zip(facing_at_start);
        assert!(turned.filter(|(now, start)| now[0] != start[0]).count() > 100);
        assert!(near_the_walls > 0);
    }
    /// The aim kernels: the swap circle's 200 agents (each with its own goal) steered by
    /// `Blend(Seek(a point), Flee(a scene target, panic 12), Arrival(own goal), MatchVelocity
    /// (a fixed velocity))`, every leaf with a kernel of its own, in batches and agent by agent
    /// through the evaluator: bit for bit alike at every tick, and alike with the Flee's scene
    /// target out of its panic distance from the start (it gives zero there).
    #[test]
    fn seek_flee_arrival_and_match_velocity_move_the_same_in_batches_and_agent_by_agent() {
        use crate::Graph;
        let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
        let graph = r#"(format: "steergraph.graph", version: 1,
            vehicle: (mass: 1.0, max_force: 60.0, max_speed: 4.0, radius: 0.5),
            nodes: {
                1: Seek(target: Point(10.0, -5.0)),
                2: Flee(target: Named("hazard"), panic_distance: Some(12.0)),
                3: Arrival(target: Own("goal"), slowing_distance: 4.0),
                4: MatchVelocity(velocity: Fixed(0.5, -0.25), time_to_target: 0.5),
                5: Blend(inputs: [(node: 1, weight: 0.25), (node: 2, weight: 1.0),
                    (node: 3, weight: 1.0), (node: 4, weight: 0.5)]),
                6: Output(input: 5),
            })"#;
        let graph = Graph::from_ron(graph, "aims.graph.ron").expect("the graph parses");
        for hazard in [glam::Vec2::new(-3.0, 4.0), glam::Vec2::new(500.0, 500.0)] {
            let mut assets =
                SceneAssets::load(&presets.join("swap_circle.scene.ron")).expect("the preset");
            assets.scene.targets.insert("hazard".to_owned(), hazard);
            for group in &mut assets.scene.groups {
                group.graph = "aims.graph.ron".to_owned();
            }
            assets.graphs = [("aims.graph.ron".to_owned(), graph.clone())].into();
            let mut batched = Simulation::new(&assets).expect("builds");
            let mut reference = batched.clone();
            for group in &mut reference.groups {
                assert!(group.program.batch_plan.is_some(), "the leaves are planned");
                Arc::make_mut(&mut group.program).batch_plan = None;
            }
            let start = bits(&batched);
            for tick in 0..120 {
                batched.step(1.0 / 60.0);
                reference.step(1.0 / 60.0);
                assert!(bits(&batched) == bits(&reference), "tick {tick} differs");
            }
            assert!(bits(&batched) != start, "the crowd moved");
        }
    }
}
