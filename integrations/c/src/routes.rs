//! Navigation for a game's own agents: the navigation mesh of a world (from its scene or from
//! the game's own walls), and where each agent's planned route stands.

use graph_runtime::{Crowd, RouteStatus, World};

use crate::handles::with;
use crate::kinds::{SgCrowd, SgWorld};
use crate::ptr::{Output, put, required};
use crate::status::{Failure, SgStatus, guard};
use crate::world::length;

/// Builds (or builds again) the navigation mesh of `world` for agents of `radius`: its bounds
/// less its walls, circle obstacles and gaps grown by the radius, with its jump links. A
/// crowd whose graph navigates (a Navigate node) plans its routes on it; build one per agent
/// radius in use (an agent walks the mesh of its radius, or of the smallest larger one). Walls,
/// obstacles or gaps added later rebuild the meshes built. A level that cannot have one is
/// refused (`SG_STATUS_SETUP`, the message says why: too many wall segments, bounds too small
/// for the radius).
#[unsafe(no_mangle)]
pub extern "C" fn sg_world_build_navigation(world: SgWorld, radius: f32) -> SgStatus {
    guard(|| {
        let radius = length(radius, "radius")?;
        with::<World, _>(world.id, "world", |world| {
            world
                .build_navigation(radius)
                .map_err(|error| Failure::new(SgStatus::Setup, error.to_string()))
        })
    })
}

/// Where an agent's route stands.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgRouteStatus {
    /// The agent's graph has no Navigate node, or the crowd has not met the agent yet (it
    /// has neither stepped it nor given it a goal).
    None = 0,
    /// Waiting for its first route (it brakes meanwhile).
    Waiting = 1,
    /// Following a route to its goal.
    Following = 2,
    /// Following a route that will be planned again (the goal moved, the agent strayed or
    /// was stuck, a door ahead jammed), within the crowd's planning budget.
    Replanning = 3,
    /// No walk reaches the goal: following a route to the nearest point one does.
    Unreachable = 4,
    /// The world has no navigation mesh for the agent's radius (`sg_world_build_navigation`).
    NoNavigation = 5,
}

/// An agent's route (its graph's first Navigate node's).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgRouteState {
    /// Where it stands.
    pub status: SgRouteStatus,
    /// How many corner points the route has (read them with `sg_crowd_route_points`).
    pub point_count: usize,
    /// The leg the agent is on: from point `leg` to point `leg + 1`.
    pub leg: usize,
    /// How many routes were planned for the agent so far.
    pub plans: u32,
    /// Whether the route ends at the goal (false before the first plan and when unreachable).
    pub reaches_goal: bool,
}

/// Agent `agent`'s route, into `*state`: its status, its number of points, its leg and how
/// many routes were planned for it. An agent whose graph does not navigate answers
/// `SG_ROUTE_STATUS_NONE`.
///
/// # Safety
///
/// `state` is valid for writing one `SgRouteState`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_route_state(
    crowd: SgCrowd,
    agent: usize,
    state: *mut SgRouteState,
) -> SgStatus {
    guard(|| {
        required(state, "state")?;
        let found = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            Ok(crowd.routes(agent).first().map_or(
                SgRouteState {
                    status: SgRouteStatus::None,
                    point_count: 0,
                    leg: 0,
                    plans: 0,
                    reaches_goal: false,
                },
                |slot| SgRouteState {
                    status: match slot.status() {
                        RouteStatus::Waiting => SgRouteStatus::Waiting,
                        RouteStatus::Following => SgRouteStatus::Following,
                        RouteStatus::Replanning => SgRouteStatus::Replanning,
                        RouteStatus::Unreachable => SgRouteStatus::Unreachable,
                        RouteStatus::NoNavigation => SgRouteStatus::NoNavigation,
                    },
                    point_count: slot.route().points.len(),
                    leg: slot.leg(),
                    plans: slot.plans(),
                    reaches_goal: slot.route().reach == Some(graph_runtime::Reach::Goal),
                },
            ))
        })?;
        // SAFETY: checked above.
        unsafe { put(state, "state", found) }
    })
}

/// Agent `agent`'s route points: their number into `*count`, and `x0, y0, x1, y1, …` into
/// `xy` (room for `capacity` points, `2 * capacity` floats; `NULL` with `capacity` 0 asks for
/// the number only).
///
/// # Safety
///
/// `xy` is `NULL` or valid for writing `2 * capacity` floats; `count` is valid for writing one
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_route_points(
    crowd: SgCrowd,
    agent: usize,
    xy: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> SgStatus {
    guard(|| {
        required(count, "count")?;
        let points = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            Ok(crowd
                .routes(agent)
                .first()
                .map_or_else(Vec::new, |slot| slot.route().points.clone()))
        })?;
        // SAFETY: the caller's pointer.
        unsafe { put(count, "count", points.len()) }?;
        if xy.is_null() && capacity == 0 {
            return Ok(());
        }
        let floats = capacity
            .checked_mul(2)
            .ok_or_else(|| Failure::invalid(format!("capacity {capacity} is too large")))?;
        // SAFETY: the caller's pointer, valid for `2 * capacity` floats.
        let mut out = unsafe { Output::new(xy, floats, "xy") }?;
        out.needs(points.len() * 2, "xy")?;
        for (i, point) in points.iter().enumerate() {
            out.set(2 * i, point.x);
            out.set(2 * i + 1, point.y);
        }
        Ok(())
    })
}
