/*
 * capplan diff OLD NEW: what a re-plan changes (capplan.5 §10.5), in the
 * words an operator reads before accepting it: one line per job that
 * moved, was re-placed, added, dropped or restarted, with its run before
 * and after, then one per service deployment whose replicas or nodes
 * differ, then each cost part of the list (cp_cost_parts.h) in OLD and
 * NEW and the change. The comparison is models/plan_diff.c; this file
 * reads the two plans and prints.
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_plan_diff.h"
#include "cp_yaml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const cp_cli_help diff_help = {
    "usage: capplan diff [options] OLD NEW\n"
    "\n"
    "Compare two plan files (YAML or JSON), typically a plan and its re-plan\n"
    "(plan --from OLD --now S): the jobs that moved (another resource, market,\n"
    "count, shape, power limit or start), were re-placed (other nodes), added,\n"
    "dropped or restarted, each with its run in OLD and NEW, then every cost\n"
    "part in OLD and NEW and the change.\n"
    "\n",
    "\n"
    "Exit status: 0 written (whether or not the plans differ), 2 bad usage or\n"
    "an unreadable plan (FILE:LINE:COLUMN on standard error), 1 the output\n"
    "cannot be written. The full reference: man ./capplan.1 in the source tree.\n"};

static void money(cp_buf *b, const cp_plan_num *v)
{
    if (v->has != CP_PLAN_SET)
        cp_buf_printf(b, " %12s", "-");
    else
        cp_buf_printf(b, " %12.2f", v->v);
}

/* capplan.5 §10.4: a line per service deployment whose replicas or
 * their nodes differ, after a count (only when either plan has services). */
static void write_services(const cp_plan_diff *d, const cp_plan_file *a, const cp_plan_file *b,
                           cp_buf *o)
{
    if (!a->n_svcs && !b->n_svcs)
        return;
    cp_buf_printf(o, "services: %d deployment%s changed, %d unchanged\n", d->deps_changed,
                  d->deps_changed == 1 ? "" : "s", d->n_deps - d->deps_changed);
    for (int i = 0; i < d->n_deps; i++) {
        const cp_diff_dep *e = &d->deps[i];
        if (e->first < 0 && e->first_ids < 0)
            continue;
        cp_buf_printf(o, "%-10s %s: ", "service", e->svc);
        cp_plan_diff_dep_name(o, e);
        cp_buf_puts(o, ": ");
        cp_plan_diff_replicas(o, e->old);
        cp_buf_puts(o, " -> ");
        cp_plan_diff_replicas(o, e->now);
        cp_buf_puts(o, ", ");
        cp_plan_diff_dep_slots(o, e);
        cp_buf_puts(o, "\n");
    }
}

static void write_diff(const cp_plan_diff *d, const cp_plan_file *a, const cp_plan_file *b,
                       const char *an, const char *bn, cp_buf *o)
{
    cp_buf_printf(o, "diff %s -> %s:", an, bn);
    static const cp_diff_kind order[] = {CP_DIFF_MOVED, CP_DIFF_REPLACED, CP_DIFF_ADDED,
                                         CP_DIFF_DROPPED, CP_DIFF_RESTARTED, CP_DIFF_SAME};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        cp_buf_printf(o, "%s %d %s", k ? "," : "", d->count[order[k]],
                      order[k] == CP_DIFF_SAME ? "unchanged" : cp_diff_kind_name(order[k]));
    cp_buf_puts(o, "\n");
    for (size_t k = 0; k + 1 < sizeof order / sizeof order[0]; k++)
        for (int i = 0; i < d->n; i++) {
            const cp_diff_job *e = &d->jobs[i];
            if (e->kind != order[k])
                continue;
            cp_buf_printf(o, "%-10s %s: ", cp_diff_kind_name(e->kind), e->name);
            cp_plan_diff_run(o, e->old);
            cp_buf_puts(o, " -> ");
            cp_plan_diff_run(o, e->now);
            if (e->now && e->now->work_left.has == CP_PLAN_SET) {
                char w[40];
                cp_fmt_num(w, sizeof w, e->now->work_left.v);
                cp_buf_printf(o, ", work_left %s", w);
            }
            cp_buf_puts(o, "\n");
        }
    write_services(d, a, b, o);
    cp_buf_printf(o, "%-16s %12s %12s %12s\n", "cost part", "OLD", "NEW", "change");
    for (int i = 0; i < CP_COST_N; i++) {
        const cp_plan_num *x = &a->totals.part[i], *y = &b->totals.part[i];
        if (x->has != CP_PLAN_SET && y->has != CP_PLAN_SET)
            continue;
        const cp_cost_part *p = &cp_cost_part_info[i];
        cp_buf_printf(o, "%-16s", p->key);
        money(o, x);
        money(o, y);
        double dx = x->has == CP_PLAN_SET ? x->v : 0, dy = y->has == CP_PLAN_SET ? y->v : 0;
        double ch = dy - dx;
        cp_buf_printf(o, " %+12.2f%s%s\n", fabs(ch) < 0.005 ? 0.0 : ch,
                      strcmp(p->unit, "$") ? " " : "", strcmp(p->unit, "$") ? p->unit : "");
    }
}

/* Reads the plan at `path` into pf (tree in *root); prints problems. */
static int read_plan(const char *path, cp_node **root, cp_plan_file *pf, cp_diags *d)
{
    if (cp_plan_load_file(path, root, d))
        return CP_ERR_INPUT;
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_read(*root, NULL, pf, &err)) {
        cp_diags_add_err(d, &err);
        return CP_ERR_NOMEM;
    }
    if (pf->malformed) {
        cp_plan_file_diags(pf, d);
        return CP_ERR_INPUT;
    }
    return CP_OK;
}

int cp_cmd_diff(int argc, char **argv)
{
    const char *out_path = NULL;
    const cp_opt opts[] = {
        CP_OPT_STRING('o', NULL, &out_path, "FILE",
                      "write the comparison there (atomically); default standard output"),
        CP_OPT_QUIET("accepted for symmetry: diff prints only its comparison and errors"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "diff", argc, argv, opts, &diff_help);
    if (st != CP_CLI_RUN)
        return st;
    if (a.n_operands != 2) {
        fprintf(stderr, "capplan diff: needs two plan files, OLD and NEW (%d given)\n",
                a.n_operands);
        cp_cli_args_release(&a);
        return 2;
    }
    const char *outs[] = {"-o", out_path, NULL};
    if ((st = cp_cli_outputs_ok("diff", a.operands, 2, NULL, outs))) {
        cp_cli_args_release(&a);
        return st;
    }
    int status = 2;
    cp_node *ra = NULL, *rb = NULL;
    cp_plan_file pa, pb;
    cp_plan_file_init(&pa);
    cp_plan_file_init(&pb);
    cp_plan_diff d;
    cp_plan_diff_init(&d);
    cp_buf o;
    cp_buf_init(&o);
    cp_err err;
    cp_err_init(&err);
    cp_diags *dg = cp_malloc(sizeof *dg);
    if (!dg) {
        fprintf(stderr, "capplan diff: out of memory\n");
        goto out;
    }
    cp_diags_init(dg);
    int rc = read_plan(a.operands[0], &ra, &pa, dg);
    if (rc == CP_OK)
        rc = read_plan(a.operands[1], &rb, &pb, dg);
    if (rc) {
        cp_diags_print(dg, stderr);
        status = rc == CP_ERR_INPUT ? 2 : 1;
        goto out;
    }
    if (cp_plan_diff_build(&pa, &pb, &d, &err)) {
        cp_err_print(&err, stderr);
        status = 1;
        goto out;
    }
    write_diff(&d, &pa, &pb, a.operands[0], a.operands[1], &o);
    if (cp_write_file_atomic(out_path, o.s, o.len, &err)) {
        cp_err_print(&err, stderr);
        status = 1;
        goto out;
    }
    status = 0;
out:
    cp_buf_release(&o);
    cp_plan_diff_release(&d);
    cp_plan_file_release(&pa);
    cp_plan_file_release(&pb);
    cp_node_free(ra);
    cp_node_free(rb);
    cp_free(dg);
    cp_cli_args_release(&a);
    return status;
}
