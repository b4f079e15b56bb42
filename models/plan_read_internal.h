/*
 * What the plan reader's files share: the reader's state, its list of
 * problems and the typed readers (plan_read_fields.c), each of which
 * records whether a key was given, its value and its position, and adds a
 * problem when the value is not of its type; the services' reader
 * (plan_read_svc.c), which plan_read.c calls.
 */
#ifndef PLAN_READ_INTERNAL_H
#define PLAN_READ_INTERNAL_H

#include "cp_plan_read.h"
#include "cp_yaml.h"

typedef struct rd {
    cp_plan_file *pf;
    cp_plan_level level; /* of the problems found now */
    bool oom;
    bool choices_only; /* cp_plan_read_opts.choices_only */
} rd;

/* Adds a problem of `level` at pos (nothing more once out of memory). */
void cp_pr_problem(rd *c, cp_plan_level level, cp_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A problem at the level of what is read now. */
#define BAD(c, pos, ...) cp_pr_problem((c), (c)->level, (pos), __VA_ARGS__)

/* A value as messages show it after "found". */
const char *cp_pr_found(const cp_node *v);
/* The value under `key`, NULL when absent or null. */
const cp_node *cp_pr_get(const cp_node *map, const char *key);
/* An integer within +-2e9. */
bool cp_pr_as_int(const cp_node *v, long *out);
/* The value under `k` with has and pos set; a problem when it is missing
 * and `required`. */
const cp_node *cp_pr_key(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                         cp_plan_has *has, cp_pos *pos);
void cp_pr_str(rd *c, const cp_node *map, const char *k, const char *who, bool required,
               cp_plan_str *out);
void cp_pr_num(rd *c, const cp_node *map, const char *k, const char *who, bool required,
               cp_plan_num *out);
/* Every integer of a plan is a count or a slot index: >= 0. */
void cp_pr_int(rd *c, const cp_node *map, const char *k, const char *who, bool required,
               cp_plan_int *out);
/* A per-slot list of numbers (`whole`: integers >= 0). The first one
 * that is not empty sets the slot count when the caller gave none. */
void cp_pr_series(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                  bool whole, cp_plan_series *out);
/* A list of scalars; `what` names one ("node or instance id"). */
void cp_pr_strs(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                const char *what, cp_plan_strs *out);
/* A top-level list under `k`; allocates `n` entries of `size` bytes
 * into *items. Returns the list node, NULL when absent or not a list. */
const cp_node *cp_pr_list(rd *c, const cp_node *root, const char *k, cp_plan_list *l, void **items,
                          size_t size);
/* A mapping under `k` (NULL when absent or not one: a problem). */
const cp_node *cp_pr_map(rd *c, const cp_node *map, const char *k, bool required, cp_plan_has *has,
                         cp_pos *pos);
bool cp_pr_entry_is_map(rd *c, const cp_node *e, const char *what);
cp_plan_market cp_pr_market(const char *s);

/* The services of the plan (capplan.5 §10.4), into c->pf (plan_read_svc.c);
 * cp_pr_svc_release frees what one of them holds. */
void cp_pr_services(rd *c, const cp_node *root);
void cp_pr_svc_release(cp_plan_svc *v);

#endif
