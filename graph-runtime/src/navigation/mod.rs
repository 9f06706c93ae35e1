//! Navigation: where an agent of a given radius can walk in a world, as a mesh of triangles,
//! and the shortest route along it from a point to a goal, through doors and round walls.
//!
//! [`NavMesh::build`] grows every wall segment, obstacle and gap by the radius (square ends on
//! walls, so the corner a route turns at is exactly a radius out and a radius past the wall's
//! end), triangulates what is left of the bounds (spade's constrained Delaunay triangulation)
//! and keeps each triangle's neighbours and island. [`NavMesh::route`] finds the corridor of
//! triangles (A* over them, with the world's jump links as one-way connections) and pulls it
//! tight into corner points (the funnel algorithm). A goal no walk reaches gives the nearest
//! point that one does, marked [`Reach::Nearest`].

mod build;
mod crowding;
mod funnel;
mod grid;
mod landmarks;
mod locate;
mod search;
mod shapes;

use std::sync::atomic::{AtomicU64, Ordering};

use glam::{DVec2, Vec2};

pub use build::{in_guarded_call, quiet_caught_panics};
pub use crowding::Crowding;
pub use search::RouteSearch;

use crate::World;
use grid::CellIndex;
use landmarks::Landmarks;

/// The least clearance kept from walls, also for agents of radius 0, so that a wall always
/// separates the triangles on its two sides.
pub const MIN_CLEARANCE: f32 = 1.0e-3;

/// No triangle, no neighbour.
const NONE: u32 = u32::MAX;

/// The number the next mesh made is given ([`NavMesh`]'s `id`).
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Why a navigation mesh could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NavError {
    /// The agent radius is negative, not finite or beyond the coordinate limit.
    #[error("the agent radius {0} is not a size (it must be finite and 0 or more)")]
    Radius(f32),
    /// A coordinate is NaN or infinite.
    #[error("{0} has a coordinate that is not a number")]
    NotFinite(&'static str),
    /// Nothing of the bounds is left once the radius is kept from their edges.
    #[error("the bounds ({width} × {height}) leave no room for an agent of radius {radius}")]
    BoundsTooSmall {
        /// The bounds' width.
        width: f32,
        /// The bounds' height.
        height: f32,
        /// The agent radius.
        radius: f32,
    },
    /// More wall segments, gap edges and obstacles than a mesh is built over.
    #[error(
        "the level has {segments} wall segments, gap edges and obstacles; navigation builds over at most {limit}"
    )]
    TooLarge {
        /// How many the world has.
        segments: usize,
        /// [`MAX_NAV_SEGMENTS`](crate::limits::MAX_NAV_SEGMENTS).
        limit: usize,
    },
    /// The triangulation refused a point.
    #[error("the navigation mesh could not be triangulated: {0}")]
    Triangulation(String),
    /// The triangulation library (spade) failed inside, on shapes that overlap or nearly
    /// coincide (a heap of walls along one line, the arms of a hair-thin wedge): the build
    /// stops with this rather than the library's panic.
    #[error(
        "the triangulation failed on walls, gaps or obstacles that overlap or nearly coincide near ({x:.2}, {y:.2}); separate or merge them"
    )]
    Degenerate {
        /// Where: the middle of the shape being added when it failed.
        x: f32,
        /// Where: the middle of the shape being added when it failed.
        y: f32,
    },
}

/// One walkable triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
struct NavTriangle {
    /// Corner indices, counter-clockwise.
    corners: [u32; 3],
    /// The walkable triangle across each edge (edge `i` runs from corner `i` to corner
    /// `i + 1`), or [`NONE`].
    neighbors: [u32; 3],
    /// Which island (triangles joined by edges) it is part of.
    island: u32,
}

/// An edge between two walkable triangles, where a route search crosses it: its middle, and
/// its two sides (each `triangle * 3 + edge`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Crossing {
    sides: [u32; 2],
    middle: Vec2,
}

impl Crossing {
    /// The side (`triangle * 3 + edge`) across from side `side`.
    fn other_side(&self, side: u32) -> u32 {
        if self.sides[0] == side {
            self.sides[1]
        } else {
            self.sides[0]
        }
    }

    /// Its side (`triangle * 3 + edge`) in triangle `triangle` (the second for any other).
    fn side_in(&self, triangle: u32) -> u32 {
        if self.sides[0] / 3 == triangle {
            self.sides[0]
        } else {
            self.sides[1]
        }
    }

    /// The triangle on the other side from `triangle` (the first side's for any other).
    fn across(&self, triangle: u32) -> u32 {
        self.other_side(self.side_in(triangle)) / 3
    }
}

/// A jump link on the mesh: a one-way connection from a take-off to a landing.
#[derive(Clone, Copy, Debug, PartialEq)]
struct NavLink {
    from: Vec2,
    to: Vec2,
    from_triangle: u32,
    to_triangle: u32,
}

/// Whether a route reaches its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// It ends at the goal (or within the agent's radius of it, for a goal against a wall).
    Goal,
    /// No walk reaches the goal (it is inside a wall, outside the bounds, or on an island no
    /// link leads to): the route ends at the nearest point one reaches.
    Nearest,
}

/// A route along a mesh: corner points from the start to the end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Route {
    /// From the start (moved onto the mesh if it was off it) to the end, each a corner the
    /// straight walk between them turns at.
    pub points: Vec<Vec2>,
    /// The indices `i` of `points` where the step to `points[i + 1]` is a jump link.
    pub jumps: Vec<usize>,
    /// Whether the end is the goal; `None` for a route that was never planned.
    pub reach: Option<Reach>,
    /// The edges it crosses between triangles, in order (each `triangle * 3 + edge`): what
    /// [`Crowding::along`] reads to find a door jammed after the route was planned.
    pub(crate) corridor: Vec<u32>,
}

impl Route {
    /// The length of the walk (jumps counted as the straight line they fly).
    pub fn length(&self) -> f32 {
        self.points.windows(2).map(|w| w[0].distance(w[1])).sum()
    }
}

/// Where agents of one radius can walk in a world.
#[derive(Debug)]
pub struct NavMesh {
    /// A number no other mesh made in this process has: a count kept for a mesh
    /// ([`Crowding`]) checks that it is still counting on the same one.
    id: u64,
    radius: f32,
    vertices: Vec<Vec2>,
    triangles: Vec<NavTriangle>,
    links: Vec<NavLink>,
    index: CellIndex,
    islands: usize,
    /// Every edge between two triangles, once.
    crossings: Vec<Crossing>,
    /// By `triangle * 3 + edge`: its crossing's number, or [`NONE`] on the mesh's border.
    crossing_of: Vec<u32>,
    /// The route search's estimate of the walk left (worked out once the links are placed).
    landmarks: Landmarks,
}

/// Two meshes are equal when they are the same places and links (made apart or not).
impl PartialEq for NavMesh {
    fn eq(&self, other: &Self) -> bool {
        let Self {
            id: _,
            radius,
            vertices,
            triangles,
            links,
            index,
            islands,
            crossings,
            crossing_of,
            landmarks,
        } = self;
        *radius == other.radius
            && *vertices == other.vertices
            && *triangles == other.triangles
            && *links == other.links
            && *index == other.index
            && *islands == other.islands
            && *crossings == other.crossings
            && *crossing_of == other.crossing_of
            && *landmarks == other.landmarks
    }
}

impl NavMesh {
    /// The mesh of `world` for agents of `radius`: its bounds, walls (open and closed), circle
    /// obstacles and gaps grown by the radius, and its jump links. Bounded: at most
    /// [`MAX_NAV_SEGMENTS`](crate::limits::MAX_NAV_SEGMENTS) wall segments, gap edges and obstacles.
    pub fn build(world: &World, radius: f32) -> Result<Self, NavError> {
        build::build(world, radius)
    }

    fn assemble(
        radius: f32,
        vertices: Vec<Vec2>,
        mut triangles: Vec<NavTriangle>,
        (low, high): (DVec2, DVec2),
    ) -> Self {
        let islands = number_islands(&mut triangles);
        let boxes: Vec<_> = triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.corners.map(|i| vertices[i as usize].as_dvec2());
                (a.min(b).min(c), a.max(b).max(c))
            })
            .collect();
        let index = CellIndex::new(&boxes, low, high);
        let (crossings, crossing_of) = crossings(&vertices, &triangles);
        Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            radius,
            vertices,
            triangles,
            links: Vec::new(),
            index,
            islands,
            crossings,
            crossing_of,
            landmarks: Landmarks::default(),
        }
    }

    /// The agent radius the mesh was built for.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// How many triangles it has.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// How many landmarks its route search estimates the walk left by (up to 8, in its largest
    /// island; see `BEHAVIORS.md`, "`Navigate`").
    pub fn landmark_count(&self) -> usize {
        self.landmarks.count()
    }

    /// The memory the mesh takes on the heap (bytes): its corners, triangles, links, the index
    /// of triangles by cell and the landmarks' tables.
    pub fn heap_bytes(&self) -> usize {
        self.vertices.capacity() * size_of::<Vec2>()
            + self.triangles.capacity() * size_of::<NavTriangle>()
            + self.links.capacity() * size_of::<NavLink>()
            + self.index.bytes()
            + self.crossings.capacity() * size_of::<Crossing>()
            + self.crossing_of.capacity() * size_of::<u32>()
            + self.landmarks.bytes()
    }

    /// How many islands (parts no walk joins) it has.
    pub fn island_count(&self) -> usize {
        self.islands
    }

    /// Every triangle's corners, counter-clockwise (the editor draws them).
    pub fn triangles(&self) -> impl Iterator<Item = [Vec2; 3]> + '_ {
        self.triangles.iter().map(|t| self.corners(t))
    }

    fn corners(&self, triangle: &NavTriangle) -> [Vec2; 3] {
        triangle.corners.map(|i| self.vertices[i as usize])
    }

    /// The walkable area: the sum of the triangles' areas.
    pub fn area(&self) -> f32 {
        self.triangles()
            .map(|[a, b, c]| (b - a).perp_dot(c - a) / 2.0)
            .sum()
    }

    /// Whether an agent's centre may stand at `point`.
    pub fn is_walkable(&self, point: Vec2) -> bool {
        self.locate(point).is_some()
    }

    /// The shortest route from `from` to `to` ([`Reach::Goal`]), or to the nearest point a
    /// walk from `from` reaches ([`Reach::Nearest`]). A start off the mesh (inside a grown
    /// wall) starts from the nearest point on it. `search` is reused from query to query.
    pub fn route(&self, from: Vec2, to: Vec2, search: &mut RouteSearch) -> Route {
        search::route(self, (from, to), None, search)
    }

    /// [`NavMesh::route`] where crossing an edge also costs `per_agent` units for each
    /// standing agent's worth of its width `crowding` counts at it beyond half the edge
    /// ([`Crowding::blocked`]): a jammed door is routed round when another way is shorter than
    /// the wait. `crowding` was counted on this mesh ([`Crowding::count`]).
    pub fn route_around(
        &self,
        (from, to): (Vec2, Vec2),
        (crowding, per_agent): (&Crowding, f32),
        search: &mut RouteSearch,
    ) -> Route {
        let per_agent = if per_agent.is_finite() {
            per_agent.max(0.0)
        } else {
            0.0
        };
        search::route(self, (from, to), Some((crowding, per_agent)), search)
    }

    /// Where `point` stands: its triangle, or the nearest one's for a point off the mesh.
    pub(crate) fn triangle_near(&self, point: Vec2) -> Option<u32> {
        self.nearest(point, |_| true).map(|(t, _)| t)
    }
}

/// Every edge of `triangles` between two of them, once (in the order triangle by triangle,
/// edge by edge, first met), and each edge's crossing number by `triangle * 3 + edge`.
fn crossings(vertices: &[Vec2], triangles: &[NavTriangle]) -> (Vec<Crossing>, Vec<u32>) {
    let mut crossing_of = vec![NONE; triangles.len() * 3];
    let mut crossings = Vec::new();
    for (t, triangle) in triangles.iter().enumerate() {
        for (edge, &next) in triangle.neighbors.iter().enumerate() {
            let side = (t * 3 + edge) as u32;
            if next == NONE || crossing_of[side as usize] != NONE {
                continue;
            }
            let back = (triangles.get(next as usize))
                .and_then(|n| n.neighbors.iter().position(|&n| n == t as u32));
            let Some(back) = back else { continue };
            let other = next * 3 + back as u32;
            let number = crossings.len() as u32;
            crossing_of[side as usize] = number;
            crossing_of[other as usize] = number;
            let a = vertices[triangle.corners[edge] as usize];
            let b = vertices[triangle.corners[(edge + 1) % 3] as usize];
            crossings.push(Crossing {
                sides: [side, other],
                middle: (a + b) / 2.0,
            });
        }
    }
    (crossings, crossing_of)
}

/// Numbers the islands of `triangles` (joined through their neighbours) in triangle order and
/// returns how many there are.
fn number_islands(triangles: &mut [NavTriangle]) -> usize {
    let mut islands = 0;
    let mut stack = Vec::new();
    for first in 0..triangles.len() {
        if triangles[first].island != NONE {
            continue;
        }
        triangles[first].island = islands;
        stack.push(first);
        while let Some(t) = stack.pop() {
            for n in triangles[t].neighbors {
                if n != NONE && triangles[n as usize].island == NONE {
                    triangles[n as usize].island = islands;
                    stack.push(n as usize);
                }
            }
        }
        islands += 1;
    }
    islands as usize
}
