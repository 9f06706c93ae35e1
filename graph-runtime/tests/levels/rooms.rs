//! The rooms level the navigation benchmarks and tests build: a grid of square rooms of
//! [`ROOM`] units, each wall between two rooms with a [`DOOR`]-unit door in its middle, each
//! inner wall line split into one piece per room it bounds (two segments either side of its
//! door); optionally a square pillar (four segments) in the middle of the first rooms.
//! Included by path (`#[path]`) where used.

use glam::Vec2;
use graph_runtime::{Rect, Wall, World};

/// A room's side (units).
pub const ROOM: f32 = 10.0;
/// A door's width (units).
pub const DOOR: f32 = 2.0;
/// A pillar's side (units), in the middle of its room.
pub const PILLAR: f32 = 2.0;

/// `columns` × `rows` rooms: `2 × (2·columns·rows − columns − rows)` wall segments, and
/// `pillars` closed squares of four more in rooms 0, 1, … (row by row).
pub fn rooms_level(columns: usize, rows: usize, pillars: usize) -> World {
    let (width, height) = (columns as f32 * ROOM, rows as f32 * ROOM);
    let mut world = World::new(Rect::new(Vec2::ZERO, Vec2::new(width, height)));
    let mut walls = Vec::new();
    let half = (ROOM - DOOR) / 2.0;
    for column in 1..columns {
        let x = column as f32 * ROOM;
        for row in 0..rows {
            let y = row as f32 * ROOM;
            walls.push(Wall::polyline(vec![
                Vec2::new(x, y),
                Vec2::new(x, y + half),
            ]));
            walls.push(Wall::polyline(vec![
                Vec2::new(x, y + ROOM - half),
                Vec2::new(x, y + ROOM),
            ]));
        }
    }
    for row in 1..rows {
        let y = row as f32 * ROOM;
        for column in 0..columns {
            let x = column as f32 * ROOM;
            walls.push(Wall::polyline(vec![
                Vec2::new(x, y),
                Vec2::new(x + half, y),
            ]));
            walls.push(Wall::polyline(vec![
                Vec2::new(x + ROOM - half, y),
                Vec2::new(x + ROOM, y),
            ]));
        }
    }
    for room in 0..pillars.min(columns * rows) {
        let centre = Vec2::new(
            ((room % columns) as f32 + 0.5) * ROOM,
            ((room / columns) as f32 + 0.5) * ROOM,
        );
        let r = PILLAR / 2.0;
        walls.push(Wall {
            points: vec![
                centre + Vec2::new(-r, -r),
                centre + Vec2::new(r, -r),
                centre + Vec2::new(r, r),
                centre + Vec2::new(-r, r),
            ],
            closed: true,
        });
    }
    world.set_walls(walls);
    world
}

/// How many wall segments `world` has (a closed wall's closing segment counted).
pub fn segments(world: &World) -> usize {
    world.walls().iter().map(|w| w.segments().count()).sum()
}

/// A level of exactly [`graph_runtime::limits::MAX_NAV_SEGMENTS`] (100,000) wall segments:
/// 158 × 158 rooms (99,224 segments) and 194 pillars (776).
pub fn level_at_the_segment_limit() -> World {
    rooms_level(158, 158, 194)
}
