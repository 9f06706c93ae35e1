//! Every preset in `presets/`, embedded in the binary so the editor works from any directory.

/// One embedded asset.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Name shown in the Presets menu.
    pub name: &'static str,
    /// File name in `presets/`.
    pub file: &'static str,
    /// The file's text.
    pub text: &'static str,
}

macro_rules! presets {
    ($($name:literal => $file:literal),* $(,)?) => {
        &[$(Preset { name: $name, file: $file, text: include_str!(concat!("../../../presets/", $file)) }),*]
    };
}

/// The preset graphs, in menu order.
pub const GRAPHS: &[Preset] = presets![
    "Boids with obstacle avoidance" => "boids.graph.ron",
    "Arrival at the cursor" => "arrival.graph.ron",
    "Seek the cursor" => "seek.graph.ron",
    "Predator (pursuit)" => "predator.graph.ron",
    "Prey (flee and evasion)" => "prey.graph.ron",
    "Escort (offset pursuit)" => "escort.graph.ron",
    "Chaser (pursuit)" => "chaser.graph.ron",
    "Ship (wander)" => "ship.graph.ron",
    "Wander and containment" => "wander.graph.ron",
    "Obstacle course" => "course.graph.ron",
    "Path patrol" => "patrol.graph.ron",
    "Flow-field river" => "river.graph.ron",
    "Flow field to a goal (gate by distance)" => "maze.graph.ron",
    "Crossing crowds (overridden goal)" => "crossing.graph.ron",
    "Leader" => "leader.graph.ron",
    "Follower (leader following + separation)" => "follower.graph.ron",
    "VIP (wander)" => "vip.graph.ron",
    "Bodyguard (interpose)" => "bodyguard.graph.ron",
    "Hider (hide)" => "hider.graph.ron",
    "Prioritized dither" => "dither.graph.ron",
    "Force budget" => "budget.graph.ron",
    "Errands (each agent's own goal)" => "errands.graph.ron",
    "Zig-zag corridor (wall avoidance, flow field)" => "corridor.graph.ron",
    "Room exits (wall avoidance, painted field)" => "rooms.graph.ron",
    "Perimeter patrol (wall following)" => "perimeter.graph.ron",
    "Crowd without overlaps (Reciprocal / ORCA)" => "orca_crowd.graph.ron",
    "Crowd with separation (to compare)" => "separation_crowd.graph.ron",
    "Sentry (patrol, face the intruder)" => "sentry.graph.ron",
    "Intruder (wander, look where you are going)" => "intruder.graph.ron",
    "Strafing flyer (orbit, face the beacon)" => "flyer.graph.ron",
    "Wingman (match velocity and facing)" => "wingman.graph.ron",
    "Car (turn-rate limit)" => "car.graph.ron",
    "Jumper (jump links)" => "jumper.graph.ron",
    "Walker (the long way round)" => "walker.graph.ron",
    "Navigator (planned routes through doors)" => "navigator.graph.ron",
];

/// The preset scenes and flow fields.
pub const SCENES: &[Preset] = presets![
    "Boids" => "boids.scene.ron",
    "Arrival" => "arrival.scene.ron",
    "Seek and arrival" => "seek.scene.ron",
    "Predator and prey" => "chase.scene.ron",
    "Pursuit and offset pursuit" => "escort.scene.ron",
    "Wander" => "wander.scene.ron",
    "Obstacle course" => "course.scene.ron",
    "Patrol" => "patrol.scene.ron",
    "River" => "river.scene.ron",
    "River field" => "river.flow.ron",
    "Maze" => "maze.scene.ron",
    "Maze field" => "maze.flow.ron",
    "Crossing crowds" => "crossing.scene.ron",
    "Leader following" => "leader.scene.ron",
    "Interpose and hide" => "tactics.scene.ron",
    "Dither" => "dither.scene.ron",
    "Budget" => "budget.scene.ron",
    "Errands (own goals)" => "errands.scene.ron",
    "Zig-zag corridor" => "corridor.scene.ron",
    "Zig-zag corridor field" => "corridor.flow.ron",
    "Room and doors" => "rooms.scene.ron",
    "Room and doors field" => "rooms.flow.ron",
    "Perimeter patrol" => "perimeter.scene.ron",
    "Swap circle (200 agents)" => "swap_circle.scene.ron",
    "Four-way crossing (4 × 100 agents)" => "four_way.scene.ron",
    "Swap circle with separation (to compare)" => "swap_circle_separation.scene.ron",
    "Sentry and intruder (independent facing)" => "sentry.scene.ron",
    "Strafing flyers" => "strafe.scene.ron",
    "Road (turn-rate limit)" => "road.scene.ron",
    "Chasm (jumps and gaps)" => "chasm.scene.ron",
    "Halls (rooms, doors, planned routes)" => "halls.scene.ron",
    "Jammed door (the second way round)" => "jammed.scene.ron",
    "VIP through a crowd (avoidance priority)" => "vip.scene.ron",
    "Two teams (avoidance layers)" => "teams.scene.ron",
];

/// The Presets menu's families, in menu order: each holds graphs and scenes (by file name)
/// that show one kind of behavior, so every submenu fits a 640-point-high window.
pub const FAMILIES: &[(&str, &[&str])] = &[
    (
        "Seek, arrive and wander",
        &[
            "seek.graph.ron",
            "arrival.graph.ron",
            "ship.graph.ron",
            "wander.graph.ron",
            "seek.scene.ron",
            "arrival.scene.ron",
            "wander.scene.ron",
        ],
    ),
    (
        "Pursuit, evasion and tactics",
        &[
            "predator.graph.ron",
            "prey.graph.ron",
            "chaser.graph.ron",
            "escort.graph.ron",
            "vip.graph.ron",
            "bodyguard.graph.ron",
            "hider.graph.ron",
            "chase.scene.ron",
            "escort.scene.ron",
            "tactics.scene.ron",
        ],
    ),
    (
        "Flocks and crowds",
        &[
            "boids.graph.ron",
            "leader.graph.ron",
            "follower.graph.ron",
            "crossing.graph.ron",
            "errands.graph.ron",
            "orca_crowd.graph.ron",
            "separation_crowd.graph.ron",
            "boids.scene.ron",
            "leader.scene.ron",
            "crossing.scene.ron",
            "errands.scene.ron",
            "swap_circle.scene.ron",
            "four_way.scene.ron",
            "swap_circle_separation.scene.ron",
        ],
    ),
    (
        "Paths, flow fields and walls",
        &[
            "course.graph.ron",
            "patrol.graph.ron",
            "river.graph.ron",
            "maze.graph.ron",
            "corridor.graph.ron",
            "rooms.graph.ron",
            "perimeter.graph.ron",
            "course.scene.ron",
            "patrol.scene.ron",
            "river.scene.ron",
            "maze.scene.ron",
            "corridor.scene.ron",
            "rooms.scene.ron",
            "perimeter.scene.ron",
        ],
    ),
    (
        "Planned routes and avoidance",
        &[
            "navigator.graph.ron",
            "halls.scene.ron",
            "jammed.scene.ron",
            "vip.scene.ron",
            "teams.scene.ron",
        ],
    ),
    (
        "Combiners",
        &[
            "dither.graph.ron",
            "budget.graph.ron",
            "dither.scene.ron",
            "budget.scene.ron",
        ],
    ),
    (
        "Facing, turning and jumps",
        &[
            "sentry.graph.ron",
            "intruder.graph.ron",
            "flyer.graph.ron",
            "wingman.graph.ron",
            "car.graph.ron",
            "jumper.graph.ron",
            "walker.graph.ron",
            "sentry.scene.ron",
            "strafe.scene.ron",
            "road.scene.ron",
            "chasm.scene.ron",
        ],
    ),
];

/// The graph the editor opens with.
pub fn default_graph() -> &'static Preset {
    &GRAPHS[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .expect("presets folder")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|name| {
                std::path::Path::new(name)
                    .extension()
                    .is_some_and(|e| e == "ron")
            })
            // Tuning problems are for `steergraph tune`, not files the editor opens.
            .filter(|name| !name.ends_with(".tune.ron"))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = GRAPHS
            .iter()
            .chain(SCENES)
            .map(|p| p.file.to_owned())
            .collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
    }

    #[test]
    fn every_graph_and_scene_is_in_exactly_one_family() {
        let listed: Vec<&str> = FAMILIES
            .iter()
            .flat_map(|(_, files)| files.iter().copied())
            .collect();
        let menu_files: Vec<&str> = GRAPHS
            .iter()
            .chain(SCENES)
            .map(|p| p.file)
            .filter(|f| !f.ends_with(".flow.ron"))
            .collect();
        for file in &menu_files {
            let times = listed.iter().filter(|l| *l == file).count();
            assert_eq!(times, 1, "{file} is in {times} families");
        }
        for file in &listed {
            assert!(menu_files.contains(file), "{file} is no preset");
        }
    }

    #[test]
    fn every_embedded_graph_loads() {
        for preset in GRAPHS {
            graph_runtime::Graph::from_ron(preset.text, preset.file).expect(preset.file);
        }
    }
}
