//! Why an agent is stuck (`BEHAVIORS.md`, "Why an agent is stuck"): each rule on a scene
//! worked out by hand, and the rules' order where two could hold.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::diagnose::{Cause, diagnose};
use graph_runtime::{
    AgentGroup, AgentSpawn, Graph, Link, Node, NodeId, OwnPoints, Rect, Scene, SceneAssets,
    Simulation, Spawn, Target, VehicleSpec, Wall, WeightedInput,
};

const DT: f32 = 1.0 / 60.0;
const DOC: &str = include_str!("../BEHAVIORS.md");

/// Radius 0.5, top speed 4, force 20.
fn graph() -> Graph {
    Graph {
        vehicle: VehicleSpec {
            mass: 1.0.into(),
            max_force: 20.0.into(),
            max_speed: 4.0.into(),
            radius: 0.5.into(),
        },
        ..Graph::default()
    }
}

/// `Output(Blend(nodes with weights))`.
fn blended(mut graph: Graph, nodes: Vec<(Node, f32)>) -> Graph {
    let inputs = (nodes.into_iter())
        .map(|(node, weight)| WeightedInput {
            node: Link(Some(graph.add(node))),
            weight: weight.into(),
        })
        .collect();
    let blend = graph.add(Node::Blend { inputs });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    graph
}

fn arrival() -> Node {
    Node::Arrival {
        target: Target::Own("goal".to_owned()),
        slowing_distance: 1.0.into(),
    }
}

/// Agents at rest at `agents` (position, own goal) running `graph`, among `walls`.
fn simulation(graph: Graph, agents: &[(Vec2, Vec2)], walls: Vec<Wall>) -> Simulation {
    let spawn = Spawn::Agents(
        (agents.iter())
            .map(|&(position, _)| AgentSpawn {
                position,
                velocity: Vec2::ZERO,
            })
            .collect(),
    );
    let goals = OwnPoints::Each(agents.iter().map(|&(_, goal)| goal).collect());
    let scene = Scene {
        bounds: Rect::new(Vec2::splat(-20.0), Vec2::splat(20.0)),
        walls,
        groups: vec![AgentGroup {
            goals: [("goal".to_owned(), goals)].into(),
            ..AgentGroup::new("agents", "a.graph.ron", spawn)
        }],
        ..Scene::default()
    };
    let assets = SceneAssets {
        scene,
        origin: "d.scene.ron".to_owned(),
        graphs: [("a.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    };
    Simulation::new(&assets).expect("a valid scene")
}

fn cause(simulation: &Simulation, agent: usize) -> Cause {
    diagnose(simulation, agent, DT)
        .expect("the agent exists")
        .cause
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A horizontal wall along y = 0 from x = -5 to 5.
fn wall() -> Vec<Wall> {
    vec![Wall::polyline(vec![v(-5.0, 0.0), v(5.0, 0.0)])]
}

#[test]
fn behaviors_md_gives_the_thresholds_the_rules_use() {
    use graph_runtime::diagnose as d;
    for quote in [
        "within `3` times the sum of the two radii",
        "within `25°`",
        "at least `3` other held agents",
        "within `8` of its radii",
        "under `0.25` of their top speed",
        "within `2.5` of its radii",
        "within `1.25` times the sum",
        "headway under `0.25` of the speed",
        "under `0.2` of the sum of the leaves' sizes",
        "over `0.1` of that sum",
    ] {
        assert!(DOC.contains(quote), "BEHAVIORS.md no longer says: {quote}");
    }
    assert_eq!((d::HEAD_ON_REACH, d::HEAD_ON_DEGREES), (3.0, 25.0));
    assert_eq!((d::JAM_AGENTS, d::JAM_RADII, d::HELD_SPEED), (3, 8.0, 0.25));
    assert_eq!(
        (d::WALL_CONTACT, d::CONTACT, d::BLOCKED_SHARE),
        (2.5, 1.25, 0.25)
    );
    assert_eq!((d::CANCEL_RATIO, d::CANCEL_SHARE), (0.2, 0.1));
}

#[test]
fn a_seek_and_a_flee_of_equal_weight_cancel_and_are_named_with_their_forces() {
    // At rest at (-5, 0): Seek (8, 0) asks 4 u/s along +x, a force (4, 0); Flee from (2, 0)
    // asks 4 u/s along -x, (-4, 0). Blended 1 : 1 the output is 0: under 0.2 of their sizes' 8.
    let tug = |flee: f32| {
        let nodes = vec![
            (
                Node::Seek {
                    target: Target::Point(8.0.into(), 0.0.into()),
                },
                1.0,
            ),
            (
                Node::Flee {
                    target: Target::Point(2.0.into(), 0.0.into()),
                    panic_distance: None,
                },
                flee,
            ),
        ];
        simulation(
            blended(graph(), nodes),
            &[(v(-5.0, 0.0), v(8.0, 0.0))],
            Vec::new(),
        )
    };
    let diagnosis = diagnose(&tug(1.0), 0, DT).expect("an agent");
    let Cause::ForcesCancel { forces } = &diagnosis.cause else {
        panic!("{:?}", diagnosis.cause);
    };
    let sizes: Vec<(NodeId, f32)> = forces.iter().map(|(n, _, f)| (*n, f.length())).collect();
    assert_eq!(sizes, [(NodeId(1), 4.0), (NodeId(2), 4.0)]);
    assert_eq!(diagnosis.cause.nodes(), [NodeId(1), NodeId(2)]);
    assert_eq!(
        diagnosis.words(),
        "its forces cancel: Seek (node #1) 4.00, Flee (node #2) 4.00"
    );
    // Flee at half weight: the output (2, 0) is a quarter of the sizes' 8: no longer cancelled.
    assert_eq!(cause(&tug(0.5), 0), Cause::Unknown);
}

#[test]
fn an_agent_walking_toward_its_goal_is_walking_again_and_one_creeping_is_unknown() {
    // Alone, Arrival toward (10, 0) and nothing else: no rule before holds. Moving at
    // (2, 0.5), it makes 2 u/s toward the goal (its velocity's part along +x): half its top
    // speed of 4, over the 0.25 × 4 = 1 u/s from which it walks.
    let moving = |velocity: Vec2| {
        let g = blended(graph(), vec![(arrival(), 1.0)]);
        let mut simulation = simulation(g, &[(v(0.0, 0.0), v(10.0, 0.0))], Vec::new());
        simulation.vehicles_mut()[0].velocity = velocity;
        simulation
    };
    let diagnosis = diagnose(&moving(v(2.0, 0.5)), 0, DT).expect("an agent");
    assert_eq!(diagnosis.cause, Cause::Walking { speed: 2.0 });
    assert_eq!(diagnosis.cause.title(), "Walking again");
    assert!(
        diagnosis
            .words()
            .starts_with("not held now: it walks toward its goal at 2.0 u/s"),
        "{}",
        diagnosis.words()
    );
    // The same agent picked while it is not stalled: walking, and held by nothing.
    assert_eq!(diagnosis.title(true), "Walking again");
    assert_eq!(diagnosis.words_for(true), diagnosis.words());
    assert_eq!(diagnosis.title(false), "Walking");
    assert_eq!(
        diagnosis.words_for(false),
        "nothing holds it: it walks toward its goal at 2.0 u/s"
    );
    // 0.9 u/s toward it (3 aside): under 1 u/s, and nothing these rules know holds it.
    assert_eq!(cause(&moving(v(0.9, 3.0)), 0), Cause::Unknown);
}

#[test]
fn an_agent_whose_graph_heads_for_no_goal_and_moves_is_moving() {
    // Wander alone: no goal. Moving at (1.2, 1.6), 2 u/s, over the 0.25 × 4 = 1 u/s from
    // which an agent is not held: held by nothing, moving (a boid picked in the preview was
    // "Unknown" before).
    let moving = |velocity: Vec2| {
        let wander = Node::Wander {
            distance: 2.0.into(),
            radius: 1.0.into(),
            jitter: 90.0.into(),
            face: false,
        };
        let g = blended(graph(), vec![(wander, 1.0)]);
        let mut simulation = simulation(g, &[(v(0.0, 0.0), v(10.0, 0.0))], Vec::new());
        simulation.vehicles_mut()[0].velocity = velocity;
        simulation
    };
    let diagnosis = diagnose(&moving(v(1.2, 1.6)), 0, DT).expect("an agent");
    assert_eq!(diagnosis.goal, None);
    assert_eq!(diagnosis.cause, Cause::Walking { speed: 2.0 });
    assert_eq!(diagnosis.title(false), "Moving");
    assert_eq!(diagnosis.title(true), "Moving");
    assert_eq!(
        diagnosis.words(),
        "not held now: it moves at 2.0 u/s, and its graph heads for no goal"
    );
    assert_eq!(
        diagnosis.words_for(false),
        "nothing holds it: it moves at 2.0 u/s, and its graph heads for no goal (nothing to walk toward: wandering, flocking)"
    );
    // At 0.6 u/s it is held, by nothing these rules know.
    assert_eq!(cause(&moving(v(0.6, 0.0)), 0), Cause::Unknown);
}

#[test]
fn two_agents_each_in_the_others_way_are_head_on_and_two_going_the_same_way_are_not() {
    // 1.6 apart (within 3 × 1.0), each goal straight through the other.
    let g = || blended(graph(), vec![(arrival(), 1.0)]);
    let facing = simulation(
        g(),
        &[(v(-0.8, 0.0), v(5.0, 0.0)), (v(0.8, 0.0), v(-5.0, 0.0))],
        Vec::new(),
    );
    assert_eq!(cause(&facing, 0), Cause::HeadOn { other: 1 });
    assert_eq!(cause(&facing, 1), Cause::HeadOn { other: 0 });
    // 30° off the line (beyond 25°): not in each other's way.
    let off = v(5.0, 5.0 * 30.0_f32.to_radians().tan()) + v(-0.8, 0.0);
    let aside = simulation(
        g(),
        &[(v(-0.8, 0.0), off), (v(0.8, 0.0), v(-5.0, 0.0))],
        Vec::new(),
    );
    assert_ne!(cause(&aside, 0), Cause::HeadOn { other: 1 });
    let same = simulation(
        g(),
        &[(v(-0.8, 0.0), v(5.0, 0.0)), (v(0.8, 0.0), v(6.0, 0.0))],
        Vec::new(),
    );
    assert!(!matches!(cause(&same, 0), Cause::HeadOn { .. }));
}

#[test]
fn a_goal_behind_a_wall_is_a_trap_unless_the_graph_routes() {
    // From (0, -2) to (0, 3) the line meets the wall y = 0 at (0, 0).
    let walker = simulation(
        blended(graph(), vec![(arrival(), 1.0)]),
        &[(v(0.0, -2.0), v(0.0, 3.0))],
        wall(),
    );
    assert_eq!(cause(&walker, 0), Cause::BehindWall { wall: v(0.0, 0.0) });
    let navigate = Node::Navigate {
        target: Target::Own("goal".to_owned()),
        ahead_distance: 2.0.into(),
        slowing_distance: 1.0.into(),
        replan_distance: 2.0.into(),
        crowd_cost: 0.0.into(),
    };
    let router = simulation(
        blended(graph(), vec![(navigate, 1.0)]),
        &[(v(0.0, -2.0), v(0.0, 3.0))],
        wall(),
    );
    assert!(!matches!(cause(&router, 0), Cause::BehindWall { .. }));
}

#[test]
fn an_agent_against_a_wall_with_agents_on_its_other_side_is_pinned() {
    // 0.9 from the wall (within 2.5 × 0.5); agents at (±0.5, 1.8) are 1.03 away (within
    // 1.25 × 1.0) and on its far side from the wall. They stand on their own goals (heading
    // nowhere), so they make no jam.
    let agents = [
        (v(0.0, 0.9), v(0.0, 10.0)),
        (v(-0.5, 1.8), v(-0.5, 1.8)),
        (v(0.5, 1.8), v(0.5, 1.8)),
    ];
    let pinned = simulation(blended(graph(), vec![(arrival(), 1.0)]), &agents, wall());
    assert_eq!(
        cause(&pinned, 0),
        Cause::Pinned {
            wall: v(0.0, 0.0),
            others: vec![1, 2]
        }
    );
    let diagnosis = diagnose(&pinned, 0, DT).expect("an agent");
    assert_eq!(
        diagnosis.words(),
        "pinned against the wall at (0.0, 0.0) by agents 1 and 2"
    );
}

#[test]
fn three_held_agents_heading_the_same_way_by_a_wall_make_a_jam_and_two_do_not() {
    // Below the wall y = 0, all heading up through it; the others within 8 × 0.5 = 4 and at
    // rest, none in contact (1.44 and 1.4 apart: over 1.25 × 1.0), so no pin. The wall's
    // nearest point to (0, -1) is (0, 0).
    let mut agents = vec![
        (v(0.0, -1.0), v(0.0, 5.0)),
        (v(-1.2, -1.8), v(-1.2, 5.0)),
        (v(1.2, -1.8), v(1.2, 5.0)),
        (v(0.0, -2.4), v(0.0, 5.0)),
    ];
    let g = || blended(graph(), vec![(arrival(), 1.0)]);
    let jam = simulation(g(), &agents, wall());
    assert_eq!(
        cause(&jam, 0),
        Cause::Jammed {
            at: v(0.0, 0.0),
            others: 3
        }
    );
    agents.pop();
    let two = simulation(g(), &agents, wall());
    assert_eq!(cause(&two, 0), Cause::BehindWall { wall: v(0.0, 0.0) });
}

/// `Output(Reciprocal(Arrival(own goal)))`, Reciprocal as node #2 with no clearance and no
/// keep-right.
fn reciprocal_arrival() -> Graph {
    let mut g = graph();
    let arrive = g.add(arrival());
    let reciprocal = g.add(Node::Reciprocal {
        input: Link(Some(arrive)),
        time_horizon: 2.0.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 5.0.into(),
        max_neighbors: 10.0.into(),
        clearance: 0.0.into(),
        keep_right: 0.0.into(),
    });
    g.add(Node::Output {
        input: Link(Some(reciprocal)),
    });
    g
}

#[test]
fn reciprocal_blocked_by_an_agent_in_contact_has_no_safe_velocity() {
    // Reciprocal(Arrival) toward (5, 0); an agent standing on its own goal (heading nowhere,
    // so no head-on) touches it at 1.0 straight ahead: every velocity toward +x closes on it.
    let blocked = simulation(
        reciprocal_arrival(),
        &[(v(0.0, 0.0), v(5.0, 0.0)), (v(1.0, 0.0), v(1.0, 0.0))],
        Vec::new(),
    );
    assert_eq!(
        cause(&blocked, 0),
        Cause::NoSafeVelocity {
            node: NodeId(2),
            planes: 1
        }
    );
}

#[test]
fn reciprocal_that_only_lets_it_step_aside_has_no_safe_velocity_toward_the_goal() {
    // Arrival asks (4, 0) toward (5, 0) (5 units away, slowing within 1: full speed). Another
    // agent stands at rest on its own goal at (1.2, 0.3), 1.24 away (radii summing to 1).
    // Reciprocal's half-plane for it (time horizon 2), worked out as RVO2 does: the relative
    // velocity 0 lies in front of the cut-off disc (centre (1.2, 0.3) / 2 = (0.6, 0.15),
    // radius 0.5), w = 0 - (0.6, 0.15) = (-0.6, -0.15), |w| = 0.6185; the half-plane's normal
    // is w / |w| = (-0.970, -0.243) and its line passes through u / 2 = (0.5 - 0.6185) / 2 ×
    // (w / |w|) = (0.0575, 0.0144). (4, 0) lies 3.824 beyond it, so the velocity chosen is
    // (4, 0) - 3.824 × (0.970, 0.243) = (0.291, -0.927): 0.97 u/s, far over a crawl (0.1 of
    // 4, which is why its length alone could not tell), but 0.291 of it toward the goal,
    // under the quarter (1 u/s of the 4 asked) that counts as headway: a step aside.
    let aside = simulation(
        reciprocal_arrival(),
        &[(v(0.0, 0.0), v(5.0, 0.0)), (v(1.2, 0.3), v(1.2, 0.3))],
        Vec::new(),
    );
    let mut trace = graph_runtime::Trace::default();
    aside.trace(0, DT, &mut trace).expect("agent 0 exists");
    let (preferred, chosen) = (trace.entries.iter())
        .find_map(|entry| match entry.guide {
            graph_runtime::Guide::Reciprocal {
                preferred, chosen, ..
            } => Some((preferred, chosen)),
            _ => None,
        })
        .expect("Reciprocal's guide");
    assert!(preferred.abs_diff_eq(v(4.0, 0.0), 1e-4), "{preferred}");
    assert!(chosen.abs_diff_eq(v(0.291, -0.927), 2e-3), "{chosen}");
    assert_eq!(
        cause(&aside, 0),
        Cause::NoSafeVelocity {
            node: NodeId(2),
            planes: 1
        }
    );
}
