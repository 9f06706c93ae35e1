//! The menu bar and the keyboard shortcuts. Both only push commands.

use egui::{Event, Key, Modifiers, Ui};

use super::arrange::Arrange;
use super::command::Command;
use super::search::Fit;
use super::{EditorApp, help};

impl EditorApp {
    /// The menu bar.
    pub(super) fn menu_bar(&mut self, ui: &mut Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("Edit", |ui| self.edit_menu(ui));
            ui.menu_button("View", |ui| self.view_menu(ui));
            ui.menu_button("Add", |ui| {
                ui.label("Add node  (Shift+A, Space)");
                if let Some(kind) = self.view.canvas.menu_search.ui(ui, Fit::Any) {
                    let at = self.view.canvas.to_graph(self.view.canvas.rect().center());
                    self.push(Command::AddNode {
                        kind,
                        at,
                        wire: None,
                    });
                    self.view.canvas.menu_search = super::search::NodeSearch::default();
                    ui.close();
                }
            });
            ui.menu_button("Help", |ui| self.help_menu(ui));
        });
    }

    /// Buttons that push a command when clicked (and close the menu).
    fn items(&mut self, ui: &mut Ui, items: Vec<(&str, Command)>) {
        for (label, command) in items {
            if ui.button(label).clicked() {
                self.push(command);
                ui.close();
            }
        }
    }

    fn file_menu(&mut self, ui: &mut Ui) {
        self.items(
            ui,
            vec![
                ("New  (Ctrl+N)", Command::New),
                ("Open…  (Ctrl+O)", Command::Open),
            ],
        );
        ui.menu_button("Open recent", |ui| self.recent_menu(ui));
        ui.menu_button("Presets", |ui| self.presets_menu(ui));
        ui.separator();
        self.items(
            ui,
            vec![
                ("Save  (Ctrl+S)", Command::Save),
                ("Save as…  (Ctrl+Shift+S)", Command::SaveAs),
            ],
        );
        ui.separator();
        if ui
            .button("Export for game…")
            .on_hover_text("The graph without its editor layout, and the flow fields it follows")
            .clicked()
        {
            self.push(Command::Export);
            ui.close();
        }
        ui.separator();
        self.items(
            ui,
            vec![
                ("Open scene…", Command::OpenScene),
                ("Save scene", Command::SaveScene),
                ("Save scene as…", Command::SaveSceneAs),
            ],
        );
        ui.separator();
        self.items(
            ui,
            vec![
                ("Open replay…", Command::OpenReplay),
                ("Save run as replay…", Command::SaveRunAsReplay),
            ],
        );
        ui.separator();
        self.items(ui, vec![("Quit", Command::Quit)]);
    }

    /// Recent graphs, then recent scenes.
    fn recent_menu(&mut self, ui: &mut Ui) {
        let graphs: Vec<_> = self
            .settings
            .recent
            .iter()
            .map(|p| (p.display().to_string(), Command::OpenPath(p.clone())))
            .collect();
        let scenes: Vec<_> = self
            .settings
            .recent_scenes
            .iter()
            .map(|p| (p.display().to_string(), Command::OpenScenePath(p.clone())))
            .collect();
        if graphs.is_empty() && scenes.is_empty() {
            ui.weak("Nothing yet");
        }
        for (heading, list) in [("Graphs", graphs), ("Scenes", scenes)] {
            if list.is_empty() {
                continue;
            }
            ui.weak(heading);
            for (label, command) in list {
                if ui.button(label).clicked() {
                    self.push(command);
                    ui.close();
                }
            }
        }
    }

    fn view_menu(&mut self, ui: &mut Ui) {
        let layout = self.view.layout;
        let mut side = layout.side;
        if ui.checkbox(&mut side, "Side panel  (N)").clicked() {
            self.push(Command::ToggleSidePanel);
            ui.close();
        }
        let mut preview = layout.preview;
        if ui.checkbox(&mut preview, "Preview  (P)").clicked() {
            self.push(Command::TogglePreview);
            ui.close();
        }
        let mut canvas_only = !layout.side && !layout.preview;
        if ui
            .checkbox(&mut canvas_only, "Canvas only  (Ctrl+Space)")
            .clicked()
        {
            self.push(Command::ToggleCanvasOnly);
            ui.close();
        }
        ui.separator();
        self.items(
            ui,
            vec![
                (
                    "Frame all  (Home, or F with nothing selected)",
                    Command::Frame(Vec::new()),
                ),
                (
                    "Frame selection  (F)",
                    Command::Frame(self.workspace.selection.nodes().to_vec()),
                ),
                ("Find node…  (Ctrl+F)", Command::OpenFind),
            ],
        );
    }

    fn help_menu(&mut self, ui: &mut Ui) {
        self.items(
            ui,
            vec![("Keyboard shortcuts  (F1)", Command::ShowShortcuts)],
        );
        ui.separator();
        for (label, anchor) in help::README_SECTIONS {
            ui.hyperlink_to(*label, help::readme_link(anchor));
        }
        ui.separator();
        ui.weak(help::version());
    }

    fn edit_menu(&mut self, ui: &mut Ui) {
        let (can_undo, can_redo) = (
            self.workspace.document.can_undo(),
            self.workspace.document.can_redo(),
        );
        let undo = ui.add_enabled(
            can_undo || self.workspace.scene.is_dirty(),
            egui::Button::new("Undo  (Ctrl+Z)"),
        );
        if undo.clicked() {
            self.push(Command::Undo);
            ui.close();
        }
        let redo = ui.add_enabled(can_redo, egui::Button::new("Redo  (Ctrl+Shift+Z, Ctrl+Y)"));
        if redo.clicked() {
            self.push(Command::Redo);
            ui.close();
        }
        ui.separator();
        self.items(
            ui,
            vec![
                ("Cut  (Ctrl+X)", Command::Cut),
                ("Copy  (Ctrl+C)", Command::Copy),
                ("Paste  (Ctrl+V)", Command::RequestPaste),
                ("Duplicate  (Ctrl+D)", Command::Duplicate),
                ("Delete  (Del)", Command::Delete),
                ("Select all  (Ctrl+A)", Command::SelectAll),
                ("Mute / unmute selection  (M)", Command::ToggleMute),
            ],
        );
        ui.separator();
        ui.menu_button("Arrange", |ui| self.arrange_menu(ui));
        self.items(
            ui,
            vec![
                ("Comment around selection", Command::CommentAroundSelection),
                (
                    "Collapse selection into subgraph…",
                    Command::CollapseToSubgraph,
                ),
                ("Frame all  (Home)", Command::Frame(Vec::new())),
            ],
        );
    }

    /// Align, Distribute and Tidy for the selection (each greyed out until enough nodes are
    /// selected; Tidy with none selected tidies every node).
    fn arrange_menu(&mut self, ui: &mut Ui) {
        let selected = self.workspace.selection.len();
        for how in Arrange::ALL {
            if matches!(how, Arrange::Top | Arrange::DistributeX | Arrange::Tidy) {
                ui.separator();
            }
            let enabled = selected >= how.needs() || how == Arrange::Tidy;
            let button = ui
                .add_enabled(enabled, egui::Button::new(how.label()))
                .on_disabled_hover_text(format!("Select at least {} nodes", how.needs()));
            if button.clicked() {
                self.push(Command::Arrange(how));
                ui.close();
            }
        }
    }

    /// Keyboard shortcuts and clipboard events, as commands.
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input()
            || self.view.dialog.is_some()
            || self.services.files.is_open()
        {
            return;
        }
        let command_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        let pressed = |modifiers, key| ctx.input_mut(|i| i.consume_key(modifiers, key));
        let mut commands = Vec::new();
        for (modifiers, key, command) in [
            (command_shift, Key::Z, Command::Redo),
            (Modifiers::COMMAND, Key::Y, Command::Redo),
            (Modifiers::COMMAND, Key::Z, Command::Undo),
            (command_shift, Key::S, Command::SaveAs),
            (Modifiers::COMMAND, Key::S, Command::Save),
            (Modifiers::COMMAND, Key::O, Command::Open),
            (Modifiers::COMMAND, Key::N, Command::New),
            (Modifiers::COMMAND, Key::D, Command::Duplicate),
            (Modifiers::COMMAND, Key::A, Command::SelectAll),
            (Modifiers::COMMAND, Key::Space, Command::ToggleCanvasOnly),
            (Modifiers::NONE, Key::N, Command::ToggleSidePanel),
            (Modifiers::NONE, Key::P, Command::TogglePreview),
            (Modifiers::COMMAND, Key::F, Command::OpenFind),
            (Modifiers::NONE, Key::F1, Command::ShowShortcuts),
        ] {
            if pressed(modifiers, key) {
                commands.push(command);
            }
        }
        let pointer = ctx.pointer_latest_pos();
        let over_preview = pointer
            .zip(self.preview.rect())
            .is_some_and(|(p, rect)| rect.contains(p));
        // Over the preview, Delete and Space belong to its tools.
        if !over_preview {
            if pressed(Modifiers::NONE, Key::Delete) || pressed(Modifiers::NONE, Key::Backspace) {
                commands.push(Command::Delete);
            }
            if pressed(Modifiers::NONE, Key::F) {
                commands.push(Command::Frame(self.workspace.selection.nodes().to_vec()));
            }
            if pressed(Modifiers::NONE, Key::Home) {
                commands.push(Command::Frame(Vec::new()));
            }
            if self.view.canvas.search_popup.is_none()
                && !egui::Popup::is_any_open(ctx)
                && pressed(Modifiers::NONE, Key::Escape)
            {
                // Esc closes the shortcut sheet first, as it closes a dialog.
                commands.push(if self.view.shortcuts_open {
                    Command::ShowShortcuts
                } else {
                    Command::DeselectAll
                });
            }
            if pressed(Modifiers::NONE, Key::M) {
                commands.push(Command::ToggleMute);
            }
            if pressed(Modifiers::NONE, Key::L) {
                commands.push(Command::Arrange(Arrange::Tidy));
            }
            if self.workspace.context.is_open() && pressed(Modifiers::NONE, Key::U) {
                commands.push(Command::GoUp(1));
            }
            if pressed(Modifiers::SHIFT, Key::A) || pressed(Modifiers::NONE, Key::Space) {
                let at = pointer.unwrap_or_else(|| ctx.content_rect().center());
                commands.push(Command::OpenSearch(at));
            }
        }
        commands.extend(self.clipboard_commands(ctx, pointer));
        self.queue.extend(commands);
    }

    /// The clipboard's events this frame (copy, cut, paste at the pointer when it is over the
    /// canvas), as commands.
    fn clipboard_commands(&self, ctx: &egui::Context, pointer: Option<egui::Pos2>) -> Vec<Command> {
        let canvas = &self.view.canvas;
        ctx.input(|i| i.events.clone())
            .into_iter()
            .filter_map(|event| match event {
                Event::Copy => Some(Command::Copy),
                Event::Cut => Some(Command::Cut),
                Event::Paste(text) => Some(Command::Paste {
                    text,
                    at: pointer
                        .filter(|p| canvas.rect().contains(*p))
                        .map(|p| canvas.to_graph(p)),
                }),
                _ => None,
            })
            .collect()
    }
}
