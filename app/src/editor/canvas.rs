//! The graph canvas: the node widget (egui-snarl) with the editor's viewer, comment frames,
//! wheel zoom, framing, the node search popup, and the bridge between the widget's own
//! Shift-click selection and the editor's one selection.

use egui::emath::TSTransform;
use egui::{Id, Key, Pos2, Rect, Ui};
use egui_snarl::NodeId as SnarlId;
use egui_snarl::ui::{SelectionStyle, SnarlStyle, SnarlWidget};
use graph_runtime::{Comment, NodeId};

use super::command::Command;
use super::fields::Names;
use super::preview::viewport_wheel_zoom;
use super::search::{Fit, NodeSearch};
use super::viewer::GraphViewer;
use super::{EditorApp, panels};

/// Id of the node widget.
const GRAPH_WIDGET: &str = "steergraph-graph";
/// Smallest zoom that framing picks: node text stays readable (about 10 px).
const READABLE_SCALE: f32 = 0.72;
/// Zoom range of the canvas.
const SCALE_RANGE: (f32, f32) = (0.2, 2.0);

/// View state of the canvas (nothing here is saved in the graph file).
pub struct Canvas {
    /// The search popup (Shift+A or Space), at this screen position.
    pub search_popup: Option<Pos2>,
    popup_search: NodeSearch,
    /// The search of the Add menu.
    pub menu_search: NodeSearch,
    frame_request: Option<Vec<NodeId>>,
    transform: TSTransform,
    /// Bumped to give the node widget fresh state (its own selection) while keeping the view.
    generation: u64,
    restore_transform: bool,
    widget_selection: Vec<SnarlId>,
    zoom: Option<(f32, Pos2)>,
    rect: Rect,
    /// Text to put on the clipboard this frame.
    pub copied: Option<String>,
    /// Ask the system for its clipboard text this frame.
    pub request_paste: bool,
}

impl Default for Canvas {
    fn default() -> Self {
        Self {
            search_popup: None,
            popup_search: NodeSearch::default(),
            menu_search: NodeSearch::default(),
            frame_request: Some(Vec::new()),
            transform: TSTransform::IDENTITY,
            generation: 0,
            restore_transform: false,
            widget_selection: Vec::new(),
            zoom: None,
            rect: Rect::NOTHING,
            copied: None,
            request_paste: false,
        }
    }
}

impl Canvas {
    /// A new document: fresh widget state, framed.
    pub fn new_document(&mut self) {
        self.generation += 1;
        self.restore_transform = false;
        self.widget_selection.clear();
        self.frame_request = Some(Vec::new());
        self.search_popup = None;
    }

    /// The widget forgets its own selection (nodes went away; its ids may be reused), the
    /// view stays where it is.
    pub fn forget_widget_state(&mut self) {
        self.generation += 1;
        self.restore_transform = true;
        self.widget_selection.clear();
    }

    /// Frames `nodes` (all when empty) on the next frame.
    pub fn frame(&mut self, nodes: Vec<NodeId>) {
        self.frame_request = Some(nodes);
    }

    /// Opens the node search at screen point `at`.
    pub fn open_search(&mut self, at: Pos2) {
        self.search_popup = Some(at);
        self.popup_search = NodeSearch::default();
    }

    /// Screen to graph space.
    pub fn to_graph(&self, screen: Pos2) -> Pos2 {
        self.transform.inverse() * screen
    }

    /// The canvas transform (graph space to screen) at the last frame.
    pub fn transform(&self) -> TSTransform {
        self.transform
    }

    /// The canvas's screen rectangle at the last frame.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    fn widget_id(&self) -> Id {
        Id::new(GRAPH_WIDGET).with(self.generation)
    }

    /// Takes wheel scrolling over the canvas as zoom around the pointer (like the preview);
    /// the widget would pan with it otherwise.
    fn take_wheel(&mut self, ui: &Ui) {
        let ctx = ui.ctx();
        let Some(pointer) = ctx.pointer_hover_pos() else {
            return;
        };
        let over_popup = ctx
            .layer_id_at(pointer)
            .is_some_and(|layer| layer.order != egui::Order::Background);
        if !self.rect.contains(pointer) || over_popup {
            return;
        }
        let scroll = ui.input_mut(|i| std::mem::take(&mut i.smooth_scroll_delta));
        if scroll.y != 0.0 {
            self.zoom = Some((viewport_wheel_zoom(scroll.y), pointer));
        }
    }
}

/// How a frame request and a wheel zoom change the widget's transform.
pub struct ViewChange {
    /// Graph rectangle to frame, and the screen rectangle to fit it in.
    pub frame: Option<(Rect, Rect)>,
    /// Zoom by this factor around this screen point.
    pub zoom: Option<(f32, Pos2)>,
    /// Start from this transform (after the widget's state was renewed).
    pub restore: Option<TSTransform>,
}

impl ViewChange {
    /// Applies the change to the widget's transform.
    pub fn apply(&mut self, to_global: &mut TSTransform) {
        if let Some(restore) = self.restore.take() {
            *to_global = restore;
        }
        if let Some((graph, screen)) = self.frame.take() {
            let fit = (screen.size() / graph.size().max(egui::vec2(1.0, 1.0))).min_elem();
            let scale = fit.clamp(READABLE_SCALE, 1.2);
            // When everything does not fit at a readable size, frame its left part: the
            // behaviors feeding the graph, where a designer starts reading.
            let focus = if fit < READABLE_SCALE {
                let visible = screen.width() / scale;
                Pos2::new(graph.left() + visible * 0.5, graph.center().y)
            } else {
                graph.center()
            };
            let translation = screen.center().to_vec2() - focus.to_vec2() * scale;
            *to_global = TSTransform::new(translation, scale);
        }
        if let Some((factor, anchor)) = self.zoom.take() {
            let scale = (to_global.scaling * factor).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
            let factor = scale / to_global.scaling;
            *to_global = TSTransform::from_translation(anchor.to_vec2())
                * TSTransform::from_scaling(factor)
                * TSTransform::from_translation(-anchor.to_vec2())
                * *to_global;
        }
    }
}

impl EditorApp {
    /// The graph canvas in the central panel.
    pub(super) fn graph_canvas(&mut self, ui: &mut Ui, names: &Names) {
        self.canvas.rect = ui.available_rect_before_wrap();
        self.canvas.take_wheel(ui);
        let widget_rect = self.canvas.rect;
        let frame = self.canvas.frame_request.take().and_then(|nodes| {
            self.document
                .bounds_of(&nodes)
                .map(|rect| (rect.expand(40.0), widget_rect))
        });
        let mut view = ViewChange {
            frame,
            zoom: self.canvas.zoom.take(),
            restore: std::mem::take(&mut self.canvas.restore_transform)
                .then_some(self.canvas.transform),
        };
        let id = self.canvas.widget_id();
        let errors = panels::errors_by_node(self.document.problems());
        let live = self.preview.trace_of_open_graph().cloned();
        let mut commands = Vec::new();
        let comments = self.document.comments.clone();
        let (snarl, subgraphs) = self.document.snarl_and_subgraphs();
        let mut viewer = GraphViewer {
            names,
            errors: &errors,
            selection: &self.selection,
            commands: &mut commands,
            search: &mut self.canvas.menu_search,
            view: &mut view,
            transform: None,
            live: live.as_ref(),
            subgraphs,
        };
        let style = SnarlStyle {
            collapsible: Some(true),
            min_scale: Some(SCALE_RANGE.0),
            max_scale: Some(SCALE_RANGE.1),
            // The editor draws its one selection itself (node_frame).
            select_style: Some(SelectionStyle {
                margin: egui::Margin::ZERO,
                rounding: egui::CornerRadius::ZERO,
                fill: egui::Color32::TRANSPARENT,
                stroke: egui::Stroke::NONE,
            }),
            ..SnarlStyle::new()
        };
        // Labels on nodes are not selectable text: a click selects the node, a drag moves it.
        ui.style_mut().interaction.selectable_labels = false;
        let response = SnarlWidget::new()
            .id(id)
            .style(style)
            .show(snarl, &mut viewer, ui);
        if let Some(transform) = viewer.transform {
            self.canvas.transform = transform;
        }
        draw_comments(ui, &comments, self.canvas.transform, response.rect);
        self.queue.extend(commands);
        self.follow_widget_selection(ui, id);
    }

    /// Shift-click and box selection happen inside the widget: take what it added or removed
    /// into the editor's selection. When the editor's selection moves on without the widget
    /// (a plain click, a problem clicked, a new node), the widget's is dropped.
    fn follow_widget_selection(&mut self, ui: &Ui, id: Id) {
        let now = egui_snarl::ui::get_selected_nodes(id, ui.ctx());
        if now == self.canvas.widget_selection {
            return;
        }
        let graph_id = |s: &SnarlId| self.document.snarl.get_node(*s).map(|n| n.id);
        let added: Vec<NodeId> = now
            .iter()
            .filter(|s| !self.canvas.widget_selection.contains(s))
            .filter_map(graph_id)
            .collect();
        let removed: Vec<NodeId> = self
            .canvas
            .widget_selection
            .iter()
            .filter(|s| !now.contains(s))
            .filter_map(graph_id)
            .collect();
        for node in removed {
            self.selection.remove(node);
        }
        for node in added {
            self.selection.add(node);
        }
        self.canvas.widget_selection = now;
    }

    /// Drops the widget's own selection when it holds nodes the editor's does not.
    pub(super) fn reconcile_widget_selection(&mut self) {
        let stray = self.canvas.widget_selection.iter().any(|s| {
            self.document
                .snarl
                .get_node(*s)
                .is_none_or(|n| !self.selection.contains(n.id))
        });
        if stray {
            self.canvas.forget_widget_state();
        }
    }

    /// The node search popup, when open.
    pub(super) fn search_popup(&mut self, ctx: &egui::Context) {
        let Some(at) = self.canvas.search_popup else {
            return;
        };
        let mut picked = None;
        let area = egui::Area::new(Id::new("node-search-popup"))
            .fixed_pos(at)
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label("Add node");
                    picked = self.canvas.popup_search.ui(ui, Fit::Any);
                });
            });
        if let Some(kind) = picked {
            let at = self.canvas.to_graph(at);
            self.push(Command::AddNode {
                kind,
                at,
                wire: None,
            });
            self.canvas.search_popup = None;
        } else if ctx.input(|i| i.key_pressed(Key::Escape))
            || (ctx.input(|i| i.pointer.any_pressed()) && !area.response.contains_pointer())
        {
            self.canvas.search_popup = None;
        }
    }
}

/// Draws comment frames behind the nodes: a translucent box with its text, in graph space
/// mapped through the canvas transform.
fn draw_comments(ui: &Ui, comments: &[Comment], to_screen: TSTransform, clip: Rect) {
    let painter = ui
        .painter()
        .with_clip_rect(clip)
        .with_layer_id(egui::LayerId::background());
    for comment in comments {
        let rect = Rect::from_min_size(
            Pos2::new(comment.position.x, comment.position.y),
            egui::vec2(comment.size.x, comment.size.y),
        );
        let screen = to_screen * rect;
        painter.rect(
            screen,
            6.0,
            egui::Color32::from_rgba_unmultiplied(90, 120, 160, 30),
            egui::Stroke::new(1.0, egui::Color32::from_rgb(110, 140, 180)),
            egui::StrokeKind::Inside,
        );
        painter.text(
            screen.min + egui::vec2(8.0, 6.0),
            egui::Align2::LEFT_TOP,
            &comment.text,
            egui::FontId::proportional(14.0 * to_screen.scaling),
            egui::Color32::from_rgb(170, 195, 230),
        );
    }
}
