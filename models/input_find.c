/*
 * Entities of a loaded input by name (cp_input.h). The loader's second
 * pass (load_jobs.c: placement, offers, accelerators) and every later
 * reader look names up here; a file of its own, so that load.c calls
 * load_jobs.c and nothing there calls back. Linear scans: names are
 * unique per kind (the loader refuses a duplicate).
 */
#include "cp_input.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define FIND(fn, arr, cnt)                                                    \
    int fn(const cp_input *in, const char *name)                              \
    {                                                                         \
        for (int i = 0; i < in->cnt; i++)                                     \
            if (in->arr[i].name && !strcmp(in->arr[i].name, name))           \
                return i;                                                     \
        return -1;                                                            \
    }
FIND(cp_input_find_site, sites, n_sites)
FIND(cp_input_find_accel, accels, n_accels)
FIND(cp_input_find_pool, pools, n_pools)
FIND(cp_input_find_offer, offers, n_offers)
FIND(cp_input_find_job, jobs, n_jobs)
FIND(cp_input_find_team, teams, n_teams)
FIND(cp_input_find_service, services, n_services)

void cp_input_digest_text(const cp_input *in, char out[CP_INPUT_DIGEST_TEXT])
{
    snprintf(out, CP_INPUT_DIGEST_TEXT, "fnv1a64:%016" PRIx64, in->digest);
}
