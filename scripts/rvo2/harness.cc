// RVO2's side of `scripts/versus_rvo2.sh`: RVO2's own Circle and Blocks examples (their agent
// defaults, time step and preferred velocities, without Blocks' random perturbation), scaled
// as the script asks, timed per step on one thread, with the same arrival and overlap figures
// as `tests/examples/versus_rvo2.rs`. Not part of the product: built by the script only.
//
// usage: harness circle N [PHASE] | harness blocks [PHASE]
// PHASE (radians, default 0) turns every ring (Circle) or the whole scene (Blocks) by that
// angle: the same scenario with other rounding, for an ensemble of runs. With TRAJECTORY=FILE set, the positions after steps 1, 2,
// 5, 10, 20, 50, 100, 200, 400, 800 and 1600 go to FILE as lines "step agent x y".
// STEPS=N stops after at most N steps (the "100,000 agents x 100 steps"), and the
// arrival figures then count each agent not arrived as arriving at the last step, as at the
// scenario's own step limit.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "RVO.h"

namespace {

struct Scenario {
  std::vector<RVO::Vector2> starts;
  std::vector<RVO::Vector2> goals;
  std::vector<std::vector<RVO::Vector2>> obstacles;
  float neighbor_dist, time_horizon, time_horizon_obst, radius, max_speed;
  std::size_t max_neighbors;
  long max_steps;
};

// Agents on rings 5 units apart from radius `ring` out, 5 units apart along each ring (as the
// example's 250 on radius 200), each heading for its antipode; one ring when `count` fits.
Scenario circle(std::size_t count, float phase) {
  Scenario s{{}, {}, {}, 15.0F, 10.0F, 10.0F, 1.5F, 2.0F, 10U, 0};
  const float two_pi = 6.28318530717958647692F;
  float ring = 200.0F;
  std::size_t placed = 0;
  // A single ring scaled with the count up to 1,000 agents (radius 800), rings beyond.
  if (count <= 1000) ring = 200.0F * static_cast<float>(count) / 250.0F;
  float outer = ring;
  while (placed < count) {
    std::size_t on_ring = static_cast<std::size_t>(two_pi * ring / 5.0F);
    if (count <= 1000) on_ring = count;
    if (on_ring > count - placed) on_ring = count - placed;
    for (std::size_t i = 0; i < on_ring; ++i) {
      float a = static_cast<float>(i) * two_pi / static_cast<float>(on_ring) + phase;
      RVO::Vector2 p = ring * RVO::Vector2(std::cos(a), std::sin(a));
      s.starts.push_back(p);
      s.goals.push_back(-p);
    }
    placed += on_ring;
    outer = ring;
    ring += 5.0F;
  }
  s.max_steps = static_cast<long>(4.0F * 2.0F * outer / 1.0F / 0.25F);
  return s;
}

// `p` turned by `angle` about the origin.
RVO::Vector2 turned(const RVO::Vector2 &p, float angle) {
  const float c = std::cos(angle), s = std::sin(angle);
  return RVO::Vector2(p.x() * c - p.y() * s, p.x() * s + p.y() * c);
}

Scenario blocks(float phase) {
  Scenario s{{}, {}, {}, 15.0F, 5.0F, 5.0F, 2.0F, 2.0F, 10U, 4000};
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      float x = 55.0F + static_cast<float>(i) * 10.0F;
      float y = 55.0F + static_cast<float>(j) * 10.0F;
      s.starts.push_back(RVO::Vector2(x, y));
      s.goals.push_back(RVO::Vector2(-75.0F, -75.0F));
      s.starts.push_back(RVO::Vector2(-x, y));
      s.goals.push_back(RVO::Vector2(75.0F, -75.0F));
      s.starts.push_back(RVO::Vector2(x, -y));
      s.goals.push_back(RVO::Vector2(-75.0F, 75.0F));
      s.starts.push_back(RVO::Vector2(-x, -y));
      s.goals.push_back(RVO::Vector2(75.0F, 75.0F));
    }
  }
  using V = RVO::Vector2;
  s.obstacles = {
      {V(-10, 40), V(-40, 40), V(-40, 10), V(-10, 10)},
      {V(10, 40), V(10, 10), V(40, 10), V(40, 40)},
      {V(10, -40), V(40, -40), V(40, -10), V(10, -10)},
      {V(-10, -40), V(-10, -10), V(-40, -10), V(-40, -40)},
  };
  if (phase != 0.0F) {
    for (auto &p : s.starts) p = turned(p, phase);
    for (auto &p : s.goals) p = turned(p, phase);
    for (auto &o : s.obstacles) {
      for (auto &p : o) p = turned(p, phase);
    }
  }
  return s;
}

// Pairs of agents closer than the sum of their radii (a grid of cells 2 radii wide).
long overlapping_pairs(const RVO::RVOSimulator &sim, float radius) {
  const float cell = 2.0F * radius;
  std::unordered_map<long long, std::vector<std::size_t>> cells;
  auto key = [](long long x, long long y) { return (x << 32) ^ (y & 0xffffffffLL); };
  for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
    const RVO::Vector2 &p = sim.getAgentPosition(i);
    cells[key(static_cast<long long>(std::floor(p.x() / cell)),
              static_cast<long long>(std::floor(p.y() / cell)))]
        .push_back(i);
  }
  long pairs = 0;
  for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
    const RVO::Vector2 &p = sim.getAgentPosition(i);
    long long cx = static_cast<long long>(std::floor(p.x() / cell));
    long long cy = static_cast<long long>(std::floor(p.y() / cell));
    for (long long dx = -1; dx <= 1; ++dx) {
      for (long long dy = -1; dy <= 1; ++dy) {
        auto found = cells.find(key(cx + dx, cy + dy));
        if (found == cells.end()) continue;
        for (std::size_t j : found->second) {
          if (j > i && RVO::absSq(sim.getAgentPosition(j) - p) < cell * cell) ++pairs;
        }
      }
    }
  }
  return pairs;
}

// The steps after which TRAJECTORY records every position.
bool traced(long step) {
  for (long at : {1, 2, 5, 10, 20, 50, 100, 200, 400, 800, 1600}) {
    if (step == at) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: harness circle N [PHASE] | harness blocks [PHASE]\n");
    return 2;
  }
  std::string which = argv[1];
  const float phase = argc > 3 ? std::strtof(argv[3], nullptr) : 0.0F;
  Scenario s = which == "circle"
                   ? circle(argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 250, phase)
                   : blocks(argc > 2 ? std::strtof(argv[2], nullptr) : 0.0F);
  if (const char *cap = std::getenv("STEPS")) {
    const long most = std::strtol(cap, nullptr, 10);
    if (most <= 0) {
      std::fprintf(stderr, "STEPS=%s: not a positive number of steps\n", cap);
      return 2;
    }
    if (most < s.max_steps) s.max_steps = most;
  }
  const char *trajectory_path = std::getenv("TRAJECTORY");
  FILE *trajectory = trajectory_path ? std::fopen(trajectory_path, "w") : nullptr;
  RVO::RVOSimulator sim;
  sim.setTimeStep(0.25F);
  sim.setAgentDefaults(s.neighbor_dist, s.max_neighbors, s.time_horizon, s.time_horizon_obst,
                       s.radius, s.max_speed);
  for (const RVO::Vector2 &p : s.starts) sim.addAgent(p);
  for (const auto &o : s.obstacles) sim.addObstacle(o);
  sim.processObstacles();
  const std::size_t n = sim.getNumAgents();
  std::vector<double> arrived(n, -1.0);
  std::size_t remaining = n;
  double stepping = 0.0;
  long steps = 0, overlaps = 0, most = 0;
  while (remaining > 0 && steps < s.max_steps) {
    auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) {
      RVO::Vector2 goal = s.goals[i] - sim.getAgentPosition(i);
      if (RVO::absSq(goal) > 1.0F) goal = RVO::normalize(goal);
      sim.setAgentPrefVelocity(i, goal);
    }
    sim.doStep();
    stepping += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++steps;
    if (trajectory && traced(steps)) {
      for (std::size_t i = 0; i < n; ++i) {
        const RVO::Vector2 &p = sim.getAgentPosition(i);
        std::fprintf(trajectory, "%ld %zu %.9g %.9g\n", steps, i, p.x(), p.y());
      }
    }
    long pairs = overlapping_pairs(sim, s.radius);
    overlaps += pairs;
    if (pairs > most) most = pairs;
    for (std::size_t i = 0; i < n; ++i) {
      if (arrived[i] < 0.0 &&
          RVO::absSq(sim.getAgentPosition(i) - s.goals[i]) <= s.radius * s.radius) {
        arrived[i] = steps * 0.25;
        --remaining;
      }
    }
  }
  if (trajectory) std::fclose(trajectory);
  double sum = 0.0;
  for (double t : arrived) sum += t < 0.0 ? steps * 0.25 : t;
  // Which build (versus_rvo2.sh names each, "RVO2-lto-t1"); plain "RVO2" when run alone.
  const char *label = std::getenv("RVO2_LABEL");
  std::printf(
      "%s %s %zu agents: %ld steps, %.4f ms per step, mean arrival %.2f s, %zu not arrived, "
      "overlapping pairs %ld (most at once %ld)\n",
      label ? label : "RVO2", which.c_str(), n, steps, stepping * 1e3 / static_cast<double>(steps), sum / n, remaining,
      overlaps, most);
  return 0;
}
