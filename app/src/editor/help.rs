//! Help: the shortcut sheet (F1), links to the README's sections and the version. The sheet
//! is one table, which a test holds to the README's tables.

use egui::Ui;

use super::EditorApp;
use super::command::Command;

/// Every keyboard shortcut: where it works, the keys (comma-separated), what it does.
#[rustfmt::skip] // One row per line, as the sheet shows them.
pub const SHORTCUTS: &[(&str, &str, &str)] = &[
    ("Graph", "Shift+A, Space", "add a node (or right-click the canvas)"),
    ("Graph", "Ctrl+F", "find a node by name or id and frame it"),
    ("Graph", "F", "frame the selection, or everything when nothing is selected"),
    ("Graph", "Home", "frame everything"),
    ("Graph", "Shift+click, Shift+drag", "add to the selection, box-select"),
    ("Graph", "Esc", "select nothing (as does a click on empty canvas)"),
    ("Graph", "Ctrl+A", "select all"),
    ("Graph", "Del, Backspace", "delete the selection"),
    ("Graph", "Ctrl+D", "duplicate the selection"),
    ("Graph", "Ctrl+C, Ctrl+X, Ctrl+V", "copy, cut, paste nodes"),
    ("Graph", "M", "mute or unmute the selection"),
    ("Graph", "L", "tidy the layout of the selection, or of every node (Edit > Arrange aligns and distributes)"),
    ("Graph", "U", "back from a subgraph (opened by double-clicking its node's title)"),
    ("Edit", "Ctrl+Z", "undo (graph and scene)"),
    ("Edit", "Ctrl+Shift+Z, Ctrl+Y", "redo"),
    ("Files", "Ctrl+N, Ctrl+O", "new graph, open a graph"),
    ("Files", "Ctrl+S, Ctrl+Shift+S", "save, save as"),
    ("Window", "N", "show or hide the side panel"),
    ("Window", "P", "show or hide the preview"),
    ("Window", "Ctrl+Space", "the canvas alone, or all panels back"),
    ("Window", "F1", "this sheet"),
    ("Window", "Esc", "close this sheet or a dialog"),
    ("Preview", "Home", "fit the scene (pointer over the preview)"),
    ("Preview", "Space+drag", "pan (or drag with the middle button; the wheel zooms)"),
    ("Preview", "Del", "delete the selected scene item (right-click adds a target there)"),
    ("Preview", "Enter, Esc", "finish the wall being drawn"),
];

/// The README's sections the Help menu links to: label and anchor.
pub const README_SECTIONS: &[(&str, &str)] = &[
    ("The editor (README)", "the-editor"),
    ("The live preview (README)", "the-live-preview"),
    ("Painting flow fields (README)", "painting-flow-fields"),
    ("Command line (README)", "command-line"),
];

/// The address of the README section `anchor` in the project's repository.
pub fn readme_link(anchor: &str) -> String {
    format!(
        "{}/blob/main/README.md#{anchor}",
        env!("CARGO_PKG_REPOSITORY")
    )
}

/// The editor's and the file format's versions.
pub fn version() -> String {
    format!(
        "Steergraph {} · file format version {}",
        env!("CARGO_PKG_VERSION"),
        graph_runtime::FORMAT_VERSION
    )
}

impl EditorApp {
    /// The shortcut sheet, while open (F1, Help > Keyboard shortcuts).
    pub(super) fn shortcut_sheet(&mut self, ctx: &egui::Context) {
        if !self.view.shortcuts_open {
            return;
        }
        let mut open = true;
        egui::Window::new("Keyboard shortcuts")
            .open(&mut open)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .collapsible(false)
            .default_width(560.0)
            .show(ctx, sheet);
        if !open {
            self.push(Command::ShowShortcuts);
        }
    }
}

fn sheet(ui: &mut Ui) {
    egui::ScrollArea::vertical()
        .max_height(520.0)
        .show(ui, |ui| {
            let mut place = "";
            egui::Grid::new("shortcut-sheet")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    for (where_, keys, what) in SHORTCUTS {
                        if *where_ != place {
                            place = where_;
                            ui.strong(*where_);
                            ui.end_row();
                        }
                        ui.monospace(*keys);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
        });
    ui.separator();
    ui.weak(version());
}

#[cfg(test)]
mod tests {
    use super::SHORTCUTS;

    #[test]
    fn the_readme_lists_every_shortcut_of_the_sheet() {
        let readme = include_str!("../../../README.md");
        for (_, keys, _) in SHORTCUTS {
            for key in keys.split(", ") {
                assert!(
                    readme.contains(&format!("**{key}**")),
                    "the README does not name **{key}**"
                );
            }
        }
    }
}
