//! The compiled boids graph moves agents bit for bit like the same behavior written by hand
//! against the behavior functions (the benchmark compares their speed, this their result).

#[path = "../benches/boids_fixture.rs"]
#[expect(
    dead_code,
    reason = "this test holds the fixture's flock to its loop, not its scene"
)]
mod boids_fixture;

#[test]
fn compiled_graph_matches_hand_written_loop_bit_for_bit() {
    let mut graph = boids_fixture::Flock::new(500);
    let mut hand = boids_fixture::Flock::new(500);
    for _ in 0..120 {
        graph.tick_graph();
        hand.tick_hand_written();
    }
    assert_eq!(graph.vehicles, hand.vehicles);
    // The flock did move and interact: not a trivially equal pair of still worlds.
    let moved = graph
        .vehicles
        .iter()
        .filter(|v| v.velocity.length() > 1.0)
        .count();
    assert!(moved > 250, "{moved} of 500 agents moving");
}
