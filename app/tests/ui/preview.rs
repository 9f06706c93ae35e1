//! The live preview driven headless through `egui_kittest`: tools, agent picking, hot swap
//! and stepping, checked against the scene and the simulation.

use crate::common;

use app::editor::{Command, EditorApp, Item, Tool};
use common::{click_at, drag, harness};
use egui::{Event, Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{Node, Number, Slot};

/// The preview's running simulation.
fn running<'h>(harness: &'h Harness<'_, EditorApp>) -> &'h graph_runtime::Simulation {
    harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .expect("the preview runs its scene")
}

#[test]
fn the_preview_runs_the_scene_of_the_open_graph() {
    let dir = tempfile::tempdir().expect("temp dir");
    let harness = harness(dir.path());
    let preview = &harness.state().preview;
    assert!(
        preview.host.problems.is_empty(),
        "{:?}",
        preview.host.problems
    );
    assert_eq!(preview.agent_count(), 400, "the boids preset scene");
    assert!(harness.state().preview.rect().is_some());
}

#[test]
fn adding_an_obstacle_with_the_tool_adds_it_to_the_scene_and_undo_removes_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let before = crate::common::scene(&harness).scene.obstacles.len();
    harness.get_by_label("Add obstacle").click();
    harness.run_steps(2);
    assert_eq!(harness.state().preview.tool, Tool::AddObstacle);
    let rect = harness.state().preview.rect().expect("viewport");
    let at = rect.center() + egui::vec2(-rect.width() * 0.3, rect.height() * 0.3);
    click_at(&mut harness, at);
    let preview = &harness.state().preview;
    assert_eq!(
        crate::common::scene(&harness).scene.obstacles.len(),
        before + 1
    );
    let added = harness
        .state()
        .workspace
        .scene
        .scene
        .obstacles
        .last()
        .expect("added");
    let expected = preview.view.to_world(rect, at);
    assert!(
        added.center.distance(expected) < 1e-3,
        "placed under the click"
    );
    // The running world has it too.
    let world = preview.host.simulation.as_ref().expect("running").world();
    assert_eq!(world.obstacles.len(), before + 1);
    assert_eq!(
        preview.selected_item,
        Some(Item::Obstacle(before)),
        "the new obstacle is selected, its settings under the toolbar"
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        crate::common::scene(&harness).scene.obstacles.len(),
        before,
        "undo covers scene edits"
    );
    // The undone obstacle is no longer selected: the bar under the toolbar shows the tool's
    // hint again, not a Delete button for an obstacle that is not there.
    assert_eq!(harness.state().preview.selected_item, None);
    assert!(
        harness.query_by_label(Tool::AddObstacle.hint()).is_some(),
        "the tool's hint is back"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    harness.run_steps(2);
    assert_eq!(
        crate::common::scene(&harness).scene.obstacles.len(),
        before + 1,
        "and redo"
    );
}

#[test]
fn clicking_an_agent_opens_its_inspector() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let rect = harness.state().preview.rect().expect("viewport");
    let preview = &harness.state().preview;
    let vehicles = running(&harness).vehicles();
    // An agent well inside the view.
    let (agent, at) = vehicles
        .iter()
        .enumerate()
        .map(|(i, v)| (i, preview.view.to_screen(rect, v.position)))
        .find(|(_, p)| rect.shrink(40.0).contains(*p))
        .expect("an agent in view");
    click_at(&mut harness, at);
    assert_eq!(harness.state().preview.host.selected_agent, Some(agent));
    harness.get_by_label_contains(&format!("Agent {agent} of group \"boids\""));
    // Its evaluation is traced: the nodes of the open graph show live values.
    assert!(!harness.state().preview.host.trace.entries.is_empty());
    assert!(
        harness.query_all_by_label_contains("|F|").count() > 0,
        "live force on the nodes"
    );
}

#[test]
fn a_graph_edit_hot_swaps_the_program_and_keeps_agent_positions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let before: Vec<glam::Vec2> = running(&harness)
        .vehicles()
        .iter()
        .map(|v| v.position)
        .collect();
    let program_before = running(&harness).groups()[0].program.clone();
    // Edit the Wander node's radius, as the inspector would.
    let mut node = crate::common::document(&harness)
        .node(graph_runtime::NodeId(4))
        .expect("wander node")
        .clone();
    assert!(matches!(node, Node::Wander { .. }));
    *node.number_mut(Slot::field("radius")).expect("radius") = Number::Literal(2.5);
    harness
        .state_mut()
        .apply(Command::SetNode(graph_runtime::NodeId(4), node));
    harness.run_steps(3);
    let simulation = running(&harness);
    let after: Vec<glam::Vec2> = simulation.vehicles().iter().map(|v| v.position).collect();
    assert_eq!(before, after, "no agent moved or respawned");
    assert!(
        !std::sync::Arc::ptr_eq(&program_before, &simulation.groups()[0].program),
        "the new program runs"
    );
}

#[test]
fn a_new_top_speed_in_the_vehicle_panel_reaches_the_running_agents() {
    // The preview writes the new limits into its agents (`vehicles_mut`); the simulation must
    // take them into the copy it steps, not step its old one and write that back.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let mut vehicle = crate::common::document(&harness).vehicle.clone();
    vehicle.max_speed = Number::Literal(1.0);
    harness.state_mut().apply(Command::SetVehicle(vehicle));
    harness.run_steps(3);
    let before = running(&harness).tick();
    harness.state_mut().preview.host.running = true;
    harness.run_steps(8);
    let simulation = running(&harness);
    // Eight frames of a quarter second: 15 ticks due each, six run (a frame's most).
    assert_eq!(simulation.tick(), before + 48);
    for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
        assert_eq!(vehicle.max_speed, 1.0, "agent {agent}");
        // The preset's boids flew at about 3.5 u/s before: now none beats the new limit.
        assert!(
            vehicle.velocity.length() <= 1.0 + 1e-5,
            "agent {agent} at {} u/s",
            vehicle.velocity.length()
        );
    }
}

#[test]
fn pause_and_step_advance_exactly_one_tick() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let tick = running(&harness).tick();
    harness.run_steps(5);
    assert_eq!(running(&harness).tick(), tick, "paused");
    harness.get_by_label("Step").click();
    harness.run_steps(5);
    assert_eq!(running(&harness).tick(), tick + 1);
    harness.get_by_label("Step").click();
    harness.run_steps(1);
    assert_eq!(running(&harness).tick(), tick + 2);
}

#[test]
fn the_cursor_target_follows_the_mouse() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let rect = harness.state().preview.rect().expect("viewport");
    let at = rect.center() + egui::vec2(50.0, -30.0);
    harness.event(Event::PointerMoved(at));
    harness.run_steps(3);
    let preview = &harness.state().preview;
    let cursor = running(&harness).world().target("cursor").expect("cursor");
    assert!(cursor.distance(preview.view.to_world(rect, at)) < 1e-3);
}

#[test]
fn painting_a_field_updates_the_running_world_and_one_stroke_is_one_undo_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let maze = common::preset_index("maze.graph.ron");
    harness.state_mut().open_preset(maze);
    harness.run_steps(3);
    harness.state_mut().preview.host.running = false;
    harness.get_by_label("Paint field").click();
    harness.run_steps(2);
    assert_eq!(harness.state().preview.tool, Tool::PaintField);
    assert_eq!(
        harness.state().preview.paint.field.as_deref(),
        Some("to goal")
    );
    harness.state_mut().preview.paint.brush = graph_runtime::Brush {
        radius: 4.0,
        strength: 1.0,
        softness: 0.0,
    };
    let before = crate::common::scene(&harness).fields["to goal"].clone();

    // One stroke: press, move right over several frames, release.
    let rect = harness.state().preview.rect().expect("viewport");
    let start = rect.center() + egui::vec2(-120.0, 40.0);
    drag(&mut harness, start, start + egui::vec2(240.0, 0.0), 8);

    let preview = &harness.state().preview;
    let painted = crate::common::scene(&harness).fields["to goal"].clone();
    assert_ne!(painted, before, "the stroke painted");
    // Under the middle of the stroke the field now points along it (+x, to the right).
    let middle = preview.view.to_world(rect, start + egui::vec2(120.0, 0.0));
    assert!(
        (painted.sample(middle) - glam::Vec2::X).length() < 0.05,
        "{}",
        painted.sample(middle)
    );
    let live = preview
        .host
        .simulation
        .as_ref()
        .expect("running")
        .world()
        .flow_field("to goal")
        .expect("field");
    assert_eq!(live, &painted, "agents follow the painted field at once");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        crate::common::scene(&harness).fields["to goal"],
        before,
        "one undo removes the whole stroke"
    );
}

/// Chooses "Draw wall" and clicks at the screen offsets `corners` from the viewport's centre;
/// returns the corners in screen points.
fn draw_wall(harness: &mut Harness<'static, EditorApp>, corners: &[egui::Vec2]) -> Vec<Pos2> {
    harness.get_by_label("Draw wall").click();
    harness.run_steps(2);
    assert_eq!(harness.state().preview.tool, Tool::DrawWall);
    let rect = harness.state().preview.rect().expect("viewport");
    let corners: Vec<Pos2> = corners.iter().map(|c| rect.center() + *c).collect();
    for at in &corners {
        click_at(harness, *at);
    }
    corners
}

fn scene_walls(harness: &Harness<'static, EditorApp>) -> Vec<graph_runtime::Wall> {
    crate::common::scene(harness).scene.walls.clone()
}

fn running_walls(harness: &Harness<'static, EditorApp>) -> Vec<graph_runtime::Wall> {
    let preview = &harness.state().preview;
    let simulation = preview.host.simulation.as_ref().expect("running");
    simulation.world().walls().to_vec()
}

fn assert_near(screen: Pos2, world: glam::Vec2, harness: &Harness<'static, EditorApp>) {
    let preview = &harness.state().preview;
    let rect = preview.rect().expect("viewport");
    let expected = preview.view.to_world(rect, screen);
    assert!(
        world.distance(expected) < 1e-3,
        "{world} is not under {screen:?}"
    );
}

const TRIANGLE: [egui::Vec2; 3] = [
    egui::vec2(-200.0, 120.0),
    egui::vec2(0.0, 220.0),
    egui::vec2(200.0, 120.0),
];

#[test]
fn drawing_a_wall_adds_it_to_the_scene_and_the_running_world_and_undo_takes_one_click() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    assert!(
        scene_walls(&harness).is_empty(),
        "the boids scene has no walls"
    );
    let corners = draw_wall(&mut harness, &TRIANGLE[..1]);
    assert!(scene_walls(&harness).is_empty(), "no one-corner wall");
    let rest = draw_wall(&mut harness, &TRIANGLE[1..]);
    let corners: Vec<Pos2> = corners.into_iter().chain(rest).collect();
    harness.key_press(Key::Enter);
    harness.run_steps(2);

    let walls = scene_walls(&harness);
    assert_eq!(walls.len(), 1);
    assert!(!walls[0].closed);
    assert_eq!(walls[0].points.len(), 3);
    for (screen, world) in corners.iter().zip(&walls[0].points) {
        assert_near(*screen, *world, &harness);
    }
    assert_eq!(
        running_walls(&harness),
        walls,
        "agents meet the wall at once"
    );

    // Enter finished it: the next click starts a new wall, not in the scene yet.
    click_at(&mut harness, corners[0] + egui::vec2(0.0, -300.0));
    assert_eq!(scene_walls(&harness), walls);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    let undone = scene_walls(&harness);
    assert_eq!(undone.len(), 1);
    assert_eq!(
        undone[0].points,
        walls[0].points[..2],
        "one undo takes one corner"
    );
    assert_eq!(running_walls(&harness), undone);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert!(scene_walls(&harness).is_empty(), "and the next the wall");
    assert!(running_walls(&harness).is_empty());
}

#[test]
fn clicking_the_first_corner_closes_the_wall_into_a_polygon() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let corners = draw_wall(&mut harness, &TRIANGLE);
    click_at(&mut harness, corners[0] + egui::vec2(2.0, -2.0));
    let walls = scene_walls(&harness);
    assert_eq!(walls.len(), 1);
    assert!(walls[0].closed);
    assert_eq!(walls[0].points.len(), 3, "the closing click adds no corner");
    assert_eq!(running_walls(&harness), walls);
    // Closing finished it.
    click_at(&mut harness, corners[1] + egui::vec2(0.0, -300.0));
    assert_eq!(scene_walls(&harness), walls);
}

#[test]
fn select_drags_a_wall_corner_and_delete_removes_it_then_the_wall() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let corners = draw_wall(&mut harness, &TRIANGLE);
    harness.get_by_label("Select").click();
    harness.run_steps(2);
    let drawn = scene_walls(&harness);

    // Toward the middle: the pointer stays over the viewport, where Delete is read (60 down
    // left it under the viewport's bottom once the timeline took a third line).
    let to = corners[1] + egui::vec2(40.0, -60.0);
    drag(&mut harness, corners[1], to, 6);
    let walls = scene_walls(&harness);
    assert_near(to, walls[0].points[1], &harness);
    assert_eq!(walls[0].points[0], drawn[0].points[0], "the others stay");
    assert_eq!(running_walls(&harness), walls);
    assert_eq!(
        harness.state().preview.selected_item,
        Some(app::editor::Item::Wall(0, Some(1)))
    );

    harness.key_press(Key::Delete);
    harness.run_steps(2);
    let walls = scene_walls(&harness);
    assert_eq!(walls[0].points, [drawn[0].points[0], drawn[0].points[2]]);
    assert_eq!(running_walls(&harness), walls);

    // Grabbing the remaining segment selects the whole wall; Delete removes it.
    let middle = corners[0] + (corners[2] - corners[0]) * 0.5;
    drag(&mut harness, middle, middle + egui::vec2(0.0, 30.0), 6);
    assert_eq!(
        harness.state().preview.selected_item,
        Some(app::editor::Item::Wall(0, None))
    );
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert!(scene_walls(&harness).is_empty());
    assert!(running_walls(&harness).is_empty());

    // Undo brings the wall back, moves it back, then the deleted corner, then the corner
    // where it was.
    for _ in 0..4 {
        harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        harness.run_steps(2);
    }
    assert_eq!(scene_walls(&harness), drawn, "one undo step per drag");
}

#[test]
fn dragging_a_wall_by_a_segment_moves_every_corner_and_one_undo_puts_it_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let corners = draw_wall(&mut harness, &TRIANGLE);
    harness.key_press(Key::Enter);
    harness.get_by_label("Select").click();
    harness.run_steps(2);
    let drawn = scene_walls(&harness);

    let middle = corners[0] + (corners[1] - corners[0]) * 0.5;
    drag(&mut harness, middle, middle + egui::vec2(50.0, -40.0), 6);
    assert_eq!(
        harness.state().preview.selected_item,
        Some(app::editor::Item::Wall(0, None))
    );
    // 50 points right and 40 up on screen is (50, 40) / zoom in world units (y up).
    let offset = glam::Vec2::new(50.0, 40.0) / harness.state().preview.view.zoom;
    let walls = scene_walls(&harness);
    assert_eq!(walls[0].points.len(), 3);
    for (moved, was) in walls[0].points.iter().zip(&drawn[0].points) {
        assert!(
            moved.distance(*was + offset) < 1e-3,
            "{moved} is not {was} + {offset}"
        );
    }
    assert_eq!(running_walls(&harness), walls, "agents meet it where it is");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        scene_walls(&harness),
        drawn,
        "one undo step for the whole drag"
    );
}

#[test]
fn flow_field_cells_a_wall_crosses_are_counted_blocked_and_follow_the_walls() {
    use app::editor::SceneEdit;
    use graph_runtime::{FlowField, Rect, Wall};
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let field = FlowField::covering(
        Rect::new(glam::Vec2::ZERO, glam::Vec2::new(10.0, 10.0)),
        1.0,
    );
    let preview = &mut harness.state_mut().preview;
    preview.push_edit(SceneEdit::NewField("lanes".into(), Box::new(field)));
    harness.run_steps(3);
    let blocked = |harness: &mut Harness<'static, EditorApp>| {
        let preview = &mut harness.state_mut().preview;
        let world = preview.host.simulation.as_ref().expect("running").world();
        preview.blocked.count(world, "lanes")
    };
    assert_eq!(blocked(&mut harness), 0, "no walls, nothing blocked");

    // A wall along y = 2.5 from x = 0.5 to x = 4.5 runs through row 2, columns 0 to 4.
    let mut scene = crate::common::scene(&harness).scene.clone();
    scene.walls = vec![Wall::polyline(vec![
        glam::Vec2::new(0.5, 2.5),
        glam::Vec2::new(4.5, 2.5),
    ])];
    harness
        .state_mut()
        .preview
        .push_edit(SceneEdit::Scene(Box::new(scene.clone())));
    harness.run_steps(3);
    assert_eq!(blocked(&mut harness), 5);

    // Lengthen it to x = 7.5: columns 0 to 7.
    scene.walls[0].points[1].x = 7.5;
    harness
        .state_mut()
        .preview
        .push_edit(SceneEdit::Scene(Box::new(scene)));
    harness.run_steps(3);
    assert_eq!(blocked(&mut harness), 8);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(3);
    assert_eq!(blocked(&mut harness), 5, "undo shortens it again");
}

#[test]
fn agents_walking_through_a_new_wall_show_up_as_wall_crossings_in_the_metrics() {
    use app::editor::SceneEdit;
    use graph_runtime::Wall;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    // The boids graph has no wall sense: a wall across the middle of the flock is crossed.
    let mut scene = crate::common::scene(&harness).scene.clone();
    let (min, max) = (scene.bounds.min, scene.bounds.max);
    let middle = (min.x + max.x) * 0.5;
    scene.walls = vec![Wall::polyline(vec![
        glam::Vec2::new(middle, min.y),
        glam::Vec2::new(middle, max.y),
    ])];
    harness
        .state_mut()
        .preview
        .push_edit(SceneEdit::Scene(Box::new(scene)));
    harness.run_steps(3);
    for _ in 0..600 {
        harness.state_mut().preview.host.step_once();
    }
    let host = &harness.state().preview.host;
    let total = host.simulation.as_ref().expect("running").wall_crossings();
    assert!(total > 0, "400 boids crossed the wall in 10 s");
    // The samples count every crossing up to the last sample; ticks after it wait for the
    // next one.
    let sampled: u64 = host.samples.iter().map(|s| s.new_wall_crossings).sum();
    assert!(
        sampled > 0 && sampled <= total,
        "{sampled} crossings plotted of {total}"
    );
}

#[test]
fn the_errands_preset_gives_each_agent_its_own_goal_and_the_inspector_shows_it() {
    use app::editor::Command;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let errands = common::preset_index("errands.graph.ron");
    harness.state_mut().apply(Command::OpenPreset(errands));
    harness.run_steps(4);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(2);
    let preview = &harness.state().preview;
    assert_eq!(
        crate::common::scene(&harness).scene.groups.len(),
        2,
        "errands.scene.ron runs"
    );
    let rect = preview.rect().expect("viewport");
    let simulation = preview.host.simulation.as_ref().expect("running");
    // Agent 31 is the second of the south group: its own goal is the second post, (0, 25).
    let at = preview
        .view
        .to_screen(rect, simulation.vehicles()[31].position);
    click_at(&mut harness, at);
    let preview = &harness.state().preview;
    // The click is on agent 31's centre, and the nearest agent is picked.
    let selected = preview.host.selected_agent.expect("an agent is selected");
    assert_eq!(selected, 31);
    let goal = preview.host.selected_own.goal("goal");
    let expected = preview
        .host
        .simulation
        .as_ref()
        .and_then(|s| s.own(selected))
        .and_then(|own| own.goal("goal"));
    assert!(
        goal.is_some(),
        "the selected agent's own goal is there to draw"
    );
    assert_eq!(goal, expected);
    if selected == 31 {
        assert_eq!(goal, Some(glam::Vec2::new(0.0, 25.0)));
    }
    harness.get_by_label("own \"goal\"");
}

/// The plots' legends leave the lines to be seen in a laptop's window (found under Xvfb at
/// 1280 × 720: in body-sized words on an opaque ground, six entries covered a plot 120
/// points high): each entry is in the small words, and a legend's entries take at most half
/// of its plot's height.
#[test]
fn the_plots_legends_leave_the_lines_to_be_seen_in_a_small_window() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = common::EditorHarness::new(dir.path())
        .size(egui::vec2(1280.0, 720.0))
        .build();
    harness.run_steps(20);
    let small = harness.ctx.global_style().text_styles[&egui::TextStyle::Small].size;
    let motion = ["mean speed (u/s)", "min spacing (u)", "arrived (share)"];
    let entries: Vec<egui::Rect> = (motion.iter())
        .flat_map(|name| {
            harness
                .query_all_by_label(name)
                .map(|n| n.rect())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(entries.len() >= 2, "{entries:?}");
    for entry in &entries {
        assert!(
            entry.height() <= small + 1.0,
            "{entry:?}, small words {small}"
        );
    }
    let span = (entries.iter().copied())
        .reduce(egui::Rect::union)
        .expect("entries");
    assert!(span.height() <= 60.0, "{span:?}");
}
