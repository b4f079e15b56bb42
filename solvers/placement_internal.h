/*
 * What placement.c and placement_svc.c (the replicas of capplan.5 §10.4)
 * share: the packer, the units of every resource as the packing rule sees
 * them while one plan is placed.
 */
#ifndef CP_PLACEMENT_INTERNAL_H
#define CP_PLACEMENT_INTERNAL_H

#include "cp_packing.h"
#include "cp_plan.h"

#include "cp_buf.h"

#define EPS 1e-9


typedef struct packer {
    const cp_input *in;
    const cp_modeset *ms;
    cp_plan *plan;
    int T;
    cp_pack *pk;     /* [n_res] the units as the packing rule sees them */
    size_t *cap;     /* [n_res] ids the arrays have room for */
    int *pick, *amount; /* scratch, [most counts + 1] */
    const unsigned char *pinned; /* a re-plan's started jobs on OLD's units, or NULL */
} packer;

/* Makes room for ids below n on resource r (new ids free everywhere). */
int cp_place_ensure_units(packer *pk, int r, int n);
/* Every replica on a unit of its deployment's resource, in the room the
 * jobs leave (a re-plan's on OLD's units first); a replica none holds
 * leaves the plan without replica placement, said in `note`. CP_OK or
 * CP_ERR_NOMEM. */
int cp_place_replicas(packer *pk, cp_buf *note);

#endif
