//! Building a [`Simulation`] from a scene: validate it, compile and bind each group's graph,
//! spawn its agents, then index them.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec2;

use super::agent_order::AgentOrder;
use super::layout::Layout;
use super::{GroupRuntime, Simulation};
use crate::compile::{
    AgentState, BindError, Bindings, ParamValues, Program, TagMask, TagMembers, TagTable,
};
use crate::rng::AgentRng;
use crate::scene::{AgentGroup, OwnPoints, SceneAssets, SceneError, SceneWarning, Spawn};
use crate::spatial::SpatialGrid;
use crate::tick::RoutePlanner;
use crate::tick::jumps::Jumps;
use crate::{Steering, Turning, Vehicle, World};

/// Salt separating the spawn RNG streams from the agents' own streams.
const SPAWN_SALT: u64 = 0x5EED_5A17_0000_0000;
/// Mixed into the scene seed for the groups' random own points, so that they draw from a
/// stream of their own and spawn places stay what they were before own points existed.
const GOAL_SALT: u64 = 0x60A1_5A17_0000_0000;

/// What building found wrong so far: errors stop the scene, warnings are kept with it.
struct Findings<'a> {
    origin: &'a str,
    errors: Vec<SceneError>,
    warnings: Vec<SceneWarning>,
}

impl Simulation {
    /// Builds the world, compiles every group's graph, binds names and spawns the agents.
    ///
    /// The scene is validated first ([`crate::Scene::validate`]: finite numbers in range, at
    /// most [`crate::limits::MAX_AGENTS`] agents), before anything is allocated for it. A tag
    /// that no agent carries is not an error but a warning ([`Simulation::warnings`]).
    pub fn new(assets: &SceneAssets) -> Result<Self, Vec<SceneError>> {
        let scene = &assets.scene;
        let problems = scene.validate();
        if !problems.is_empty() {
            return Err(problems
                .into_iter()
                .map(|message| SceneError::Invalid {
                    origin: assets.origin.clone(),
                    message,
                })
                .collect());
        }
        let mut findings = Findings {
            origin: &assets.origin,
            errors: Vec::new(),
            warnings: Vec::new(),
        };
        let mut tag_table = TagTable::default();
        let group_masks: Vec<_> = scene
            .groups
            .iter()
            .map(|group| {
                tag_table.mask(&group.tags).unwrap_or_else(|| {
                    findings.errors.push(SceneError::TooManyTags {
                        origin: assets.origin.clone(),
                    });
                    0
                })
            })
            .collect();
        let mut simulation = Self::empty(World::from_scene(scene, &assets.flow_fields), scene.seed);
        simulation.tag_table = tag_table;
        let mut programs = BTreeMap::new();
        for (index, group) in scene.groups.iter().enumerate() {
            let Some((program, params)) =
                compile_group(assets, index, group, &mut programs, &mut findings)
            else {
                continue;
            };
            let bindings = simulation.bind_group(group, &program, &mut findings);
            let start = simulation.working.len();
            let mask = group_masks.get(index).copied().unwrap_or(0);
            simulation.spawn_group(index, group, &program, &params, mask, &mut findings);
            simulation.groups.push(GroupRuntime {
                name: group.name.clone(),
                graph: group.graph.clone(),
                program,
                params,
                bindings,
                agents: start..simulation.working.len(),
            });
        }
        // Agents × the neighbors each keeps, and × the path segments each projects onto,
        // before any tick runs, as agents × own goals is.
        if let Err(error) = super::work::check(&simulation.groups, &simulation.world, None) {
            findings.errors.push(SceneError::Invalid {
                origin: assets.origin.clone(),
                message: error.to_string(),
            });
        }
        if let Err(error) = assets.build_navigation(&mut simulation.world) {
            findings.errors.push(error);
        }
        if !findings.errors.is_empty() {
            return Err(findings.errors);
        }
        simulation.warnings = findings.warnings;
        simulation.index_agents();
        Ok(simulation)
    }

    /// A simulation of no agents in `world`.
    fn empty(world: World, seed: u64) -> Self {
        Self {
            world,
            tag_table: TagTable::default(),
            groups: Vec::new(),
            tags: Vec::new(),
            avoidance: Vec::new(),
            tag_members: Arc::default(),
            group_of: Vec::new(),
            layout: Layout::default(),
            working: Vec::new(),
            agent_order: AgentOrder::default(),
            vehicles_changed: false,
            states: Vec::new(),
            slot_forces: Vec::new(),
            scratches: Vec::new(),
            grid: SpatialGrid::new(1.0),
            tick: 0,
            seed,
            wall_crossings: 0,
            stuck_for: Vec::new(),
            warnings: Vec::new(),
            jumps: Jumps::default(),
            resort_sources: Vec::new(),
            spare_states: Vec::new(),
            extent: None,
            moved: None,
            bodies: Vec::new(),
            planner: RoutePlanner::default(),
            world_edits: 0,
            program_edits: 0,
            vehicle_edits: 0,
        }
    }

    /// `group`'s names resolved against the world; a tag no agent carries is a warning, any
    /// other name that does not resolve an error.
    fn bind_group(
        &self,
        group: &AgentGroup,
        program: &Program,
        findings: &mut Findings<'_>,
    ) -> Bindings {
        let (bindings, errors) = Bindings::new(program, &self.world, &self.tag_table);
        let origin = findings.origin.to_owned();
        for error in errors {
            if let BindError::UnknownTag(tag) = error {
                findings.warnings.push(SceneWarning::TagNotCarried {
                    origin: origin.clone(),
                    group: group.name.clone(),
                    graph: group.graph.clone(),
                    tag,
                });
            } else {
                findings.errors.push(SceneError::Bind {
                    origin: origin.clone(),
                    group: group.name.clone(),
                    graph: group.graph.clone(),
                    error,
                });
            }
        }
        bindings
    }

    /// Spawns the agents of `group` (the scene's group `index`, tags `mask`): their vehicles,
    /// random streams, own points and tags, appended after the agents so far.
    fn spawn_group(
        &mut self,
        index: usize,
        group: &AgentGroup,
        program: &Program,
        params: &ParamValues,
        mask: TagMask,
        findings: &mut Findings<'_>,
    ) {
        let vehicle_params = group.vehicle.unwrap_or_else(|| program.vehicle(params));
        let turning = Turning::from(group.turning.unwrap_or_else(|| program.turning(params)));
        if program.leaves_facing_unturned(&turning) {
            findings.warnings.push(SceneWarning::FacingNeverTurns {
                origin: findings.origin.to_owned(),
                group: group.name.clone(),
                graph: group.graph.clone(),
            });
        }
        let mut spawn_rng = AgentRng::new(self.seed ^ SPAWN_SALT, index as u64);
        let spawned: Vec<(Vec2, Vec2)> = match &group.spawn {
            Spawn::Agents(agents) => agents.iter().map(|a| (a.position, a.velocity)).collect(),
            Spawn::Random { count, area, speed } => (0..*count)
                .map(|_| {
                    let position = area.random_point(&mut spawn_rng);
                    let heading = Vec2::from_angle(spawn_rng.unit() * std::f32::consts::TAU);
                    (position, heading * *speed)
                })
                .collect(),
        };
        let mut goal_rng = AgentRng::new(self.seed ^ GOAL_SALT, index as u64);
        // Each name once for the whole group, shared by its agents' tables: the program's own
        // string where it reads the name, so that its lookups compare pointers.
        let shared = |name: &str| {
            program
                .own_string(name)
                .map_or_else(|| Arc::from(name), Arc::clone)
        };
        let goals: Vec<(Arc<str>, &OwnPoints)> = group
            .goals
            .iter()
            .map(|(name, points)| (shared(name), points))
            .collect();
        for (in_group, (position, velocity)) in spawned.into_iter().enumerate() {
            let agent = self.working.len() as u64;
            let mut state = AgentState::new(program, self.seed, agent);
            for (name, points) in &goals {
                let point = match points {
                    OwnPoints::Each(list) => {
                        match list.get(in_group.checked_rem(list.len()).unwrap_or(0)) {
                            Some(point) => *point,
                            None => continue,
                        }
                    }
                    OwnPoints::Random(area) => area.random_point(&mut goal_rng),
                };
                state.own.set_goal_shared(name, point);
            }
            // Slot `s` is agent `s` until the first re-sort.
            self.working
                .push(Vehicle::new(position, velocity, vehicle_params).with_turning(turning));
            self.tags.push(mask);
            // Kept only once some agent differs from the default (validated at load).
            let avoidance = group
                .avoidance
                .as_ref()
                .and_then(|settings| crate::Avoidance::from_settings(settings).ok())
                .unwrap_or_default();
            if avoidance != crate::Avoidance::default() || !self.avoidance.is_empty() {
                // The agents before it (default) first, then it.
                let agent = self.tags.len() - 1;
                self.avoidance.resize(agent, crate::Avoidance::default());
                self.avoidance.push(avoidance);
            }
            self.group_of.push(self.groups.len() as u32);
            self.states.push(state);
        }
    }

    /// Once every agent is spawned: the tags' members, the per-agent tables and the grid's
    /// cell size.
    fn index_agents(&mut self) {
        self.tag_members = Arc::new(TagMembers::new(&self.tags));
        for group in &mut self.groups {
            group.bindings.set_members(Arc::clone(&self.tag_members));
        }
        let agents = self.working.len();
        self.slot_forces = vec![Steering::ZERO; agents];
        self.jumps = Jumps::new(&self.world, agents);
        self.layout = Layout::identity(agents);
        self.agent_order = AgentOrder::new(self.working.clone());
        self.stuck_for = vec![0.0; agents];
        self.update_cell_size();
    }
}

/// The program and parameter values of the scene's group `index`, compiled once per graph file
/// (`programs`); `None`, with its errors in `findings`, when the graph is not loaded, does not
/// compile or the group's parameter overrides do not fit it.
fn compile_group(
    assets: &SceneAssets,
    index: usize,
    group: &AgentGroup,
    programs: &mut BTreeMap<String, Arc<Program>>,
    findings: &mut Findings<'_>,
) -> Option<(Arc<Program>, ParamValues)> {
    let program = if let Some(program) = programs.get(&group.graph) {
        Arc::clone(program)
    } else {
        let Some(graph) = assets.graphs.get(&group.graph) else {
            findings.errors.push(SceneError::Invalid {
                origin: findings.origin.to_owned(),
                message: format!("groups[{index}]: graph \"{}\" is not loaded", group.graph),
            });
            return None;
        };
        match crate::compile_keeping_source(graph, &group.graph, &assets.graphs) {
            Ok(program) => {
                let program = Arc::new(program);
                programs.insert(group.graph.clone(), Arc::clone(&program));
                program
            }
            Err(errors) => {
                findings
                    .errors
                    .extend(errors.into_iter().map(|error| SceneError::Compile {
                        graph: group.graph.clone(),
                        error,
                    }));
                return None;
            }
        }
    };
    match program.parameters(&group.parameters) {
        Ok(params) => Some((program, params)),
        Err(errors) => {
            findings
                .errors
                .extend(errors.into_iter().map(|error| SceneError::Parameters {
                    origin: findings.origin.to_owned(),
                    group: group.name.clone(),
                    error,
                }));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::{SceneAssets, Simulation};

    /// The swap circle's agents each get their own goal from the scene group, under the name
    /// their program's Arrival reads: every agent keeps it under the program's own string, so
    /// the lookup compares pointers (`own/points.rs`), and finds it.
    #[test]
    fn a_groups_agents_keep_their_goals_under_their_programs_own_names() {
        let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
        let assets = SceneAssets::load(&presets.join("swap_circle.scene.ron")).expect("a preset");
        let simulation = Simulation::new(&assets).expect("builds");
        let program = &simulation.groups()[0].program;
        let [shared] = program.own_shared.as_slice() else {
            panic!("one own name: {:?}", program.own_names);
        };
        let agents = simulation.vehicles().len();
        assert!(agents > 0);
        for agent in 0..agents {
            let own = simulation.own(agent).expect("an agent");
            let goals: Vec<(&str, _)> = own.goals().collect();
            let [(name, _)] = goals.as_slice() else {
                panic!("agent {agent}: {goals:?}");
            };
            assert!(
                std::ptr::eq(name.as_ptr(), shared.as_ptr()),
                "agent {agent}"
            );
            assert_eq!(own.goal_ref(shared), own.goal(name).as_ref());
        }
    }
}
