//! A node's number: a literal, or the name of a graph parameter (written as a string in RON).

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A numeric node parameter: a literal, or the name of a graph parameter.
///
/// In RON a literal is written as a number (`2.5`) and a parameter reference as the
/// parameter's name in quotes (`"flock_radius"`), so any number in a graph can be turned into
/// a tunable parameter by replacing it with a name.
#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    /// A fixed value.
    Literal(f32),
    /// The value of the named graph parameter (its default, or a group's override).
    Parameter(String),
}

impl Number {
    /// The literal value, if this is one.
    pub fn literal(&self) -> Option<f32> {
        match self {
            Self::Literal(value) => Some(*value),
            Self::Parameter(_) => None,
        }
    }
}

impl From<f32> for Number {
    fn from(value: f32) -> Self {
        Self::Literal(value)
    }
}

impl From<&str> for Number {
    fn from(name: &str) -> Self {
        Self::Parameter(name.to_owned())
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Literal(value) => write!(f, "{value}"),
            Self::Parameter(name) => write!(f, "\"{name}\""),
        }
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Literal(value) => serializer.serialize_f32(*value),
            Self::Parameter(name) => serializer.serialize_str(name),
        }
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NumberVisitor)
    }
}

struct NumberVisitor;

impl Visitor<'_> for NumberVisitor {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number or the name of a graph parameter in quotes")
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Number, E> {
        Ok(Number::Literal(value as f32))
    }

    fn visit_f32<E: de::Error>(self, value: f32) -> Result<Number, E> {
        Ok(Number::Literal(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Number, E> {
        Ok(Number::Literal(value as f32))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Number, E> {
        Ok(Number::Literal(value as f32))
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Number, E> {
        if name.trim().is_empty() {
            return Err(E::custom("a graph parameter name cannot be empty"));
        }
        Ok(Number::Parameter(name.to_owned()))
    }
}
