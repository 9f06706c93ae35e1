//! How pins and live values look: a shape and color per port type, and the selected agent's
//! value on a node.

use egui::Color32;
use egui_snarl::ui::{PinInfo, PinShape};
use graph_runtime::{Node, PortType};

/// Whether `node` is drawn as a Reroute's dot.
pub(super) fn is_reroute(node: &Node) -> bool {
    matches!(node, Node::Reroute { .. })
}

/// A Reroute's frame: round and tight around its dot and two pins.
pub(super) fn reroute_frame(frame: egui::Frame) -> egui::Frame {
    frame
        .inner_margin(egui::Margin::same(2))
        .corner_radius(egui::CornerRadius::same(9))
        .shadow(egui::Shadow::NONE)
}

/// A Reroute's style: no fold triangle, tight spacing.
pub(super) fn reroute_style(style: &mut egui::Style) {
    style.spacing.icon_width = 0.0;
    style.spacing.icon_width_inner = 0.0;
    style.spacing.item_spacing = egui::vec2(2.0, 0.0);
    style.spacing.interact_size.y = 10.0;
}

/// The dot in a Reroute's header, in its wire's color: drag it to move the Reroute, click it
/// to select it.
pub(super) fn reroute_handle(ui: &mut egui::Ui, port: PortType) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::click());
    ui.painter()
        .circle_filled(rect.center(), 4.0, port_color(port));
    response
}

/// The word beside a node's output pin: short, so nodes stay narrow (the pin's color and
/// shape say the type too; hovering the word says it in full).
pub(super) fn output_label(port: PortType) -> &'static str {
    match port {
        PortType::Steering => "force",
        PortType::Scalar => "value",
        PortType::Condition => "condition",
    }
}

/// The color of wires and pins carrying `port`.
pub fn port_color(port: PortType) -> Color32 {
    match port {
        PortType::Steering => Color32::from_rgb(236, 150, 52),
        PortType::Scalar => Color32::from_rgb(90, 190, 120),
        PortType::Condition => Color32::from_rgb(150, 120, 235),
    }
}

pub(super) fn pin(port: PortType) -> PinInfo {
    let shape = match port {
        PortType::Steering => PinShape::Circle,
        PortType::Scalar => PinShape::Square,
        PortType::Condition => PinShape::Triangle,
    };
    PinInfo::default()
        .with_shape(shape)
        .with_fill(port_color(port))
        .with_wire_color(port_color(port))
}

/// The live value shown on a node for the selected agent.
pub(super) fn live_value(entry: &graph_runtime::TraceEntry) -> egui::RichText {
    let text = match entry.value {
        graph_runtime::NodeValue::Force(force) => match entry.chosen {
            Some(input) => format!("|F| {:.2} from input {}", force.length(), input + 1),
            None => format!("|F| {:.2}", force.length()),
        },
        graph_runtime::NodeValue::Steering(steering) => {
            let turn = steering.angular.to_degrees();
            match entry.chosen {
                Some(input) => format!(
                    "|F| {:.2} τ {turn:+.0}°/s² from input {}",
                    steering.force.length(),
                    input + 1
                ),
                None => format!("|F| {:.2} τ {turn:+.0}°/s²", steering.force.length()),
            }
        }
        graph_runtime::NodeValue::Scalar(value) => format!("= {value:.2}"),
        graph_runtime::NodeValue::Condition(holds) => {
            if holds { "= holds" } else { "= fails" }.to_owned()
        }
    };
    egui::RichText::new(text)
        .color(Color32::from_rgb(140, 210, 255))
        .small()
}
