//! Reading and writing the RON assets: graphs, scenes and flow fields, format version 1.
//!
//! Every asset starts with `format: "steergraph.<kind>"` and `version: N`. A file whose version is
//! newer than [`FORMAT_VERSION`] is refused with [`LoadError::NewerVersion`] before anything else
//! is read, so an old runtime never misreads a new file.

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use ron::ser::PrettyConfig;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The asset format version this runtime writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

/// The kinds of asset files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssetKind {
    /// A behavior graph, `format: "steergraph.graph"`.
    Graph,
    /// A scene, `format: "steergraph.scene"`.
    Scene,
    /// A flow field, `format: "steergraph.flow"`.
    FlowField,
}

impl AssetKind {
    /// The value of the file's `format` field.
    pub fn tag(self) -> &'static str {
        match self {
            Self::Graph => "steergraph.graph",
            Self::Scene => "steergraph.scene",
            Self::FlowField => "steergraph.flow",
        }
    }

    /// Which kind a `format` tag names.
    pub fn from_tag(tag: &str) -> Option<Self> {
        [Self::Graph, Self::Scene, Self::FlowField]
            .into_iter()
            .find(|kind| kind.tag() == tag)
    }
}

/// A line and column in a text file, both counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextPosition {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
}

/// Why an asset could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The text is not valid RON, or does not fit the format (unknown field, wrong type, …).
    #[error("{path}:{}:{}: {message}", position.line, position.col)]
    Syntax {
        /// The file (or `<text>` for in-memory input).
        path: String,
        /// Where the problem starts.
        position: TextPosition,
        /// What is wrong.
        message: String,
    },
    /// The file was written by a newer Steergraph.
    #[error(
        "{path}: this {kind} file uses format version {found}, but this Steergraph reads versions up to {supported}; update Steergraph to open it"
    )]
    NewerVersion {
        /// The file.
        path: String,
        /// `graph`, `scene` or `flow field`.
        kind: &'static str,
        /// The file's version.
        found: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// The file is an asset of another kind (a scene opened as a graph, say).
    #[error(
        "{path}: expected a {expected} file (format: \"{expected_tag}\"), found format: \"{found}\""
    )]
    WrongKind {
        /// The file.
        path: String,
        /// What was expected, in words.
        expected: &'static str,
        /// The expected tag.
        expected_tag: &'static str,
        /// The file's `format` value.
        found: String,
    },
    /// The file parsed but its content is inconsistent (a flow field with the wrong number of
    /// vectors, say).
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &str {
        match self {
            Self::Io { path, .. }
            | Self::Syntax { path, .. }
            | Self::NewerVersion { path, .. }
            | Self::WrongKind { path, .. }
            | Self::Invalid { path, .. } => path,
        }
    }
}

/// Why an asset could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The value could not be turned into RON (only non-finite numbers can cause this).
    #[error("cannot write RON: {0}")]
    Serialize(#[from] ron::Error),
    /// The file system refused; the existing file, if any, is untouched.
    #[error("{path}: cannot save: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// The first two fields of every asset; everything else is skipped when reading it.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: String,
    #[serde(default)]
    version: u32,
}

fn words(kind: AssetKind) -> &'static str {
    match kind {
        AssetKind::Graph => "graph",
        AssetKind::Scene => "scene",
        AssetKind::FlowField => "flow field",
    }
}

fn syntax_error(text: &str, origin: &str, error: &ron::error::SpannedError) -> LoadError {
    LoadError::Syntax {
        path: origin.to_owned(),
        position: problem_start(text, &error.span),
        message: error.code.to_string(),
    }
}

/// Where the problem of a ron error starts. ron's span starts where the previous token ended,
/// so for a value of the wrong type it points at the whitespace (possibly on an earlier line)
/// before the value; the first token inside the span is where the problem starts.
fn problem_start(text: &str, span: &ron::error::Span) -> TextPosition {
    let reported = TextPosition {
        line: span.start.line,
        col: span.start.col,
    };
    let (Some(start), Some(end)) = (byte_offset(text, &span.start), byte_offset(text, &span.end))
    else {
        return reported;
    };
    let end = end.max(start);
    let Some(mut rest) = text.get(start..end) else {
        return reported;
    };
    loop {
        rest = rest.trim_start();
        rest = if let Some(comment) = rest.strip_prefix("//") {
            comment.split_once('\n').map_or("", |(_, after)| after)
        } else if let Some(comment) = rest.strip_prefix("/*") {
            match comment.split_once("*/") {
                Some((_, after)) => after,
                None => break,
            }
        } else {
            break;
        };
    }
    let before = text.get(..end - rest.len()).unwrap_or_default();
    TextPosition {
        line: 1 + before.matches('\n').count(),
        col: 1 + before.chars().rev().take_while(|&c| c != '\n').count(),
    }
}

/// The byte offset of a ron position (line and column in characters, from 1).
fn byte_offset(text: &str, position: &ron::error::Position) -> Option<usize> {
    let line_start = match position.line {
        0 => return None,
        1 => 0,
        line => text.match_indices('\n').nth(line - 2)?.0 + 1,
    };
    let line = text.get(line_start..)?;
    let column = line
        .char_indices()
        .nth(position.col.checked_sub(1)?)
        .map_or(line.len(), |(i, _)| i);
    Some(line_start + column)
}

/// Parses the file envelope `T` of an asset of `kind` from `text`; `origin` names the file in
/// errors.
pub(crate) fn parse<T: DeserializeOwned>(
    text: &str,
    origin: &str,
    kind: AssetKind,
) -> Result<T, LoadError> {
    // The header first: a newer file must be refused with a clear message even when the rest
    // of it does not parse with today's types.
    let header: Header = ron::from_str(text).map_err(|e| syntax_error(text, origin, &e))?;
    // A missing field is reported by the full parse below, with its position.
    if !header.format.is_empty() && header.format != kind.tag() {
        return Err(LoadError::WrongKind {
            path: origin.to_owned(),
            expected: words(kind),
            expected_tag: kind.tag(),
            found: header.format,
        });
    }
    if header.version > FORMAT_VERSION {
        return Err(LoadError::NewerVersion {
            path: origin.to_owned(),
            kind: words(kind),
            found: header.version,
            supported: FORMAT_VERSION,
        });
    }
    ron::from_str(text).map_err(|e| syntax_error(text, origin, &e))
}

/// Reads the file at `path`, returning its text and its name for error messages.
pub(crate) fn read_text(path: &Path) -> Result<(String, String), LoadError> {
    let origin = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: origin.clone(),
        source,
    })?;
    Ok((text, origin))
}

/// The one pretty-printing style of every asset, so that saving is byte-stable.
fn pretty() -> PrettyConfig {
    PrettyConfig::new()
        .indentor("    ")
        .new_line("\n")
        .struct_names(false)
        .separate_tuple_members(false)
        .enumerate_arrays(false)
}

/// Writes `value` as pretty RON text ending in a newline.
pub(crate) fn to_text<T: Serialize>(value: &T) -> Result<String, SaveError> {
    let mut text = ron::ser::to_string_pretty(value, pretty())?;
    text.push('\n');
    Ok(text)
}

/// Counts saves, to name each temporary file uniquely within the process.
static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Writes `text` to `path` atomically: a temporary file beside it, flushed, then renamed over
/// it. A failure leaves any existing file untouched.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), SaveError> {
    let io = |source| SaveError::Io {
        path: path.display().to_string(),
        source,
    };
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // A short name, unique per process and call, so any legal file name can be saved.
    let save = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temporary = directory.join(format!(".steergraph-{}-{save}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if result.is_err() {
        // Best effort: the temporary file is ours and useless now.
        let _ = std::fs::remove_file(&temporary);
    }
    result.map_err(io)
}

/// Which kind of asset `text` claims to be, from its `format` field.
pub fn sniff_kind(text: &str) -> Option<AssetKind> {
    let header: Header = ron::from_str(text).ok()?;
    AssetKind::from_tag(&header.format)
}

impl fmt::Display for AssetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(words(*self))
    }
}
