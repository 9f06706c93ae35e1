//! The editor's view state: how the canvas, panels, boxes and windows stand. None of it is
//! saved in a file or taken back by undo.

use super::canvas::Canvas;
use super::dialogs::Dialog;
use super::find::Find;
use super::layout::Layout;
use super::sweep::SweepWindow;
use super::tune::TuneWindow;

/// How the editor's panels and windows stand.
#[derive(Default)]
pub struct ViewState {
    /// The graph canvas's view state.
    pub canvas: Canvas,
    /// Which of the side panel and the preview are open.
    pub layout: Layout,
    /// The find-node box (Ctrl+F).
    pub find: Find,
    /// Whether the shortcut sheet (F1) is open.
    pub shortcuts_open: bool,
    /// The open dialog, if any.
    pub dialog: Option<Dialog>,
    /// A replay given on the command line while the crash-recovery question was open: it
    /// opens once the question is answered (it would otherwise play behind the question, and
    /// Recover would then replace it).
    pub(super) replay_after_recovery: Option<std::path::PathBuf>,
    /// The sweep window of a graph parameter, when open.
    pub sweep: Option<SweepWindow>,
    /// The tune window, when open.
    pub tune: Option<TuneWindow>,
    /// The name typed in the side panel's new-parameter box.
    pub(super) new_parameter: String,
    /// The window title last sent, so it is sent again only when it changes.
    pub(super) title: String,
}
