/*
 * Plays a recorded run back (a `.sgrec` written by `steergraph record`) to one tick and writes
 * that tick's rows as CSV, byte for byte what `steergraph replay RUN --tick TICK --out OUT`
 * writes. Every tick on the way is checked against the recording; the scene must lie in the
 * replay's folder (as a scene's own files must).
 *
 *   replay RUN.sgrec TICK OUT
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "steergraph.h"
#include "csv_rows.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s RUN.sgrec TICK OUT\n", argv[0]);
        return 2;
    }
    const char *run = argv[1];
    uint64_t wanted = strtoull(argv[2], NULL, 10);

    SgReplay replay = {0};
    if (sg_replay_load(run, &replay) != SG_STATUS_OK) {
        return fail(run);
    }
    /* The run's scene, checked to be the one recorded, at tick 0. */
    SgSimulation simulation = {0};
    if (sg_replay_open(replay, &simulation) != SG_STATUS_OK) {
        sg_replay_free(replay);
        return fail(run);
    }
    int code = 0;
    /* Every tick on the way is checked against the recording. */
    if (sg_replay_step_to(replay, simulation, wanted) != SG_STATUS_OK) {
        code = fail(run);
    }
    size_t count = 0;
    bool facing = false;
    sg_simulation_agent_count(simulation, &count);
    sg_simulation_uses_facing(simulation, &facing);
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
    uint64_t tick = 0;
    if (code == 0 && (sg_simulation_tick(simulation, &tick) != SG_STATUS_OK ||
                      sg_simulation_read(simulation, &arrays) != SG_STATUS_OK)) {
        code = fail("read");
    }
    if (code == 0) {
        FILE *out = fopen(argv[3], "w");
        if (out == NULL) {
            perror(argv[3]);
            code = 1;
        } else {
            fputs(facing ? "tick,agent,x,y,vx,vy,angle,angular_velocity,height\n" : "tick,agent,x,y,vx,vy\n", out);
            write_rows(out, tick, count, facing, position, velocity, angle, spin, height, airborne);
            if (fclose(out) != 0) {
                perror(argv[3]);
                code = 1;
            }
        }
    }
    sg_simulation_free(simulation);
    sg_replay_free(replay);
    free(position);
    free(velocity);
    free(angle);
    free(spin);
    free(height);
    free(airborne);
    size_t live = 0;
    sg_live_objects(&live);
    if (live != 0) {
        fprintf(stderr, "%zu objects left alive\n", live);
        return 1;
    }
    return code;
}
