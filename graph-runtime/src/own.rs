//! An agent's own goals and routes: points and paths that belong to one agent, set by name by
//! the game (a pathfinder's answer, say) or by the agent's scene group, and read by the nodes
//! whose target is `Own(name)` or whose path is `own`.

mod points;

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec2;

use crate::Path;
use points::Points;

/// One agent's own named points and routes, by name: reading or setting one costs
/// `O(log n)` in the agent's n names, so a group that gives every agent thousands of names
/// sets them up in `O(n log n)` per agent (a list searched from the front made it `n²`). A
/// scene's names are shared between its agents ([`OwnGoals::set_goal_shared`]), not copied
/// per agent.
///
/// Most agents have none, and every agent's state carries one through each tick's cache: the
/// tables sit behind one pointer, so an agent without goals carries 8 bytes, not 48.
#[derive(Clone, Debug, Default)]
pub struct OwnGoals {
    lists: Option<Box<Lists>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Lists {
    points: Points,
    routes: BTreeMap<Arc<str>, Path>,
    /// The points of every route, together (what following them all a tick may scan).
    route_points: u64,
}

impl PartialEq for OwnGoals {
    /// The same points and routes under the same names.
    fn eq(&self, other: &Self) -> bool {
        self.goals().eq(other.goals()) && self.routes().eq(other.routes())
    }
}

impl OwnGoals {
    /// About how many bytes it keeps on the heap (each point and route point with its name).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.lists.as_ref().map_or(0, |lists| {
            let entry = size_of::<Arc<str>>() + 32;
            let points = lists.points.len() * (entry + size_of::<Vec2>());
            let routes: usize = (lists.routes.values())
                .map(|path| entry + size_of::<Path>() + path.points.capacity() * size_of::<Vec2>())
                .sum();
            size_of::<Lists>() + points + routes
        })
    }

    fn lists_mut(&mut self) -> &mut Lists {
        self.lists.get_or_insert_with(Box::default)
    }

    /// Whether no point or route was ever set (nothing on the heap).
    pub(crate) fn is_unset(&self) -> bool {
        self.lists.is_none()
    }

    /// The agent's own point `name`, if it has one.
    pub fn goal(&self, name: &str) -> Option<Vec2> {
        self.goal_ref(name).copied()
    }

    /// [`OwnGoals::goal`] where it is kept: a pointer comes back in a register, a point
    /// through memory (which the evaluator's Seek and Arrival then stalled on). Not inlined:
    /// the map's search inlined made the evaluator's target lookup too big to inline itself.
    #[inline(never)]
    pub(crate) fn goal_ref(&self, name: &str) -> Option<&Vec2> {
        self.lists.as_ref()?.points.get(name)
    }

    /// How many points the agent has, read where they are kept (behind a pointer): the line
    /// [`OwnGoals::goal_ref`] reads next, loaded ahead of it.
    #[inline]
    pub(crate) fn point_count(&self) -> usize {
        self.lists.as_ref().map_or(0, |lists| lists.points.len())
    }

    /// Sets the agent's own point `name` (replacing an earlier one).
    pub fn set_goal(&mut self, name: &str, point: Vec2) {
        let points = &mut self.lists_mut().points;
        points.set(name, || Arc::from(name), point);
    }

    /// [`OwnGoals::set_goal`] with a name shared by many agents (a scene group's goal names):
    /// the name is not copied.
    pub fn set_goal_shared(&mut self, name: &Arc<str>, point: Vec2) {
        self.lists_mut()
            .points
            .set(name, || Arc::clone(name), point);
    }

    /// Forgets the agent's own point `name`; nodes that read it give zero again.
    pub fn clear_goal(&mut self, name: &str) {
        if let Some(lists) = &mut self.lists {
            lists.points.remove(name);
        }
    }

    /// The agent's own route `name`, if it has one.
    pub fn route(&self, name: &str) -> Option<&Path> {
        self.lists.as_ref()?.routes.get(name)
    }

    /// Sets the agent's own route `name` (replacing an earlier one).
    pub fn set_route(&mut self, name: &str, route: Path) {
        let lists = self.lists_mut();
        lists.route_points += route.points.len() as u64;
        match lists.routes.get_mut(name) {
            Some(stored) => {
                lists.route_points -= stored.points.len() as u64;
                *stored = route;
            }
            None => {
                lists.routes.insert(Arc::from(name), route);
            }
        }
    }

    /// Forgets the agent's own route `name`.
    pub fn clear_route(&mut self, name: &str) {
        if let Some(lists) = &mut self.lists
            && let Some(gone) = lists.routes.remove(name)
        {
            lists.route_points -= gone.points.len() as u64;
        }
    }

    /// The points of all the agent's own routes together: what following them may scan in a
    /// tick (a `PathFollowing` agent projects itself onto every segment of its route).
    pub fn route_points(&self) -> u64 {
        self.lists.as_ref().map_or(0, |lists| lists.route_points)
    }

    /// Every own point, in name order.
    pub fn goals(&self) -> impl Iterator<Item = (&str, Vec2)> {
        self.lists
            .iter()
            .flat_map(|lists| lists.points.iter().map(|(n, p)| (&**n, *p)))
    }

    /// Every own route, in name order.
    pub fn routes(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.lists
            .iter()
            .flat_map(|lists| lists.routes.iter().map(|(n, p)| (&**n, p)))
    }
}
