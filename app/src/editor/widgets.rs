//! Small widgets several panels share.

use egui::{Id, Key, Ui};

/// A one-line text field that edits `current` and hands back the new text once, when the
/// user is done (Enter or clicking elsewhere), not at every keystroke: one rename is one
/// change and one undo step. Escape puts the text back. Returns the trimmed new text when it
/// differs from `current`, with the field's response.
pub fn committed_text(
    ui: &mut Ui,
    id: Id,
    current: &str,
    width: f32,
) -> (egui::Response, Option<String>) {
    let mut text = ui.data_mut(|d| d.get_temp::<String>(id));
    let editing = ui.memory(|m| m.has_focus(id));
    let buffer = text.get_or_insert_with(|| current.to_owned());
    if !editing {
        // Renamed elsewhere (undo, another panel): show what is there now.
        current.clone_into(buffer);
    }
    let response = ui.add(
        egui::TextEdit::singleline(buffer)
            .id(id)
            .desired_width(width),
    );
    let mut committed = None;
    if response.lost_focus() {
        let trimmed = buffer.trim();
        if ui.input(|i| i.key_pressed(Key::Escape)) || trimmed.is_empty() {
            current.clone_into(buffer);
        } else if trimmed != current {
            committed = Some(trimmed.to_owned());
        }
    }
    ui.data_mut(|d| d.insert_temp(id, buffer.clone()));
    (response, committed)
}

/// The legend every plot of the editor draws: small words on a see-through ground, so that
/// the lines show through it and beside it (in body-sized words on the default ground, the
/// preview's six entries covered all of a plot 120 points high in a 1280 × 720 window, and
/// the sweep's hid its last value). A click on an entry still hides its line.
pub fn plot_legend() -> egui_plot::Legend {
    egui_plot::Legend::default()
        .text_style(egui::TextStyle::Small)
        .background_alpha(0.4)
}
