//! The fields of a node that are neither numbers, ports nor names, by their type: a switch, a
//! number that may be left out, a side, a direction, a comparison, a heading, a velocity, a
//! rectangle, a list of inputs. The node table gives each such field a shape (`shape.rs`)
//! that lists it here, so an editor draws a widget per type, not per kind.

use super::{
    ChanceInput, Comparison, Heading, Link, Number, PathDirection, Region, VelocitySource,
    WallSide, WeightedInput,
};

/// One field of a node, for editing, as its type says it is edited.
#[derive(Debug)]
pub enum Choice<'a> {
    /// A switch, with what it means and a longer hint (empty: none).
    Flag {
        /// What the switch does when on, as the editor words it.
        label: &'static str,
        /// A longer explanation (empty: none).
        hint: &'static str,
        /// The value.
        value: &'a mut bool,
    },
    /// A number that may be left out (`None`: the field is not written).
    Optional {
        /// The field's name (`panic_distance`).
        field: &'static str,
        /// The value.
        value: &'a mut Option<Number>,
    },
    /// Which side a wall is kept on.
    Side(&'a mut WallSide),
    /// Which way a path is travelled.
    Direction(&'a mut PathDirection),
    /// How a sensor is compared with a threshold.
    Comparison(&'a mut Comparison),
    /// Where a facing turns to.
    Heading(&'a mut Heading),
    /// Which velocity is matched.
    Velocity(&'a mut VelocitySource),
    /// The world's rectangle or the node's own.
    Region(&'a mut Region),
    /// A list of inputs the designer grows, shrinks and reorders.
    List(InputList<'a>),
}

/// A node's list of inputs, by what each entry holds besides its link.
#[derive(Debug)]
pub enum InputList<'a> {
    /// Links alone (Priority, Budget, All, Any).
    Links(&'a mut Vec<Link>),
    /// Links with a weight (Blend).
    Weighted(&'a mut Vec<WeightedInput>),
    /// Links with a probability (Dither).
    Chances(&'a mut Vec<ChanceInput>),
}
