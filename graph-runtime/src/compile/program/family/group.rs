//! The group family: behaviors that steer by the agents around, Separation, Cohesion,
//! Alignment and Flocking (the three weighted). Each kind's op, lowering, neighborhood, force
//! and guide side by side; the formulas are `behaviors/`'s. None reads other agents itself:
//! the evaluator takes the sums of a neighbor pass the planner shares between group nodes of
//! the same neighborhood (`NeighborUse::Sums`), once per agent, and a kind's force is
//! worked out from its pass's sums.

use glam::Vec2;

use super::Lowering;
use crate::Vehicle;
use crate::behaviors::NeighborSums;
use crate::compile::guide::Guide;
use crate::compile::program::ParamValues;
use crate::compile::program::operands::{Fov, Num};
use crate::graph::{Node, NodeKind, Number};

/// One node of the group family: each kind's radius, field of view and most neighbors (its
/// neighborhood), and Flocking's weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GroupOp {
    /// Radius, field of view, most neighbors.
    Separation(Num, Fov, Num),
    Cohesion(Num, Fov, Num),
    Alignment(Num, Fov, Num),
    Flocking {
        /// Separation's, cohesion's and alignment's.
        weights: [Num; 3],
        radius: Num,
        fov: Fov,
        max_neighbors: Num,
    },
}

impl GroupOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::Separation {
                radius,
                fov,
                max_neighbors,
            } => {
                let (radius, fov, most) = neighborhood(fields, radius, fov, max_neighbors);
                Self::Separation(radius, fov, most)
            }
            Node::Cohesion {
                radius,
                fov,
                max_neighbors,
            } => {
                let (radius, fov, most) = neighborhood(fields, radius, fov, max_neighbors);
                Self::Cohesion(radius, fov, most)
            }
            Node::Alignment {
                radius,
                fov,
                max_neighbors,
            } => {
                let (radius, fov, most) = neighborhood(fields, radius, fov, max_neighbors);
                Self::Alignment(radius, fov, most)
            }
            Node::Flocking {
                separation_weight,
                cohesion_weight,
                alignment_weight,
                radius,
                fov,
                max_neighbors,
            } => {
                let weights =
                    fields.numbers([separation_weight, cohesion_weight, alignment_weight]);
                let (radius, fov, max_neighbors) = neighborhood(fields, radius, fov, max_neighbors);
                Self::Flocking {
                    weights,
                    radius,
                    fov,
                    max_neighbors,
                }
            }
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    #[inline]
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::Separation(..) => NodeKind::Separation,
            Self::Cohesion(..) => NodeKind::Cohesion,
            Self::Alignment(..) => NodeKind::Alignment,
            Self::Flocking { .. } => NodeKind::Flocking,
        }
    }

    /// The neighborhood whose sums the force reads: radius, field of view, most neighbors.
    pub(crate) fn neighborhood(self) -> (Num, Fov, Num) {
        match self {
            Self::Separation(radius, fov, most)
            | Self::Cohesion(radius, fov, most)
            | Self::Alignment(radius, fov, most)
            | Self::Flocking {
                radius,
                fov,
                max_neighbors: most,
                ..
            } => (radius, fov, most),
        }
    }

    /// The force on `me` from its neighborhood's `sums`, the numbers under `params`.
    #[expect(
        clippy::inline_always,
        reason = "inlined into the batch's loop over agents, the match on the op is hoisted \
                  out of it: 2 % of a flocking tick; `#[inline]` alone left a call per agent \
                  and op"
    )]
    #[inline(always)]
    pub(crate) fn force(self, sums: &NeighborSums, me: &Vehicle, params: &ParamValues) -> Vec2 {
        match self {
            Self::Separation(..) => sums.separation(),
            Self::Cohesion(..) => sums.cohesion(me),
            Self::Alignment(..) => sums.alignment(me),
            Self::Flocking {
                weights: [separation, cohesion, alignment],
                ..
            } => sums.flocking(
                me,
                separation.get(params),
                cohesion.get(params),
                alignment.get(params),
            ),
        }
    }

    /// The neighborhood, for the debug guides: its radius and field of view (degrees).
    pub(crate) fn guide(self, params: &ParamValues) -> Guide {
        let (radius, fov, _) = self.neighborhood();
        Guide::Neighborhood {
            radius: radius.get(params),
            fov: fov.get(params).degrees(),
        }
    }
}

/// A group node's neighborhood, resolved in this order: radius, field of view, most
/// neighbors.
fn neighborhood(
    fields: &mut impl Lowering,
    radius: &Number,
    fov: &Number,
    most: &Number,
) -> (Num, Fov, Num) {
    let radius = fields.number(radius);
    let fov = fields.fov(fov);
    (radius, fov, fields.number(most))
}
