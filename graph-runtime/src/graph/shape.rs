//! What each field of a node is, for the generic views of `ports.rs`: a number with its
//! range, a target, a rectangle, an input port or a list of them, weighted or not, a
//! subgraph's parameter values, or something with no number or port (a name, a choice).
//!
//! The node table (`node.rs`) gives every field one of these shapes; the table's macro
//! (`table.rs`) asks each field's shape for its numbers, ports and targets, so the fields of a
//! kind are listed once, not once per view.

use std::collections::BTreeMap;

use super::{
    ChanceInput, Constraint, Heading, Link, Number, PortType, Region, Slot, Target, VelocitySource,
    WeightedInput,
};
use super::{Choice, Comparison, InputList, PathDirection, Unit, WallSide};
use super::{InputPort, NameField, NameKind, NumberField};

/// The names a field's slots take: the field's own, and its parts' (`target.x`,
/// `bounds.min_x`), made by the table's macro with `concat!`.
#[derive(Clone, Copy, Debug)]
pub struct FieldNames {
    /// The field's name as written in RON.
    pub field: &'static str,
    /// `<field>.x`.
    pub x: &'static str,
    /// `<field>.y`.
    pub y: &'static str,
    /// `<field>.min_x`, `.min_y`, `.max_x`, `.max_y`.
    pub corners: [&'static str; 4],
}

/// The generic views of a field of type `T` under this shape. Every method has a default that
/// finds nothing, so a shape implements only what it has.
pub trait Shape<T: ?Sized> {
    /// Appends the field's numbers with their ranges, in display order.
    fn numbers<'a>(&self, _names: &FieldNames, _value: &'a T, _out: &mut Vec<NumberField<'a>>) {}

    /// The field's number at `slot`, if it has one there.
    fn number_mut<'a>(
        &self,
        _names: &FieldNames,
        _value: &'a mut T,
        _slot: Slot,
    ) -> Option<&'a mut Number> {
        None
    }

    /// Appends the field's input ports, in display order.
    fn inputs(&self, _names: &FieldNames, _value: &T, _out: &mut Vec<InputPort>) {}

    /// The field's link at `slot`, if it has one there.
    fn input_mut<'a>(
        &self,
        _names: &FieldNames,
        _value: &'a mut T,
        _slot: Slot,
    ) -> Option<&'a mut Link> {
        None
    }

    /// Appends the field's target, if it is one.
    fn targets<'a>(
        &self,
        _names: &FieldNames,
        _value: &'a T,
        _out: &mut Vec<(&'static str, &'a Target)>,
    ) {
    }

    /// The field's target, if it is the target called `field`.
    fn target_mut<'a>(
        &self,
        _names: &FieldNames,
        _value: &'a mut T,
        _field: &str,
    ) -> Option<&'a mut Target> {
        None
    }

    /// Appends the field's name of something outside the graph, if it is one.
    fn names<'a>(&self, _names: &FieldNames, _value: &'a T, _out: &mut Vec<NameField<'a>>) {}

    /// The field's name, if it is the name field called `field`.
    fn name_mut<'a>(
        &self,
        _names: &FieldNames,
        _value: &'a mut T,
        _field: &str,
    ) -> Option<&'a mut String> {
        None
    }

    /// Appends the field as a choice, when its type is edited as one (`choice.rs`).
    fn choices<'a>(&self, _names: &FieldNames, _value: &'a mut T, _out: &mut Vec<Choice<'a>>) {}

    /// Whether the field is an input port or a list of them.
    fn is_input(&self) -> bool {
        false
    }

    /// Whether the field is a list of inputs the designer grows and shrinks.
    fn is_list(&self) -> bool {
        false
    }

    /// Whether the field is a target (which may be another agent).
    fn is_target(&self) -> bool {
        false
    }
}

/// The name of something outside the graph: a path, a flow field, a jump link, a file.
pub struct Named(pub NameKind);

impl Shape<String> for Named {
    fn names<'a>(&self, names: &FieldNames, value: &'a String, out: &mut Vec<NameField<'a>>) {
        out.push(NameField {
            field: names.field,
            kind: self.0,
            name: value,
        });
    }

    fn name_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut String,
        field: &str,
    ) -> Option<&'a mut String> {
        (names.field == field).then_some(value)
    }
}

/// A number in a range, measuring something (or an optional one: not there, no field).
#[derive(Clone, Copy, Debug)]
pub struct Num(pub Constraint, pub Unit);

impl Shape<Number> for Num {
    fn numbers<'a>(&self, names: &FieldNames, value: &'a Number, out: &mut Vec<NumberField<'a>>) {
        out.push(NumberField {
            slot: Slot::field(names.field),
            number: value,
            constraint: self.0,
            unit: self.1,
        });
    }

    fn number_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Number,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        (slot == Slot::field(names.field)).then_some(value)
    }
}

impl Shape<Option<Number>> for Num {
    fn numbers<'a>(
        &self,
        names: &FieldNames,
        value: &'a Option<Number>,
        out: &mut Vec<NumberField<'a>>,
    ) {
        if let Some(value) = value {
            Shape::<Number>::numbers(self, names, value, out);
        }
    }

    fn number_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Option<Number>,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        Shape::<Number>::number_mut(self, names, value.as_mut()?, slot)
    }

    fn choices<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Option<Number>,
        out: &mut Vec<Choice<'a>>,
    ) {
        out.push(Choice::Optional {
            field: names.field,
            value,
        });
    }
}

/// A target: a point's two coordinates are numbers (`<field>.x`, `<field>.y`).
#[derive(Clone, Copy, Debug)]
pub struct Point;

impl Shape<Target> for Point {
    fn numbers<'a>(&self, names: &FieldNames, value: &'a Target, out: &mut Vec<NumberField<'a>>) {
        if let Target::Point(x, y) = value {
            for (name, number) in [(names.x, x), (names.y, y)] {
                out.push(NumberField {
                    slot: Slot::field(name),
                    number,
                    constraint: Constraint::Finite,
                    unit: Unit::Length,
                });
            }
        }
    }

    fn number_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Target,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        let Target::Point(x, y) = value else {
            return None;
        };
        match slot {
            _ if slot == Slot::field(names.x) => Some(x),
            _ if slot == Slot::field(names.y) => Some(y),
            _ => None,
        }
    }

    fn targets<'a>(
        &self,
        names: &FieldNames,
        value: &'a Target,
        out: &mut Vec<(&'static str, &'a Target)>,
    ) {
        out.push((names.field, value));
    }

    fn target_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Target,
        field: &str,
    ) -> Option<&'a mut Target> {
        (field == names.field).then_some(value)
    }

    fn is_target(&self) -> bool {
        true
    }
}

/// An angle, a vector or a target's: a [`Heading`] (its angle is `<field>`, its vector
/// `<field>.x`, `<field>.y`) or a [`VelocitySource`] (its vector `<field>.x`, `<field>.y`);
/// the target, when there is one, is the field's target.
#[derive(Clone, Copy, Debug)]
pub struct Aim;

impl Shape<Heading> for Aim {
    fn numbers<'a>(&self, names: &FieldNames, value: &'a Heading, out: &mut Vec<NumberField<'a>>) {
        match value {
            Heading::Angle(angle) => out.push(NumberField {
                slot: Slot::field(names.field),
                number: angle,
                constraint: Constraint::Finite,
                unit: Unit::Degrees,
            }),
            Heading::Direction(x, y) => push_vector(names, (x, y), Unit::Unitless, out),
            Heading::Of(target) => Point.numbers(names, target, out),
        }
    }

    fn number_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Heading,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        match value {
            Heading::Angle(angle) => (slot == Slot::field(names.field)).then_some(angle),
            Heading::Direction(x, y) => vector_mut(names, x, y, slot),
            Heading::Of(target) => Point.number_mut(names, target, slot),
        }
    }

    fn targets<'a>(
        &self,
        names: &FieldNames,
        value: &'a Heading,
        out: &mut Vec<(&'static str, &'a Target)>,
    ) {
        if let Heading::Of(target) = value {
            out.push((names.field, target));
        }
    }

    fn target_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Heading,
        field: &str,
    ) -> Option<&'a mut Target> {
        match value {
            Heading::Of(target) if field == names.field => Some(target),
            _ => None,
        }
    }

    fn is_target(&self) -> bool {
        true
    }

    fn choices<'a>(&self, _: &FieldNames, value: &'a mut Heading, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::Heading(value));
    }
}

impl Shape<VelocitySource> for Aim {
    fn numbers<'a>(
        &self,
        names: &FieldNames,
        value: &'a VelocitySource,
        out: &mut Vec<NumberField<'a>>,
    ) {
        match value {
            VelocitySource::Fixed(x, y) => push_vector(names, (x, y), Unit::Speed, out),
            VelocitySource::Of(target) => Point.numbers(names, target, out),
        }
    }

    fn number_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut VelocitySource,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        match value {
            VelocitySource::Fixed(x, y) => vector_mut(names, x, y, slot),
            VelocitySource::Of(target) => Point.number_mut(names, target, slot),
        }
    }

    fn targets<'a>(
        &self,
        names: &FieldNames,
        value: &'a VelocitySource,
        out: &mut Vec<(&'static str, &'a Target)>,
    ) {
        if let VelocitySource::Of(target) = value {
            out.push((names.field, target));
        }
    }

    fn target_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut VelocitySource,
        field: &str,
    ) -> Option<&'a mut Target> {
        match value {
            VelocitySource::Of(target) if field == names.field => Some(target),
            _ => None,
        }
    }

    fn is_target(&self) -> bool {
        true
    }

    fn choices<'a>(
        &self,
        _: &FieldNames,
        value: &'a mut VelocitySource,
        out: &mut Vec<Choice<'a>>,
    ) {
        out.push(Choice::Velocity(value));
    }
}

/// A vector's two components as numbers `<field>.x`, `<field>.y`.
fn push_vector<'a>(
    names: &FieldNames,
    (x, y): (&'a Number, &'a Number),
    unit: Unit,
    out: &mut Vec<NumberField<'a>>,
) {
    for (name, number) in [(names.x, x), (names.y, y)] {
        out.push(NumberField {
            slot: Slot::field(name),
            number,
            constraint: Constraint::Finite,
            unit,
        });
    }
}

fn vector_mut<'a>(
    names: &FieldNames,
    x: &'a mut Number,
    y: &'a mut Number,
    slot: Slot,
) -> Option<&'a mut Number> {
    match slot {
        _ if slot == Slot::field(names.x) => Some(x),
        _ if slot == Slot::field(names.y) => Some(y),
        _ => None,
    }
}

/// A rectangle: the world's, or its own four corners (`<field>.min_x` … `.max_y`).
#[derive(Clone, Copy, Debug)]
pub struct Corners;

impl Shape<Region> for Corners {
    fn numbers<'a>(&self, names: &FieldNames, value: &'a Region, out: &mut Vec<NumberField<'a>>) {
        if let Region::Rect(min_x, min_y, max_x, max_y) = value {
            for (name, number) in names.corners.iter().zip([min_x, min_y, max_x, max_y]) {
                out.push(NumberField {
                    slot: Slot::field(name),
                    number,
                    constraint: Constraint::Finite,
                    unit: Unit::Length,
                });
            }
        }
    }

    fn number_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Region,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        let Region::Rect(min_x, min_y, max_x, max_y) = value else {
            return None;
        };
        names
            .corners
            .iter()
            .zip([min_x, min_y, max_x, max_y])
            .find(|(name, _)| Slot::field(name) == slot)
            .map(|(_, number)| number)
    }

    fn choices<'a>(&self, _: &FieldNames, value: &'a mut Region, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::Region(value));
    }
}

/// One input port accepting `PortType`.
#[derive(Clone, Copy, Debug)]
pub struct Port(pub PortType);

impl Shape<Link> for Port {
    fn inputs(&self, names: &FieldNames, value: &Link, out: &mut Vec<InputPort>) {
        out.push(InputPort {
            slot: Slot::field(names.field),
            accepts: self.0,
            link: *value,
        });
    }

    fn input_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Link,
        slot: Slot,
    ) -> Option<&'a mut Link> {
        (slot == Slot::field(names.field)).then_some(value)
    }

    fn is_input(&self) -> bool {
        true
    }
}

/// A list of input ports accepting `PortType` (`<field> 1`, `<field> 2`, …).
#[derive(Clone, Copy, Debug)]
pub struct Ports(pub PortType);

impl Shape<Vec<Link>> for Ports {
    fn inputs(&self, names: &FieldNames, value: &Vec<Link>, out: &mut Vec<InputPort>) {
        out.extend(value.iter().enumerate().map(|(index, link)| InputPort {
            slot: Slot::item(names.field, index),
            accepts: self.0,
            link: *link,
        }));
    }

    fn input_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Vec<Link>,
        slot: Slot,
    ) -> Option<&'a mut Link> {
        let index = slot.index.filter(|_| slot.name == names.field)?;
        value.get_mut(index)
    }

    fn is_input(&self) -> bool {
        true
    }

    fn choices<'a>(&self, _: &FieldNames, value: &'a mut Vec<Link>, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::List(InputList::Links(value)));
    }

    fn is_list(&self) -> bool {
        true
    }
}

/// A list of steering inputs, each with a number of `Constraint` named `item` (Blend's
/// `weight`, Dither's `probability`).
#[derive(Clone, Copy, Debug)]
pub struct Weighted {
    /// The name of each input's number.
    pub item: &'static str,
    /// Its range.
    pub constraint: Constraint,
}

/// What a weighted list's entries hold: a link and a number.
pub trait WeightedEntry {
    /// The input.
    fn link(&self) -> Link;
    /// The input, for editing.
    fn link_mut(&mut self) -> &mut Link;
    /// The number that goes with it.
    fn number(&self) -> &Number;
    /// The number, for editing.
    fn number_mut(&mut self) -> &mut Number;
    /// A list of such entries, for growing and shrinking.
    fn list(list: &mut Vec<Self>) -> InputList<'_>
    where
        Self: Sized;
}

impl WeightedEntry for WeightedInput {
    fn link(&self) -> Link {
        self.node
    }
    fn link_mut(&mut self) -> &mut Link {
        &mut self.node
    }
    fn number(&self) -> &Number {
        &self.weight
    }
    fn number_mut(&mut self) -> &mut Number {
        &mut self.weight
    }
    fn list(list: &mut Vec<Self>) -> InputList<'_> {
        InputList::Weighted(list)
    }
}

impl WeightedEntry for ChanceInput {
    fn link(&self) -> Link {
        self.node
    }
    fn link_mut(&mut self) -> &mut Link {
        &mut self.node
    }
    fn number(&self) -> &Number {
        &self.probability
    }
    fn number_mut(&mut self) -> &mut Number {
        &mut self.probability
    }
    fn list(list: &mut Vec<Self>) -> InputList<'_> {
        InputList::Chances(list)
    }
}

impl<E: WeightedEntry> Shape<Vec<E>> for Weighted {
    fn numbers<'a>(&self, _names: &FieldNames, value: &'a Vec<E>, out: &mut Vec<NumberField<'a>>) {
        out.extend(value.iter().enumerate().map(|(index, entry)| NumberField {
            slot: Slot::item(self.item, index),
            number: entry.number(),
            constraint: self.constraint,
            unit: Unit::Unitless,
        }));
    }

    fn number_mut<'a>(
        &self,
        _names: &FieldNames,
        value: &'a mut Vec<E>,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        let index = slot.index.filter(|_| slot.name == self.item)?;
        value.get_mut(index).map(WeightedEntry::number_mut)
    }

    fn inputs(&self, names: &FieldNames, value: &Vec<E>, out: &mut Vec<InputPort>) {
        out.extend(value.iter().enumerate().map(|(index, entry)| InputPort {
            slot: Slot::item(names.field, index),
            accepts: PortType::Steering,
            link: entry.link(),
        }));
    }

    fn input_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut Vec<E>,
        slot: Slot,
    ) -> Option<&'a mut Link> {
        let index = slot.index.filter(|_| slot.name == names.field)?;
        value.get_mut(index).map(WeightedEntry::link_mut)
    }

    fn choices<'a>(&self, _names: &FieldNames, value: &'a mut Vec<E>, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::List(E::list(value)));
    }

    fn is_input(&self) -> bool {
        true
    }

    fn is_list(&self) -> bool {
        true
    }
}

/// A subgraph's parameter values, by name (`parameters 1`, … in name order). Any finite
/// value: the subgraph's own fields check the ranges once it is written out.
#[derive(Clone, Copy, Debug)]
pub struct Values;

impl Shape<BTreeMap<String, Number>> for Values {
    fn numbers<'a>(
        &self,
        names: &FieldNames,
        value: &'a BTreeMap<String, Number>,
        out: &mut Vec<NumberField<'a>>,
    ) {
        out.extend(
            value
                .values()
                .enumerate()
                .map(|(index, number)| NumberField {
                    slot: Slot::item(names.field, index),
                    number,
                    constraint: Constraint::Finite,
                    unit: Unit::Unitless,
                }),
        );
    }

    fn number_mut<'a>(
        &self,
        names: &FieldNames,
        value: &'a mut BTreeMap<String, Number>,
        slot: Slot,
    ) -> Option<&'a mut Number> {
        let index = slot.index.filter(|_| slot.name == names.field)?;
        value.values_mut().nth(index)
    }
}

/// A choice among a few values, drawn by its type: a wall's side, a path's direction, a
/// comparison. A type without an impl here does not build in the table.
#[derive(Clone, Copy, Debug)]
pub struct Plain;

impl Shape<WallSide> for Plain {
    fn choices<'a>(&self, _: &FieldNames, value: &'a mut WallSide, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::Side(value));
    }
}

impl Shape<PathDirection> for Plain {
    fn choices<'a>(&self, _: &FieldNames, value: &'a mut PathDirection, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::Direction(value));
    }
}

impl Shape<Comparison> for Plain {
    fn choices<'a>(&self, _: &FieldNames, value: &'a mut Comparison, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::Comparison(value));
    }
}

/// A switch: what it does when on, as the editor words it, and a longer hint (empty: none).
#[derive(Clone, Copy, Debug)]
pub struct Flag(pub &'static str, pub &'static str);

impl Shape<bool> for Flag {
    fn choices<'a>(&self, _: &FieldNames, value: &'a mut bool, out: &mut Vec<Choice<'a>>) {
        out.push(Choice::Flag {
            label: self.0,
            hint: self.1,
            value,
        });
    }
}
