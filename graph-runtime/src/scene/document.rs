//! A scene as data: bounds, seed, targets, obstacles, walls, gaps, paths, jump links, flow
//! fields and agent groups, as stored in `.scene.ron` files.

use std::collections::BTreeMap;
use std::path::Path as FilePath;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::format::{self, AssetKind, FORMAT_VERSION, LoadError, SaveError, VERSION_1};
use crate::world::{FlowFieldData, Gap, JumpLink, Obstacle, Path, Rect, Wall};
use crate::{FlowField, TurningParams, VehicleParams};

/// A scene: bounds, obstacles, walls, paths, targets, flow fields and the agent groups that run
/// graphs in it. File paths inside are relative to the scene file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// Free text shown to designers.
    pub description: String,
    /// The playing area (units).
    pub bounds: Rect,
    /// Seed of spawning and of every agent's RNG.
    pub seed: u64,
    /// Named points (the editor moves `"cursor"` with the mouse).
    pub targets: BTreeMap<String, Vec2>,
    /// Circle obstacles.
    pub obstacles: Vec<Obstacle>,
    /// Walls: polylines and polygons agents do not cross. Not written when empty, so a scene
    /// without walls saves exactly as before walls existed.
    pub walls: Vec<Wall>,
    /// Whether agents' steps pass through walls, for a game whose own physics keeps agents
    /// out (then crossings are counted). By default (`false`, not written) walls are solid: a
    /// step that would cross one is stopped and slides along it.
    pub passable_walls: bool,
    /// Gaps: regions walking agents fall into (a chasm, a pit), flown over by jumps. Not
    /// written when empty.
    pub gaps: Vec<Gap>,
    /// Named paths.
    pub paths: BTreeMap<String, Path>,
    /// Named jump links, from a take-off point to a landing point, for Jump nodes. Not
    /// written when empty.
    pub jump_links: BTreeMap<String, JumpLink>,
    /// Named flow fields, inline or in `.flow.ron` files.
    pub flow_fields: BTreeMap<String, FlowFieldSource>,
    /// Agent groups, spawned in order (agent indices follow this order).
    pub groups: Vec<AgentGroup>,
}

/// Where a scene's flow field comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum FlowFieldSource {
    /// A `.flow.ron` file, relative to the scene file.
    File(String),
    /// Stored in the scene itself.
    Inline(FlowField),
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "FlowFieldSource")]
enum FlowFieldSourceFile {
    File(String),
    Inline(FlowFieldData),
}

impl From<&FlowFieldSource> for FlowFieldSourceFile {
    fn from(source: &FlowFieldSource) -> Self {
        match source {
            FlowFieldSource::File(path) => Self::File(path.clone()),
            FlowFieldSource::Inline(field) => Self::Inline(field.to_data()),
        }
    }
}

/// A group of agents sharing a graph, vehicle limits, tags and parameter overrides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentGroup {
    /// Shown in the editor and in errors.
    pub name: String,
    /// The graph file, relative to the scene file.
    pub graph: String,
    /// How the agents are placed.
    pub spawn: Spawn,
    /// Vehicle limits; `None` takes the graph's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vehicle: Option<VehicleParams>,
    /// How the agents turn (independent facing, angular limits, turn-rate limit); `None`
    /// takes the graph's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turning: Option<TurningParams>,
    /// Tags every agent of the group carries (for `NearestTagged` targets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The agents' avoidance priority and layers (`BEHAVIORS.md`, "Avoidance priority and
    /// layers"); `None`: priority 1, on layer 1, avoiding layer 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoidance: Option<crate::AvoidanceSettings>,
    /// Graph parameter overrides by name.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::unique::names"
    )]
    pub parameters: BTreeMap<String, f32>,
    /// The agents' own points by name, for the graph's `Own(name)` targets (a game sets them
    /// with `Crowd::set_goal`). Not written when empty.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::unique::names"
    )]
    pub goals: BTreeMap<String, OwnPoints>,
}

impl AgentGroup {
    /// A group `name` running the graph file `graph` (relative to the scene file), placed by
    /// `spawn`, with its graph's vehicle limits and turning, and no tags, parameter overrides
    /// or own points; set those fields for more:
    /// `AgentGroup { tags: vec!["leader".into()], ..AgentGroup::new("a", "a.graph.ron", spawn) }`.
    pub fn new(name: impl Into<String>, graph: impl Into<String>, spawn: Spawn) -> Self {
        Self {
            name: name.into(),
            graph: graph.into(),
            spawn,
            vehicle: None,
            turning: None,
            tags: Vec::new(),
            avoidance: None,
            parameters: BTreeMap::new(),
            goals: BTreeMap::new(),
        }
    }
}

/// How a group gives each of its agents an own point of one name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OwnPoints {
    /// The group's agent `i` (in spawn order) gets `points[i % points.len()]`.
    Each(Vec<Vec2>),
    /// Each agent gets a random point of the area, drawn from the scene seed (the same points
    /// every run).
    Random(Area),
}

/// How a group's agents are placed at the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Spawn {
    /// `count` agents at seeded random places in `area`, with random headings and the given
    /// initial speed (units / s).
    Random {
        /// Number of agents.
        count: u32,
        /// Where they appear.
        area: Area,
        /// Initial speed along a random heading (units / s, `>= 0`).
        #[serde(default)]
        speed: f32,
    },
    /// Agents at given places.
    Agents(Vec<AgentSpawn>),
}

impl Spawn {
    /// How many agents this spawns.
    pub fn count(&self) -> usize {
        match self {
            Self::Random { count, .. } => *count as usize,
            Self::Agents(agents) => agents.len(),
        }
    }
}

/// One explicitly placed agent.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSpawn {
    /// Start position (units).
    pub position: Vec2,
    /// Start velocity (units / s).
    #[serde(default)]
    pub velocity: Vec2,
}

/// A spawn area.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Area {
    /// A rectangle.
    Rect {
        /// Lower-left corner.
        min: Vec2,
        /// Upper-right corner.
        max: Vec2,
    },
    /// A disc.
    Circle {
        /// Centre.
        center: Vec2,
        /// Radius (units, `>= 0`).
        radius: f32,
    },
}

impl Area {
    /// A point of the area drawn from `rng`: uniform over a rectangle, and over a disc (two
    /// draws each).
    pub fn random_point(&self, rng: &mut crate::AgentRng) -> Vec2 {
        match *self {
            Area::Rect { min, max } => min + (max - min) * Vec2::new(rng.unit(), rng.unit()),
            Area::Circle { center, radius } => {
                let distance = radius * rng.unit().sqrt();
                let angle = rng.unit() * std::f32::consts::TAU;
                center + Vec2::from_angle(angle) * distance
            }
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    format: String,
    version: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String,
    bounds: Rect,
    #[serde(default)]
    seed: u64,
    #[serde(default, deserialize_with = "crate::unique::names")]
    targets: BTreeMap<String, Vec2>,
    #[serde(default)]
    obstacles: Vec<Obstacle>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    walls: Vec<Wall>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    passable_walls: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    gaps: Vec<Gap>,
    #[serde(default, deserialize_with = "crate::unique::names")]
    paths: BTreeMap<String, Path>,
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::unique::names"
    )]
    jump_links: BTreeMap<String, JumpLink>,
    #[serde(default, deserialize_with = "crate::unique::names")]
    flow_fields: BTreeMap<String, FlowFieldSourceFile>,
    groups: Vec<AgentGroup>,
}

impl Scene {
    /// Parses a scene from RON text; `origin` names it in errors. Inline flow fields are
    /// validated, and a number that is not finite (NaN, infinite, or too large for `f32`, such
    /// as `1e39`), a path longer than [`crate::limits::MAX_PATH_POINTS`] or walls with more
    /// than [`crate::limits::MAX_WALL_POINTS`] points in all is refused, naming its place
    /// (`paths["patrol"].points[3]`, `walls[2].points[0]`).
    pub fn from_ron(text: &str, origin: &str) -> Result<Self, LoadError> {
        let file: SceneFile = format::parse(text, origin, AssetKind::Scene)?;
        let mut flow_fields = BTreeMap::new();
        for (name, source) in file.flow_fields {
            let source = match source {
                FlowFieldSourceFile::File(path) => FlowFieldSource::File(path),
                FlowFieldSourceFile::Inline(data) => {
                    let field =
                        FlowField::from_data(data).map_err(|message| LoadError::Invalid {
                            path: origin.to_owned(),
                            message: format!("flow field \"{name}\": {message}"),
                        })?;
                    FlowFieldSource::Inline(field)
                }
            };
            flow_fields.insert(name, source);
        }
        let scene = Self {
            description: file.description,
            bounds: file.bounds,
            seed: file.seed,
            targets: file.targets,
            obstacles: file.obstacles,
            walls: file.walls,
            passable_walls: file.passable_walls,
            gaps: file.gaps,
            paths: file.paths,
            jump_links: file.jump_links,
            flow_fields,
            groups: file.groups,
        };
        // Numbers no editor can show or fix are refused at load; ranges are checked by
        // `Scene::validate` (a scene being edited may be out of range for a while).
        let unreadable = scene.unreadable_numbers();
        if let Some(first) = unreadable.first() {
            let more = match unreadable.len() {
                1 => String::new(),
                count => format!(" (and {} more problems like it)", count - 1),
            };
            return Err(LoadError::Invalid {
                path: origin.to_owned(),
                message: format!("{first}{more}"),
            });
        }
        Ok(scene)
    }

    /// Reads and parses a `.scene.ron` file (not the files it refers to; see
    /// [`crate::SceneAssets::load`]).
    pub fn load(path: &FilePath) -> Result<Self, LoadError> {
        let (text, origin) = format::read_text(path)?;
        Self::from_ron(&text, &origin)
    }

    /// The oldest format version that holds this scene: 1 unless it has gaps, jump links,
    /// a group's `turning` or passable walls ([`FORMAT_VERSION`]).
    pub fn format_version(&self) -> u32 {
        if self.gaps.is_empty()
            && self.jump_links.is_empty()
            && !self.passable_walls
            && self.groups.iter().all(|group| group.turning.is_none())
        {
            VERSION_1
        } else {
            FORMAT_VERSION
        }
    }

    /// The scene as RON text, in the oldest format version that holds it
    /// ([`Scene::format_version`]).
    pub fn to_ron(&self) -> Result<String, SaveError> {
        format::to_text(&SceneFile {
            format: AssetKind::Scene.tag().to_owned(),
            version: self.format_version(),
            description: self.description.clone(),
            bounds: self.bounds,
            seed: self.seed,
            targets: self.targets.clone(),
            obstacles: self.obstacles.clone(),
            walls: self.walls.clone(),
            passable_walls: self.passable_walls,
            gaps: self.gaps.clone(),
            paths: self.paths.clone(),
            jump_links: self.jump_links.clone(),
            flow_fields: self
                .flow_fields
                .iter()
                .map(|(k, v)| (k.clone(), v.into()))
                .collect(),
            groups: self.groups.clone(),
        })
    }

    /// Saves the scene atomically.
    pub fn save(&self, path: &FilePath) -> Result<(), SaveError> {
        crate::save::write_atomically(path, self.to_ron()?)
    }
}
