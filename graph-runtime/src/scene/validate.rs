//! Checking every number and count of a scene, each problem named by its place in the file
//! (`groups[1] ("boids").spawn.agents[3].position`).

use std::collections::BTreeMap;

use glam::Vec2;

use super::{Area, OwnPoints, Scene, Spawn};
use crate::limits::{
    MAX_AGENTS, MAX_COORDINATE, MAX_GAP_POINTS, MAX_JUMP_LINKS, MAX_OWN_GOALS, MAX_PATH_POINTS,
    MAX_WALL_POINTS, MIN_MASS,
};

/// Collects problems; `strict` checks ranges and limits too, otherwise only what cannot be
/// represented at all (numbers that are not finite, paths over the point limit).
struct Checker {
    strict: bool,
    problems: Vec<String>,
}

/// A number as a person reads it: `3e38` rather than 39 digits.
fn number(value: f32) -> String {
    if value.is_finite() && value.abs() >= 1e7 {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

/// A point as written in a scene file: `(x, y)`.
fn point(value: Vec2) -> String {
    format!("({}, {})", number(value.x), number(value.y))
}

impl Checker {
    /// A position or velocity: finite, each coordinate within [`MAX_COORDINATE`].
    fn point(&mut self, place: &str, value: Vec2) {
        if !value.is_finite() {
            self.problems
                .push(format!("{place}: {} is not a finite point", point(value)));
        } else if self.strict && value.abs().max_element() > MAX_COORDINATE {
            self.problems.push(format!(
                "{place}: {} is out of range: coordinates must lie within ±{MAX_COORDINATE:e}",
                point(value)
            ));
        }
    }

    /// An area's corners, or its centre and radius.
    fn area(&mut self, place: &str, area: &Area) {
        match *area {
            Area::Rect { min, max } => {
                self.point(&format!("{place}.min"), min);
                self.point(&format!("{place}.max"), max);
            }
            Area::Circle { center, radius } => {
                self.point(&format!("{place}.center"), center);
                self.amount(&format!("{place}.radius"), radius, false);
            }
        }
    }

    /// A coordinate on its own (a height): finite, within [`MAX_COORDINATE`].
    fn coordinate(&mut self, place: &str, value: f32) {
        if !value.is_finite() {
            self.problems
                .push(format!("{place}: {} is not a finite number", number(value)));
        } else if self.strict && value.abs() > MAX_COORDINATE {
            self.problems.push(format!(
                "{place}: {} is out of range: it must lie within ±{MAX_COORDINATE:e}",
                number(value)
            ));
        }
    }

    /// A size, speed or mass: finite, `>= 0` (a mass: `>= MIN_MASS`), at most
    /// [`MAX_COORDINATE`].
    fn amount(&mut self, place: &str, value: f32, mass: bool) {
        if !value.is_finite() {
            self.problems
                .push(format!("{place}: {} is not a finite number", number(value)));
            return;
        }
        let low = if mass { MIN_MASS } else { 0.0 };
        if self.strict && !(value >= low && value <= MAX_COORDINATE) {
            let bound = if mass { ">= 1e-6" } else { ">= 0" };
            self.problems.push(format!(
                "{place}: {} must be a finite number {bound} and at most {MAX_COORDINATE:e}",
                number(value)
            ));
        }
    }
}

/// The problems of vehicle limits and turning given to a group's agents (a replay file's
/// graph swapped in), each naming its place under `place`, checked as a scene group's.
pub(crate) fn limits_problems(
    place: &str,
    vehicle: crate::VehicleParams,
    turning: crate::TurningParams,
) -> Vec<String> {
    let mut check = Checker {
        strict: true,
        problems: Vec::new(),
    };
    check_vehicle(&mut check, place, Some(&vehicle), Some(&turning));
    check.problems
}

/// A group's vehicle limits, turning and avoidance settings.
fn check_limits(check: &mut Checker, place: &str, group: &super::AgentGroup) {
    check_vehicle(check, place, group.vehicle.as_ref(), group.turning.as_ref());
    if let Some(avoidance) = &group.avoidance
        && let Err(problem) = crate::Avoidance::from_settings(avoidance)
    {
        check.problems.push(format!("{place}.avoidance: {problem}"));
    }
}

/// A group's vehicle limits and turning, each given or not.
fn check_vehicle(
    check: &mut Checker,
    place: &str,
    vehicle: Option<&crate::VehicleParams>,
    turning: Option<&crate::TurningParams>,
) {
    if let Some(vehicle) = vehicle {
        check.amount(&format!("{place}.vehicle.mass"), vehicle.mass, true);
        check.amount(
            &format!("{place}.vehicle.max_force"),
            vehicle.max_force,
            false,
        );
        check.amount(
            &format!("{place}.vehicle.max_speed"),
            vehicle.max_speed,
            false,
        );
        check.amount(&format!("{place}.vehicle.radius"), vehicle.radius, false);
    }
    if let Some(turning) = turning {
        for (field, value) in [
            ("max_angular_speed", Some(turning.max_angular_speed)),
            (
                "max_angular_acceleration",
                Some(turning.max_angular_acceleration),
            ),
            ("max_turn_rate", turning.max_turn_rate),
        ] {
            if let Some(value) = value {
                check.amount(&format!("{place}.turning.{field}"), value, false);
            }
        }
    }
}

impl Scene {
    /// Checks every number, shape and count; each message names its place
    /// (`groups[1] ("boids").vehicle.mass`, `paths["patrol"].points[3]`).
    ///
    /// Coordinates, sizes and speeds must be finite and within
    /// [`MAX_COORDINATE`](crate::limits::MAX_COORDINATE); the scene may spawn at most
    /// [`MAX_AGENTS`](crate::limits::MAX_AGENTS) agents and each path hold at most
    /// [`MAX_PATH_POINTS`](crate::limits::MAX_PATH_POINTS) points, the walls
    /// [`MAX_WALL_POINTS`](crate::limits::MAX_WALL_POINTS) points in all, each wall at least
    /// two; group names are unique.
    pub fn validate(&self) -> Vec<String> {
        self.check(true)
    }

    /// The numbers of the scene that are not finite, and paths over the point limit: what the
    /// loader refuses outright.
    pub(crate) fn unreadable_numbers(&self) -> Vec<String> {
        self.check(false)
    }

    /// How many agents the scene spawns, all groups together.
    pub fn agent_count(&self) -> u64 {
        self.groups
            .iter()
            .map(|group| group.spawn.count() as u64)
            .sum()
    }

    /// Walls: the point limit over all walls together, at least two points each (strict), and
    /// every point finite and in range.
    fn check_walls(&self, check: &mut Checker) {
        let total: usize = self.walls.iter().map(|wall| wall.points.len()).sum();
        if total > MAX_WALL_POINTS {
            check.problems.push(format!(
                "walls: {total} points in all; a scene's walls may have at most {MAX_WALL_POINTS}"
            ));
            return;
        }
        for (index, wall) in self.walls.iter().enumerate() {
            let place = format!("walls[{index}]");
            if check.strict && wall.points.len() < 2 {
                check
                    .problems
                    .push(format!("{place}: a wall needs at least two points"));
            }
            for (at, &point) in wall.points.iter().enumerate() {
                check.point(&format!("{place}.points[{at}]"), point);
            }
        }
    }

    /// Gaps: the point limit over all gaps together, at least three corners each (strict),
    /// every corner finite and in range.
    fn check_gaps(&self, check: &mut Checker) {
        let total: usize = self.gaps.iter().map(|gap| gap.points.len()).sum();
        if total > MAX_GAP_POINTS {
            check.problems.push(format!(
                "gaps: {total} points in all; a scene's gaps may have at most {MAX_GAP_POINTS}"
            ));
            return;
        }
        for (index, gap) in self.gaps.iter().enumerate() {
            let place = format!("gaps[{index}]");
            if check.strict && gap.points.len() < 3 {
                check
                    .problems
                    .push(format!("{place}: a gap needs at least three corners"));
            }
            for (at, &point) in gap.points.iter().enumerate() {
                check.point(&format!("{place}.points[{at}]"), point);
            }
        }
    }

    /// Jump links: at most [`MAX_JUMP_LINKS`] (strict), every point and height finite and in
    /// range.
    fn check_jump_links(&self, check: &mut Checker) {
        if check.strict && self.jump_links.len() > MAX_JUMP_LINKS {
            check.problems.push(format!(
                "jump_links: {} links; a scene may have at most {MAX_JUMP_LINKS}",
                self.jump_links.len()
            ));
        }
        for (name, link) in &self.jump_links {
            let place = format!("jump_links[\"{name}\"]");
            check.point(&format!("{place}.from"), link.from);
            check.point(&format!("{place}.to"), link.to);
            for (field, height) in [
                ("from_height", link.from_height),
                ("to_height", link.to_height),
            ] {
                check.coordinate(&format!("{place}.{field}"), height);
            }
        }
    }

    fn check_paths(&self, check: &mut Checker) {
        for (name, path) in &self.paths {
            let place = format!("paths[\"{name}\"]");
            if path.points.len() > MAX_PATH_POINTS {
                check.problems.push(format!(
                    "{place}: {} points; a path may have at most {MAX_PATH_POINTS}",
                    path.points.len()
                ));
                continue;
            }
            if check.strict && path.points.is_empty() {
                check
                    .problems
                    .push(format!("{place}: a path needs at least one point"));
            }
            for (index, &point) in path.points.iter().enumerate() {
                check.point(&format!("{place}.points[{index}]"), point);
            }
            check.amount(&format!("{place}.radius"), path.radius, false);
        }
    }

    fn check(&self, strict: bool) -> Vec<String> {
        let mut check = Checker {
            strict,
            problems: Vec::new(),
        };
        check.point("bounds.min", self.bounds.min);
        check.point("bounds.max", self.bounds.max);
        if strict
            && self.bounds.min.is_finite()
            && self.bounds.max.is_finite()
            && self.bounds.min.cmpge(self.bounds.max).any()
        {
            check.problems.push(format!(
                "bounds: min {} must be below and left of max {}",
                point(self.bounds.min),
                point(self.bounds.max)
            ));
        }
        for (name, &position) in &self.targets {
            check.point(&format!("targets[\"{name}\"]"), position);
        }
        for (index, obstacle) in self.obstacles.iter().enumerate() {
            check.point(&format!("obstacles[{index}].center"), obstacle.center);
            check.amount(
                &format!("obstacles[{index}].radius"),
                obstacle.radius,
                false,
            );
        }
        self.check_walls(&mut check);
        self.check_gaps(&mut check);
        self.check_paths(&mut check);
        self.check_jump_links(&mut check);
        let mut first_with_name: BTreeMap<&str, usize> = BTreeMap::new();
        for (index, group) in self.groups.iter().enumerate() {
            let place = format!("groups[{index}] (\"{}\")", group.name);
            if strict && let Some(first) = first_with_name.insert(&group.name, index) {
                check.problems.push(format!(
                    "{place}: the name is already used by groups[{first}]; group names must be unique"
                ));
            }
            check_limits(&mut check, &place, group);
            match &group.spawn {
                Spawn::Random { area, speed, .. } => {
                    check.area(&format!("{place}.spawn.area"), area);
                    check.amount(&format!("{place}.spawn.speed"), *speed, false);
                }
                Spawn::Agents(agents) => {
                    for (agent, spawn) in agents.iter().enumerate() {
                        let at = format!("{place}.spawn.agents[{agent}]");
                        check.point(&format!("{at}.position"), spawn.position);
                        check.point(&format!("{at}.velocity"), spawn.velocity);
                    }
                }
            }
            check_goals(&mut check, &place, &group.goals);
        }
        let agents = self.agent_count();
        if strict && agents > MAX_AGENTS as u64 {
            check.problems.push(format!(
                "groups: the scene spawns {agents} agents; the limit is {MAX_AGENTS}"
            ));
        }
        // Checked before any agent's table is made: agents × names is a product of inputs.
        let own_goals = self.groups.iter().fold(0_u64, |sum, group| {
            sum.saturating_add(
                (group.spawn.count() as u64).saturating_mul(group.goals.len() as u64),
            )
        });
        if own_goals > MAX_OWN_GOALS {
            check.problems.push(format!(
                "groups: the scene gives its agents {own_goals} own goals in all (agents × goal names per group); the limit is {MAX_OWN_GOALS}"
            ));
        }
        check.problems
    }
}

/// The own points a group gives its agents: at least one point for `Each`, every number
/// finite and in range.
fn check_goals(check: &mut Checker, place: &str, goals: &BTreeMap<String, OwnPoints>) {
    for (name, points) in goals {
        let at = format!("{place}.goals[\"{name}\"]");
        match points {
            OwnPoints::Each(list) if list.is_empty() => {
                if check.strict {
                    check
                        .problems
                        .push(format!("{at}: Each needs at least one point"));
                }
            }
            OwnPoints::Each(list) if list.len() > MAX_PATH_POINTS => {
                check.problems.push(format!(
                    "{at}: {} points; the limit is {MAX_PATH_POINTS}",
                    list.len()
                ));
            }
            OwnPoints::Each(list) => {
                for (index, point) in list.iter().enumerate() {
                    check.point(&format!("{at}[{index}]"), *point);
                }
            }
            OwnPoints::Random(area) => check.area(&at, area),
        }
    }
}
