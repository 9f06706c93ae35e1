//! The crowd presets of issue 13, with the numbers `BENCHMARKS.md` ("Crowds without overlaps")
//! reports: Reciprocal keeps 200 agents swapping sides of a circle and 400 agents crossing four
//! ways free of overlaps after the first second, and brings 95 % of them to their own goals
//! within 45 s; the classic separation / unaligned-collision-avoidance graph in the same scenes
//! arrives too, but overlaps.

use graph_runtime::Simulation;
use tests::{CrowdFigures, crowd_figures, run_preset, use_graph};

/// The time the issue asks us to state: 95 % of the agents at their goals within it (s).
const WITHIN: f32 = 45.0;

fn figures(scene: &str, graph: Option<&str>) -> CrowdFigures {
    let (mut assets, _) = run_preset(scene);
    if let Some(graph) = graph {
        use_graph(&mut assets, graph);
    }
    let mut simulation = Simulation::new(&assets).expect("the preset runs");
    let figures = crowd_figures(&mut simulation, WITHIN);
    eprintln!("{scene} with {graph:?}: {figures:?}");
    figures
}

fn assert_no_overlaps_and_arrival(figures: &CrowdFigures, agents: usize) {
    assert_eq!(figures.agents, agents);
    assert_eq!(
        figures.most_overlapping_pairs, 0,
        "no two agents closer than their radii after the first second (deepest {})",
        figures.deepest_overlap
    );
    let time = figures
        .time_to_95_percent
        .expect("95 % of the agents reach their goals");
    assert!(time <= WITHIN, "95 % at their goals after {time} s");
}

#[test]
fn reciprocal_swaps_the_circle_of_200_without_an_overlap() {
    let figures = figures("swap_circle.scene.ron", None);
    assert_no_overlaps_and_arrival(&figures, 200);
}

#[test]
fn reciprocal_crosses_four_blocks_of_100_without_an_overlap() {
    let figures = figures("four_way.scene.ron", None);
    assert_no_overlaps_and_arrival(&figures, 400);
}

#[test]
fn the_separation_graph_in_the_same_scenes_arrives_but_overlaps() {
    // The comparison the issue asks for: the same circle (its own preset) and crossing with
    // the classic stack. Both get their agents home, with overlaps all along the way.
    let circle = figures("swap_circle_separation.scene.ron", None);
    let crossing = figures("four_way.scene.ron", Some("separation_crowd.graph.ron"));
    for figures in [circle, crossing] {
        assert!(figures.time_to_95_percent.is_some_and(|t| t <= WITHIN));
        assert!(
            figures.most_overlapping_pairs >= 50 && figures.deepest_overlap > 0.5,
            "separation alone lets agents overlap: {figures:?}"
        );
    }
}

/// Every agent's position and velocity bits after `ticks` of the four-way crossing on a pool
/// of `threads` threads, with the stuck count.
fn four_way_bits(threads: usize, ticks: usize) -> (Vec<[u32; 4]>, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let (_, mut simulation) = run_preset("four_way.scene.ron");
        for _ in 0..ticks {
            simulation.step(1.0 / 60.0);
        }
        let bits = simulation
            .vehicles()
            .iter()
            .map(|v| {
                [
                    v.position.x.to_bits(),
                    v.position.y.to_bits(),
                    v.velocity.x.to_bits(),
                    v.velocity.y.to_bits(),
                ]
            })
            .collect();
        (bits, simulation.stuck_count())
    })
}

#[test]
fn the_four_way_crossing_is_bit_identical_on_one_and_three_threads() {
    // 20 s: the blocks have met in the middle, keep-right has turned many agents, and the
    // stuck clocks have run.
    let one = four_way_bits(1, 1200);
    let three = four_way_bits(3, 1200);
    assert_eq!(one.0.len(), 400);
    assert!(
        one == three,
        "the trajectories differ between 1 and 3 threads"
    );
}
