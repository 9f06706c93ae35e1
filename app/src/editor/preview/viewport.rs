//! The viewport: pan (middle button or Space + drag), zoom (wheel, like the graph), the
//! tools' pointer input, and painting the world, agents, guides and selection.

use egui::{Color32, Key, PointerButton, Rect, Sense, Ui};

use super::SceneDocument;
use super::tools::{Item, LinkEnd, Tool};
use super::view::{self, View};
use super::{Preview, SceneEdit};

/// Zoom factor per screen point of wheel scroll (the graph canvas uses the same).
pub const WHEEL_ZOOM: f32 = 0.002;

/// The zoom factor for `scroll` screen points of wheel scroll, in the preview and the graph.
pub fn viewport_wheel_zoom(scroll: f32) -> f32 {
    (scroll * WHEEL_ZOOM).exp()
}

impl Preview {
    /// The viewport: paints the scene and handles pan, zoom, picking and the tools.
    pub fn viewport(&mut self, document: &mut SceneDocument, ui: &mut Ui) {
        let (screen, response) =
            ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.rect = Some(screen);
        if self.tool != Tool::DrawWall && self.gestures.wall_draft.is_some() {
            self.push_edit(SceneEdit::FinishWall);
        }
        // A gap or link half drawn is dropped when the tool changes.
        if self.tool != Tool::DrawGap {
            self.drop_gap_draft();
        }
        if self.tool != Tool::AddJumpLink {
            self.drop_link_draft();
        }
        self.navigate(document, ui, screen, &response);
        let space = ui.input(|i| i.key_down(Key::Space));
        if !space {
            let at = response
                .interact_pointer_pos()
                .map(|p| self.view.to_world(screen, p));
            if self.tool == Tool::PaintField {
                self.brush_drag(&response, at);
            } else {
                self.pointer(document, screen, &response);
            }
        }
        self.context_menu(document, screen, &response);
        if response.hovered()
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Delete))
        {
            self.push_edit(SceneEdit::DeleteSelected);
        }
        if self.gestures.wall_draft.is_some()
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input(|i| i.key_pressed(Key::Enter) || i.key_pressed(Key::Escape))
        {
            self.push_edit(SceneEdit::FinishWall);
        }
        self.draft_keys(ui);
        self.paint(document, ui, screen, &response);
    }

    /// Enter closes the gap being drawn; Escape drops it, or the half-placed jump link.
    fn draft_keys(&mut self, ui: &Ui) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let (enter, escape) = ui.input(|i| (i.key_pressed(Key::Enter), i.key_pressed(Key::Escape)));
        if !self.gap_draft().is_empty() {
            if enter {
                self.push_edit(SceneEdit::CloseGap);
            } else if escape {
                self.drop_gap_draft();
            }
        }
        if escape {
            self.drop_link_draft();
        }
    }

    /// The right-click menu: add a target or an obstacle where it was opened; rename or
    /// delete the item there.
    fn context_menu(
        &mut self,
        document: &mut SceneDocument,
        screen: Rect,
        response: &egui::Response,
    ) {
        if response.secondary_clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let item = self.pick_item(document, screen, p);
            if item.is_some() {
                self.selected_item.clone_from(&item);
            }
            self.gestures.context = Some((self.view.to_world(screen, p), item));
        }
        let Some((at, item)) = self.gestures.context.clone() else {
            return;
        };
        response.context_menu(|ui| {
            if let Some(Item::Target(name)) = &item {
                ui.horizontal(|ui| {
                    ui.label("target");
                    let id = ui.id().with("rename-target");
                    if ui.memory(|m| m.focused().is_none()) && !ui.ctx().egui_wants_keyboard_input()
                    {
                        ui.memory_mut(|m| m.request_focus(id));
                    }
                    if let Some(new) = super::super::widgets::committed_text(ui, id, name, 120.0).1
                    {
                        self.push_edit(SceneEdit::RenameTarget {
                            old: name.clone(),
                            new,
                        });
                        ui.close();
                    }
                });
                ui.separator();
            }
            if let Some(item) = &item {
                if ui.button(format!("Delete {}", item.describe())).clicked() {
                    self.push_edit(SceneEdit::Delete(item.clone()));
                    ui.close();
                }
                ui.separator();
            }
            if ui.button("Add target here").clicked() {
                self.push_edit(SceneEdit::AddTarget(at));
                ui.close();
            }
            if ui.button("Add obstacle here").clicked() {
                self.push_edit(SceneEdit::AddObstacle(at));
                ui.close();
            }
        });
    }

    fn navigate(
        &mut self,
        document: &mut SceneDocument,
        ui: &Ui,
        screen: Rect,
        response: &egui::Response,
    ) {
        if self.fit_pending || ui.input(|i| i.key_pressed(Key::Home)) && response.hovered() {
            self.view = View::fit(document.scene.bounds, screen);
            self.fit_pending = false;
        }
        let space = ui.input(|i| i.key_down(Key::Space));
        if response.dragged_by(PointerButton::Middle)
            || (space && response.dragged_by(PointerButton::Primary))
        {
            self.view.pan(response.drag_delta());
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0
                && let Some(anchor) = response.hover_pos()
            {
                self.view
                    .zoom_around(screen, anchor, viewport_wheel_zoom(scroll));
            }
        }
        if let Some(hover) = response.hover_pos() {
            self.cursor = Some(self.view.to_world(screen, hover));
        }
    }

    /// Clicks and drags of the select, obstacle and path tools.
    fn pointer(&mut self, document: &mut SceneDocument, screen: Rect, response: &egui::Response) {
        if response.drag_started_by(PointerButton::Primary) && self.tool == Tool::Select {
            // What is under the press, not under the pointer once it has moved far enough
            // to count as a drag.
            let origin = response.ctx.input(|i| i.pointer.press_origin());
            self.gestures.dragging = origin
                .or_else(|| response.interact_pointer_pos())
                .and_then(|p| self.pick_item(document, screen, p));
            if self.gestures.dragging.is_some() {
                self.selected_item.clone_from(&self.gestures.dragging);
            }
            self.gestures.drag_anchor = origin.map(|p| self.view.to_world(screen, p));
        }
        if let (Some(item), Some(p)) = (
            self.gestures.dragging.clone(),
            response.interact_pointer_pos(),
        ) && response.dragged_by(PointerButton::Primary)
        {
            let at = self.view.to_world(screen, p);
            match item {
                // A whole wall or path follows the pointer from where it was grabbed.
                Item::Wall(_, None) | Item::Path(_, None) => {
                    let from = self.gestures.drag_anchor.unwrap_or(at);
                    self.gestures.drag_anchor = Some(at);
                    if at != from {
                        self.push_edit(SceneEdit::Shift(item, at - from));
                    }
                }
                _ => self.push_edit(SceneEdit::Move(item, at)),
            }
        }
        if response.drag_stopped() {
            self.gestures.dragging = None;
            self.gestures.drag_anchor = None;
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            match self.tool {
                Tool::Select => self.select_at(document, screen, p),
                _ => self.click_tool(document, self.view.to_world(screen, p)),
            }
        }
    }

    fn paint(
        &mut self,
        document: &mut SceneDocument,
        ui: &Ui,
        screen: Rect,
        response: &egui::Response,
    ) {
        let painter = ui.painter_at(screen);
        painter.rect_filled(screen, 0.0, Color32::from_rgb(18, 20, 24));
        let Some(scene) = self.host.view() else {
            painter.text(
                screen.center(),
                egui::Align2::CENTER_CENTER,
                "The scene does not run: see its problems above",
                egui::FontId::proportional(15.0),
                Color32::from_rgb(235, 110, 90),
            );
            return;
        };
        view::paint_world(
            &painter,
            screen,
            &self.view,
            scene.world,
            self.color_arrows,
            &mut self.blocked,
        );
        view::paint_jumps(&painter, screen, &self.view, scene.world);
        if self.guides.navigation {
            view::paint_navigation(&painter, screen, &self.view, scene.world);
        }
        // While the GPU runs, the CPU's agents, rings and routes wait: only the GPU's are drawn.
        let (view, agents) = (&self.view, &self.gpu_agents);
        if !self.gpu.paint(&painter, screen, view, agents) {
            self.paint_agents(&painter, screen, &scene);
        }
        self.paint_selection(document, &painter, screen);
        self.paint_wall_draft(document, &painter, screen, response);
        if self.tool == Tool::DrawGap {
            view::paint_gap_draft(
                &painter,
                screen,
                &self.view,
                self.gap_draft(),
                response.hover_pos(),
            );
        }
        if self.tool == Tool::AddJumpLink
            && let Some(from) = self.link_draft()
        {
            view::paint_link_draft(&painter, screen, &self.view, from, response.hover_pos());
        }
        if self.tool == Tool::PaintField
            && let Some(hover) = response.hover_pos()
        {
            painter.circle_stroke(
                hover,
                self.paint.brush.radius * self.view.zoom,
                egui::Stroke::new(1.0, Color32::from_rgb(240, 240, 240)),
            );
        }
    }

    /// The agents (lifted when in the air, over their shadows), their facings, falls and
    /// stuck rings, every agent's planned route when the Guides menu asks, and the selected
    /// agent's ring, guides, own points and routes.
    fn paint_agents(
        &self,
        painter: &egui::Painter,
        screen: Rect,
        scene: &super::worker::SceneView<'_>,
    ) {
        let selected = self.host.selected_agent;
        view::paint_flights(painter, screen, &self.view, scene.vehicles, &scene.airborne);
        if let Some(ghosts) = self.host.ghosts() {
            view::paint_ghosts(painter, screen, &self.view, ghosts, scene.vehicles);
        }
        let on_gpu = self.gpu_agents.paint(
            painter,
            screen,
            &self.view,
            scene.vehicles,
            &scene.airborne,
            |agent| scene.group_of(agent),
        );
        if !on_gpu {
            let mesh = view::agent_mesh(
                screen,
                &self.view,
                scene.vehicles,
                &scene.airborne,
                |agent| scene.group_of(agent),
            );
            painter.add(egui::Shape::mesh(mesh));
            view::paint_facings(painter, screen, &self.view, scene.vehicles, &scene.airborne);
        }
        view::paint_falls(painter, screen, &self.view, scene.vehicles, &scene.fallen);
        view::paint_stuck_agents(painter, screen, &self.view, scene.vehicles, &scene.stuck);
        if self.guides.routes {
            let lines = scene.routes.lines();
            view::paint_all_routes(painter, screen, &self.view, &lines, selected);
        }
        if let Some(vehicle) = selected.and_then(|a| scene.vehicles.get(a)) {
            view::paint_selected_agent(painter, screen, &self.view, vehicle);
            view::paint_guides(
                painter,
                screen,
                &self.view,
                vehicle,
                &self.host.trace,
                self.host.trace_root,
                &self.guides,
            );
            view::paint_own(
                painter,
                screen,
                &self.view,
                vehicle.position,
                &self.host.selected_own,
            );
            view::paint_routes(
                painter,
                screen,
                &self.view,
                vehicle.position,
                &self.host.selected_routes,
            );
        }
    }

    fn paint_selection(&self, document: &SceneDocument, painter: &egui::Painter, screen: Rect) {
        let highlight = egui::Stroke::new(2.0, Color32::from_rgb(255, 230, 120));
        let scene = &document.scene;
        let s = |p| self.view.to_screen(screen, p);
        match &self.selected_item {
            Some(Item::Obstacle(index)) => {
                if let Some(o) = scene.obstacles.get(*index) {
                    painter.circle_stroke(s(o.center), o.radius * self.view.zoom + 3.0, highlight);
                }
            }
            Some(Item::Path(name, point)) => {
                for (index, p) in scene
                    .paths
                    .get(name)
                    .into_iter()
                    .flat_map(|p| &p.points)
                    .enumerate()
                {
                    let radius = if Some(index) == *point { 6.0 } else { 4.0 };
                    painter.circle_stroke(s(*p), radius, highlight);
                }
            }
            Some(Item::Target(name)) => {
                if let Some(p) = scene.targets.get(name) {
                    painter.circle_stroke(s(*p), 9.0, highlight);
                }
            }
            Some(Item::Wall(index, corner)) => {
                let Some(wall) = scene.walls.get(*index) else {
                    return;
                };
                for (from, to) in wall.segments() {
                    painter.line_segment([s(from), s(to)], highlight);
                }
                for (i, p) in wall.points.iter().enumerate() {
                    let radius = if Some(i) == *corner { 6.0 } else { 4.0 };
                    painter.circle_stroke(s(*p), radius, highlight);
                }
            }
            Some(Item::Gap(index, corner)) => {
                if let Some(gap) = scene.gaps.get(*index) {
                    view::paint_selected_gap(painter, screen, &self.view, gap, *corner, highlight);
                }
            }
            Some(Item::JumpLink(name, end)) => {
                if let Some(link) = scene.jump_links.get(name) {
                    let end = end.map(|end| usize::from(end == LinkEnd::Landing));
                    view::paint_selected_link(painter, screen, &self.view, link, end, highlight);
                }
            }
            None => {}
        }
    }
}
