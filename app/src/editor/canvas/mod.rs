//! The graph canvas: the node widget (egui-snarl) with the editor's viewer, comment frames,
//! wheel zoom, framing (`framing.rs`, shared with the viewer), the node search popup, a click on empty canvas
//! clearing the selection, and the bridge between the widget's own Shift-click selection and
//! the editor's one selection.

use egui::emath::TSTransform;
use egui::{Id, Key, Pos2, Rect, Ui};
use egui_snarl::NodeId as SnarlId;
use egui_snarl::ui::{SelectionStyle, SnarlStyle, SnarlWidget};
use graph_runtime::{Comment, NodeId};

mod selection;

use crate::editor::command::Command;
use crate::editor::fields::Names;
use crate::editor::framing::{FrameRequest, SCALE_RANGE, ViewChange, framed};
use crate::editor::preview::viewport_wheel_zoom;
use crate::editor::search::{Fit, NodeSearch};
use crate::editor::viewer::GraphViewer;
use crate::editor::{EditorApp, panels};

/// Id of the node widget.
const GRAPH_WIDGET: &str = "steergraph-graph";

/// View state of the canvas (nothing here is saved in the graph file).
pub struct Canvas {
    /// The search popup (Shift+A or Space), at this screen position.
    pub search_popup: Option<Pos2>,
    popup_search: NodeSearch,
    /// The search of the Add menu.
    pub menu_search: NodeSearch,
    frame_request: Option<FrameRequest>,
    /// The canvas rectangle and the transform a graph was framed with as it opened, until the
    /// user moves the view: a canvas that then changes size (the window maximized, panels
    /// restored) frames the graph again.
    opened_frame: Option<(Rect, TSTransform)>,
    /// Each node's rectangle (graph space) as last drawn.
    node_rects: Vec<(NodeId, Rect)>,
    transform: TSTransform,
    /// Bumped to give the node widget fresh state (its own selection) while keeping the view.
    generation: u64,
    restore_transform: bool,
    widget_selection: Vec<SnarlId>,
    zoom: Option<(f32, Pos2)>,
    rect: Rect,
}

impl Default for Canvas {
    fn default() -> Self {
        Self {
            search_popup: None,
            popup_search: NodeSearch::default(),
            menu_search: NodeSearch::default(),
            frame_request: Some(FrameRequest::Open),
            opened_frame: None,
            node_rects: Vec::new(),
            transform: TSTransform::IDENTITY,
            generation: 0,
            restore_transform: false,
            widget_selection: Vec::new(),
            zoom: None,
            rect: Rect::NOTHING,
        }
    }
}

impl Canvas {
    /// A new document: fresh widget state, framed.
    pub fn new_document(&mut self) {
        self.opened_frame = None;
        self.generation += 1;
        self.restore_transform = false;
        self.widget_selection.clear();
        self.frame_request = Some(FrameRequest::Open);
        self.node_rects.clear();
        self.search_popup = None;
    }

    /// Back to a graph shown before: fresh widget state, the view as it was then.
    pub fn restore_view(&mut self, transform: TSTransform) {
        self.new_document();
        self.frame_request = None;
        self.transform = transform;
        self.restore_transform = true;
    }

    /// The widget forgets its own selection (nodes went away; its ids may be reused), the
    /// view stays where it is.
    pub fn forget_widget_state(&mut self) {
        self.generation += 1;
        self.restore_transform = true;
        self.widget_selection.clear();
    }

    /// Frames the graph again as it opened when the canvas changed size or place since it
    /// was framed so, and the view has not been moved since.
    fn keep_opened_frame(&mut self) {
        let Some((rect, transform)) = self.opened_frame else {
            return;
        };
        if self.transform != transform {
            self.opened_frame = None;
        } else if self.rect != rect && self.frame_request.is_none() {
            self.frame_request = Some(FrameRequest::Open);
        }
    }

    /// Frames `nodes` (all when empty) on the next frame.
    pub fn frame(&mut self, nodes: Vec<NodeId>) {
        self.frame_request = Some(if nodes.is_empty() {
            FrameRequest::All
        } else {
            FrameRequest::Nodes(nodes)
        });
    }

    /// Each node's rectangle on screen at the last frame.
    pub fn node_screen_rects(&self) -> impl Iterator<Item = (NodeId, Rect)> + '_ {
        self.node_rects
            .iter()
            .map(|(id, rect)| (*id, self.transform * *rect))
    }

    /// Each node's rectangle (graph space) as last drawn.
    pub fn drawn_rects(&self) -> &[(NodeId, Rect)] {
        &self.node_rects
    }

    /// Where a new node of `size` asked for at `wanted` (graph space) goes: clear of the
    /// nodes as drawn and wholly inside the canvas in view (`placement::clear_spot`).
    pub fn clear_spot(&self, wanted: Pos2, size: egui::Vec2) -> Pos2 {
        if !self.rect.is_positive() {
            return wanted;
        }
        let to_graph = self.transform.inverse();
        let visible = Rect::from_min_max(to_graph * self.rect.min, to_graph * self.rect.max)
            .shrink(10.0 / self.transform.scaling);
        let taken: Vec<Rect> = self.node_rects.iter().map(|(_, r)| *r).collect();
        super::placement::clear_spot(wanted, size, &taken, visible)
    }

    /// The graph-space rectangle around `nodes` (all when empty) as last drawn.
    pub fn drawn_bounds(&self, nodes: &[NodeId]) -> Option<Rect> {
        self.node_rects
            .iter()
            .filter(|(id, _)| nodes.is_empty() || nodes.contains(id))
            .map(|(_, r)| *r)
            .reduce(Rect::union)
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

impl EditorApp {
    /// The graph canvas in the central panel.
    pub(super) fn graph_canvas(&mut self, ui: &mut Ui, names: &Names) {
        self.view.canvas.rect = ui.available_rect_before_wrap();
        self.view.canvas.take_wheel(ui);
        let frame = self.framing();
        let mut view = ViewChange {
            frame,
            zoom: self.view.canvas.zoom.take(),
            restore: std::mem::take(&mut self.view.canvas.restore_transform)
                .then_some(self.view.canvas.transform),
        };
        let id = self.view.canvas.widget_id();
        let errors = panels::errors_by_node(self.workspace.document.problems());
        let warnings = panels::warnings_by_node(self.workspace.document.warnings());
        let live = (self.preview)
            .trace_of_open_graph(&self.workspace.scene)
            .cloned();
        let holding = self.preview.holding_of_open_graph(&self.workspace.scene);
        let mut commands = Vec::new();
        let mut rects = Vec::new();
        let comments = self.workspace.document.comments.clone();
        let (snarl, subgraphs) = self.workspace.document.snarl_and_subgraphs();
        let mut viewer = GraphViewer {
            names,
            errors: &errors,
            warnings: &warnings,
            selection: &self.workspace.selection,
            commands: &mut commands,
            search: &mut self.view.canvas.menu_search,
            view: &mut view,
            transform: None,
            live: live.as_ref(),
            holding: &holding,
            subgraphs,
            rects: &mut rects,
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
        SnarlWidget::new()
            .id(id)
            .style(style)
            .show(snarl, &mut viewer, ui);
        if let Some(transform) = viewer.transform {
            self.view.canvas.transform = transform;
        }
        self.view.canvas.keep_opened_frame();
        draw_comments(
            ui,
            &comments,
            self.view.canvas.transform,
            self.view.canvas.rect,
        );
        self.view.canvas.node_rects = rects;
        if commands.is_empty() {
            if let Some(node) = self.clicked_node(ui) {
                // A click anywhere on a node selects it, as in Blender: a Reroute's small dot
                // need not be hit exactly, nor a title.
                commands.push(Command::Select {
                    nodes: vec![node],
                    add: false,
                });
            } else if self.clicked_empty_canvas(ui) {
                commands.push(Command::DeselectAll);
            }
        }
        self.queue.extend(commands);
        self.follow_widget_selection(ui, id);
    }

    /// The transform for a pending frame request, once every node has been drawn (so their
    /// real sizes are known); the request waits otherwise.
    fn framing(&mut self) -> Option<TSTransform> {
        let request = self.view.canvas.frame_request.as_ref()?;
        let count = self.workspace.document.snarl.nodes().count();
        if count == 0 {
            self.view.canvas.frame_request = None;
            return None;
        }
        if self.view.canvas.node_rects.len() < count {
            return None;
        }
        let output = self
            .workspace
            .document
            .snarl
            .nodes()
            .find(|n| matches!(n.node, graph_runtime::Node::Output { .. }))
            .map(|n| n.id);
        let comments: Vec<Rect> = self
            .workspace
            .document
            .comments
            .iter()
            .map(|c| {
                Rect::from_min_size(
                    Pos2::new(c.position.x, c.position.y),
                    egui::vec2(c.size.x, c.size.y),
                )
            })
            .collect();
        let transform = framed(
            request,
            &self.view.canvas.node_rects,
            &comments,
            output,
            self.view.canvas.rect,
        );
        self.view.canvas.opened_frame = match (request, transform) {
            (FrameRequest::Open, Some(transform)) => Some((self.view.canvas.rect, transform)),
            _ => None,
        };
        self.view.canvas.frame_request = None;
        transform
    }

    /// The node search popup, when open.
    pub(super) fn search_popup(&mut self, ctx: &egui::Context) {
        let Some(at) = self.view.canvas.search_popup else {
            return;
        };
        let mut picked = None;
        let area = egui::Area::new(Id::new("node-search-popup"))
            .fixed_pos(at)
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label("Add node");
                    picked = self.view.canvas.popup_search.ui(ui, Fit::Any);
                });
            });
        if let Some(kind) = picked {
            let at = self.view.canvas.to_graph(at);
            self.push(Command::AddNode {
                kind,
                at,
                wire: None,
            });
            self.view.canvas.search_popup = None;
        } else if ctx.input(|i| i.key_pressed(Key::Escape))
            || (ctx.input(|i| i.pointer.any_pressed()) && !area.response.contains_pointer())
        {
            self.view.canvas.search_popup = None;
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
