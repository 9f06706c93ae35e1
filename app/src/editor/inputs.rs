//! Growing, shrinking and reordering the input lists of combiners and conditions.

use graph_runtime::{ChanceInput, Link, Node, Number, WeightedInput};

/// A change to a node's input list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputEdit {
    /// Append an unconnected input.
    Add,
    /// Remove the input at this position.
    Remove(usize),
    /// Swap the input at this position with the one before it (raise its priority).
    MoveUp(usize),
}

/// Whether the node's inputs form a list the designer can edit.
pub fn has_input_list(node: &Node) -> bool {
    matches!(
        node,
        Node::Blend { .. }
            | Node::Dither { .. }
            | Node::Priority { .. }
            | Node::Budget { .. }
            | Node::All { .. }
            | Node::Any { .. }
    )
}

fn edit_list<T>(list: &mut Vec<T>, edit: InputEdit, new: impl FnOnce() -> T) -> bool {
    match edit {
        InputEdit::Add => {
            list.push(new());
            true
        }
        InputEdit::Remove(index) if index < list.len() => {
            list.remove(index);
            true
        }
        InputEdit::MoveUp(index) if index > 0 && index < list.len() => {
            list.swap(index - 1, index);
            true
        }
        _ => false,
    }
}

/// Applies `edit`; returns whether the node changed.
pub fn apply(node: &mut Node, edit: InputEdit) -> bool {
    match node {
        Node::Blend { inputs } => edit_list(inputs, edit, || WeightedInput {
            node: Link::NONE,
            weight: Number::Literal(1.0),
        }),
        Node::Dither { inputs, .. } => edit_list(inputs, edit, || ChanceInput {
            node: Link::NONE,
            probability: Number::Literal(1.0),
        }),
        Node::Priority { inputs, .. }
        | Node::Budget { inputs }
        | Node::All { inputs }
        | Node::Any { inputs } => edit_list(inputs, edit, || Link::NONE),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_added_removed_and_reordered() {
        let mut node = Node::Priority {
            inputs: vec![Link::to(1), Link::to(2)],
            epsilon: 1e-3.into(),
        };
        assert!(apply(&mut node, InputEdit::Add));
        assert!(apply(&mut node, InputEdit::MoveUp(1)));
        assert!(apply(&mut node, InputEdit::Remove(2)));
        assert!(!apply(&mut node, InputEdit::MoveUp(0)));
        assert_eq!(
            node,
            Node::Priority {
                inputs: vec![Link::to(2), Link::to(1)],
                epsilon: 1e-3.into()
            }
        );
    }
}
