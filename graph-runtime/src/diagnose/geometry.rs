//! The geometry a diagnosis reads around one agent: its goal's direction, the agents near it
//! (with theirs), and the walls (the nearest point, and where the line to the goal meets one).

use glam::Vec2;

use super::{
    CONTACT, HEAD_ON_DEGREES, HEAD_ON_REACH, HELD_SPEED, JAM_AGENTS, JAM_RADII, WALL_CONTACT,
};
use crate::{OwnGoals, Simulation, WallIndex};

/// Another agent near the one diagnosed.
struct Near {
    agent: usize,
    position: Vec2,
    radius: f32,
    /// Whether it moves at under [`HELD_SPEED`] of its top speed.
    held: bool,
    /// The direction to its goal (zero without one, or at it).
    heading: Vec2,
}

/// One agent and what is around it.
pub(super) struct Around<'a> {
    position: Vec2,
    radius: f32,
    velocity: Vec2,
    max_speed: f32,
    /// The agent's goal.
    pub(super) goal: Option<Vec2>,
    /// The direction to its goal (zero without one, or at it).
    heading: Vec2,
    /// The agents within [`JAM_RADII`] of its radii (and their own), nearest first.
    near: Vec<Near>,
    /// The world's walls.
    walls: &'a WallIndex,
}

impl<'a> Around<'a> {
    /// What is around agent `agent` of `simulation`; `None` for no such agent.
    pub(super) fn of(simulation: &'a Simulation, agent: usize) -> Option<Self> {
        let vehicles = simulation.vehicles();
        let me = vehicles.get(agent)?;
        let nobody = OwnGoals::default();
        let goal_of = |index: usize| {
            let group = simulation.groups().get(simulation.group_of(index)?)?;
            let own = simulation.own(index).unwrap_or(&nobody);
            group.program.goal(&group.params, simulation.world(), own)
        };
        let heading = |position: Vec2, goal: Option<Vec2>| {
            goal.map_or(Vec2::ZERO, |goal| (goal - position).normalize_or_zero())
        };
        let goal = goal_of(agent);
        let mut near: Vec<Near> = (vehicles.iter().enumerate())
            .filter(|&(index, other)| {
                let reach = JAM_RADII * me.radius + other.radius;
                index != agent && other.position.distance_squared(me.position) <= reach * reach
            })
            .map(|(index, other)| Near {
                agent: index,
                position: other.position,
                radius: other.radius,
                held: other.velocity.length() < HELD_SPEED * other.max_speed,
                heading: heading(other.position, goal_of(index)),
            })
            .collect();
        near.sort_by(|a, b| {
            let (da, db) = (
                a.position.distance(me.position),
                b.position.distance(me.position),
            );
            da.total_cmp(&db).then(a.agent.cmp(&b.agent))
        });
        Some(Self {
            position: me.position,
            radius: me.radius,
            velocity: me.velocity,
            max_speed: me.max_speed,
            goal,
            heading: heading(me.position, goal),
            near,
            walls: simulation.world().wall_index(),
        })
    }

    /// The other agent of a head-on deadlock: within [`HEAD_ON_REACH`] times the two radii,
    /// within
    /// [`HEAD_ON_DEGREES`] of the line to this agent's goal, its own goal within as many of
    /// the line back. The nearest such.
    pub(super) fn head_on(&self) -> Option<usize> {
        let cos = HEAD_ON_DEGREES.to_radians().cos();
        if self.heading == Vec2::ZERO {
            return None;
        }
        self.near.iter().find_map(|other| {
            let to = other.position - self.position;
            let distance = to.length();
            let toward = to / distance.max(f32::MIN_POSITIVE);
            let close = distance <= HEAD_ON_REACH * (self.radius + other.radius);
            (close && toward.dot(self.heading) >= cos && (-toward).dot(other.heading) >= cos)
                .then_some(other.agent)
        })
    }

    /// A jam: [`JAM_AGENTS`] or more held agents heading the same way (within 60°) within
    /// [`JAM_RADII`] radii, and a wall as near: the wall's nearest point and the count.
    pub(super) fn jam(&self) -> Option<(Vec2, usize)> {
        if self.heading == Vec2::ZERO {
            return None;
        }
        let others = (self.near.iter())
            .filter(|other| other.held && other.heading.dot(self.heading) >= 0.5)
            .count();
        let wall = self.walls.nearest(self.position, JAM_RADII * self.radius)?;
        (others >= JAM_AGENTS).then_some((wall.point, others))
    }

    /// Pinned: against a wall (within [`WALL_CONTACT`] radii) and agents in contact (within
    /// [`CONTACT`]) on its other side: the wall's nearest point and those agents.
    pub(super) fn pinned(&self) -> Option<(Vec2, Vec<usize>)> {
        let wall = self
            .walls
            .nearest(self.position, WALL_CONTACT * self.radius)?
            .point;
        let away = (self.position - wall).normalize_or_zero();
        let mut others: Vec<usize> = (self.near.iter())
            .filter(|other| {
                let to = other.position - self.position;
                let contact = to.length() <= CONTACT * (self.radius + other.radius);
                contact && to.dot(away) > 0.3 * to.length()
            })
            .map(|other| other.agent)
            .collect();
        others.sort_unstable();
        (!others.is_empty()).then_some((wall, others))
    }

    /// Its speed toward its goal (its velocity's part along the way to it) when that is at
    /// least [`HELD_SPEED`] of its top speed: it walks toward the goal, held by nothing now.
    /// Without a goal (a wandering or flocking graph heads for none), its speed, when that is
    /// as much: it moves freely.
    pub(super) fn walking(&self) -> Option<f32> {
        let speed = match self.goal {
            None => self.velocity.length(),
            Some(_) if self.heading == Vec2::ZERO => return None,
            Some(_) => self.velocity.dot(self.heading),
        };
        (speed >= HELD_SPEED * self.max_speed).then_some(speed)
    }

    /// Where the straight line from the agent to its goal first meets a wall.
    pub(super) fn wall_to_goal(&self) -> Option<Vec2> {
        Some(self.walls.ray_cast(self.position, self.goal?)?.point)
    }
}
