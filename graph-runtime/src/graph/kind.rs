//! The catalogue's families ([`Category`]) and what a node reads ([`Reads`]); the kinds
//! themselves are the node table's (`node.rs`).

use std::fmt;

use super::NodeKind;

/// The family a node kind belongs to, as the editor groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// Behaviors of one agent against targets and the world.
    Behavior,
    /// Behaviors that look at neighbors.
    GroupBehavior,
    /// The angular layer (facing), velocity matching and jumps.
    Facing,
    /// Nodes that combine steering forces.
    Combiner,
    /// Sensors, conditions and parameter values.
    Condition,
    /// The graph's output.
    Output,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Behavior => "Behaviors",
            Self::GroupBehavior => "Group behaviors",
            Self::Facing => "Facing and jumps",
            Self::Combiner => "Combiners",
            Self::Condition => "Conditions and parameters",
            Self::Output => "Output",
        })
    }
}

/// What a node reads besides its own agent, the world and the graph's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reads {
    /// Nothing more (a target of the node may still be another agent: `NearestTagged`).
    Own,
    /// The neighbors' positions and velocities, summed from the spatial grid's copies.
    Grid,
    /// Other agents' vehicles one by one, by index (the candidates of the spatial grid).
    Agents,
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
