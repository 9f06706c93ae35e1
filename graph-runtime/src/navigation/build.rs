//! Building a navigation mesh: the world's bounds, walls, obstacles and gaps grown by the agent
//! radius, triangulated with their edges kept (spade's constrained Delaunay triangulation,
//! crossing edges split), and the triangles outside every grown shape kept, each with its
//! neighbours and its island.

use std::cell::Cell;
use std::panic::AssertUnwindSafe;

use glam::{DVec2, Vec2};
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use super::grid::CellIndex;
use super::landmarks::Landmarks;
use super::shapes::{self, Shape};
use super::{MIN_CLEARANCE, NONE, NavError, NavLink, NavMesh, NavTriangle};
use crate::World;
use crate::limits::MAX_NAV_SEGMENTS;

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// The mesh of `world` for agents of `radius`.
pub(super) fn build(world: &World, radius: f32) -> Result<NavMesh, NavError> {
    if !(0.0..=crate::limits::MAX_COORDINATE).contains(&radius) {
        return Err(NavError::Radius(radius));
    }
    let clearance = f64::from(radius.max(MIN_CLEARANCE));
    let bounds = world.bounds;
    if !(bounds.min.is_finite() && bounds.max.is_finite()) {
        return Err(NavError::NotFinite("the bounds"));
    }
    let low = bounds.min.as_dvec2() + clearance;
    let high = bounds.max.as_dvec2() - clearance;
    if low.x >= high.x || low.y >= high.y {
        return Err(NavError::BoundsTooSmall {
            width: bounds.size().x,
            height: bounds.size().y,
            radius,
        });
    }
    let segments = world
        .walls()
        .iter()
        .map(|w| w.segments().count())
        .sum::<usize>()
        + world.gaps().iter().map(|g| g.points.len()).sum::<usize>()
        + world.obstacles.len();
    if segments > MAX_NAV_SEGMENTS {
        return Err(NavError::TooLarge {
            segments,
            limit: MAX_NAV_SEGMENTS,
        });
    }
    let shapes = grown_shapes(world, clearance, low, high)?;
    let cdt = triangulate_guarded(&shapes, low, high)?;
    let boxes: Vec<_> = shapes.iter().map(Shape::bounds).collect();
    let index = CellIndex::new(&boxes, low, high);
    let (vertices, triangles) = walkable_triangles(&cdt, &shapes, &index, low, high);
    let mut mesh = NavMesh::assemble(radius, vertices, triangles, (low, high));
    mesh.links = links(world, &mesh);
    mesh.landmarks = Landmarks::new(&mesh);
    Ok(mesh)
}

/// Every wall segment's band, each gap's inside and band, each obstacle's disc, all grown by
/// `clearance`; shapes wholly outside the walkable rectangle `low`–`high` are left out.
fn grown_shapes(
    world: &World,
    clearance: f64,
    low: DVec2,
    high: DVec2,
) -> Result<Vec<Shape>, NavError> {
    let mut shapes = Vec::new();
    for wall in world.walls() {
        for (a, b) in wall.segments() {
            shapes.push(Shape::band(a.as_dvec2(), b.as_dvec2(), clearance));
        }
    }
    for gap in world.gaps() {
        let corners: Vec<_> = gap.points.iter().map(|p| p.as_dvec2()).collect();
        for (a, b) in gap.edges() {
            shapes.push(Shape::band(a.as_dvec2(), b.as_dvec2(), clearance));
        }
        if corners.len() >= 3 {
            shapes.push(Shape::Area(gap.clone(), corners));
        }
    }
    for obstacle in &world.obstacles {
        let grown = f64::from(obstacle.radius.max(0.0)) + clearance;
        shapes.push(Shape::disc(obstacle.center.as_dvec2(), grown));
    }
    if shapes
        .iter()
        .any(|shape| !shape.corners().iter().all(|c| c.is_finite()))
    {
        return Err(NavError::NotFinite("a wall, gap or obstacle"));
    }
    shapes.retain(|shape| {
        let (lo, hi) = shape.bounds();
        lo.x < high.x && lo.y < high.y && hi.x > low.x && hi.y > low.y
    });
    Ok(shapes)
}

/// [`triangulate`], with a panic inside the triangulation library (spade's constraint
/// splitting has failed on nearly coinciding edges: its issues 107, 111 and 116, and issue 46's
/// heaps of overlapping walls here) turned into [`NavError::Degenerate`] naming where: the
/// middle of the shape being added. (A build with `panic = "abort"` aborts there instead.)
fn triangulate_guarded(shapes: &[Shape], low: DVec2, high: DVec2) -> Result<Cdt, NavError> {
    let adding = Cell::new(None);
    let built = guarded(|| triangulate(shapes, low, high, &adding));
    built.unwrap_or_else(|()| {
        let (lo, hi) = adding
            .get()
            .and_then(|index: usize| shapes.get(index))
            .map_or((low, high), Shape::bounds);
        let middle = ((lo + hi) * 0.5).as_vec2();
        Err(NavError::Degenerate {
            x: middle.x,
            y: middle.y,
        })
    })
}

thread_local! {
    /// Whether this thread runs a call [`guarded`] catches a panic of.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
}

/// `f`'s result, or `Err(())` when it panicked: the panic is caught here and becomes the
/// caller's error. While `f` runs, [`in_guarded_call`] is true on this thread, so that a
/// panic hook can keep quiet about a panic that is no failure of the program.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, ()> {
    let before = GUARDED.replace(true);
    let result = std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|_| ());
    GUARDED.set(before);
    result
}

/// Whether this thread is inside a call the runtime guards against a panic of a library it
/// uses (the navigation mesh's triangulation, [`NavMesh::build`]): such a panic is caught and
/// becomes an error that says where ([`NavError::Degenerate`]). A panic hook (the `steergraph`
/// binary installs one) can keep quiet about it instead of printing it as a crash, then the
/// error is reported as any other.
pub fn in_guarded_call() -> bool {
    GUARDED.get()
}

/// Installs, once for the process, a panic hook that keeps quiet about the panics the runtime
/// catches itself ([`in_guarded_call`]) and hands every other panic to the hook that was
/// there before: what the `steergraph` binary and the C library do, so that a caught
/// triangulation bug is reported only as its error. The runtime never installs it on its
/// own (a game keeps its own hook; it may call this, or test [`in_guarded_call`] in its hook).
pub fn quiet_caught_panics() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !in_guarded_call() {
                before(info);
            }
        }));
    });
}

/// The triangulation of the walkable rectangle with every shape's edges kept; `adding` holds
/// the index of the shape whose edges are being added (`None` for the rectangle).
fn triangulate(
    shapes: &[Shape],
    low: DVec2,
    high: DVec2,
    adding: &Cell<Option<usize>>,
) -> Result<Cdt, NavError> {
    let mut cdt = Cdt::new();
    let rectangle = [
        low,
        DVec2::new(high.x, low.y),
        high,
        DVec2::new(low.x, high.y),
    ];
    let outline = std::iter::once((None, &rectangle[..]))
        .chain((0..).map(Some).zip(shapes.iter().map(Shape::corners)));
    for (index, corners) in outline {
        adding.set(index);
        let handles = corners
            .iter()
            .map(|c| cdt.insert(Point2::new(c.x, c.y)))
            .collect::<Result<Vec<FixedVertexHandle>, _>>()
            .map_err(|e| NavError::Triangulation(e.to_string()))?;
        for (i, &from) in handles.iter().enumerate() {
            let to = handles[(i + 1) % handles.len()];
            if from != to {
                cdt.add_constraint_and_split(from, to, |p| p);
            }
        }
    }
    Ok(cdt)
}

/// The triangles of `cdt` inside the walkable rectangle and outside every shape: their corners
/// (numbered in the order the triangles first use them) and the triangles, counter-clockwise,
/// with their neighbours among the kept ones, numbered along a Z-order curve by their centres.
fn walkable_triangles(
    cdt: &Cdt,
    shapes: &[Shape],
    index: &CellIndex,
    low: DVec2,
    high: DVec2,
) -> (Vec<Vec2>, Vec<NavTriangle>) {
    let faces = cdt.num_all_faces();
    let mut kept = vec![NONE; faces];
    let mut order = Vec::new();
    for face in cdt.inner_faces() {
        let corners = face.positions().map(|p| DVec2::new(p.x, p.y));
        let centre = (corners[0] + corners[1] + corners[2]) / 3.0;
        let inside = centre.x > low.x && centre.x < high.x && centre.y > low.y && centre.y < high.y;
        if inside && !shapes::blocked(shapes, index, centre) {
            order.push((curve_key(centre, low, high), face));
        }
    }
    // Numbered along a space-filling curve: triangles near each other get near numbers, and so
    // do their crossings, so a route search's records of the places it expands share cache
    // lines (the faces come in the triangulation's order otherwise). Ties keep that order.
    order.sort_by_key(|&(key, face)| (key, face.fix().index()));
    for (number, (_, face)) in order.iter().enumerate() {
        kept[face.fix().index()] = number as u32;
    }
    let mut numbered = vec![NONE; cdt.num_vertices()];
    let mut vertices = Vec::new();
    let mut triangles = Vec::with_capacity(order.len());
    for (_, face) in order {
        let edges = face.adjacent_edges();
        let mut triangle = NavTriangle {
            corners: [0; 3],
            neighbors: [NONE; 3],
            island: NONE,
        };
        for (i, edge) in edges.iter().enumerate() {
            let from = edge.from();
            let slot = &mut numbered[from.fix().index()];
            if *slot == NONE {
                *slot = vertices.len() as u32;
                let p = from.position();
                vertices.push(Vec2::new(p.x as f32, p.y as f32));
            }
            triangle.corners[i] = *slot;
            triangle.neighbors[i] = edge
                .rev()
                .face()
                .as_inner()
                .map_or(NONE, |f| kept[f.fix().index()]);
        }
        triangles.push(triangle);
    }
    (vertices, triangles)
}

/// The world's jump links, each from the triangle at its take-off (or the nearest) to the one
/// at its landing, in the world's order.
fn links(world: &World, mesh: &NavMesh) -> Vec<NavLink> {
    world
        .jump_links()
        .filter_map(|(_, link)| {
            let (from_triangle, from) = mesh.nearest(link.from, |_| true)?;
            let (to_triangle, to) = mesh.nearest(link.to, |_| true)?;
            Some(NavLink {
                from,
                to,
                from_triangle,
                to_triangle,
            })
        })
        .collect()
}

/// Where `point` lies along a Z-order curve over the rectangle `low`–`high` (16 bits of each
/// axis interleaved).
fn curve_key(point: DVec2, low: DVec2, high: DVec2) -> u32 {
    let cell = |v: f64, lo: f64, hi: f64| {
        let t = ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
        spread((t * f64::from(u16::MAX)) as u32)
    };
    cell(point.x, low.x, high.x) | (cell(point.y, low.y, high.y) << 1)
}

/// The low 16 bits of `v` moved to the even bits.
fn spread(v: u32) -> u32 {
    let mut v = v & 0xFFFF;
    v = (v | (v << 8)) & 0x00FF_00FF;
    v = (v | (v << 4)) & 0x0F0F_0F0F;
    v = (v | (v << 2)) & 0x3333_3333;
    (v | (v << 1)) & 0x5555_5555
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_interleaves_the_axes_x_in_the_even_bits() {
        assert_eq!(spread(0b1011), 0b0100_0101);
        assert_eq!(spread(0xFFFF), 0x5555_5555);
        // Bits above the 16th are dropped.
        assert_eq!(spread(0x1_0001), 1);
        let (low, high) = (DVec2::ZERO, DVec2::new(10.0, 20.0));
        assert_eq!(curve_key(low, low, high), 0);
        assert_eq!(curve_key(high, low, high), u32::MAX);
        assert_eq!(curve_key(DVec2::new(10.0, 0.0), low, high), 0x5555_5555);
        assert_eq!(curve_key(DVec2::new(0.0, 20.0), low, high), 0xAAAA_AAAA);
        // The middle: 32767 on each axis (0.5 × 65535, cut), 0x7FFF spread and interleaved.
        assert_eq!(curve_key(DVec2::new(5.0, 10.0), low, high), 0x3FFF_FFFF);
        // Outside the rectangle counts as its edge; not a number as its low corner.
        assert_eq!(curve_key(DVec2::new(-5.0, 99.0), low, high), 0xAAAA_AAAA);
        assert_eq!(curve_key(DVec2::NAN, low, high), 0);
    }

    #[test]
    fn a_guarded_call_catches_its_panic_and_says_it_is_guarded_while_it_runs() {
        assert!(!in_guarded_call());
        assert_eq!(guarded(in_guarded_call), Ok(true));
        // `resume_unwind` panics without calling the panic hook: the test prints nothing.
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let result = {
            let seen = std::sync::Arc::clone(&seen);
            guarded(move || {
                seen.store(in_guarded_call(), std::sync::atomic::Ordering::Relaxed);
                std::panic::resume_unwind(Box::new("a library's bug"))
            })
        };
        assert_eq!(result, Err::<(), ()>(()));
        assert!(seen.load(std::sync::atomic::Ordering::Relaxed));
        assert!(!in_guarded_call(), "false again after the panic");
    }

    #[test]
    fn the_quiet_hook_passes_over_a_caught_panic_and_hands_on_every_other() {
        thread_local! {
            /// Panics the hook under it saw on this thread (tests run side by side).
            static SEEN: Cell<u32> = const { Cell::new(0) };
        }
        let original = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| SEEN.set(SEEN.get() + 1)));
        quiet_caught_panics();
        quiet_caught_panics();
        let caught = guarded(|| panic!("a library's bug"));
        assert_eq!(caught, Err::<(), ()>(()));
        assert_eq!(SEEN.get(), 0, "quiet about the caught panic");
        let other = std::panic::catch_unwind(|| panic!("any other panic"));
        assert!(other.is_err());
        assert_eq!(
            SEEN.get(),
            1,
            "handed on once, however often it was installed"
        );
        std::panic::set_hook(original);
    }
}
