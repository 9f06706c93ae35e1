//! The editor's panels around the canvas: the side panel, the problems list, the status line
//! and the preview panel.

use egui::Ui;

use super::command::Command;
use super::fields::Names;
use super::preview::OpenGraph;
use super::{EditorApp, panels, plural};

/// A section exactly `height` high whatever it holds: its content scrolls inside it.
fn steady_section(ui: &mut Ui, id: &str, height: f32, content: impl FnOnce(&mut Ui)) {
    egui::ScrollArea::vertical()
        .id_salt(id)
        .min_scrolled_height(height)
        .max_height(height)
        .auto_shrink([false, false])
        .show(ui, content);
}

impl EditorApp {
    /// The side panel: node inspector, agent, parameters, vehicle, scene, comments. The node
    /// and agent sections keep one height whatever is selected (their content scrolls), so
    /// the sections below never move under the pointer; rows wrap to the panel's width (at
    /// 1024 points it is about 240 wide), and what cannot wrap scrolls sideways.
    pub(super) fn side_panel(&mut self, ui: &mut Ui, names: &Names) {
        let mut commands = Vec::new();
        let (width, height) = (ui.available_width(), ui.available_height());
        let steady = |share: f32, least: f32, most: f32| (height * share).clamp(least, most);
        let (node_height, agent_height) = (steady(0.24, 110.0, 320.0), steady(0.15, 80.0, 220.0));
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // Clear of the vertical scroll bar, which is drawn over the content's right edge.
                let bar = ui.spacing().scroll.allocated_width() + ui.spacing().item_spacing.x;
                ui.set_max_width(width - bar);
                super::fields::fit_to_visible(ui, |ui| {
                    egui::CollapsingHeader::new("Node")
                        .default_open(true)
                        .show(ui, |ui| {
                            steady_section(ui, "node-inspector", node_height, |ui| {
                                panels::inspector(
                                    ui,
                                    &self.workspace.document,
                                    &self.workspace.selection,
                                    names,
                                    &mut commands,
                                );
                            });
                        });
                    egui::CollapsingHeader::new("Agent")
                        .default_open(true)
                        .show(ui, |ui| {
                            steady_section(ui, "agent-inspector", agent_height, |ui| {
                                self.preview.agent_inspector(ui);
                            });
                        });
                    egui::CollapsingHeader::new("Why stuck")
                        .default_open(true)
                        .show(ui, |ui| self.preview.stuck_panel(ui, &mut commands));
                    egui::CollapsingHeader::new("Graph parameters")
                        .default_open(true)
                        .show(ui, |ui| {
                            let parameters = &self.workspace.document.parameters;
                            commands.extend(panels::parameters(
                                ui,
                                parameters,
                                &mut self.view.new_parameter,
                            ));
                        });
                    egui::CollapsingHeader::new("Vehicle and turning")
                        .default_open(false)
                        .show(ui, |ui| {
                            commands.extend(panels::vehicle(
                                ui,
                                &self.workspace.document.vehicle,
                                names,
                            ));
                            ui.separator();
                            let turns = self.workspace.document.program().map(|p| p.turns());
                            commands.extend(panels::turning(
                                ui,
                                &self.workspace.document.turning,
                                names,
                                turns,
                            ));
                        });
                    egui::CollapsingHeader::new("Scene")
                        .default_open(false)
                        .show(ui, |ui| {
                            commands
                                .extend(self.preview.scene_panel(&mut self.workspace.scene, ui));
                        });
                    egui::CollapsingHeader::new("Description and comments")
                        .default_open(false)
                        .show(ui, |ui| {
                            let document = &self.workspace.document;
                            commands.extend(panels::description_and_comments(
                                ui,
                                &document.description,
                                &document.comments,
                            ));
                        });
                });
            });
        self.queue.extend(commands);
    }

    /// The problems list; a click selects and frames the node.
    pub(super) fn problems_panel(&mut self, ui: &mut Ui) {
        ui.strong("Problems");
        if let Some(node) = panels::problems(
            ui,
            self.workspace.document.problems(),
            self.workspace.document.warnings(),
        ) {
            self.push(Command::Select {
                nodes: vec![node],
                add: false,
            });
            self.push(Command::Frame(vec![node]));
        }
    }

    /// The status line: compile state, frame and tick times, the latest message.
    pub(super) fn status_line(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let problems = self.workspace.document.problems().len();
            if problems == 0 {
                ui.colored_label(egui::Color32::from_rgb(110, 190, 110), "Compiles");
            } else {
                ui.colored_label(panels::ERROR_COLOR, plural(problems, "problem"));
            }
            let warnings = self.workspace.document.warnings().len();
            if warnings > 0 {
                ui.colored_label(panels::WARNING_COLOR, plural(warnings, "warning"))
                    .on_hover_text("Nodes that do not run: the graph runs without them");
            }
            ui.separator();
            let host = &self.preview.host;
            ui.label(format!(
                "frame {:.1} ms · tick {:.2} ms · {}",
                self.services.frame_ms,
                host.tick_ms,
                plural(host.agent_count(), "agent")
            ));
            ui.separator();
            // Before the message, which may be long: a narrow window clips the line's end.
            self.run_save_status(ui);
            ui.label(
                self.status
                    .text()
                    .unwrap_or("Right-click or Shift+A to add nodes; drag from a pin to wire."),
            );
        });
    }

    /// The open graph as the preview sees it.
    pub(super) fn with_open_graph<R>(
        &mut self,
        run: impl FnOnce(&mut Self, &OpenGraph<'_>) -> R,
    ) -> R {
        let name = self.preview.bound.clone();
        if let Some(context) = self.workspace.context.in_context(&self.workspace.document) {
            // A subgraph is open in context: the preview runs the top graph with it.
            let graph = context.graph.clone();
            let overrides = context.overrides.clone();
            let path = context.path.map(std::path::Path::to_path_buf);
            let open = OpenGraph {
                name: &name,
                path: path.as_deref(),
                graph: &graph,
                program: context.program,
                revision: context.revision,
                subgraph_overrides: Some(&overrides),
            };
            return run(self, &open);
        }
        let graph = self.workspace.document.to_graph();
        let path = self.workspace.document.path.clone();
        let open = OpenGraph {
            name: &name,
            path: path.as_deref(),
            graph: &graph,
            program: self.workspace.document.program(),
            revision: self.workspace.document.revision(),
            subgraph_overrides: None,
        };
        run(self, &open)
    }

    /// The preview panel.
    pub(super) fn preview_panel(&mut self, ui: &mut Ui) {
        let commands =
            self.with_open_graph(|app, open| app.preview.ui(ui, &mut app.workspace.scene, open));
        self.queue.extend(commands);
    }
}
