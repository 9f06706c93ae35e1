use std::collections::{BTreeMap, BTreeSet};

use super::program::{Fov, Num, Op, ParameterUse, Span, TargetRef};
use super::{CompileError, Program};
use crate::behaviors::FieldOfView;
use crate::graph::{Constraint, Graph, Link, Node, NodeId, Number, Region, Slot, Target};
use crate::limits::{MAX_NAMES, MAX_NODES};

/// Compiles `graph` into a [`Program`], or reports every problem at once.
///
/// Checks: exactly one `Output`; no cycle; every link points at an existing node of the right
/// type; every port connected; every number finite and in range; every parameter declared;
/// every name given. Nodes not reachable from the `Output` are checked but not compiled.
///
/// # Examples
///
/// ```
/// use graph_runtime::{compile, Graph, Link, Node, Target};
///
/// let mut graph = Graph::default();
/// let seek = graph.add(Node::Seek { target: Target::Named("cursor".into()) });
/// graph.add(Node::Output { input: Link(Some(seek)) });
/// let program = compile(&graph).expect("a valid graph");
/// assert_eq!(program.len(), 2);
///
/// graph.add(Node::Output { input: Link::NONE });
/// let errors = compile(&graph).unwrap_err();
/// assert_eq!(errors.len(), 2); // two Outputs, and one of them is unconnected
/// ```
pub fn compile(graph: &Graph) -> Result<Program, Vec<CompileError>> {
    compile_with(graph, "", &BTreeMap::new())
}

/// Compiles `graph`, saved as `key`, inlining its `Subgraph` nodes from `library` (graphs by
/// path, relative to one folder, with `/` between names; see [`super::inline_subgraphs`]).
/// The compiled program is the one of the graph with every subgraph written out.
pub fn compile_with(
    graph: &Graph,
    key: &str,
    library: &BTreeMap<String, Graph>,
) -> Result<Program, Vec<CompileError>> {
    // The graph as written first (a Subgraph node's values checked like any field), then
    // with its subgraphs written out: what fails only then is a value a subgraph's field
    // does not take, told about the Subgraph node that gave it.
    let errors = validate(graph);
    if !errors.is_empty() {
        return Err(errors);
    }
    if !graph
        .nodes
        .values()
        .any(|n| matches!(n, Node::Subgraph { .. }))
    {
        return Ok(Builder::new(graph).build());
    }
    let (flat, origins) = super::subgraph::inline_traced(graph, key, library)?;
    let errors = validate(&flat);
    if !errors.is_empty() {
        let blame = |error| super::subgraph::blame(error, &origins);
        return Err(errors.into_iter().map(blame).collect());
    }
    Ok(Builder::new(&flat).build())
}

/// Checks `graph` as [`compile`] does, without inlining subgraphs (a Subgraph node is taken as
/// a node without inputs or checks of its own).
pub(super) fn check(graph: &Graph) -> Vec<CompileError> {
    validate(graph)
}

/// The sizes a program can address: nodes, parameters and each name table.
fn limits(graph: &Graph) -> Vec<CompileError> {
    let mut errors = Vec::new();
    let mut over = |what: &'static str, count: usize, limit: usize| {
        if count > limit {
            errors.push(CompileError::TooMany { what, count, limit });
        }
    };
    over("nodes", graph.nodes.len(), MAX_NODES);
    over("graph parameters", graph.parameters.len(), MAX_NAMES);
    let mut paths = BTreeSet::new();
    let mut fields = BTreeSet::new();
    let mut targets = BTreeSet::new();
    let mut tags = BTreeSet::new();
    let mut own = BTreeSet::new();
    for node in graph.nodes.values() {
        for (_, target) in node.targets() {
            match target {
                Target::Named(name) => targets.insert(name.as_str()),
                Target::NearestTagged(tag) => tags.insert(tag.as_str()),
                Target::Own(name) => own.insert(name.as_str()),
                Target::Point(..) => false,
            };
        }
        match node {
            Node::PathFollowing {
                path, own: true, ..
            } => own.insert(path.as_str()),
            Node::PathFollowing { path, .. } => paths.insert(path.as_str()),
            Node::FlowFieldFollowing { field, .. } => fields.insert(field.as_str()),
            _ => false,
        };
    }
    over("path names", paths.len(), MAX_NAMES);
    over("flow-field names", fields.len(), MAX_NAMES);
    over("target names", targets.len(), MAX_NAMES);
    over("tag names", tags.len(), MAX_NAMES);
    over("own goal and route names", own.len(), MAX_NAMES);
    errors
}

#[expect(
    clippy::too_many_lines,
    reason = "every check of the compiler in order, one short block each"
)]
fn validate(graph: &Graph) -> Vec<CompileError> {
    let mut errors = limits(graph);
    if !errors.is_empty() {
        // A graph over a limit is refused before the per-node checks, which it could flood.
        return errors;
    }
    for &node in &graph.muted {
        if !graph.nodes.contains_key(&node) {
            errors.push(CompileError::UnknownMuted { node });
        }
    }
    for (name, &value) in &graph.parameters {
        if !value.is_finite() {
            errors.push(CompileError::NonFiniteParameter {
                name: name.clone(),
                value,
            });
        }
    }
    let outputs: Vec<NodeId> = graph
        .nodes
        .iter()
        .filter(|(_, node)| matches!(node, Node::Output { .. }))
        .map(|(id, _)| *id)
        .collect();
    match outputs.len() {
        0 => errors.push(CompileError::NoOutput),
        1 => {}
        _ => errors.push(CompileError::MultipleOutputs { nodes: outputs }),
    }
    errors.extend(
        cycles(graph)
            .into_iter()
            .map(|nodes| CompileError::Cycle { nodes }),
    );

    let vehicle = &graph.vehicle;
    for (name, number, constraint) in [
        ("mass", &vehicle.mass, Constraint::Positive),
        ("max_force", &vehicle.max_force, Constraint::NonNegative),
        ("max_speed", &vehicle.max_speed, Constraint::NonNegative),
        ("radius", &vehicle.radius, Constraint::NonNegative),
    ] {
        check_number(
            graph,
            None,
            Slot::field(name),
            number,
            constraint,
            &mut errors,
        );
    }

    for (&id, node) in &graph.nodes {
        for port in node.inputs() {
            let Some(source) = port.link.source() else {
                errors.push(CompileError::UnconnectedInput {
                    node: id,
                    port: port.slot,
                });
                continue;
            };
            match (graph.nodes.get(&source), graph.output_type(source)) {
                (None, _) => errors.push(CompileError::DanglingLink {
                    node: id,
                    port: port.slot,
                    missing: source,
                }),
                // A Reroute takes any type; its readers check what comes through it.
                _ if matches!(node, Node::Reroute { .. }) => {}
                (Some(_), Some(found)) if found != port.accepts => {
                    errors.push(CompileError::WrongPortType {
                        node: id,
                        port: port.slot,
                        expected: port.accepts,
                        found,
                        source,
                    });
                }
                // Fed through a Reroute chain that is itself unconnected (reported there) or
                // loops (reported as a cycle).
                _ => {}
            }
        }
        for field in node.numbers() {
            check_number(
                graph,
                Some(id),
                field.slot,
                field.number,
                field.constraint,
                &mut errors,
            );
        }
        for (field, target) in node.targets() {
            if let Target::Named(name) | Target::NearestTagged(name) | Target::Own(name) = target
                && name.trim().is_empty()
            {
                errors.push(CompileError::MissingName { node: id, field });
            }
        }
        match node {
            Node::PathFollowing { path, .. } if path.trim().is_empty() => {
                errors.push(CompileError::MissingName {
                    node: id,
                    field: "path",
                });
            }
            Node::FlowFieldFollowing { field, .. } if field.trim().is_empty() => {
                errors.push(CompileError::MissingName {
                    node: id,
                    field: "field",
                });
            }
            _ => {}
        }
    }
    errors
}

fn check_number(
    graph: &Graph,
    node: Option<NodeId>,
    field: Slot,
    number: &Number,
    constraint: Constraint,
    errors: &mut Vec<CompileError>,
) {
    let (value, parameter) = match number {
        Number::Literal(value) => (*value, None),
        Number::Parameter(name) => match graph.parameters.get(name) {
            Some(value) => (*value, Some(name.clone())),
            None => {
                errors.push(CompileError::UnknownParameter {
                    node,
                    field,
                    name: name.clone(),
                });
                return;
            }
        },
    };
    // A non-finite default is reported once, on the parameter itself.
    if parameter.is_some() && !value.is_finite() {
        return;
    }
    if !constraint.accepts(value) {
        errors.push(CompileError::InvalidNumber {
            node,
            field,
            value,
            constraint,
            parameter,
        });
    }
}

/// Every cycle (strongly connected component with a loop), each as its sorted node ids.
/// Iterative Tarjan, so a huge graph cannot overflow the stack.
fn cycles(graph: &Graph) -> Vec<Vec<NodeId>> {
    let ids: Vec<NodeId> = graph.nodes.keys().copied().collect();
    let dense: BTreeMap<NodeId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let edges: Vec<Vec<usize>> = graph
        .nodes
        .values()
        .map(|node| {
            node.inputs()
                .iter()
                .filter_map(|port| port.link.source().and_then(|s| dense.get(&s).copied()))
                .collect()
        })
        .collect();
    let count = ids.len();
    let mut index: Vec<Option<usize>> = vec![None; count];
    let mut low = vec![0usize; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut found = Vec::new();

    for start in 0..count {
        if index.get(start).copied().flatten().is_some() {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = Some(next_index);
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
            if let Some(&w) = edges[v].get(*edge) {
                *edge += 1;
                match index[w] {
                    None => {
                        index[w] = Some(next_index);
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        calls.push((w, 0));
                    }
                    Some(w_index) if on_stack[w] => low[v] = low[v].min(w_index),
                    Some(_) => {}
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if Some(low[v]) == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(ids[w]);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 || edges[v].contains(&v) {
                    component.sort_unstable();
                    found.push(component);
                }
            }
        }
    }
    found.sort();
    found
}

struct Builder<'g> {
    graph: &'g Graph,
    op_of: BTreeMap<NodeId, u32>,
    parameter_slots: BTreeMap<&'g str, u16>,
    /// Each name table's index by name: paths, flow fields, targets, tags.
    interned: [BTreeMap<String, u16>; 5],
    program: Program,
}

/// The name tables of a program, as indices into `Builder::interned`.
#[derive(Clone, Copy)]
enum Table {
    Paths = 0,
    Fields = 1,
    Targets = 2,
    Tags = 3,
    Own = 4,
}

impl<'g> Builder<'g> {
    fn new(graph: &'g Graph) -> Self {
        let parameter_slots = graph
            .parameters
            .keys()
            .enumerate()
            .map(|(i, name)| (name.as_str(), slot(i)))
            .collect();
        Self {
            graph,
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
                path_names: Vec::new(),
                field_names: Vec::new(),
                target_names: Vec::new(),
                tag_names: Vec::new(),
                own_names: Vec::new(),
                wander_slots: 0,
                neighbor_ops: Vec::new(),
                pass_of: Vec::new(),
                passes: Vec::new(),
                batch_plan: None,
                reads_agents: false,
            },
        }
    }

    fn build(mut self) -> Program {
        let vehicle = &self.graph.vehicle;
        self.program.vehicle = [
            self.num(None, "mass", &vehicle.mass, Constraint::Positive),
            self.num(
                None,
                "max_force",
                &vehicle.max_force,
                Constraint::NonNegative,
            ),
            self.num(
                None,
                "max_speed",
                &vehicle.max_speed,
                Constraint::NonNegative,
            ),
            self.num(None, "radius", &vehicle.radius, Constraint::NonNegative),
        ];
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
            let index = self.program.ops.len() as u32;
            self.op_of.insert(id, index);
            self.program.ops.push(op);
            self.program.op_nodes.push(id);
            if is_group_op(&op) {
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
        self.program.plan_neighbor_passes();
        self.program.plan_batch();
        self.program.plan_agent_reads();
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

    fn num(
        &mut self,
        node: Option<NodeId>,
        field: &'static str,
        number: &Number,
        constraint: Constraint,
    ) -> Num {
        self.num_at(node, Slot::field(field), number, constraint)
    }

    fn num_at(
        &mut self,
        node: Option<NodeId>,
        field: Slot,
        number: &Number,
        constraint: Constraint,
    ) -> Num {
        match number {
            Number::Literal(value) => Num::Const(*value),
            Number::Parameter(name) => {
                let Some(&slot) = self.parameter_slots.get(name.as_str()) else {
                    return Num::Const(0.0);
                };
                if let Some(uses) = self.program.parameter_uses.get_mut(slot as usize) {
                    uses.push(ParameterUse {
                        node,
                        field,
                        constraint,
                    });
                }
                Num::Param(slot)
            }
        }
    }

    fn fov(&mut self, node: Option<NodeId>, number: &Number) -> Fov {
        match self.num(node, "fov", number, Constraint::Angle) {
            Num::Const(degrees) => Fov::Const(FieldOfView::from_degrees(degrees)),
            Num::Param(slot) => Fov::Param(slot),
        }
    }

    /// Whether node `id` is muted: listed in the graph's `muted` and not the Output (whose
    /// mute is ignored).
    fn is_muted(&self, id: NodeId) -> bool {
        self.graph.muted.contains(&id)
            && !matches!(self.graph.nodes.get(&id), Some(Node::Output { .. }))
    }

    /// Whether `link` comes from a node that is not muted, through any Reroutes, none of them
    /// muted either (a combiner skips muted inputs).
    fn live(&self, link: Link) -> bool {
        let mut at = link.source();
        for _ in 0..=self.graph.nodes.len() {
            let Some(id) = at else {
                return true;
            };
            if self.is_muted(id) {
                return false;
            }
            match self.graph.nodes.get(&id) {
                Some(Node::Reroute { input }) => at = input.source(),
                _ => return true,
            }
        }
        true
    }

    fn link(&self, link: Link) -> u32 {
        link.source()
            .and_then(|id| self.op_of.get(&id).copied())
            .unwrap_or(0)
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
    fn intern(&mut self, table: Table, name: &str) -> u16 {
        let index = &mut self.interned[table as usize];
        if let Some(&slot) = index.get(name) {
            return slot;
        }
        let names = match table {
            Table::Paths => &mut self.program.path_names,
            Table::Fields => &mut self.program.field_names,
            Table::Targets => &mut self.program.target_names,
            Table::Tags => &mut self.program.tag_names,
            Table::Own => &mut self.program.own_names,
        };
        let new = slot(names.len());
        names.push(name.to_owned());
        index.insert(name.to_owned(), new);
        new
    }

    fn target(
        &mut self,
        id: NodeId,
        x: &'static str,
        y: &'static str,
        target: &Target,
    ) -> TargetRef {
        match target {
            Target::Point(px, py) => TargetRef::Point(
                self.num(Some(id), x, px, Constraint::Finite),
                self.num(Some(id), y, py, Constraint::Finite),
            ),
            Target::Named(name) => TargetRef::Named(self.intern(Table::Targets, name)),
            Target::NearestTagged(tag) => TargetRef::Tagged(self.intern(Table::Tags, tag)),
            Target::Own(name) => TargetRef::Own(self.intern(Table::Own, name)),
        }
    }

    #[expect(clippy::too_many_lines, reason = "one arm per node kind")]
    fn op(&mut self, id: NodeId, node: &Node) -> Op {
        use Constraint::{Finite, NonNegative, Probability};
        let some = Some(id);
        match node {
            Node::Seek { target } => Op::Seek(self.target(id, "target.x", "target.y", target)),
            Node::Flee {
                target,
                panic_distance,
            } => {
                let target = self.target(id, "target.x", "target.y", target);
                let panic = panic_distance
                    .as_ref()
                    .map(|d| self.num(some, "panic_distance", d, NonNegative));
                Op::Flee(target, panic)
            }
            Node::Arrival {
                target,
                slowing_distance,
            } => Op::Arrival(
                self.target(id, "target.x", "target.y", target),
                self.num(some, "slowing_distance", slowing_distance, NonNegative),
            ),
            Node::Pursuit {
                quarry,
                max_prediction,
            } => Op::Pursuit(
                self.target(id, "quarry.x", "quarry.y", quarry),
                self.num(some, "max_prediction", max_prediction, NonNegative),
            ),
            Node::Evasion {
                quarry,
                max_prediction,
                panic_distance,
            } => {
                let quarry = self.target(id, "quarry.x", "quarry.y", quarry);
                let prediction = self.num(some, "max_prediction", max_prediction, NonNegative);
                let panic = panic_distance
                    .as_ref()
                    .map(|d| self.num(some, "panic_distance", d, NonNegative));
                Op::Evasion(quarry, prediction, panic)
            }
            Node::OffsetPursuit {
                quarry,
                offset,
                max_prediction,
            } => Op::OffsetPursuit(
                self.target(id, "quarry.x", "quarry.y", quarry),
                self.num(some, "offset", offset, NonNegative),
                self.num(some, "max_prediction", max_prediction, NonNegative),
            ),
            Node::ObstacleAvoidance {
                min_length,
                lookahead_time,
            } => Op::ObstacleAvoidance(
                self.num(some, "min_length", min_length, NonNegative),
                self.num(some, "lookahead_time", lookahead_time, NonNegative),
            ),
            Node::WallAvoidance {
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => Op::WallAvoidance {
                min_length: self.num(some, "min_length", min_length, NonNegative),
                lookahead_time: self.num(some, "lookahead_time", lookahead_time, NonNegative),
                whisker_angle: self.num(some, "whisker_angle", whisker_angle, Constraint::Angle),
                margin: self.num(some, "margin", margin, NonNegative),
            },
            Node::WallFollowing {
                side,
                offset,
                lookahead_time,
                range,
            } => Op::WallFollowing {
                side: side.sign(),
                offset: self.num(some, "offset", offset, NonNegative),
                lookahead_time: self.num(some, "lookahead_time", lookahead_time, NonNegative),
                range: self.num(some, "range", range, NonNegative),
            },
            Node::Wander {
                distance,
                radius,
                jitter,
            } => {
                let slot = self.program.wander_slots;
                self.program.wander_slots += 1;
                Op::Wander {
                    distance: self.num(some, "distance", distance, NonNegative),
                    radius: self.num(some, "radius", radius, NonNegative),
                    jitter: self.num(some, "jitter", jitter, NonNegative),
                    slot,
                }
            }
            Node::PathFollowing {
                path,
                prediction_time,
                ahead_distance,
                direction,
                corrective,
                own,
            } => Op::PathFollowing {
                path: self.intern(if *own { Table::Own } else { Table::Paths }, path),
                own: *own,
                prediction_time: self.num(some, "prediction_time", prediction_time, NonNegative),
                ahead_distance: self.num(some, "ahead_distance", ahead_distance, NonNegative),
                direction: direction.sign(),
                corrective: *corrective,
            },
            Node::Containment {
                bounds,
                prediction_time,
                margin,
            } => Op::Containment {
                bounds: match bounds {
                    Region::World => None,
                    Region::Rect(min_x, min_y, max_x, max_y) => Some([
                        self.num(some, "bounds.min_x", min_x, Finite),
                        self.num(some, "bounds.min_y", min_y, Finite),
                        self.num(some, "bounds.max_x", max_x, Finite),
                        self.num(some, "bounds.max_y", max_y, Finite),
                    ]),
                },
                prediction_time: self.num(some, "prediction_time", prediction_time, NonNegative),
                margin: self.num(some, "margin", margin, NonNegative),
            },
            Node::FlowFieldFollowing {
                field,
                prediction_time,
            } => Op::FlowFieldFollowing {
                field: self.intern(Table::Fields, field),
                prediction_time: self.num(some, "prediction_time", prediction_time, NonNegative),
            },
            Node::UnalignedCollisionAvoidance { max_time } => {
                Op::UnalignedCollisionAvoidance(self.num(some, "max_time", max_time, NonNegative))
            }
            Node::Reciprocal {
                input,
                time_horizon,
                obstacle_time_horizon,
                neighbor_radius,
                max_neighbors,
                clearance,
                keep_right,
            } => Op::Reciprocal {
                input: self.link(*input),
                time_horizon: self.num(some, "time_horizon", time_horizon, NonNegative),
                obstacle_time_horizon: self.num(
                    some,
                    "obstacle_time_horizon",
                    obstacle_time_horizon,
                    NonNegative,
                ),
                neighbor_radius: self.num(some, "neighbor_radius", neighbor_radius, NonNegative),
                max_neighbors: self.num(
                    some,
                    "max_neighbors",
                    max_neighbors,
                    crate::graph::RECIPROCAL_NEIGHBORS,
                ),
                clearance: self.num(some, "clearance", clearance, NonNegative),
                keep_right: self.num(some, "keep_right", keep_right, Constraint::RightAngle),
            },
            Node::Separation { radius, fov } => Op::Separation(
                self.num(some, "radius", radius, NonNegative),
                self.fov(some, fov),
            ),
            Node::Cohesion { radius, fov } => Op::Cohesion(
                self.num(some, "radius", radius, NonNegative),
                self.fov(some, fov),
            ),
            Node::Alignment { radius, fov } => Op::Alignment(
                self.num(some, "radius", radius, NonNegative),
                self.fov(some, fov),
            ),
            Node::NeighborCount { radius, fov } => Op::NeighborCount(
                self.num(some, "radius", radius, NonNegative),
                self.fov(some, fov),
            ),
            Node::Flocking {
                separation_weight,
                cohesion_weight,
                alignment_weight,
                radius,
                fov,
            } => Op::Flocking {
                weights: [
                    self.num(some, "separation_weight", separation_weight, Finite),
                    self.num(some, "cohesion_weight", cohesion_weight, Finite),
                    self.num(some, "alignment_weight", alignment_weight, Finite),
                ],
                radius: self.num(some, "radius", radius, NonNegative),
                fov: self.fov(some, fov),
            },
            Node::LeaderFollowing {
                leader,
                behind,
                slowing_distance,
                sight_length,
                sight_width,
            } => Op::LeaderFollowing {
                leader: self.target(id, "leader.x", "leader.y", leader),
                behind: self.num(some, "behind", behind, NonNegative),
                slowing_distance: self.num(some, "slowing_distance", slowing_distance, NonNegative),
                sight_length: self.num(some, "sight_length", sight_length, NonNegative),
                sight_width: self.num(some, "sight_width", sight_width, NonNegative),
            },
            Node::Interpose {
                a,
                b,
                slowing_distance,
            } => Op::Interpose(
                self.target(id, "a.x", "a.y", a),
                self.target(id, "b.x", "b.y", b),
                self.num(some, "slowing_distance", slowing_distance, NonNegative),
            ),
            Node::Hide {
                hunter,
                margin,
                slowing_distance,
            } => Op::Hide(
                self.target(id, "hunter.x", "hunter.y", hunter),
                self.num(some, "margin", margin, NonNegative),
                self.num(some, "slowing_distance", slowing_distance, NonNegative),
            ),
            Node::Blend { inputs } => {
                let start = self.program.weighted.len() as u32;
                for (index, input) in inputs.iter().enumerate() {
                    if !self.live(input.node) {
                        continue;
                    }
                    let op = self.link(input.node);
                    let weight =
                        self.num_at(some, Slot::item("weight", index), &input.weight, Finite);
                    self.program.weighted.push((op, weight));
                }
                Op::Blend(Span {
                    start,
                    len: self.program.weighted.len() as u32 - start,
                })
            }
            Node::Dither { inputs, epsilon } => {
                let start = self.program.weighted.len() as u32;
                for (index, input) in inputs.iter().enumerate() {
                    if !self.live(input.node) {
                        continue;
                    }
                    let op = self.link(input.node);
                    let chance = self.num_at(
                        some,
                        Slot::item("probability", index),
                        &input.probability,
                        Probability,
                    );
                    self.program.weighted.push((op, chance));
                }
                let epsilon = self.num(some, "epsilon", epsilon, NonNegative);
                Op::Dither(
                    Span {
                        start,
                        len: self.program.weighted.len() as u32 - start,
                    },
                    epsilon,
                )
            }
            Node::Priority { inputs, epsilon } => {
                let span = self.live_links(inputs);
                Op::Priority(span, self.num(some, "epsilon", epsilon, NonNegative))
            }
            Node::Budget { inputs } => Op::Budget(self.live_links(inputs)),
            Node::All { inputs } => Op::All(self.live_links(inputs)),
            Node::Any { inputs } => Op::Any(self.live_links(inputs)),
            Node::Gate { input, condition } => Op::Gate(self.link(*input), self.link(*condition)),
            Node::Scale { input, factor } => {
                Op::Scale(self.link(*input), self.num(some, "factor", factor, Finite))
            }
            Node::Truncate { input, max } => {
                Op::Truncate(self.link(*input), self.num(some, "max", max, NonNegative))
            }
            Node::Distance { target } => {
                Op::Distance(self.target(id, "target.x", "target.y", target))
            }
            Node::Speed => Op::Speed,
            Node::WallDistance => Op::WallDistance,
            Node::Value { value } => Op::Value(self.num(some, "value", value, Finite)),
            Node::Compare {
                sensor,
                test,
                threshold,
            } => Op::Compare(
                self.link(*sensor),
                *test,
                self.num(some, "threshold", threshold, Finite),
            ),
            Node::Not { input } => Op::Not(self.link(*input)),
            Node::WallAhead { distance } => {
                Op::WallAhead(self.num(some, "distance", distance, NonNegative))
            }
            Node::Output { input } => Op::Output(self.link(*input)),
            // `build` links through a Reroute and makes no op for it (or `Muted` when muted);
            // `compile` inlines every Subgraph before building.
            Node::Reroute { .. } | Node::Subgraph { .. } => Op::Muted,
        }
    }
}

/// A table index as a 16-bit slot. Tables hold at most [`MAX_NAMES`] entries (checked before
/// building), so this never saturates.
fn slot(index: usize) -> u16 {
    u16::try_from(index).unwrap_or(u16::MAX)
}

fn is_group_op(op: &Op) -> bool {
    matches!(
        op,
        Op::Separation(..)
            | Op::Cohesion(..)
            | Op::Alignment(..)
            | Op::Flocking { .. }
            | Op::NeighborCount(..)
            | Op::UnalignedCollisionAvoidance(..)
            | Op::Reciprocal { .. }
    )
}
