/*
 * launch.sh of `capplan export skypilot` (docs/execution.md, "Cloud jobs
 * on SkyPilot"): the plan's clusters and tasks (export_launch.c) as steps
 * at their times, counted from horizon.start (or from when the script
 * starts, with --begin now or without horizon.start):
 *
 *   - at a cluster's start, `sky launch -y -c NAME -i IDLE --down FILE`,
 *     the launches of one time side by side (provisioning takes minutes);
 *     IDLE is the cluster's life plus an hour, so a cluster whose script
 *     stopped early still goes down on its own;
 *   - at a job's start, `sky exec -d NAME TASK`: SkyPilot's job queue
 *     runs the tasks of a cluster side by side, each on the accelerators
 *     and CPUs it asks for;
 *   - at a cluster's stop, `sky autostop NAME -i 1 --down`: down once its
 *     queue has been idle for a minute, so a job that overran ends first.
 *
 * Services (export_serve.c): at a deployment's first slot with replicas
 * `sky serve up -y -n capplan-svc-NNN FILE`, at a change of its count
 * `sky serve update -y capplan-svc-NNN FILE` (FILE the service YAML of
 * the new count), at a slot without replicas and at the horizon's end
 * `sky serve down -y capplan-svc-NNN`.
 *
 * At one time, stops, service downs and scale-downs come first (their
 * quota is free again), then launches, service ups and scale-ups side by
 * side, then jobs. Names from the input are hostile: they appear only
 * single-quoted, in the text of progress lines (printf '%s'); cluster
 * names and file names are capplan's own.
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* in the order of one time's steps; EV_SVC_*: idx is a deployment */
enum { EV_STOP, EV_SVC_DOWN, EV_LAUNCH, EV_SVC_UP, EV_EXEC };

typedef struct event {
    long slot;
    int kind, idx;
} event;

static int cmp_event(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    return x->idx - y->idx;
}

static long seconds(const cp_input *in, long slot)
{
    return cp_num_clamp_long(round((double)slot * in->slot_hours * 3600), 0, LONG_MAX);
}

/* say/failed with the text `msg`, single-quoted */
static void put_call(cp_buf *b, const char *fn, const cp_buf *msg)
{
    cp_buf_printf(b, "%s ", fn);
    cp_sh_quote(b, msg->s ? msg->s : "");
}

static void put_t0(cp_buf *b, const cp_input *in, const cp_xp_sky *s, const cp_export_opts *o)
{
    if (s->from && (o->begin_now || !s->have_start)) {
        /* a re-plan's script starts at its first slot */
        cp_buf_printf(b, "t0=$(($(date +%%s) - %ld)) # slot %ld starts when this script does\n",
                      seconds(in, s->from), s->from);
    } else if (o->begin_now) {
        cp_buf_puts(b, "t0=$(date +%s) # --begin now: the night starts when this script does\n");
    } else if (!s->have_start) {
        cp_buf_puts(b, "t0=$(date +%s) # the inputs give no horizon.start: the night starts "
                       "when this script does\n");
    } else if (s->utc) {
        cp_buf_printf(b, "t0=%ld # horizon.start, ", s->start);
        cp_xp_put_time(b, s->start);
        cp_buf_puts(b, " UTC, in seconds since 1970\n");
    } else {
        /* a wall-clock time without a zone: this machine's zone decides */
        cp_buf_puts(b, "t0=$(date -d '");
        cp_xp_put_time(b, s->start);
        cp_buf_puts(b, "' +%s) # horizon.start, in this machine's time zone (GNU date)\n");
    }
}

static void put_header(cp_buf *b, const cp_input *in, const cp_xp_sky *s, const cp_export_opts *o)
{
    cp_buf_puts(b, "#!/bin/sh\n# written by capplan export skypilot");
    if (o->plan_name && !cp_export_has_control(o->plan_name)) {
        cp_buf_puts(b, " from plan ");
        cp_sh_quote(b, o->plan_name);
    }
    cp_buf_printf(b,
                  "; regenerate rather than edit\n"
                  "# runs the plan's %d cloud job%s on %d SkyPilot cluster%s at the planned times\n"
                  "# (launch.md): each cluster is launched at its start (sky launch), each job is\n"
                  "# queued on its cluster at its start (sky exec -d: SkyPilot's job queue runs the\n"
                  "# jobs of a cluster side by side, each on the accelerators and CPUs its task\n"
                  "# asks for), and each cluster is downed once idle from its stop on (sky\n"
                  "# autostop --down). A cluster whose script stopped early downs itself after\n"
                  "# idling for its planned life plus an hour. One line per step on standard\n"
                  "# error; exit status 1 when a step failed (the later steps still run).\n"
                  "set -u\n"
                  "cd \"$(dirname \"$0\")\" || exit 1\n",
                  s->n_t, s->n_t == 1 ? "" : "s", s->n_c, s->n_c == 1 ? "" : "s");
    if (s->n_v)
        cp_buf_printf(b,
                      "# Services: %d SkyServe service%s, one per cloud deployment (launch.md),\n"
                      "# brought up at their first replicas (sky serve up), set to each slot's\n"
                      "# count (sky serve update) and taken down without replicas (sky serve "
                      "down).\n",
                      s->n_v, s->n_v == 1 ? "" : "s");
    if (s->from)
        cp_buf_printf(b,
                      "# A re-plan from slot %ld (capplan.5 \"Re-planning\"): run it instead of the\n"
                      "# earlier plan's launch.sh (stop that one first). The clusters and jobs\n"
                      "# that began before slot %ld run on as they are: only the steps from slot\n"
                      "# %ld on are here, and the clusters the re-plan ends then go down.\n",
                      s->from, s->from, s->from);
    if (s->from && s->n_v)
        cp_buf_puts(b, "# The SkyServe services up then keep their names and replicas: each is\n"
                       "# scaled, taken down or brought up from that slot on as the re-plan says.\n");
    put_t0(b, in, s, o);
    /* a date that cannot read the start (not GNU date -d) must not start
     * the night at 1970 + the planned hours: every step at once */
    cp_buf_puts(b, "case $t0 in '' | *[!0-9]*)\n"
                   "    printf 'capplan launch: no start time, date said: %s\\n' \"$t0\" >&2\n"
                   "    exit 1 ;;\n"
                   "esac\n"
                   "status=0\n"
                   "# at SECONDS: waits until t0 + SECONDS\n"
                   "at() {\n"
                   "    now=$(date +%s)\n"
                   "    if [ \"$((t0 + $1))\" -gt \"$now\" ]; then sleep \"$((t0 + $1 - now))\"; fi\n"
                   "}\n"
                   "# say TEXT: a line of progress; failed TEXT: a step that failed\n"
                   "say() { printf 'capplan launch: %s\\n' \"$1\" >&2; }\n"
                   "failed() { printf 'capplan launch: failed: %s\\n' \"$1\" >&2; status=1; }\n");
}

/* "capplan-svc-NNN: ..." for a service step at e->slot into msg; the
 * command's verb and file into cmd ("up -y -n NAME FILE", ...). */
static void svc_step(const cp_input *in, const cp_xp_sky *s, const event *e, cp_buf *msg,
                     cp_buf *cmd)
{
    const cp_xp_serve *v = &s->v[e->idx];
    int k = cp_xp_serve_count(v, e->slot), was = cp_xp_serve_count(v, e->slot - 1);
    const char *name = in->services[v->svc].name;
    cp_buf_reset(msg);
    cp_buf_reset(cmd);
    if (k == 0) {
        cp_buf_printf(msg, "%s: down, service '%s' has no replicas there", v->name, name);
        cp_buf_printf(cmd, "down -y %s", v->name);
        return;
    }
    if (was == 0)
        cp_buf_printf(msg, "%s: up with %d replica%s of service '%s', %s '%s'", v->name, k,
                      k == 1 ? "" : "s", name, v->spot ? "spot" : "on-demand", v->of->name);
    else
        cp_buf_printf(msg, "%s: %d replica%s of service '%s' (from %d)", v->name, k,
                      k == 1 ? "" : "s", name, was);
    cp_buf_printf(cmd, was == 0 ? "up -y -n %s %s-x%d.yaml" : "update -y %s %s-x%d.yaml",
                  v->name, v->stem.s, k);
}

/* The launches and service ups of one time, side by side; events[i..]
 * of kind EV_LAUNCH and EV_SVC_UP. */
static int put_launches(cp_buf *b, const cp_input *in, const cp_xp_sky *s, const event *ev,
                        int n, cp_buf *msg)
{
    cp_buf cmd;
    cp_buf_init(&cmd);
    for (int i = 0; i < n; i++) {
        if (ev[i].kind == EV_SVC_UP) {
            svc_step(in, s, &ev[i], msg, &cmd);
            put_call(b, "say", msg);
            cp_buf_printf(b, "\nsky serve %s &\np%d=$!\n", cmd.s ? cmd.s : "", i + 1);
            continue;
        }
        const cp_xp_cluster *c = &s->c[ev[i].idx];
        cp_buf_reset(msg);
        cp_buf_printf(msg, "%s: launch %d node%s of %s", c->name, c->nodes,
                      c->nodes == 1 ? "" : "s", c->spot ? "spot" : "on-demand");
        cp_buf_printf(msg, " '%s'", c->of->name);
        put_call(b, "say", msg);
        double mins = ceil((double)(seconds(in, c->end) - seconds(in, c->start)) / 60.0);
        long idle = cp_num_clamp_long(mins, 0, LONG_MAX / 2) + 60;
        cp_buf_printf(b, "\nsky launch -y -c %s -i %ld --down %s &\np%d=$!\n", c->name, idle,
                      c->file.s, i + 1);
    }
    for (int i = 0; i < n; i++) {
        cp_buf_reset(msg);
        if (ev[i].kind == EV_SVC_UP)
            cp_buf_printf(msg, "%s of %s", cp_xp_serve_count(&s->v[ev[i].idx], ev[i].slot - 1)
                                               ? "scaling" : "serve up",
                          s->v[ev[i].idx].name);
        else
            cp_buf_printf(msg, "launch of %s", s->c[ev[i].idx].name);
        cp_buf_printf(b, "wait \"$p%d\" || ", i + 1);
        put_call(b, "failed", msg);
        cp_buf_putc(b, '\n');
    }
    int rc = cp_buf_ok(msg) && cp_buf_ok(&cmd) ? CP_OK : CP_ERR_NOMEM;
    cp_buf_release(&cmd);
    return rc;
}

/* A service down or scale-down, at once. */
static void put_svc_down(cp_buf *b, const cp_input *in, const cp_xp_sky *s, const event *e,
                         cp_buf *msg)
{
    cp_buf cmd;
    cp_buf_init(&cmd);
    svc_step(in, s, e, msg, &cmd);
    put_call(b, "say", msg);
    cp_buf_printf(b, "\nsky serve %s || ", cmd.s ? cmd.s : "");
    const cp_xp_serve *v = &s->v[e->idx];
    cp_buf_reset(msg);
    cp_buf_printf(msg, cp_xp_serve_count(v, e->slot) ? "scaling of %s" : "serve down of %s",
                  v->name);
    put_call(b, "failed", msg);
    cp_buf_putc(b, '\n');
    if (!cp_buf_ok(&cmd))
        cp_buf_release(msg); /* reported as out of memory */
    cp_buf_release(&cmd);
}

static void put_step(cp_buf *b, const cp_input *in, const cp_xp_sky *s, const event *e,
                     cp_buf *msg)
{
    if (e->kind == EV_STOP) {
        /* a cluster the re-plan ends at its start goes down now: what
         * still runs there is what the re-plan cancels */
        const cp_xp_cluster *c = &s->c[e->idx];
        bool now = s->down_at_from && s->down_at_from[e->idx];
        cp_buf_reset(msg);
        cp_buf_printf(msg, now ? "%s: down now, the re-plan cancels what runs there"
                               : "%s: down once idle",
                      c->name);
        put_call(b, "say", msg);
        cp_buf_printf(b, now ? "\nsky down -y %s || " : "\nsky autostop %s -i 1 --down || ",
                      c->name);
        cp_buf_reset(msg);
        cp_buf_printf(msg, now ? "down of %s" : "autodown of %s", c->name);
        put_call(b, "failed", msg);
        cp_buf_putc(b, '\n');
        return;
    }
    const cp_xp_task *t = &s->t[e->idx];
    const cp_xp_cluster *c = &s->c[t->cluster];
    cp_buf_reset(msg);
    cp_buf_printf(msg, "job '%s' on %s: %d node%s", in->jobs[t->job].name, c->name, t->nodes,
                  t->nodes == 1 ? "" : "s");
    if (t->acc)
        cp_buf_printf(msg, ", %s:%ld each", in->accels[c->of->inst.acc].name, t->acc);
    put_call(b, "say", msg);
    cp_buf_printf(b, "\nsky exec -d %s %s || ", c->name, t->file.s);
    cp_buf_reset(msg);
    cp_buf_printf(msg, "job '%s' on %s", in->jobs[t->job].name, c->name);
    put_call(b, "failed", msg);
    cp_buf_putc(b, '\n');
}

int cp_xp_sky_script(const cp_input *in, const cp_xp_sky *s, const cp_export_opts *o,
                     cp_export *x, cp_diags *d)
{
    int n = 2 * s->n_c + s->n_t + s->n_v * (in->slots + 1);
    event *ev = cp_calloc((size_t)(n ? n : 1), sizeof *ev);
    cp_export_file *f = ev ? cp_export_add(x, "launch.sh", true) : NULL;
    if (!f) {
        cp_free(ev);
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    n = 0; /* a re-plan's: what begins from slot `from` on */
    for (int i = 0; i < s->n_c; i++) {
        if (s->c[i].start >= s->from)
            ev[n++] = (event){s->c[i].start, EV_LAUNCH, i};
        if (s->c[i].end >= s->from)
            ev[n++] = (event){s->c[i].end, EV_STOP, i};
    }
    for (int i = 0; i < s->n_t; i++)
        if (s->t[i].pj->start_slot.v >= s->from)
            ev[n++] = (event){s->t[i].pj->start_slot.v, EV_EXEC, i};
    for (int i = 0; i < s->n_v; i++)
        for (long t = s->from; t <= in->slots; t++) {
            int k = cp_xp_serve_count(&s->v[i], t), was = cp_xp_serve_count(&s->v[i], t - 1);
            if (k != was)
                ev[n++] = (event){t, k < was ? EV_SVC_DOWN : EV_SVC_UP, i};
        }
    qsort(ev, (size_t)n, sizeof *ev, cmp_event);
    cp_buf *b = &f->text, msg;
    cp_buf_init(&msg);
    put_header(b, in, s, o);
    if (s->n_cancel || s->n_gone) {
        cp_buf_printf(b, "\nat %ld # slot %ld: what the re-plan ends\n", seconds(in, s->from),
                      s->from);
        for (int i = 0; i < s->n_gone; i++) {
            cp_xp_cluster c = *s->gone[i];
            c.end = s->from;
            bool down = s->gone[i]->end > s->from;
            put_step(b, in, &(cp_xp_sky){.c = &c, .n_c = 1, .down_at_from = &down},
                     &(event){s->from, EV_STOP, 0}, &msg);
        }
        for (int i = 0; i < s->n_cancel; i++) {
            const char *c = s->cancel[i].cluster;
            cp_buf_reset(&msg);
            cp_buf_printf(&msg,
                          "job '%s' on %s: cancelled by the re-plan, cancel it there (sky queue "
                          "%s; sky cancel -y %s ID)",
                          s->cancel[i].job, c, c, c);
            put_call(b, "failed", &msg);
            cp_buf_putc(b, '\n');
        }
    }
    int rc = CP_OK;
    for (int i = 0; i < n && rc == CP_OK;) {
        long slot = ev[i].slot;
        cp_buf_printf(b, "\nat %ld # slot %ld", seconds(in, slot), slot);
        if (s->have_start && !o->begin_now) {
            cp_buf_puts(b, ": ");
            cp_xp_put_time(b, s->start + seconds(in, slot));
        }
        cp_buf_putc(b, '\n');
        for (; i < n && ev[i].slot == slot && ev[i].kind == EV_STOP; i++)
            put_step(b, in, s, &ev[i], &msg);
        for (; i < n && ev[i].slot == slot && ev[i].kind == EV_SVC_DOWN; i++)
            put_svc_down(b, in, s, &ev[i], &msg);
        int l = i;
        while (i < n && ev[i].slot == slot && (ev[i].kind == EV_LAUNCH || ev[i].kind == EV_SVC_UP))
            i++;
        if (i > l)
            rc = put_launches(b, in, s, &ev[l], i - l, &msg);
        for (; i < n && ev[i].slot == slot && ev[i].kind == EV_EXEC; i++)
            put_step(b, in, s, &ev[i], &msg);
    }
    cp_buf_puts(b, "exit \"$status\"\n");
    if (rc == CP_OK && (!cp_buf_ok(b) || !cp_buf_ok(&msg)))
        rc = CP_ERR_NOMEM;
    if (rc)
        cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf_release(&msg);
    cp_free(ev);
    return rc;
}
