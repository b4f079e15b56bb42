/*
 * Shared by the loader's files (load.c, load_fields.c, load_jobs.c): the
 * loading context and typed field readers. Each reader records its own
 * error (with the node's position and the entity's name) and returns
 * false, so callers go on and all errors of a run are reported.
 */
#ifndef CP_LOAD_INTERNAL_H
#define CP_LOAD_INTERNAL_H

#include "cp_input.h"
#include "cp_yaml.h"

typedef struct lctx {
    cp_diags *diags;
    cp_input *in;
    int slots;   /* 0 while the horizon is unknown or invalid */
    bool nomem;
    bool bad_shape; /* a root or a horizon is not a mapping (already reported) */
} lctx;

/* Range constraints on numbers. */
typedef enum {
    R_ANY,    /* any finite number */
    R_POS,    /* > 0 */
    R_NONNEG, /* >= 0 */
    R_GE1,    /* >= 1 */
    R_UNIT,   /* 0 <= x < 1 */
    R_PROB    /* 0 < x < 1 */
} range_kind;

void cp_load_err(lctx *c, const cp_node *at, const char *ent, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Reports keys of `map` not in `keys` (NULL-terminated); `hint`, when not
 * NULL, explains why a known-elsewhere key is refused (e.g. kind). */
void cp_load_check_keys(lctx *c, const cp_node *map, const char *ent, const char *const *keys,
                        const char *(*hint)(const char *key, void *arg), void *arg);
bool cp_load_want_map(lctx *c, const cp_node *n, const char *ent, const char *key);
bool cp_load_want_seq(lctx *c, const cp_node *n, const char *ent, const char *key);

bool cp_load_num(lctx *c, const cp_node *n, const char *ent, const char *key, range_kind r,
                 double *out);
bool cp_load_int(lctx *c, const cp_node *n, const char *ent, const char *key, long lo, long hi,
                 int *out);
bool cp_load_bool(lctx *c, const cp_node *n, const char *ent, const char *key, bool *out);
/* Any non-null scalar, as its text; *out is a new string. */
bool cp_load_str(lctx *c, const cp_node *n, const char *ent, const char *key, char **out);
/* A series (capplan.5 §1): scalar or exactly c->slots numbers. `is_int` rejects
 * fractions; integers are also checked against [lo, hi] when is_int. */
bool cp_load_series(lctx *c, const cp_node *n, const char *ent, const char *key, range_kind r,
                    bool is_int, long lo, long hi, cp_series *out);
/* A list of ints > 0 without repeats. */
bool cp_load_int_list(lctx *c, const cp_node *n, const char *ent, const char *key, int **out,
                      int *count);
bool cp_load_str_list(lctx *c, const cp_node *n, const char *ent, const char *key, char ***out,
                      int *count);

/* "job 'bert'" or "job #3" when the name is missing. */
void cp_load_ent_name(char *buf, size_t size, const char *kind, const char *name, int index);
const char *cp_load_scalar_text(const cp_node *n);
/* A value as messages show it after "got": 'TEXT' (one line, cut at 60
 * bytes), null, a sequence, a mapping; a quoted scalar that would be a
 * number or boolean without its quotes says so. Uses buf (>= 100 bytes)
 * or returns a constant. */
const char *cp_load_value_desc(const cp_node *n, char *buf, size_t size);

void cp_load_jobs(lctx *c, cp_node *const *items, int n);
/* capplan.5 §9.2: resolves every job's `after` list (items as for cp_load_jobs,
 * after all jobs exist) and reports unknown names, self references and
 * cycles, each cycle once with its path. */
void cp_load_after(lctx *c, cp_node *const *items, int n);
void cp_load_series_release(cp_series *s);
/* 1.2 (load_power.c): a training job's `power_limits` map (node `n`),
 * after its throughput was read. */
void cp_load_power_limits(lctx *c, const cp_node *n, const char *ent, cp_job *j);
/* 1.2 (load_teams.c): the teams (items as for cp_load_jobs, before the
 * jobs), a job's `team` (node `n`), and freeing the teams of an input. */
void cp_load_teams(lctx *c, cp_node *const *items, int n);
void cp_load_job_team(lctx *c, const cp_node *n, const char *ent, cp_job *j);
void cp_teams_free(cp_input *in);
/* Placement rules (capplan.5 §1.7) of a job or a service, and freeing them. */
void cp_load_placement(lctx *c, const cp_node *m, const char *ent, cp_placement *pl);
void cp_load_placement_release(cp_placement *pl);
/* 1.2 (load_services.c): the services (capplan.5 §10.4; items as for
 * cp_load_jobs, after the jobs, whose names they may not take), and
 * freeing them. */
void cp_load_services(lctx *c, cp_node *const *items, int n);
void cp_services_free(cp_input *in);
/* Execution extensions (load_exec.c): a pool's `hosts` (node `n`, after
 * `nodes` was read: nodes_ok) and a job's `run`. */
void cp_load_hosts(lctx *c, const cp_node *n, const char *ent, cp_pool *p, bool nodes_ok);
void cp_load_run(lctx *c, const cp_node *n, const char *ent, cp_job *j);
/* A `run` command (a non-empty string) into *run, its position into *pos. */
void cp_load_command(lctx *c, const cp_node *n, const char *ent, char **run, cp_pos *pos);

#endif
