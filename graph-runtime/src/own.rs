//! An agent's own goals and routes: points and paths that belong to one agent, set by name by
//! the game (a pathfinder's answer, say) or by the agent's scene group, and read by the nodes
//! whose target is `Own(name)` or whose path is `own`.

use glam::Vec2;

use crate::Path;

/// One agent's own named points and routes. Names are few per agent, so they are kept in
/// small lists; reading one allocates nothing, setting a new name may.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnGoals {
    points: Vec<(String, Vec2)>,
    routes: Vec<(String, Path)>,
}

impl OwnGoals {
    /// The agent's own point `name`, if it has one.
    pub fn goal(&self, name: &str) -> Option<Vec2> {
        self.points
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, point)| *point)
    }

    /// Sets the agent's own point `name` (replacing an earlier one).
    pub fn set_goal(&mut self, name: &str, point: Vec2) {
        match self.points.iter_mut().find(|(n, _)| n == name) {
            Some((_, stored)) => *stored = point,
            None => self.points.push((name.to_owned(), point)),
        }
    }

    /// Forgets the agent's own point `name`; nodes that read it give zero again.
    pub fn clear_goal(&mut self, name: &str) {
        self.points.retain(|(n, _)| n != name);
    }

    /// The agent's own route `name`, if it has one.
    pub fn route(&self, name: &str) -> Option<&Path> {
        self.routes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, path)| path)
    }

    /// Sets the agent's own route `name` (replacing an earlier one).
    pub fn set_route(&mut self, name: &str, route: Path) {
        match self.routes.iter_mut().find(|(n, _)| n == name) {
            Some((_, stored)) => *stored = route,
            None => self.routes.push((name.to_owned(), route)),
        }
    }

    /// Forgets the agent's own route `name`.
    pub fn clear_route(&mut self, name: &str) {
        self.routes.retain(|(n, _)| n != name);
    }

    /// Every own point, in the order they were first set.
    pub fn goals(&self) -> impl Iterator<Item = (&str, Vec2)> {
        self.points.iter().map(|(n, p)| (n.as_str(), *p))
    }

    /// Every own route, in the order they were first set.
    pub fn routes(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.routes.iter().map(|(n, p)| (n.as_str(), p))
    }
}
