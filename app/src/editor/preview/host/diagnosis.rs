//! What holds the selected agent (`graph_runtime::diagnose`), worked out with its trace each
//! frame, and which agents are stuck now: the stuck panel's input.

use graph_runtime::diagnose::{Diagnosis, diagnose, diagnose_traced};

use super::Host;

impl Host {
    /// Works out what holds the selected agent now, from the trace just made of it (its
    /// output force `net`; none without a selection or a simulation).
    pub(super) fn diagnose_selected(&mut self, net: Option<glam::Vec2>) {
        self.diagnosis = (self.selected_agent)
            .zip(self.simulation.as_ref())
            .zip(net)
            .and_then(|((agent, simulation), net)| {
                diagnose_traced(simulation, agent, &self.trace, net)
            });
    }

    /// Whether agent `agent` is stuck now: on the stuck clock, or stalled (far from its goal
    /// and no closer for a while).
    pub fn is_held(&self, agent: usize) -> bool {
        let clock = (self.simulation.as_ref()).map_or(0.0, |s| s.stuck_for(agent));
        graph_runtime::is_stuck(clock) || self.stalled_for(agent).is_some()
    }

    /// How many agents are stuck now.
    pub fn held_count(&self) -> usize {
        (0..self.agent_count())
            .filter(|&agent| self.is_held(agent))
            .count()
    }

    /// Every agent stuck now, diagnosed, ascending.
    pub fn held_diagnoses(&self) -> Vec<Diagnosis> {
        let Some(simulation) = self.simulation.as_ref() else {
            return Vec::new();
        };
        (0..simulation.vehicles().len())
            .filter(|&agent| self.is_held(agent))
            .filter_map(|agent| diagnose(simulation, agent, self.tick_length))
            .collect()
    }
}
