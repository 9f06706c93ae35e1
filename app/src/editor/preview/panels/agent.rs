//! The inspector of the selected agent, for the side panel.

use egui::Ui;

use super::super::Preview;
use crate::editor::status::plural;

impl Preview {
    /// Position, velocity, speed, heading, facing, steering, limits, jump phase and own points
    /// and routes of the selected agent.
    pub fn agent_inspector(&mut self, ui: &mut Ui) {
        let Some(simulation) = self.host.simulation.as_ref() else {
            if self.host.is_stepping() {
                ui.weak("A tick of this large crowd is running; the agent shows when it is done.");
            } else {
                ui.weak("The scene does not run.");
            }
            return;
        };
        let Some(agent) = self.host.selected_agent else {
            ui.weak("Click an agent in the preview to inspect it.");
            return;
        };
        let Some(vehicle) = simulation.vehicles().get(agent) else {
            return;
        };
        let group = simulation
            .group_of(agent)
            .and_then(|g| simulation.groups().get(g));
        ui.label(format!(
            "Agent {agent} of group \"{}\"",
            group.map_or("?", |g| g.name.as_str())
        ));
        let force = simulation.forces().get(agent).copied().unwrap_or_default();
        let rows = [
            (
                "position",
                format!("({:.2}, {:.2})", vehicle.position.x, vehicle.position.y),
            ),
            (
                "velocity",
                format!("({:.2}, {:.2})", vehicle.velocity.x, vehicle.velocity.y),
            ),
            (
                "speed",
                format!(
                    "{:.2} / {:.2} u/s",
                    vehicle.velocity.length(),
                    vehicle.max_speed
                ),
            ),
            (
                "heading",
                format!(
                    "{:.0}°",
                    vehicle.forward.y.atan2(vehicle.forward.x).to_degrees()
                ),
            ),
            (
                "steering",
                format!("{:.2} / {:.2}", force.length(), vehicle.max_force),
            ),
            (
                "mass, radius",
                format!("{:.2}, {:.2}", vehicle.mass, vehicle.radius),
            ),
        ];
        let own_rows = facing_rows(vehicle)
            .into_iter()
            .chain(jump_row(simulation, agent))
            .chain(own_rows(simulation.own(agent)))
            .chain(route_rows(simulation.routes(agent)))
            .chain(reciprocal_rows(&self.host.trace))
            .chain(stuck_row(simulation.stuck_for(agent)))
            .chain(stalled_row(self.host.stalled_for(agent)))
            .chain(ghost_row(&self.host, agent));
        let rows = rows
            .into_iter()
            .map(|(label, value)| (label.to_owned(), value))
            .chain(own_rows);
        // Values wrap at the panel's edge: a route's state ("following (3 corners, 6.2 u,
        // planned 2 times)") ran past it in a 1280-point window, seen only by scrolling.
        egui::Grid::new("agent").num_columns(2).show(ui, |ui| {
            for (label, value) in rows {
                ui.label(label);
                ui.add(egui::Label::new(value).wrap());
                ui.end_row();
            }
        });
        if ui.small_button("Deselect").clicked() {
            self.host.selected_agent = None;
        }
    }
}

/// The inspector's row saying how far the agent is from its ghost, while a fork shows the
/// run as it was.
fn ghost_row(host: &super::super::Host, agent: usize) -> Option<(String, String)> {
    let distance = host.ghost_distance(agent)?;
    let at = host.forked_at()? as f32 * host.tick_length();
    Some((
        "vs the run as it was".to_owned(),
        format!("{distance:.2} u from its ghost (forked at {at:.2} s)"),
    ))
}

/// The inspector's rows for an agent's facing: its orientation and angular velocity with
/// independent facing, and its turn-rate limit.
fn facing_rows(vehicle: &graph_runtime::Vehicle) -> Vec<(String, String)> {
    let turning = vehicle.turning;
    let mut rows = Vec::new();
    if turning.independent_facing {
        rows.push((
            "facing".to_owned(),
            format!("{:.0}° (independent)", vehicle.facing().to_degrees()),
        ));
        rows.push((
            "angular velocity".to_owned(),
            format!(
                "{:.0} / {:.0} °/s",
                vehicle.spin().to_degrees(),
                turning.max_angular_speed.to_degrees()
            ),
        ));
    }
    if turning.max_turn_rate.is_finite() {
        rows.push((
            "turn-rate limit".to_owned(),
            format!("{:.0} °/s", turning.max_turn_rate.to_degrees()),
        ));
    }
    rows
}

/// The inspector's row for an agent's jump phase, in a world with gaps or jump links.
fn jump_row(simulation: &graph_runtime::Simulation, agent: usize) -> Option<(String, String)> {
    if !simulation.world().has_jumps() {
        return None;
    }
    let phase = match simulation.motion(agent) {
        graph_runtime::Motion::Walking => "walking".to_owned(),
        graph_runtime::Motion::Airborne => simulation.flight(agent).map_or_else(
            || "in the air".to_owned(),
            |flight| {
                format!(
                    "in the air: height {:.2}, {:.2} s to land",
                    flight.height(),
                    (flight.flight_time - flight.elapsed).max(0.0)
                )
            },
        ),
        graph_runtime::Motion::Fallen => "fell into a gap".to_owned(),
    };
    Some(("jump".to_owned(), phase))
}

/// The inspector's rows for an agent's own points and routes.
fn own_rows(own: Option<&graph_runtime::OwnGoals>) -> Vec<(String, String)> {
    let Some(own) = own else {
        return Vec::new();
    };
    own.goals()
        .map(|(name, p)| {
            (
                format!("own \"{name}\""),
                format!("({:.2}, {:.2})", p.x, p.y),
            )
        })
        .chain(own.routes().map(|(name, route)| {
            (
                format!("own route \"{name}\""),
                crate::editor::status::plural(route.points.len(), "point"),
            )
        }))
        .collect()
}

/// The inspector's row saying how long the agent has made no progress, once that counts as
/// stuck ([`graph_runtime::STUCK_SECONDS`]).
fn stuck_row(clock: f32) -> Option<(String, String)> {
    graph_runtime::is_stuck(clock).then(|| {
        (
            "stuck".to_owned(),
            format!("for {clock:.1} s: wants to move, under 5 % of the speed it wants"),
        )
    })
}

/// The inspector's row saying how long the agent has come no closer to its goal, once that
/// counts as stalled ([`graph_runtime::STALLED_SECONDS`]).
fn stalled_row(stalled_for: Option<f32>) -> Option<(String, String)> {
    stalled_for.map(|seconds| {
        (
            "stalled".to_owned(),
            format!(
                "for {seconds:.1} s: no closer to its goal by a radius, and more than {} radii from it",
                graph_runtime::ARRIVAL_RADII
            ),
        )
    })
}

/// The inspector's rows for each Reciprocal node the agent evaluated: how many half-planes
/// bound its velocity, and whether none was left to meet them all (the fallback ran).
fn reciprocal_rows(trace: &graph_runtime::Trace) -> Vec<(String, String)> {
    trace
        .entries
        .iter()
        .filter_map(|entry| match entry.guide {
            graph_runtime::Guide::Reciprocal {
                total, fallback, ..
            } => Some((
                format!("Reciprocal #{}", entry.node.0),
                format!(
                    "{}{}",
                    crate::editor::status::plural(usize::from(total), "half-plane"),
                    if fallback { ", fallback ran" } else { "" }
                ),
            )),
            _ => None,
        })
        .collect()
}

/// The inspector's rows for an agent's routes (one per Navigate node): where each stands and
/// how long it is.
fn route_rows(routes: &[graph_runtime::RouteSlot]) -> Vec<(String, String)> {
    routes
        .iter()
        .enumerate()
        .map(|(index, slot)| {
            let label = if routes.len() == 1 {
                "route".to_owned()
            } else {
                format!("route {}", index + 1)
            };
            let route = slot.route();
            let status = match slot.status() {
                graph_runtime::RouteStatus::Waiting => "waiting for its first plan".to_owned(),
                graph_runtime::RouteStatus::NoNavigation => {
                    "no navigation mesh for this radius".to_owned()
                }
                status => format!(
                    "{} ({}, {:.1} u, planned {})",
                    match status {
                        graph_runtime::RouteStatus::Replanning => "re-planning",
                        graph_runtime::RouteStatus::Unreachable =>
                            "unreachable: to the nearest point",
                        _ => "following",
                    },
                    plural(route.points.len().saturating_sub(2), "corner"),
                    route.length(),
                    match slot.plans() {
                        1 => "once".to_owned(),
                        plans => format!("{plans} times"),
                    }
                ),
            };
            (label, status)
        })
        .collect()
}
