//! Planning a route: where the start and goal stand on the mesh, which islands a walk (and
//! the jump links) reach, the corridor of triangles by A*, and the corridor pulled tight.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use glam::Vec2;

use super::{Crowding, NONE, NavMesh, Reach, Route, funnel};

/// What a route query reuses from one query to the next (so planning allocates only when a
/// mesh grows), and how much work the last query did.
#[derive(Clone, Debug, Default)]
pub struct RouteSearch {
    /// Each triangle's search state, side by side in one record (a triangle the search
    /// touches is one cache line, not five).
    nodes: Vec<Node>,
    query: u32,
    open: BinaryHeap<Reverse<Open>>,
    reached: Vec<bool>,
    corridor: Vec<(u32, Came)>,
    /// Triangles the last query took from the open list.
    pub expanded: usize,
}

/// One triangle's search state: its cost so far, where it was entered and how (valid where
/// `seen` holds the current query's number), and whether it was expanded (`closed` holds it).
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    cost: f32,
    entry: Vec2,
    came: Came,
    seen: u32,
    closed: u32,
}

/// How the search entered a triangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Came {
    /// It is the start's.
    #[default]
    Start,
    /// Across an edge from the given triangle.
    Edge(u32),
    /// By the given jump link.
    Link(u32),
}

/// An open triangle: its estimated total, then its number (the tie-break, so the same
/// query expands the same triangles in the same order).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Open(f32, u32);

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl RouteSearch {
    fn begin(&mut self, triangles: usize) {
        if self.nodes.len() != triangles {
            *self = Self {
                nodes: vec![Node::default(); triangles],
                ..Self::default()
            };
        }
        self.query = self.query.wrapping_add(1);
        if self.query == 0 {
            self.nodes.fill(Node::default());
            self.query = 1;
        }
        self.open.clear();
        self.expanded = 0;
    }

    fn offer(&mut self, triangle: u32, cost: f32, entry: Vec2, came: Came, goal: Vec2) {
        let query = self.query;
        let Some(node) = self.nodes.get_mut(triangle as usize) else {
            return;
        };
        if node.closed == query || (node.seen == query && node.cost <= cost) {
            return;
        }
        *node = Node {
            cost,
            entry,
            came,
            seen: query,
            closed: node.closed,
        };
        self.open
            .push(Reverse(Open(cost + entry.distance(goal), triangle)));
    }
}

/// The route from `from` to `to` on `mesh` (see [`NavMesh::route`]); with `crowd`, crossing
/// an edge costs its length plus the given units per agent's worth of its width standing
/// agents fill.
pub(super) fn route(
    mesh: &NavMesh,
    (from, to): (Vec2, Vec2),
    crowd: Option<(&Crowding, f32)>,
    search: &mut RouteSearch,
) -> Route {
    let Some((start, from)) = mesh.nearest(from, |_| true) else {
        return Route::default();
    };
    reachable_islands(
        mesh,
        mesh.triangles[start as usize].island,
        &mut search.reached,
    );
    let reached = &search.reached;
    let Some((goal, end)) = mesh.nearest(to, |island| reached[island as usize]) else {
        return Route::default();
    };
    let reach = if end.distance(to) <= mesh.radius.max(super::MIN_CLEARANCE) * 1.001 {
        Reach::Goal
    } else {
        Reach::Nearest
    };
    search.begin(mesh.triangles.len());
    search.offer(start, 0.0, from, Came::Start, end);
    let mut found = false;
    while let Some(Reverse(Open(_, t))) = search.open.pop() {
        let i = t as usize;
        let node = &mut search.nodes[i];
        if node.closed == search.query {
            continue;
        }
        node.closed = search.query;
        search.expanded += 1;
        if t == goal {
            found = true;
            break;
        }
        let (cost, at) = (node.cost, node.entry);
        let triangle = mesh.triangles[i];
        for (edge, &next) in triangle.neighbors.iter().enumerate() {
            if next != NONE {
                let [a, b] = mesh.edge(&triangle, edge);
                let middle = (a + b) / 2.0;
                let jam = crowd.map_or(0.0, |(crowding, per_agent)| {
                    per_agent * crowding.at(t, edge)
                });
                let walked = cost + at.distance(middle) + jam;
                search.offer(next, walked, middle, Came::Edge(t), end);
            }
        }
        for (l, link) in mesh.links.iter().enumerate() {
            if link.from_triangle == t {
                let walked = cost + at.distance(link.from) + link.from.distance(link.to);
                search.offer(link.to_triangle, walked, link.to, Came::Link(l as u32), end);
            }
        }
    }
    if !found {
        return Route::default();
    }
    let mut corridor = std::mem::take(&mut search.corridor);
    corridor.clear();
    let mut t = goal;
    loop {
        let came = search.nodes[t as usize].came;
        corridor.push((t, came));
        match came {
            Came::Start => break,
            Came::Edge(previous) => t = previous,
            Came::Link(l) => t = mesh.links[l as usize].from_triangle,
        }
    }
    corridor.reverse();
    let route = pull_tight(mesh, &corridor, from, end, reach);
    search.corridor = corridor;
    route
}

/// Marks in `reached` the islands a walk from `island` reaches, on foot or by jump links.
fn reachable_islands(mesh: &NavMesh, island: u32, reached: &mut Vec<bool>) {
    reached.clear();
    reached.resize(mesh.islands, false);
    reached[island as usize] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for link in &mesh.links {
            let from = mesh.triangles[link.from_triangle as usize].island as usize;
            let to = mesh.triangles[link.to_triangle as usize].island as usize;
            if reached[from] && !reached[to] {
                reached[to] = true;
                grew = true;
            }
        }
    }
}

/// The corridor's corner points, each stretch between jumps pulled tight on its own.
fn pull_tight(
    mesh: &NavMesh,
    corridor: &[(u32, Came)],
    from: Vec2,
    end: Vec2,
    reach: Reach,
) -> Route {
    let mut route = Route {
        points: vec![from],
        jumps: Vec::new(),
        reach: Some(reach),
        corridor: Vec::new(),
    };
    let mut portals = Vec::new();
    let mut start = from;
    for pair in corridor.windows(2) {
        let ((t, _), (next, came)) = (pair[0], pair[1]);
        match came {
            Came::Link(l) => {
                let link = mesh.links[l as usize];
                funnel::pull(start, link.from, &portals, &mut route.points);
                route.jumps.push(route.points.len() - 1);
                route.points.push(link.to);
                portals.clear();
                start = link.to;
            }
            _ => {
                let triangle = &mesh.triangles[t as usize];
                let edge = triangle.neighbors.iter().position(|&n| n == next);
                if let Some(edge) = edge {
                    let [right, left] = mesh.edge(triangle, edge);
                    portals.push((left, right));
                    route.corridor.push(t * 3 + edge as u32);
                }
            }
        }
    }
    funnel::pull(start, end, &portals, &mut route.points);
    route
}

impl NavMesh {
    /// Edge `edge` of `triangle`: from corner `edge` to the next, counter-clockwise (so,
    /// leaving the triangle across it, the first is on the right).
    pub(super) fn edge(&self, triangle: &super::NavTriangle, edge: usize) -> [Vec2; 2] {
        [
            self.vertices[triangle.corners[edge] as usize],
            self.vertices[triangle.corners[(edge + 1) % 3] as usize],
        ]
    }
}
