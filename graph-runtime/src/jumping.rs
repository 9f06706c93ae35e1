//! What a jump is to the code that drives agents: how an agent moves ([`Motion`]), its flight
//! in the air ([`Flight`]), and the events of take-off, landing and falling ([`JumpEvent`]),
//! which [`crate::Simulation`] and [`crate::Crowd`] report (the seed's callback).

use glam::Vec2;

use crate::behaviors::flight_height;

/// How an agent moves now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Motion {
    /// On the ground, steered.
    #[default]
    Walking,
    /// In the air on a jump: steering is ignored, gaps are flown over, walls still stop it.
    Airborne,
    /// Fell into a gap while walking: it stays where it fell and no longer moves.
    Fallen,
}

/// An agent's jump in the air.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    /// The jump link's index in the world.
    pub link: usize,
    /// The planar velocity kept through the flight (units / s).
    pub velocity: Vec2,
    /// The vertical take-off velocity (units / s).
    pub vertical_velocity: f32,
    /// Gravity on the height (units / s²).
    pub gravity: f32,
    /// The take-off point's height (units).
    pub from_height: f32,
    /// Time in the air planned (s).
    pub flight_time: f32,
    /// Time in the air so far (s).
    pub elapsed: f32,
}

impl Flight {
    /// The height above the ground now (units).
    pub fn height(&self) -> f32 {
        flight_height(
            self.from_height,
            self.vertical_velocity,
            self.gravity,
            self.elapsed,
        )
    }
}

/// What happened to an agent's jump in the last tick: the seed's callback, for games and the
/// editor.
#[derive(Clone, Debug, PartialEq)]
pub struct JumpEvent {
    /// The agent.
    pub agent: usize,
    /// Where it was when it happened.
    pub at: Vec2,
    /// What happened.
    pub kind: JumpEventKind,
}

/// The kinds of [`JumpEvent`].
#[derive(Clone, Debug, PartialEq)]
pub enum JumpEventKind {
    /// It took off on a jump link: from now on its own physics or animation may take over.
    TakeOff {
        /// The link's name.
        link: String,
        /// The planar velocity of the flight (units / s).
        velocity: Vec2,
        /// The vertical take-off velocity (units / s).
        vertical_velocity: f32,
        /// Time in the air (s).
        flight_time: f32,
    },
    /// It came down: on the landing point (`completed`), or where a wall stopped it.
    Landed {
        /// The link's name.
        link: String,
        /// Whether it landed on the link's landing point.
        completed: bool,
    },
    /// A walking agent entered a gap.
    Fell,
}
