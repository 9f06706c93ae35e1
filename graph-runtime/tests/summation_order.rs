//! Neighbor sums are taken in the grid's order (rows of cells, cells left to right, agents of
//! a cell by index) rather than in ascending agent index, as before issue 15. These tests prove
//! that this changed the order of the additions and nothing else: the same neighbors, the same
//! terms and a difference of rounding only. (That the order does not depend on how a caller
//! keeps its agents is checked in `spatial.rs` and by `fast_loop.rs`'s
//! `the_cell_ordered_layout_changes_no_bit`.)

use glam::Vec2;
use graph_runtime::behaviors::{self, FieldOfView, NeighborSums};
use graph_runtime::{Near, SpatialGrid, Vehicle, VehicleParams};

/// 3,000 agents scattered over 150 × 150 units (about ten within 5 units of each), with
/// velocities of every direction; a few pairs coincide.
fn crowd() -> Vec<Vehicle> {
    let mut state: u64 = 0x5EED;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut vehicles: Vec<Vehicle> = (0..3_000)
        .map(|_| {
            let position = Vec2::new(next() * 150.0 - 75.0, next() * 150.0 - 20.0);
            let velocity = Vec2::new(next() * 4.0 - 2.0, next() * 4.0 - 2.0);
            Vehicle::new(position, velocity, VehicleParams::default())
        })
        .collect();
    for i in (0..3_000).step_by(500) {
        vehicles[i + 1].position = vehicles[i].position;
    }
    vehicles
}

/// The neighbors of agent `me` within `radius` and `fov`, in the order the grid's runs list
/// them.
fn in_grid_order(
    grid: &SpatialGrid,
    vehicles: &[Vehicle],
    me: usize,
    radius: f32,
    fov: FieldOfView,
) -> Vec<usize> {
    let vehicle = &vehicles[me];
    grid.runs(vehicle.position, radius)
        .flat_map(|run| run.agents.iter().map(|&agent| agent as usize))
        .filter(|&other| {
            other != me
                && behaviors::in_neighborhood(vehicle, vehicles[other].position, radius, fov)
        })
        .collect()
}

#[test]
fn grid_order_sums_the_same_terms_as_agent_order_and_differs_by_rounding_only() {
    let vehicles = crowd();
    let mut grid = SpatialGrid::new(5.0);
    grid.rebuild(&vehicles);
    let (mut reordered, mut differing, mut coincident) = (0, 0, 0);
    let mut near = Near::default();
    for fov in [360.0, 270.0, 90.0].map(FieldOfView::from_degrees) {
        for (me, vehicle) in vehicles.iter().enumerate() {
            // The evaluator's way: the agents near in the grid's order, then the sums of two
            // neighborhoods over them.
            grid.near(vehicle.position, 5.0, me, &mut near);
            let mut each = [NeighborSums::default(); 2];
            let neighborhoods = [(5.0, fov), (2.5, fov)];
            behaviors::neighbor_sums_each(vehicle, near.as_slice(), &neighborhoods, &mut each);
            let sums = each[0];
            // The old order: every other agent, ascending index.
            let by_index: Vec<usize> = (0..vehicles.len())
                .filter(|&other| {
                    other != me
                        && behaviors::in_neighborhood(vehicle, vehicles[other].position, 5.0, fov)
                })
                .collect();
            let by_grid = in_grid_order(&grid, &vehicles, me, 5.0, fov);
            // The same neighbors, each once: only the order changed.
            let mut sorted = by_grid.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, by_index, "agent {me}: not the same neighbors");
            reordered += usize::from(by_grid != by_index);
            coincident += by_grid
                .iter()
                .filter(|&&other| vehicles[other].position == vehicle.position)
                .count();
            // The new sums are exactly those terms added in the grid's order...
            let again = NeighborSums::over(vehicle, by_grid.iter().map(|&i| &vehicles[i]));
            assert_eq!(sums, again, "agent {me}");
            // ... whatever other neighborhood is listed with them: the inner one alone, from
            // its own list, gives the same bits...
            grid.near(vehicle.position, 2.5, me, &mut near);
            let mut inner = [NeighborSums::default()];
            behaviors::neighbor_sums_each(vehicle, near.as_slice(), &[(2.5, fov)], &mut inner);
            assert_eq!(each[1], inner[0], "agent {me}");
            // ... and differ from the old order's by rounding: each component by at most
            // 2⁻²⁰ (about 1e-6) of the sum of its terms' sizes.
            let old = NeighborSums::over(vehicle, by_index.iter().map(|&i| &vehicles[i]));
            assert_eq!(sums.count, old.count);
            let scale = |term: fn(&Vehicle, &Vehicle) -> Vec2| {
                by_index
                    .iter()
                    .map(|&i| term(vehicle, &vehicles[i]).abs())
                    .fold(Vec2::ZERO, |a, b| a + b)
            };
            let bound = |size: Vec2| size * 2f32.powi(-20) + Vec2::splat(f32::MIN_POSITIVE);
            let separation = scale(|me, q| {
                let away = me.position - q.position;
                if away.length() < 1e-6 {
                    Vec2::ZERO
                } else {
                    away / away.length_squared()
                }
            });
            for (new, old, size) in [
                (sums.separation, old.separation, separation),
                (sums.position, old.position, scale(|_, q| q.position)),
                (sums.velocity, old.velocity, scale(|_, q| q.velocity)),
            ] {
                let gap = (new - old).abs();
                assert!(
                    gap.cmple(bound(size)).all(),
                    "agent {me}: {new} against {old}"
                );
            }
            differing += usize::from(sums != old);
        }
    }
    // The test means something: the order changed for most agents, some sums changed in
    // their last bits, and coincident neighbors were met (counted, not repelled).
    assert!(reordered > 3_000, "{reordered} reordered neighborhoods");
    assert!(differing > 100, "{differing} sums changed by rounding");
    assert!(coincident > 0);
}
