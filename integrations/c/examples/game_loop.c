/*
 * A game's own loop steering its own agents with a Steergraph graph and flow field: no
 * scene, no editor, the same motion as the editor's preview. The C twin of
 * graph-runtime/examples/game_loop.rs.
 *
 *   game_loop PRESETS_FOLDER
 *
 * Build (Linux, static library; see the README for the shared one and other systems):
 *   cc -std=c11 -I include examples/game_loop.c ../../target/release/libsteergraph.a \
 *      -lpthread -ldl -lm -o game_loop
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "steergraph.h"

#define FISH 8
#define TICKS 600
#define TICK (1.0f / 60.0f)
#define SEED 3

/* The game's own agent: a body the graph steers, plus whatever else the game needs. */
typedef struct Fish {
    char name[16];
    SgVehicle body;
    float distance_swum;
} Fish;

static int fail(const char *what) {
    char message[4096];
    size_t length = 0;
    sg_last_error(message, sizeof message, &length);
    fprintf(stderr, "%s: %s\n", what, message);
    return 1;
}

static void put_float(float value) {
    char text[64];
    size_t length = 0;
    sg_format_f32(value, text, sizeof text, &length);
    fputs(text, stdout);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PRESETS_FOLDER\n", argv[0]);
        return 2;
    }
    char graph_path[4096], field_path[4096];
    snprintf(graph_path, sizeof graph_path, "%s/river.graph.ron", argv[1]);
    snprintf(field_path, sizeof field_path, "%s/river.flow.ron", argv[1]);

    /* The behavior graph and flow field, made in the editor. */
    SgProgram program = {0};
    if (sg_program_load(graph_path, &program) != SG_STATUS_OK) {
        return fail(graph_path);
    }
    SgField field = {0};
    if (sg_field_load(field_path, &field) != SG_STATUS_OK) {
        sg_program_free(program);
        return fail(field_path);
    }
    /* The level: its playing area, and the field under the name the graph knows it by. */
    SgWorld world = {0};
    sg_world_create(-60.0f, -20.0f, 60.0f, 20.0f, &world);
    SgStatus status = sg_world_set_flow_field(world, "river", field);
    sg_field_free(field); /* the world keeps its own copy */
    SgCrowd crowd = {0};
    if (status != SG_STATUS_OK || sg_crowd_create(program, world, SEED, NULL, 0, NULL, 0, &crowd) != SG_STATUS_OK) {
        int code = fail("crowd");
        sg_world_free(world);
        sg_program_free(program);
        return code;
    }
    sg_program_free(program); /* the crowd keeps the program */

    Fish school[FISH];
    for (int i = 0; i < FISH; i++) {
        snprintf(school[i].name, sizeof school[i].name, "fish %d", i);
        sg_crowd_vehicle(crowd, -55.0f, -15.0f + (float)i * 4.0f, 0.0f, 0.0f, &school[i].body);
        school[i].distance_swum = 0.0f;
    }

    /* One tick of the game: the graph steers every fish, the game moves them. */
    SgVehicle bodies[FISH];
    SgSteering steering[FISH];
    for (int tick = 0; tick < TICKS; tick++) {
        for (int i = 0; i < FISH; i++) {
            bodies[i] = school[i].body;
        }
        if (sg_crowd_steer(crowd, world, bodies, NULL, FISH, TICK, steering) != SG_STATUS_OK ||
            sg_vehicles_step(world, bodies, steering, FISH, TICK, NULL) != SG_STATUS_OK) {
            int code = fail("tick");
            sg_crowd_free(crowd);
            sg_world_free(world);
            return code;
        }
        for (int i = 0; i < FISH; i++) {
            float dx = bodies[i].position[0] - school[i].body.position[0];
            float dy = bodies[i].position[1] - school[i].body.position[1];
            school[i].distance_swum += sqrtf(dx * dx + dy * dy);
            school[i].body = bodies[i];
        }
    }
    /* Full precision, so a test can hold this against the Rust API's numbers. */
    for (int i = 0; i < FISH; i++) {
        printf("%s is at (", school[i].name);
        put_float(school[i].body.position[0]);
        fputs(", ", stdout);
        put_float(school[i].body.position[1]);
        fputs(") moving (", stdout);
        put_float(school[i].body.velocity[0]);
        fputs(", ", stdout);
        put_float(school[i].body.velocity[1]);
        printf(") after swimming %.1f units\n", (double)school[i].distance_swum);
    }
    sg_crowd_free(crowd);
    sg_world_free(world);
    size_t live = 0;
    sg_live_objects(&live);
    return live == 0 ? 0 : 1; /* every handle made was freed */
}
