/*
 * What the C examples that write `steergraph simulate`'s CSV share: the library's last error
 * printed, and the rows of one tick, each float as the shortest text that reads back as the
 * same float (`sg_format_f32`), so the files are byte for byte the CLI's.
 */
#ifndef STEERGRAPH_EXAMPLES_CSV_ROWS_H
#define STEERGRAPH_EXAMPLES_CSV_ROWS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "steergraph.h"

/* Prints the last error of the library and returns 1. */
static int fail(const char *what) {
    char message[4096];
    size_t length = 0;
    if (sg_last_error(message, sizeof message, &length) != SG_STATUS_OK) {
        snprintf(message, sizeof message, "(message longer than %zu bytes)", sizeof message);
    }
    fprintf(stderr, "%s: %s\n", what, message);
    return 1;
}

/* Writes `value` as the CSV does: shortest text that reads back as the same float. */
static void put_float(FILE *out, float value) {
    char text[64];
    size_t length = 0;
    if (sg_format_f32(value, text, sizeof text, &length) == SG_STATUS_OK) {
        fputs(text, out);
    }
}

/* One row per agent: tick,agent,x,y,vx,vy[,angle,angular_velocity,height]. */
static void write_rows(FILE *out, uint64_t tick, size_t count, bool facing, const float *position,
                       const float *velocity, const float *angle, const float *spin,
                       const float *height, const uint8_t *airborne) {
    for (size_t i = 0; i < count; i++) {
        fprintf(out, "%" PRIu64 ",%zu,", tick, i);
        put_float(out, position[2 * i]);
        fputc(',', out);
        put_float(out, position[2 * i + 1]);
        fputc(',', out);
        put_float(out, velocity[2 * i]);
        fputc(',', out);
        put_float(out, velocity[2 * i + 1]);
        if (facing) {
            fputc(',', out);
            put_float(out, angle[i]);
            fputc(',', out);
            put_float(out, spin[i]);
            fputc(',', out);
            if (airborne[i]) {
                put_float(out, height[i]);
            }
        }
        fputc('\n', out);
    }
}

#endif
