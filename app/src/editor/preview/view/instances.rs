//! What the GPU needs to draw each agent (`gpu_agents.rs`): its position, heading, facing,
//! radius, lift and color, 36 bytes, in agent order. The shapes themselves (the triangle of
//! [`agent_mesh`](super::agent_mesh), the facing line and its dot) are made on the GPU from
//! these, so a frame's CPU work per agent is a copy of a few numbers.

use graph_runtime::Vehicle;

use super::View;
use super::jumps::{lifted, shown_facing};

/// One agent as the GPU draws it.
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct AgentInstance {
    /// World position (units).
    pub position: [f32; 2],
    /// Unit heading, world axes.
    pub forward: [f32; 2],
    /// Unit facing, world axes, where a facing line is drawn; zero where none is (facing
    /// kept with the heading, or less than 3° from it).
    pub facing: [f32; 2],
    /// Radius (units); drawn at least 3 points across, as the mesh draws it.
    pub radius: f32,
    /// How far up an agent in the air is drawn (screen points).
    pub lift: f32,
    /// Its group's color (sRGB bytes, as egui's colors are).
    pub color: [u8; 4],
}

/// The agents of `vehicles` as GPU instances, into `out` (cleared first): airborne agents
/// (`(agent, height)`, by agent) lifted as the viewport lifts them, colored by `group_of`.
/// Returns how many have a facing line.
pub fn agent_instances(
    view: &View,
    vehicles: &[Vehicle],
    airborne: &[(usize, f32)],
    group_of: impl Fn(usize) -> usize,
    out: &mut Vec<AgentInstance>,
) -> usize {
    out.clear();
    out.reserve(vehicles.len());
    let mut facings = 0;
    let mut flights = airborne.iter().peekable();
    for (agent, vehicle) in vehicles.iter().enumerate() {
        let mut lift = 0.0;
        while let Some(&&(flying, height)) = flights.peek() {
            if flying > agent {
                break;
            }
            if flying == agent {
                lift = -lifted(view, height).y;
            }
            flights.next();
        }
        let facing = shown_facing(vehicle).map_or([0.0; 2], |facing| {
            facings += 1;
            facing.to_array()
        });
        out.push(AgentInstance {
            position: vehicle.position.to_array(),
            forward: vehicle.forward.to_array(),
            facing,
            radius: vehicle.radius,
            lift,
            color: super::group_color(group_of(agent)).to_array(),
        });
    }
    facings
}

#[cfg(test)]
mod tests {
    use glam::Vec2;
    use graph_runtime::VehicleParams;

    use super::*;

    #[test]
    fn each_agent_is_its_position_heading_radius_lift_and_group_color() {
        let params = VehicleParams {
            radius: 0.5,
            ..VehicleParams::default()
        };
        let vehicles = [
            Vehicle::new(Vec2::new(1.0, 2.0), Vec2::new(3.0, 0.0), params),
            Vehicle::new(Vec2::new(-4.0, 0.5), Vec2::new(0.0, -2.0), params),
            Vehicle::new(Vec2::new(7.0, 7.0), Vec2::new(0.0, 1.0), params),
        ];
        let view = View {
            center: Vec2::ZERO,
            zoom: 10.0,
        };
        let mut out = vec![AgentInstance::default(); 9];
        // Agent 1 is 2 units up: lifted 2 * 10 points * 0.7 = 14 points.
        let facings = agent_instances(&view, &vehicles, &[(1, 2.0)], |a| a % 2, &mut out);
        assert_eq!(facings, 0);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].position, [1.0, 2.0]);
        assert_eq!(out[0].forward, [1.0, 0.0]);
        assert_eq!(out[1].forward, [0.0, -1.0]);
        assert_eq!(out[0].radius, 0.5);
        assert_eq!([out[0].lift, out[1].lift, out[2].lift], [0.0, 14.0, 0.0]);
        assert_eq!(out[0].facing, [0.0, 0.0]);
        assert_eq!(out[0].color, super::super::group_color(0).to_array());
        assert_eq!(out[1].color, super::super::group_color(1).to_array());
        assert_eq!(out[2].color, out[0].color);
    }

    #[test]
    fn a_facing_line_only_where_the_facing_turned_away_from_the_heading() {
        // Moving east; the first faces north (90° away), the second 2° off east (not shown).
        let facing = |degrees: f32| {
            let mut vehicle =
                Vehicle::new(Vec2::ZERO, Vec2::new(1.0, 0.0), VehicleParams::default());
            vehicle.turning.independent_facing = true;
            vehicle.orientation = degrees.to_radians();
            vehicle
        };
        let (away, close) = (facing(90.0), facing(2.0));
        let mut out = Vec::new();
        let view = View::default();
        let facings = agent_instances(&view, &[away, close], &[], |_| 0, &mut out);
        assert_eq!(facings, 1);
        let north = out[0].facing;
        assert!(
            north[0].abs() < 1e-6 && (north[1] - 1.0).abs() < 1e-6,
            "{north:?}"
        );
        assert_eq!(out[1].facing, [0.0, 0.0]);
    }
}
