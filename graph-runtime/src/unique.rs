//! Reading RON maps strictly: a key written twice is an error (serde's `BTreeMap` would keep the
//! last one silently), and a map longer than its limit is refused while it is read, so a file
//! is never read as something other than what it says. Errors carry ron's `line:col`.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};

use crate::limits::{MAX_NAMES, MAX_NODES};

/// A map of names (parameters, targets, paths, flow fields, overrides): unique keys, at most
/// [`MAX_NAMES`] entries.
pub(crate) fn names<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Display,
    V: Deserialize<'de>,
{
    deserializer.deserialize_map(UniqueMap {
        limit: MAX_NAMES,
        what: "names",
        marker: PhantomData,
    })
}

/// A map of nodes by id (a graph's nodes, the editor's positions): unique ids, at most
/// [`MAX_NODES`] entries.
pub(crate) fn nodes<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Display,
    V: Deserialize<'de>,
{
    deserializer.deserialize_map(UniqueMap {
        limit: MAX_NODES,
        what: "nodes",
        marker: PhantomData,
    })
}

struct UniqueMap<K, V> {
    limit: usize,
    what: &'static str,
    marker: PhantomData<fn() -> (K, V)>,
}

impl<'de, K, V> Visitor<'de> for UniqueMap<K, V>
where
    K: Deserialize<'de> + Ord + fmt::Display,
    V: Deserialize<'de>,
{
    type Value = BTreeMap<K, V>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a map with unique keys")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut map = BTreeMap::new();
        while let Some(key) = access.next_key::<K>()? {
            if map.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "the key `{key}` appears twice in this map; each key may be written once"
                )));
            }
            if map.len() >= self.limit {
                return Err(de::Error::custom(format_args!(
                    "more than {} {} in this map (the limit)",
                    self.limit, self.what
                )));
            }
            let value = access.next_value::<V>()?;
            map.insert(key, value);
        }
        Ok(map)
    }
}
