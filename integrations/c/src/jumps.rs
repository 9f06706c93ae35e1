//! Jump events of a crowd's last tick, for a game that flies its own jumpers.

use std::ffi::c_char;

use graph_runtime::{Crowd, JumpEventKind};

use crate::handles::with;
use crate::kinds::SgCrowd;
use crate::ptr::{Output, put, put_text, required};
use crate::status::{Failure, SgStatus, guard};

/// What happened to a jump.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgJumpKind {
    /// The agent took off on a jump link: the game flies it (its steering is zero) for
    /// `flight_time` seconds.
    TakeOff = 0,
    /// The flight is over; `completed` says whether it landed on the link's far side.
    Landed = 1,
    /// The agent walked into a gap and fell.
    Fell = 2,
}

/// A jump event of the last `sg_crowd_steer` or `sg_crowd_step`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgJumpEvent {
    /// The agent (its index in the array passed to `sg_crowd_steer`).
    pub agent: usize,
    /// What happened.
    pub kind: SgJumpKind,
    /// Where the agent was.
    pub at: [f32; 2],
    /// Take-off: the planar velocity of the flight (units / s); else zero.
    pub velocity: [f32; 2],
    /// Take-off: the vertical velocity (units / s); else zero.
    pub vertical_velocity: f32,
    /// Take-off: the time in the air (s); else zero.
    pub flight_time: f32,
    /// Landed: whether on the far side of the link; else false.
    pub completed: bool,
}

/// The jump events of the last `sg_crowd_steer` or `sg_crowd_step` (take-offs the game should fly, landings,
/// falls): their number into `*count`, and the events into `events` (room for `capacity`;
/// `NULL` with `capacity` 0 asks for the number only).
///
/// # Safety
///
/// `events` is `NULL` or valid for writing `capacity` events; `count` is valid for writing one
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_jump_events(
    crowd: SgCrowd,
    events: *mut SgJumpEvent,
    capacity: usize,
    count: *mut usize,
) -> SgStatus {
    guard(|| {
        required(count, "count")?;
        let list = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            Ok(crowd
                .jump_events()
                .iter()
                .map(|event| {
                    let mut out = SgJumpEvent {
                        agent: event.agent,
                        kind: SgJumpKind::Fell,
                        at: event.at.to_array(),
                        velocity: [0.0; 2],
                        vertical_velocity: 0.0,
                        flight_time: 0.0,
                        completed: false,
                    };
                    match &event.kind {
                        JumpEventKind::TakeOff {
                            velocity,
                            vertical_velocity,
                            flight_time,
                            ..
                        } => {
                            out.kind = SgJumpKind::TakeOff;
                            out.velocity = velocity.to_array();
                            out.vertical_velocity = *vertical_velocity;
                            out.flight_time = *flight_time;
                        }
                        JumpEventKind::Landed { completed, .. } => {
                            out.kind = SgJumpKind::Landed;
                            out.completed = *completed;
                        }
                        JumpEventKind::Fell => {}
                    }
                    out
                })
                .collect::<Vec<_>>())
        })?;
        // SAFETY: the caller's pointers.
        unsafe { put(count, "count", list.len()) }?;
        if events.is_null() && capacity == 0 {
            return Ok(());
        }
        // SAFETY: the caller's pointer.
        let mut out = unsafe { Output::new(events, capacity, "events") }?;
        out.needs(list.len(), "events")?;
        for (i, event) in list.into_iter().enumerate() {
            out.set(i, event);
        }
        Ok(())
    })
}

/// The name of the jump link of event `index` of the last `sg_crowd_steer` or `sg_crowd_step` (empty for a
/// fall), copied as `sg_last_error` copies text.
///
/// # Safety
///
/// `name` is `NULL` or valid for writing `capacity` bytes; `length` is valid for writing one
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_jump_event_link(
    crowd: SgCrowd,
    index: usize,
    name: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> SgStatus {
    guard(|| {
        let link = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            let events = crowd.jump_events();
            let event = events.get(index).ok_or_else(|| {
                Failure::invalid(format!("event {index}: the last tick had {}", events.len()))
            })?;
            Ok(match &event.kind {
                JumpEventKind::TakeOff { link, .. } | JumpEventKind::Landed { link, .. } => {
                    link.clone()
                }
                JumpEventKind::Fell => String::new(),
            })
        })?;
        // SAFETY: the caller's pointers.
        unsafe { put_text(&link, name, capacity, length, "name") }
    })
}
