//! Each agent's own goals and routes, as a component the game changes.

use bevy_ecs::component::Component;
use graph_runtime::OwnGoals;

/// An agent's own points and routes, for its graph's `Own(name)` targets and `own` routes:
/// what the game's pathfinder picked for this one agent. Change it whenever the goal changes
/// (`goals.0.set_goal("goal", point)`, `goals.0.set_route("route", path)`); the plugin hands
/// it to the runtime before the agent's next tick. An agent without the component, or
/// without a goal of a name, gets zero from the nodes that read it. [`crate::spawn_scene`]
/// adds it to agents whose scene group gives them `goals`.
///
/// Values should be finite; `graph_runtime::Crowd::set_goal` shows the checks a game may
/// want before setting one.
#[derive(Component, Debug, Clone, Default, PartialEq)]
pub struct SteerGoals(pub OwnGoals);
