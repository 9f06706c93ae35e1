//! The status line: the latest message, shown for a few seconds, then the hint again.

use std::time::{Duration, Instant};

/// How long a message stays.
const SHOWN_FOR: Duration = Duration::from_secs(8);

/// The latest status message and when it was set.
#[derive(Clone, Debug, Default)]
pub struct Status {
    message: Option<(String, Instant)>,
}

impl Status {
    /// Shows `text` from now on.
    pub fn set(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), Instant::now()));
    }

    /// The message, while it is fresh.
    pub fn text(&self) -> Option<&str> {
        self.message
            .as_ref()
            .filter(|(_, at)| at.elapsed() < SHOWN_FOR)
            .map(|(text, _)| text.as_str())
    }
}

/// `count` and `noun`, plural when `count` is not 1: "1 node", "2 nodes".
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(plural(1, "problem"), "1 problem");
        assert_eq!(plural(0, "node"), "0 nodes");
        assert_eq!(plural(3, "more node"), "3 more nodes");
    }
}
