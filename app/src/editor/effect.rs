//! What applying a command asks of the world outside the editor's state: the clipboard and
//! the window. [`EditorApp::apply`](super::EditorApp::apply) returns these effects and the
//! frame carries them out in one place at its end ([`carry_out`]), so no command reaches
//! into egui halfway through the frame, and a test can read what a command would have done.

/// One request to the clipboard or the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Put this text on the system clipboard (Copy, Cut).
    CopyText(String),
    /// Ask the system for its clipboard text; it arrives as a paste event next frame.
    RequestPaste,
    /// Close the window (every unsaved change has been saved or dropped by now).
    CloseWindow,
}

/// Carries out `effects`, in the order they were asked for.
pub fn carry_out(ctx: &egui::Context, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::CopyText(text) => ctx.copy_text(text),
            Effect::RequestPaste => ctx.send_viewport_cmd(egui::ViewportCommand::RequestPaste),
            Effect::CloseWindow => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }
}
