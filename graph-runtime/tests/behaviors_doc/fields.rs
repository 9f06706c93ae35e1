//! "How each node is written": the field tables name every kind of the node table and every
//! field its default node writes, so a kind or field added without its line fails here.

use super::DOC;
use graph_runtime::NodeKind;

/// The first cell and the whole line of every row of the node tables of "How each node is written"
/// (those whose header's first cell is `node`).
fn node_rows() -> Vec<(String, String)> {
    let mut rows = Vec::new();
    let mut in_nodes = false;
    for line in DOC.lines() {
        if !line.starts_with('|') {
            in_nodes = false;
            continue;
        }
        let first = line.split('|').nth(1).unwrap_or_default().trim().to_owned();
        if first == "node" {
            in_nodes = true;
        } else if in_nodes && !first.starts_with("---") {
            rows.push((first, line.to_owned()));
        }
    }
    rows
}

/// The names of the fields a kind's default node writes: the top-level `name:` entries of its
/// RON (optional fields left at their default are not written, and need not be named).
fn written_fields(kind: NodeKind) -> Vec<String> {
    let text = ron::to_string(&kind.instantiate()).expect("a node serializes");
    let Some(open) = text.find('(') else {
        return Vec::new(); // a kind without fields: `Speed`
    };
    let (mut depth, mut fields, mut current) = (0_i32, Vec::new(), String::new());
    for c in text[open + 1..].chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => current.clear(),
            ':' if depth == 0 && !current.is_empty() => {
                fields.push(std::mem::take(&mut current));
            }
            c if depth == 0 && (c.is_alphanumeric() || c == '_') => current.push(c),
            _ => {}
        }
    }
    fields
}

/// The node tables of "How each node is written" are the node table's: every kind has a row, every field its
/// default node writes is named in that row, and every row names only real kinds. A new kind
/// or field that BEHAVIORS.md does not describe fails here.
#[test]
fn how_each_node_is_written_matches_the_node_table() {
    let rows = node_rows();
    assert!(rows.len() >= 40, "{} rows", rows.len());
    let kinds: Vec<&str> = NodeKind::ALL.iter().map(|kind| kind.name()).collect();
    for (first, _) in &rows {
        for named in first.split('`').skip(1).step_by(2) {
            assert!(
                kinds.contains(&named),
                "BEHAVIORS.md lists `{named}`, no node kind"
            );
        }
    }
    let mut missing = Vec::new();
    for &kind in NodeKind::ALL {
        let name = format!("`{}`", kind.name());
        let Some((_, line)) = rows.iter().find(|(first, _)| first.contains(&name)) else {
            missing.push(format!("{}: no row", kind.name()));
            continue;
        };
        for field in written_fields(kind) {
            if !line.contains(&format!("`{field}")) {
                missing.push(format!("{}: field `{field}` not named", kind.name()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "BEHAVIORS.md's \"How each node is written\" lacks:\n{}",
        missing.join("\n")
    );
}
