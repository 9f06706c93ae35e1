//! Tracing one agent records every evaluated node with the geometry guides need, and gives
//! exactly the force an untraced evaluation gives.

#[path = "../benches/boids_fixture.rs"]
#[expect(dead_code, reason = "this test only uses the fixture's flock setup")]
mod boids_fixture;

use graph_runtime::{Context, Guide, NodeId, NodeValue, Trace};

#[test]
fn a_traced_evaluation_gives_the_same_force_and_records_guides() {
    let mut flock = boids_fixture::Flock::new(300);
    for _ in 0..20 {
        flock.tick_graph();
    }
    flock.grid.rebuild(&flock.vehicles);
    let context = Context {
        world: &flock.world,
        vehicles: &flock.vehicles,
        tags: &[],
        grid: &flock.grid,
        bindings: &flock.bindings,
        params: &flock.params,
        dt: boids_fixture::DT,
    };
    let mut found_flock = false;
    for agent in 0..300 {
        let mut plain_state = flock.states[agent].clone();
        let mut traced_state = flock.states[agent].clone();
        let plain = flock
            .program
            .steer(&context, agent, &mut plain_state, &mut flock.scratch);
        let mut trace = Trace::default();
        let traced = flock.program.steer_traced(
            &context,
            agent,
            &mut traced_state,
            &mut flock.scratch,
            &mut trace,
        );
        assert_eq!(plain.to_array(), traced.to_array(), "agent {agent}");
        // Obstacle avoidance (node 1) is always evaluated first, with its corridor.
        let avoid = trace.get(NodeId(1)).expect("avoidance evaluated");
        let Guide::Corridor { length, half_width } = avoid.guide else {
            panic!("{avoid:?}")
        };
        let speed = flock.vehicles[agent].velocity.length();
        assert!((length - (2.0 + speed * 1.0)).abs() < 1e-5);
        assert_eq!(half_width, 0.5);
        // The Output's value is the returned force.
        assert_eq!(
            trace.get(NodeId(7)).expect("output").value,
            NodeValue::Force(traced)
        );
        if let Some(entry) = trace.get(NodeId(3)) {
            found_flock = true;
            assert_eq!(
                entry.guide,
                Guide::Neighborhood {
                    radius: 4.0,
                    fov: 270.0
                }
            );
            let Guide::Wander { radius, .. } = trace.get(NodeId(4)).expect("wander").guide else {
                panic!("wander guide")
            };
            assert_eq!(radius, 1.0);
        }
    }
    assert!(found_flock, "some agent reached the flocking branch");
}
