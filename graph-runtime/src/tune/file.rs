//! A tuning problem saved beside its scene (`*.tune.ron`, `format: "steergraph.tune"`): the
//! scene, the parameters and their ranges, the goals and how to search (`FORMAT.md`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;

use super::{Goal, Preference, Strategy, TuneParameter, TuneSpec};
use crate::format::{self, AssetKind};
use crate::{LoadError, sweep::Metric};

/// A tuning problem as read from its file.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneFile {
    /// What the problem is, in words.
    pub description: String,
    /// The scene, relative to the tune file's folder.
    pub scene: String,
    /// The parameters and their ranges.
    pub parameters: Vec<TuneParameter>,
    /// The goals.
    pub goals: Vec<Goal>,
    /// Runs per candidate.
    pub seeds: u32,
    /// Simulated seconds per run.
    pub seconds: f32,
    /// Candidates to evaluate at most.
    pub budget: usize,
    /// Which of the candidates that meet the goals is best.
    pub prefer: Preference,
}

/// The file's fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fields {
    #[expect(dead_code, reason = "checked by `format::parse` before this is read")]
    format: String,
    #[expect(dead_code, reason = "checked by `format::parse` before this is read")]
    version: u32,
    #[serde(default)]
    description: String,
    scene: String,
    #[serde(deserialize_with = "crate::unique::names")]
    parameters: BTreeMap<String, (f32, f32)>,
    goals: Vec<String>,
    #[serde(default = "default_seeds")]
    seeds: u32,
    #[serde(default = "default_seconds")]
    seconds: f32,
    #[serde(default = "default_budget")]
    budget: usize,
    #[serde(default = "default_prefer")]
    prefer: String,
}

fn default_seeds() -> u32 {
    3
}

fn default_seconds() -> f32 {
    10.0
}

fn default_budget() -> usize {
    100
}

fn default_prefer() -> String {
    "closest".to_owned()
}

impl TuneFile {
    /// Parses a tune file from RON text; `origin` names it in errors. A goal or preference
    /// that does not read is refused naming its place (`goals[1]`), as is a scene path that
    /// is absolute or leaves the folder.
    pub fn from_ron(text: &str, origin: &str) -> Result<Self, LoadError> {
        let fields: Fields = format::parse(text, origin, AssetKind::Tune)?;
        let invalid = |message: String| LoadError::Invalid {
            path: origin.to_owned(),
            message,
        };
        let scene = Path::new(&fields.scene);
        if scene.is_absolute() || scene.components().any(|c| c.as_os_str() == "..") {
            return Err(invalid(format!(
                "scene \"{}\": a tune file names its scene relative to its own folder, without `..`",
                fields.scene
            )));
        }
        let goals = fields
            .goals
            .iter()
            .enumerate()
            .map(|(index, text)| {
                Goal::from_str(text).map_err(|error| invalid(format!("goals[{index}]: {error}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let prefer = Preference::from_str(&fields.prefer)
            .map_err(|error| invalid(format!("prefer: {error}")))?;
        let parameters = fields
            .parameters
            .into_iter()
            .map(|(name, (from, to))| TuneParameter { name, from, to })
            .collect();
        Ok(Self {
            description: fields.description,
            scene: fields.scene,
            parameters,
            goals,
            seeds: fields.seeds,
            seconds: fields.seconds,
            budget: fields.budget,
            prefer,
        })
    }

    /// Reads and parses a `.tune.ron` file.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let (text, origin) = format::read_text(path)?;
        Self::from_ron(&text, &origin)
    }

    /// The scene's path, for the tune file at `path`; refused (naming the file) when a
    /// symbolic link leads it out of the tune file's folder, as a scene's graphs are.
    pub fn scene_path(&self, path: &Path) -> Result<PathBuf, LoadError> {
        let folder = path.parent().unwrap_or(Path::new(""));
        let scene = folder.join(&self.scene);
        if crate::scene::leads_out(folder, &scene) {
            return Err(LoadError::Invalid {
                path: path.display().to_string(),
                message: format!(
                    "scene \"{}\" is a symbolic link leading out of the tune file's folder; its scene must be inside it",
                    self.scene
                ),
            });
        }
        Ok(scene)
    }

    /// The tuning this file asks for, searched with `strategy` from `search_seed`.
    pub fn spec(&self, strategy: Strategy, search_seed: u64) -> TuneSpec {
        TuneSpec {
            parameters: self.parameters.clone(),
            goals: self.goals.clone(),
            seeds: self.seeds,
            seconds: self.seconds,
            budget: self.budget,
            search_seed,
            strategy,
            prefer: self.prefer,
            stop_when_met: false,
        }
    }
}

/// Why a preference does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreferenceError {
    /// Not one of the three shapes.
    #[error("\"{0}\": expected closest, lowest:METRIC or highest:METRIC")]
    Shape(String),
    /// An unknown metric.
    #[error(
        "\"{given}\": unknown metric \"{metric}\" (valid: {})",
        Metric::names()
    )]
    Metric {
        /// The text.
        given: String,
        /// The name that is no metric.
        metric: String,
    },
}

impl FromStr for Preference {
    type Err = PreferenceError;

    /// `closest`, `lowest:METRIC` or `highest:METRIC`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let metric = |name: &str| {
            Metric::from_name(name).ok_or_else(|| PreferenceError::Metric {
                given: text.to_owned(),
                metric: name.to_owned(),
            })
        };
        match text.split_once(':') {
            None if text == "closest" => Ok(Self::Closest),
            Some(("lowest", name)) => metric(name).map(Self::Lowest),
            Some(("highest", name)) => metric(name).map(Self::Highest),
            _ => Err(PreferenceError::Shape(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"(format: "steergraph.tune", version: 1,
        description: "Home sooner without touching.",
        scene: "swap.scene.ron",
        parameters: {"speed": (2.0, 8.0), "horizon": (0.5, 4.0)},
        goals: ["arrived_95 <= 25", "agent_overlaps <= 0"],
        budget: 200)"#;

    #[test]
    fn a_tune_file_reads_with_its_defaults() {
        let file = TuneFile::from_ron(FILE, "swap.tune.ron").expect("reads");
        assert_eq!(file.scene, "swap.scene.ron");
        assert_eq!(file.parameters.len(), 2);
        assert_eq!(file.parameters[0].name, "horizon", "in name order");
        assert_eq!((file.parameters[1].from, file.parameters[1].to), (2.0, 8.0));
        assert_eq!(file.goals[0].to_string(), "arrived_95 <= 25");
        assert_eq!((file.seeds, file.seconds, file.budget), (3, 10.0, 200));
        assert_eq!(file.prefer, Preference::Closest);
        assert_eq!(
            file.scene_path(Path::new("presets/swap.tune.ron")).ok(),
            Some(Path::new("presets/swap.scene.ron").to_path_buf())
        );
    }

    #[test]
    fn a_bad_goal_preference_or_scene_is_named() {
        let refused = |text: String| {
            TuneFile::from_ron(&text, "t.tune.ron")
                .expect_err("refused")
                .to_string()
        };
        let message = refused(FILE.replace("agent_overlaps <= 0", "overlaps <= 0"));
        assert!(
            message.contains("t.tune.ron: goals[1]: \"overlaps <= 0\": unknown metric"),
            "{message}"
        );
        let message = refused(FILE.replace("budget: 200", "budget: 200, prefer: \"fastest\""));
        assert!(
            message.contains("prefer: \"fastest\": expected closest"),
            "{message}"
        );
        let message = refused(FILE.replace("swap.scene.ron", "../swap.scene.ron"));
        assert!(message.contains("without `..`"), "{message}");
        let message = refused(FILE.replace("steergraph.tune", "steergraph.scene"));
        assert!(
            message.contains("expected a tuning problem file"),
            "{message}"
        );
        assert_eq!(
            "lowest:stuck_agents".parse(),
            Ok(Preference::Lowest(Metric::StuckAgents))
        );
    }

    /// A parameter written twice is refused where the second one starts (issue 46: the last
    /// silently won, while the CLI refuses a repeated `--param`).
    #[test]
    fn a_parameter_written_twice_is_refused_at_its_place() {
        let twice = FILE.replace(
            r#""horizon": (0.5, 4.0)}"#,
            r#""horizon": (0.5, 4.0), "speed": (1.0, 3.0)}"#,
        );
        let message = TuneFile::from_ron(&twice, "t.tune.ron")
            .expect_err("refused")
            .to_string();
        // Line 4 of the file, past the first two entries.
        assert!(
            message.starts_with("t.tune.ron:4:")
                && message.contains("the key `speed` appears twice"),
            "{message}"
        );
    }

    /// The scene named by a tune file may not lead out of its folder through a symbolic link,
    /// as a scene's graphs may not (issue 46: it was accepted).
    #[cfg(unix)]
    #[test]
    fn a_scene_linked_from_outside_the_folder_is_refused() {
        let root = std::env::temp_dir().join(format!("sg-tune-link-{}", std::process::id()));
        let (inside, outside) = (root.join("problems"), root.join("elsewhere"));
        std::fs::create_dir_all(&inside).expect("a folder");
        std::fs::create_dir_all(&outside).expect("a folder");
        std::fs::write(outside.join("swap.scene.ron"), "()").expect("a scene");
        let link = inside.join("swap.scene.ron");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(outside.join("swap.scene.ron"), &link).expect("a link");
        let file = TuneFile::from_ron(FILE, "t.tune.ron").expect("reads");
        let tune = inside.join("swap.tune.ron");
        let message = file.scene_path(&tune).expect_err("refused").to_string();
        assert!(
            message
                .contains("swap.tune.ron: scene \"swap.scene.ron\" is a symbolic link leading out"),
            "{message}"
        );
        // A link within the folder is fine.
        std::fs::write(inside.join("real.scene.ron"), "()").expect("a scene");
        std::fs::remove_file(&link).expect("unlinked");
        std::os::unix::fs::symlink(inside.join("real.scene.ron"), &link).expect("a link");
        assert_eq!(file.scene_path(&tune).ok(), Some(link));
        let _ = std::fs::remove_dir_all(&root);
    }
}
