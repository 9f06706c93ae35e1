//! The compiler's second phase: a valid graph (subgraphs written out) lowered to a
//! [`Program`]: reachable nodes in evaluation order, numbers resolved to constants or
//! parameter slots (with every parameter's uses and ranges), names interned into tables.
//! Each kind's op is `ops.rs` (a family file's kinds by the family's `lower`).

use std::collections::BTreeMap;
use std::sync::Arc;

mod ops;

use super::plan;
use super::program::{
    Fov, HeadingRef, Names, NeighborUse, Num, Op, ParameterUse, Program, Span, TargetRef,
    TurningNums, VelocityRef,
};
use super::reroutes::Reroutes;
use crate::behaviors::FieldOfView;
use crate::graph::{
    Constraint, Graph, Heading, Link, Node, NodeId, Number, NumberField, Slot, Target, Unit,
    VelocitySource,
};

/// Whether node `id` is muted (an Output never is: it is where the graph ends).
fn is_muted(graph: &Graph, id: NodeId) -> bool {
    graph.muted.contains(&id) && !matches!(graph.nodes.get(&id), Some(Node::Output { .. }))
}

/// Lowers `graph` (valid, its subgraphs written out) and plans the program.
pub(super) fn lower(graph: &Graph) -> Program {
    let mut program = Builder::new(graph).build();
    plan::plan(&mut program);
    program
}

struct Builder<'g> {
    graph: &'g Graph,
    /// Where every Reroute chain ends, and whether it passes a muted node.
    reroutes: Reroutes,
    op_of: BTreeMap<NodeId, u32>,
    parameter_slots: BTreeMap<&'g str, u16>,
    /// Each name table's index by name: paths, flow fields, targets, tags.
    interned: [BTreeMap<String, u16>; 6],
    program: Program,
}

impl<'g> Builder<'g> {
    fn new(graph: &'g Graph) -> Self {
        let parameter_slots = graph
            .parameters
            .keys()
            .enumerate()
            .map(|(i, name)| (name.as_str(), slot(i)))
            .collect();
        let reroutes = Reroutes::new(graph, |id| is_muted(graph, id));
        Self {
            graph,
            reroutes,
            op_of: BTreeMap::new(),
            parameter_slots,
            interned: Default::default(),
            program: Program {
                ops: Vec::new(),
                op_nodes: Vec::new(),
                shared: Vec::new(),
                root: 0,
                weighted: Vec::new(),
                links: Vec::new(),
                parameter_names: graph.parameters.keys().cloned().collect(),
                parameter_defaults: graph.parameters.values().copied().collect(),
                parameter_uses: vec![Vec::new(); graph.parameters.len()],
                vehicle: [Num::Const(0.0); 4],
                turning: TurningNums::default(),
                path_names: Vec::new(),
                field_names: Vec::new(),
                target_names: Vec::new(),
                tag_names: Vec::new(),
                own_names: Vec::new(),
                own_shared: Vec::new(),
                jump_link_names: Vec::new(),
                wander_slots: 0,
                route_slots: 0,
                neighbor_ops: Vec::new(),
                pass_of: Vec::new(),
                passes: Vec::new(),
                batch_plan: None,
                reads_agents: false,
                turns: false,
                source: None,
            },
        }
    }

    fn build(mut self) -> Program {
        let vehicle = self.graph.vehicle.numbers();
        let mut limits = [Num::Const(0.0); 4];
        for (limit, field) in limits.iter_mut().zip(&vehicle) {
            *limit = self.resolve(None, field);
        }
        self.program.vehicle = limits;
        let turning = &self.graph.turning;
        self.program.turning = TurningNums {
            independent_facing: turning.independent_facing,
            max_angular_speed: self
                .resolve_turning("max_angular_speed", &turning.max_angular_speed),
            max_angular_acceleration: self.resolve_turning(
                "max_angular_acceleration",
                &turning.max_angular_acceleration,
            ),
            max_turn_rate: turning
                .max_turn_rate
                .as_ref()
                .map(|rate| self.resolve_turning("max_turn_rate", rate)),
        };
        let Some((&output, _)) = self
            .graph
            .nodes
            .iter()
            .find(|(_, node)| matches!(node, Node::Output { .. }))
        else {
            return self.program;
        };
        let order = self.post_order(output);
        let mut parents = vec![0u32; order.len()];
        for &id in &order {
            let Some(node) = self.graph.nodes.get(&id) else {
                continue;
            };
            let muted = self.is_muted(id);
            if let Node::Reroute { input } = node
                && !muted
            {
                // No op of its own: whoever reads the Reroute reads its source.
                let source = self.link(*input);
                self.op_of.insert(id, source);
                continue;
            }
            let op = if muted { Op::Muted } else { self.op(id, node) };
            debug_assert!(
                !matches!(op, Op::Muted) || muted,
                "node {id} ({}) has no op: Subgraphs are written out before lowering",
                node.kind()
            );
            let index = self.program.ops.len() as u32;
            self.op_of.insert(id, index);
            self.program.ops.push(op);
            self.program.op_nodes.push(id);
            if op.neighbor_use() != NeighborUse::None {
                self.program.neighbor_ops.push(index);
            }
            // A muted node reads none of its inputs.
            for port in node.inputs().into_iter().filter(|_| !muted) {
                if let Some(&source) = port.link.source().and_then(|s| self.op_of.get(&s))
                    && let Some(count) = parents.get_mut(source as usize)
                {
                    *count += 1;
                }
            }
        }
        // Overrides are checked against every field that names a parameter, also in nodes the
        // Output does not reach (they are validated at compile time too).
        for (id, node) in &self.graph.nodes {
            if self.op_of.contains_key(id) {
                continue;
            }
            for field in node.numbers() {
                if let Number::Parameter(name) = field.number
                    && let Some(&slot) = self.parameter_slots.get(name.as_str())
                    && let Some(uses) = self.program.parameter_uses.get_mut(slot as usize)
                {
                    uses.push(ParameterUse {
                        node: Some(*id),
                        field: field.slot,
                        constraint: field.constraint,
                    });
                }
            }
        }
        self.program.shared = parents.iter().map(|&count| count > 1).collect();
        self.program.root = self.op_of.get(&output).copied().unwrap_or(0);
        let own = self.program.own_names.iter();
        self.program.own_shared = own.map(|name| Arc::from(name.as_str())).collect();
        self.program
    }

    /// Reachable nodes from `root`, inputs before the nodes that read them.
    fn post_order(&self, root: NodeId) -> Vec<NodeId> {
        let mut order = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if expanded {
                order.push(id);
                continue;
            }
            if !seen.insert(id) {
                continue;
            }
            stack.push((id, true));
            if self.is_muted(id) {
                continue;
            }
            if let Some(node) = self.graph.nodes.get(&id) {
                for port in node.inputs().iter().rev() {
                    if let Some(source) = port.link.source()
                        && !seen.contains(&source)
                    {
                        stack.push((source, false));
                    }
                }
            }
        }
        order
    }

    /// The number `field`, as a constant or a parameter slot; a parameter's use is recorded
    /// with the field's range, so an override can be checked against it.
    fn resolve(&mut self, node: Option<NodeId>, field: &NumberField<'_>) -> Num {
        match field.number {
            Number::Literal(value) => Num::Const(*value),
            Number::Parameter(name) => {
                let slot = self.parameter_slots.get(name.as_str()).copied();
                // Validation refused undeclared parameters before lowering.
                debug_assert!(slot.is_some(), "undeclared parameter {name}");
                let Some(slot) = slot else {
                    return Num::Const(0.0);
                };
                if let Some(uses) = self.program.parameter_uses.get_mut(slot as usize) {
                    uses.push(ParameterUse {
                        node,
                        field: field.slot,
                        constraint: field.constraint,
                    });
                }
                Num::Param(slot)
            }
        }
    }

    /// A number of the graph's turning section (`TurningSpec::numbers` gives them all `>= 0`).
    fn resolve_turning(&mut self, name: &'static str, number: &Number) -> Num {
        self.resolve(
            None,
            &NumberField {
                slot: Slot::field(name),
                number,
                constraint: Constraint::NonNegative,
                // Not shown: the compiler reads the range alone.
                unit: Unit::Unitless,
            },
        )
    }

    /// The node's number `number` (a reference into the node being lowered, so a field the
    /// node lacks does not build), with the slot and range the node table gives it.
    fn number(&mut self, fields: &Fields<'_>, number: &Number) -> Num {
        let field = fields
            .numbers
            .iter()
            .find(|field| std::ptr::eq(field.number, number));
        // The node table lists every number of the node; a miss is a number that is not the
        // node's (a bug of the lowering).
        debug_assert!(
            field.is_some(),
            "node {} has no number {number:?}",
            fields.id
        );
        field.map_or(Num::Const(0.0), |field| {
            self.resolve(Some(fields.id), field)
        })
    }

    /// The node's numbers `numbers`, resolved in that order.
    fn numbers<const N: usize>(&mut self, fields: &Fields<'_>, numbers: [&Number; N]) -> [Num; N] {
        numbers.map(|number| self.number(fields, number))
    }

    /// The node's field of view `fov` (degrees), prepared once when it is a literal.
    fn fov(&mut self, fields: &Fields<'_>, fov: &Number) -> Fov {
        match self.number(fields, fov) {
            Num::Const(degrees) => Fov::Const(FieldOfView::from_degrees(degrees)),
            Num::Param(slot) => Fov::Param(slot),
        }
    }

    /// Whether node `id` is muted: listed in the graph's `muted` and not the Output (whose
    /// mute is ignored).
    fn is_muted(&self, id: NodeId) -> bool {
        is_muted(self.graph, id)
    }

    /// Whether `link` comes from a node that is not muted, through any Reroutes, none of them
    /// muted either (a combiner skips muted inputs). Constant time: the chains were resolved
    /// once ([`Reroutes`]).
    fn live(&self, link: Link) -> bool {
        let Some(id) = link.source() else {
            return true;
        };
        match self.reroutes.muted_on_the_way(id) {
            Some(muted) => !muted,
            None => !self.is_muted(id),
        }
    }

    /// The op a link reads: its source's, compiled before it (post order).
    fn link(&self, link: Link) -> u32 {
        let op = link.source().and_then(|id| self.op_of.get(&id).copied());
        // Validation refused unconnected and dangling links; post order compiled the source.
        debug_assert!(op.is_some(), "link {link:?} has no op");
        op.unwrap_or(0)
    }

    /// The span of the inputs that are not muted.
    fn live_links(&mut self, inputs: &[Link]) -> Span {
        let live: Vec<Link> = inputs.iter().copied().filter(|l| self.live(*l)).collect();
        self.links(live)
    }

    fn links(&mut self, links: impl IntoIterator<Item = Link>) -> Span {
        let start = self.program.links.len() as u32;
        for link in links {
            let op = self.link(link);
            self.program.links.push(op);
        }
        Span {
            start,
            len: self.program.links.len() as u32 - start,
        }
    }

    /// The index of `name` in `table`, adding it if new. `O(log n)`; the table sizes were
    /// checked against [`MAX_NAMES`] by `validate`, so every index fits in 16 bits.
    fn intern(&mut self, table: Names, name: &str) -> u16 {
        let index = &mut self.interned[table as usize];
        if let Some(&slot) = index.get(name) {
            return slot;
        }
        let names = match table {
            Names::Paths => &mut self.program.path_names,
            Names::Fields => &mut self.program.field_names,
            Names::Targets => &mut self.program.target_names,
            Names::Tags => &mut self.program.tag_names,
            Names::Own => &mut self.program.own_names,
            Names::JumpLinks => &mut self.program.jump_link_names,
        };
        let new = slot(names.len());
        names.push(name.to_owned());
        index.insert(name.to_owned(), new);
        new
    }

    /// The node's heading (`ReachOrientation`'s `orientation`).
    fn heading(&mut self, fields: &Fields<'_>, heading: &Heading) -> HeadingRef {
        match heading {
            Heading::Angle(degrees) => HeadingRef::Angle(self.number(fields, degrees)),
            Heading::Direction(x, y) => {
                let [x, y] = self.numbers(fields, [x, y]);
                HeadingRef::Direction(x, y)
            }
            Heading::Of(target) => HeadingRef::Of(self.target(fields, target)),
        }
    }

    /// The node's velocity (`MatchVelocity`'s `velocity`).
    fn velocity(&mut self, fields: &Fields<'_>, velocity: &VelocitySource) -> VelocityRef {
        match velocity {
            VelocitySource::Fixed(x, y) => {
                let [x, y] = self.numbers(fields, [x, y]);
                VelocityRef::Fixed(x, y)
            }
            VelocitySource::Of(target) => VelocityRef::Of(self.target(fields, target)),
        }
    }

    /// The node's target: a point's coordinates, or a name interned into its table.
    fn target(&mut self, fields: &Fields<'_>, target: &Target) -> TargetRef {
        match target {
            Target::Point(x, y) => {
                let [x, y] = self.numbers(fields, [x, y]);
                TargetRef::Point(x, y)
            }
            Target::Named(name) => TargetRef::Named(self.intern(Names::Targets, name)),
            Target::NearestTagged(tag) => TargetRef::Tagged(self.intern(Names::Tags, tag)),
            Target::Own(name) => TargetRef::Own(self.intern(Names::Own, name)),
        }
    }
}

/// A node's numbers as the node table lists them (with their ranges), for lowering it.
pub(super) struct Fields<'n> {
    id: NodeId,
    numbers: Vec<NumberField<'n>>,
}

impl<'n> Fields<'n> {
    fn of(id: NodeId, node: &'n Node) -> Self {
        Self {
            id,
            numbers: node.numbers(),
        }
    }
}

/// A table index as a 16-bit slot. Tables hold at most [`MAX_NAMES`] entries (checked before
/// building), so this never saturates.
fn slot(index: usize) -> u16 {
    u16::try_from(index).unwrap_or(u16::MAX)
}
