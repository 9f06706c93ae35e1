//! An agent's own goals and routes: points and paths that belong to one agent, set by name by
//! the game (a pathfinder's answer, say) or by the agent's scene group, and read by the nodes
//! whose target is `Own(name)` or whose path is `own`.

use glam::Vec2;

use crate::Path;

/// One agent's own named points and routes. Names are few per agent, so they are kept in
/// small lists; reading one allocates nothing, setting a new name may.
///
/// Most agents have none, and every agent's state carries one through each tick's cache: the
/// lists sit behind one pointer, so an agent without goals carries 8 bytes, not 48.
#[derive(Clone, Debug, Default)]
pub struct OwnGoals {
    lists: Option<Box<Lists>>,
}

#[derive(Clone, Debug, Default)]
struct Lists {
    points: Vec<(String, Vec2)>,
    routes: Vec<(String, Path)>,
}

impl PartialEq for OwnGoals {
    /// The same points and routes, in the same order.
    fn eq(&self, other: &Self) -> bool {
        self.points() == other.points() && self.route_list() == other.route_list()
    }
}

impl OwnGoals {
    fn points(&self) -> &[(String, Vec2)] {
        self.lists.as_ref().map_or(&[], |lists| &lists.points)
    }

    fn route_list(&self) -> &[(String, Path)] {
        self.lists.as_ref().map_or(&[], |lists| &lists.routes)
    }

    fn lists_mut(&mut self) -> &mut Lists {
        self.lists.get_or_insert_with(Box::default)
    }

    /// The agent's own point `name`, if it has one.
    pub fn goal(&self, name: &str) -> Option<Vec2> {
        self.points()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, point)| *point)
    }

    /// Sets the agent's own point `name` (replacing an earlier one).
    pub fn set_goal(&mut self, name: &str, point: Vec2) {
        let points = &mut self.lists_mut().points;
        match points.iter_mut().find(|(n, _)| n == name) {
            Some((_, stored)) => *stored = point,
            None => points.push((name.to_owned(), point)),
        }
    }

    /// Forgets the agent's own point `name`; nodes that read it give zero again.
    pub fn clear_goal(&mut self, name: &str) {
        if let Some(lists) = &mut self.lists {
            lists.points.retain(|(n, _)| n != name);
        }
    }

    /// The agent's own route `name`, if it has one.
    pub fn route(&self, name: &str) -> Option<&Path> {
        self.route_list()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, path)| path)
    }

    /// Sets the agent's own route `name` (replacing an earlier one).
    pub fn set_route(&mut self, name: &str, route: Path) {
        let routes = &mut self.lists_mut().routes;
        match routes.iter_mut().find(|(n, _)| n == name) {
            Some((_, stored)) => *stored = route,
            None => routes.push((name.to_owned(), route)),
        }
    }

    /// Forgets the agent's own route `name`.
    pub fn clear_route(&mut self, name: &str) {
        if let Some(lists) = &mut self.lists {
            lists.routes.retain(|(n, _)| n != name);
        }
    }

    /// Every own point, in the order they were first set.
    pub fn goals(&self) -> impl Iterator<Item = (&str, Vec2)> {
        self.points().iter().map(|(n, p)| (n.as_str(), *p))
    }

    /// Every own route, in the order they were first set.
    pub fn routes(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.route_list().iter().map(|(n, p)| (n.as_str(), p))
    }
}
