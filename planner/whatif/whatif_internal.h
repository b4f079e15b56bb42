/*
 * Shared by the what-if files: the parsed scenarios (whatif_scen.c), tree
 * editing (whatif_tree.c), applying changes (whatif_apply.c), the runner
 * (whatif_run.c) and the table writers (whatif_table.c).
 */
#ifndef CP_WHATIF_INTERNAL_H
#define CP_WHATIF_INTERNAL_H

#include "cp_whatif.h"
#include "cp_yaml.h"

typedef enum { WI_SET, WI_SCALE, WI_ADD } wi_op;

/* The entity kinds a path, `remove` or `add` may name, in capplan.5's order (§1.3-1.7). */
enum { WI_SITES, WI_ACCELS, WI_POOLS, WI_OFFERS, WI_JOBS, WI_TEAMS, WI_SERVICES, WI_KINDS };
extern const char *const cp_wi_kind_keys[WI_KINDS];
int cp_wi_kind_find(const char *key); /* -1 when not a kind */

typedef struct wi_change {
    const cp_node *path;  /* the path scalar (borrowed from the scenario tree) */
    wi_op op;
    const cp_node *value; /* the value node (borrowed) */
    double num;           /* scale and add: the value as a number */
} wi_change;

typedef struct wi_named {
    int kind;
    const cp_node *node; /* remove: the name scalar; add: the entity */
} wi_named;

typedef struct wi_scenario {
    char *name;
    cp_pos pos;          /* its `name` (or, for a sweep, the swept value) */
    wi_change *changes;  /* a sweep's change comes last */
    int n_changes;
    wi_named *removes;
    int n_removes;
    wi_named *adds;
    int n_adds;
    char *sweep;         /* the sweep's scenario name, NULL when not a sweep */
    double sweep_value;  /* NAN when the swept value is not a number */
} wi_scenario;

struct cp_scenarios {
    cp_node *tree; /* owns every node the scenarios point at */
    wi_scenario *v;
    int n;
};

/* One row's own accelerator types and its hours on each (on-prem, cloud). */
typedef struct wi_rowacc {
    char **acc;
    double *on, *cl;
    int n_acc;
} wi_rowacc;
/* Fills t's accelerator columns (the union of ra[i].acc in first-seen
 * order over the rows; NAN for rows without a plan), each row's hours,
 * the team columns (the union of the rows' own `teams`, the same way),
 * each row's team costs and its deltas against rows[0]. Shared by the runner and the shard merge so
 * both tables are the same bytes. Returns CP_OK or CP_ERR_NOMEM. */
int cp_wi_build_columns(cp_whatif_table *t, const wi_rowacc *ra);

/* ---- service columns (whatif_svc.c, capplan.5 §10.4) ------------------ */
struct cp_plan;
struct cp_plan_figures;
/* r's own services and their figures from plan p and its figures f;
 * CP_ERR_NOMEM (what was filled is freed with the row). */
int cp_wi_svc_fill(cp_whatif_row *r, const cp_input *in, const struct cp_plan *p,
                   const struct cp_plan_figures *f);
/* The table's service columns and each row's svc_fig (the union of the
 * rows' own services, first seen first); CP_ERR_NOMEM. */
int cp_wi_svc_columns(cp_whatif_table *t);
void cp_wi_svc_row_free(cp_whatif_row *r);
void cp_wi_svc_table_free(cp_whatif_table *t);

/* ---- trees (whatif_tree.c) -------------------------------------------- */
/* Deep copy (positions kept); NULL on out of memory. */
cp_node *cp_wi_clone(const cp_node *n);
cp_node *cp_wi_scalar_new(const char *text, bool quoted, cp_pos pos);
cp_node *cp_wi_coll_new(cp_node_kind kind, cp_pos pos);
/* Appends to a sequence (item) or mapping (key, value): takes ownership
 * of the new nodes, also on failure. Returns CP_OK or CP_ERR_NOMEM. */
int cp_wi_seq_push(cp_node *seq, cp_node *item);
int cp_wi_map_put(cp_node *map, cp_node *key, cp_node *value);
/* Address of the value of `key` in `map`, NULL when absent. */
cp_node **cp_wi_map_slot(cp_node *map, const char *key);
/* Removes and frees item i of a sequence. */
void cp_wi_seq_delete(cp_node *seq, size_t i);
/* The text of an entity's `name` scalar, NULL when it has none. */
const char *cp_wi_entity_name(const cp_node *entity);

/* ---- applying a scenario (whatif_apply.c) ----------------------------- */
/* Merges the input roots into one new root (horizon, objective, then the
 * kinds; scenarios and version left out). */
int cp_wi_merge(cp_node *const *roots, int n_roots, cp_node **out);
/* Applies scenario s to `root` (the merged tree, edited in place). Errors
 * (matches nothing, not a number, no such name) go to d. */
int cp_wi_apply(cp_node *root, const wi_scenario *s, cp_diags *d);

#endif
