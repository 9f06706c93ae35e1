//! A replay file (`*.sgrec`, `format: "steergraph.replay"`) as text: its fields, the checks
//! made on load (every count within its limit, one digest a tick) and writing it back
//! (`FORMAT.md`, "Replay files").

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ReplayFile;
use super::changes::{Change, Edits};
use crate::format::{self, AssetKind, FORMAT_VERSION, VERSION_1};
use crate::graph::GraphFile;
use crate::limits::{MAX_AGENT_TICKS, MAX_AGENTS, MAX_REPLAY_TICKS};
use crate::{FileAccess, LoadError, SaveError};

/// The file's fields, in the order they are written.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename = "ReplayFile")]
struct Fields {
    format: String,
    version: u32,
    scene: String,
    scene_digest: String,
    seed: u64,
    dt: f32,
    agents: usize,
    ticks: u64,
    /// The graphs the changes swap in (version 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    graphs: Vec<GraphFile>,
    /// The edits by tick (version 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    changes: Vec<Change>,
    digests: Vec<String>,
}

impl ReplayFile {
    /// Parses a replay from RON text; `origin` names it in errors. Refused, naming the field:
    /// a `dt` that is not a finite number > 0, more agents or ticks than the limits allow
    /// ([`MAX_AGENTS`], [`MAX_REPLAY_TICKS`], [`MAX_AGENT_TICKS`] for both together), a digest
    /// that is not 16 hexadecimal digits, a count of digests other than one a tick, and edits
    /// that are not a run's (version 2: a graph that does not compile, changes out of tick
    /// order, a value that is not finite; [`Edits`]).
    pub fn from_ron(text: &str, origin: &str) -> Result<Self, LoadError> {
        let fields: Fields = format::parse(text, origin, AssetKind::Replay)?;
        let invalid = |message: String| LoadError::Invalid {
            path: origin.to_owned(),
            message,
        };
        if fields.scene.trim().is_empty() {
            return Err(invalid("scene: names no file".to_owned()));
        }
        if !(fields.dt.is_finite() && fields.dt > 0.0) {
            return Err(invalid(format!(
                "dt: {} is not a tick length (a finite number of seconds > 0)",
                fields.dt
            )));
        }
        if fields.agents > MAX_AGENTS {
            return Err(invalid(format!(
                "agents: {} is more than a scene may have ({MAX_AGENTS})",
                fields.agents
            )));
        }
        if fields.ticks > MAX_REPLAY_TICKS {
            return Err(invalid(format!(
                "ticks: {} is more than a replay may hold ({MAX_REPLAY_TICKS})",
                fields.ticks
            )));
        }
        let work = (fields.agents as u64).saturating_mul(fields.ticks);
        if work > MAX_AGENT_TICKS {
            return Err(invalid(format!(
                "{} agents × {} ticks is {work} agent-ticks to replay; at most {MAX_AGENT_TICKS}",
                fields.agents, fields.ticks
            )));
        }
        let wanted = fields.ticks + 1;
        if fields.digests.len() as u64 != wanted {
            return Err(invalid(format!(
                "digests: {} listed; a replay of {} ticks has {wanted} (ticks 0 to {})",
                fields.digests.len(),
                fields.ticks,
                fields.ticks
            )));
        }
        let scene_digest = parse_digest(&fields.scene_digest).ok_or_else(|| {
            invalid(format!(
                "scene_digest: {}",
                not_a_digest(&fields.scene_digest)
            ))
        })?;
        let digests = (fields.digests.iter().enumerate())
            .map(|(tick, text)| {
                parse_digest(text)
                    .ok_or_else(|| invalid(format!("digests[{tick}]: {}", not_a_digest(text))))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if fields.version == VERSION_1 && !(fields.graphs.is_empty() && fields.changes.is_empty()) {
            return Err(invalid(
                "version: 1 holds no graphs or changes (a run edited while it ran is version 2)"
                    .to_owned(),
            ));
        }
        let graphs = Edits::compile(fields.graphs).map_err(invalid)?;
        let edits = Edits::checked(graphs, fields.changes, fields.ticks).map_err(invalid)?;
        Ok(Self {
            scene: fields.scene,
            scene_digest,
            seed: fields.seed,
            dt: fields.dt,
            agents: fields.agents,
            edits,
            digests,
        })
    }

    /// Reads and parses a replay file (a regular file of at most
    /// [`crate::limits::MAX_FILE_BYTES`], as every asset).
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let (text, origin) = format::read_text(path)?;
        Self::from_ron(&text, &origin)
    }

    /// The replay as `.sgrec` text, in the one pretty style of every asset.
    pub fn to_ron(&self) -> Result<String, SaveError> {
        let version = if self.edits.is_empty() {
            VERSION_1
        } else {
            FORMAT_VERSION
        };
        format::to_text(&Fields {
            format: AssetKind::Replay.tag().to_owned(),
            version,
            scene: self.scene.clone(),
            scene_digest: hex(self.scene_digest),
            seed: self.seed,
            dt: self.dt,
            agents: self.agents,
            ticks: self.ticks(),
            graphs: self.edits.graphs().iter().map(GraphFile::of).collect(),
            changes: self.edits.changes().to_vec(),
            digests: self.digests.iter().map(|&digest| hex(digest)).collect(),
        })
    }

    /// Saves the replay atomically.
    pub fn save(&self, path: &Path) -> Result<(), SaveError> {
        crate::save::write_atomically(path, self.to_ron()?)
    }

    /// How a replay file saved at `out` names the scene at `scene`: relative to `out`'s folder
    /// (with `..` where it lies elsewhere, forward slashes on every system), or absolute when
    /// the two share no folder (another drive) or either cannot be resolved. What
    /// `steergraph record` and the editor's Save run as replay write.
    pub fn scene_name_for(out: &Path, scene: &Path) -> String {
        let folder = match out.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let (Ok(folder), Ok(scene)) = (folder.canonicalize(), scene.canonicalize()) else {
            return scene.display().to_string();
        };
        let from: Vec<Component> = folder.components().collect();
        let to: Vec<Component> = scene.components().collect();
        let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if shared == 0 {
            return scene.display().to_string();
        }
        let mut relative = PathBuf::new();
        for _ in shared..from.len() {
            relative.push("..");
        }
        for component in &to[shared..] {
            relative.push(component);
        }
        // Forward slashes on every system, so that the file reads the same everywhere.
        let parts: Vec<String> = (relative.components())
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        parts.join("/")
    }

    /// The scene's path, for the replay file at `path`: its `scene` relative to the file's
    /// folder. With [`FileAccess::SceneFolder`] it must stay inside that folder (no absolute
    /// path, no `..` above it, no symbolic link out of it), as a scene's own files must; with
    /// [`FileAccess::Anywhere`] (the command line, where the user names the file) any path.
    pub fn scene_path(&self, path: &Path, access: FileAccess) -> Result<PathBuf, LoadError> {
        let folder = path.parent().unwrap_or(Path::new(""));
        crate::scene::locate(folder, &self.scene, access).map_err(|why| LoadError::Invalid {
            path: path.display().to_string(),
            message: format!("scene \"{}\" {why}", self.scene),
        })
    }
}

/// A digest as the file writes it: 16 lowercase hexadecimal digits.
pub(super) fn hex(digest: u64) -> String {
    format!("{digest:016x}")
}

/// A digest read back: exactly 16 hexadecimal digits (either case).
fn parse_digest(text: &str) -> Option<u64> {
    let digits = text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit());
    digits.then(|| u64::from_str_radix(text, 16).ok()).flatten()
}

/// Why `text` is no digest, quoting at most its start (a hostile file's field may be huge).
fn not_a_digest(text: &str) -> String {
    let start: String = text.chars().take(24).collect();
    let more = if start.len() < text.len() { "…" } else { "" };
    format!("\"{start}{more}\" is not a digest (16 hexadecimal digits)")
}
