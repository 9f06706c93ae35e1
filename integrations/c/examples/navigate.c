/*
 * A game's own level with its own walls, and its own agents that find their way through it:
 * the navigation mesh is built from the walls the game adds, every agent walks the route
 * planned to its own goal (a Navigate node in the navigator preset), and the game reads each
 * route's state and points. Exits 0 when every agent arrived and every handle was freed.
 *
 *   navigate PRESETS_FOLDER
 *
 * Build (Linux, shared library):
 *   cc -std=c11 -I include examples/navigate.c -L ../../target/debug -lsteergraph -lm -o navigate
 */
#include <math.h>
#include <stdio.h>

#include "steergraph.h"

#define AGENTS 6
#define TICKS (60 * 20)
#define TICK (1.0f / 60.0f)

static int fail(const char *what) {
    char message[4096];
    size_t length = 0;
    sg_last_error(message, sizeof message, &length);
    fprintf(stderr, "%s: %s\n", what, message);
    return 1;
}

static const char *status_name(SgRouteStatus status) {
    switch (status) {
    case SG_ROUTE_STATUS_NONE: return "none";
    case SG_ROUTE_STATUS_WAITING: return "waiting";
    case SG_ROUTE_STATUS_FOLLOWING: return "following";
    case SG_ROUTE_STATUS_REPLANNING: return "re-planning";
    case SG_ROUTE_STATUS_UNREACHABLE: return "unreachable";
    case SG_ROUTE_STATUS_NO_NAVIGATION: return "no navigation";
    }
    return "?";
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PRESETS_FOLDER\n", argv[0]);
        return 2;
    }
    char graph_path[4096];
    snprintf(graph_path, sizeof graph_path, "%s/navigator.graph.ron", argv[1]);
    SgProgram program = {0};
    if (sg_program_load(graph_path, &program) != SG_STATUS_OK) {
        return fail(graph_path);
    }
    /* The game's level: 40 by 20, split at x = 0 by a wall with a 3-unit door at its top. */
    SgWorld world = {0};
    sg_world_create(-20.0f, -10.0f, 20.0f, 10.0f, &world);
    const float wall[] = {0.0f, -10.0f, 0.0f, 5.0f};
    sg_world_add_wall(world, wall, 2, false);
    /* The mesh for the agents' radius (the navigator's vehicle: 0.5). */
    if (sg_world_build_navigation(world, 0.5f) != SG_STATUS_OK) {
        int code = fail("navigation");
        sg_world_free(world);
        sg_program_free(program);
        return code;
    }
    SgCrowd crowd = {0};
    if (sg_crowd_create(program, world, 1, NULL, 0, NULL, 0, &crowd) != SG_STATUS_OK) {
        int code = fail("crowd");
        sg_world_free(world);
        sg_program_free(program);
        return code;
    }
    sg_program_free(program);

    /* Six agents west of the wall, each with its own goal east of it, behind the wall. */
    SgVehicle agents[AGENTS];
    for (int i = 0; i < AGENTS; i++) {
        float y = -7.5f + (float)i * 2.0f;
        sg_crowd_vehicle(crowd, -12.0f, y, 0.0f, 0.0f, &agents[i]);
        sg_crowd_set_goal(crowd, (size_t)i, "goal", 12.0f, y);
    }
    int arrived_at[AGENTS];
    for (int i = 0; i < AGENTS; i++) {
        arrived_at[i] = -1;
    }
    for (int tick = 1; tick <= TICKS; tick++) {
        if (sg_crowd_step(crowd, world, agents, NULL, AGENTS, TICK) != SG_STATUS_OK) {
            int code = fail("step");
            sg_crowd_free(crowd);
            sg_world_free(world);
            return code;
        }
        for (int i = 0; i < AGENTS; i++) {
            float dx = agents[i].position[0] - 12.0f;
            float dy = agents[i].position[1] - (-7.5f + (float)i * 2.0f);
            if (arrived_at[i] < 0 && sqrtf(dx * dx + dy * dy) < 1.0f) {
                arrived_at[i] = tick;
            }
        }
        if (tick == 2) {
            /* The first routes, planned on tick 2: through the door, round the wall's end. */
            for (int i = 0; i < AGENTS; i++) {
                SgRouteState state;
                float xy[2 * 16];
                size_t count = 0;
                sg_crowd_route_state(crowd, (size_t)i, &state);
                sg_crowd_route_points(crowd, (size_t)i, xy, 16, &count);
                printf("agent %d: %s, %zu points:", i, status_name(state.status), count);
                for (size_t p = 0; p < count; p++) {
                    printf(" (%.2f, %.2f)", (double)xy[2 * p], (double)xy[2 * p + 1]);
                }
                printf("\n");
            }
        }
    }
    int everyone = 1;
    for (int i = 0; i < AGENTS; i++) {
        SgRouteState state;
        sg_crowd_route_state(crowd, (size_t)i, &state);
        printf("agent %d: %s, %u plans, arrived at tick %d\n", i, status_name(state.status),
               state.plans, arrived_at[i]);
        everyone &= arrived_at[i] > 0;
    }
    sg_crowd_free(crowd);
    sg_world_free(world);
    size_t live = 0;
    sg_live_objects(&live);
    return everyone && live == 0 ? 0 : 1;
}
