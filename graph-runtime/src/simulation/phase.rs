//! The phases of a tick, in the order [`Simulation::step`](super::Simulation::step) runs them:
//! what [`Simulation::step_observed`](super::Simulation::step_observed) reports as each ends,
//! for a profiler to time (issue 47: which of them run on one thread while the others wait).

/// One phase of a tick, named by what it does. Each parallel phase splits its work over the
/// rayon pool; the others run on the calling thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TickPhase {
    /// The neighbor grid rebuilt from the agents' positions (graphs that read neighbors only):
    /// a counting sort into cells, in parallel parts from 8,192 agents, on one thread below.
    Grid,
    /// The agents' arrays re-sorted into the grid's cell order (every few ticks), in parallel.
    Resort,
    /// The k-d tree built over the cells for crowds too dense for them, in parallel halves.
    Tree,
    /// The vehicles copied into agent order for graphs that read other agents by index, in
    /// parallel.
    AgentOrder,
    /// The members of tags that enough agents read placed in their own cells (one thread).
    Tags,
    /// The routes Navigate nodes ask for planned, a bounded number a tick.
    Routes,
    /// Every agent steered and stepped, batch by batch, in parallel chunks.
    Steer,
    /// Flights, landings and falls moved on (one thread), and the tick counted.
    Jumps,
}

impl TickPhase {
    /// Every phase, in the order a tick runs them.
    pub const ALL: [Self; 8] = [
        Self::Grid,
        Self::Resort,
        Self::Tree,
        Self::AgentOrder,
        Self::Tags,
        Self::Routes,
        Self::Steer,
        Self::Jumps,
    ];
}
