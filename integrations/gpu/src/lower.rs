//! A scene's groups lowered to WGSL: each group's [`Portable`] program becomes one
//! function per op (`g{group}_op{op}`), combiners calling their inputs in order, appended to
//! the tick's shader (`shader/step.wgsl`). Numbers are written as their exact bits.

use std::fmt::Write as _;

use graph_runtime::{GroupRuntime, Portable, PortableOp, PortableTarget, TagMask, World};

use crate::GpuError;

/// Most ops in one group's program on the GPU: each op is a function of the shader, and a
/// shader compiler's time grows with them. (A graph file may hold 100,000 nodes.)
pub const MAX_GPU_OPS: usize = 4_096;

/// The tick's shader with every group's graph, and what its buffers hold.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lowered {
    /// The whole WGSL module.
    pub source: String,
    /// The world's targets the graphs read, each with where its point lies in `world`.
    pub targets: Vec<(String, usize)>,
    /// What the graphs read of the world (`world` in the shader): targets, flow fields,
    /// obstacles, tag members, each where its op's code says.
    pub world: Vec<f32>,
    /// The widest neighborhood radius of any group (0 with none).
    pub widest: f32,
    /// Wander angles an agent keeps (the most of any group).
    pub wander_slots: u32,
    /// Where the world's obstacles lie in `world`, once a graph reads them.
    obstacles: Option<usize>,
    /// Each tag mask read, with where its members' list lies in `world` and its length.
    members: Vec<(graph_runtime::TagMask, usize, usize)>,
}

/// What the groups' graphs are lowered against: the world, the groups, and every agent's tags
/// (for the members of a tag a Pursuit or an Evasion looks among).
#[derive(Clone, Copy)]
pub(crate) struct Source<'a> {
    pub world: &'a World,
    pub groups: &'a [GroupRuntime],
    pub tags: &'a [TagMask],
}

impl<'a> Source<'a> {
    /// What `simulation`'s groups are lowered against: its world, groups and agents' tags.
    pub fn of(simulation: &'a graph_runtime::Simulation) -> Self {
        Self {
            world: simulation.world(),
            groups: simulation.groups(),
            tags: simulation.tags(),
        }
    }
}

/// `x` as WGSL: its exact bits, so no compiler rounds a literal differently.
fn lit(x: f32) -> String {
    format!("bitcast<f32>({:#010x}u)", x.to_bits())
}

fn vec(x: f32, y: f32) -> String {
    format!("vec2f({}, {})", lit(x), lit(y))
}

/// Every group of `source` lowered; a node outside the family refuses the whole scene,
/// naming each such node with its group.
pub(crate) fn lower(source: Source<'_>) -> Result<Lowered, GpuError> {
    let world = source.world;
    let mut out = Lowered::default();
    let mut functions = String::new();
    let mut refused = Vec::new();
    let mut max_passes = 1;
    let mut dispatch = String::from("fn steer_group(g: u32) -> vec2f {\n    switch g {\n");
    for (g, group) in source.groups.iter().enumerate() {
        let portable = match group
            .program
            .portable(&group.params, &group.bindings, world)
        {
            Ok(portable) => portable,
            Err(nodes) => {
                refused.extend(
                    nodes
                        .iter()
                        .map(|n| format!("group \"{}\": {n}", group.name)),
                );
                continue;
            }
        };
        if portable.ops.len() > MAX_GPU_OPS {
            return Err(GpuError::TooLarge {
                group: group.name.clone(),
                ops: portable.ops.len(),
            });
        }
        max_passes = max_passes.max(portable.neighborhoods.len());
        write_group(g, &portable, source, &mut out, &mut functions);
        let _ = writeln!(dispatch, "        case {g}u: {{ return group{g}(); }}");
    }
    if !refused.is_empty() {
        return Err(GpuError::Unsupported(refused));
    }
    dispatch.push_str("        default: { return vec2f(0.0); }\n    }\n}\n");
    out.source = format!(
        "{}\nconst MAX_PASSES: u32 = {max_passes}u;\nconst STATE_STRIDE: u32 = {}u;\n\n{functions}\n{dispatch}",
        include_str!("shader/step.wgsl"),
        4 + out.wander_slots
    );
    Ok(out)
}

/// Group `g`'s functions: its neighbor passes (`group{g}`, which then returns the root's
/// force) and one function per op.
fn write_group(
    g: usize,
    portable: &Portable,
    source: Source<'_>,
    out: &mut Lowered,
    functions: &mut String,
) {
    let _ = writeln!(functions, "fn group{g}() -> vec2f {{");
    for (p, n) in portable.neighborhoods.iter().enumerate() {
        out.widest = out.widest.max(n.radius);
        let _ = writeln!(
            functions,
            "    sums[{p}] = neighbor_sums({}, {}, {}, {}u);",
            lit(n.radius),
            n.min_cosine.is_none(),
            lit(n.min_cosine.unwrap_or(-1.0)),
            n.most
        );
    }
    let _ = writeln!(functions, "    return g{g}_op{}();\n}}\n", portable.root);
    for (i, op) in portable.ops.iter().enumerate() {
        let name = format!("g{g}_op{i}");
        if let PortableOp::Wander {
            slot,
            distance,
            radius,
            jitter,
        } = *op
        {
            // A shared Wander draws once a tick: its value is kept for its other readers.
            out.wander_slots = out.wander_slots.max(slot + 1);
            let _ = writeln!(
                functions,
                "var<private> {name}_done: bool;\nvar<private> {name}_value: vec2f;\n\
                 fn {name}() -> vec2f {{\n    if !{name}_done {{\n        {name}_done = true;\n        \
                 {name}_value = wander(turn_wander({slot}u, {}), {}, {});\n    }}\n    \
                 return {name}_value;\n}}\n",
                lit(jitter),
                lit(distance),
                lit(radius)
            );
            continue;
        }
        let body = op_body(g, op, source, out);
        let _ = writeln!(functions, "fn {name}() -> vec2f {{\n{body}}}\n");
    }
}

/// The statements of one op's function.
fn op_body(g: usize, op: &PortableOp, source: Source<'_>, out: &mut Lowered) -> String {
    let input = |i: u32| format!("g{g}_op{i}()");
    let zero = "    return vec2f(0.0);\n".to_owned();
    let panic_args =
        |panic: &Option<f32>| format!("{}, {}", lit(panic.unwrap_or(0.0)), panic.is_some());
    match op {
        PortableOp::Zero => zero,
        PortableOp::Seek(target) => quarry(target, source, out) + "    return seek(qp);\n",
        PortableOp::Flee(target, panic) => {
            quarry(target, source, out) + &format!("    return flee(qp, {});\n", panic_args(panic))
        }
        PortableOp::Arrival(target, slowing) => {
            quarry(target, source, out) + &format!("    return arrival(qp, {});\n", lit(*slowing))
        }
        PortableOp::Pursuit(target, most) => {
            quarry(target, source, out)
                + &format!("    return seek(predicted(qp, qv, {}));\n", lit(*most))
        }
        PortableOp::Evasion(target, most, panic) => {
            quarry(target, source, out)
                + &format!(
                    "    return flee(predicted(qp, qv, {}), {});\n",
                    lit(*most),
                    panic_args(panic)
                )
        }
        PortableOp::Wander { .. } => zero,
        PortableOp::ObstacleAvoidance(min_length, lookahead) => {
            let obstacles = &source.world.obstacles;
            let at = *out.obstacles.get_or_insert_with(|| {
                let at = out.world.len();
                for o in obstacles {
                    out.world.extend([o.center.x, o.center.y, o.radius]);
                }
                at
            });
            format!(
                "    return obstacle_avoidance({at}u, {}u, {}, {});\n",
                obstacles.len(),
                lit(*min_length),
                lit(*lookahead)
            )
        }
        PortableOp::Separation(pass) => format!("    return sums[{pass}].separation;\n"),
        PortableOp::Cohesion(pass) => format!("    return cohesion(sums[{pass}]);\n"),
        PortableOp::Alignment(pass) => format!("    return alignment(sums[{pass}]);\n"),
        PortableOp::Flocking(pass, [s, c, a]) => format!(
            "    return flocking(sums[{pass}], {}, {}, {});\n",
            lit(*s),
            lit(*c),
            lit(*a)
        ),
        PortableOp::Containment(bounds, prediction, margin) => format!(
            "    return containment({}, {}, {}, {});\n",
            vec(bounds.min.x, bounds.min.y),
            vec(bounds.max.x, bounds.max.y),
            lit(*prediction),
            lit(*margin)
        ),
        PortableOp::FlowField(name, prediction) => {
            let Some(field) = source.world.flow_field(name) else {
                return zero;
            };
            let offset = out.world.len();
            out.world
                .extend(field.vectors.iter().flat_map(|v| [v.x, v.y]));
            format!(
                "    return flow({}, {}, {}u, {}u, {offset}u, {});\n",
                vec(field.origin.x, field.origin.y),
                lit(field.cell_size),
                field.width,
                field.height,
                lit(*prediction)
            )
        }
        PortableOp::Blend(inputs) => {
            let mut body = "    var f = vec2f(0.0);\n".to_owned();
            for &(i, weight) in inputs {
                let _ = writeln!(body, "    f += {} * {};", input(i), lit(weight));
            }
            body + "    return f;\n"
        }
        PortableOp::Priority(inputs, epsilon) => {
            let mut body = String::new();
            for &i in inputs {
                let _ = writeln!(
                    body,
                    "    {{ let f = {}; if length(f) > {} {{ return f; }} }}",
                    input(i),
                    lit(*epsilon)
                );
            }
            body + &zero
        }
        PortableOp::Budget(inputs) => {
            let mut body = "    var f = vec2f(0.0);\n    var left = me.max_force;\n".to_owned();
            for &i in inputs {
                let _ = writeln!(
                    body,
                    "    if left <= 1e-6 {{ return f; }}\n    {{ let x = {}; let l = length(x); \
                     if l <= left {{ f += x; left -= l; }} else {{ return f + x * (left / l); }} }}",
                    input(i)
                );
            }
            body + "    return f;\n"
        }
        PortableOp::Scale(i, factor) => format!("    return {} * {};\n", input(*i), lit(*factor)),
        PortableOp::Truncate(i, max) => {
            format!("    return truncated({}, {});\n", input(*i), lit(*max))
        }
        PortableOp::Output(i) => format!("    return {};\n", input(*i)),
    }
}

/// Statements that put a target's point in `qp` and its velocity in `qv` (zero for a point),
/// returning zero from the op when a tagged target has no other agent.
fn quarry(target: &PortableTarget, source: Source<'_>, out: &mut Lowered) -> String {
    match target {
        PortableTarget::Point(p) => format!(
            "    let qp = {};\n    let qv = vec2f(0.0);\n",
            vec(p.x, p.y)
        ),
        PortableTarget::Named(name) => {
            let at = match out.targets.iter().find(|(t, _)| t == name) {
                Some(&(_, at)) => at,
                None => {
                    let at = out.world.len();
                    let point = source.world.target(name).unwrap_or_default();
                    out.world.extend([point.x, point.y]);
                    out.targets.push((name.clone(), at));
                    at
                }
            };
            format!("    let qp = world2({at}u);\n    let qv = vec2f(0.0);\n")
        }
        PortableTarget::Tagged(mask) => {
            let (at, count) = match out.members.iter().find(|(m, ..)| m == mask) {
                Some(&(_, at, count)) => (at, count),
                None => {
                    let at = out.world.len();
                    let members = source
                        .tags
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| *t & mask != 0);
                    out.world
                        .extend(members.map(|(j, _)| f32::from_bits(j as u32)));
                    let count = out.world.len() - at;
                    out.members.push((*mask, at, count));
                    (at, count)
                }
            };
            format!(
                "    let q = nearest_member({at}u, {count}u);\n    if q == EMPTY {{ return vec2f(0.0); }}\n    \
                 let qp = agents_in[q].position;\n    let qv = agents_in[q].velocity;\n"
            )
        }
    }
}
