/*
 * Cost and energy arithmetic of capplan.5 §4 that the planner's model
 * builder, `check` and the plan writer share. (The verifier re-derives
 * its figures on its own from capplan.5 §3-4 and does not call these.)
 */
#ifndef CP_COST_H
#define CP_COST_H

#include "cp_input.h"
#include "cp_modes.h"

/* Idle baseline of a site in slot t, W before PUE (capplan.5 §3.3). */
double cp_site_baseline_w(const cp_input *in, int site, int t);
/* $ per kWh of facility energy at a site in slot t, carbon price included. */
double cp_site_kwh_cost(const cp_input *in, int site, int t);

/* The hard contradictions of capplan.5 §4 that no plan meets, whatever it
 * schedules (dropping every job included): a site whose idle baseline
 * alone, after PUE, exceeds its power cap in some slot, and a budget below
 * the baseline's energy and carbon cost. The one rule: `check` reports
 * each as an error in `d` (at the cap's or the budget's position, naming
 * the site and its slots), `plan` and `place` write the first as the
 * reason of an infeasible plan (copied into `first` when not NULL), and
 * the solvers call it before they search. `d` may be NULL. Returns how
 * many were found (0: none). */
int cp_input_contradictions(const cp_input *in, cp_diags *d, char *first, size_t first_size);

/* Energy and carbon of a pool mode started at slot s (capplan.5 §4): */
typedef struct cp_run_cost {
    double energy_cost, carbon_cost, kwh, carbon_kg;
} cp_run_cost;
void cp_pool_run_cost(const cp_input *in, const cp_modeset *ms, const cp_mode *m, int s,
                      cp_run_cost *out);

/* $ per instance-hour of a market (on-demand or spot price). */
double cp_market_price(const cp_input *in, const cp_resource *r);
/* Quota of a market in slot t. */
int cp_market_quota(const cp_input *in, const cp_resource *r, int t);
/* $ of one instance of a market for slot t: price·h plus the carbon cost
 * when the offer has a site. */
double cp_market_slot_cost(const cp_input *in, const cp_resource *r, int t);
/* kg CO2 of one instance of a market for slot t (0 without a site). */
double cp_market_slot_carbon_kg(const cp_input *in, const cp_resource *r, int t);
/* Whole instances/nodes needed to hold a demand vector on machine m
 * (0 when it needs nothing; INT_MAX-ish when a needed dimension is 0). */
int cp_units_needed(const double demand[3], const cp_machine *m);
double cp_machine_dim(const cp_machine *m, int dim);
/* floor(x) as an int, saturating at INT_MIN/INT_MAX: share counts of a
 * machine far larger than a job's share (a fuzzed 2.5e12 GB) stay defined. */
int cp_floor_int(double x);

/* The share of one instance that a demand takes on market machine m
 * (capplan.5 §10.1): the largest demand / instance dimension over the
 * dimensions the instance has (a job over two instances: 2). */
double cp_instance_share(const double demand[3], const cp_machine *m);
/* Cost of running mode m once with its first slot's prices (for
 * `check`'s "cheapest mode"): energy and carbon on a pool; whole
 * instances for whole slots on a market; plus its egress (capplan.5 §9.3). */
double cp_mode_cost_slot0(const cp_input *in, const cp_modeset *ms, const cp_mode *m);

/* What one run of mode m from slot s costs the job (capplan.5 §10.1): on
 * a pool the energy and carbon of its busy power; on a market its
 * instance share (cp_instance_share) of every slot it runs, each whole,
 * at the slot's price and instance carbon; plus its egress. The job's
 * `cost` in a plan, and what a team's budget counts. */
double cp_mode_attributed_cost(const cp_input *in, const cp_modeset *ms, const cp_mode *m, int s);

#endif
