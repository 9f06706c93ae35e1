//! A program in a form another backend can run (the GPU crate, `integrations/gpu`): the ops of
//! the flocking family with every number read for one group's parameters and every name found
//! in the world, or the nodes outside that family, each by its kind and id. The formulas stay
//! `behaviors/`'s and `BEHAVIORS.md`'s; a backend writes them again in its own language and is
//! held to this runtime by its parity tests.

use std::fmt;

use glam::Vec2;

use super::Bindings;
use super::program::{
    AimOp, CourseOp, GroupOp, NO_PASS, Op, ParamValues, Program, Span, SurroundingsOp, TargetRef,
};
use crate::World;
use crate::graph::{NodeId, NodeKind};
use crate::world::Rect;

/// One op of a [`Portable`] program. Inputs are indices of earlier ops.
#[derive(Clone, Debug, PartialEq)]
pub enum PortableOp {
    /// A muted node, or one whose name does not resolve in the world: the zero force.
    Zero,
    /// `Seek(target)`.
    Seek(PortableTarget),
    /// `Flee(target)`, with its panic distance.
    Flee(PortableTarget, Option<f32>),
    /// `Arrival(target)` with its slowing distance.
    Arrival(PortableTarget, f32),
    /// `Pursuit(target)` with its longest prediction (of a point: Seek).
    Pursuit(PortableTarget, f32),
    /// `Evasion(target)` with its longest prediction and panic distance.
    Evasion(PortableTarget, f32, Option<f32>),
    /// Wander: its angle's slot in the agent's state
    /// ([`crate::AgentState::wander`]), distance, radius, jitter in radians per second.
    Wander {
        /// The slot of its angle.
        slot: u32,
        /// The circle's distance ahead.
        distance: f32,
        /// The circle's radius.
        radius: f32,
        /// Radians per second (the node's degrees converted as the runtime converts them).
        jitter: f32,
    },
    /// Obstacle avoidance among the world's circle obstacles: shortest detection length,
    /// look-ahead time.
    ObstacleAvoidance(f32, f32),
    /// Separation over neighborhood `pass` of [`Portable::neighborhoods`].
    Separation(u32),
    /// Cohesion over neighborhood `pass`.
    Cohesion(u32),
    /// Alignment over neighborhood `pass`.
    Alignment(u32),
    /// Flocking over neighborhood `pass`, with separation's, cohesion's and alignment's weights.
    Flocking(u32, [f32; 3]),
    /// Containment in `bounds` (the world's already read), prediction time, margin.
    Containment(Rect, f32, f32),
    /// Flow-field following of the world's field of this name, with its prediction time.
    FlowField(String, f32),
    /// `Σ weight * input`, in order.
    Blend(Vec<(u32, f32)>),
    /// The first input longer than epsilon.
    Priority(Vec<u32>, f32),
    /// Prioritized acceleration allocation of `max_force` over the inputs.
    Budget(Vec<u32>),
    /// `factor * input`.
    Scale(u32, f32),
    /// `truncate(input, max)`.
    Truncate(u32, f32),
    /// The force that goes to the vehicle.
    Output(u32),
}

/// A target of Seek, Flee or Arrival.
#[derive(Clone, Debug, PartialEq)]
pub enum PortableTarget {
    /// A fixed point.
    Point(Vec2),
    /// A point the world names (it may move between ticks: read it each tick).
    Named(String),
    /// The nearest other agent carrying a tag (this mask's bit in
    /// [`crate::Simulation::tags`]), the lower index on a tie; none: the node is zero.
    Tagged(crate::TagMask),
}

/// A neighbor pass: the agents strictly within `radius`, in view, at most `most` (the nearest).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortableNeighborhood {
    /// The radius.
    pub radius: f32,
    /// `cos(fov / 2) - 1e-6` ([`crate::behaviors::FieldOfView::min_cosine`]); `None` sees all
    /// around.
    pub min_cosine: Option<f32>,
    /// Most neighbors summed: the nearest, the lower agent index on a tie.
    pub most: u32,
}

/// A program lowered for another backend ([`Program::portable`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Portable {
    /// The ops, inputs first.
    pub ops: Vec<PortableOp>,
    /// The op whose value goes to the vehicle.
    pub root: u32,
    /// The neighbor passes the group ops read.
    pub neighborhoods: Vec<PortableNeighborhood>,
}

/// A node a backend cannot run, by its kind and id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The node's id in the graph (after subgraphs are written out).
    pub node: NodeId,
    /// Its kind.
    pub kind: NodeKind,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (node {})", self.kind, self.node)
    }
}

impl Program {
    /// This program for another backend, its numbers read for `params` and its names found
    /// through `bindings` in `world`; every node outside the flocking family (the kinds of
    /// [`PortableOp`]: `BEHAVIORS.md`, "On the GPU", lists them) is listed instead, in op
    /// order. A Wander that faces, and an aim at an agent's own point, are outside it.
    pub fn portable(
        &self,
        params: &ParamValues,
        bindings: &Bindings,
        world: &World,
    ) -> Result<Portable, Vec<Unsupported>> {
        let lowering = Lowering {
            program: self,
            params,
            bindings,
            world,
        };
        let mut ops = Vec::with_capacity(self.ops.len());
        let mut unsupported = Vec::new();
        for (index, op) in self.ops.iter().enumerate() {
            match lowering.op(op, index) {
                Some(op) => ops.push(op),
                None => unsupported.push(Unsupported {
                    node: self.op_nodes.get(index).copied().unwrap_or(NodeId(0)),
                    kind: op.kind().unwrap_or(NodeKind::Output),
                }),
            }
        }
        if !unsupported.is_empty() {
            return Err(unsupported);
        }
        let neighborhoods = self
            .passes
            .iter()
            .map(|&(radius, fov, most)| PortableNeighborhood {
                radius: radius.get(params),
                min_cosine: fov.get(params).min_cosine(),
                // A whole number from 1 to 4,096 (checked by the compiler and by overrides).
                most: most.get(params) as u32,
            })
            .collect();
        Ok(Portable {
            ops,
            root: self.root,
            neighborhoods,
        })
    }
}

/// What lowering one op reads.
struct Lowering<'a> {
    program: &'a Program,
    params: &'a ParamValues,
    bindings: &'a Bindings,
    world: &'a World,
}

impl Lowering<'_> {
    /// `op` (at `index`) for another backend; `None` outside the family.
    fn op(&self, op: &Op, index: usize) -> Option<PortableOp> {
        let num = |n: super::program::Num| n.get(self.params);
        Some(match *op {
            Op::Muted => PortableOp::Zero,
            Op::Aim(aim) => {
                let (target, make): (_, Box<dyn FnOnce(PortableTarget) -> PortableOp>) = match aim {
                    AimOp::Seek(target) => (target, Box::new(PortableOp::Seek)),
                    AimOp::Flee(target, panic) => (
                        target,
                        Box::new(move |t| PortableOp::Flee(t, panic.map(num))),
                    ),
                    AimOp::Arrival(target, slowing) => (
                        target,
                        Box::new(move |t| PortableOp::Arrival(t, num(slowing))),
                    ),
                    AimOp::Pursuit(target, most) => {
                        (target, Box::new(move |t| PortableOp::Pursuit(t, num(most))))
                    }
                    AimOp::Evasion(target, most, panic) => (
                        target,
                        Box::new(move |t| PortableOp::Evasion(t, num(most), panic.map(num))),
                    ),
                    _ => return None,
                };
                match self.target(target) {
                    Aim::Found(target) => make(target),
                    Aim::Missing => PortableOp::Zero,
                    Aim::Outside => return None,
                }
            }
            Op::Course(CourseOp::Wander {
                distance,
                radius,
                jitter,
                slot,
                face: false,
            }) => PortableOp::Wander {
                slot,
                distance: num(distance),
                radius: num(radius),
                jitter: num(jitter).to_radians(),
            },
            Op::Surroundings(SurroundingsOp::ObstacleAvoidance(min_length, lookahead)) => {
                PortableOp::ObstacleAvoidance(num(min_length), num(lookahead))
            }
            Op::Group(group) => {
                let pass = self.program.pass_of.get(index).copied().unwrap_or(NO_PASS);
                match group {
                    GroupOp::Separation(..) => PortableOp::Separation(pass),
                    GroupOp::Cohesion(..) => PortableOp::Cohesion(pass),
                    GroupOp::Alignment(..) => PortableOp::Alignment(pass),
                    GroupOp::Flocking { weights, .. } => {
                        PortableOp::Flocking(pass, weights.map(num))
                    }
                }
            }
            Op::Surroundings(SurroundingsOp::Containment {
                bounds,
                prediction_time,
                margin,
            }) => {
                let bounds = bounds.map_or(self.world.bounds, |[a, b, c, d]| {
                    Rect::new(Vec2::new(num(a), num(b)), Vec2::new(num(c), num(d)))
                });
                PortableOp::Containment(bounds, num(prediction_time), num(margin))
            }
            Op::Course(CourseOp::FlowFieldFollowing {
                field,
                prediction_time,
            }) => {
                let bound = self.bindings.fields.get(field as usize).copied().flatten();
                match bound.and(self.program.field_names.get(field as usize)) {
                    Some(name) => PortableOp::FlowField(name.clone(), num(prediction_time)),
                    None => PortableOp::Zero,
                }
            }
            Op::Blend(span) => PortableOp::Blend(
                items(&self.program.weighted, span)
                    .iter()
                    .map(|&(input, weight)| (input, num(weight)))
                    .collect(),
            ),
            Op::Priority(span, epsilon) => {
                PortableOp::Priority(items(&self.program.links, span).to_vec(), num(epsilon))
            }
            Op::Budget(span) => PortableOp::Budget(items(&self.program.links, span).to_vec()),
            Op::Scale(input, factor) => PortableOp::Scale(input, num(factor)),
            Op::Truncate(input, max) => PortableOp::Truncate(input, num(max)),
            Op::Output(input) => PortableOp::Output(input),
            _ => return None,
        })
    }

    /// A target of the family, found in the world.
    fn target(&self, target: TargetRef) -> Aim {
        let found = |target: Option<PortableTarget>| target.map_or(Aim::Missing, Aim::Found);
        match target {
            TargetRef::Point(x, y) => Aim::Found(PortableTarget::Point(Vec2::new(
                x.get(self.params),
                y.get(self.params),
            ))),
            TargetRef::Named(name) => {
                let bound = self.bindings.targets.get(name as usize).copied().flatten();
                found(
                    bound
                        .and(self.program.target_names.get(name as usize))
                        .map(|name| PortableTarget::Named(name.clone())),
                )
            }
            TargetRef::Tagged(tag) => found(
                self.bindings
                    .tags
                    .get(tag as usize)
                    .copied()
                    .flatten()
                    .map(PortableTarget::Tagged),
            ),
            TargetRef::Own(_) => Aim::Outside,
        }
    }
}

/// What a target of Seek, Flee, Arrival, Pursuit or Evasion lowers to.
enum Aim {
    Found(PortableTarget),
    /// A name the world lacks, or a tag no agent carries: the node is zero, as in the runtime.
    Missing,
    /// A target kind outside the family (an agent's own point).
    Outside,
}

/// The items of a list table's `span`.
fn items<T>(table: &[T], span: Span) -> &[T] {
    let start = span.start as usize;
    table.get(start..start + span.len as usize).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Graph, TagTable, compile};

    fn program(text: &str) -> Program {
        compile(&Graph::from_ron(text, "test.graph.ron").expect("parses")).expect("compiles")
    }

    /// A Blend of Seek and Separation under a Priority with Containment lowers op for op, its
    /// parameter read.
    #[test]
    fn a_flocking_graph_lowers_with_its_numbers_read() {
        let program = program(
            r#"(format: "steergraph.graph", version: 1, parameters: {"w": 2.5},
            nodes: {1: Seek(target: Point(3.0, 4.0)), 2: Separation(radius: 1.5, fov: 360.0),
            3: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: "w")]),
            4: Containment(bounds: World, prediction_time: 0.5, margin: 2.0),
            5: Priority(inputs: [4, 3], epsilon: 0.001), 6: Output(input: 5)})"#,
        );
        let world = World::new(Rect::new(Vec2::new(-10.0, -5.0), Vec2::new(10.0, 5.0)));
        let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
        let portable = program
            .portable(&program.default_parameters(), &bindings, &world)
            .expect("in the family");
        assert!(
            portable
                .ops
                .contains(&PortableOp::Seek(PortableTarget::Point(Vec2::new(
                    3.0, 4.0
                ))))
        );
        assert!(portable.ops.iter().any(|op| matches!(op,
            PortableOp::Blend(inputs) if inputs.len() == 2 && inputs[1].1 == 2.5)));
        assert!(
            portable
                .ops
                .contains(&PortableOp::Containment(world.bounds, 0.5, 2.0))
        );
        assert_eq!(
            portable.neighborhoods,
            [PortableNeighborhood {
                radius: 1.5,
                min_cosine: None,
                most: 64
            }]
        );
        assert!(matches!(
            portable.ops[portable.root as usize],
            PortableOp::Output(_)
        ));
    }

    /// Nodes outside the family are each named by kind and id; a named target missing from
    /// the world lowers to zero, as the runtime makes it.
    #[test]
    fn nodes_outside_the_family_are_named_by_kind_and_id() {
        let program = program(
            r#"(format: "steergraph.graph", version: 1,
            nodes: {1: WallAvoidance(min_length: 1.0, lookahead_time: 0.4, whisker_angle: 35.0,
            margin: 0.4), 7: UnalignedCollisionAvoidance(max_time: 2.0),
            3: Seek(target: Named("nowhere")),
            4: Priority(inputs: [1, 7, 3], epsilon: 0.001), 5: Output(input: 4)})"#,
        );
        let world = World::new(Rect::new(Vec2::ZERO, Vec2::ONE));
        let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
        let refused = program
            .portable(&program.default_parameters(), &bindings, &world)
            .expect_err("outside the family");
        let words: Vec<String> = refused.iter().map(ToString::to_string).collect();
        assert_eq!(
            words,
            [
                "WallAvoidance (node #1)",
                "UnalignedCollisionAvoidance (node #7)"
            ]
        );
        let zero = refused.len();
        assert_eq!(zero, 2, "the Seek of a missing target is no refusal");
    }

    /// The kinds a backend runs: every other kind is refused by name.
    const FAMILY: [NodeKind; 19] = [
        NodeKind::Seek,
        NodeKind::Flee,
        NodeKind::Arrival,
        NodeKind::Pursuit,
        NodeKind::Evasion,
        NodeKind::Wander,
        NodeKind::ObstacleAvoidance,
        NodeKind::Separation,
        NodeKind::Cohesion,
        NodeKind::Alignment,
        NodeKind::Flocking,
        NodeKind::Containment,
        NodeKind::FlowFieldFollowing,
        NodeKind::Blend,
        NodeKind::Priority,
        NodeKind::Budget,
        NodeKind::Scale,
        NodeKind::Truncate,
        NodeKind::Output,
    ];

    /// Every leaf kind outside the family, reached from the Output (a force directly, a sensor
    /// through a Compare and a Gate, a condition through a Gate), is refused as
    /// `Kind (node #7)`; so are the Gate and the Compare; the family's leaves lower.
    #[test]
    fn every_leaf_kind_outside_the_family_is_refused_by_name() {
        let frame = r#"(format: "steergraph.graph", version: 1, nodes: {
            2: Seek(target: Point(1.0, 0.0)),
            3: Compare(sensor: 7, test: Greater, threshold: 0.0),
            4: Gate(input: 2, condition: 3), 5: Gate(input: 2, condition: 7),
            1: Output(input: 7)})"#;
        let world = World::new(Rect::new(Vec2::new(-10.0, -10.0), Vec2::new(10.0, 10.0)));
        let mut refused_kinds = 0;
        // A Subgraph is written out before lowering: its nodes are what is refused.
        let leaves = NodeKind::ALL
            .iter()
            .filter(|k| !k.takes_inputs() && **k != NodeKind::Subgraph);
        for &kind in leaves {
            let mut graph = Graph::from_ron(frame, "kinds.graph.ron").expect("parses");
            graph.nodes.insert(NodeId(7), kind.instantiate());
            let output = match kind.output() {
                crate::PortType::Steering => NodeId(7),
                crate::PortType::Scalar => NodeId(4),
                crate::PortType::Condition => NodeId(5),
            };
            graph.nodes.insert(
                NodeId(1),
                Graph::from_ron(
                    &format!(
                        r#"(format: "steergraph.graph", version: 1,
                        nodes: {{1: Output(input: {})}})"#,
                        output.0
                    ),
                    "output.graph.ron",
                )
                .expect("parses")
                .nodes[&NodeId(1)]
                    .clone(),
            );
            // Names a new node leaves empty (a path, a field) are filled in.
            let text = graph.to_ron().expect("writes").replace("\"\"", "\"x\"");
            let graph = Graph::from_ron(&text, "kinds.graph.ron").expect("parses");
            let program = compile(&graph).unwrap_or_else(|e| panic!("{kind}: {e:?}"));
            let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
            let result = program.portable(&program.default_parameters(), &bindings, &world);
            if FAMILY.contains(&kind) {
                assert!(result.is_ok(), "{kind}: {result:?}");
                continue;
            }
            let words: Vec<String> = result
                .expect_err("outside the family")
                .iter()
                .map(ToString::to_string)
                .collect();
            assert!(
                words.contains(&format!("{kind} (node #7)")),
                "{kind}: {words:?}"
            );
            if kind.output() != crate::PortType::Steering {
                assert!(
                    words.contains(&"Gate (node #4)".to_owned())
                        || words.contains(&"Gate (node #5)".to_owned()),
                    "{words:?}"
                );
            }
            refused_kinds += 1;
        }
        assert!(refused_kinds >= 10, "{refused_kinds} kinds refused");
    }
}
