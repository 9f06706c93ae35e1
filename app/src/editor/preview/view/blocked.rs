//! Flow-field cells a wall crosses, drawn as blocked. The cells come from the runtime's
//! [`FlowField::wall_cells`], the same cells the "Toward target" generator routes around, and
//! are worked out again only when a field's grid or the walls change, not every frame.

use egui::{Color32, Mesh, Painter, Rect};
use glam::Vec2;
use graph_runtime::{FlowField, Wall, World};

use super::View;

/// The blocked cells of each flow field, kept until the walls or a field's grid change.
#[derive(Debug, Default)]
pub struct BlockedCells {
    walls: Vec<Wall>,
    fields: Vec<Entry>,
}

#[derive(Debug)]
struct Entry {
    name: String,
    grid: (Vec2, f32, u32, u32),
    cells: Vec<bool>,
}

fn grid_of(field: &FlowField) -> (Vec2, f32, u32, u32) {
    (field.origin, field.cell_size, field.width, field.height)
}

impl BlockedCells {
    /// Brings the cells up to date with `world` (a comparison when nothing changed).
    fn update(&mut self, world: &World) {
        if self.walls.as_slice() != world.walls() {
            self.walls = world.walls().to_vec();
            self.fields.clear();
        }
        self.fields.retain(|entry| {
            world
                .flow_field(&entry.name)
                .is_some_and(|field| grid_of(field) == entry.grid)
        });
        if world.walls().is_empty() {
            return;
        }
        for (name, field) in world.flow_fields() {
            if !self.fields.iter().any(|entry| entry.name == name) {
                self.fields.push(Entry {
                    name: name.to_owned(),
                    grid: grid_of(field),
                    cells: field.wall_cells(world.wall_index()),
                });
            }
        }
    }

    /// How many cells of field `name` are blocked (for tests and the field panel).
    pub fn count(&mut self, world: &World, name: &str) -> usize {
        self.update(world);
        self.fields
            .iter()
            .find(|entry| entry.name == name)
            .map_or(0, |entry| entry.cells.iter().filter(|c| **c).count())
    }

    /// Shades every visible blocked cell of every field of `world`, in one mesh.
    pub fn paint(&mut self, painter: &Painter, screen: Rect, view: &View, world: &World) {
        self.update(world);
        let color = Color32::from_rgba_unmultiplied(200, 90, 70, 70);
        let mut mesh = Mesh::default();
        let corner = |p: Vec2| view.to_screen(screen, p);
        let low = view.to_world(screen, screen.left_bottom());
        let high = view.to_world(screen, screen.right_top());
        for entry in &self.fields {
            let (origin, size, width, height) = entry.grid;
            if size.is_nan() || size <= 0.0 || width == 0 {
                continue;
            }
            let first = ((low - origin) / size).floor().max(Vec2::ZERO);
            let last = ((high - origin) / size)
                .floor()
                .min(Vec2::new(width as f32 - 1.0, height as f32 - 1.0));
            if last.x < first.x || last.y < first.y {
                continue;
            }
            // Zoomed far out, one cell in `step` per axis stands for its block, so a frame never
            // walks more cells than there are pixels.
            let step = (2.0 / (size * view.zoom)).ceil().max(1.0) as usize;
            let block = Vec2::splat(size * step as f32);
            for row in (first.y as usize..=last.y as usize).step_by(step) {
                for column in (first.x as usize..=last.x as usize).step_by(step) {
                    if entry
                        .cells
                        .get(row * width as usize + column)
                        .is_some_and(|c| *c)
                    {
                        let min = origin + Vec2::new(column as f32, row as f32) * size;
                        let rect = Rect::from_two_pos(corner(min), corner(min + block));
                        mesh.add_colored_rect(rect, color);
                    }
                }
            }
        }
        painter.add(egui::Shape::mesh(mesh));
    }
}
