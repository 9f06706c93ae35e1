// One tick of a crowd on the GPU: the grid (each agent's cell counted, the counts scanned into
// each cell's run, the agents scattered into their cells and placed there in ascending index),
// then every agent's neighbor sums, its graph's force and the vehicle step. The formulas are graph-runtime's `BEHAVIORS.md`; `lower.rs` appends
// each group's graph as functions (`steer_group`) and the constants they read.

struct Agent {
    position: vec2f,
    velocity: vec2f,
    forward: vec2f,
    mass: f32,
    max_force: f32,
    max_speed: f32,
    radius: f32,
    group: u32,
    _pad: u32,
}

struct Tick {
    agents: u32,
    blocks: u32,
    columns: u32,
    rows: u32,
    origin: vec2f,
    side: f32,
    dt: f32,
}

struct Sums {
    separation: vec2f,
    position: vec2f,
    velocity: vec2f,
    count: u32,
}

@group(0) @binding(0) var<uniform> tick: Tick;
@group(0) @binding(1) var<storage, read> agents_in: array<Agent>;
@group(0) @binding(2) var<storage, read_write> agents_out: array<Agent>;
// The agents by cell (cells row by row), each cell's in ascending index.
@group(0) @binding(3) var<storage, read_write> order: array<u32>;
// Each cell's run of `order`: first, one past the last.
@group(0) @binding(4) var<storage, read_write> cell_runs: array<vec2u>;
// Each agent's random stream (four words) then its wander angles (as bits), `STATE_STRIDE`
// words an agent.
@group(0) @binding(5) var<storage, read_write> state: array<u32>;
// What the graphs read of the world, laid out by `lower.rs`: named targets (x, y), flow
// fields' cells (x, y), circle obstacles (x, y, r), tag members (agent indices as bits).
@group(0) @binding(6) var<storage, read> world: array<f32>;
// The grid's counters, from `grid_regions`: each cell's count and fill, each agent's cell, the
// agents as scattered (a cell's in any order), and each block of 256 cells' total.
@group(0) @binding(7) var<storage, read_write> grid: array<atomic<u32>>;

const TINY: f32 = 1e-6;
// graph-runtime's `TINY_SQUARED`: the smallest f32 whose square root is at least `TINY`.
const TINY_SQUARED: f32 = 9.9999988758398e-13f; // bits 0x2b8cbccb
const EMPTY: u32 = 0xffffffffu;

// The agent being stepped, and its neighbor sums, for the group's functions.
var<private> me: Agent;
var<private> me_index: u32;
var<private> sums: array<Sums, MAX_PASSES>;
var<private> me_rng: vec4u;

fn world2(at: u32) -> vec2f {
    return vec2f(world[at], world[at + 1u]);
}

fn rotl(x: u32, k: u32) -> u32 {
    return (x << k) | (x >> (32u - k));
}

// xoshiro128++ (BEHAVIORS.md, "Randomness"): bit for bit the runtime's stream.
fn next_u32() -> u32 {
    var s = me_rng;
    let result = rotl(s.x + s.w, 7u) + s.x;
    let t = s.y << 9u;
    s.z ^= s.x;
    s.w ^= s.y;
    s.y ^= s.z;
    s.x ^= s.w;
    s.z ^= t;
    s.w = rotl(s.w, 11u);
    me_rng = s;
    return result;
}

fn signed_unit() -> f32 {
    return f32(next_u32() >> 8u) * (1.0 / 16777216.0) * 2.0 - 1.0;
}

// Wander's angle of `slot`, turned by one draw: `θ += signed_unit() * jitter * dt`.
fn turn_wander(slot: u32, jitter: f32) -> f32 {
    let at = me_index * STATE_STRIDE + 4u + slot;
    let theta = bitcast<f32>(state[at]) + signed_unit() * jitter * tick.dt;
    state[at] = bitcast<u32>(theta);
    return theta;
}

fn rotate(direction: vec2f, angle: f32) -> vec2f {
    let c = cos(angle);
    let s = sin(angle);
    return vec2f(c * direction.x - s * direction.y, s * direction.x + c * direction.y);
}

fn wander(theta: f32, ahead: f32, radius: f32) -> vec2f {
    let centre = me.position + me.forward * ahead;
    return seek(centre + radius * rotate(me.forward, theta));
}

fn sign_of(x: f32) -> f32 {
    return select(-1.0, 1.0, x >= 0.0);
}

// Obstacle avoidance among `count` circles from `at` in `world` (BEHAVIORS.md,
// "ObstacleAvoidance").
fn obstacle_avoidance(at: u32, count: u32, min_length: f32, lookahead: f32) -> vec2f {
    let corridor = min_length + length(me.velocity) * lookahead;
    let side = vec2f(-me.forward.y, me.forward.x);
    var found = false;
    var nearest = 0.0;
    var best = vec2f(0.0);
    for (var o = 0u; o < count; o++) {
        let centre = world2(at + o * 3u);
        let r = world[at + o * 3u + 2u];
        let offset = centre - me.position;
        let l = vec2f(dot(offset, me.forward), dot(offset, side));
        let reach = r + me.radius;
        if l.x + r < 0.0 || l.x - r > corridor || abs(l.y) >= reach {
            continue;
        }
        var threat = l.x - sqrt(reach * reach - l.y * l.y);
        if threat < 0.0 {
            threat = l.x;
        }
        if !found || threat < nearest {
            found = true;
            nearest = threat;
            best = l;
        }
    }
    if !found {
        return vec2f(0.0);
    }
    return -sign_of(best.y) * side * me.max_force;
}

// The nearest other agent among `count` members (ascending indices) from `at` in `world`, the
// lower index on a tie; `EMPTY` when there is none.
fn nearest_member(at: u32, count: u32) -> u32 {
    var best = EMPTY;
    var nearest = 0.0;
    for (var m = 0u; m < count; m++) {
        let j = bitcast<u32>(world[at + m]);
        if j == me_index {
            continue;
        }
        let o = agents_in[j].position - me.position;
        let d2 = dot(o, o);
        if best == EMPTY || d2 < nearest {
            best = j;
            nearest = d2;
        }
    }
    return best;
}

// Pursuit's and Evasion's predicted point of a quarry at `q` moving at `qv`.
fn predicted(q: vec2f, qv: vec2f, most: f32) -> vec2f {
    var t = most;
    if me.max_speed > 0.0 {
        t = min(distance(me.position, q) / me.max_speed, most);
    }
    return q + qv * t;
}

fn index_of(id: vec3u, groups: vec3u) -> u32 {
    return id.x + id.y * groups.x * 64u;
}

fn cell_count() -> u32 {
    return tick.columns * tick.rows;
}

// Where each part of `grid` starts.
fn counts_at() -> u32 {
    return 0u;
}
fn fill_at() -> u32 {
    return cell_count();
}
fn keys_at() -> u32 {
    return 2u * cell_count();
}
fn scattered_at() -> u32 {
    return 2u * cell_count() + tick.agents;
}
fn blocks_at() -> u32 {
    return 2u * cell_count() + 2u * tick.agents;
}

fn finite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

fn finite2(v: vec2f) -> bool {
    return finite(v.x) && finite(v.y);
}

// `normalize` of BEHAVIORS.md: zero below `TINY`.
fn unit(v: vec2f) -> vec2f {
    let l = length(v);
    if l < TINY {
        return vec2f(0.0);
    }
    return v / l;
}

// `truncate` of BEHAVIORS.md for finite vectors (the runtime's f64 path for under- and
// overflowing lengths is not taken here: see BEHAVIORS.md, "On the GPU").
fn truncated(v: vec2f, limit: f32) -> vec2f {
    var m = limit;
    if !(m >= 0.0) {
        m = 0.0;
    }
    let l2 = dot(v, v);
    if l2 <= m * m {
        return v;
    }
    return v * (m / sqrt(l2));
}

fn seek(aim: vec2f) -> vec2f {
    return unit(aim - me.position) * me.max_speed - me.velocity;
}

fn flee(aim: vec2f, panic: f32, has_panic: bool) -> vec2f {
    if has_panic && distance(me.position, aim) > panic {
        return vec2f(0.0);
    }
    return unit(me.position - aim) * me.max_speed - me.velocity;
}

fn arrival(aim: vec2f, slowing: f32) -> vec2f {
    let offset = aim - me.position;
    let d = length(offset);
    if d < TINY {
        return -me.velocity;
    }
    let speed = min(me.max_speed * d / slowing, me.max_speed);
    return offset * (speed / d) - me.velocity;
}

fn containment(low: vec2f, high: vec2f, prediction: f32, margin: f32) -> vec2f {
    let predicted = me.position + me.velocity * prediction;
    if all(predicted >= low) && all(predicted <= high) {
        return vec2f(0.0);
    }
    let centre = (low + high) * 0.5;
    let shrunk_low = min(low + margin, centre);
    let shrunk_high = max(high - margin, centre);
    return seek(clamp(predicted, shrunk_low, max(shrunk_high, shrunk_low)));
}

fn mix2(a: vec2f, b: vec2f, t: f32) -> vec2f {
    return a * (1.0 - t) + b * t;
}

// A flow field's bilinear sample (BEHAVIORS.md, "FlowFieldFollowing"): the field's cells start
// at `offset` in `world`.
fn sample_field(point: vec2f, origin: vec2f, cell: f32, width: u32, height: u32, offset: u32) -> vec2f {
    let g = (point - origin) / cell;
    if !(g.x >= 0.0 && g.y >= 0.0 && g.x <= f32(width) && g.y <= f32(height)) {
        return vec2f(0.0);
    }
    let u = g - 0.5;
    let c0 = floor(u.x);
    let r0 = floor(u.y);
    let fx = u.x - c0;
    let fy = u.y - r0;
    let last = vec2f(f32(width - 1u), f32(height - 1u));
    let a = vec2u(clamp(vec2f(c0, r0), vec2f(0.0), last));
    let b = vec2u(clamp(vec2f(c0 + 1.0, r0 + 1.0), vec2f(0.0), last));
    let w00 = world2(offset + 2u * (a.y * width + a.x));
    let w10 = world2(offset + 2u * (a.y * width + b.x));
    let w01 = world2(offset + 2u * (b.y * width + a.x));
    let w11 = world2(offset + 2u * (b.y * width + b.x));
    return mix2(mix2(w00, w10, fx), mix2(w01, w11, fx), fy);
}

fn flow(origin: vec2f, cell: f32, width: u32, height: u32, offset: u32, prediction: f32) -> vec2f {
    let predicted = me.position + me.velocity * prediction;
    let w = sample_field(predicted, origin, cell, width, height, offset);
    if length(w) < TINY {
        return vec2f(0.0);
    }
    return w * me.max_speed - me.velocity;
}

fn cohesion(s: Sums) -> vec2f {
    if s.count == 0u {
        return vec2f(0.0);
    }
    return s.position / f32(s.count) - me.position;
}

fn alignment(s: Sums) -> vec2f {
    if s.count == 0u {
        return vec2f(0.0);
    }
    return s.velocity / f32(s.count) - me.velocity;
}

fn flocking(s: Sums, ws: f32, wc: f32, wa: f32) -> vec2f {
    if s.count == 0u {
        return vec2f(0.0);
    }
    return ws * unit(s.separation) + wc * unit(cohesion(s)) + wa * unit(alignment(s));
}

// The grid cell of a point, clamped to the grid: an agent outside it counts in an edge cell,
// which every query that could reach it visits too.
fn cell_of(point: vec2f) -> vec2u {
    let g = (point - tick.origin) / tick.side;
    let top = vec2f(f32(tick.columns - 1u), f32(tick.rows - 1u));
    // A NaN compares false: `max` then `min` keep the answer in the grid.
    return vec2u(min(max(floor(g), vec2f(0.0)), top));
}

fn in_view(offset: vec2f, full: bool, min_cosine: f32) -> bool {
    if full {
        return true;
    }
    let d = length(offset);
    return d < TINY || dot(me.forward, offset) >= min_cosine * d;
}

// Whether other agent `q` is a neighbor within `radius` and the view.
fn neighbor(q: vec2f, radius: f32, full: bool, min_cosine: f32) -> bool {
    let offset = q - me.position;
    return dot(offset, offset) < radius * radius && in_view(offset, full, min_cosine);
}

fn add_to(s: ptr<function, Sums>, q: Agent) {
    let away = me.position - q.position;
    let d2 = dot(away, away);
    if d2 >= TINY_SQUARED {
        (*s).separation += away / d2;
    }
    (*s).position += q.position;
    (*s).velocity += q.velocity;
    (*s).count += 1u;
}

// How many neighbors have a squared distance (as bits: positive floats order as integers)
// below `limit`, or equal to it and a lower agent index than `agent` when `agent != EMPTY`.
fn count_below(low: vec2u, high: vec2u, radius: f32, full: bool, min_cosine: f32, limit: u32, agent: u32) -> u32 {
    var n = 0u;
    for (var row = low.y; row <= high.y; row++) {
        for (var column = low.x; column <= high.x; column++) {
            let run = cell_runs[row * tick.columns + column];
            for (var s = run.x; s < run.y; s++) {
                let j = order[s];
                let q = agents_in[j].position;
                if j == me_index || !neighbor(q, radius, full, min_cosine) {
                    continue;
                }
                let o = q - me.position;
                let bits = bitcast<u32>(dot(o, o));
                if bits < limit || (agent != EMPTY && bits == limit && j < agent) {
                    n += 1u;
                }
            }
        }
    }
    return n;
}

// The sums of one neighbor pass (BEHAVIORS.md, "Neighborhoods"), in the grid's order: cells
// row by row, each cell's agents in ascending index. Past `most` neighbors, the `most`
// nearest (the lower index on a tie), found by a search over the squared distance's bits.
fn neighbor_sums(radius: f32, full: bool, min_cosine: f32, most: u32) -> Sums {
    var s = Sums(vec2f(0.0), vec2f(0.0), vec2f(0.0), 0u);
    let low = cell_of(me.position - vec2f(radius));
    let high = cell_of(me.position + vec2f(radius));
    for (var row = low.y; row <= high.y; row++) {
        for (var column = low.x; column <= high.x; column++) {
            let run = cell_runs[row * tick.columns + column];
            for (var slot = run.x; slot < run.y; slot++) {
                let j = order[slot];
                let q = agents_in[j];
                if j != me_index && neighbor(q.position, radius, full, min_cosine) {
                    add_to(&s, q);
                }
            }
        }
    }
    if s.count <= most {
        return s;
    }
    // The smallest distance bits `t` with at least `most` neighbors at or below it.
    var lo = 0u;
    var hi = 0x7f800000u;
    while lo < hi {
        let mid = lo + (hi - lo) / 2u;
        if count_below(low, high, radius, full, min_cosine, mid + 1u, EMPTY) >= most {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    let threshold = lo;
    s = Sums(vec2f(0.0), vec2f(0.0), vec2f(0.0), 0u);
    for (var row = low.y; row <= high.y; row++) {
        for (var column = low.x; column <= high.x; column++) {
            let run = cell_runs[row * tick.columns + column];
            for (var slot = run.x; slot < run.y; slot++) {
                let j = order[slot];
                let q = agents_in[j];
                if j == me_index || !neighbor(q.position, radius, full, min_cosine) {
                    continue;
                }
                let o = q.position - me.position;
                let bits = bitcast<u32>(dot(o, o));
                var keep = bits < threshold;
                if bits == threshold {
                    // Tied at the threshold: the lower indices fill what is left (the count
                    // takes in every neighbor nearer than the threshold).
                    keep = count_below(low, high, radius, full, min_cosine, threshold, j) < most;
                }
                if keep {
                    add_to(&s, q);
                }
            }
        }
    }
    return s;
}

// Every cell's count and fill emptied.
@compute @workgroup_size(64)
fn grid_clear(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    let c = index_of(id, groups);
    if c < cell_count() {
        atomicStore(&grid[counts_at() + c], 0u);
        atomicStore(&grid[fill_at() + c], 0u);
    }
}

// Each agent's cell, kept, and counted.
@compute @workgroup_size(64)
fn grid_count(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    let i = index_of(id, groups);
    if i >= tick.agents {
        return;
    }
    let cell = cell_of(agents_in[i].position);
    let c = cell.y * tick.columns + cell.x;
    atomicStore(&grid[keys_at() + i], c);
    atomicAdd(&grid[counts_at() + c], 1u);
}

var<workgroup> scan: array<u32, 256>;

// An inclusive scan of `scan` by the workgroup's 256 threads (Hillis and Steele).
fn scan_workgroup(lid: u32) {
    for (var d = 1u; d < 256u; d *= 2u) {
        var add = 0u;
        if lid >= d {
            add = scan[lid - d];
        }
        workgroupBarrier();
        scan[lid] += add;
        workgroupBarrier();
    }
}

// Each block of 256 cells: every cell's start within the block, and the block's total.
@compute @workgroup_size(256)
fn grid_scan_blocks(
    @builtin(workgroup_id) wid: vec3u,
    @builtin(num_workgroups) groups: vec3u,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = wid.x + wid.y * groups.x;
    let c = block * 256u + lid;
    var count = 0u;
    if c < cell_count() {
        count = atomicLoad(&grid[counts_at() + c]);
    }
    scan[lid] = count;
    workgroupBarrier();
    scan_workgroup(lid);
    if c < cell_count() {
        cell_runs[c] = vec2u(scan[lid] - count, 0u);
    }
    if lid == 255u && block * 256u < cell_count() {
        atomicStore(&grid[blocks_at() + block], scan[255]);
    }
}

// The blocks' totals scanned into their starts, by one workgroup, 256 blocks at a time.
@compute @workgroup_size(256)
fn grid_scan_totals(@builtin(local_invocation_index) lid: u32) {
    let blocks = (cell_count() + 255u) / 256u;
    var carry = 0u;
    for (var base = 0u; base < blocks; base += 256u) {
        let b = base + lid;
        var total = 0u;
        if b < blocks {
            total = atomicLoad(&grid[blocks_at() + b]);
        }
        scan[lid] = total;
        workgroupBarrier();
        scan_workgroup(lid);
        if b < blocks {
            atomicStore(&grid[blocks_at() + b], carry + scan[lid] - total);
        }
        let all = scan[255];
        workgroupBarrier();
        carry += all;
    }
}

// Every cell's run: its start within its block plus the block's start.
@compute @workgroup_size(64)
fn grid_runs(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    let c = index_of(id, groups);
    if c >= cell_count() {
        return;
    }
    let start = cell_runs[c].x + atomicLoad(&grid[blocks_at() + c / 256u]);
    cell_runs[c] = vec2u(start, start + atomicLoad(&grid[counts_at() + c]));
}

// Each agent into its cell's run, at the next free place (in whatever order threads come).
@compute @workgroup_size(64)
fn grid_scatter(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    let i = index_of(id, groups);
    if i >= tick.agents {
        return;
    }
    let c = atomicLoad(&grid[keys_at() + i]);
    let place = cell_runs[c].x + atomicAdd(&grid[fill_at() + c], 1u);
    atomicStore(&grid[scattered_at() + place], i);
}

// Each agent placed in its cell by its index: its place is the run's start plus how many of
// the cell's agents have a lower index, so the order does not depend on the scatter's.
@compute @workgroup_size(64)
fn grid_place(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    let s = index_of(id, groups);
    if s >= tick.agents {
        return;
    }
    let i = atomicLoad(&grid[scattered_at() + s]);
    let run = cell_runs[atomicLoad(&grid[keys_at() + i])];
    var rank = 0u;
    for (var t = run.x; t < run.y; t++) {
        rank += u32(atomicLoad(&grid[scattered_at() + t]) < i);
    }
    order[run.x + rank] = i;
}

// Every agent's force from its group's graph, then the vehicle step (BEHAVIORS.md, "The
// vehicle"), into `agents_out`.
@compute @workgroup_size(64)
fn steer_and_step(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    let i = index_of(id, groups);
    if i >= tick.agents {
        return;
    }
    me = agents_in[i];
    me_index = i;
    let at = i * STATE_STRIDE;
    me_rng = vec4u(state[at], state[at + 1u], state[at + 2u], state[at + 3u]);
    var force = steer_group(me.group);
    state[at] = me_rng.x;
    state[at + 1u] = me_rng.y;
    state[at + 2u] = me_rng.z;
    state[at + 3u] = me_rng.w;
    if !finite2(force) {
        force = vec2f(0.0);
    }
    force = truncated(force, me.max_force);
    var acceleration = vec2f(0.0);
    if me.mass > 0.0 {
        acceleration = force / me.mass;
    }
    var out = me;
    out.velocity = truncated(me.velocity + acceleration * tick.dt, me.max_speed);
    out.position = me.position + out.velocity * tick.dt;
    let speed = length(out.velocity);
    if speed > TINY {
        out.forward = out.velocity / speed;
    }
    agents_out[i] = out;
}
