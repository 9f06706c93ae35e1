//! Flow-field editing: strokes reach every cell they cross and nothing else, erase and smooth
//! do what they say, generators lead around obstacles, and edited fields save exactly.

use glam::Vec2;
use graph_runtime::{Brush, FlowField, Obstacle, StrokeKind, Wall, WallIndex};

const HARD: Brush = Brush {
    radius: 1.0,
    strength: 1.0,
    softness: 0.0,
};

/// 20 × 10 cells of 1 unit from the origin: cell (c, r) has its centre at (c + 0.5, r + 0.5).
fn field() -> FlowField {
    FlowField::new(Vec2::ZERO, 1.0, 20, 10)
}

#[test]
fn a_straight_fast_stroke_sets_exactly_the_cells_it_crosses() {
    let mut f = field();
    // One segment in one go (a fast mouse): y = 5.5 from x = 2.5 to x = 15.5.
    assert!(f.stroke(
        StrokeKind::Paint,
        Vec2::new(2.5, 5.5),
        Vec2::new(15.5, 5.5),
        &HARD
    ));
    for row in 0..10 {
        for column in 0..20 {
            let centre = f.cell_center(column, row);
            // Distance from the centre to the segment, worked out by hand.
            let dx = (2.5 - centre.x).max(centre.x - 15.5).max(0.0);
            let dy = centre.y - 5.5;
            let inside = (dx * dx + dy * dy).sqrt() <= 1.0;
            let value = f.cell(column, row).expect("cell");
            if inside {
                assert!(
                    (value - Vec2::X).length() < 1e-6,
                    "({column}, {row}) = {value}"
                );
            } else {
                assert_eq!(value, Vec2::ZERO, "({column}, {row}) untouched");
            }
        }
    }
    // Rows 4, 5, 6 from column 2 to 15 are painted: 3 × 14 cells, plus the end caps (1, 5)
    // and (16, 5) at distance exactly 1.
    assert_eq!(
        f.vectors.iter().filter(|v| **v != Vec2::ZERO).count(),
        3 * 14 + 2
    );
}

#[test]
fn a_diagonal_stroke_paints_its_direction_and_a_soft_brush_fades() {
    let mut f = field();
    let soft = Brush {
        radius: 2.0,
        strength: 0.5,
        softness: 1.0,
    };
    f.stroke(
        StrokeKind::Paint,
        Vec2::new(3.5, 1.5),
        Vec2::new(8.5, 6.5),
        &soft,
    );
    let diagonal = Vec2::new(1.0, 1.0).normalize();
    // On the stroke: half strength towards the diagonal.
    let on = f.cell(5, 3).expect("cell");
    assert!((on - diagonal * 0.5).length() < 1e-5, "{on}");
    // Near the edge: weaker than on the stroke, same direction.
    let near = f.cell(6, 2).expect("cell");
    assert!(near.length() < on.length() && near.length() > 0.0);
    assert!(near.normalize().dot(diagonal) > 0.999);
}

#[test]
fn a_stroke_without_length_paints_nothing() {
    let mut f = field();
    assert!(!f.stroke(
        StrokeKind::Paint,
        Vec2::new(5.0, 5.0),
        Vec2::new(5.0, 5.0),
        &HARD
    ));
    assert!(f.vectors.iter().all(|v| *v == Vec2::ZERO));
}

#[test]
fn erase_fades_the_cells_under_the_stroke_to_zero_and_leaves_the_rest() {
    let mut f = field();
    f.fill(Vec2::Y);
    f.stroke(
        StrokeKind::Erase,
        Vec2::new(10.5, 0.0),
        Vec2::new(10.5, 10.0),
        &HARD,
    );
    for row in 0..10 {
        assert_eq!(f.cell(10, row), Some(Vec2::ZERO));
        assert_eq!(
            f.cell(9, row),
            Some(Vec2::ZERO),
            "distance 1: inside the hard brush"
        );
        assert_eq!(f.cell(12, row), Some(Vec2::Y), "distance 2: untouched");
    }
    let half = Brush {
        strength: 0.5,
        ..HARD
    };
    f.fill(Vec2::Y);
    f.stroke(
        StrokeKind::Erase,
        Vec2::new(10.5, 0.0),
        Vec2::new(10.5, 10.0),
        &half,
    );
    assert_eq!(f.cell(10, 4), Some(Vec2::new(0.0, 0.5)));
}

#[test]
fn smooth_averages_each_cell_with_its_neighbors() {
    let mut f = field();
    *f.cell_mut(5, 5).expect("cell") = Vec2::X;
    f.stroke(
        StrokeKind::Smooth,
        Vec2::new(5.5, 5.5),
        Vec2::new(5.6, 5.5),
        &HARD,
    );
    // Every cell within the brush takes the mean of its 3 × 3 block of the field before the
    // stroke: the lone vector is spread as 1/9 over its neighbors.
    assert!((f.cell(5, 5).expect("cell") - Vec2::X / 9.0).length() < 1e-6);
    assert!((f.cell(6, 5).expect("cell") - Vec2::X / 9.0).length() < 1e-6);
    assert_eq!(f.cell(8, 5), Some(Vec2::ZERO), "outside the brush");
    // The sum is kept where the whole spread lies inside the brush.
    let total: Vec2 = f.vectors.iter().copied().sum();
    assert!(total.x <= 1.0 + 1e-5);
}

#[test]
fn fill_and_clear_set_every_cell_and_vectors_stay_within_unit_length() {
    let mut f = field();
    f.fill(Vec2::new(3.0, 4.0));
    assert!(
        f.vectors
            .iter()
            .all(|v| (*v - Vec2::new(0.6, 0.8)).length() < 1e-6)
    );
    f.clear();
    assert!(f.vectors.iter().all(|v| *v == Vec2::ZERO));
}

#[test]
fn the_generated_field_leads_around_an_obstacle_to_the_target() {
    // A wall of obstacles between x = 9 and 11 with a gap at the top.
    let obstacles: Vec<Obstacle> = (0..7)
        .map(|i| Obstacle {
            center: Vec2::new(10.0, i as f32 + 0.5),
            radius: 0.8,
        })
        .collect();
    let mut f = field();
    let target = Vec2::new(17.5, 2.5);
    let reachable = f.generate_toward(target, &obstacles, 0.0);
    assert!(reachable > 150, "{reachable}");
    // Blocked cells are zero.
    assert_eq!(f.cell(9, 3), Some(Vec2::ZERO));
    // Following the arrows cell by cell from the far side reaches the target through the gap.
    let mut at = (2u32, 2u32);
    let mut went_above_wall = false;
    for _ in 0..200 {
        if at == (17, 2) {
            break;
        }
        let v = f.cell(at.0, at.1).expect("cell");
        assert!(v.length() > 0.5, "cell {at:?} has a direction");
        at = (
            (at.0 as f32 + v.x.round()) as u32,
            (at.1 as f32 + v.y.round()) as u32,
        );
        went_above_wall |= at.1 >= 7;
    }
    assert_eq!(at, (17, 2), "the arrows lead to the target's cell");
    assert!(went_above_wall, "around the wall, through the gap");
}

#[test]
fn repulsion_pushes_away_from_obstacle_edges_and_fades_with_distance() {
    let mut f = field();
    let obstacles = [Obstacle {
        center: Vec2::new(10.0, 5.0),
        radius: 2.0,
    }];
    f.add_repulsion(&obstacles, 2.0, 1.0);
    let near = f.cell(12, 4).expect("cell"); // centre (12.5, 4.5): gap ≈ 0.55
    let far = f.cell(18, 5).expect("cell"); // gap 6.5: beyond range
    assert!(near.x > 0.5 && near.length() <= 1.0 + 1e-6);
    assert_eq!(far, Vec2::ZERO);
}

#[test]
fn an_edited_field_saves_and_loads_exactly() {
    let mut f = FlowField::covering(
        graph_runtime::Rect::new(Vec2::new(-5.0, -3.0), Vec2::new(5.0, 3.0)),
        0.5,
    );
    f.stroke(
        StrokeKind::Paint,
        Vec2::new(-4.0, -2.0),
        Vec2::new(3.7, 1.9),
        &Brush {
            radius: 1.3,
            strength: 0.7,
            softness: 0.6,
        },
    );
    f.stroke(
        StrokeKind::Smooth,
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.3),
        &Brush {
            radius: 2.0,
            strength: 0.5,
            softness: 0.5,
        },
    );
    let text = f.to_ron().expect("serializable");
    let back = FlowField::from_ron(&text, "edited.flow.ron").expect("loads");
    assert_eq!(back, f);
    assert_eq!(back.to_ron().expect("serializable"), text);
}

#[test]
fn a_large_field_is_written_as_packed_rows_and_loads_back_bit_exact() {
    let mut f = FlowField::new(Vec2::new(-8.0, 2.5), 0.25, 64, 48);
    for (index, v) in f.vectors.iter_mut().enumerate() {
        *v = Vec2::from_angle(index as f32 * 0.618_034) * 0.9;
    }
    let text = f.to_ron().expect("serializable");
    assert!(text.contains("packed_rows: ["), "a 64 x 48 field is packed");
    assert!(!text.contains("vectors:"));
    assert_eq!(
        text.lines().filter(|l| l.starts_with("        \"")).count(),
        48,
        "one string per row"
    );
    let back = FlowField::from_ron(&text, "big.flow.ron").expect("loads");
    assert_eq!(back, f);
    assert_eq!(back.to_ron().expect("serializable"), text);
}

#[test]
fn a_small_field_stays_readable_tuples() {
    let mut f = FlowField::new(Vec2::ZERO, 1.0, 4, 2);
    f.fill(Vec2::X);
    let text = f.to_ron().expect("serializable");
    assert!(
        text.contains("vectors: [") && text.contains("(1.0, 0.0)"),
        "{text}"
    );
    assert!(!text.contains("packed_rows"));
}

#[test]
fn bad_packed_rows_are_refused_with_the_row_named() {
    let header = "(format: \"steergraph.flow\", version: 1, origin: (0.0, 0.0), cell_size: 1.0, width: 2, height: 2, ";
    let error = |body: &str| {
        FlowField::from_ron(&format!("{header}{body})"), "bad.flow.ron")
            .expect_err("refused")
            .to_string()
    };
    // 2 vectors of (1, 0) as little-endian f32: 0000803F 00000000 0000803F 00000000.
    let row = "AACAPwAAAAAAAIA/AAAAAA==";
    assert!(
        FlowField::from_ron(
            &format!("{header}packed_rows: [\"{row}\", \"{row}\"])"),
            "ok"
        )
        .is_ok()
    );
    assert_eq!(
        error(&format!("packed_rows: [\"{row}\"]")),
        "bad.flow.ron: packed_rows has 1 rows, the field is 2 high"
    );
    assert!(
        error(&format!("packed_rows: [\"{row}\", \"not base64!\"]"))
            .starts_with("bad.flow.ron: packed_rows[1] is not base64")
    );
    assert_eq!(
        error(&format!("packed_rows: [\"{row}\", \"AACAPwAAAAA=\"]")),
        "bad.flow.ron: packed_rows[1] holds 1 vectors, the field is 2 wide"
    );
    assert_eq!(
        error(&format!(
            "vectors: [(1.0, 0.0), (1.0, 0.0), (1.0, 0.0), (1.0, 0.0)], packed_rows: [\"{row}\", \"{row}\"]"
        )),
        "bad.flow.ron: a field has either `vectors` or `packed_rows`, not both"
    );
}

/// 10 × 10 cells of 1 unit from the origin: cell (c, r) has its centre at (c + 0.5, r + 0.5).
fn small_field() -> FlowField {
    FlowField::new(Vec2::ZERO, 1.0, 10, 10)
}

fn index(walls: &[Wall]) -> WallIndex {
    WallIndex::new(walls)
}

#[test]
fn the_generated_field_leads_around_the_end_of_a_wall() {
    // A wall along x = 5.5 from below the field up to y = 7: it crosses column 5 (x in 5..6)
    // in rows 0 to 7 (row 7 only touches it at y = 7, and touching counts). The target is in
    // cell (8, 0), right of the wall.
    let walls = index(&[Wall::polyline(vec![
        Vec2::new(5.5, -1.0),
        Vec2::new(5.5, 7.0),
    ])]);
    let mut f = small_field();
    let crossed = f.wall_cells(&walls);
    let is_crossed = |c: usize, r: usize| crossed[r * 10 + c];
    assert!((0..=7).all(|r| is_crossed(5, r)));
    assert!(!is_crossed(5, 8) && !is_crossed(4, 3) && !is_crossed(6, 3));
    assert_eq!(crossed.iter().filter(|&&c| c).count(), 8);

    let target = Vec2::new(8.5, 0.5);
    let reachable = f.generate_toward_around(target, &[], &walls, 0.0);
    assert_eq!(reachable, 100 - 8);
    // Distances by hand (octile steps, √2 ≈ 1.414): right of the wall d(6, 8) = 6 + 2√2
    // = 8.83. (5, 8) cannot step diagonally to (6, 7) because (5, 7) beside that step is
    // blocked: d(5, 8) = 1 + d(6, 8) = 9.83. d(5, 9) = √2 + d(6, 8) = 10.24 (its other
    // moves, down to (5, 8) or right to (6, 9), cost 10.83). Left of the wall no diagonal
    // reaches (5, 8) from (4, 7) (again (5, 7) is beside it), so column 4 climbs to (4, 8):
    // d(4, 8) = 1 + d(5, 8) = 10.83 (via (5, 9): 11.66), and d(4, 0) = 8 + 10.83 = 18.83
    // going up; via (3, 1) it is √2 + (6 + √2 + 10.83) = 19.66.
    let up = Vec2::new(0.0, 1.0);
    let right = Vec2::new(1.0, 0.0);
    assert_eq!(f.cell(4, 0), Some(up), "left of the wall, the way is up");
    assert_eq!(f.cell(4, 7), Some(up));
    assert_eq!(f.cell(4, 8), Some(right), "above the wall's end, across");
    assert_eq!(f.cell(5, 8), Some(right));
    assert_eq!(
        f.cell(5, 9),
        Some(Vec2::new(1.0, -1.0).normalize()),
        "beyond the end, down the other side"
    );
    assert_eq!(f.cell(5, 3), Some(Vec2::ZERO), "a crossed cell is blocked");
    // Without the wall the same cell heads straight for the target.
    let mut open = small_field();
    open.generate_toward(target, &[], 0.0);
    assert_eq!(open.cell(4, 0), Some(right));
    // Following the arrows from (2, 0) reaches the target without a step crossing the wall.
    let mut at = (2_u32, 0_u32);
    for _ in 0..50 {
        if at == (8, 0) {
            break;
        }
        let v = f.cell(at.0, at.1).expect("cell");
        assert!(v.length() > 0.5, "cell {at:?} has a direction");
        let next = (
            (at.0 as f32 + v.x.round()) as u32,
            (at.1 as f32 + v.y.round()) as u32,
        );
        let (from, to) = (f.cell_center(at.0, at.1), f.cell_center(next.0, next.1));
        assert!(walls.ray_cast(from, to).is_none(), "{at:?} -> {next:?}");
        at = next;
    }
    assert_eq!(at, (8, 0));
}

#[test]
fn no_route_slips_diagonally_between_two_walls_touching_at_a_corner() {
    // Two L-shaped walls meeting at their corner (4.5, 4.5): the quarter up and left of it
    // touches the quarter down and right of it only at that point.
    let walls = index(&[
        Wall::polyline(vec![
            Vec2::new(0.0, 4.5),
            Vec2::new(4.5, 4.5),
            Vec2::new(4.5, 0.0),
        ]),
        Wall::polyline(vec![
            Vec2::new(4.5, 10.0),
            Vec2::new(4.5, 4.5),
            Vec2::new(10.0, 4.5),
        ]),
    ]);
    let mut f = small_field();
    // Column 4 and row 4 are crossed; the target's quarter is columns 0..=3, rows 5..=9.
    let reachable = f.generate_toward_around(Vec2::new(1.5, 8.5), &[], &walls, 0.0);
    assert_eq!(reachable, 4 * 5);
    for (c, r) in [(5, 3), (6, 2), (9, 0), (5, 5), (0, 0)] {
        assert_eq!(f.cell(c, r), Some(Vec2::ZERO), "cell ({c}, {r}) is cut off");
    }
    assert_eq!(
        f.cell(3, 5),
        Some(Vec2::new(-1.0, 1.0).normalize()),
        "the corner cell of the quarter heads into it"
    );
}

#[test]
fn repulsion_pushes_away_from_the_nearest_wall_point_within_range() {
    // A wall along y = 5; range 2, strength 0.8: a cell centre d away is pushed
    // 0.8 * (1 - d / 2) straight away from the wall.
    let walls = index(&[Wall::polyline(vec![
        Vec2::new(0.0, 5.0),
        Vec2::new(10.0, 5.0),
    ])]);
    let mut f = small_field();
    f.add_repulsion_from(&[], &walls, 2.0, 0.8);
    let close = |actual: Option<Vec2>, expected: Vec2| {
        let actual = actual.expect("cell");
        assert!(
            (actual - expected).length() < 1e-6,
            "{actual} != {expected}"
        );
    };
    close(f.cell(2, 4), Vec2::new(0.0, -0.6)); // (2.5, 4.5): 0.5 below
    close(f.cell(2, 6), Vec2::new(0.0, 0.2)); // (2.5, 6.5): 1.5 above
    close(f.cell(2, 7), Vec2::ZERO); // 2.5 above: beyond range
    // The old entry point has no walls.
    let mut plain = small_field();
    plain.add_repulsion(&[], 2.0, 0.8);
    assert!(plain.vectors.iter().all(|v| *v == Vec2::ZERO));
}
