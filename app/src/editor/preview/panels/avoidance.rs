//! A group's avoidance in the scene panel: its priority and the layers it is on and avoids
//! (`BEHAVIORS.md`, "Avoidance priority and layers").

use egui::Ui;
use graph_runtime::{AgentGroup, AvoidanceSettings, LAYERS, MAX_PRIORITY};

/// The "own avoidance" checkbox and, when checked, the priority and the two layer lists.
pub fn avoidance(ui: &mut Ui, group: &mut AgentGroup) {
    let mut custom = group.avoidance.is_some();
    if ui
        .checkbox(&mut custom, "own avoidance")
        .on_hover_text(
            "Priority (a higher one gives way less in Reciprocal) and layers (agents avoid only those on a layer of their mask)",
        )
        .changed()
    {
        group.avoidance = custom.then(AvoidanceSettings::default);
    }
    let Some(avoidance) = &mut group.avoidance else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::DragValue::new(&mut avoidance.priority)
                .range(1.0 / MAX_PRIORITY..=MAX_PRIORITY)
                .speed(0.05)
                .prefix("priority "),
        )
        .on_hover_text("Its share of each avoidance against priority q is q / (own + q)");
        layer_list(
            ui,
            "layers",
            &mut avoidance.layers,
            "The layers the agents are on",
        );
        layer_list(
            ui,
            "mask",
            &mut avoidance.mask,
            "The layers the agents avoid",
        );
    });
}

/// Layer numbers as text ("1, 2"); what is not a layer number (1 to 32) is left out.
fn layer_list(ui: &mut Ui, label: &str, layers: &mut Vec<u8>, hint: &str) {
    ui.label(label).on_hover_text(hint);
    let id = ui.id().with(label);
    let shown = layers
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let mut text: String = ui.data_mut(|d| d.get_temp(id)).unwrap_or(shown);
    let response = ui.add(
        egui::TextEdit::singleline(&mut text)
            .desired_width(48.0)
            .id(id),
    );
    if response.changed() {
        *layers = parse_layers(&text);
    }
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, text));
    } else {
        ui.data_mut(|d| d.remove::<String>(id));
    }
}

/// The layer numbers (1 to 32) of `text`, in order, each once.
pub fn parse_layers(text: &str) -> Vec<u8> {
    let mut layers = Vec::new();
    for layer in text
        .split([',', ' '])
        .filter_map(|n| n.trim().parse::<u8>().ok())
    {
        if (1..=LAYERS).contains(&layer) && !layers.contains(&layer) {
            layers.push(layer);
        }
    }
    layers
}

#[cfg(test)]
mod tests {
    use super::parse_layers;

    #[test]
    fn layer_lists_keep_the_layer_numbers_once_and_nothing_else() {
        assert_eq!(parse_layers("1, 2"), [1, 2]);
        assert_eq!(parse_layers("3 3,33, x, 0, 32"), [3, 32]);
        assert_eq!(parse_layers(""), Vec::<u8>::new());
    }
}
