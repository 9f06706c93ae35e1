//! Issue 46's walls: the solid-wall oracle checked on every step, the `dt` an input runs at
//! (up to 10 s), and the hostile wall shapes (narrow wedges, apexes, crossings, heaps of
//! overlapping walls) met by vehicles of top speed up to 1e6 and force 1e9.

use glam::Vec2;
use graph_runtime::{Scene, Simulation, VehicleParams, Wall};

use super::Random;

/// The `dt`s an input may run at: most run at 1/60 s, the rest at one of the others, up to
/// 10 s (issue 46's solid-wall oracle covers `dt` up to 10).
const DTS: [f32; 4] = [0.001, 0.1, 1.0, 10.0];
/// Top speeds of the wall shapes' vehicles (force 1e9).
const SPEEDS: [f32; 4] = [30.0, 1_000.0, 1e5, 1e6];
/// Above this many segments × agents the oracle asks the wall index's exact query
/// (`WallIndex::step_meets_a_wall`) instead of testing every segment itself.
const MOST_SCANNED: usize = 200_000;

/// The `dt` an input runs at, read from its text (so that `--replay` runs it at the same one):
/// 1/60 s for half of them, one of [`DTS`] for the rest.
pub fn dt_of(text: &str) -> f32 {
    // FNV-1a: any stable hash of the text will do.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    match DTS.get((hash % 8) as usize) {
        Some(&dt) => dt,
        None => 1.0 / 60.0,
    }
}

/// The side of `r` from the line `p → q`: `1` left, `-1` right, `0` on it (exact).
fn side(p: Vec2, q: Vec2, r: Vec2) -> i32 {
    let c = |v: Vec2| robust::Coord {
        x: f64::from(v.x),
        y: f64::from(v.y),
    };
    let det = robust::orient2d(c(p), c(q), c(r));
    i32::from(det > 0.0) - i32::from(det < 0.0)
}

/// `r`, on the line of `p → q`, lies between them.
fn within(p: Vec2, q: Vec2, r: Vec2) -> bool {
    r.cmpge(p.min(q)).all() && r.cmple(p.max(q)).all()
}

/// The closed segments `p1 → q1` and `p2 → q2` share a point (the textbook test, written here
/// apart from the runtime's).
fn meet(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> bool {
    let (o1, o2) = (side(p1, q1, p2), side(p1, q1, q2));
    let (o3, o4) = (side(p2, q2, p1), side(p2, q2, q1));
    (o1 * o2 < 0 && o3 * o4 < 0)
        || (o1 == 0 && within(p1, q1, p2))
        || (o2 == 0 && within(p1, q1, q2))
        || (o3 == 0 && within(p2, q2, p1))
        || (o4 == 0 && within(p2, q2, q1))
}

/// The solid-wall oracle (`BEHAVIORS.md`, "Solid walls"): every agent's step of the last tick,
/// `before[agent] → now`, meets no wall past its start, walking or in a flight. A wall the
/// step starts on is passed over (an agent placed on a wall may leave it either way).
pub fn check_steps(simulation: &Simulation, before: &[Vec2], tick: usize) -> Result<(), String> {
    let world = simulation.world();
    if world.passable_walls() || world.walls().is_empty() {
        return Ok(());
    }
    let segments = world.wall_index().segments();
    let scan = segments.len().saturating_mul(before.len()) <= MOST_SCANNED;
    for (agent, (&from, vehicle)) in before.iter().zip(simulation.vehicles()).enumerate() {
        let to = vehicle.position;
        if from == to {
            continue;
        }
        let crossed = if scan {
            segments
                .iter()
                .find(|&&(a, b)| !meet(a, b, from, from) && meet(a, b, from, to))
                .map(|(a, b)| format!("{a} -> {b}"))
        } else {
            world
                .wall_index()
                .step_meets_a_wall(from, to)
                .then(|| "a wall (the index's exact query)".to_owned())
        };
        if let Some(wall) = crossed {
            return Err(format!(
                "agent {agent} stepped through or onto a solid wall at tick {tick}: {from} -> {to} meets {wall}"
            ));
        }
    }
    Ok(())
}

/// One of the hostile wall shapes of issue 46 added to `scene` near the middle of its level,
/// and the vehicles of group `group` made fast (force 1e9, top speed up to 1e6): wedges of 1°
/// and 0.01°, a V, two walls crossing, or up to 200 walls heaped along three lines.
pub fn storm(scene: &mut Scene, group: usize, random: &mut Random) -> Option<()> {
    let (min, max) = (scene.bounds.min, scene.bounds.max);
    let at = (min + max) * 0.5
        + Vec2::new(
            random.below(1_000) as f32 / 997.0,
            random.below(1_000) as f32 / 1_009.0,
        );
    let turn = random.below(6_283) as f32 / 1_000.0;
    let (along, across) = (Vec2::from_angle(turn), Vec2::from_angle(turn).perp());
    let length = 5.0 + random.below(60) as f32;
    match random.below(4) {
        0 => {
            let half = [1.0_f32, 0.01][random.below(2)].to_radians() * 0.5;
            for angle in [turn - half, turn + half] {
                let arm = at + Vec2::from_angle(angle) * length;
                scene.walls.push(Wall::polyline(vec![at, arm]));
            }
        }
        1 => {
            let spread = 0.01 + random.below(150) as f32 / 100.0;
            for arm in [along - across * spread, along + across * spread] {
                scene
                    .walls
                    .push(Wall::polyline(vec![at, at + arm * length]));
            }
        }
        2 => {
            let other = Vec2::from_angle(turn + 0.05 + random.below(300) as f32 / 100.0);
            for direction in [along, other] {
                let (a, b) = (at - direction * length, at + direction * length);
                scene.walls.push(Wall::polyline(vec![a, b]));
            }
        }
        _ => {
            for index in 0..=random.below(200) {
                let offset = across * [0.0, 0.5, 1.0][index % 3];
                let start = along * -(random.below(100) as f32 / 10.0);
                let end = along * (random.below(100) as f32 / 10.0);
                let tilt = across * ((random.below(100) as f32 - 50.0) / 100.0);
                let tilt = if index % 4 == 0 { tilt } else { Vec2::ZERO };
                let (a, b) = (at + offset + start, at + offset + end + tilt);
                scene.walls.push(Wall::polyline(vec![a, b]));
            }
        }
    }
    scene.passable_walls = false;
    let speed = SPEEDS.get(random.below(SPEEDS.len())).copied()?;
    scene.groups.get_mut(group)?.vehicle = Some(VehicleParams {
        mass: 1.0,
        max_force: 1e9,
        max_speed: speed,
        radius: 0.5,
    });
    Some(())
}
