//! The river preset keeps flowing (issue 24, item 9): its painted current circulates round an
//! oval (right along the bottom, back left along the top), so the 60 swimmers go round and
//! round instead of piling up on the right border, as they did when the whole field pointed
//! right (after about 100 s all 60 were stuck there, with 519 pairs overlapping).
//!
//! Measured on the headless run below (seed 3, 60 ticks a second, 180 s): no agent is ever
//! stuck (no agent is slower than 0.25 units/s, 5 % of its preferred speed, for more than 10
//! ticks in a row, and every agent moves at least 1.55 units in every 2 s window); the agents
//! stay within x -57.8 to 53.6 and y -18.5 to 18.0 (spawned up to 18.0), inside the bounds
//! ±60 × ±20; the crowd's mean speed is 4.06 over the last 10 s (max speed 5) and never below
//! 3.32 after the first 10 s; every agent passes the middle of the bottom lane 3 times (laps
//! of 57 to 69 s, the third pass by 153.8 s); at most 2 pairs overlap after the first second,
//! none after 6.7 s, and from 30 s on no two agents come closer than 1.10 units (radii 0.5).

use glam::Vec2;
use graph_runtime::MetricsTracker;
use tests::run_preset;

const DT: f32 = 1.0 / 60.0;
/// How long the river runs (s).
const SECONDS: f32 = 180.0;
/// At most 5 % of the 60 agents may be stuck at any tick.
const MOST_STUCK: usize = 3;
/// The crowd's mean speed over the last `LAST` seconds, as a share of the top speed, is at
/// least this (measured 4.06 / 5 = 0.81).
const LAST: f32 = 10.0;
const LAST_SPEED_SHARE: f32 = 0.6;
/// After `SETTLE` seconds the crowd's mean speed at every tick, as a share of the top speed, is
/// at least this (measured 3.32 / 5 = 0.66 at the slowest tick, as the school rounds an end).
const SETTLE: f32 = 10.0;
const TICK_SPEED_SHARE: f32 = 0.5;
/// Times every agent passes `x = 0` going right along the bottom lane: two full laps (measured
/// 3 for every agent, the third pass at 153.8 s at the latest).
const PASSES: usize = 3;
/// From this time on (s), checked once a second, no two agents overlap (measured: none after
/// 6.7 s, the closest pair 1.10 units apart).
const NO_OVERLAP_AFTER: f32 = 30.0;

#[test]
fn the_river_keeps_flowing_for_three_minutes_inside_the_bounds() {
    let (assets, mut simulation) = run_preset("river.scene.ron");
    let bounds = assets.scene.bounds;
    let count = simulation.vehicles().len();
    assert_eq!(count, 60);
    let max_speed = simulation.vehicles()[0].max_speed;
    let ticks = (SECONDS / DT).round() as usize;
    let last_ticks = (LAST / DT).round() as usize;

    let mut previous: Vec<Vec2> = simulation.vehicles().iter().map(|v| v.position).collect();
    let mut passes = vec![0usize; count];
    let (mut low, mut high) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    let mut most_stuck = 0;
    let mut slowest_tick = f32::INFINITY;
    let mut last_speed_sum = 0.0;
    let mut most_overlapping = 0;
    let mut metrics = MetricsTracker::default();
    for tick in 1..=ticks {
        simulation.step(DT);
        let time = tick as f32 * DT;
        let stuck = simulation.stuck_count();
        most_stuck = most_stuck.max(stuck);
        assert!(
            stuck <= MOST_STUCK,
            "{stuck} agents stuck at {time:.2} s: {:?}",
            simulation.stuck_agents().collect::<Vec<_>>()
        );
        let mut speed_sum = 0.0;
        for (agent, v) in simulation.vehicles().iter().enumerate() {
            assert!(
                bounds.contains(v.position),
                "agent {agent} at {} is outside the bounds {bounds:?} at {time:.2} s",
                v.position
            );
            low = low.min(v.position);
            high = high.max(v.position);
            speed_sum += v.velocity.length();
            if v.position.y < 0.0 && previous[agent].x < 0.0 && v.position.x >= 0.0 {
                passes[agent] += 1;
            }
            previous[agent] = v.position;
        }
        let mean_speed = speed_sum / count as f32;
        if time > SETTLE {
            slowest_tick = slowest_tick.min(mean_speed);
        }
        if tick > ticks - last_ticks {
            last_speed_sum += mean_speed;
        }
        if time >= NO_OVERLAP_AFTER && tick.is_multiple_of(60) {
            let overlapping = metrics.observe(&simulation, time).agent_overlaps;
            most_overlapping = most_overlapping.max(overlapping);
        }
    }
    let last_speed = last_speed_sum / last_ticks as f32;
    let fewest_passes = passes.iter().copied().min().unwrap_or(0);
    eprintln!(
        "river: at most {most_stuck} stuck; positions from {low} to {high} (bounds {bounds:?}); \
         mean speed {last_speed:.3} over the last {LAST} s, at least {slowest_tick:.3} at any \
         tick after {SETTLE} s (max speed {max_speed}); passes along the bottom lane per agent \
         {fewest_passes} to {}; at most {most_overlapping} overlapping pairs after \
         {NO_OVERLAP_AFTER} s",
        passes.iter().copied().max().unwrap_or(0)
    );
    assert!(
        last_speed >= LAST_SPEED_SHARE * max_speed,
        "mean speed {last_speed} over the last {LAST} s"
    );
    assert!(
        slowest_tick >= TICK_SPEED_SHARE * max_speed,
        "mean speed down to {slowest_tick} after {SETTLE} s"
    );
    assert!(
        fewest_passes >= PASSES,
        "an agent went along the bottom lane only {fewest_passes} times: {passes:?}"
    );
    assert_eq!(
        most_overlapping, 0,
        "overlapping pairs after {NO_OVERLAP_AFTER} s"
    );
}
