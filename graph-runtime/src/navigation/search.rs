//! Planning a route: where the start and goal stand on the mesh, which islands a walk (and
//! the jump links) reach, the corridor of triangles by A*, and the corridor pulled tight.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec2;

use super::landmarks::Estimate;
use super::{Crowding, NONE, NavMesh, Reach, Route, funnel};

/// What a route query reuses from one query to the next (so planning allocates only when a
/// mesh grows), and how much work the last query did.
#[derive(Clone, Debug, Default)]
pub struct RouteSearch {
    /// Each place's search state (the mesh's crossings, its links' take-offs and landings,
    /// then the goal), side by side in one record.
    nodes: Vec<Node>,
    query: u32,
    open: BinaryHeap<Reverse<Open>>,
    reached: Vec<bool>,
    path: Vec<u32>,
    corridor: Vec<(u32, Came)>,
    /// The portals of the corridor being pulled tight, and its corner points as they are
    /// found (the route gets a list of exactly their number).
    portals: Vec<(Vec2, Vec2)>,
    corners: Vec<Vec2>,
    /// Places (edges crossed, jump ends) the last query took from the open list.
    pub expanded: usize,
    /// What the last route found cost in the search's measure: its walk from edge middle to
    /// edge middle (before it is pulled tight), jumps, and what crowded edges added.
    walked: f32,
    /// Whether the search estimates the walk left by the straight line alone, without the
    /// mesh's landmarks (a baseline for the benches and tests: its routes cost as much in the
    /// search's measure, with more places expanded).
    pub straight_line_only: bool,
}

/// One place's search state: its cost so far, the place it was reached from ([`NONE`]: the
/// start) and the triangle the walk is in after it (valid where `seen` holds the current
/// query's number), and whether it was expanded (`closed` holds it).
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    cost: f32,
    came: u32,
    into: u32,
    seen: u32,
    closed: u32,
}

/// How the walk entered a triangle of the corridor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Came {
    /// It is the start's.
    #[default]
    Start,
    /// Across the given edge (`triangle * 3 + edge`) of the triangle before.
    Edge(u32),
    /// By the given jump link.
    Link(u32),
}

/// The open list orders places by their estimated totals in steps of this many units, then by
/// how far each lies from the straight line between the start and the goal: among walks from
/// edge middle to edge middle that cost the same (a level of square rooms has many: a
/// staircase of doors and an L of them), the search takes the one that keeps nearest the
/// line, which pulls tightest. A route's walk is within one step of the least the search can
/// find.
const ORDER_STEP: f32 = 1.0 / 16.0;

/// An open place, as one number that sorts as the open list takes them: its estimated total
/// in [`ORDER_STEP`]s (the top 32 bits), its distance from the straight line between the start
/// and the goal (the bits of a non-negative `f32` sort as it does), then its number (the last
/// tie-break, so the same query expands the same places in the same order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Open(u128);

impl Open {
    fn new(total: f32, off: f32, place: u32) -> Self {
        // Both are finite and non-negative for a point of the mesh; a NaN or a negative
        // sorts first or last, never out of the list (`as` saturates).
        let steps = (total / ORDER_STEP + 0.5) as u32;
        let off = off.max(0.0).to_bits();
        Self((u128::from(steps) << 64) | (u128::from(off) << 32) | u128::from(place))
    }

    fn place(self) -> u32 {
        self.0 as u32
    }
}

impl RouteSearch {
    fn begin(&mut self, places: usize) {
        if self.nodes.len() != places {
            *self = Self {
                nodes: vec![Node::default(); places],
                straight_line_only: self.straight_line_only,
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

    /// What the last route found cost in the search's measure (its walk from edge middle to
    /// edge middle, before it is pulled tight, with what crowded edges added; 0 when none was
    /// found): the least the search can find, within one ordering step (1/16 of a unit).
    pub fn cost(&self) -> f32 {
        self.walked
    }

    /// Opens place `place` at `cost`, reached from place `came` into triangle `into`, with
    /// `left` estimated to the goal and `off` the straight line between the start and the goal,
    /// unless it was reached as cheaply before.
    fn offer(&mut self, place: u32, (cost, (left, off)): (f32, (f32, f32)), came: u32, into: u32) {
        let query = self.query;
        let Some(node) = self.nodes.get_mut(place as usize) else {
            return;
        };
        if node.closed == query || (node.seen == query && node.cost <= cost) {
            return;
        }
        *node = Node {
            cost,
            came,
            into,
            seen: query,
            closed: node.closed,
        };
        self.open.push(Reverse(Open::new(cost + left, off, place)));
    }
}

/// What one query searches toward: the goal's triangle, its place and point, and the estimate.
struct Toward<'a> {
    mesh: &'a NavMesh,
    crowd: Option<(&'a Crowding, f32)>,
    triangle: u32,
    place: u32,
    end: Vec2,
    /// The start, and the direction from it to the end (zero when they meet).
    line: (Vec2, Vec2),
    estimate: Estimate,
}

impl Toward<'_> {
    /// Offers every place the walk can go to from `at` (place `came`, [`NONE`] for the start)
    /// at `cost`, standing in triangle `t`: the other crossings of `t`, the take-offs in it,
    /// and the goal when `t` is the goal's triangle.
    fn step_in(&self, search: &mut RouteSearch, t: u32, (came, at, cost): (u32, Vec2, f32)) {
        let mesh = self.mesh;
        for edge in 0..3 {
            let Some(place) = mesh.crossing(t, edge) else {
                continue;
            };
            if place == came {
                continue;
            }
            let crossing = &mesh.crossings[place as usize];
            let jam = self.crowd.map_or(0.0, |(crowding, per_agent)| {
                per_agent * crowding.blocked(t, edge)
            });
            let walked = cost + at.distance(crossing.middle) + jam;
            let left = self.left(search, place, crossing.middle);
            search.offer(place, (walked, left), came, crossing.across(t));
        }
        for (l, link) in mesh.links.iter().enumerate() {
            if link.from_triangle == t {
                let place = mesh.takeoff(l as u32);
                let left = self.left(search, place, link.from);
                let walked = cost + at.distance(link.from);
                search.offer(place, (walked, left), came, t);
            }
        }
        if t == self.triangle {
            let walked = cost + at.distance(self.end);
            search.offer(self.place, (walked, (0.0, 0.0)), came, t);
        }
    }

    /// At least the walk left from place `place`, at `at`, to the goal, and how far `at` lies
    /// from the straight line between the start and the goal (the open list's tie-break).
    fn left(&self, search: &RouteSearch, place: u32, at: Vec2) -> (f32, f32) {
        let straight = at.distance(self.end);
        let (start, direction) = self.line;
        let off = direction.perp_dot(at - start).abs();
        if search.straight_line_only {
            (straight, off)
        } else {
            let bound = (self.mesh.landmarks).at_least(&self.estimate, place);
            (straight.max(bound), off)
        }
    }
}

/// The route from `from` to `to` on `mesh` (see [`NavMesh::route`]); with `crowd`, crossing
/// an edge costs its length plus the given units per agent's worth of its width standing
/// agents fill beyond half of it ([`Crowding::blocked`]).
///
/// The search is A* over the mesh's places: the edges between triangles (entered at their
/// middles), the jump links' take-offs and landings, and the goal; the walk between two places
/// of one triangle is the straight line between them, a jump the straight line it flies. Each
/// place is expanded into the triangle on its far side from the place it was reached from.
pub(super) fn route(
    mesh: &NavMesh,
    (from, to): (Vec2, Vec2),
    crowd: Option<(&Crowding, f32)>,
    search: &mut RouteSearch,
) -> Route {
    search.walked = 0.0;
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
    let toward = Toward {
        mesh,
        crowd,
        triangle: goal,
        place: mesh.goal_place(),
        end,
        line: (from, (end - from).normalize_or_zero()),
        estimate: if search.straight_line_only {
            Estimate::none()
        } else {
            mesh.landmarks.estimate(mesh, goal, end)
        },
    };
    search.begin(mesh.goal_place() as usize + 1);
    toward.step_in(search, start, (NONE, from, 0.0));
    let mut found = false;
    while let Some(Reverse(open)) = search.open.pop() {
        let place = open.place();
        let node = &mut search.nodes[place as usize];
        if node.closed == search.query {
            continue;
        }
        node.closed = search.query;
        search.expanded += 1;
        if place == toward.place {
            search.walked = node.cost;
            found = true;
            break;
        }
        let (cost, into) = (node.cost, node.into);
        if let Some(l) = mesh.link_of_takeoff(place) {
            let link = mesh.links[l as usize];
            let landing = mesh.landing(l);
            let walked = cost + link.from.distance(link.to);
            let left = toward.left(search, landing, link.to);
            search.offer(landing, (walked, left), place, link.to_triangle);
        } else {
            let at = mesh.place_point(place);
            toward.step_in(search, into, (place, at, cost));
        }
    }
    if !found {
        return Route::default();
    }
    let corridor = corridor(mesh, search, start);
    let scratch = (&mut search.portals, &mut search.corners);
    let route = pull_tight(mesh, &corridor, scratch, (from, end), reach);
    search.corridor = corridor;
    route
}

/// The triangles the search's walk to the goal passes, from the start's (`start`), each with
/// how it was entered.
fn corridor(mesh: &NavMesh, search: &mut RouteSearch, start: u32) -> Vec<(u32, Came)> {
    let mut path = std::mem::take(&mut search.path);
    path.clear();
    let mut place = search.nodes[mesh.goal_place() as usize].came;
    while place != NONE {
        path.push(place);
        place = search.nodes[place as usize].came;
    }
    let mut corridor = std::mem::take(&mut search.corridor);
    corridor.clear();
    corridor.push((start, Came::Start));
    let mut t = start;
    for &place in path.iter().rev() {
        let into = search.nodes[place as usize].into;
        if let Some(l) = mesh.link_of_landing(place) {
            corridor.push((into, Came::Link(l)));
        } else if let Some(crossing) = mesh.crossings.get(place as usize) {
            corridor.push((into, Came::Edge(crossing.side_in(t))));
        }
        t = into;
    }
    search.path = path;
    corridor
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

/// The corridor's corner points, each stretch between jumps pulled tight on its own (`portals`
/// and `corners` are kept from query to query: nothing grows while the route is pulled, and
/// the route's lists are allocated once, to size).
fn pull_tight(
    mesh: &NavMesh,
    corridor: &[(u32, Came)],
    (portals, corners): (&mut Vec<(Vec2, Vec2)>, &mut Vec<Vec2>),
    (from, end): (Vec2, Vec2),
    reach: Reach,
) -> Route {
    let crossed = corridor.len().saturating_sub(1);
    let mut jumps = Vec::new();
    let mut edges = Vec::with_capacity(crossed);
    portals.clear();
    corners.clear();
    corners.push(from);
    let mut start = from;
    for pair in corridor.windows(2) {
        match pair[1].1 {
            Came::Link(l) => {
                let link = mesh.links[l as usize];
                funnel::pull(start, link.from, portals, corners);
                jumps.push(corners.len() - 1);
                corners.push(link.to);
                portals.clear();
                start = link.to;
            }
            Came::Edge(side) => {
                let triangle = &mesh.triangles[(side / 3) as usize];
                let [right, left] = mesh.edge(triangle, (side % 3) as usize);
                portals.push((left, right));
                edges.push(side);
            }
            Came::Start => {}
        }
    }
    funnel::pull(start, end, portals, corners);
    Route {
        points: corners.as_slice().to_vec(),
        jumps,
        reach: Some(reach),
        corridor: edges,
    }
}

impl NavMesh {
    /// The crossing of edge `edge` of triangle `t` (a place of the search), if it has one.
    pub(super) fn crossing(&self, t: u32, edge: usize) -> Option<u32> {
        let place = *self.crossing_of.get(t as usize * 3 + edge)?;
        (place != NONE).then_some(place)
    }

    /// The place of link `l`'s take-off.
    pub(super) fn takeoff(&self, l: u32) -> u32 {
        self.crossings.len() as u32 + 2 * l
    }

    /// The place of link `l`'s landing.
    pub(super) fn landing(&self, l: u32) -> u32 {
        self.takeoff(l) + 1
    }

    /// The goal's place: after every other.
    pub(super) fn goal_place(&self) -> u32 {
        self.takeoff(self.links.len() as u32)
    }

    /// The link whose take-off `place` is.
    fn link_of_takeoff(&self, place: u32) -> Option<u32> {
        let l = place.checked_sub(self.crossings.len() as u32)?;
        (l % 2 == 0 && ((l / 2) as usize) < self.links.len()).then_some(l / 2)
    }

    /// The link whose landing `place` is.
    fn link_of_landing(&self, place: u32) -> Option<u32> {
        let l = place.checked_sub(self.crossings.len() as u32)?;
        (l % 2 == 1 && ((l / 2) as usize) < self.links.len()).then_some(l / 2)
    }

    /// Where place `place` (a crossing or a link's end) is.
    pub(super) fn place_point(&self, place: u32) -> Vec2 {
        if let Some(crossing) = self.crossings.get(place as usize) {
            return crossing.middle;
        }
        match self.link_end(place) {
            Some((link, true)) => link.from,
            Some((link, false)) => link.to,
            None => Vec2::ZERO,
        }
    }

    /// The triangles place `place` lies in: a crossing's two sides', a link end's own twice.
    pub(super) fn place_triangles(&self, place: u32) -> [u32; 2] {
        if let Some(crossing) = self.crossings.get(place as usize) {
            return crossing.sides.map(|side| side / 3);
        }
        match self.link_end(place) {
            Some((link, true)) => [link.from_triangle; 2],
            Some((link, false)) => [link.to_triangle; 2],
            None => [NONE; 2],
        }
    }

    /// The link whose end place `place` is, and whether it is the take-off (not a crossing).
    fn link_end(&self, place: u32) -> Option<(&super::NavLink, bool)> {
        let l = place.checked_sub(self.crossings.len() as u32)?;
        Some((self.links.get((l / 2) as usize)?, l % 2 == 0))
    }

    /// How many places a route search may expand: the crossings, the jump links' ends and
    /// the goal.
    pub fn search_places(&self) -> usize {
        self.goal_place() as usize + 1
    }

    /// Edge `edge` of `triangle`: from corner `edge` to the next, counter-clockwise (so,
    /// leaving the triangle across it, the first is on the right).
    pub(super) fn edge(&self, triangle: &super::NavTriangle, edge: usize) -> [Vec2; 2] {
        [
            self.vertices[triangle.corners[edge] as usize],
            self.vertices[triangle.corners[(edge + 1) % 3] as usize],
        ]
    }
}
