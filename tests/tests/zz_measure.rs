use graph_runtime::{Graph, Scene, SceneAssets, Simulation, SpatialGrid};
use std::collections::BTreeMap;

fn measure(scene_file: &str, graph_file: &str, seconds: f32) {
    let text = std::fs::read_to_string(scene_file).unwrap().replace("GRAPH", "g.graph.ron");
    let scene = Scene::from_ron(&text, "s.scene.ron").unwrap();
    let graph = Graph::from_ron(&std::fs::read_to_string(graph_file).unwrap(), "g.graph.ron").unwrap();
    let assets = SceneAssets { scene, origin: "s.scene.ron".into(), graphs: [("g.graph.ron".to_owned(), graph)].into(), flow_fields: BTreeMap::new() };
    let mut sim = Simulation::new(&assets).unwrap();
    let n = sim.vehicles().len();
    let dt = 1.0 / 60.0;
    let mut grid = SpatialGrid::new(1.0);
    let mut nb = Vec::new();
    let mut max_pairs = 0usize; let mut overlap_ticks = 0usize; let mut reached_95 = None;
    let mut deepest: f32 = 0.0;
    for tick in 1..=((seconds / dt) as usize) {
        sim.step(dt);
        let vs = sim.vehicles();
        if tick as f32 * dt > 1.0 {
            grid.rebuild(vs);
            let mut pairs = 0;
            for (i, v) in vs.iter().enumerate() {
                grid.query(vs, v.position, 1.0, i, &mut nb);
                for &j in &nb { let j = j as usize; if i < j { let d = v.position.distance(vs[j].position); if d < v.radius + vs[j].radius { pairs += 1; deepest = deepest.max(v.radius + vs[j].radius - d); } } }
            }
            max_pairs = max_pairs.max(pairs); if pairs > 0 { overlap_ticks += 1; }
        }
        let reached = (0..n).filter(|&a| { let g = sim.own(a).and_then(|o| o.goal("goal")).unwrap(); vs[a].position.distance(g) < 1.0 }).count();
        if reached_95.is_none() && reached * 100 >= n * 95 { reached_95 = Some(tick as f32 * dt); }
    }
    eprintln!("{scene_file} + {graph_file}: {n} agents, max overlapping pairs after 1 s {max_pairs}, ticks with overlap {overlap_ticks}, deepest {deepest:.3}, 95% reached at {reached_95:?}");
}

#[test]
fn measure_all() {
    measure("/tmp/orca/circle.scene.ron", "/tmp/orca/crowd.graph.ron", 60.0);
    measure("/tmp/orca/four.scene.ron", "/tmp/orca/crowd.graph.ron", 60.0);
}
