/*
 * Every way a C caller can get it wrong, and what the library answers: a status and a
 * message, never a crash, a leak or a write it was not asked for. CI runs this under
 * valgrind (integrations/c/check.sh): 0 errors, 0 leaks.
 *
 *   errors PRESETS_FOLDER
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "steergraph.h"

static int failures = 0;

/* Checks that a call answered `expected`, and that the message names `needle`. */
static void expect(const char *what, SgStatus got, SgStatus expected, const char *needle) {
    char message[4096] = "";
    size_t length = 0;
    if (got != SG_STATUS_OK) {
        sg_last_error(message, sizeof message, &length);
    }
    if (got != expected || (needle != NULL && strstr(message, needle) == NULL)) {
        printf("FAILED %s: status %d (expected %d), message: %s\n", what, (int)got, (int)expected, message);
        failures++;
    } else {
        printf("ok %s: %s\n", what, got == SG_STATUS_OK ? "ok" : message);
    }
}

static const char BROKEN_GRAPH[] = "(\n    format: \"steergraph.graph\",\n    version: 1,\n    nodes: {1: Seek(target: ),}\n)";
static const char USES_MISSING_SUBGRAPH[] =
    "(format: \"steergraph.graph\", version: 1, nodes: {1: Subgraph(file: \"missing_sub.graph.ron\"), 2: Output(input: 1)})";
static const char NEEDS_A_PATH[] =
    "(format: \"steergraph.graph\", version: 1, nodes: {1: PathFollowing(path: \"road\", prediction_time: 0.5, ahead_distance: 5.0,\n"
    " direction: Forward, corrective: false), 2: Output(input: 1)})";
static const char SEEK[] =
    "(format: \"steergraph.graph\", version: 1, parameters: {\"speed\": 3.0},\n"
    " vehicle: (mass: 1.0, max_force: 5.0, max_speed: \"speed\", radius: 0.5),\n"
    " nodes: {1: Seek(target: Point(10.0, 0.0)), 2: Output(input: 1)})";

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PRESETS_FOLDER\n", argv[0]);
        return 2;
    }
    char path[4096], message[8];
    size_t length = 0;

    /* Malformed files: the message says file:line:col. */
    SgGraph graph = {0};
    expect("malformed graph bytes", sg_graph_from_bytes((const uint8_t *)BROKEN_GRAPH, strlen(BROKEN_GRAPH), "broken.graph.ron", &graph),
           SG_STATUS_LOAD, "broken.graph.ron:4:");
    expect("the handle of a failed load is untouched", graph.id == 0 ? SG_STATUS_OK : SG_STATUS_PANIC, SG_STATUS_OK, NULL);
    snprintf(path, sizeof path, "%s/no_such.graph.ron", argv[1]);
    expect("missing graph file", sg_graph_load(path, &graph), SG_STATUS_LOAD, "no_such.graph.ron");
    SgScene scene = {0};
    expect("not a scene", sg_scene_from_bytes((const uint8_t *)SEEK, strlen(SEEK), "seek.scene.ron", argv[1], &scene), SG_STATUS_LOAD, "seek.scene.ron");

    /* A missing subgraph: named, as `steergraph check` names it. */
    expect("graph that uses a subgraph", sg_graph_from_bytes((const uint8_t *)USES_MISSING_SUBGRAPH, strlen(USES_MISSING_SUBGRAPH), "main.graph.ron", &graph),
           SG_STATUS_OK, NULL);
    snprintf(path, sizeof path, "%s/main.graph.ron", argv[1]);
    SgProgram program = {0};
    expect("missing subgraph", sg_program_compile(graph, path, &program), SG_STATUS_COMPILE, "missing_sub.graph.ron");
    expect("free graph", sg_graph_free(graph), SG_STATUS_OK, NULL);

    /* NULL pointers. */
    expect("NULL path", sg_scene_load(NULL, &scene), SG_STATUS_NULL_POINTER, "path is NULL");
    snprintf(path, sizeof path, "%s/seek.scene.ron", argv[1]);
    expect("NULL output", sg_scene_load(path, NULL), SG_STATUS_NULL_POINTER, "scene is NULL");
    expect("NULL length", sg_last_error(message, sizeof message, NULL), SG_STATUS_NULL_POINTER, NULL);

    /* A freed handle, a double free, a handle of another kind, a made-up one. */
    expect("graph", sg_graph_from_bytes((const uint8_t *)SEEK, strlen(SEEK), "seek.graph.ron", &graph), SG_STATUS_OK, NULL);
    expect("free", sg_graph_free(graph), SG_STATUS_OK, NULL);
    expect("freed handle", sg_program_compile(graph, NULL, &program), SG_STATUS_BAD_HANDLE, "freed");
    expect("double free", sg_graph_free(graph), SG_STATUS_BAD_HANDLE, "freed");
    expect("scene", sg_scene_load(path, &scene), SG_STATUS_OK, NULL);
    SgGraph not_a_graph = {scene.id};
    expect("wrong kind", sg_program_compile(not_a_graph, NULL, &program), SG_STATUS_BAD_HANDLE, "not a graph");
    SgGraph made_up = {0x0100000700000009ull};
    expect("made-up handle", sg_graph_free(made_up), SG_STATUS_BAD_HANDLE, NULL);
    SgGraph zero = {0};
    expect("zero handle", sg_program_compile(zero, NULL, &program), SG_STATUS_BAD_HANDLE, "zero");
    expect("freeing zero does nothing", sg_graph_free(zero), SG_STATUS_OK, NULL);

    /* Short arrays: refused, nothing written. */
    SgSimulation simulation = {0};
    expect("simulation", sg_simulation_create(scene, NULL, &simulation), SG_STATUS_OK, NULL);
    expect("free scene", sg_scene_free(scene), SG_STATUS_OK, NULL);
    size_t count = 0;
    sg_simulation_agent_count(simulation, &count);
    float position[2 * 64];
    for (size_t i = 0; i < 2 * 64; i++) {
        position[i] = -1.0f;
    }
    SgAgentArrays arrays = {.capacity = count - 1, .position = position};
    expect("short array", sg_simulation_read(simulation, &arrays), SG_STATUS_ARRAY_TOO_SHORT, "capacity is");
    expect("nothing written to a short array", position[0] == -1.0f ? SG_STATUS_OK : SG_STATUS_PANIC, SG_STATUS_OK, NULL);
    expect("NULL arrays", sg_simulation_read(simulation, NULL), SG_STATUS_NULL_POINTER, NULL);
    expect("short text buffer", sg_last_error(message, sizeof message, &length), SG_STATUS_ARRAY_TOO_SHORT, NULL);
    expect("its length is reported", length > sizeof message ? SG_STATUS_OK : SG_STATUS_PANIC, SG_STATUS_OK, NULL);

    /* Numbers that are not finite or out of range. */
    expect("NaN dt", sg_simulation_step(simulation, NAN), SG_STATUS_INVALID_ARGUMENT, "dt");
    expect("zero dt", sg_simulation_step(simulation, 0.0f), SG_STATUS_INVALID_ARGUMENT, "dt");
    expect("agent past the end", sg_simulation_set_goal(simulation, count, "goal", 1.0f, 1.0f), SG_STATUS_INVALID_ARGUMENT, "agents");
    expect("infinite goal", sg_simulation_set_goal(simulation, 0, "goal", INFINITY, 1.0f), SG_STATUS_INVALID_ARGUMENT, "finite");
    expect("free simulation", sg_simulation_free(simulation), SG_STATUS_OK, NULL);

    SgWorld world = {0};
    expect("inverted bounds", sg_world_create(10.0f, 0.0f, -10.0f, 5.0f, &world), SG_STATUS_INVALID_ARGUMENT, "bounds");
    expect("world", sg_world_create(-10.0f, -10.0f, 10.0f, 10.0f, &world), SG_STATUS_OK, NULL);
    expect("infinite obstacle", sg_world_add_obstacle(world, INFINITY, 0.0f, 1.0f), SG_STATUS_INVALID_ARGUMENT, "finite");
    float one_point[2] = {0.0f, 0.0f};
    expect("one-point wall", sg_world_add_wall(world, one_point, 1, false), SG_STATUS_INVALID_ARGUMENT, "2 points");
    expect("NULL wall points", sg_world_add_wall(world, NULL, 3, false), SG_STATUS_NULL_POINTER, NULL);

    /* A crowd: a name the world lacks, an override the graph refuses, bad vehicles. */
    expect("graph", sg_graph_from_bytes((const uint8_t *)NEEDS_A_PATH, strlen(NEEDS_A_PATH), "road.graph.ron", &graph), SG_STATUS_OK, NULL);
    expect("compile", sg_program_compile(graph, NULL, &program), SG_STATUS_OK, NULL);
    sg_graph_free(graph);
    SgCrowd crowd = {0};
    expect("path the world lacks", sg_crowd_create(program, world, 1, NULL, 0, NULL, 0, &crowd), SG_STATUS_SETUP, "road");
    sg_program_free(program);
    expect("graph", sg_graph_from_bytes((const uint8_t *)SEEK, strlen(SEEK), "seek.graph.ron", &graph), SG_STATUS_OK, NULL);
    expect("set unknown parameter", sg_graph_set_parameter(graph, "sped", 2.0f), SG_STATUS_INVALID_ARGUMENT, "speed");
    expect("compile", sg_program_compile(graph, NULL, &program), SG_STATUS_OK, NULL);
    sg_graph_free(graph);
    SgParameter bad[1] = {{"speed", -4.0f}};
    expect("override out of range", sg_crowd_create(program, world, 1, bad, 1, NULL, 0, &crowd), SG_STATUS_SETUP, "speed");
    SgParameter good[1] = {{"speed", 4.0f}};
    expect("crowd", sg_crowd_create(program, world, 1, good, 1, NULL, 0, &crowd), SG_STATUS_OK, NULL);
    SgVehicle vehicles[2];
    sg_crowd_vehicle(crowd, 0.0f, 0.0f, 0.0f, 0.0f, &vehicles[0]);
    sg_crowd_vehicle(crowd, 1.0f, 0.0f, 0.0f, 0.0f, &vehicles[1]);
    SgSteering steering[2];
    expect("steer", sg_crowd_steer(crowd, world, vehicles, NULL, 2, 0.1f, steering), SG_STATUS_OK, NULL);
    expect("the override reached the vehicle", vehicles[0].max_speed == 4.0f ? SG_STATUS_OK : SG_STATUS_PANIC, SG_STATUS_OK, NULL);
    vehicles[1].velocity[1] = NAN;
    expect("NaN velocity", sg_crowd_steer(crowd, world, vehicles, NULL, 2, 0.1f, steering), SG_STATUS_INVALID_ARGUMENT, "vehicles[1].velocity");
    vehicles[1].mass = 0.0f;
    vehicles[1].velocity[1] = 0.0f;
    expect("zero mass", sg_vehicles_step(world, vehicles, steering, 2, 0.1f, NULL), SG_STATUS_INVALID_ARGUMENT, "vehicles[1].mass");
    expect("NULL steering", sg_crowd_steer(crowd, world, vehicles, NULL, 2, 0.1f, NULL), SG_STATUS_NULL_POINTER, NULL);
    expect("a goal no graph reads (a misspelling)", sg_crowd_set_goal(crowd, 0, "goal", 3.0f, 4.0f), SG_STATUS_INVALID_ARGUMENT,
           "own goal \"goal\": no graph of this crowd reads it (they read: none)");
    expect("NaN route point", sg_crowd_set_route(crowd, 0, "route", (float[]){0.0f, NAN}, 1, 1.0f), SG_STATUS_INVALID_ARGUMENT, "finite");
    vehicles[1].mass = 1.0f;
    expect("world freed before the crowd", sg_world_free(world), SG_STATUS_OK, NULL);
    expect("steer in a freed world", sg_crowd_steer(crowd, world, vehicles, NULL, 2, 0.1f, steering), SG_STATUS_BAD_HANDLE, "world");
    expect("free crowd", sg_crowd_free(crowd), SG_STATUS_OK, NULL);
    expect("free program", sg_program_free(program), SG_STATUS_OK, NULL);

    /* Hot reload: a watcher on a missing file is refused by name; one on a real file polls
     * nothing new, hands out its program, and frees (valgrind checks it leaves nothing). */
    SgWatcher watcher = {0};
    snprintf(path, sizeof path, "%s/no_such.graph.ron", argv[1]);
    expect("watch a missing file", sg_watcher_create(path, &watcher), SG_STATUS_LOAD, "no_such.graph.ron");
    snprintf(path, sizeof path, "%s/seek.graph.ron", argv[1]);
    expect("watch a graph", sg_watcher_create(path, &watcher), SG_STATUS_OK, NULL);
    SgProgram reloaded = {0};
    expect("poll with nothing changed", sg_watcher_poll(watcher, &reloaded), SG_STATUS_OK, NULL);
    expect("no new program", reloaded.id == 0 ? SG_STATUS_OK : SG_STATUS_PANIC, SG_STATUS_OK, NULL);
    expect("the watched program", sg_watcher_program(watcher, &reloaded), SG_STATUS_OK, NULL);
    expect("free the watched program", sg_program_free(reloaded), SG_STATUS_OK, NULL);
    expect("free the watcher", sg_watcher_free(watcher), SG_STATUS_OK, NULL);

    size_t live = 1;
    expect("live objects", sg_live_objects(&live), SG_STATUS_OK, NULL);
    expect("every handle freed", live == 0 ? SG_STATUS_OK : SG_STATUS_PANIC, SG_STATUS_OK, NULL);
    printf("%d unexpected answers\n", failures);
    return failures == 0 ? 0 : 1;
}
