//! Building a world by hand (bounds, obstacles, walls, paths, named targets, flow fields) or
//! taking a scene's, for a game that steers its own agents with `sg_crowd_*`.

use std::ffi::c_char;

use glam::Vec2;
use graph_runtime::limits::{
    MAX_COORDINATE, MAX_NAMES, MAX_PATH_POINTS, MAX_WALL_POINTS, point_in_range,
};
use graph_runtime::{FlowField, Obstacle, Path, Rect, SceneAssets, Wall, World};

use crate::handles::{get, insert, lock, remove, with};
use crate::kinds::{SgField, SgScene, SgWorld};
use crate::ptr::{input, put, required, text};
use crate::status::{Failure, SgStatus, guard};

/// A point checked like the files' points: finite and within ±`MAX_COORDINATE`.
pub(crate) fn point(x: f32, y: f32, what: &str) -> Result<Vec2, Failure> {
    let point = Vec2::new(x, y);
    if point_in_range(point) {
        Ok(point)
    } else {
        Err(Failure::invalid(format!(
            "{what} ({x}, {y}) is not a finite point within ±{MAX_COORDINATE}"
        )))
    }
}

/// `count` points from `2 * count` floats (`x0, y0, x1, y1, …`).
///
/// # Safety
///
/// `xy` is valid for reading `2 * count` floats.
pub(crate) unsafe fn points(
    xy: *const f32,
    count: usize,
    limit: usize,
    what: &str,
) -> Result<Vec<Vec2>, Failure> {
    if count > limit {
        return Err(Failure::invalid(format!(
            "{what}: {count} points, more than {limit}"
        )));
    }
    // SAFETY: passed on from the caller; `2 * count` cannot overflow below the limit.
    let floats = unsafe { input(xy, 2 * count, what) }?;
    floats
        .chunks_exact(2)
        .enumerate()
        .map(|(i, xy)| point(xy[0], xy[1], &format!("{what}[{i}]")))
        .collect()
}

pub(crate) fn length(value: f32, what: &str) -> Result<f32, Failure> {
    if (0.0..=MAX_COORDINATE).contains(&value) {
        Ok(value)
    } else {
        Err(Failure::invalid(format!(
            "{what} is {value}, not within 0..={MAX_COORDINATE}"
        )))
    }
}

fn name_room(world: &World, name: &str, existing: impl Fn(&World) -> usize) -> Result<(), Failure> {
    if name.is_empty() {
        return Err(Failure::invalid("name is empty"));
    }
    if existing(world) >= MAX_NAMES {
        return Err(Failure::invalid(format!(
            "more than {MAX_NAMES} names of one kind"
        )));
    }
    Ok(())
}

/// An empty world whose playing area is the rectangle `(min_x, min_y)`–`(max_x, max_y)`.
///
/// # Safety
///
/// `world` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_world_create(
    min_x: f32,
    min_y: f32,
    max_x: f32,
    max_y: f32,
    world: *mut SgWorld,
) -> SgStatus {
    guard(|| {
        required(world, "world")?;
        let (min, max) = (point(min_x, min_y, "min")?, point(max_x, max_y, "max")?);
        if !(min.x < max.x && min.y < max.y) {
            return Err(Failure::invalid(format!(
                "bounds: min {min} is not below and left of max {max}"
            )));
        }
        let id = insert(World::new(Rect::new(min, max)))?;
        // SAFETY: checked above.
        unsafe { put(world, "world", SgWorld { id }) }
    })
}

/// The world of a loaded scene (bounds, obstacles, walls, gaps, paths, targets, jump links
/// and flow fields), the one its simulation runs in: a level made in the editor, for the
/// game's own agents. When a group's graph navigates (a Navigate node), the navigation mesh
/// for its agents' radius is built with it; a level that cannot have one is refused
/// (`SG_STATUS_SETUP`, the message says why).
///
/// # Safety
///
/// `world` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_world_from_scene(scene: SgScene, world: *mut SgWorld) -> SgStatus {
    guard(|| {
        required(world, "world")?;
        let made = with::<SceneAssets, _>(scene.id, "scene", |assets| {
            let mut world = World::from_scene(&assets.scene, &assets.flow_fields);
            assets
                .build_navigation(&mut world)
                .map_err(|error| Failure::new(SgStatus::Setup, error.to_string()))?;
            Ok(world)
        })?;
        let id = insert(made)?;
        // SAFETY: checked above.
        unsafe { put(world, "world", SgWorld { id }) }
    })
}

/// Adds a circle obstacle.
#[unsafe(no_mangle)]
pub extern "C" fn sg_world_add_obstacle(world: SgWorld, x: f32, y: f32, radius: f32) -> SgStatus {
    guard(|| {
        let center = point(x, y, "center")?;
        let radius = length(radius, "radius")?;
        with::<World, _>(world.id, "world", |world| {
            world.obstacles.push(Obstacle { center, radius });
            Ok(())
        })
    })
}

/// Adds a wall through `point_count` points (`xy` holds `x0, y0, x1, y1, …`), at least two;
/// `closed` joins the last point to the first. Agents do not cross walls.
///
/// # Safety
///
/// `xy` is valid for reading `2 * point_count` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_world_add_wall(
    world: SgWorld,
    xy: *const f32,
    point_count: usize,
    closed: bool,
) -> SgStatus {
    guard(|| {
        if point_count < 2 {
            return Err(Failure::invalid(format!(
                "a wall needs at least 2 points, found {point_count}"
            )));
        }
        // SAFETY: passed on from the caller.
        let wall_points = unsafe { points(xy, point_count, MAX_WALL_POINTS, "xy") }?;
        with::<World, _>(world.id, "world", |world| {
            let total: usize =
                world.walls().iter().map(|w| w.points.len()).sum::<usize>() + point_count;
            if total > MAX_WALL_POINTS {
                return Err(Failure::invalid(format!(
                    "walls: {total} points in all; a world's walls may have at most {MAX_WALL_POINTS}"
                )));
            }
            let mut walls = world.walls().to_vec();
            walls.push(Wall {
                points: wall_points,
                closed,
            });
            world.set_walls(walls);
            Ok(())
        })
    })
}

/// Sets the path `name` (for `PathFollowing` nodes): `point_count` points in `xy`, a corridor
/// of half-width `radius`, `closed` for a loop. Replaces a path of the same name.
///
/// # Safety
///
/// `name` is a NUL-terminated string; `xy` is valid for reading `2 * point_count` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_world_set_path(
    world: SgWorld,
    name: *const c_char,
    xy: *const f32,
    point_count: usize,
    radius: f32,
    closed: bool,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointers.
        let (name, path_points) = unsafe {
            (
                text(name, "name")?,
                points(xy, point_count, MAX_PATH_POINTS, "xy")?,
            )
        };
        if path_points.is_empty() {
            return Err(Failure::invalid("a path needs at least 1 point"));
        }
        let radius = length(radius, "radius")?;
        with::<World, _>(world.id, "world", |world| {
            name_room(world, name, |w| w.paths().count())?;
            world.set_path(
                name,
                Path {
                    points: path_points,
                    radius,
                    closed,
                },
            );
            Ok(())
        })
    })
}

/// Sets (or moves) the named target `name` (for `Target("name")` in graphs) to `(x, y)`.
/// Moving a target between ticks is cheap: nothing is bound again.
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_world_set_target(
    world: SgWorld,
    name: *const c_char,
    x: f32,
    y: f32,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer.
        let name = unsafe { text(name, "name") }?;
        let position = point(x, y, "target")?;
        with::<World, _>(world.id, "world", |world| {
            if world.target(name).is_none() {
                name_room(world, name, |w| w.targets().count())?;
            }
            world.set_target(name, position);
            Ok(())
        })
    })
}

/// Sets the flow field `name` (for `FlowFieldFollowing` nodes) to a copy of `field`; the
/// field's handle may be freed afterwards.
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_world_set_flow_field(
    world: SgWorld,
    name: *const c_char,
    field: SgField,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer.
        let name = unsafe { text(name, "name") }?;
        let field = {
            let field = get::<FlowField>(field.id, "field")?;
            lock(&field)?.clone()
        };
        with::<World, _>(world.id, "world", |world| {
            name_room(world, name, |w| w.flow_fields().count())?;
            world.set_flow_field(name, field);
            Ok(())
        })
    })
}

/// Frees a world. Crowds do not keep it: pass a live world to every `sg_crowd_steer`. Zero is
/// accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_world_free(world: SgWorld) -> SgStatus {
    guard(|| remove::<World>(world.id, "world"))
}
