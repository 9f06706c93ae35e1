//! Each node kind's op: a family file's kinds by the family (`program/family/`), every other
//! kind by its arm here, its numbers resolved with the ranges the node table gives them
//! (`Fields`), so no range is written twice.

use super::{Builder, Fields};
use crate::compile::program::{
    AimOp, CourseOp, CrossingOp, FacingOp, FollowOp, Fov, GroupOp, HeadingRef, JumpOp, Lowering,
    Names, Num, Op, ReciprocalOp, SensorOp, Span, SurroundingsOp, TargetRef, VelocityRef,
};
use crate::graph::{Heading, Link, Node, NodeId, Number, Target, VelocitySource};

impl<'g> Builder<'g> {
    /// The op of node `id` (not muted, not a Reroute: `build` links through those).
    pub(super) fn op(&mut self, id: NodeId, node: &'g Node) -> Op {
        let f = Fields::of(id, node);
        let mut fields = NodeFields {
            builder: self,
            fields: &f,
        };
        // A family file's kind: the first family that knows the kind lowers it.
        let family = AimOp::lower(node, &mut fields)
            .map(Op::Aim)
            .or_else(|| SurroundingsOp::lower(node, &mut fields).map(Op::Surroundings))
            .or_else(|| CourseOp::lower(node, &mut fields).map(Op::Course))
            .or_else(|| CrossingOp::lower(node, &mut fields).map(Op::Crossing))
            .or_else(|| GroupOp::lower(node, &mut fields).map(Op::Group))
            .or_else(|| FacingOp::lower(node, &mut fields).map(Op::Facing))
            .or_else(|| SensorOp::lower(node, &mut fields).map(Op::Sensor))
            .or_else(|| JumpOp::lower(node, &mut fields).map(Op::Jump))
            .or_else(|| FollowOp::lower(node, &mut fields).map(Op::Follow))
            .or_else(|| ReciprocalOp::lower(node, &mut fields).map(Op::Reciprocal));
        if let Some(op) = family {
            return op;
        }
        match node {
            Node::Blend { inputs } => {
                let span = self.weighted(&f, inputs.iter().map(|i| (i.node, &i.weight)));
                Op::Blend(span)
            }
            Node::Dither { inputs, epsilon } => {
                let span = self.weighted(&f, inputs.iter().map(|i| (i.node, &i.probability)));
                Op::Dither(span, self.number(&f, epsilon))
            }
            Node::Priority { inputs, epsilon } => {
                let span = self.live_links(inputs);
                Op::Priority(span, self.number(&f, epsilon))
            }
            Node::Budget { inputs } => Op::Budget(self.live_links(inputs)),
            Node::All { inputs } => Op::All(self.live_links(inputs)),
            Node::Any { inputs } => Op::Any(self.live_links(inputs)),
            Node::Gate { input, condition } => Op::Gate(self.link(*input), self.link(*condition)),
            Node::Scale { input, factor } => Op::Scale(self.link(*input), self.number(&f, factor)),
            Node::Truncate { input, max } => Op::Truncate(self.link(*input), self.number(&f, max)),
            Node::Compare {
                sensor,
                test,
                threshold,
            } => Op::Compare(self.link(*sensor), *test, self.number(&f, threshold)),
            Node::Not { input } => Op::Not(self.link(*input)),
            Node::Output { input } => Op::Output(self.link(*input)),
            // `build` links through a Reroute and makes no op for it (or `Muted` when muted);
            // `compile` inlines every Subgraph before building.
            Node::Reroute { .. } | Node::Subgraph { .. } => Op::Muted,
            // A kind of a family file (`program/family/`), lowered above; one that no family
            // lowers fails `every_leaf_kind_lowers_to_an_op_of_its_kind`.
            _ => {
                debug_assert!(false, "no family lowers {}", node.kind());
                Op::Muted
            }
        }
    }

    /// A Blend's or Dither's inputs that are not muted, each with its number (its weight or
    /// probability, a reference into the node), in the program's weighted list.
    fn weighted<'n>(
        &mut self,
        f: &Fields<'_>,
        inputs: impl Iterator<Item = (crate::graph::Link, &'n Number)>,
    ) -> Span {
        let start = self.program.weighted.len() as u32;
        // The node table lists the items in input order, so each is found after the one
        // before: one pass over the fields (a Blend may have thousands of inputs).
        let mut rest = f.numbers.iter();
        for (link, number) in inputs {
            if !self.live(link) {
                continue;
            }
            let op = self.link(link);
            let field = rest.find(|field| std::ptr::eq(field.number, number));
            debug_assert!(field.is_some(), "node {} has no number {number:?}", f.id);
            let number = field.map_or(Num::Const(0.0), |field| self.resolve(Some(f.id), field));
            self.program.weighted.push((op, number));
        }
        Span {
            start,
            len: self.program.weighted.len() as u32 - start,
        }
    }
}

/// One node's fields as a family file lowers them: through the builder, with the node
/// table's ranges.
struct NodeFields<'b, 'g, 'n> {
    builder: &'b mut Builder<'g>,
    fields: &'b Fields<'n>,
}

impl Lowering for NodeFields<'_, '_, '_> {
    fn number(&mut self, number: &Number) -> Num {
        self.builder.number(self.fields, number)
    }

    fn target(&mut self, target: &Target) -> TargetRef {
        self.builder.target(self.fields, target)
    }

    fn heading(&mut self, heading: &Heading) -> HeadingRef {
        self.builder.heading(self.fields, heading)
    }

    fn velocity(&mut self, velocity: &VelocitySource) -> VelocityRef {
        self.builder.velocity(self.fields, velocity)
    }

    fn fov(&mut self, fov: &Number) -> Fov {
        self.builder.fov(self.fields, fov)
    }

    fn name(&mut self, table: Names, name: &str) -> u16 {
        self.builder.intern(table, name)
    }

    fn wander_slot(&mut self) -> u32 {
        let slot = self.builder.program.wander_slots;
        self.builder.program.wander_slots += 1;
        slot
    }

    fn route_slot(&mut self) -> u32 {
        let slot = self.builder.program.route_slots;
        self.builder.program.route_slots += 1;
        slot
    }

    fn link(&mut self, link: Link) -> u32 {
        self.builder.link(link)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Graph, NodeKind};

    /// Every leaf kind lowers to an op of its own kind: a family file's kind is lowered by its
    /// family (`AimOp::lower`), any other by its arm in `Builder::op`. A kind that none lowers
    /// would run as a muted node.
    #[test]
    fn every_leaf_kind_lowers_to_an_op_of_its_kind() {
        let leaves: Vec<(NodeKind, Node)> = NodeKind::ALL
            .iter()
            // A Subgraph is written out and a Reroute linked through before lowering.
            .filter(|kind| {
                !kind.takes_inputs() && !matches!(kind, NodeKind::Subgraph | NodeKind::Reroute)
            })
            .map(|&kind| (kind, kind.instantiate()))
            .collect();
        let graph = Graph::default();
        let mut builder = Builder::new(&graph);
        for (kind, node) in &leaves {
            let op = builder.op(NodeId(1), node);
            assert_eq!(op.kind(), Some(*kind), "{op:?}");
        }
        // Seek … JumpAchievable: most of the node table is leaves.
        assert!(leaves.len() > 30, "{} leaf kinds", leaves.len());
    }
}
