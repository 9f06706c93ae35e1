//! Growing, shrinking and reordering the input lists of combiners and conditions.

use graph_runtime::{ChanceInput, Choice, InputList, Link, Node, Number, WeightedInput};

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

/// Whether the node's inputs form a list the designer can edit (the node table's
/// `Ports` and `Weighted` fields).
pub fn has_input_list(node: &Node) -> bool {
    node.kind().has_input_list()
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

/// Applies `edit` to the node's list of inputs; returns whether the node changed (never
/// for a node without a list).
pub fn apply(node: &mut Node, edit: InputEdit) -> bool {
    let mut changed = false;
    for choice in node.choices_mut() {
        if let Choice::List(list) = choice {
            changed |= match list {
                InputList::Links(links) => edit_list(links, edit, || Link::NONE),
                InputList::Weighted(inputs) => edit_list(inputs, edit, || WeightedInput {
                    node: Link::NONE,
                    weight: Number::Literal(1.0),
                }),
                InputList::Chances(inputs) => edit_list(inputs, edit, || ChanceInput {
                    node: Link::NONE,
                    probability: Number::Literal(1.0),
                }),
            };
        }
    }
    changed
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

    /// The kinds the side panel offers list editing for are exactly those `apply` edits.
    #[test]
    fn every_kind_with_an_input_list_can_be_edited_and_no_other() {
        for &kind in graph_runtime::NodeKind::ALL {
            let mut node = kind.instantiate();
            let listed = has_input_list(&node);
            assert_eq!(apply(&mut node, InputEdit::Add), listed, "{}", kind.name());
        }
    }
}
