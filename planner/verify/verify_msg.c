/*
 * The message and field helpers every phase of the verifier uses
 * (verify_internal.h): a violation into the report, a number as messages
 * print it, and a plan field compared with what the verifier derived
 * (1e-6 relative, VF_REL_TOL). verify.c runs the phases; they call these.
 */
#include "verify_internal.h"

#include "cp_alloc.h"
#include "cp_msg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *const cp_vf_dim_name[CP_DIMS] = {"accelerators", "cpus", "memory_gb"};

/* ---- messages ----------------------------------------------------------- */

cp_vf_numstr cp_vf_n(double v)
{
    cp_vf_numstr r;
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.10g", v);
    cp_fmt_num(r.s, sizeof r.s, isfinite(v) ? strtod(tmp, NULL) : v);
    return r;
}

void cp_vf_viol(cp_vf_ctx *c, cp_pos at, const char *fmt, ...)
{
    if (c->oom)
        return;
    cp_verify_report *r = c->rep;
    va_list ap;
    va_start(ap, fmt);
    char *msg = cp_msg_vformat(fmt, ap);
    va_end(ap);
    if (!msg || CP_GROW(r->items, r->cap, (size_t)r->n + 1)) {
        cp_free(msg);
        c->oom = true;
        return;
    }
    r->items[r->n++] = (cp_violation){at, msg};
}

/* ---- checking plan fields ----------------------------------------------- */

bool cp_vf_need(cp_vf_ctx *c, cp_plan_has has, cp_pos entry, const char *who, const char *key)
{
    if (has == CP_PLAN_ABSENT)
        cp_vf_viol(c, entry, "%s: missing '%s'", who, key);
    return has == CP_PLAN_SET;
}

bool cp_verify_close(double a, double b, double rel)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= rel * m + 1e-9;
}

void cp_vf_compare_num(cp_vf_ctx *c, const cp_plan_num *n, cp_pos entry, const char *key,
                    const char *who, bool required, double expected)
{
    if (n->has == CP_PLAN_ABSENT && !required)
        return;
    if (cp_vf_need(c, n->has, entry, who, key) && !cp_verify_close(n->v, expected, VF_REL_TOL))
        cp_vf_viol(c, n->pos, "%s: %s: expected %s, found %s", who, key, cp_vf_n(expected).s,
                cp_vf_n(n->v).s);
}

void cp_vf_compare_series(cp_vf_ctx *c, const cp_plan_series *s, const char *key, const char *who,
                       const double *expected)
{
    if (s->has != CP_PLAN_SET || s->n != c->T)
        return;
    int bad = 0, first = -1;
    for (int t = 0; t < c->T; t++)
        if (!isnan(s->v[t]) && !cp_verify_close(s->v[t], expected[t], VF_REL_TOL)) {
            if (first < 0)
                first = t;
            bad++;
        }
    if (first < 0)
        return;
    if (bad > 1)
        cp_vf_viol(c, s->at[first], "%s: %s[%d]: expected %s, found %s (and %d more slot%s)", who,
                key, first, cp_vf_n(expected[first]).s, cp_vf_n(s->v[first]).s, bad - 1,
                bad == 2 ? " differs" : "s differ");
    else
        cp_vf_viol(c, s->at[first], "%s: %s[%d]: expected %s, found %s", who, key, first,
                cp_vf_n(expected[first]).s, cp_vf_n(s->v[first]).s);
}
