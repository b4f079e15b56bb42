/*
 * `capplan check --modes JOB`: the considered-resources table of one job
 * (SkyPilot's optimizer table): every mode, marked, and every candidate
 * that is not a mode with the rule that removed it.
 */
#ifndef CP_CHECK_MODES_H
#define CP_CHECK_MODES_H

#include "cp_modes.h"

#include <stdio.h>

/* Writes job j's table to f (the caller filters the bytes for the
 * terminal): its modes cheapest first, at most `top` of them and `top`
 * exclusion lines (0: all). */
void cp_check_modes_table(FILE *f, const cp_input *in, const cp_modeset *ms, int j, long top);

/* `capplan check`'s teams section (capplan.5 §10.2, check_teams.c):
 * each team's quotas and budget against what its jobs ask. Nothing for an
 * input without teams. */
void cp_check_teams(FILE *f, const cp_input *in, const cp_modeset *ms);
/* `capplan check`'s services section (capplan.5 §10.4, check_services.c):
 * classes, loads, configurations and where each may run. Nothing for an
 * input without services. */
void cp_check_services(FILE *f, const cp_input *in, const cp_modeset *ms);

#endif
