//! The node search's ranking, apart from egui so it can be tested alone.
//!
//! A query is split into words. A kind matches when, in this order of precedence:
//! 1. **Name**: every word fuzzy-matches its display name (`Obstacle Avoidance`), or every word
//!    the name's initials (`OA`; the better score counts), with `nucleo-matcher`'s fzf-style
//!    scores: letters in order, gaps allowed, word starts and runs scoring higher ("obav",
//!    "uca", "arival");
//! 2. **Category**: every word is a piece of its category's name ("combiner");
//! 3. **Description**: every word is a piece of its one-line description ("orca");
//! 4. **Typo**: every word is within one edit of a word of the name that starts with the same
//!    letter, or of that word's start (none for words under four letters, two from eight on),
//!    counting a swap of two neighbours as one edit (Damerau–Levenshtein, `strsim`):
//!    "seperation", "persuit". The fuzzy matcher needs every letter typed, so a wrong or
//!    swapped letter finds nothing there. A slip rarely hits the first letter, and allowing it
//!    made "wall" offer All.
//!
//! Hits rank by that precedence, then by score (higher first; typos: fewer edits, then fewer
//! words in the name), then in catalogue order (behaviours, group behaviours, combiners,
//! conditions, as the empty box lists them), so the order is always the same and "wall" puts Wall Avoidance
//! before the Wall Ahead condition. Only name hits carry the positions of the matched letters.

use std::cmp::Reverse;

use graph_runtime::NodeKind;
use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::{Fit, spaced};

/// Where a query matched a kind; earlier variants rank first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Via {
    /// The display name or its initials (fuzzy); also every kind for an empty query.
    Name,
    /// The category's name (each word a substring).
    Category,
    /// The description (each word a substring).
    Description,
    /// Words of the name, spelt within a few edits.
    Typo,
}

/// One kind the query found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The kind.
    pub kind: NodeKind,
    /// What matched.
    pub via: Via,
    /// The matcher's score within `via`, higher first (for typos: fewer edits, then fewer
    /// words in the name).
    pub score: u32,
    /// Sorted char positions of the matched letters in the display name, for highlighting;
    /// empty unless `via` is [`Via::Name`] with a non-empty query.
    pub name_indices: Vec<u32>,
}

/// The kinds that fit `fit` and match `query`, best first, ties in catalogue order. An empty (or
/// blank) query gives every fitting kind in catalogue order.
pub fn rank(query: &str, fit: Fit) -> Vec<Hit> {
    let kinds = NodeKind::ALL
        .iter()
        .copied()
        .filter(|kind| fit.admits(*kind));
    if query.trim().is_empty() {
        return kinds
            .map(|kind| Hit {
                kind,
                via: Via::Name,
                score: 0,
                name_indices: Vec::new(),
            })
            .collect();
    }
    let mut ranker = Ranker::new(query);
    let mut hits: Vec<Hit> = kinds.filter_map(|kind| ranker.hit(kind)).collect();
    // A stable sort: the kinds came in catalogue order, and ties stay in it.
    hits.sort_by_key(|hit| (hit.via, Reverse(hit.score)));
    hits
}

/// The matcher and the query's patterns, reused across kinds.
struct Ranker {
    matcher: Matcher,
    fuzzy: Pattern,
    pieces: Pattern,
    words: Vec<String>,
    buf: Vec<char>,
}

impl Ranker {
    fn new(query: &str) -> Self {
        let pattern = |kind| Pattern::new(query, CaseMatching::Ignore, Normalization::Smart, kind);
        Self {
            matcher: Matcher::new(Config::DEFAULT),
            fuzzy: pattern(AtomKind::Fuzzy),
            pieces: pattern(AtomKind::Substring),
            words: query.split_whitespace().map(str::to_lowercase).collect(),
            buf: Vec::new(),
        }
    }

    fn hit(&mut self, kind: NodeKind) -> Option<Hit> {
        let hit = |via, score, name_indices| {
            Some(Hit {
                kind,
                via,
                score,
                name_indices,
            })
        };
        if let Some((score, indices)) = self.name(kind) {
            return hit(Via::Name, score, indices);
        }
        if let Some(score) = self.pieces(&kind.category().to_string()) {
            return hit(Via::Category, score, Vec::new());
        }
        if let Some(score) = self.pieces(kind.description()) {
            return hit(Via::Description, score, Vec::new());
        }
        let name = spaced(kind.name());
        let edits = typo_edits(&self.words, &name)?;
        // Fewer edits first; for as many, the name with fewer words ("persuit": Pursuit before
        // Offset Pursuit).
        let words = name.split(' ').count() as u32;
        hit(Via::Typo, u32::MAX - edits * 16 - words, Vec::new())
    }

    /// The better of the fuzzy matches on the display name and on its initials, with the
    /// matched positions in the display name.
    fn name(&mut self, kind: NodeKind) -> Option<(u32, Vec<u32>)> {
        let name = spaced(kind.name());
        let mut indices = Vec::new();
        let full = self.fuzzy.indices(
            Utf32Str::new(&name, &mut self.buf),
            &mut self.matcher,
            &mut indices,
        );
        // Initials: the char position of each word's first letter.
        let starts: Vec<u32> = name
            .chars()
            .enumerate()
            .filter(|(i, c)| *i == 0 || c.is_uppercase())
            .map(|(i, _)| i as u32)
            .collect();
        let initials: String = starts
            .iter()
            .filter_map(|i| name.chars().nth(*i as usize))
            .collect();
        let mut initial_indices = Vec::new();
        let short = self.fuzzy.indices(
            Utf32Str::new(&initials, &mut self.buf),
            &mut self.matcher,
            &mut initial_indices,
        );
        let (score, mut indices) = match (full, short) {
            (Some(full), Some(short)) if short > full => {
                (short, to_starts(&initial_indices, &starts))
            }
            (None, Some(short)) => (short, to_starts(&initial_indices, &starts)),
            (Some(full), _) => (full, indices),
            (None, None) => return None,
        };
        indices.sort_unstable();
        indices.dedup();
        Some((score, indices))
    }

    /// The score when every query word is a piece of `haystack`.
    fn pieces(&mut self, haystack: &str) -> Option<u32> {
        self.pieces
            .score(Utf32Str::new(haystack, &mut self.buf), &mut self.matcher)
    }
}

/// Positions in the initials mapped to positions in the name.
fn to_starts(initial_indices: &[u32], starts: &[u32]) -> Vec<u32> {
    initial_indices
        .iter()
        .filter_map(|i| starts.get(*i as usize).copied())
        .collect()
}

/// The edits a slip of the keyboard may make in a word of `len` letters: none below four
/// letters (too many short words lie one edit apart), one up to seven, two from eight on.
fn allowed_edits(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Total edits when every query word is close to a word of `name` (or to its start) with the
/// same first letter, or `None`. Words of fewer than four letters must be exact (a fuzzy name
/// match already covers those).
fn typo_edits(words: &[String], name: &str) -> Option<u32> {
    let name_words: Vec<String> = name.split(' ').map(str::to_lowercase).collect();
    let mut total = 0;
    for word in words {
        let len = word.chars().count();
        let best = name_words
            .iter()
            .filter(|name_word| name_word.chars().next() == word.chars().next())
            .map(|name_word| {
                let start: String = name_word.chars().take(len).collect();
                strsim::damerau_levenshtein(word, name_word)
                    .min(strsim::damerau_levenshtein(word, &start))
            })
            .min()?;
        if best > allowed_edits(len) {
            return None;
        }
        total += best as u32;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use graph_runtime::PortType;

    use super::*;

    fn kinds(query: &str) -> Vec<NodeKind> {
        rank(query, Fit::Any).into_iter().map(|h| h.kind).collect()
    }

    fn first(query: &str) -> Hit {
        rank(query, Fit::Any)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("{query:?} finds something"))
    }

    #[test]
    fn an_abbreviation_finds_the_name_first_with_its_letters() {
        let hit = first("obav");
        assert_eq!(hit.kind, NodeKind::ObstacleAvoidance);
        assert_eq!(hit.via, Via::Name);
        // "Obstacle Avoidance": O, b, then A, v.
        assert_eq!(hit.name_indices, vec![0, 1, 9, 10]);
    }

    #[test]
    fn initials_find_the_name_first() {
        let hit = first("uca");
        assert_eq!(hit.kind, NodeKind::UnalignedCollisionAvoidance);
        // The initials of "Unaligned Collision Avoidance".
        assert_eq!(hit.name_indices, vec![0, 10, 20]);
        assert_eq!(first("UCA").kind, NodeKind::UnalignedCollisionAvoidance);
    }

    #[test]
    fn typos_still_find_the_node_first() {
        for (query, kind) in [
            ("seperation", NodeKind::Separation),
            ("arival", NodeKind::Arrival),
            ("persuit", NodeKind::Pursuit),
            ("pursiut", NodeKind::Pursuit),
            ("obstacle avoidence", NodeKind::ObstacleAvoidance),
        ] {
            assert_eq!(first(query).kind, kind, "{query}");
        }
        assert_eq!(first("seperation").via, Via::Typo);
    }

    #[test]
    fn a_category_word_lists_its_kinds() {
        let combiners: Vec<NodeKind> = NodeKind::ALL
            .iter()
            .copied()
            .filter(|k| k.category() == graph_runtime::Category::Combiner)
            .collect();
        let found = kinds("combiner");
        assert_eq!(found.len(), combiners.len());
        assert!(combiners.iter().all(|k| found.contains(k)));
    }

    #[test]
    fn a_description_word_finds_its_kind_after_name_matches() {
        // "ORCA" is only in Reciprocal's description.
        assert_eq!(kinds("orca"), vec![NodeKind::Reciprocal]);
        assert_eq!(first("orca").via, Via::Description);
        // "avoid" is in three names (scoring the same, so in catalogue order) and in
        // Reciprocal's description: names first.
        assert_eq!(
            kinds("avoid"),
            vec![
                NodeKind::ObstacleAvoidance,
                NodeKind::WallAvoidance,
                NodeKind::UnalignedCollisionAvoidance,
                NodeKind::Reciprocal
            ]
        );
    }

    #[test]
    fn wall_queries_list_the_wall_nodes_behaviours_first_then_navigate_and_nothing_else() {
        // All four score the same on "wal" and "wall", so the catalogue decides: the behaviours,
        // then the sensor, then the condition. "wall" is one edit from "all", but a typo keeps
        // its first letter, so All is not offered.
        let walls = [
            NodeKind::WallAvoidance,
            NodeKind::WallFollowing,
            NodeKind::WallDistance,
            NodeKind::WallAhead,
        ];
        // Navigate, whose summary says it routes "round walls", comes after them.
        let with_navigate: Vec<_> = walls.iter().copied().chain([NodeKind::Navigate]).collect();
        for query in ["wal", "wall", "Wall", "WALL"] {
            assert_eq!(kinds(query), with_navigate, "{query}");
        }
        // The plural still gives the four wall nodes and Navigate, and only them.
        let mut plural = kinds("walls");
        plural.sort_by_key(|k| with_navigate.iter().position(|w| w == k));
        assert_eq!(plural, with_navigate);
        // A second word picks one out.
        assert_eq!(kinds("wall f")[0], NodeKind::WallFollowing);
        assert_eq!(kinds("wal dist")[0], NodeKind::WallDistance);
    }

    #[test]
    fn the_order_is_deterministic_and_ties_go_by_catalogue() {
        let order = |kind: NodeKind| NodeKind::ALL.iter().position(|k| *k == kind);
        for query in ["a", "wall", "se", "avoid", "flw"] {
            let hits = rank(query, Fit::Any);
            assert_eq!(hits, rank(query, Fit::Any), "{query}");
            for pair in hits.windows(2) {
                let key = |h: &Hit| (h.via, Reverse(h.score), order(h.kind));
                assert!(key(&pair[0]) < key(&pair[1]), "{query}: {pair:?}");
            }
        }
    }

    #[test]
    fn nonsense_finds_nothing() {
        assert!(rank("zzzz", Fit::Any).is_empty());
        assert!(rank("qxj", Fit::Any).is_empty());
    }

    #[test]
    fn an_empty_query_lists_every_fitting_kind_in_catalogue_order() {
        assert_eq!(kinds("  "), NodeKind::ALL.to_vec());
        let scalars: Vec<NodeKind> = rank("", Fit::OutputOf(PortType::Scalar))
            .into_iter()
            .map(|h| h.kind)
            .collect();
        assert_eq!(scalars[0], NodeKind::Distance);
    }

    #[test]
    fn the_fit_of_a_dragged_wire_still_filters() {
        let from_condition = rank("gate", Fit::InputAccepting(PortType::Condition));
        assert_eq!(from_condition[0].kind, NodeKind::Gate);
        // Obstacle Avoidance has no steering input, so a steering wire never offers it.
        assert!(rank("obav", Fit::InputAccepting(PortType::Steering)).is_empty());
        let scalars = rank("dist", Fit::OutputOf(PortType::Scalar));
        assert!(!scalars.is_empty());
        assert!(scalars.iter().all(|h| h.kind.output() == PortType::Scalar));
    }
}
