//! File dialogs that always work: the desktop's native dialog (rfd) where one can be shown,
//! else an in-app dialog (egui-file-dialog), so opening and saving never fail silently.
//!
//! rfd reports a desktop without a file-chooser portal (and without zenity) the same way as
//! a cancel. A native dialog that "returns" faster than a person could cancel it was never
//! shown, so the in-app dialog opens instead, and stays the choice for the rest of the run.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_file_dialog::{DialogState, FileDialog, Filter, OpeningMode};

/// A native dialog answering faster than this was not shown to anyone.
const NOT_SHOWN: Duration = Duration::from_millis(250);

/// What a picked path is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Open a graph.
    OpenGraph,
    /// Save the graph under a new name, then carry on with the unsaved-changes flow if set.
    SaveGraph {
        /// Continue `Command::SaveAllThen` after saving.
        then: Option<super::Then>,
    },
    /// Export the graph for a game.
    Export,
    /// Open a scene in the preview.
    OpenScene,
    /// Open a replay file (`.sgrec`) and play it in the preview.
    OpenReplay,
    /// Save the preview's run as a replay file.
    SaveReplay,
    /// Save the scene under a new name.
    SaveScene {
        /// Continue `Command::SaveAllThen` after saving.
        then: Option<super::Then>,
    },
    /// Save the named flow field as its own file.
    SaveField(String),
    /// Load a flow-field file into the named field.
    LoadField(String),
    /// Write the selected nodes as a new subgraph file ("Collapse into subgraph").
    SaveSubgraph,
    /// Pick the graph file a Subgraph node uses.
    ChooseSubgraph(graph_runtime::NodeId),
}

impl Purpose {
    fn saves(&self) -> bool {
        matches!(
            self,
            Self::SaveGraph { .. }
                | Self::Export
                | Self::SaveScene { .. }
                | Self::SaveField(_)
                | Self::SaveSubgraph
                | Self::SaveReplay
        )
    }

    fn title(&self) -> &'static str {
        match self {
            Self::OpenGraph => "Open graph",
            Self::SaveGraph { .. } => "Save graph as",
            Self::Export => "Export for game",
            Self::OpenScene => "Open scene",
            Self::OpenReplay => "Open replay",
            Self::SaveReplay => "Save run as replay",
            Self::SaveScene { .. } => "Save scene as",
            Self::SaveField(_) => "Save flow field as",
            Self::LoadField(_) => "Load flow field",
            Self::SaveSubgraph => "Save the selection as a subgraph",
            Self::ChooseSubgraph(_) => "Use a graph file as this subgraph",
        }
    }

    /// The ending a saved file of this kind has (`.graph.ron`), added to a typed name that
    /// has no extension of its own.
    fn suffix(&self) -> Option<&'static str> {
        match self {
            Self::SaveGraph { .. } | Self::Export | Self::SaveSubgraph => Some(".graph.ron"),
            Self::SaveScene { .. } => Some(".scene.ron"),
            Self::SaveField(_) => Some(".flow.ron"),
            Self::SaveReplay => Some(".sgrec"),
            Self::OpenGraph
            | Self::OpenScene
            | Self::OpenReplay
            | Self::LoadField(_)
            | Self::ChooseSubgraph(_) => None,
        }
    }

    /// The filter's name and the ending of the files it shows: a dialog lists only files
    /// of the kind it opens or saves.
    fn filter(&self) -> (&'static str, &'static str) {
        match self {
            Self::OpenGraph
            | Self::SaveGraph { .. }
            | Self::Export
            | Self::SaveSubgraph
            | Self::ChooseSubgraph(_) => ("Steergraph graph (*.graph.ron)", "graph.ron"),
            Self::OpenScene | Self::SaveScene { .. } => {
                ("Steergraph scene (*.scene.ron)", "scene.ron")
            }
            Self::OpenReplay | Self::SaveReplay => ("Steergraph replay (*.sgrec)", "sgrec"),
            Self::SaveField(_) | Self::LoadField(_) => {
                ("Steergraph flow field (*.flow.ron)", "flow.ron")
            }
        }
    }
}

/// Which dialog to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The desktop's dialog, falling back to the in-app one when it cannot be shown.
    Native,
    /// Always the in-app dialog (tests; desktops without a portal; `STEERGRAPH_FILE_DIALOG=builtin`).
    InApp,
}

/// A request for a path: what it is for, a suggested file name and folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// What the path is for.
    pub purpose: Purpose,
    /// Suggested file name (save dialogs).
    pub file_name: String,
    /// Folder to start in.
    pub directory: Option<PathBuf>,
}

/// The editor's file dialogs.
pub struct FileDialogs {
    backend: Backend,
    in_app: FileDialog,
    pending: Option<Purpose>,
    default_directory: Option<PathBuf>,
}

impl FileDialogs {
    /// Dialogs of `backend`.
    pub fn new(backend: Backend) -> Self {
        Self {
            backend,
            in_app: in_app_dialog(),
            pending: None,
            default_directory: None,
        }
    }

    /// The backend the environment asks for: in-app with `STEERGRAPH_FILE_DIALOG=builtin`,
    /// else native (with the fallback).
    pub fn from_environment() -> Self {
        let in_app = std::env::var("STEERGRAPH_FILE_DIALOG").is_ok_and(|v| v == "builtin");
        Self::new(if in_app {
            Backend::InApp
        } else {
            Backend::Native
        })
    }

    /// The backend in use (it turns to in-app once a native dialog could not be shown).
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The folder to start in when a request names none (the working folder otherwise).
    pub fn set_default_directory(&mut self, directory: PathBuf) {
        self.default_directory = Some(directory);
    }

    /// Whether the in-app dialog is open.
    pub fn is_open(&self) -> bool {
        self.pending.is_some()
    }

    /// Asks for a path. Returns it at once when the native dialog answered; `None` when the
    /// user cancelled or the in-app dialog opened (its answer comes from [`Self::show`]).
    pub fn ask(&mut self, mut request: Request) -> Option<PathBuf> {
        if request.directory.is_none() {
            request.directory.clone_from(&self.default_directory);
        }
        if self.backend == Backend::Native {
            let started = Instant::now();
            let picked = native(&request);
            if picked.is_some() || started.elapsed() >= NOT_SHOWN {
                return picked;
            }
            self.backend = Backend::InApp;
        }
        self.open_in_app(request);
        None
    }

    fn open_in_app(&mut self, request: Request) {
        let (filter_name, ending) = request.purpose.filter();
        let config = self.in_app.config_mut();
        config.title = Some(request.purpose.title().to_owned());
        config.default_file_name = request.file_name;
        config.default_file_filter = Some(filter_name.to_owned());
        // The folder asked for (the graph's, the scene's), not wherever the last pick was.
        match request.directory.filter(|d| d.is_dir()) {
            Some(directory) => {
                config.initial_directory = directory;
                config.opening_mode = OpeningMode::AlwaysInitialDir;
            }
            None => config.opening_mode = OpeningMode::LastPickedDir,
        }
        if !config.file_filters.iter().any(|f| f.name == filter_name) {
            let suffix = format!(".{ending}");
            self.in_app = std::mem::replace(&mut self.in_app, in_app_dialog()).add_file_filter(
                filter_name,
                Filter::new(move |path: &Path| {
                    path.file_name()
                        .is_some_and(|n| n.to_string_lossy().ends_with(&suffix))
                }),
            );
            self.in_app.config_mut().default_file_filter = Some(filter_name.to_owned());
        }
        if request.purpose.saves() {
            self.in_app.save_file();
        } else {
            self.in_app.pick_file();
        }
        self.pending = Some(request.purpose);
    }

    /// Shows the in-app dialog if open; returns the purpose and path once the user picks.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<(Purpose, PathBuf)> {
        self.pending.as_ref()?;
        self.in_app.update(ctx);
        match self.in_app.state() {
            DialogState::Open => None,
            DialogState::Picked(_) => {
                let mut path = self.in_app.take_picked()?;
                let purpose = self.pending.take()?;
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                if let (Some(suffix), Some(name)) = (purpose.suffix(), name) {
                    path.set_file_name(with_ending(&name, suffix));
                }
                Some((purpose, path))
            }
            _ => {
                self.pending = None;
                None
            }
        }
    }
}

/// `name` with the kind's ending: typing over the suggested stem leaves `flock.ron`, and a
/// bare `flock` has none, both become `flock.graph.ron`; a name with an ending of its own
/// (`flock.graph.ron`, `level.v2.ron`, `notes.txt`) is kept.
fn with_ending(name: &str, suffix: &str) -> String {
    let stem = name.strip_suffix(".ron").unwrap_or(name);
    if name.ends_with(suffix) || stem.contains('.') {
        name.to_owned()
    } else {
        format!("{stem}{suffix}")
    }
}

/// The in-app dialog with plain labels (the default ones use emoji the UI font may lack).
fn in_app_dialog() -> FileDialog {
    let mut dialog = FileDialog::new()
        .id("steergraph-file-dialog")
        .default_size([720.0, 440.0]);
    let labels = dialog.labels_mut();
    "Open".clone_into(&mut labels.open_button);
    "Save".clone_into(&mut labels.save_button);
    "Cancel".clone_into(&mut labels.cancel_button);
    dialog
}

fn native(request: &Request) -> Option<PathBuf> {
    let (filter_name, ending) = request.purpose.filter();
    let mut dialog = rfd::FileDialog::new()
        .set_title(request.purpose.title())
        .add_filter(filter_name, &[ending]);
    if let Some(directory) = request.directory.as_deref().filter(|d| Path::is_dir(d)) {
        dialog = dialog.set_directory(directory);
    }
    if request.purpose.saves() {
        dialog.set_file_name(&request.file_name).save_file()
    } else {
        dialog.pick_file()
    }
}

#[cfg(test)]
mod tests {
    use super::with_ending;

    #[test]
    fn a_typed_name_gets_the_kind_s_ending_unless_it_has_its_own() {
        assert_eq!(with_ending("flock.ron", ".graph.ron"), "flock.graph.ron");
        assert_eq!(with_ending("flock", ".graph.ron"), "flock.graph.ron");
        assert_eq!(
            with_ending("flock.graph.ron", ".graph.ron"),
            "flock.graph.ron"
        );
        assert_eq!(with_ending("level.v2.ron", ".scene.ron"), "level.v2.ron");
        assert_eq!(with_ending("notes.txt", ".flow.ron"), "notes.txt");
    }
}
