//! Landmarks: an estimate of the walk left to a route's goal that is tighter than the straight
//! line on a level of rooms, where the walk goes door to door (A* with landmarks and the
//! triangle inequality, "ALT": Goldberg and Harrelson, "Computing the shortest path: A* search
//! meets graph theory", 2005).
//!
//! The route search walks from edge middle to edge middle. Its places are the mesh's crossings
//! (the edges between two triangles, one place for both sides) and the jump links' take-offs
//! and landings; two places in one triangle are joined by the straight line between them, a
//! take-off and its landing by the jump. A few crossings far apart are landmarks, and the
//! shortest walk from each to every place is worked out when the mesh is built (Dijkstra,
//! links taken both ways: a walk in this graph is never longer than the search's, which takes
//! them one way). For a landmark `L`, a place `x` and the goal `g`, the triangle inequality
//! gives the walk from `x` to `g` at least `d(L, g) − d(L, x)` and at least `d(L, x) − d(L, g)`;
//! the estimate is the largest of these over the landmarks and the straight line, so it never
//! overestimates and the search finds the same kind of route with fewer triangles expanded.
//! The goal is a point inside its triangle: `d(L, g)` is bounded over the places the search
//! can enter that triangle by (its crossings and the landings in it), each plus the straight
//! line from it to the goal, which is what the search adds when it reaches the triangle.
//!
//! Landmarks are chosen in the mesh's largest island (the first crossing's farthest place,
//! then each time the place farthest from those chosen), so that a level with small islands
//! (a fenced garden, the inside of a ring of walls) keeps them all where most routes run; a
//! route elsewhere is estimated by the straight line alone.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{DVec2, Vec2};
use wide::f32x8;

use super::NavMesh;

/// How many landmarks a mesh keeps (fewer when it has fewer crossings).
pub(super) const LANDMARKS: usize = 8;

/// What the estimate gives up against rounding: the landmark bound less this fraction of one
/// more than itself, so that distances summed over thousands of steps and kept as `f32` never
/// make it overestimate (the walks are summed in `f64`).
const ROUNDING_SLACK: f32 = 1.0e-5;

/// The walk from each landmark to every place of a mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Landmarks {
    /// By place (the mesh's crossings, then each link's take-off and landing): the walk from each landmark to it (`f32::INFINITY`: none).
    distances: Vec<[f32; LANDMARKS]>,
    /// How many landmarks there are (0 on a mesh without crossings).
    count: usize,
}

/// The goal's side of the estimate, worked out once a query: for each landmark, the least and
/// the most `d(L, g)` can be (−∞ and +∞ for a slot past the mesh's landmarks, or a landmark no
/// entry of the goal's triangle is walked to from: it says nothing).
#[derive(Clone, Copy, Debug)]
pub(super) struct Estimate {
    low: [f32; LANDMARKS],
    high: [f32; LANDMARKS],
}

impl Estimate {
    /// One that says nothing (the straight line alone counts).
    pub(super) fn none() -> Self {
        Self {
            low: [f32::NEG_INFINITY; LANDMARKS],
            high: [f32::INFINITY; LANDMARKS],
        }
    }
}

impl Landmarks {
    /// The landmarks of `mesh` and the walk from each to every place (the mesh's triangles and
    /// links are final).
    pub(super) fn new(mesh: &NavMesh) -> Self {
        let graph = Graph::new(mesh);
        let mut landmarks = Self {
            distances: vec![[f32::INFINITY; LANDMARKS]; graph.points.len()],
            count: 0,
        };
        let Some(first) = graph.first_in_largest_island(mesh) else {
            return landmarks;
        };
        let mut search = Dijkstra::default();
        // The place farthest from the first crossing is the first landmark; each next one is
        // the place farthest from all chosen (`nearest`: the walk to the nearest chosen).
        search.run(&graph, first);
        let mut nearest = vec![f64::INFINITY; graph.points.len()];
        let mut next = farthest(&search.distance);
        while landmarks.count < LANDMARKS {
            let Some(landmark) = next else { break };
            search.run(&graph, landmark);
            for (place, &d) in search.distance.iter().enumerate() {
                landmarks.distances[place][landmarks.count] = d as f32;
                nearest[place] = nearest[place].min(d);
            }
            landmarks.count += 1;
            // A place already a landmark is 0 from the nearest chosen: never taken again.
            next = farthest(&nearest).filter(|&p| nearest[p as usize] > 0.0);
        }
        landmarks
    }

    /// The goal's side of the estimate for a route ending at `end` in triangle `goal` of
    /// `mesh`: bounded over the places a search enters that triangle by.
    pub(super) fn estimate(&self, mesh: &NavMesh, goal: u32, end: Vec2) -> Estimate {
        let mut estimate = Estimate::none();
        let entries = (0..3).filter_map(|edge| {
            let place = mesh.crossing(goal, edge)?;
            Some((place, mesh.crossings[place as usize].middle))
        });
        let landings = (mesh.links.iter().enumerate())
            .filter(|(_, link)| link.to_triangle == goal)
            .map(|(l, link)| (mesh.landing(l as u32), link.to));
        let mut low = [f32::INFINITY; LANDMARKS];
        let mut high = [f32::NEG_INFINITY; LANDMARKS];
        for (place, at) in entries.chain(landings) {
            let Some(distances) = self.distances.get(place as usize) else {
                continue;
            };
            let last = at.distance(end);
            for l in 0..self.count {
                low[l] = low[l].min(distances[l] + last);
                high[l] = high[l].max(distances[l] - last);
            }
        }
        for l in 0..self.count {
            // A landmark no entry is walked to from says nothing about this goal.
            if low[l].is_finite() && high[l].is_finite() {
                estimate.low[l] = low[l];
                estimate.high[l] = high[l];
            }
        }
        estimate
    }

    /// At least the walk left from place `place` to the goal of `estimate`, by the landmarks
    /// (negative infinity when none says anything: the straight line is the caller's).
    pub(super) fn at_least(&self, estimate: &Estimate, place: u32) -> f32 {
        let Some(distances) = self.distances.get(place as usize) else {
            return f32::NEG_INFINITY;
        };
        // Every slot at once, the unused ones too: an estimate's slots past the mesh's
        // landmarks (and those of a landmark no entry reaches) hold −∞ and +∞, which give −∞.
        // `low − d` is never NaN (`d` is never −∞, `low` never +∞); `d − high` is NaN where
        // both are +∞, and `max` (`a < b ? b : a`) then keeps `low − d`, as `f32::max` does.
        let d = f32x8::from(*distances);
        let ahead = (f32x8::from(estimate.low) - d).max(d - f32x8::from(estimate.high));
        let bound = (ahead.to_array().into_iter()).fold(f32::NEG_INFINITY, |bound, x| {
            if x > bound { x } else { bound }
        });
        bound - ROUNDING_SLACK * (1.0 + bound.abs())
    }

    /// How many landmarks there are.
    pub(super) fn count(&self) -> usize {
        self.count
    }

    /// The memory its tables take (bytes).
    pub(super) fn bytes(&self) -> usize {
        self.distances.capacity() * size_of::<[f32; LANDMARKS]>()
    }
}

/// The place of `distance` farthest from where it was measured (finite only); the lowest
/// numbered among equally far ones.
fn farthest(distance: &[f64]) -> Option<u32> {
    let mut best: Option<(f64, u32)> = None;
    for (place, &d) in distance.iter().enumerate() {
        if d.is_finite() && best.is_none_or(|(b, _)| d > b) {
            best = Some((d, place as u32));
        }
    }
    best.map(|(_, place)| place)
}

/// The places of a mesh and the walks between them, for working out the landmarks' tables.
struct Graph {
    /// How many crossings there are (the places after them are the links' ends).
    crossings: u32,
    /// By place: where it is.
    points: Vec<DVec2>,
    /// By place: the triangles it lies in (a crossing both its sides' triangles; a link's end
    /// its own triangle twice).
    triangles: Vec<[u32; 2]>,
    /// By triangle: the places in it (its crossings, then the link ends in it), as a start
    /// into `members`.
    first: Vec<u32>,
    members: Vec<u32>,
}

impl Graph {
    fn new(mesh: &NavMesh) -> Self {
        // Every place of the search but the goal, numbered as the search numbers them.
        let places = 0..mesh.goal_place();
        let points: Vec<DVec2> = places
            .clone()
            .map(|p| mesh.place_point(p).as_dvec2())
            .collect();
        let triangles: Vec<[u32; 2]> = places.map(|p| mesh.place_triangles(p)).collect();
        let crossings = mesh.crossings.len() as u32;
        // Each triangle's places, by counting then filling.
        let mut first = vec![0u32; mesh.triangles.len() + 1];
        let each_membership = |place: usize| {
            let [a, b] = triangles[place];
            std::iter::once(a).chain((a != b).then_some(b))
        };
        for place in 0..points.len() {
            for t in each_membership(place) {
                first[t as usize + 1] += 1;
            }
        }
        for t in 0..mesh.triangles.len() {
            first[t + 1] += first[t];
        }
        let mut filled = first.clone();
        let mut members = vec![0u32; first[mesh.triangles.len()] as usize];
        for place in 0..points.len() {
            for t in each_membership(place) {
                members[filled[t as usize] as usize] = place as u32;
                filled[t as usize] += 1;
            }
        }
        Self {
            crossings,
            points,
            triangles,
            first,
            members,
        }
    }

    /// The first crossing of the island with the most triangles (the lowest numbered among
    /// equally large ones).
    fn first_in_largest_island(&self, mesh: &NavMesh) -> Option<u32> {
        let mut sizes = vec![0usize; mesh.islands];
        for triangle in &mesh.triangles {
            if let Some(size) = sizes.get_mut(triangle.island as usize) {
                *size += 1;
            }
        }
        let largest = (0..sizes.len()).max_by_key(|&i| (sizes[i], Reverse(i)))?;
        (0..self.crossings).find(|&place| {
            let t = self.triangles[place as usize][0];
            mesh.triangles[t as usize].island as usize == largest
        })
    }

    /// Each place joined to `place` and the walk to it: every other place of the triangles it
    /// lies in, and for a link's end, the other end.
    fn joined(&self, place: u32, mut each: impl FnMut(u32, f64)) {
        let at = self.points[place as usize];
        let [a, b] = self.triangles[place as usize];
        for t in std::iter::once(a).chain((a != b).then_some(b)) {
            let (start, end) = (self.first[t as usize], self.first[t as usize + 1]);
            for &other in &self.members[start as usize..end as usize] {
                if other != place {
                    each(other, at.distance(self.points[other as usize]));
                }
            }
        }
        if place >= self.crossings {
            let other = self.crossings + ((place - self.crossings) ^ 1);
            if let Some(&to) = self.points.get(other as usize) {
                each(other, at.distance(to));
            }
        }
    }
}

/// Dijkstra's search over a [`Graph`], reused from landmark to landmark.
#[derive(Default)]
struct Dijkstra {
    distance: Vec<f64>,
    open: BinaryHeap<Reverse<(u64, u32)>>,
}

impl Dijkstra {
    /// The shortest walk from `source` to every place (`f64::INFINITY`: none).
    fn run(&mut self, graph: &Graph, source: u32) {
        self.distance.clear();
        self.distance.resize(graph.points.len(), f64::INFINITY);
        self.open.clear();
        self.distance[source as usize] = 0.0;
        // Non-negative finite floats order as their bits do.
        self.open.push(Reverse((0f64.to_bits(), source)));
        while let Some(Reverse((bits, place))) = self.open.pop() {
            let d = f64::from_bits(bits);
            if d > self.distance[place as usize] {
                continue;
            }
            let (distance, open) = (&mut self.distance, &mut self.open);
            graph.joined(place, |other, step| {
                let walked = d + step;
                if walked < distance[other as usize] {
                    distance[other as usize] = walked;
                    open.push(Reverse((walked.to_bits(), other)));
                }
            });
        }
    }
}
