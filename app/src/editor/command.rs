//! What the user can ask the editor to do. Menus, shortcuts, the node viewer, panels and
//! dialogs only push a [`Command`]; [`EditorApp::apply`] is the one place that changes state
//! (tests call it too).

use std::path::PathBuf;

use egui::Pos2;
use graph_runtime::{Node, NodeId, NodeKind};

use super::EditorApp;
use super::arrange::Arrange;
use super::effect::Effect;
use super::file_dialog::Purpose;
use super::history::Doc;
use super::inputs::InputEdit;

/// What to do once the user has dealt with unsaved changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    /// Start an empty graph.
    New,
    /// Open a file (`None`: ask with a dialog).
    Open(Option<PathBuf>),
    /// Open an embedded preset.
    Preset(usize),
    /// Open an embedded preset scene with its first group's graph.
    PresetScene(usize),
    /// Open the scene at this path with the graph its first group runs.
    Scene {
        /// The scene file.
        path: PathBuf,
        /// Whether its graph replaces the open graph (it is another file).
        replaces_graph: bool,
    },
    /// Open this replay file: its scene and graph as saved, the run playing.
    Replay(PathBuf),
    /// Edit the graph this group of the preview's scene runs (its file name), keeping the
    /// scene.
    GroupGraph(String),
    /// Close the window.
    Close,
    /// Return from the open subgraph to the graph it was opened from.
    Up,
}

/// The end of a wire dropped on empty space, to connect to a node added there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// The wire came from this node's output.
    FromOutput(NodeId),
    /// The wire came from this input of this node.
    IntoInput(NodeId, usize),
}

/// A request from the user.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start an empty graph (asking about unsaved work first).
    New,
    /// Open a graph with a file dialog (asking about unsaved work first).
    Open,
    /// Open this graph file (asking about unsaved work first).
    OpenPath(PathBuf),
    /// Open an embedded preset (asking about unsaved work first).
    OpenPreset(usize),
    /// Open an embedded preset scene and its graph (asking about unsaved work first).
    OpenPresetScene(usize),
    /// Save the graph where it is saved, else ask where.
    Save,
    /// Ask where, then save the graph.
    SaveAs,
    /// Save the graph at this path.
    SaveTo(PathBuf),
    /// Ask where, then export for a game.
    Export,
    /// Export for a game at this path.
    ExportTo(PathBuf),
    /// Open a scene with a file dialog, with the graph its first group runs.
    OpenScene,
    /// Open this scene with the graph its first group runs (asking about unsaved work first).
    OpenScenePath(PathBuf),
    /// Open a replay file (`.sgrec`) with a file dialog and play it.
    OpenReplay,
    /// Open this replay file and play it (asking about unsaved work first).
    OpenReplayPath(PathBuf),
    /// Ask where, then save the preview's run from tick 0 as a replay file, once proven
    /// (`replay_save.rs`).
    SaveRunAsReplay,
    /// Stop proving the run being saved as a replay; nothing is written.
    CancelRunSave,
    /// Edit the graph this group of the preview's scene runs, keeping the scene (asking about
    /// unsaved changes to the graph first).
    EditGroupGraph(String),
    /// Save the scene where it is saved, else ask where.
    SaveScene,
    /// Ask where, then save the scene.
    SaveSceneAs,
    /// Save the scene at this path.
    SaveSceneTo(PathBuf),
    /// Ask for a file with the file dialogs (a panel's button: save or load a flow field).
    Ask(Purpose),
    /// A file dialog answered.
    Picked(Purpose, PathBuf),
    /// Show this on the status line (a scene edit the preview refused, and why).
    Notice(String),
    /// Save whatever is unsaved (asking for names as needed), then do `Then`.
    SaveAllThen(Then),
    /// Drop unsaved work, then do `Then`.
    Discard(Then),
    /// Close the window (asking about unsaved work first).
    Quit,
    /// Take back the autosaved work offered at start-up.
    Recover,
    /// Delete the autosaved work offered at start-up.
    DiscardRecovered,
    /// Close the open message or question.
    CloseDialog,
    /// This file (the open graph's or scene's) changed on disk: reload the document, or ask
    /// when it has unsaved changes.
    ChangedOnDisk(PathBuf),
    /// Replace the document with what its file holds now (the graph's reload is undoable).
    ReloadFromDisk(Doc),
    /// Keep the document as it is although its file changed; saving will overwrite the file.
    KeepMine(Doc),
    /// Undo the last change, to the graph or the scene.
    Undo,
    /// Redo the last undone change.
    Redo,
    /// Copy the selection to the clipboard as graph RON.
    Copy,
    /// Copy, then delete the selection.
    Cut,
    /// Ask the system clipboard for its text (it arrives as a paste event).
    RequestPaste,
    /// Paste graph RON text, its top-left node at `at` (graph space) or beside the selection.
    Paste {
        /// The text.
        text: String,
        /// Where (graph space).
        at: Option<Pos2>,
    },
    /// Duplicate the selection.
    Duplicate,
    /// Mute the selected nodes, or unmute them when all are muted already.
    ToggleMute,
    /// Delete the selection.
    Delete,
    /// Select every node.
    SelectAll,
    /// Select nothing (a click on empty canvas, Esc).
    DeselectAll,
    /// Select `nodes` (added to the selection with `add`).
    Select {
        /// The nodes.
        nodes: Vec<NodeId>,
        /// Keep what was selected.
        add: bool,
    },
    /// Put a comment frame around the selection.
    CommentAroundSelection,
    /// Align, distribute or tidy the selected nodes (Tidy with fewer than two selected: all).
    Arrange(Arrange),
    /// Put the selected nodes into a new subgraph file and one Subgraph node in their place.
    CollapseToSubgraph,
    /// Pick the graph file a Subgraph node uses.
    ChooseSubgraphFile(NodeId),
    /// Open the file of this Subgraph node in context (at this path), keeping the graph.
    OpenSubgraph(NodeId, PathBuf),
    /// Return from the open subgraph this many levels up (asking about unsaved changes).
    GoUp(usize),
    /// Open the find-node box (Ctrl+F).
    OpenFind,
    /// Open or close the shortcut sheet (F1).
    ShowShortcuts,
    /// Hide or show the side panel.
    ToggleSidePanel,
    /// Hide or show the preview.
    TogglePreview,
    /// Hide both panels, or show both again (the canvas alone).
    ToggleCanvasOnly,
    /// Frame these nodes on the canvas (all when empty).
    Frame(Vec<NodeId>),
    /// Add a node of `kind` at `at` (graph space), wired to `wire` if set, and select it.
    AddNode {
        /// The kind.
        kind: NodeKind,
        /// Where (graph space).
        at: Pos2,
        /// A dropped wire to connect.
        wire: Option<Wire>,
    },
    /// Wire the output of `from` into input `input` of `to`.
    Connect {
        /// The feeding node.
        from: NodeId,
        /// The fed node.
        to: NodeId,
        /// Its input (0-based).
        input: usize,
    },
    /// Unwire input `input` of `to`.
    Disconnect {
        /// The node.
        to: NodeId,
        /// Its input (0-based).
        input: usize,
    },
    /// Replace a node's data (a field edited on the node or in the side panel).
    SetNode(NodeId, Node),
    /// Set a graph parameter's default (`None`: remove it).
    SetParameter(String, Option<f32>),
    /// Remove a graph parameter, asking first when fields use it.
    RemoveParameter(String),
    /// Rename a graph parameter and every use of it.
    RenameParameter {
        /// The name now.
        old: String,
        /// The new name.
        new: String,
    },
    /// Replace the graph's vehicle limits.
    SetVehicle(graph_runtime::VehicleSpec),
    /// Replace how the graph's vehicle turns.
    SetTurning(graph_runtime::TurningSpec),
    /// Replace the graph's description.
    SetDescription(String),
    /// Replace the graph's comment frames.
    SetComments(Vec<graph_runtime::Comment>),
    /// Add, remove or raise an input of a combiner.
    EditInputs(NodeId, InputEdit),
    /// Open the node search at this screen position.
    OpenSearch(Pos2),
    /// Open the sweep window of a graph parameter.
    OpenSweep(String),
    /// Run the sweep window's sweep over the preview's scene and the open graph.
    RunSweep,
    /// Stop the running sweep.
    CancelSweep,
    /// Close the sweep window (cancelling a sweep still running).
    CloseSweep,
    /// Open the tune window (this parameter alone ticked, or every one).
    OpenTune(Option<String>),
    /// Run the tune window's search over the preview's scene and the open graph.
    RunTune,
    /// Stop the running search.
    CancelTune,
    /// Set the best values found (one undo step).
    ApplyTune,
    /// Close the tune window (cancelling a search still running).
    CloseTune,
    /// Prove fixes for the preview's stuck agents, from this moment (the stuck panel).
    FindFixes,
    /// Apply the fix at this place of the stuck panel's list (one undo step).
    ApplyFix(usize),
}

impl EditorApp {
    /// Applies every queued command, in order, and returns what they asked of the clipboard
    /// and the window, in order.
    pub fn apply_queued(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        // A command may queue more (a save that continues the unsaved-changes flow).
        for _ in 0..16 {
            if self.queue.is_empty() {
                break;
            }
            for command in std::mem::take(&mut self.queue) {
                effects.extend(self.apply(command));
            }
        }
        effects
    }

    /// Queues `command` for the end of the frame.
    pub fn push(&mut self, command: Command) {
        self.queue.push(command);
    }

    /// Does what `command` asks to the editor's state, now, and returns what it asks of the
    /// clipboard and the window (the frame carries those out at its end).
    pub fn apply(&mut self, command: Command) -> Vec<Effect> {
        self.apply_to_state(command);
        std::mem::take(&mut self.effects)
    }

    fn apply_to_state(&mut self, command: Command) {
        match command {
            Command::New => self.guard(Then::New),
            Command::Open => self.guard(Then::Open(None)),
            Command::OpenPath(path) => self.guard(Then::Open(Some(path))),
            Command::OpenPreset(index) => self.guard(Then::Preset(index)),
            Command::OpenPresetScene(index) => self.guard(Then::PresetScene(index)),
            Command::Quit => self.guard(Then::Close),
            Command::Save => self.save(None),
            Command::SaveAs => self.ask(Purpose::SaveGraph { then: None }),
            Command::SaveTo(path) => {
                self.save_to(&path);
            }
            Command::Export => self.ask(Purpose::Export),
            Command::ExportTo(path) => {
                self.export_to(&path);
            }
            Command::OpenScene => self.ask(Purpose::OpenScene),
            Command::OpenScenePath(path) => {
                let replaces_graph = self.scene_replaces_graph(&path);
                self.guard(Then::Scene {
                    path,
                    replaces_graph,
                });
            }
            Command::OpenReplay => self.ask(Purpose::OpenReplay),
            Command::OpenReplayPath(path) => self.guard(Then::Replay(path)),
            Command::SaveRunAsReplay => self.save_run_as_replay(),
            Command::CancelRunSave => self.cancel_run_save(),
            Command::EditGroupGraph(graph) => self.guard(Then::GroupGraph(graph)),
            Command::SaveScene => self.save_scene(None),
            Command::SaveSceneAs => self.ask(Purpose::SaveScene { then: None }),
            Command::SaveSceneTo(path) => {
                self.save_scene_to(&path);
            }
            Command::Ask(purpose) => self.ask(purpose),
            Command::Picked(purpose, path) => self.picked(purpose, &path),
            Command::Notice(text) => self.status.set(text),
            Command::SaveAllThen(then) => self.save_all_then(then),
            Command::Discard(then) => self.discard_then(then),
            Command::Recover => self.recover(),
            Command::DiscardRecovered => self.discard_recovered(),
            Command::CloseDialog => {
                self.view.dialog = None;
                self.workspace.after_up = None;
                self.workspace.pending_up = 0;
            }
            Command::OpenSubgraph(node, path) => self.open_subgraph(node, &path),
            Command::GoUp(levels) => self.go_up(levels),
            Command::ChangedOnDisk(path) => self.file_changed(&path),
            Command::CollapseToSubgraph => self.collapse_selection(),
            Command::ChooseSubgraphFile(node) => self.ask(Purpose::ChooseSubgraph(node)),
            Command::ReloadFromDisk(doc) => self.reload(doc),
            Command::KeepMine(doc) => self.keep_mine(doc),
            Command::OpenSweep(parameter) => self.open_sweep(&parameter),
            Command::RunSweep => self.run_sweep(),
            Command::CancelSweep => self.cancel_sweep(),
            Command::CloseSweep => self.view.sweep = None,
            Command::OpenTune(parameter) => self.open_tune(parameter.as_deref()),
            Command::RunTune => self.run_tune(),
            Command::CancelTune => self.cancel_tune(),
            Command::ApplyTune => self.apply_tune(),
            Command::CloseTune => self.view.tune = None,
            Command::FindFixes => self.find_fixes(),
            Command::ApplyFix(index) => self.apply_fix(index),
            Command::OpenFind => {
                self.view.find.open = true;
                self.view.canvas.search_popup = None;
            }
            Command::ShowShortcuts => self.view.shortcuts_open = !self.view.shortcuts_open,
            Command::ToggleSidePanel => self.view.layout.side = !self.view.layout.side,
            Command::TogglePreview => self.view.layout.preview = !self.view.layout.preview,
            Command::ToggleCanvasOnly => self.view.layout.toggle_canvas_only(),
            command => self.apply_edit(command),
        }
    }
}
