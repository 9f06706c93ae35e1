//! Room for a parallel pass to scatter into: `u32` slots that any thread of the pass may
//! write (relaxed stores and loads, ordered by the passes' ends), such as each old slot's new
//! slot in a re-sort (`simulation/layout.rs`) or the slot each place of a k-d tree takes
//! (`spatial/nearest`). Room to work in, not part of what holds it: a clone starts empty, and
//! any two compare equal.

use std::sync::atomic::AtomicU32;

/// `u32` slots written on every thread of a pass (see the module's documentation).
#[derive(Debug, Default)]
pub(crate) struct Slots(Vec<AtomicU32>);

impl Clone for Slots {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for Slots {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Slots {
    /// `len` slots: those there were keep what they held, those added hold `fill`.
    pub(crate) fn sized(&mut self, len: usize, fill: u32) -> &[AtomicU32] {
        self.0.resize_with(len, || AtomicU32::new(fill));
        &self.0
    }
}
