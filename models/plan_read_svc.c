/*
 * Reading a plan's services (capplan.5 §10.4) into a cp_plan_file: each
 * service's name, cost and unserved requests, its deployments (a
 * configuration on a resource and market, replicas per slot and, in a
 * placed plan, their nodes) and its routing (each class's shares per slot
 * and its unserved load), with the typed readers of plan_read.c.
 */
#include "plan_read_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdio.h>

/* A list of numbers of any length (one share per deployment). */
static void node_nums(rd *c, const cp_node *s, const char *who, cp_plan_series *out)
{
    out->has = CP_PLAN_SET;
    out->pos = s->pos;
    if (s->kind != CP_NODE_SEQ) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s must be a list of numbers, found %s", who, cp_pr_found(s));
        return;
    }
    if (s->n == 0)
        return;
    if (!(out->v = cp_malloc(s->n * (sizeof *out->v + sizeof *out->at)))) {
        c->oom = true;
        return;
    }
    out->at = (cp_pos *)(void *)(out->v + s->n);
    out->n = (int)s->n;
    for (size_t i = 0; i < s->n; i++) {
        out->at[i] = s->kids[i]->pos;
        if (!cp_scalar_number(s->kids[i], &out->v[i]) || !isfinite(out->v[i])) {
            out->v[i] = NAN;
            BAD(c, s->kids[i]->pos, "%s[%zu] must be a finite number, found %s", who, i,
                cp_pr_found(s->kids[i]));
        }
    }
}

/* A per-slot list of lists under `k`: each element read by `one` (NULL:
 * ids) into out[t]. Returns the count read. */
static int per_slot(rd *c, const cp_node *e, const char *k, const char *who, bool required,
                    cp_plan_has *has, cp_pos *pos, void **out, size_t size, bool ids)
{
    const cp_node *l = cp_pr_key(c, e, k, who, required, has, pos);
    if (!l)
        return 0;
    if (l->kind != CP_NODE_SEQ || (c->pf->slots > 0 && (int)l->n != c->pf->slots)) {
        *has = CP_PLAN_BAD;
        BAD(c, l->pos, "%s: '%s' must be a list of %d lists (one per slot), found %s", who, k,
            c->pf->slots, l->kind == CP_NODE_SEQ ? "another count" : cp_pr_found(l));
        return 0;
    }
    if (l->n == 0 || !(*out = cp_calloc(l->n, size))) {
        c->oom = l->n > 0;
        return 0;
    }
    char w[400];
    for (size_t t = 0; t < l->n; t++) {
        snprintf(w, sizeof w, "%s: %s[%zu]", who, k, t);
        if (!ids) {
            node_nums(c, l->kids[t], w, &((cp_plan_series *)*out)[t]);
            continue;
        }
        cp_node wrap = {CP_NODE_MAP, l->kids[t]->pos, NULL, false, 1, NULL};
        cp_node kv = {CP_NODE_SCALAR, l->kids[t]->pos, (char *)"ids", false, 0, NULL};
        cp_node *kids[2] = {&kv, l->kids[t]};
        wrap.kids = kids;
        cp_pr_strs(c, &wrap, "ids", w, true, "node or instance id", &((cp_plan_strs *)*out)[t]);
    }
    return (int)l->n;
}

static void read_svc_dep(rd *c, const cp_node *e, const char *svc, size_t i, cp_plan_svc_dep *d)
{
    char who[400];
    snprintf(who, sizeof who, "%s deployment %zu", svc, i + 1);
    d->pos = e->pos;
    d->mk = CP_PLAN_NO_MARKET;
    cp_pr_int(c, e, "config", who, true, &d->config);
    cp_pr_str(c, e, "resource", who, true, &d->resource);
    cp_pr_str(c, e, "market", who, true, &d->market);
    if (d->market.s && (d->mk = cp_pr_market(d->market.s)) == CP_PLAN_NO_MARKET)
        BAD(c, d->market.pos, "%s: market '%s' is not one of pool, on_demand, spot", who,
            d->market.s);
    cp_pr_series(c, e, "replicas", who, true, true, &d->replicas);
    d->n_nodes = per_slot(c, e, "nodes", who, false, &d->nodes_has, &d->nodes_pos,
                          (void **)&d->nodes, sizeof *d->nodes, true);
}

static void read_svc_route(rd *c, const cp_node *e, const char *svc, size_t i, cp_plan_svc_route *r)
{
    char who[400];
    snprintf(who, sizeof who, "%s routing %zu", svc, i + 1);
    r->pos = e->pos;
    cp_pr_str(c, e, "class", who, true, &r->cls);
    if (r->cls.s)
        snprintf(who, sizeof who, "%s class '%s'", svc, r->cls.s);
    r->n_shares = per_slot(c, e, "shares", who, true, &r->shares_has, &r->shares_pos,
                           (void **)&r->shares, sizeof *r->shares, false);
    cp_pr_series(c, e, "unserved", who, true, false, &r->unserved);
}

/* A sub-list of a service entry: its entries (mappings) read by `one`. */
#define READ_SVC_LIST(c, e, k, who, HAS, POS, ARR, CNT, ONE)                                       \
    do {                                                                                           \
        const cp_node *l_ = cp_pr_key((c), (e), (k), (who), true, (HAS), (POS));                   \
        if (l_ && l_->kind != CP_NODE_SEQ) {                                                       \
            *(HAS) = CP_PLAN_BAD;                                                                  \
            BAD((c), l_->pos, "%s: '%s' must be a list, found %s", (who), (k), cp_pr_found(l_));   \
        } else if (l_ && l_->n && !((ARR) = cp_calloc(l_->n, sizeof *(ARR)))) {                    \
            (c)->oom = true;                                                                       \
        } else {                                                                                   \
            for (size_t i_ = 0; l_ && i_ < l_->n && !(c)->oom; i_++)                               \
                if (cp_pr_entry_is_map((c), l_->kids[i_], "an entry of a service"))                \
                    ONE((c), l_->kids[i_], (who), i_, &(ARR)[(CNT)++]);                            \
        }                                                                                          \
    } while (0)

void cp_pr_services(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        cp_pr_list(c, root, "services", &pf->svc_list, (void **)&pf->svcs, sizeof *pf->svcs);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!cp_pr_entry_is_map(c, e, "a service entry"))
            continue;
        cp_plan_svc *v = &pf->svcs[pf->n_svcs++];
        v->pos = e->pos;
        v->index = (int)i;
        snprintf(who, sizeof who, "service %zu", i + 1);
        cp_pr_str(c, e, "name", who, true, &v->name);
        if (v->name.s)
            snprintf(who, sizeof who, "service '%s'", v->name.s);
        cp_pr_num(c, e, "cost", who, false, &v->cost);
        cp_pr_num(c, e, "unserved_requests", who, false, &v->unserved_requests);
        READ_SVC_LIST(c, e, "deployments", who, &v->deps_has, &v->deps_pos, v->deps, v->n_deps,
                      read_svc_dep);
        READ_SVC_LIST(c, e, "routing", who, &v->routing_has, &v->routing_pos, v->routes,
                      v->n_routes, read_svc_route);
    }
}

void cp_pr_svc_release(cp_plan_svc *v)
{
    for (int d = 0; d < v->n_deps; d++) {
        cp_free(v->deps[d].replicas.v);
        for (int t = 0; t < v->deps[d].n_nodes; t++)
            cp_free(v->deps[d].nodes[t].s);
        cp_free(v->deps[d].nodes);
    }
    for (int r = 0; r < v->n_routes; r++) {
        for (int t = 0; t < v->routes[r].n_shares; t++)
            cp_free(v->routes[r].shares[t].v);
        cp_free(v->routes[r].shares);
        cp_free(v->routes[r].unserved.v);
    }
    cp_free(v->deps);
    cp_free(v->routes);
}
