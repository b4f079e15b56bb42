/*
 * Execution extensions of the input (docs/spec-notes.md, "Execution"):
 * what `capplan export` needs beyond capplan.5 §1 to turn a plan into batch
 * scripts and launch files.
 *
 *  - pool `hosts`: the host name of each node, as a list (one name per
 *    node, node i is the i-th name) or a pattern with one integer
 *    conversion ("gpu-%02d": node i is gpu-00, gpu-01, ...; a mapping
 *    {pattern: "gpu%02d", first: 1} numbers from `first`). Resolved here
 *    into one name per node, so the exporter never formats anything.
 *  - job `run`: the shell command that runs the job (a string);
 *  - service `run`, `port` and `readiness_probe`: a replica's command, the
 *    port it serves on and the path SkyServe probes (load_services.c).
 *
 * Host names go into sbatch directives unquoted (Slurm reads them), so
 * they are held to Slurm's node-name alphabet: letters, digits, '.', '_'
 * and '-', not starting with '-'. A name outside it is an error at its
 * place in the file rather than something to quote later.
 */
#include "load_internal.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

#define HOST_MAX 64

bool cp_host_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > HOST_MAX || s[0] == '-')
        return false;
    for (; *s; s++) {
        char ch = *s;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '.' || ch == '_' || ch == '-'))
            return false;
    }
    return true;
}

static bool host_check(lctx *c, const cp_node *at, const char *ent, const char *name)
{
    if (cp_host_name_ok(name))
        return true;
    char got[120];
    snprintf(got, sizeof got, "%.60s", name);
    cp_load_err(c, at, ent,
                "host name '%s' is not a Slurm node name (1 to %d letters, digits, '.', '_' or "
                "'-', not starting with '-')",
                got, HOST_MAX);
    return false;
}

/* The one conversion of a pattern: %d or %0Nd (N 1..9), %% a literal %.
 * Returns false with a message in why. */
static bool pattern_ok(const char *p, const char **why)
{
    int conv = 0;
    for (const char *s = p; *s; s++) {
        if (*s != '%')
            continue;
        s++;
        if (*s == '%')
            continue;
        if (*s == '0' && s[1] >= '1' && s[1] <= '9')
            s += 2;
        if (*s != 'd') {
            *why = "a conversion other than %d or %0Nd (N 1..9)";
            return false;
        }
        conv++;
    }
    if (conv != 1) {
        *why = conv ? "more than one %d" : "no %d for the node number";
        return false;
    }
    return true;
}

static void put_host(lctx *c, cp_pool *p, int i, char *name)
{
    if (!name) {
        c->nomem = true;
        return;
    }
    p->hosts[i] = name;
}

void cp_load_hosts(lctx *c, const cp_node *n, const char *ent, cp_pool *p, bool nodes_ok)
{
    p->hosts_pos = n->pos;
    if (!nodes_ok)
        return;
    const cp_node *pat = NULL;
    long first = 0;
    if (n->kind == CP_NODE_MAP) {
        static const char *const keys[] = {"pattern", "first", NULL};
        char sub[240];
        snprintf(sub, sizeof sub, "%s hosts", ent);
        cp_load_check_keys(c, n, sub, keys, NULL, NULL);
        if (!(pat = cp_map_get(n, "pattern"))) {
            cp_load_err(c, n, sub, "missing required key 'pattern' (such as \"gpu-%%02d\")");
            return;
        }
        const cp_node *f = cp_map_get(n, "first");
        int fi = 0;
        if (f && !cp_load_int(c, f, sub, "first", 0, 1000000000, &fi))
            return;
        first = fi;
    } else if (n->kind == CP_NODE_SCALAR && !cp_scalar_is_null(n)) {
        pat = n;
    } else if (n->kind != CP_NODE_SEQ) {
        cp_load_err(c, n, ent,
                    "'hosts' must be a list of host names, a pattern such as \"gpu-%%02d\" or "
                    "{pattern, first}, got %s",
                    n->kind == CP_NODE_SCALAR ? "null" : cp_node_kind_name(n));
        return;
    }
    if (pat && pat->kind != CP_NODE_SCALAR) {
        cp_load_err(c, pat, ent, "'hosts' pattern must be a string, got %s",
                    cp_node_kind_name(pat));
        return;
    }
    if (!pat && (int)n->n != p->nodes) {
        cp_load_err(c, n, ent, "'hosts' lists %zu name%s but the pool has %d node%s", n->n,
                    n->n == 1 ? "" : "s", p->nodes, p->nodes == 1 ? "" : "s");
        return;
    }
    const char *why = NULL;
    if (pat && !pattern_ok(pat->str, &why)) {
        cp_load_err(c, pat, ent, "'hosts' pattern '%.60s' has %s", pat->str, why);
        return;
    }
    p->hosts = cp_calloc((size_t)(p->nodes ? p->nodes : 1), sizeof *p->hosts);
    if (!p->hosts) {
        c->nomem = true;
        return;
    }
    bool ok = true;
    for (int i = 0; i < p->nodes && ok && !c->nomem; i++) {
        if (pat) {
            char buf[HOST_MAX + 2];
            int len = snprintf(buf, sizeof buf, pat->str, (int)(first + i));
            if (len < 0 || len >= (int)sizeof buf) {
                cp_load_err(c, pat, ent, "'hosts' pattern gives a name longer than %d bytes",
                            HOST_MAX);
                ok = false;
            } else if ((ok = host_check(c, pat, ent, buf))) {
                put_host(c, p, i, cp_strdup(buf));
            }
        } else {
            const cp_node *h = n->kids[i];
            if (h->kind != CP_NODE_SCALAR || cp_scalar_is_null(h)) {
                cp_load_err(c, h, ent, "'hosts' entries must be host names, got %s",
                            h->kind == CP_NODE_SCALAR ? "null" : cp_node_kind_name(h));
                ok = false;
            } else if ((ok = host_check(c, h, ent, h->str))) {
                put_host(c, p, i, cp_strdup(h->str));
            }
        }
    }
    /* two nodes on one host would be one Slurm node: refuse in lists
     * (a pattern cannot repeat) */
    for (int i = 0; ok && !pat && i < p->nodes; i++)
        for (int k = 0; k < i && p->hosts[i] && p->hosts[k]; k++)
            if (!strcmp(p->hosts[i], p->hosts[k])) {
                cp_load_err(c, n->kids[i], ent,
                            "'hosts' names '%s' twice (nodes %d and %d of the pool)", p->hosts[i],
                            k, i);
                ok = false;
                break;
            }
}

void cp_load_run(lctx *c, const cp_node *n, const char *ent, cp_job *j)
{
    cp_load_command(c, n, ent, &j->run, &j->run_pos);
}

void cp_load_command(lctx *c, const cp_node *n, const char *ent, char **run, cp_pos *pos)
{
    if (n->kind != CP_NODE_SCALAR || cp_scalar_is_null(n) || !n->str[0]) {
        cp_load_err(c, n, ent, "'run' must be a shell command (a non-empty string), got %s",
                    n->kind == CP_NODE_SCALAR ? (n->str[0] ? "null" : "an empty string")
                                              : cp_node_kind_name(n));
        return;
    }
    if (!(*run = cp_strdup(n->str)))
        c->nomem = true;
    *pos = n->pos;
}
