//! An agent's own points by name, kept so that the usual agent (one point: its scene group's
//! goal) reads it without leaving its lists.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec2;

/// Named points: none, one kept in place, or two and more in a map (ordered by name, read and
/// set in `O(log n)`). A lone point used to sit in a map node of its own: reading an agent's
/// goal then loaded the lists and then the node, two dependent cache misses for each agent of
/// 100,000 walked in cell order (7 % of a Reciprocal tick, issue 47).
///
/// `Many` always holds two or more: each set of points has one form, so the derived equality
/// is equality of the points.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) enum Points {
    #[default]
    None,
    One(Arc<str>, Vec2),
    Many(BTreeMap<Arc<str>, Vec2>),
}

impl Points {
    /// How many points.
    pub(super) fn len(&self) -> usize {
        match self {
            Self::None => 0,
            Self::One(..) => 1,
            Self::Many(map) => map.len(),
        }
    }

    /// The point `name`.
    #[inline]
    pub(super) fn get(&self, name: &str) -> Option<&Vec2> {
        match self {
            Self::None => None,
            // The program's own string (see `simulation/build.rs`): the same pointer and
            // length are the same name, without reading it.
            Self::One(own, point) => {
                let same = std::ptr::eq(own.as_ptr(), name.as_ptr()) && own.len() == name.len();
                (same || **own == *name).then_some(point)
            }
            Self::Many(map) => map.get(name),
        }
    }

    /// Sets the point `name` to `point`; `shared` gives the name to keep when it is new.
    pub(super) fn set(&mut self, name: &str, shared: impl FnOnce() -> Arc<str>, point: Vec2) {
        *self = match std::mem::take(self) {
            Self::None => Self::One(shared(), point),
            Self::One(own, _) if *own == *name => Self::One(own, point),
            Self::One(own, stored) => {
                Self::Many(BTreeMap::from([(own, stored), (shared(), point)]))
            }
            Self::Many(mut map) => {
                match map.get_mut(name) {
                    Some(stored) => *stored = point,
                    None => {
                        map.insert(shared(), point);
                    }
                }
                Self::Many(map)
            }
        };
    }

    /// Forgets the point `name`, if there is one.
    pub(super) fn remove(&mut self, name: &str) {
        match self {
            Self::None => {}
            Self::One(own, _) => {
                if **own == *name {
                    *self = Self::None;
                }
            }
            Self::Many(map) => {
                map.remove(name);
                if map.len() <= 1 {
                    *self = match map.pop_first() {
                        Some((own, point)) => Self::One(own, point),
                        None => Self::None,
                    };
                }
            }
        }
    }

    /// Every point, in name order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Vec2)> {
        let (one, many) = match self {
            Self::None => (None, None),
            Self::One(own, point) => (Some((own, point)), None),
            Self::Many(map) => (None, Some(map.iter())),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(points: &Points) -> Vec<(String, [f32; 2])> {
        (points.iter())
            .map(|(name, point)| (name.to_string(), point.to_array()))
            .collect()
    }

    /// A lone point is found under its own string (the program's, shared: the pointers
    /// compared) and under an equal name held elsewhere (the bytes compared), not under a
    /// shorter name at the same address.
    #[test]
    fn a_lone_point_is_found_by_its_shared_name_or_by_an_equal_one() {
        let name: Arc<str> = Arc::from("goal");
        let mut points = Points::default();
        points.set(&name, || Arc::clone(&name), Vec2::X);
        assert!(matches!(&points, Points::One(own, _) if Arc::ptr_eq(own, &name)));
        assert_eq!(points.get(&name), Some(&Vec2::X));
        let elsewhere = String::from("goal");
        assert_eq!(points.get(&elsewhere), Some(&Vec2::X));
        assert_eq!(points.get(&name[..2]), None);
        assert_eq!(points.get("goals"), None);
    }

    /// The count a batch reads ahead of its lookups (`OwnGoals::point_count`) is the agent's
    /// number of points, set or cleared.
    #[test]
    fn an_agents_point_count_is_its_number_of_points() {
        let mut own = crate::OwnGoals::default();
        assert_eq!(own.point_count(), 0);
        own.set_goal("goal", Vec2::X);
        own.set_goal("goal", Vec2::Y);
        assert_eq!(own.point_count(), 1);
        own.set_goal("home", Vec2::Y);
        assert_eq!(own.point_count(), 2);
        own.clear_goal("goal");
        own.clear_goal("home");
        assert_eq!(own.point_count(), 0);
    }

    #[test]
    fn points_keep_one_form_for_each_set_of_names_through_sets_and_removals() {
        let mut points = Points::default();
        let set = |points: &mut Points, name: &str, x: f32| {
            points.set(name, || Arc::from(name), Vec2::new(x, 0.0));
        };
        set(&mut points, "goal", 1.0);
        assert!(matches!(points, Points::One(..)));
        // Set again: replaced in place, still one.
        set(&mut points, "goal", 2.0);
        assert_eq!(points.get("goal"), Some(&Vec2::new(2.0, 0.0)));
        assert_eq!(points.get("home"), None);
        assert_eq!(points.len(), 1);
        // A second name: a map, read in name order.
        set(&mut points, "exit", 3.0);
        set(&mut points, "home", 4.0);
        assert!(matches!(points, Points::Many(_)));
        assert_eq!(
            names(&points),
            [
                ("exit".into(), [3.0, 0.0]),
                ("goal".into(), [2.0, 0.0]),
                ("home".into(), [4.0, 0.0])
            ]
        );
        // Removing a name that is not there changes nothing; down to one, the lone form again,
        // equal to the same point set from nothing.
        points.remove("nowhere");
        assert_eq!(points.len(), 3);
        points.remove("exit");
        points.remove("goal");
        let mut alone = Points::default();
        set(&mut alone, "home", 4.0);
        assert_eq!(points, alone);
        assert!(matches!(points, Points::One(..)));
        // A lone point removed under another name stays; under its own, nothing is left.
        points.remove("goal");
        assert_eq!(points.len(), 1);
        points.remove("home");
        assert_eq!(points, Points::None);
        assert_eq!(points.iter().count(), 0);
    }
}
