/*
 * Runs a scene made in the Steergraph editor and writes every agent's trajectory as CSV,
 * byte for byte what `steergraph simulate SCENE --ticks TICKS --dt DT --out OUT` writes.
 *
 *   simulate SCENE TICKS DT OUT [SEED]
 *
 * Build (Linux; see the README for macOS and Windows):
 *   cc -std=c11 -I include examples/simulate.c -L ../../target/release -lsteergraph \
 *      -Wl,-rpath,../../target/release -o simulate
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "steergraph.h"
#include "csv_rows.h"

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: %s SCENE TICKS DT OUT [SEED]\n", argv[0]);
        return 2;
    }
    const char *scene_path = argv[1];
    uint64_t ticks = strtoull(argv[2], NULL, 10);
    float dt = strtof(argv[3], NULL);
    uint64_t seed = argc == 6 ? strtoull(argv[5], NULL, 10) : 0;

    SgScene scene = {0};
    if (sg_scene_load(scene_path, &scene) != SG_STATUS_OK) {
        return fail(scene_path);
    }
    SgSimulation simulation = {0};
    SgStatus status = sg_simulation_create(scene, argc == 6 ? &seed : NULL, &simulation);
    sg_scene_free(scene); /* the simulation keeps nothing of it */
    if (status != SG_STATUS_OK) {
        return fail(scene_path);
    }

    size_t count = 0;
    bool facing = false;
    sg_simulation_agent_count(simulation, &count);
    sg_simulation_uses_facing(simulation, &facing);
    /* One allocation per array for the whole run; one read per tick fills them all. */
    float *position = calloc(2 * count + 2, sizeof(float));
    float *velocity = calloc(2 * count + 2, sizeof(float));
    float *angle = calloc(count + 1, sizeof(float));
    float *spin = calloc(count + 1, sizeof(float));
    float *height = calloc(count + 1, sizeof(float));
    uint8_t *airborne = calloc(count + 1, 1);
    SgAgentArrays arrays = {
        .capacity = count,
        .position = position,
        .velocity = velocity,
        .angle = facing ? angle : NULL,
        .angular_velocity = facing ? spin : NULL,
        .height = facing ? height : NULL,
        .airborne = facing ? airborne : NULL,
    };

    int code = 0;
    FILE *out = fopen(argv[4], "w");
    if (out == NULL) {
        perror(argv[4]);
        code = 1;
    } else {
        fputs(facing ? "tick,agent,x,y,vx,vy,angle,angular_velocity,height\n" : "tick,agent,x,y,vx,vy\n", out);
        for (uint64_t t = 0; t <= ticks && code == 0; t++) {
            if (t > 0 && sg_simulation_step(simulation, dt) != SG_STATUS_OK) {
                code = fail("step");
                break;
            }
            uint64_t tick = 0;
            if (sg_simulation_tick(simulation, &tick) != SG_STATUS_OK ||
                sg_simulation_read(simulation, &arrays) != SG_STATUS_OK) {
                code = fail("read");
                break;
            }
            write_rows(out, tick, count, facing, position, velocity, angle, spin, height, airborne);
        }
        if (fclose(out) != 0) {
            perror(argv[4]);
            code = 1;
        }
    }
    sg_simulation_free(simulation);
    free(position);
    free(velocity);
    free(angle);
    free(spin);
    free(height);
    free(airborne);
    size_t live = 0;
    sg_live_objects(&live);
    if (live != 0) {
        fprintf(stderr, "%zu objects not freed\n", live);
        code = 1;
    }
    return code;
}
