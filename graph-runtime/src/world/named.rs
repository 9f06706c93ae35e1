//! A list of values by name, looked up once by the compiler's bindings and then by index.

use std::collections::BTreeMap;

/// Entries with unique names, kept in insertion order and found by name in `O(log n)`, so a
/// world with many paths or targets is built and bound in `O(n log n)`, not `O(n²)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Named<T> {
    entries: Vec<(String, T)>,
    index: BTreeMap<String, usize>,
}

impl<T> Default for Named<T> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            index: BTreeMap::new(),
        }
    }
}

impl<T> Named<T> {
    /// The index of the entry called `name`.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Adds the entry `name` or replaces its value; returns its index.
    pub(crate) fn upsert(&mut self, name: &str, value: T) -> usize {
        if let Some(index) = self.position(name)
            && let Some(entry) = self.entries.get_mut(index)
        {
            entry.1 = value;
            return index;
        }
        self.entries.push((name.to_owned(), value));
        let index = self.entries.len() - 1;
        self.index.insert(name.to_owned(), index);
        index
    }

    /// The entry at `index`.
    pub(crate) fn at(&self, index: usize) -> Option<&T> {
        self.entries.get(index).map(|(_, value)| value)
    }

    /// The name of the entry at `index`.
    pub(crate) fn name_at(&self, index: usize) -> Option<&str> {
        self.entries.get(index).map(|(name, _)| name.as_str())
    }

    /// The entry at `index`, mutable.
    pub(crate) fn at_mut(&mut self, index: usize) -> Option<&mut T> {
        self.entries.get_mut(index).map(|(_, value)| value)
    }

    /// Entries with their names, in insertion order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.entries
            .iter()
            .map(|(name, value)| (name.as_str(), value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upsert_keeps_insertion_order_and_replaces_by_name() {
        let mut named = Named::default();
        assert_eq!(named.upsert("b", 1), 0);
        assert_eq!(named.upsert("a", 2), 1);
        assert_eq!(named.upsert("b", 3), 0);
        assert_eq!(named.position("a"), Some(1));
        assert_eq!(named.position("c"), None);
        assert_eq!(named.iter().collect::<Vec<_>>(), vec![("b", &3), ("a", &2)]);
    }
}
