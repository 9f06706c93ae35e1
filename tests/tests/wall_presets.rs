//! The wall presets keep their numbers: the zig-zag corridor, the room with two doors and the
//! wall-following patrol, measured on headless runs at 60 ticks a second.
//!
//! The flow fields of the corridor and the rooms are made here, from the scenes' own walls and
//! goals: `STEERGRAPH_WRITE_PRESETS=1 cargo test -p tests --test wall_presets` rewrites
//! `presets/corridor.flow.ron` and `presets/rooms.flow.ron`; otherwise the tests check that the
//! committed files are exactly what this code makes.

use glam::Vec2;
use graph_runtime::{Brush, FlowField, Obstacle, Scene, StrokeKind, WallIndex};

use tests::run_preset as run;

const DT: f32 = 1.0 / 60.0;
/// Flow-field cells (units).
const CELL_SIZE: f32 = 1.0;
/// Push away from walls added to the generated fields: range (units) and strength.
const REPULSION_RANGE: f32 = 2.5;
const REPULSION_STRENGTH: f32 = 1.0;

fn scene(name: &str) -> Scene {
    Scene::load(&tests::presets_dir().join(name)).expect("preset scene loads")
}

/// The field toward the scene's `goal` around its walls and around `keep_out` circles (not
/// in the scene: they only keep the routes off wall corners), pushed off both.
fn generated(scene: &Scene, keep_out: &[Obstacle]) -> FlowField {
    let walls = WallIndex::new(&scene.walls);
    let mut field = FlowField::covering(scene.bounds, CELL_SIZE);
    let reachable = field.generate_toward_around(scene.targets["goal"], keep_out, &walls, 0.0);
    assert!(reachable > 100, "{reachable} reachable cells");
    field.add_repulsion_from(keep_out, &walls, REPULSION_RANGE, REPULSION_STRENGTH);
    field
}

/// Radius of the circle kept clear round each corner that juts into the corridor.
const CORNER_CLEARANCE: f32 = 1.5;

/// The corridor's field: shortest routes hug the corners that jut into the walkway (the door
/// jambs and the tips of the two acute corners), and a crowd packed against a corner tip
/// stalls there, so the field is made to pass each such corner (a reflex vertex of the
/// walkway polygon) at `CORNER_CLEARANCE` and to push away from it.
fn corridor_field() -> FlowField {
    let scene = scene("corridor.scene.ron");
    let outline = &scene.walls[0].points;
    let corners: Vec<Obstacle> = (0..outline.len())
        .filter_map(|i| {
            let (a, b, c) = (
                outline[(i + outline.len() - 1) % outline.len()],
                outline[i],
                outline[(i + 1) % outline.len()],
            );
            // The outline runs counter-clockwise round the walkway: a right turn is a corner
            // jutting into it.
            ((b - a).perp_dot(c - b) < 0.0).then_some(Obstacle {
                center: b,
                radius: CORNER_CLEARANCE,
            })
        })
        .collect();
    // The start room's funnel (two bends, two jambs), the tips of the two acute corners and
    // the end room's two door jambs.
    assert_eq!(corners.len(), 8, "{corners:?}");
    generated(&scene, &corners)
}

/// The strokes painted over the generated field of the rooms, each `(from, to, brush radius)`:
/// a broad lane from the west half of the room up to the north door, two narrower strokes
/// that funnel its edges into the doorway (so no one is pressed against a door jamb), and
/// one through the door.
const LANE: [(Vec2, Vec2, f32); 4] = [
    (Vec2::new(-8.0, -9.0), Vec2::new(-10.0, 6.0), 5.0),
    (Vec2::new(-14.5, 6.0), Vec2::new(-10.0, 10.0), 2.5),
    (Vec2::new(-5.5, 6.0), Vec2::new(-10.0, 10.0), 2.5),
    (Vec2::new(-10.0, 8.0), Vec2::new(-10.0, 14.0), 2.0),
];

fn rooms_field() -> FlowField {
    let mut field = generated(&scene("rooms.scene.ron"), &[]);
    for (from, to, radius) in LANE {
        let brush = Brush {
            radius,
            strength: 1.0,
            softness: 0.5,
        };
        assert!(field.stroke(StrokeKind::Paint, from, to, &brush));
    }
    field
}

/// Compares a committed field with the one made here, or writes it when asked to.
fn check_or_write(file: &str, field: &FlowField) {
    let path = tests::presets_dir().join(file);
    if std::env::var_os("STEERGRAPH_WRITE_PRESETS").is_some() {
        field.save(&path).expect("write the field");
    }
    let committed = FlowField::load(&path).expect("committed field loads");
    assert!(
        committed == *field,
        "{file} is not what wall_presets.rs makes"
    );
}

#[test]
fn the_corridor_field_is_what_the_generator_makes() {
    check_or_write("corridor.flow.ron", &corridor_field());
}

#[test]
fn the_rooms_field_is_generated_then_painted() {
    check_or_write("rooms.flow.ron", &rooms_field());
}

fn inside(point: Vec2, min: Vec2, max: Vec2) -> bool {
    point.x > min.x && point.y > min.y && point.x < max.x && point.y < max.y
}

/// The corridor's end room, inside its walls.
const END_ROOM: (Vec2, Vec2) = (Vec2::new(15.0, 2.0), Vec2::new(35.0, 22.0));
/// Simulated time allowed for 95 % of the crowd to reach the end room (s).
const CORRIDOR_SECONDS: f32 = 25.0;
/// A stuck window: an agent not yet in the end room that moved less than
/// `STUCK_FRACTION * max_speed * STUCK_WINDOW` over the last `STUCK_WINDOW` seconds.
const STUCK_WINDOW: f32 = 2.0;
const STUCK_FRACTION: f32 = 0.1;

/// One run of the corridor: when 95 % were in the end room, how many were at the end, the wall
/// crossings, the stuck agent-ticks and the longest time an agent was stuck (s).
struct CorridorRun {
    reached_95: Option<f32>,
    arrived: usize,
    crossings: u64,
    stuck_windows: usize,
    longest_stuck: f32,
    /// Agent pairs overlapping at the end, in the end room.
    overlapping_at_the_end: usize,
}

fn corridor_run() -> CorridorRun {
    let (_, mut simulation) = run("corridor.scene.ron");
    let count = simulation.vehicles().len();
    assert_eq!(count, 100);
    let window = (STUCK_WINDOW / DT).round() as usize;
    let max_speed = simulation.vehicles()[0].max_speed;
    let still = STUCK_FRACTION * max_speed * STUCK_WINDOW;
    // Each agent's positions over the last `window` ticks (a ring), its current run of stuck
    // windows (ticks) and the longest run of anyone.
    let mut history: Vec<Vec<Vec2>> = simulation
        .vehicles()
        .iter()
        .map(|v| vec![v.position; window])
        .collect();
    let mut run = vec![0usize; count];
    let mut longest_run = 0usize;
    let mut stuck_windows = 0usize;
    let mut reached_95 = None;
    let ticks = (CORRIDOR_SECONDS / DT).round() as usize;
    for tick in 1..=ticks {
        simulation.step(DT);
        let mut arrived = 0;
        for (agent, v) in simulation.vehicles().iter().enumerate() {
            let slot = tick % window;
            let arrived_here = inside(v.position, END_ROOM.0, END_ROOM.1);
            arrived += usize::from(arrived_here);
            // history[agent][slot] holds the position `window` ticks ago.
            if tick >= window && !arrived_here && v.position.distance(history[agent][slot]) < still
            {
                run[agent] += 1;
                stuck_windows += 1;

                longest_run = longest_run.max(run[agent]);
            } else {
                run[agent] = 0;
            }
            history[agent][slot] = v.position;
        }
        if reached_95.is_none() && arrived * 100 >= count * 95 {
            reached_95 = Some(tick as f32 * DT);
        }
    }
    let arrived = simulation
        .vehicles()
        .iter()
        .filter(|v| inside(v.position, END_ROOM.0, END_ROOM.1))
        .count();
    let longest_stuck = if longest_run == 0 {
        0.0
    } else {
        STUCK_WINDOW + longest_run as f32 * DT
    };
    let run = CorridorRun {
        reached_95,
        arrived,
        crossings: simulation.wall_crossings(),
        stuck_windows,
        longest_stuck,
        overlapping_at_the_end: graph_runtime::MetricsTracker::default()
            .observe(&simulation, CORRIDOR_SECONDS)
            .agent_overlaps,
    };
    eprintln!(
        "corridor: 95 % in the end room after {reached_95:?} s, {arrived} of {count} after \
         {CORRIDOR_SECONDS} s, {} wall crossings, {stuck_windows} stuck agent-ticks (an agent \
         moving less than {still} units in {STUCK_WINDOW} s), longest stuck {longest_stuck:.2} s, \
         {} agent pairs overlapping at the end",
        run.crossings, run.overlapping_at_the_end
    );
    run
}

#[test]
fn the_zig_zag_corridor_brings_95_percent_to_the_end_room_unstuck_without_crossing_a_wall() {
    let run = corridor_run();
    assert!(
        run.reached_95.is_some(),
        "only {} in the end room after {CORRIDOR_SECONDS} s",
        run.arrived
    );
    assert_eq!(run.crossings, 0, "wall crossings");
    assert_eq!(
        run.stuck_windows, 0,
        "agents stuck for 2 s or more: the longest {:.2} s",
        run.longest_stuck
    );
    // The end room's Separation spreads the crowd instead of piling it on the goal, where
    // the field leads every agent (3,134 of the 4,950 pairs overlapped without it).
    assert!(
        run.overlapping_at_the_end < 60,
        "{} pairs overlap in the end room",
        run.overlapping_at_the_end
    );
}

/// The room of `rooms.scene.ron`, inside its walls, and its two doors.
const ROOM: (Vec2, Vec2) = (Vec2::new(-15.0, -10.0), Vec2::new(15.0, 10.0));
/// Simulated time allowed for 95 % of the crowd to leave the room, and for all of it (s).
const ROOMS_SECONDS: f32 = 10.0;
const ROOMS_ALL_OUT_SECONDS: f32 = 20.0;

#[test]
fn the_crowd_leaves_the_room_through_both_doors_without_crossing_a_wall() {
    let (_, mut simulation) = run("rooms.scene.ron");
    let count = simulation.vehicles().len();
    assert_eq!(count, 100);
    let (mut out_95, mut all_out) = (None, None);
    // How each agent left: through the north door (above the room) or the east one.
    let mut north = vec![false; count];
    let mut east = vec![false; count];
    let ticks = (ROOMS_ALL_OUT_SECONDS / DT).round() as usize;
    for tick in 1..=ticks {
        simulation.step(DT);
        let mut out = 0;
        for (agent, v) in simulation.vehicles().iter().enumerate() {
            if !inside(v.position, ROOM.0, ROOM.1) {
                out += 1;
                if !north[agent] && !east[agent] {
                    north[agent] = v.position.y >= ROOM.1.y;
                    east[agent] = !north[agent];
                }
            }
        }
        if out_95.is_none() && out * 100 >= count * 95 {
            out_95 = Some(tick as f32 * DT);
        }
        if all_out.is_none() && out == count {
            all_out = Some(tick as f32 * DT);
        }
    }
    let (north, east) = (
        north.iter().filter(|&&n| n).count(),
        east.iter().filter(|&&e| e).count(),
    );
    eprintln!(
        "rooms: 95 % out after {out_95:?} s, all out after {all_out:?} s ({north} by the north \
         door, {east} by the east door), {} wall crossings",
        simulation.wall_crossings()
    );
    assert!(
        out_95.is_some_and(|t| t <= ROOMS_SECONDS),
        "95 % out after {out_95:?} s"
    );
    assert!(
        all_out.is_some(),
        "not all out after {ROOMS_ALL_OUT_SECONDS} s"
    );
    assert_eq!(simulation.wall_crossings(), 0, "wall crossings");
    // The painted lane does its job: both doors carry a fair share of the crowd.
    assert!(north >= 20 && east >= 20, "{north} north, {east} east");
}

/// The patrol's offset from the wall (the graph's `WallFollowing` offset) and the tolerance.
const PATROL_OFFSET: f32 = 1.5;
const PATROL_TOLERANCE: f32 = 0.3;
/// Time the guards get to settle on the line before the lap is measured (s).
const PATROL_SETTLE: f32 = 2.0;
/// Time allowed for one measured lap (s).
const PATROL_SECONDS: f32 = 40.0;
/// Perimeter resolution of the coverage (units).
const BIN: f32 = 0.05;

#[test]
fn guards_go_round_the_room_at_their_offset_along_95_percent_of_the_perimeter() {
    let (_, mut simulation) = run("perimeter.scene.ron");
    let segments = simulation.world().wall_index().segments().to_vec();
    // Arc length at the start of each segment: one closed wall, segments in order.
    let mut starts = Vec::new();
    let mut perimeter = 0.0;
    for &(a, b) in &segments {
        starts.push(perimeter);
        perimeter += a.distance(b);
    }
    // A point's nearest wall point (`WallIndex::nearest`) as arc length along the perimeter,
    // and its distance.
    let arc = |walls: &WallIndex, point: Vec2| -> (f32, f32) {
        let near = walls.nearest(point, f32::INFINITY).expect("a wall");
        let start = segments[near.segment].0;
        (
            starts[near.segment] + start.distance(near.point),
            near.distance,
        )
    };
    // The longest jump of the projection between two ticks: from one wall to the next in a
    // convex right-angled corner (2 * offset) plus a tick's travel.
    let max_speed = simulation.vehicles()[0].max_speed;
    let corner_jump = 2.0 * (PATROL_OFFSET + PATROL_TOLERANCE) + max_speed * DT;
    let bins = (perimeter / BIN).ceil() as usize;
    let count = simulation.vehicles().len();
    // Per guard: bins covered, bins hit by a good tick's own projection, arc swept so far,
    // the previous tick's arc and whether it was good.
    let mut covered = vec![vec![false; bins]; count];
    let mut hit = vec![vec![false; bins]; count];
    let mut swept = vec![0.0f32; count];
    let mut previous: Vec<Option<(f32, bool)>> = vec![None; count];
    let mut lap_time = vec![None; count];
    let mut good_ticks = vec![0usize; count];
    let mut ticks = vec![0usize; count];
    let mut worst = vec![0.0f32; count];
    let total = ((PATROL_SETTLE + PATROL_SECONDS) / DT).round() as usize;
    for tick in 1..=total {
        simulation.step(DT);
        if (tick as f32) * DT <= PATROL_SETTLE {
            continue;
        }
        for (agent, v) in simulation.vehicles().iter().enumerate() {
            if lap_time[agent].is_some() {
                continue;
            }
            let (s, distance) = arc(simulation.world().wall_index(), v.position);
            let good = (distance - PATROL_OFFSET).abs() <= PATROL_TOLERANCE;
            ticks[agent] += 1;
            good_ticks[agent] += usize::from(good);
            worst[agent] = worst[agent].max((distance - PATROL_OFFSET).abs());
            if good {
                hit[agent][((s / BIN) as usize).min(bins - 1)] = true;
            }
            if let Some((s0, good0)) = previous[agent] {
                let step = (s - s0).rem_euclid(perimeter);
                // Forward, not a wrap backwards.
                let step = if step > perimeter / 2.0 {
                    step - perimeter
                } else {
                    step
                };
                swept[agent] += step;
                if good && good0 && (0.0..=corner_jump).contains(&step) {
                    let (first, last) = ((s0 / BIN) as usize, ((s0 + step) / BIN) as usize);
                    for bin in first..=last {
                        covered[agent][bin % bins] = true;
                    }
                }
            }
            previous[agent] = Some((s, good));
            if swept[agent] >= perimeter {
                lap_time[agent] = Some(tick as f32 * DT - PATROL_SETTLE);
            }
        }
    }
    for agent in 0..count {
        let share = covered[agent].iter().filter(|&&c| c).count() as f32 / bins as f32;
        let own = hit[agent].iter().filter(|&&c| c).count() as f32 / bins as f32;
        eprintln!(
            "perimeter {perimeter}: guard {agent} lap in {:?} s, covered at offset {:.1} % \
             ({:.1} % of bins hit by a tick's own projection), {:.1} % of ticks within tolerance, \
             farthest {:.2} off the offset",
            lap_time[agent],
            share * 100.0,
            own * 100.0,
            good_ticks[agent] as f32 / ticks[agent] as f32 * 100.0,
            worst[agent]
        );
        assert!(
            lap_time[agent].is_some(),
            "guard {agent} swept {:.1} of {perimeter} units",
            swept[agent]
        );
        assert!(
            share >= 0.95,
            "guard {agent} covered {:.1} %",
            share * 100.0
        );
    }
}
