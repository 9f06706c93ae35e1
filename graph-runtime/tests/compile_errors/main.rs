//! Every `CompileError` the compiler and `Program::parameters` report, compared as whole values
//! with the node, port or parameter they name.

use graph_runtime::{
    CompileError, Constraint, Graph, Link, Node, NodeId, Number, Slot, Target, WeightedInput,
    compile,
};

/// A graph with the given nodes and default vehicle and no parameters.
fn graph(nodes: impl IntoIterator<Item = (u32, Node)>) -> Graph {
    Graph {
        nodes: nodes
            .into_iter()
            .map(|(id, node)| (NodeId(id), node))
            .collect(),
        ..Graph::default()
    }
}

fn errors(graph: &Graph) -> Vec<CompileError> {
    compile(graph).expect_err("the graph has errors")
}

fn id(id: u32) -> NodeId {
    NodeId(id)
}

fn seek() -> Node {
    Node::Seek {
        target: Target::Named("cursor".to_owned()),
    }
}

fn output(input: u32) -> Node {
    Node::Output {
        input: Link::to(input),
    }
}

fn scale(input: Link) -> Node {
    Node::Scale {
        input,
        factor: Number::Literal(2.0),
    }
}

/// A Blend of `inputs`, each weighted 1.
fn blend(inputs: &[Link]) -> Node {
    Node::Blend {
        inputs: inputs
            .iter()
            .map(|&node| WeightedInput {
                node,
                weight: Number::Literal(1.0),
            })
            .collect(),
    }
}

fn invalid(
    node: Option<u32>,
    field: Slot,
    value: f32,
    constraint: Constraint,
    parameter: Option<&str>,
) -> CompileError {
    CompileError::InvalidNumber {
        node: node.map(NodeId),
        field,
        value,
        constraint,
        parameter: parameter.map(str::to_owned),
    }
}

mod numbers;
mod overrides;
mod structure;
mod warnings;
