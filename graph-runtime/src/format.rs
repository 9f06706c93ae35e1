//! Reading and writing the RON assets: graphs, scenes and flow fields, format version 1.
//!
//! Every asset starts with `format: "steergraph.<kind>"` and `version: N`. A file whose version is
//! newer than [`FORMAT_VERSION`] is refused with [`LoadError::NewerVersion`] before anything else
//! is read, so an old runtime never misreads a new file.

use std::fmt;
use std::io::Read as _;
use std::path::Path;

use ron::ser::PrettyConfig;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::limits::MAX_FILE_BYTES;

/// The newest asset format version this runtime reads and writes.
///
/// Version 2 added the angular layer and jumps (a graph's `turning`, the nodes
/// `ReachOrientation`, Face, `LookWhereYouAreGoing`, `MatchVelocity`, Jump and `JumpAchievable`,
/// Wander's `face`; a scene's `gaps`, `jump_links` and groups' `turning`). A file is written
/// with the oldest version that holds it, so a file that uses none of these is still
/// version 1 and opens in older Steergraph builds, byte for byte as before.
pub const FORMAT_VERSION: u32 = 2;

/// The version before the angular layer and jumps.
pub(crate) const VERSION_1: u32 = 1;

/// The kinds of asset files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssetKind {
    /// A behavior graph, `format: "steergraph.graph"`.
    Graph,
    /// A scene, `format: "steergraph.scene"`.
    Scene,
    /// A flow field, `format: "steergraph.flow"`.
    FlowField,
    /// A tuning problem, `format: "steergraph.tune"` (read with the `tune` feature).
    Tune,
    /// A recorded run, `format: "steergraph.replay"` (`*.sgrec`).
    Replay,
}

impl AssetKind {
    /// The value of the file's `format` field.
    pub fn tag(self) -> &'static str {
        match self {
            Self::Graph => "steergraph.graph",
            Self::Scene => "steergraph.scene",
            Self::FlowField => "steergraph.flow",
            Self::Tune => "steergraph.tune",
            Self::Replay => "steergraph.replay",
        }
    }

    /// Which kind a `format` tag names.
    pub fn from_tag(tag: &str) -> Option<Self> {
        [
            Self::Graph,
            Self::Scene,
            Self::FlowField,
            Self::Tune,
            Self::Replay,
        ]
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

/// Why a file could not be written. Every variant but [`SaveError::PartlySaved`] and
/// [`SaveError::FolderNotSynced`] leaves the existing file untouched.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// ron could not serialize the value. The runtime's own types never cause this; a number
    /// that is not finite is reported as [`SaveError::NonFinite`] instead.
    #[error("cannot write RON: {0}")]
    Serialize(#[from] ron::Error),
    /// A number is NaN or infinite. ron could write it, but no Steergraph asset with such a
    /// number loads, so the file is not written.
    #[error(
        "cannot save a number that is not finite (NaN or infinite), line {line} of the text: `{text}`"
    )]
    NonFinite {
        /// The line of the RON text that holds the number, from 1.
        line: usize,
        /// That line, trimmed.
        text: String,
    },
    /// The file system refused.
    #[error("{path}: cannot save: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The path names a device, FIFO, socket or folder, which a save never replaces.
    #[error("{path}: cannot save: it is {kind}, not a regular file, and is left as it is")]
    NotARegularFile {
        /// The path.
        path: String,
        /// What it is, in words (`a device`, `a FIFO (named pipe)`, `a folder`, …).
        kind: &'static str,
    },
    /// The file was replaced, but flushing its folder to disk failed: a power cut right now
    /// could bring the old file back.
    #[error("{path}: saved, but its folder could not be flushed to disk: {source}")]
    FolderNotSynced {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A multi-file save ([`crate::write_all_atomically`]) replaced some files, then failed.
    #[error(
        "{error}; already saved: {}; not saved: {}",
        saved.join(", "),
        not_saved.join(", ")
    )]
    PartlySaved {
        /// The files replaced, in order.
        saved: Vec<String>,
        /// The files left untouched, in order (the first is the one that failed).
        not_saved: Vec<String>,
        /// Why the first of `not_saved` failed.
        #[source]
        error: Box<SaveError>,
    },
}

/// The first two fields of every asset; everything else is skipped when reading it.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: String,
    #[serde(default)]
    version: Option<u32>,
}

fn words(kind: AssetKind) -> &'static str {
    match kind {
        AssetKind::Graph => "graph",
        AssetKind::Scene => "scene",
        AssetKind::FlowField => "flow field",
        AssetKind::Tune => "tuning problem",
        AssetKind::Replay => "replay",
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
    let header = read_header(text).map_err(|error| {
        if text.contains("steergraph.") {
            syntax_error(text, origin, &error)
        } else {
            // Not an asset at all (a scene naming `/etc/passwd`, say): say so without quoting
            // the file, whose content may be private.
            LoadError::Invalid {
                path: origin.to_owned(),
                message: format!(
                    "not a Steergraph {} file (no `format: \"{}\"` header); its content is not shown",
                    words(kind),
                    kind.tag()
                ),
            }
        }
    })?;
    // A missing field is reported by the full parse below, with its position.
    let format = (!header.format.is_empty()).then_some(header.format.as_str());
    check_envelope(origin, kind, format, header.version)?;
    ron::from_str(text).map_err(|e| syntax_error(text, origin, &e))
}

/// Whether an asset's `format` and `version` (`None`: not given, which the full parse
/// reports) are `kind`'s and a version this build reads: the check [`parse`] makes of every
/// file's header, and a replay file of the graphs it holds. `origin` names it in errors.
pub(crate) fn check_envelope(
    origin: &str,
    kind: AssetKind,
    format: Option<&str>,
    version: Option<u32>,
) -> Result<(), LoadError> {
    if let Some(found) = format
        && found != kind.tag()
    {
        return Err(LoadError::WrongKind {
            path: origin.to_owned(),
            expected: words(kind),
            expected_tag: kind.tag(),
            found: found.to_owned(),
        });
    }
    match version {
        Some(found) if found > FORMAT_VERSION => Err(LoadError::NewerVersion {
            path: origin.to_owned(),
            kind: words(kind),
            found,
            supported: FORMAT_VERSION,
        }),
        // Versions count from 1: a 0 is a mistake, not an old file.
        Some(0) => Err(LoadError::Invalid {
            path: origin.to_owned(),
            message: format!(
                "`version: 0` is not a format version: {} files are version 1 to {FORMAT_VERSION}",
                words(kind)
            ),
        }),
        _ => Ok(()),
    }
}

/// Reads an asset file's text the way every loader of this crate does: a regular file of at
/// most [`MAX_FILE_BYTES`], UTF-8 (for tools that look at a file before choosing a loader).
pub fn read_asset_text(path: &Path) -> Result<String, LoadError> {
    read_text(path).map(|(text, _)| text)
}

/// Reads the file at `path`, returning its text and its name for error messages.
///
/// Only a regular file of at most [`MAX_FILE_BYTES`] is read: a device, FIFO, socket or folder
/// is refused before it is opened (opening a FIFO could block, reading `/dev/zero` would never
/// end), and a larger file before anything is allocated for it.
pub(crate) fn read_text(path: &Path) -> Result<(String, String), LoadError> {
    let origin = path.display().to_string();
    let io = |source| LoadError::Io {
        path: origin.clone(),
        source,
    };
    let refuse = |message: String| LoadError::Invalid {
        path: origin.clone(),
        message,
    };
    let check = |metadata: &std::fs::Metadata| {
        if !metadata.is_file() {
            return Err(refuse(
                "not a regular file (a device, FIFO, socket or folder); only regular files are read"
                    .to_owned(),
            ));
        }
        if metadata.len() > MAX_FILE_BYTES {
            return Err(refuse(format!(
                "the file is {} bytes; the largest asset read is {MAX_FILE_BYTES} bytes (64 MiB)",
                metadata.len()
            )));
        }
        Ok(())
    };
    check(&std::fs::metadata(path).map_err(io)?)?;
    let file = std::fs::File::open(path).map_err(io)?;
    // Checked again on the open file, in case the path was swapped in between.
    check(&file.metadata().map_err(io)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(refuse(format!(
            "the file grew past {MAX_FILE_BYTES} bytes (64 MiB) while being read"
        )));
    }
    let text = text_from_bytes(bytes, &origin)?;
    Ok((text, origin))
}

/// An asset's text from bytes read some other way (an engine's asset reader): at most
/// [`MAX_FILE_BYTES`] of them, and UTF-8, as this crate's loaders require of files on disk.
pub fn text_from_bytes(bytes: Vec<u8>, origin: &str) -> Result<String, LoadError> {
    let refuse = |message: String| LoadError::Invalid {
        path: origin.to_owned(),
        message,
    };
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(refuse(format!(
            "the file is larger than {MAX_FILE_BYTES} bytes (64 MiB), the largest asset read"
        )));
    }
    String::from_utf8(bytes).map_err(|error| {
        refuse(format!(
            "not UTF-8 text (invalid byte at offset {})",
            error.utf8_error().valid_up_to()
        ))
    })
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

/// Writes `value` as pretty RON text ending in a newline; refuses non-finite numbers.
pub(crate) fn to_text<T: Serialize>(value: &T) -> Result<String, SaveError> {
    let mut text = ron::ser::to_string_pretty(value, pretty())?;
    text.push('\n');
    if let Some((line, content)) = non_finite_line(&text) {
        return Err(SaveError::NonFinite {
            line,
            text: content.trim().to_owned(),
        });
    }
    Ok(text)
}

/// The first line (from 1) of ron output holding a non-finite number: ron writes them as the
/// bare words `NaN`, `inf` and `-inf`, which no Steergraph identifier is. Strings are skipped.
fn non_finite_line(text: &str) -> Option<(usize, &str)> {
    for (index, line) in text.lines().enumerate() {
        let mut in_string = false;
        let mut escaped = false;
        let mut word = String::new();
        for c in line.chars().chain(std::iter::once(' ')) {
            if in_string {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            if c.is_alphanumeric() || c == '_' || c == '.' {
                word.push(c);
                continue;
            }
            if word == "NaN" || word == "inf" {
                return Some((index + 1, line));
            }
            word.clear();
            in_string = c == '"';
        }
    }
    None
}

/// Which kind of asset `text` claims to be, from its `format` field.
pub fn sniff_kind(text: &str) -> Option<AssetKind> {
    let header = read_header(text).ok()?;
    AssetKind::from_tag(&header.format)
}

/// The `format` and `version` fields of an asset's text, the rest skipped: `version: 3` reads
/// as `Some(3)`, no version as `None` (as the loader and `sniff_kind` both read them).
fn read_header(text: &str) -> Result<Header, ron::error::SpannedError> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
}

impl fmt::Display for AssetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(words(*self))
    }
}
