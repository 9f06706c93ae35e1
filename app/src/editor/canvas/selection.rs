//! The canvas's clicks and its selection bridge: which node a click landed on, a click on
//! empty canvas, and the node widget's own Shift-click selection kept in step with the
//! editor's one selection.

use egui::{Id, Ui};
use egui_snarl::NodeId as SnarlId;
use graph_runtime::NodeId;

use crate::editor::EditorApp;

impl EditorApp {
    /// The node this frame's plain primary click landed on (the one drawn on top), unless the
    /// click was on a popup; Shift and Ctrl clicks are the widget's own selection.
    pub(super) fn clicked_node(&self, ui: &Ui) -> Option<NodeId> {
        let ctx = ui.ctx();
        let at = ctx.input(|i| {
            i.pointer
                .primary_clicked()
                .then(|| i.pointer.interact_pos())
                .flatten()
        })?;
        let over_popup = ctx
            .layer_id_at(at)
            .is_some_and(|layer| layer.order != egui::Order::Background);
        let modifiers = ctx.input(|i| i.modifiers);
        if over_popup || modifiers.shift || modifiers.command || !self.view.canvas.rect.contains(at)
        {
            return None;
        }
        self.view
            .canvas
            .node_screen_rects()
            .filter(|(_, rect)| rect.contains(at))
            .last()
            .map(|(id, _)| id)
    }

    /// Whether this frame's primary click landed on the canvas itself: no node, no popup,
    /// no dragged wire or box (those are drags, not clicks).
    pub(super) fn clicked_empty_canvas(&self, ui: &Ui) -> bool {
        let ctx = ui.ctx();
        let Some(at) = ctx.input(|i| {
            i.pointer
                .primary_clicked()
                .then(|| i.pointer.interact_pos())
                .flatten()
        }) else {
            return false;
        };
        let over_popup = ctx
            .layer_id_at(at)
            .is_some_and(|layer| layer.order != egui::Order::Background);
        let modifiers = ctx.input(|i| i.modifiers);
        self.view.canvas.rect.contains(at)
            && !over_popup
            && !modifiers.shift
            && !modifiers.command
            && !self
                .view
                .canvas
                .node_screen_rects()
                .any(|(_, r)| r.contains(at))
    }

    /// Shift-click and box selection happen inside the widget: take what it added or removed
    /// into the editor's selection. When the editor's selection moves on without the widget
    /// (a plain click, a problem clicked, a new node), the widget's is dropped.
    pub(super) fn follow_widget_selection(&mut self, ui: &Ui, id: Id) {
        let now = egui_snarl::ui::get_selected_nodes(id, ui.ctx());
        if now == self.view.canvas.widget_selection {
            return;
        }
        let graph_id = |s: &SnarlId| self.workspace.document.snarl.get_node(*s).map(|n| n.id);
        let added: Vec<NodeId> = now
            .iter()
            .filter(|s| !self.view.canvas.widget_selection.contains(s))
            .filter_map(graph_id)
            .collect();
        let removed: Vec<NodeId> = self
            .view
            .canvas
            .widget_selection
            .iter()
            .filter(|s| !now.contains(s))
            .filter_map(graph_id)
            .collect();
        for node in removed {
            self.workspace.selection.remove(node);
        }
        for node in added {
            self.workspace.selection.add(node);
        }
        self.view.canvas.widget_selection = now;
    }

    /// Drops the widget's own selection when it holds nodes the editor's does not.
    pub(in crate::editor) fn reconcile_widget_selection(&mut self) {
        let stray = self.view.canvas.widget_selection.iter().any(|s| {
            self.workspace
                .document
                .snarl
                .get_node(*s)
                .is_none_or(|n| !self.workspace.selection.contains(n.id))
        });
        if stray {
            self.view.canvas.forget_widget_state();
        }
    }
}
