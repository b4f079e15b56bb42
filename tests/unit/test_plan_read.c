/* The plan reader (models/cp_plan_read.h): every key of capplan.5 §5 read from
 * the hand-checked plans of tests/verify/, YAML and JSON alike; the
 * positions it keeps; its problems with FILE:LINE:COL, in file order and
 * at their level; the slot count from the inputs or from the plan;
 * leases (capplan.5 §5, version 1.1); infeasible plans; out of memory at every
 * allocation; what a service's deployment serves (cp_plan_svc_served). */
#include "test.h"

#include "cp_alloc.h"
#include "cp_msg.h"
#include "cp_plan_read.h"
#include "cp_yaml.h"
#include "fixture.h"

#include <stddef.h>
#include <stdio.h>

/* Parses `text` as plan.yaml and reads it with `slots` (0: from the
 * plan). The tree goes to *tree (the caller frees it after pf). */
static int read_text(const char *text, int slots, cp_node **tree, cp_plan_file *pf)
{
    cp_diags d;
    cp_diags_init(&d);
    *tree = NULL;
    cp_plan_file_init(pf);
    if (cp_yaml_load_string("plan.yaml", text, strlen(text), tree, &d)) {
        cp_diags_print(&d, stderr);
        return -1;
    }
    cp_plan_read_opts o;
    cp_plan_read_opts_init(&o);
    o.slots = slots;
    cp_err e;
    cp_err_init(&e);
    return cp_plan_read(*tree, &o, pf, &e);
}

static int read_path(const char *path, cp_node **tree, cp_plan_file *pf)
{
    cp_diags d;
    cp_diags_init(&d);
    *tree = NULL;
    cp_plan_file_init(pf);
    if (cp_yaml_load_file(path, tree, &d)) {
        cp_diags_print(&d, stderr);
        return -1;
    }
    cp_err e;
    cp_err_init(&e);
    return cp_plan_read(*tree, NULL, pf, &e);
}

static void done(cp_node *tree, cp_plan_file *pf)
{
    cp_plan_file_release(pf);
    cp_node_free(tree);
}

/* "LINE:COL: MSG" of problem i, or "" past the end. */
static const char *problem_at(const cp_plan_file *pf, int i, char *buf, size_t size)
{
    buf[0] = '\0';
    if (i < pf->n_problems)
        snprintf(buf, size, "%d:%d: %s", pf->problems[i].pos.line, pf->problems[i].pos.col,
                 pf->problems[i].msg);
    return buf;
}

static void dump(const cp_plan_file *pf)
{
    char b[800];
    for (int i = 0; i < pf->n_problems; i++)
        fprintf(stderr, "  %s\n", problem_at(pf, i, b, sizeof b));
}

#define CHECK_PROBLEM(pf, i, text)                                                            \
    do {                                                                                      \
        char b_[800];                                                                         \
        CHECK_STR(problem_at((pf), (i), b_, sizeof b_), (text));                              \
    } while (0)

/* tests/verify/valid.plan.yaml, key by key (its header derives them). */
static void check_valid(const cp_plan_file *pf)
{
    CHECK(cp_plan_file_is_ok(pf));
    if (pf->n_problems)
        dump(pf);
    CHECK(!pf->malformed);
    CHECK(!pf->infeasible);
    CHECK_INT(pf->version.v, 1);
    CHECK_STR(pf->status.s, "optimal");
    CHECK_INT(pf->slots, 3); /* from the first per-slot list */
    CHECK(!pf->slots_from_inputs);
    CHECK_STR(pf->solver.method.s, "milp");
    CHECK_NEAR(pf->solver.seconds.v, 0.01, 1e-15);
    CHECK_NEAR(pf->solver.gap.v, 0, 0);
    CHECK_INT(pf->totals.has, CP_PLAN_SET);
    CHECK_NEAR(pf->totals.total.v, 5.999, 1e-15);
    CHECK_NEAR(pf->totals.carbon_kg.v, 2.19, 1e-15);
    CHECK_INT(pf->totals.egress.has, CP_PLAN_ABSENT);
    CHECK_INT(pf->n_jobs, 3);
    if (pf->n_jobs != 3)
        return;
    const cp_plan_job *j = &pf->jobs[0];
    CHECK_STR(j->name.s, "train");
    CHECK(j->scheduled && !j->dropped);
    CHECK_STR(j->resource.s, "rack");
    CHECK_INT(j->mk, CP_PLAN_POOL);
    CHECK_STR(j->accelerator.s, "G");
    CHECK_INT(j->count.v, 2);
    CHECK_NEAR(j->cpus.v, 8, 0);
    CHECK_NEAR(j->memory_gb.v, 64, 0);
    CHECK_INT(j->start_slot.v, 0);
    CHECK_INT(j->start_slot.has, CP_PLAN_SET);
    CHECK_INT(j->slots.v, 1);
    CHECK_NEAR(j->end_hour.v, 1, 0);
    CHECK_NEAR(j->energy_kwh.v, 1.05, 1e-15);
    CHECK_INT(j->reason.has, CP_PLAN_ABSENT);
    CHECK_INT(j->nodes.n, 1);
    if (j->nodes.n == 1)
        CHECK_STR(j->nodes.s[0], "rack/0");
    CHECK_INT(pf->jobs[1].mk, CP_PLAN_ON_DEMAND);
    CHECK_STR(pf->jobs[2].name.s, "late");
    CHECK_INT(pf->jobs[2].start_slot.v, 1);
    CHECK_INT(pf->n_prov, 1);
    if (pf->n_prov == 1) {
        const cp_plan_prov *m = &pf->prov[0];
        CHECK_STR(m->market.s, "cloud");
        CHECK_INT(m->mk, CP_PLAN_ON_DEMAND);
        CHECK_INT(m->instances.n, 3);
        CHECK_NEAR(m->instances.v[0] + 10 * m->instances.v[1] + 100 * m->instances.v[2], 1, 0);
        CHECK_NEAR(m->cost.v, 5, 0);
        CHECK_INT(m->leases_has, CP_PLAN_ABSENT);
    }
    CHECK_INT(pf->n_util, 1);
    if (pf->n_util == 1) {
        CHECK_STR(pf->util[0].pool.s, "rack");
        CHECK_INT(pf->util[0].dim[1].n, 3);
        CHECK_NEAR(pf->util[0].dim[2].v[1], 16, 0); /* memory_gb */
    }
    CHECK_INT(pf->n_sites, 2);
    if (pf->n_sites == 2) {
        CHECK_STR(pf->sites[0].name.s, "dc");
        CHECK_NEAR(pf->sites[0].power_kw.v[0], 1.95, 1e-15);
        CHECK_NEAR(pf->sites[1].carbon_kg.v, 0.24, 1e-15);
    }
}

TEST(plan_read_valid_yaml)
{
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_path("tests/verify/valid.plan.yaml", &t, &pf), CP_OK);
    check_valid(&pf);
    done(t, &pf);
}

TEST(plan_read_json_reads_like_yaml)
{
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_path("tests/verify/valid.plan.json", &t, &pf), CP_OK);
    check_valid(&pf);
    done(t, &pf);
}

TEST(plan_read_positions)
{
    static const char plan[] =
        "capplan_plan: 1\n"
        "status: feasible\n"
        "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\n"
        "jobs:\n"
        "  - name: a\n"
        "    status: dropped\n"
        "    reason: no room\n"
        "sites:\n"
        "  - {name: s, power_kw: [1, 2.5]}\n";
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_text(plan, 0, &t, &pf), CP_OK);
    CHECK(cp_plan_file_is_ok(&pf));
    CHECK_STR(pf.pos.file, "plan.yaml");
    CHECK_INT(pf.jobs_list.pos.line, 5);
    if (pf.n_jobs == 1) {
        const cp_plan_job *j = &pf.jobs[0];
        CHECK(j->dropped && !j->scheduled);
        CHECK_INT(j->pos.line, 5); /* the entry: its first key */
        CHECK_INT(j->pos.col, 5);
        CHECK_INT(j->reason.pos.line, 7);
        CHECK_INT(j->reason.pos.col, 13);
        CHECK_STR(j->reason.s, "no room");
        /* an absent key is placed at its entry */
        CHECK_INT(j->resource.has, CP_PLAN_ABSENT);
        CHECK_INT(j->resource.pos.line, 5);
    }
    if (pf.n_sites == 1) {
        const cp_plan_series *s = &pf.sites[0].power_kw;
        CHECK_INT(s->n, 2);
        CHECK_INT(s->at[1].line, 9);
        CHECK_INT(s->at[1].col, 29);
        CHECK_NEAR(s->v[1], 2.5, 0);
    }
    CHECK_INT(pf.slots, 2);
    done(t, &pf);
}

TEST(plan_read_not_a_plan)
{
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_text("- 1\n", 0, &t, &pf), CP_OK);
    CHECK(pf.malformed);
    CHECK_INT(pf.n_problems, 1);
    CHECK_PROBLEM(&pf, 0, "1:1: the plan must be a mapping, found a list");
    done(t, &pf);

    /* no version: one message, nothing else is read */
    CHECK_INT(read_text("status: ok\njobs: 3\n", 0, &t, &pf), CP_OK);
    CHECK_INT(pf.n_problems, 1);
    CHECK_PROBLEM(&pf, 0, "1:1: missing 'capplan_plan: 1' (not a capplan plan)");
    CHECK_INT(pf.problems[0].level, CP_PLAN_MALFORMED);
    done(t, &pf);

    /* another version: the root's other keys are still checked */
    CHECK_INT(read_text("capplan_plan: 2\nstatus: done\ntotals: {total: x}\n", 0, &t, &pf),
              CP_OK);
    CHECK(pf.malformed);
    CHECK_INT(pf.n_problems, 3);
    CHECK_PROBLEM(&pf, 0, "1:1: plan: missing 'jobs'");
    CHECK_PROBLEM(&pf, 1, "1:15: capplan_plan: unsupported version 2 (expected 1)");
    CHECK_PROBLEM(&pf, 2, "2:9: plan: status 'done' is not one of optimal, feasible, "
                          "infeasible, interrupted");
    CHECK_INT(pf.n_jobs, 0);
    done(t, &pf);
}

TEST(plan_read_problems_in_file_order)
{
    static const char plan[] =
        "capplan_plan: 1\n"
        "status: optimal\n"
        "solver: {method: milp, gap: x}\n"
        "totals: {total: 1, cloud: 0, energy: 0, carbon: 0}\n"
        "jobs:\n"
        "  - {name: a, status: scheduled, resource: r, market: cloud, count: 2.5,\n"
        "     start_hour: 0, end_hour: 1, nodes: r/0}\n"
        "  - {status: dropped}\n"
        "  - 7\n"
        "  - {name: b, status: late}\n"
        "provisioning:\n"
        "  - {market: m, kind: spot, instances: [1, -1], cost: one}\n"
        "utilization: {pool: r}\n";
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_text(plan, 0, &t, &pf), CP_OK);
    CHECK(!pf.malformed);
    static const char *const want[] = {
        "3:29: solver: 'gap' must be a finite number, found x",
        "4:9: totals: missing 'penalty'",
        "6:55: job 'a': market 'cloud' is not one of pool, on_demand, spot",
        "6:69: job 'a': 'count' must be an integer >= 0, found 2.5",
        "7:41: job 'a': 'nodes' must be a list of node or instance ids, found r/0",
        "8:5: job 2: missing 'name'",
        "9:5: plan: a job entry must be a mapping, found 7",
        "10:23: job 'b': status 'late' is not one of scheduled, dropped",
        "12:44: provisioning of 'm' (spot): instances[1] must be an integer >= 0, found -1",
        "12:55: provisioning of 'm' (spot): 'cost' must be a finite number, found one",
        "13:14: plan: 'utilization' must be a list, found a mapping",
    };
    int n = (int)(sizeof want / sizeof want[0]);
    CHECK_INT(pf.n_problems, n);
    for (int i = 0; i < n; i++)
        CHECK_PROBLEM(&pf, i, want[i]);
    if (pf.n_problems != n)
        dump(&pf);
    /* the solver block only describes the plan */
    CHECK_INT(pf.problems[0].level, CP_PLAN_EXTRA);
    CHECK_INT(pf.problems[1].level, CP_PLAN_INVALID);
    /* entries that are mappings are kept, with their list index */
    CHECK_INT(pf.n_jobs, 3);
    if (pf.n_jobs == 3) {
        CHECK_INT(pf.jobs[2].index, 3);
        CHECK_INT(pf.jobs[0].count.has, CP_PLAN_BAD);
        CHECK_INT(pf.jobs[0].mk, CP_PLAN_NO_MARKET);
        CHECK_INT(pf.jobs[2].status.has, CP_PLAN_BAD);
        CHECK(!pf.jobs[2].scheduled && !pf.jobs[2].dropped);
    }
    if (pf.n_prov == 1) {
        CHECK(isnan(pf.prov[0].instances.v[1]));
        CHECK_NEAR(pf.prov[0].instances.v[0], 1, 0);
    }
    /* the diagnostics of the CLI carry the file */
    cp_diags d;
    cp_diags_init(&d);
    cp_plan_file_diags(&pf, &d);
    CHECK_INT(d.n, n);
    CHECK_STR(d.items[0].file, "plan.yaml");
    CHECK_INT(d.items[0].line, 3);
    CHECK_INT(d.worst, CP_ERR_INPUT);
    done(t, &pf);
}

TEST(plan_read_slot_count)
{
    static const char plan[] =
        "capplan_plan: 1\nstatus: optimal\n"
        "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\njobs: []\n"
        "utilization:\n"
        "  - {pool: p, accelerators: [0, 0], cpus: [0, 0, 0], memory_gb: []}\n"
        "sites:\n"
        "  - {name: s, power_kw: 5}\n";
    cp_node *t;
    cp_plan_file pf;
    /* from the plan: the first list sets it */
    CHECK_INT(read_text(plan, 0, &t, &pf), CP_OK);
    CHECK_INT(pf.slots, 2);
    CHECK_INT(pf.n_problems, 3);
    CHECK_PROBLEM(&pf, 0, "6:43: utilization of 'p': 'cpus' has 3 values, expected 2 "
                          "(one per slot)");
    CHECK_PROBLEM(&pf, 1, "6:65: utilization of 'p': 'memory_gb' is empty, expected one value "
                          "per slot");
    CHECK_PROBLEM(&pf, 2, "8:25: site 's': 'power_kw' must be a list of 2 numbers, found 5");
    /* the values of a list of another length are kept */
    if (pf.n_util == 1)
        CHECK_INT(pf.util[0].dim[1].n, 3);
    done(t, &pf);
    /* from the inputs */
    CHECK_INT(read_text(plan, 3, &t, &pf), CP_OK);
    CHECK_INT(pf.slots, 3);
    CHECK(pf.slots_from_inputs);
    CHECK_PROBLEM(&pf, 0, "6:29: utilization of 'p': 'accelerators' has 2 values, expected 3 "
                          "(one per slot of the inputs)");
    CHECK_INT(pf.n_problems, 3);
    done(t, &pf);
}

/* Version 1.2's job `cost` and `totals.unattributed` (capplan.5 §10.1):
 * read when given (a negative unattributed is a number like another),
 * absent in a 1.1 plan, and a figure of the wrong type is a problem at
 * the level of the plan's figures, which verify counts. */
TEST(plan_read_costs)
{
    static const char plan[] =
        "capplan_plan: 1\nstatus: optimal\n"
        "totals: {total: 16, cloud: 16, energy: 0, carbon: 0, penalty: 0, unattributed: -6.5}\n"
        "jobs:\n"
        "  - {name: a, status: scheduled, resource: m, market: on_demand, start_hour: 0,\n"
        "     end_hour: 1, cost: 8}\n"
        "  - {name: b, status: scheduled, resource: m, market: on_demand, start_hour: 0,\n"
        "     end_hour: 1, cost: x}\n"
        "  - {name: c, status: dropped}\n";
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_text(plan, 0, &t, &pf), CP_OK);
    CHECK_NEAR(pf.totals.unattributed.v, -6.5, 0);
    CHECK_INT(pf.totals.unattributed.has, CP_PLAN_SET);
    CHECK_INT(pf.n_problems, 1);
    CHECK_PROBLEM(&pf, 0, "8:25: job 'b': 'cost' must be a finite number, found x");
    if (pf.n_problems == 1)
        CHECK_INT(pf.problems[0].level, CP_PLAN_INVALID);
    if (pf.n_jobs == 3) {
        CHECK_NEAR(pf.jobs[0].cost.v, 8, 0);
        CHECK_INT(pf.jobs[0].cost.has, CP_PLAN_SET);
        CHECK_INT(pf.jobs[1].cost.has, CP_PLAN_BAD);
        CHECK_INT(pf.jobs[2].cost.has, CP_PLAN_ABSENT);
    }
    done(t, &pf);
}

/* Version 1.2's `teams` (capplan.5 §10.2): every entry's three keys
 * read, a missing or mistyped one a problem of the plan's figures, an
 * entry that is not a mapping a problem; absent in other plans. */
TEST(plan_read_teams)
{
    static const char plan[] =
        "capplan_plan: 1\nstatus: optimal\n"
        "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\njobs: []\n"
        "teams:\n"
        "  - {name: vision, cost: 8.12, accelerator_hours: 7}\n"
        "  - {name: nlp, cost: x}\n"
        "  - 3\n";
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_text(plan, 0, &t, &pf), CP_OK);
    CHECK_INT(pf.teams_list.has, CP_PLAN_SET);
    CHECK_INT(pf.n_teams, 2);
    if (pf.n_teams == 2) {
        CHECK_STR(pf.teams[0].name.s, "vision");
        CHECK_NEAR(pf.teams[0].cost.v, 8.12, 0);
        CHECK_NEAR(pf.teams[0].accelerator_hours.v, 7, 0);
        CHECK_INT(pf.teams[1].cost.has, CP_PLAN_BAD);
        CHECK_INT(pf.teams[1].accelerator_hours.has, CP_PLAN_ABSENT);
        CHECK_INT(pf.teams[1].index, 1);
    }
    CHECK_INT(pf.n_problems, 3);
    CHECK_PROBLEM(&pf, 0, "7:5: team 'nlp': missing 'accelerator_hours'");
    CHECK_PROBLEM(&pf, 1, "7:23: team 'nlp': 'cost' must be a finite number, found x");
    CHECK_PROBLEM(&pf, 2, "8:5: plan: a team entry must be a mapping, found 3");
    for (int i = 0; i < pf.n_problems; i++)
        CHECK_INT(pf.problems[i].level, CP_PLAN_INVALID);
    done(t, &pf);
}

TEST(plan_read_leases)
{
    static const char plan[] =
        "capplan_plan: 1\nstatus: optimal\n"
        "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\njobs: []\n"
        "provisioning:\n"
        "  - market: m\n"
        "    kind: on_demand\n"
        "    instances: [1, 1, 0]\n"
        "    leases:\n"
        "      - {id: m/3, start_slot: 0, slots: 2, jobs: [a, b]}\n"
        "      - {id: m/4, start_slot: x, jobs: c}\n"
        "      - 5\n";
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_text(plan, 3, &t, &pf), CP_OK);
    CHECK_INT(pf.n_prov, 1);
    if (pf.n_prov != 1) {
        done(t, &pf);
        return;
    }
    const cp_plan_prov *m = &pf.prov[0];
    CHECK_INT(m->leases_has, CP_PLAN_SET);
    CHECK_INT(m->n_leases, 2);
    if (m->n_leases == 2) {
        const cp_plan_lease *l = &m->leases[0];
        CHECK_STR(l->id.s, "m/3");
        CHECK_INT(l->start_slot.v, 0);
        CHECK_INT(l->slots.v, 2);
        CHECK_INT(l->jobs.n, 2);
        if (l->jobs.n == 2)
            CHECK_STR(l->jobs.s[1], "b");
        CHECK_INT(l->pos.line, 10);
    }
    static const char *const want[] = {
        "11:9: lease 2 of 'm' (on_demand): missing 'slots'",
        "11:31: lease 2 of 'm' (on_demand): 'start_slot' must be an integer >= 0, found x",
        "11:40: lease 2 of 'm' (on_demand): 'jobs' must be a list of job names, found c",
        "12:9: lease 3 of 'm' (on_demand) must be a mapping, found 5",
    };
    CHECK_INT(pf.n_problems, 4);
    for (int i = 0; i < 4; i++) {
        CHECK_PROBLEM(&pf, i, want[i]);
        CHECK(i >= pf.n_problems || pf.problems[i].level == CP_PLAN_EXTRA);
    }
    done(t, &pf);
}

TEST(plan_read_infeasible)
{
    static const char plan[] =
        "capplan_plan: 1\nstatus: infeasible\n"
        "solver: {method: milp, seconds: 0, objective: null, bound: null, gap: null}\n"
        "reason: budget\n"
        "jobs: [{name: a, status: scheduled}]\n";
    cp_node *t;
    cp_plan_file pf;
    CHECK_INT(read_text(plan, 0, &t, &pf), CP_OK);
    /* no totals, and a scheduled job needs nothing: there is no schedule */
    CHECK(cp_plan_file_is_ok(&pf));
    CHECK(pf.infeasible);
    CHECK_STR(pf.reason.s, "budget");
    CHECK_INT(pf.solver.gap.has, CP_PLAN_ABSENT); /* null */
    CHECK_INT(pf.totals.has, CP_PLAN_ABSENT);
    CHECK_INT(pf.slots, 0);
    done(t, &pf);
}

TEST(plan_read_release)
{
    cp_plan_file_release(NULL);
    cp_plan_file pf;
    cp_plan_file_init(&pf);
    cp_plan_file_release(&pf);
    CHECK_INT(pf.n_jobs, 0);
    CHECK(cp_plan_file_is_ok(&pf));
    /* reading again releases what was read before */
    cp_node *t;
    CHECK_INT(read_path("tests/verify/bad-modes.plan.yaml", &t, &pf), CP_OK);
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_plan_read(t, NULL, &pf, &e), CP_OK);
    CHECK_INT(pf.n_jobs, 3);
    done(t, &pf);
}

TEST(plan_read_out_of_memory)
{
    /* a plan with every kind of allocation: lists, ids, leases, problems */
    static const char plan[] =
        "capplan_plan: 1\nstatus: optimal\n"
        "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: x}\n"
        "jobs: [{name: a, status: scheduled, resource: r, market: pool, start_hour: 0,\n"
        "        end_hour: 1, nodes: [r/0, r/1]}, {name: b}]\n"
        "provisioning:\n"
        "  - {market: m, kind: spot, instances: [1, 0],\n"
        "     leases: [{id: m/0, start_slot: 0, slots: 1, jobs: [a]}]}\n"
        "utilization: [{pool: r, accelerators: [1, 1], cpus: [1, 1], memory_gb: [1]}]\n"
        "sites: [{name: s, power_kw: [1, 1]}]\n";
    cp_node *t = NULL;
    cp_diags d;
    cp_diags_init(&d);
    CHECK_INT(cp_yaml_load_string("plan.yaml", plan, strlen(plan), &t, &d), CP_OK);
    if (!t)
        return;
    int ok_seen = 0, problems = -1;
    for (long n = 0; n < 1000 && !ok_seen; n++) {
        cp_plan_file pf;
        cp_plan_file_init(&pf);
        cp_err e;
        cp_err_init(&e);
        cp_alloc_fail_after(n);
        int rc = cp_plan_read(t, NULL, &pf, &e);
        cp_alloc_fail_after(-1);
        CHECK(rc == CP_OK || rc == CP_ERR_NOMEM);
        if (rc == CP_ERR_NOMEM) {
            CHECK_INT(e.code, CP_ERR_NOMEM);
            CHECK_INT(pf.n_problems, 0);
            CHECK(pf.jobs == NULL && pf.prov == NULL);
        } else {
            ok_seen = 1;
            problems = pf.n_problems;
        }
        cp_plan_file_release(&pf);
    }
    CHECK(ok_seen);
    CHECK_INT(problems, 3); /* penalty, b's status, memory_gb's length */
    cp_node_free(t);
}

/* The problems' order (cp_msg_sort): by line and column, equal positions
 * in the order they were found, also past a merge sort's first runs. */
TEST(plan_read_sort_is_stable)
{
    typedef struct rec {
        int key;
        cp_pos pos;
    } rec;
    rec r[37];
    for (int i = 0; i < 37; i++)
        r[i] = (rec){i, {"f", (i * 7) % 5, i % 2}};
    CHECK_INT(cp_msg_sort(r, 37, sizeof *r, offsetof(rec, pos)), CP_OK);
    for (int i = 1; i < 37; i++) {
        const cp_pos *a = &r[i - 1].pos, *b = &r[i].pos;
        CHECK(a->line < b->line || (a->line == b->line && a->col <= b->col));
        if (a->line == b->line && a->col == b->col)
            CHECK(r[i - 1].key < r[i].key);
    }
    cp_alloc_fail_after(0);
    CHECK_INT(cp_msg_sort(r, 37, sizeof *r, offsetof(rec, pos)), CP_ERR_NOMEM);
    cp_alloc_fail_after(-1);
    CHECK_INT(cp_msg_sort(r, 1, sizeof *r, offsetof(rec, pos)), CP_OK);
}

/* capplan.5 §10.4: what a deployment serves is the sum over its routing
 * of each class's load times its share, from the inputs' loads (what
 * export services writes and the report draws). Hand-computed: slot 0,
 * big: 10 x 0.5 + 2 x 1 = 7; small: 10 x 0.5 = 5; slot 1, big: 4 x 1 +
 * 0 x 0 = 4; small 0. A class the service lacks, a deployment or slot
 * past the lists count 0. */
TEST(plan_svc_served)
{
    static const char input[] =
        "version: 1\nhorizon: {slots: 2}\nsites: [{name: dc}]\n"
        "accelerators:\n  - {name: A100, memory_gb: 80, power_w: 400}\n"
        "  - {name: L4, memory_gb: 24, power_w: 72}\n"
        "offers:\n"
        "  - {name: big, price_hour: 4, instance: {accelerator: A100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
        "  - {name: small, price_hour: 1, instance: {accelerator: L4, accelerators: 1, cpus: 8, memory_gb: 32}}\n"
        "services:\n  - name: chat\n"
        "    classes: [{name: short, load: [10, 4]}, {name: long, load: [2, 0]}]\n"
        "    replicas:\n      - {accelerator: A100, rate: {short: 10, long: 4}}\n"
        "      - {accelerator: L4, rate: {short: 10}}\n";
    static const char plan[] =
        "capplan_plan: 1\nstatus: feasible\n"
        "totals: {total: 10, cloud: 10, energy: 0, carbon: 0, penalty: 0}\njobs: []\n"
        "services:\n- name: chat\n  cost: 10\n  unserved_requests: 0\n  deployments:\n"
        "  - {config: 0, resource: big, market: on_demand, replicas: [1, 1]}\n"
        "  - {config: 1, resource: small, market: on_demand, replicas: [1, 0]}\n"
        "  routing:\n"
        "  - {class: short, shares: [[0.5, 0.5], [1, 0]], unserved: [0, 0]}\n"
        "  - {class: long, shares: [[1, 0], [0, 0]], unserved: [0, 0]}\n"
        "  - {class: gone, shares: [[1, 1], [1, 1]], unserved: [0, 0]}\n";
    cp_fx fx;
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_node *tree;
    cp_plan_file pf;
    CHECK_INT(read_text(plan, 2, &tree, &pf), CP_OK);
    CHECK_INT(pf.n_svcs, 1);
    if (pf.n_svcs == 1) {
        const cp_plan_svc *e = &pf.svcs[0];
        CHECK_NEAR(cp_plan_svc_served(fx.in, 0, e, 0, 0), 7, 1e-12);
        CHECK_NEAR(cp_plan_svc_served(fx.in, 0, e, 1, 0), 5, 1e-12);
        CHECK_NEAR(cp_plan_svc_served(fx.in, 0, e, 0, 1), 4, 1e-12);
        CHECK_NEAR(cp_plan_svc_served(fx.in, 0, e, 1, 1), 0, 1e-12);
        CHECK_NEAR(cp_plan_svc_served(fx.in, 0, e, 2, 0), 0, 1e-12);
        CHECK_NEAR(cp_plan_svc_served(fx.in, 0, e, 0, 2), 0, 1e-12);
    }
    done(tree, &pf);
    cp_fx_release(&fx);
}
