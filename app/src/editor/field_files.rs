//! The file names flow fields are saved under: `<name>.flow.ron` beside the scene (Save scene)
//! or the exported graph (Export for game), made safe and distinct.

use std::collections::{BTreeMap, BTreeSet};

/// The file name a field called `name` is saved as (`"to goal"` → `to_goal.flow.ron`).
pub fn field_file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.flow.ron")
}

/// A file name for the field `name` that `taken` refuses not: `name.flow.ron`, else
/// `name_2.flow.ron`, `name_3.flow.ron`…
pub fn free_field_file(name: &str, taken: impl Fn(&str) -> bool) -> String {
    let base = field_file_name(name);
    let stem = base.trim_end_matches(".flow.ron").to_owned();
    std::iter::once(base)
        .chain((2..=u32::MAX).map(|n| format!("{stem}_{n}.flow.ron")))
        .find(|file| !taken(file))
        .unwrap_or_default()
}

/// A file name for each field name, distinct even where two names make the same safe name
/// (`"a b"` and `"a_b"`: `a_b.flow.ron`, `a_b_2.flow.ron`).
pub fn field_files<'a>(names: impl Iterator<Item = &'a String>) -> BTreeMap<String, String> {
    let mut taken = BTreeSet::new();
    let mut files = BTreeMap::new();
    for name in names {
        let file = free_field_file(name, |f| taken.contains(f));
        taken.insert(file.clone());
        files.insert(name.clone(), file);
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_that_make_the_same_file_name_get_distinct_files() {
        let names = ["a b".to_owned(), "a_b".to_owned(), "river".to_owned()];
        let files = field_files(names.iter());
        assert_eq!(files["a b"], "a_b.flow.ron");
        assert_eq!(files["a_b"], "a_b_2.flow.ron");
        assert_eq!(files["river"], "river.flow.ron");
    }

    #[test]
    fn a_taken_file_name_gets_the_next_number() {
        let taken = ["river.flow.ron", "river_2.flow.ron"];
        assert_eq!(
            free_field_file("river", |f| taken.contains(&f)),
            "river_3.flow.ron"
        );
    }
}
