//! File > Presets as a person uses it: at 1024 × 640 and 1600 × 1000, every preset graph and
//! every preset scene is on screen in its family's submenu and opens with a real click (the
//! menu was one long list that ran off a 1000-point-high window: corridor, rooms, perimeter,
//! swap circle, four-way, sentry, strafe, road and chasm could not be clicked).

use app::editor::{EditorApp, PRESET_FAMILIES, PRESET_GRAPHS, PRESET_SCENES};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use crate::common::{EditorHarness, click_at};

fn editor(size: egui::Vec2) -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let harness = EditorHarness::new(dir.path()).size(size).build();
    (dir, harness)
}

/// Opens File > Presets > `family` by pointing, as a person does.
fn open_family(harness: &mut Harness<'static, EditorApp>, family: &str) {
    let file = harness.get_by_label("File").rect().center();
    click_at(harness, file);
    harness.get_by_label("Presets ⏵").hover();
    harness.run_steps(2);
    harness.get_by_label(&format!("{family} ⏵")).hover();
    harness.run_steps(2);
}

/// The entry `name` of the open submenu (graphs come before scenes of the same name), which
/// must lie wholly inside the window.
fn entry(
    harness: &Harness<'static, EditorApp>,
    name: &str,
    scene: bool,
    size: egui::Vec2,
) -> egui::Rect {
    let rects: Vec<egui::Rect> = harness.query_all_by_label(name).map(|n| n.rect()).collect();
    let rect = if scene { rects.last() } else { rects.first() };
    let rect = *rect.unwrap_or_else(|| panic!("{name} is not in the menu"));
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size);
    assert!(
        window.contains_rect(rect),
        "{name} at {rect:?} is outside the {size:?} window"
    );
    rect
}

fn every_preset_opens_from_the_menu(size: egui::Vec2) {
    let (_dir, mut harness) = editor(size);
    for (family, files) in PRESET_FAMILIES {
        for file in *files {
            let scene = file.ends_with(".scene.ron");
            let name = if scene {
                PRESET_SCENES.iter().find(|p| p.file == *file)
            } else {
                PRESET_GRAPHS.iter().find(|p| p.file == *file)
            }
            .expect("a preset")
            .name;
            open_family(&mut harness, family);
            let at = entry(&harness, name, scene, size).center();
            click_at(&mut harness, at);
            harness.run_steps(2);
            let app = harness.state();
            assert_eq!(app.view.dialog, None, "{name}");
            if scene {
                assert_eq!(app.workspace.scene.name(), *file, "{name}");
            } else {
                assert_eq!(app.workspace.open_graph_name(), *file, "{name}");
            }
        }
    }
    // Every preset was listed once (the families' own test says each is in one).
    let listed: usize = PRESET_FAMILIES.iter().map(|(_, files)| files.len()).sum();
    let scenes = PRESET_SCENES
        .iter()
        .filter(|p| p.file.ends_with(".scene.ron"))
        .count();
    assert_eq!(listed, PRESET_GRAPHS.len() + scenes);
}

#[test]
fn every_preset_opens_from_the_menu_at_1024_by_640() {
    every_preset_opens_from_the_menu(egui::vec2(1024.0, 640.0));
}

#[test]
fn every_preset_opens_from_the_menu_at_1600_by_1000() {
    every_preset_opens_from_the_menu(egui::vec2(1600.0, 1000.0));
}
