//! The edits a replay file's run had (format version 2): at a tick, the scene as edited (what
//! a running world takes of it without a reset), the targets as moved (the cursor), and the
//! graphs swapped in for groups, each put into the simulation just before that tick's step
//! the way the editor put it in ([`Simulation::follow_scene`], [`Simulation::move_target`],
//! [`Simulation::swap_program`]). A run forked at a past tick with an edit, a hot reload, a
//! wall drawn while it ran: each is a few changes, and the replay steps to the same bits.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::graph::GraphFile;
use crate::limits::MAX_NAMES;
use crate::world::Obstacle;
use crate::{
    Gap, Graph, JumpLink, ParamValues, Path, Program, Rect, Scene, Simulation, Turning,
    TurningParams, VehicleParams, Wall, World,
};

/// What a running world takes of an edited scene ([`Simulation::follow_scene`]), its targets
/// aside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneEdit {
    /// The playing area.
    pub bounds: Rect,
    /// Circle obstacles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<Obstacle>,
    /// Walls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<Wall>,
    /// Whether steps pass through walls.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub passable_walls: bool,
    /// Gaps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
    /// Named paths.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::unique::names"
    )]
    pub paths: BTreeMap<String, Path>,
    /// Named jump links.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::unique::names"
    )]
    pub jump_links: BTreeMap<String, JumpLink>,
}

impl SceneEdit {
    /// What `world` holds of a scene edit.
    pub fn of_world(world: &World) -> Self {
        Self {
            bounds: world.bounds,
            obstacles: world.obstacles.clone(),
            walls: world.walls().to_vec(),
            passable_walls: world.passable_walls(),
            gaps: world.gaps().to_vec(),
            paths: (world.paths())
                .map(|(name, path)| (name.to_owned(), path.clone()))
                .collect(),
            jump_links: (world.jump_links())
                .map(|(name, link)| (name.to_owned(), *link))
                .collect(),
        }
    }

    /// A scene with this edit and `targets`, and nothing else (what
    /// [`Simulation::follow_scene`] reads of it, and what is checked of an edit read back).
    pub fn scene(&self, targets: &[(String, Vec2)]) -> Scene {
        let mut scene = Scene {
            targets: targets.iter().cloned().collect(),
            ..Scene::default()
        };
        self.write_into(&mut scene);
        scene
    }

    /// Writes this edit into `scene`: its bounds, obstacles, walls, passable walls, gaps,
    /// paths and jump links (its targets, groups and fields kept).
    pub fn write_into(&self, scene: &mut Scene) {
        scene.bounds = self.bounds;
        scene.obstacles.clone_from(&self.obstacles);
        scene.walls.clone_from(&self.walls);
        scene.passable_walls = self.passable_walls;
        scene.gaps.clone_from(&self.gaps);
        scene.paths.clone_from(&self.paths);
        scene.jump_links.clone_from(&self.jump_links);
    }
}

/// A graph swapped in for a group (a graph edited or reloaded while the scene ran), with
/// what the group's agents were given with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSwap {
    /// The group, by its place in the scene.
    pub group: usize,
    /// The graph, by its place in the replay file's `graphs`.
    pub graph: usize,
    /// The program's parameter values, in the order of its parameter names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<f32>,
    /// The limits the group's agents were given.
    pub vehicle: VehicleParams,
    /// How the group's agents turn from then on.
    #[serde(default, skip_serializing_if = "TurningParams::is_default")]
    pub turning: TurningParams,
}

/// What changed at one tick of a run, put in just before that tick's step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// The tick whose step first saw it.
    pub tick: u64,
    /// The graphs swapped in, in group order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub graphs: Vec<GroupSwap>,
    /// The scene as edited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scene: Option<SceneEdit>,
    /// Every target's position, in the world's order, when one moved or the scene was edited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<(String, Vec2)>>,
}

/// A run's edits: the graphs swapped in (each compiled once) and the changes by tick.
#[derive(Clone, Debug, Default)]
pub struct Edits {
    /// The graphs, as their programs' sources ([`Program::source`]).
    pub(super) graphs: Vec<Graph>,
    /// Each graph compiled.
    pub(super) programs: Vec<Arc<Program>>,
    /// By tick, ascending, at most one a tick.
    pub(super) changes: Vec<Change>,
}

/// Two runs' edits are the same when their graphs and changes are (the programs follow).
impl PartialEq for Edits {
    fn eq(&self, other: &Self) -> bool {
        self.graphs == other.graphs && self.changes == other.changes
    }
}

impl Edits {
    /// Whether the run had no edits (a version 1 file).
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// The changes, by tick.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// The graphs the changes swap in.
    pub fn graphs(&self) -> &[Graph] {
        &self.graphs
    }

    /// Edits of `graphs` (their programs) and `changes`, checked: ticks ascending and before
    /// `ticks` (a change is put in before a step of the run), every graph a change names
    /// present, parameter values one per parameter and finite, vehicle and turning numbers
    /// finite and in range, target points finite and at most [`MAX_NAMES`] target names in
    /// all, and every scene edit one a scene may hold. The message names the place
    /// (`changes[2].graphs[0].parameters`).
    pub(super) fn checked(
        (graphs, programs): (Vec<Graph>, Vec<Arc<Program>>),
        changes: Vec<Change>,
        ticks: u64,
    ) -> Result<Self, String> {
        let mut last = None;
        // The names the changes' targets use, all changes together: each may add one to the
        // world (the editor's cursor), so their count is a scene's bound on its targets.
        let mut names = std::collections::BTreeSet::new();
        for (c, change) in changes.iter().enumerate() {
            let at = |what: &str| format!("changes[{c}]{what}");
            if last.is_some_and(|last| change.tick <= last) {
                return Err(format!(
                    "{}: tick {} is not after the change before it (tick {}): changes are listed by tick, one a tick",
                    at(""),
                    change.tick,
                    last.unwrap_or(0)
                ));
            }
            if change.tick >= ticks {
                return Err(format!(
                    "{}: tick {} is not before the run's last tick ({ticks}): a change is put in before a step",
                    at(".tick"),
                    change.tick
                ));
            }
            last = Some(change.tick);
            for (s, swap) in change.graphs.iter().enumerate() {
                let at = |what: &str| at(&format!(".graphs[{s}]{what}"));
                let program = programs.get(swap.graph).ok_or_else(|| {
                    format!(
                        "{}: graph {} is not among the file's {} graphs",
                        at(".graph"),
                        swap.graph,
                        programs.len()
                    )
                })?;
                let wanted = program.parameter_names().len();
                if swap.parameters.len() != wanted {
                    return Err(format!(
                        "{}: {} values; its graph has {wanted} parameters",
                        at(".parameters"),
                        swap.parameters.len()
                    ));
                }
                if let Some(i) = swap.parameters.iter().position(|v| !v.is_finite()) {
                    return Err(format!(
                        "{}: not a finite number",
                        at(&format!(".parameters[{i}]"))
                    ));
                }
                let limits = crate::scene::limits_problems(&at(""), swap.vehicle, swap.turning);
                if let Some(first) = limits.into_iter().next() {
                    return Err(first);
                }
            }
            let targets = change.targets.as_deref().unwrap_or_default();
            names.extend(targets.iter().map(|(name, _)| name.as_str()));
            if names.len() > MAX_NAMES {
                return Err(format!(
                    "{}: the changes name more than {MAX_NAMES} targets, a scene's most",
                    at(".targets")
                ));
            }
            if let Some(i) = targets.iter().position(|(_, at)| !at.is_finite()) {
                return Err(format!(
                    "{}: not a finite point",
                    at(&format!(".targets[{i}]"))
                ));
            }
            if let Some(edit) = &change.scene {
                let scene = edit.scene(targets);
                let problems = [scene.unreadable_numbers(), scene.validate()].concat();
                if let Some(first) = problems.first() {
                    return Err(format!("{}: {first}", at(".scene")));
                }
            }
        }
        Ok(Self {
            graphs,
            programs,
            changes,
        })
    }

    /// The graphs of a file read back, each checked and compiled; `origin` names the file.
    pub(super) fn compile(
        files: Vec<GraphFile>,
    ) -> Result<(Vec<Graph>, Vec<Arc<Program>>), String> {
        let mut graphs = Vec::with_capacity(files.len());
        let mut programs = Vec::with_capacity(files.len());
        for (g, file) in files.into_iter().enumerate() {
            file.check(&format!("graphs[{g}]"))
                .map_err(|error| error.to_string())?;
            let graph = file.into_graph();
            // Kept with its graph, as the editor's: a run of the replay saved again holds it.
            let program = crate::compile_keeping_source(&graph, "", &BTreeMap::new());
            let program = program.map_err(|errors| {
                let first = errors.first().map(ToString::to_string).unwrap_or_default();
                let more = match errors.len() {
                    0 | 1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                };
                format!("graphs[{g}]: does not compile: {first}{more}")
            })?;
            graphs.push(graph);
            programs.push(Arc::new(program));
        }
        Ok((graphs, programs))
    }

    /// The change put in before the step from `tick`, if any.
    pub(super) fn at(&self, tick: u64) -> Option<&Change> {
        let i = self.changes.binary_search_by_key(&tick, |c| c.tick).ok()?;
        self.changes.get(i)
    }

    /// Puts the change at `simulation`'s tick into it, as the editor put the edits in:
    /// graphs first, then the scene, then the targets (one the world lacks is added, as the
    /// editor adds its cursor). Why not, when the change does not fit the scene (a group it
    /// lacks, a graph that makes too much work).
    pub(super) fn put(&self, simulation: &mut Simulation) -> Result<(), String> {
        let Some(change) = self.at(simulation.tick()) else {
            return Ok(());
        };
        let groups = simulation.groups().len();
        for (s, swap) in change.graphs.iter().enumerate() {
            let at = format!("the change at tick {}: graphs[{s}]", change.tick);
            if swap.group >= groups {
                return Err(format!(
                    "{at}: group {} is not among the scene's {groups}",
                    swap.group
                ));
            }
            let program = (self.programs.get(swap.graph))
                .ok_or_else(|| format!("{at}: graph {} is not among the file's", swap.graph))?;
            let program = Arc::clone(program);
            let params = ParamValues {
                values: swap.parameters.clone(),
            };
            let turning = Turning::from(swap.turning);
            simulation
                .swap_program(swap.group, (program, params), (swap.vehicle, turning))
                .map_err(|error| format!("{at}: {error}"))?;
        }
        if let Some(edit) = &change.scene {
            let targets: Vec<(String, Vec2)> = match &change.targets {
                Some(targets) => targets.clone(),
                None => (simulation.world().targets())
                    .map(|(name, at)| (name.to_owned(), at))
                    .collect(),
            };
            simulation.follow_scene(&edit.scene(&targets));
        }
        for (name, at) in change.targets.iter().flatten() {
            if !simulation.move_target(name, *at) {
                // A target the world did not have (the editor's cursor, first put in the
                // world when the mouse first moves over the preview).
                simulation.world_mut().set_target(name, *at);
            }
        }
        Ok(())
    }
}
