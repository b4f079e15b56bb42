/*
 * The plan verifier (see cp_verify.h and docs/verify.md): the entry
 * point and the report. The message and field helpers every phase uses
 * are in verify_msg.c, so the phases call down to them and never back
 * into this file, which calls the phases.
 *
 * Written from capplan.5 §3-5 alone: it shares with the planner only
 * the input loader and the mode enumeration (capplan.5 §2), and re-derives
 * loads, power, energy, carbon and money itself, in the most direct form
 * of the formulas (sums over slots), so that it stays easy to audit.
 *
 * Flow (one file per phase, see verify_internal.h): the plan is read by
 * models/cp_plan_read.h, the one plan reader, and its format problems
 * (a key missing or of the wrong type) are the first violations; then the
 * job list is checked (one entry per input job, a matching mode and start
 * slot per scheduled job); then the provisioning list
 * gives y(t) per market; then per-slot loads are summed and compared with
 * pool, market, quota and power-cap limits; then concrete placement
 * (capplan.5 §5) is checked node by node; then every number of the plan that
 * capplan.5 §4 defines is re-costed and compared; last, the budget.
 *
 * Every violation carries the position of the plan node concerned; the
 * list is sorted by position (stable) so the report reads like the file.
 * The context owns its scratch arrays; the report owns the messages.
 */
#include "verify_internal.h"

#include "cp_alloc.h"
#include "cp_replan.h"
#include "cp_msg.h"
#include "cp_yaml.h"

#include <stddef.h>
#include <string.h>

/* ---- the report --------------------------------------------------------- */

void cp_verify_report_init(cp_verify_report *r)
{
    memset(r, 0, sizeof *r);
}

void cp_verify_report_release(cp_verify_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n; i++)
        cp_free(r->items[i].msg);
    cp_free(r->items);
    cp_verify_report_init(r);
}

bool cp_verify_report_is_ok(const cp_verify_report *r)
{
    return r->n == 0 && !r->malformed;
}

/* ---- entry points ------------------------------------------------------- */

/* The reader's problems as violations: all but those of keys that only
 * describe the plan or that no check reads yet (CP_PLAN_EXTRA). */
static void take_problems(cp_vf_ctx *c)
{
    const cp_plan_file *pf = c->pf;
    for (int i = 0; i < pf->n_problems; i++)
        if (pf->problems[i].level != CP_PLAN_EXTRA)
            cp_vf_viol(c, pf->problems[i].pos, "%s", pf->problems[i].msg);
    c->rep->malformed = pf->malformed;
    c->rep->infeasible = pf->infeasible;
}

static int verify_file(const cp_input *in, const cp_replan *rp, const cp_plan_file *pf,
                       cp_verify_report *rep, cp_err *err)
{
    cp_verify_report_release(rep);
    cp_vf_ctx c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.rp = rp;
    c.rep = rep;
    c.pf = pf;
    c.T = in->slots;
    c.h = in->slot_hours;
    int rc = cp_modes_build(in, &c.ms, err);
    if (rc)
        return rc;
    size_t nres = (size_t)(c.ms->n_res ? c.ms->n_res : 1);
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    c.entry_of_job = cp_malloc(nj * sizeof *c.entry_of_job);
    c.dropped_job = cp_calloc(nj, sizeof *c.dropped_job);
    c.y = cp_calloc(nres * (size_t)c.T, sizeof *c.y);
    c.prov = cp_calloc(nres, sizeof *c.prov);
    c.load = cp_calloc(nres * (size_t)c.T * CP_DIMS, sizeof *c.load);
    c.busy = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1) * (size_t)c.T, sizeof *c.busy);
    c.nl_off = cp_calloc(nres, sizeof *c.nl_off);
    c.nl_count = cp_calloc(nres, sizeof *c.nl_count);
    c.nl_label = cp_calloc(nres, sizeof *c.nl_label);
    if (!c.entry_of_job || !c.dropped_job || !c.y || !c.prov || !c.load || !c.busy ||
        !c.nl_off || !c.nl_count || !c.nl_label) {
        c.oom = true;
        goto out;
    }
    for (int j = 0; j < in->n_jobs; j++)
        c.entry_of_job[j] = -1;

    take_problems(&c);
    if (!rep->malformed && !c.oom)
        cp_vf_check_jobs(&c);
    if (!rep->malformed && rep->infeasible && !c.oom)
        cp_vf_check_infeasible(&c);
    if (!rep->malformed && !rep->infeasible && !c.oom) {
        cp_vf_check_missing(&c);
        cp_vf_read_provisioning(&c);
        if (!c.oom && rp)
            cp_vf_check_replan(&c);
        if (!c.oom)
            cp_vf_add_loads(&c);
        if (!c.oom)
            cp_vf_check_services(&c);
        if (!c.oom && rp && c.svc_n)
            cp_vf_check_replan_services(&c);
        if (!c.oom)
            cp_vf_check_capacity(&c);
        if (!c.oom)
            cp_vf_check_power_caps(&c);
        if (!c.oom)
            cp_vf_check_placement(&c);
        if (!c.oom)
            cp_vf_check_leases(&c);
        if (!c.oom)
            cp_vf_check_costs(&c);
        if (!c.oom)
            cp_vf_check_budget(&c);
        if (!c.oom)
            cp_vf_check_teams(&c);
    }
    if (!c.oom && cp_msg_sort(rep->items, (size_t)rep->n, sizeof *rep->items,
                              offsetof(cp_violation, pos)))
        c.oom = true;
out:
    cp_free(c.jobs);
    cp_free(c.entry_of_job);
    cp_free(c.dropped_job);
    cp_free(c.y);
    cp_free(c.prov);
    cp_free(c.load);
    cp_free(c.busy);
    cp_free(c.asg);
    cp_free(c.nl_off);
    cp_free(c.nl_count);
    for (size_t r = 0; c.nl_label && r < nres; r++)
        cp_free(c.nl_label[r]);
    cp_free(c.nl_label);
    cp_free(c.nload);
    cp_free(c.svc_n);
    cp_free(c.svc_x);
    cp_free(c.svc_f);
    cp_free(c.svc_u);
    cp_free(c.svc_cost);
    cp_free(c.svc_spend);
    cp_modeset_free(c.ms);
    if (c.oom) {
        cp_verify_report_release(rep);
        return cp_err_nomem(err);
    }
    return CP_OK;
}

int cp_verify_plan_file(const cp_input *in, const cp_plan_file *pf, cp_verify_report *rep,
                        cp_err *err)
{
    return verify_file(in, NULL, pf, rep, err);
}

static int verify_tree(const cp_input *in, const cp_replan *rp, const cp_node *plan,
                       cp_verify_report *rep, cp_err *err)
{
    cp_verify_report_release(rep);
    cp_plan_read_opts o;
    cp_plan_read_opts_init(&o);
    o.slots = in->slots;
    cp_plan_file pf;
    cp_plan_file_init(&pf);
    int rc = cp_plan_read(plan, &o, &pf, err);
    if (rc == CP_OK)
        rc = verify_file(in, rp, &pf, rep, err);
    cp_plan_file_release(&pf);
    return rc;
}

int cp_verify_plan(const cp_input *in, const cp_node *plan, cp_verify_report *rep, cp_err *err)
{
    return verify_tree(in, NULL, plan, rep, err);
}

int cp_verify_replan(const cp_input *view, const cp_replan *rp, const cp_node *plan,
                     cp_verify_report *rep, cp_err *err)
{
    return verify_tree(view, rp, plan, rep, err);
}
