//! Where nodes go: Align and Distribute for the selection (the layout commands of Blender,
//! Houdini and Unreal), Tidy (a layered layout: the Output at the right, each node left of
//! what reads it; a new node's spot: `placement.rs`). Pure functions of the nodes' rectangles
//! (graph space, as last drawn), so tests check them without a window.

use std::collections::{BTreeMap, BTreeSet};

use egui::{Pos2, Rect, Vec2};
use graph_runtime::NodeId;

/// Space kept between nodes by Distribute (when they overlap), Tidy and a new node's spot.
pub const GAP: f32 = 40.0;
/// Space between Tidy's columns, wider than between nodes so the wires show.
const COLUMN_GAP: f32 = 80.0;

/// A layout command for the selected nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrange {
    /// Left edges on the leftmost.
    Left,
    /// Centres on one vertical line, the middle of the selection.
    CenterX,
    /// Right edges on the rightmost.
    Right,
    /// Top edges on the highest.
    Top,
    /// Centres on one horizontal line, the middle of the selection.
    CenterY,
    /// Bottom edges on the lowest.
    Bottom,
    /// Equal gaps from left to right, the outermost staying where they are.
    DistributeX,
    /// Equal gaps from top to bottom, the outermost staying where they are.
    DistributeY,
    /// A layered layout: columns by how far a node is from the end of its wires.
    Tidy,
}

impl Arrange {
    /// Every command, in menu order.
    pub const ALL: [Self; 9] = [
        Self::Left,
        Self::CenterX,
        Self::Right,
        Self::Top,
        Self::CenterY,
        Self::Bottom,
        Self::DistributeX,
        Self::DistributeY,
        Self::Tidy,
    ];

    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Left => "Align left edges",
            Self::CenterX => "Align centres vertically",
            Self::Right => "Align right edges",
            Self::Top => "Align top edges",
            Self::CenterY => "Align centres horizontally",
            Self::Bottom => "Align bottom edges",
            Self::DistributeX => "Distribute horizontally",
            Self::DistributeY => "Distribute vertically",
            Self::Tidy => "Tidy layout  (L)",
        }
    }

    /// The fewest selected nodes the command does something with.
    pub fn needs(self) -> usize {
        match self {
            Self::DistributeX | Self::DistributeY => 3,
            Self::Tidy => 1,
            _ => 2,
        }
    }
}

/// The new top-left corner of each node `how` moves (`rects`: the nodes acted on; `wires`:
/// (from, to) for Tidy, every wire between them). A node that stays is left out.
pub fn arranged(
    how: Arrange,
    rects: &[(NodeId, Rect)],
    wires: &[(NodeId, NodeId)],
) -> Vec<(NodeId, Pos2)> {
    let Some(all) = rects.iter().map(|(_, r)| *r).reduce(Rect::union) else {
        return Vec::new();
    };
    let moved = |place: &dyn Fn(Rect) -> Pos2| -> Vec<(NodeId, Pos2)> {
        rects
            .iter()
            .map(|(id, r)| (*id, place(*r)))
            .filter(|(id, to)| rects.iter().any(|(i, r)| i == id && r.min != *to))
            .collect()
    };
    match how {
        Arrange::Left => moved(&|r| Pos2::new(all.min.x, r.min.y)),
        Arrange::CenterX => moved(&|r| Pos2::new(all.center().x - r.width() / 2.0, r.min.y)),
        Arrange::Right => moved(&|r| Pos2::new(all.max.x - r.width(), r.min.y)),
        Arrange::Top => moved(&|r| Pos2::new(r.min.x, all.min.y)),
        Arrange::CenterY => moved(&|r| Pos2::new(r.min.x, all.center().y - r.height() / 2.0)),
        Arrange::Bottom => moved(&|r| Pos2::new(r.min.x, all.max.y - r.height())),
        Arrange::DistributeX => distribute(rects, 0),
        Arrange::DistributeY => distribute(rects, 1),
        Arrange::Tidy => tidy(rects, wires, all.min),
    }
}

/// Equal gaps along `axis` (0: x, 1: y) in the order of the nodes' centres, the first and
/// last staying; nodes too wide for the span are laid `GAP` apart from the first.
fn distribute(rects: &[(NodeId, Rect)], axis: usize) -> Vec<(NodeId, Pos2)> {
    if rects.len() < 3 {
        return Vec::new();
    }
    let mut order: Vec<(NodeId, Rect)> = rects.to_vec();
    order.sort_by(|a, b| {
        a.1.center()[axis]
            .total_cmp(&b.1.center()[axis])
            .then(a.0.cmp(&b.0))
    });
    let (first, last) = (order[0].1, order[order.len() - 1].1);
    let sizes: f32 = order.iter().map(|(_, r)| r.size()[axis]).sum();
    let span = last.max[axis] - first.min[axis];
    let gap = (span - sizes) / (order.len() - 1) as f32;
    let gap = if gap >= 0.0 { gap } else { GAP };
    let mut at = first.min[axis];
    let mut moved = Vec::new();
    for (id, rect) in order {
        let mut to = rect.min;
        to[axis] = at;
        if to != rect.min {
            moved.push((id, to));
        }
        at += rect.size()[axis] + gap;
    }
    moved
}

/// The layered layout: a node's column is the longest run of wires from it to a node nothing
/// (among `rects`) reads, counted from the right; in a column, nodes follow the order of what
/// they feed, so wires cross as little as a single pass can make them; the whole starts at
/// `origin` (the selection's top-left corner).
fn tidy(rects: &[(NodeId, Rect)], wires: &[(NodeId, NodeId)], origin: Pos2) -> Vec<(NodeId, Pos2)> {
    let ids: BTreeSet<NodeId> = rects.iter().map(|(id, _)| *id).collect();
    let size: BTreeMap<NodeId, Vec2> = rects.iter().map(|(id, r)| (*id, r.size())).collect();
    let wires: Vec<(NodeId, NodeId)> = wires
        .iter()
        .copied()
        .filter(|(from, to)| ids.contains(from) && ids.contains(to) && from != to)
        .collect();
    // Columns: longest path to a sink, by relaxation (a loop, which the compiler refuses
    // anyway, stops after as many rounds as there are nodes).
    let mut column: BTreeMap<NodeId, usize> = ids.iter().map(|id| (*id, 0)).collect();
    for _ in 0..ids.len() {
        let mut changed = false;
        for (from, to) in &wires {
            let wanted = column[to] + 1;
            if column[from] < wanted && wanted < ids.len() {
                column.insert(*from, wanted);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let columns = column.values().max().copied().unwrap_or(0) + 1;
    // Rows: the Output's column in id order; each column to the left in the order of the
    // rows of what its nodes feed (their mean), ties by id.
    let mut row: BTreeMap<NodeId, f32> = BTreeMap::new();
    let mut layers: Vec<Vec<NodeId>> = vec![Vec::new(); columns];
    for (c, slot) in layers.iter_mut().enumerate() {
        let mut layer: Vec<(f32, NodeId)> = ids
            .iter()
            .filter(|id| column[id] == c)
            .map(|id| {
                let readers: Vec<f32> = wires
                    .iter()
                    .filter(|(from, _)| from == id)
                    .filter_map(|(_, to)| row.get(to).copied())
                    .collect();
                let key = if readers.is_empty() {
                    f32::MAX
                } else {
                    readers.iter().sum::<f32>() / readers.len() as f32
                };
                (key, *id)
            })
            .collect();
        layer.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (index, (_, id)) in layer.iter().enumerate() {
            row.insert(*id, index as f32);
        }
        *slot = layer.into_iter().map(|(_, id)| id).collect();
    }
    // Place the columns right to left from the widest, each column's nodes stacked and the
    // column centred on the tallest.
    let width = |c: usize| {
        layers[c]
            .iter()
            .map(|id| size[id].x)
            .fold(0.0_f32, f32::max)
    };
    let height = |c: usize| {
        let nodes = &layers[c];
        nodes.iter().map(|id| size[id].y).sum::<f32>() + GAP * nodes.len().saturating_sub(1) as f32
    };
    let tallest = (0..columns).map(height).fold(0.0_f32, f32::max);
    let mut moved = Vec::new();
    let mut x = origin.x;
    for c in (0..columns).rev() {
        let mut y = origin.y + (tallest - height(c)) / 2.0;
        for id in &layers[c] {
            let to = Pos2::new(x + (width(c) - size[id].x) / 2.0, y).round();
            if rects.iter().any(|(i, r)| i == id && r.min != to) {
                moved.push((*id, to));
            }
            y += size[id].y + GAP;
        }
        x += width(c) + COLUMN_GAP;
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u32, x: f32, y: f32, w: f32, h: f32) -> (NodeId, Rect) {
        (
            NodeId(id),
            Rect::from_min_size(Pos2::new(x, y), Vec2::new(w, h)),
        )
    }

    #[test]
    fn align_moves_every_node_to_the_outermost_edge_or_the_middle() {
        let rects = [
            node(1, 0.0, 0.0, 100.0, 50.0),
            node(2, 30.0, 200.0, 200.0, 80.0),
        ];
        // The selection spans x 0..230: left edges at 0, right edges at 230, centres at 115.
        assert_eq!(
            arranged(Arrange::Left, &rects, &[]),
            vec![(NodeId(2), Pos2::new(0.0, 200.0))]
        );
        // Right edges at 230: node 2's is there already.
        assert_eq!(
            arranged(Arrange::Right, &rects, &[]),
            vec![(NodeId(1), Pos2::new(130.0, 0.0))]
        );
        assert_eq!(
            arranged(Arrange::CenterX, &rects, &[]),
            vec![
                (NodeId(1), Pos2::new(65.0, 0.0)),
                (NodeId(2), Pos2::new(15.0, 200.0))
            ]
        );
        // y spans 0..280: bottoms at 280.
        assert_eq!(
            arranged(Arrange::Bottom, &rects, &[]),
            vec![(NodeId(1), Pos2::new(0.0, 230.0))]
        );
    }

    #[test]
    fn distribute_leaves_equal_gaps_between_the_outermost() {
        // Widths 100, 50, 100 over x 0..400: 150 of space left, two gaps of 75; the middle
        // node goes to 175.
        let rects = [
            node(1, 0.0, 0.0, 100.0, 10.0),
            node(2, 120.0, 0.0, 50.0, 10.0),
            node(3, 300.0, 0.0, 100.0, 10.0),
        ];
        assert_eq!(
            arranged(Arrange::DistributeX, &rects, &[]),
            vec![(NodeId(2), Pos2::new(175.0, 0.0))]
        );
        // Overlapping nodes wider than the span are laid GAP apart from the first.
        let packed = [
            node(1, 0.0, 0.0, 100.0, 10.0),
            node(2, 10.0, 0.0, 100.0, 10.0),
            node(3, 20.0, 0.0, 100.0, 10.0),
        ];
        assert_eq!(
            arranged(Arrange::DistributeX, &packed, &[]),
            vec![
                (NodeId(2), Pos2::new(140.0, 0.0)),
                (NodeId(3), Pos2::new(280.0, 0.0))
            ]
        );
    }

    #[test]
    fn tidy_puts_each_node_left_of_what_reads_it_without_overlaps() {
        // Seek (1) and Flee (2) into a Blend (3) into the Output (4), all 200 × 100, piled up.
        let rects = [
            node(1, 0.0, 0.0, 200.0, 100.0),
            node(2, 10.0, 10.0, 200.0, 100.0),
            node(3, 20.0, 20.0, 200.0, 100.0),
            node(4, 30.0, 30.0, 200.0, 100.0),
        ];
        let wires = [
            (NodeId(1), NodeId(3)),
            (NodeId(2), NodeId(3)),
            (NodeId(3), NodeId(4)),
        ];
        let moved: BTreeMap<NodeId, Pos2> = arranged(Arrange::Tidy, &rects, &wires)
            .into_iter()
            .collect();
        let at = |id: u32| {
            moved
                .get(&NodeId(id))
                .copied()
                .unwrap_or(rects[id as usize - 1].1.min)
        };
        // Three columns 200 wide, 80 apart: x 0, 280, 560; the two leaves stacked 40 apart
        // (height 240), the Blend and the Output centred on them at y 70.
        assert_eq!(at(1), Pos2::new(0.0, 0.0));
        assert_eq!(at(2), Pos2::new(0.0, 140.0));
        assert_eq!(at(3), Pos2::new(280.0, 70.0));
        assert_eq!(at(4), Pos2::new(560.0, 70.0));
    }
}
