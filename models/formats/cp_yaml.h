/*
 * A YAML file as a small tree of our own (cp_node), read with libyaml's
 * document API. Owning our tree keeps libyaml types out of every other
 * file, gives each node its FILE:LINE:COLUMN, bounds what an input can
 * cost (file size, depth, node count, alias expansion), and lets what-if
 * scenarios edit inputs before they are interpreted.
 *
 * Scalars keep their text; cp_scalar_* resolve them by YAML 1.2's core
 * schema (a quoted scalar is always a string).
 */
#ifndef CP_YAML_H
#define CP_YAML_H

#include "cp_buf.h"
#include "cp_err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CP_NODE_SCALAR, CP_NODE_SEQ, CP_NODE_MAP } cp_node_kind;

typedef struct cp_node cp_node;
struct cp_node {
    cp_node_kind kind;
    cp_pos pos;
    char *str;      /* scalar text (NUL-terminated), NULL otherwise */
    bool quoted;    /* quoted or block style: always a string */
    size_t n;       /* seq: items; map: pairs */
    cp_node **kids; /* seq: n items; map: 2n, keys at 2i, values at 2i+1 */
};

/* Limits an input may reach; past them the loader refuses it cleanly
 * (the file size: CP_FILE_MAX_BYTES, cp_file.h). */
#define CP_YAML_MAX_DEPTH 64
#define CP_YAML_MAX_NODES 2000000L

/* Reads `path` (borrowed; must outlive the tree, since positions point at
 * it). On success *out is the root (never NULL; an empty document is an
 * error). Errors go to `diags` with positions; returns CP_OK or a code. */
int cp_yaml_load_file(const char *path, cp_node **out, cp_diags *diags);
/* The same, from memory; `name` is used in positions. */
int cp_yaml_load_string(const char *name, const char *text, size_t len,
                        cp_node **out, cp_diags *diags);
/* The same with other limits on the file size and the node count than an
 * input's (CP_FILE_MAX_BYTES, CP_YAML_MAX_NODES): plan files, which hold
 * more than their inputs (cp_plan_read.h). Depth and alias limits stay. */
typedef struct cp_yaml_limits {
    size_t max_bytes;
    long max_nodes;
} cp_yaml_limits;
int cp_yaml_load_file_limits(const char *path, const cp_yaml_limits *lim, cp_node **out,
                             cp_diags *diags);
int cp_yaml_load_string_limits(const char *name, const char *text, size_t len,
                               const cp_yaml_limits *lim, cp_node **out, cp_diags *diags);
void cp_node_free(cp_node *n);

/* A digest of the tree (64-bit FNV-1a over every node's kind, quoting,
 * text and children, in order), continuing from h (start from
 * CP_NODE_DIGEST_INIT): equal for files that differ only in layout and
 * comments, so a re-plan can tell inputs that did not change
 * (capplan.5 §10.5). Positions are not part of it. */
#define CP_NODE_DIGEST_INIT 0xcbf29ce484222325ULL
uint64_t cp_node_digest(const cp_node *n, uint64_t h);

/* Map lookup by key text; NULL when absent. */
cp_node *cp_map_get(const cp_node *map, const char *key);
const char *cp_node_kind_name(const cp_node *n);

/* Core-schema resolution of a scalar. */
bool cp_scalar_is_null(const cp_node *n);
/* Number: ints, floats, .inf, .nan (not when quoted). */
bool cp_scalar_number(const cp_node *n, double *out);
bool cp_scalar_bool(const cp_node *n, bool *out);

/* Appends `root` as one YAML document to `out` (libyaml's emitter):
 * scalars keep their text, plain ones stay plain and quoted (or block)
 * ones are double-quoted, so reading the text back gives the same tree
 * (positions aside). Returns CP_OK, CP_ERR_NOMEM or CP_ERR_INTERNAL. */
int cp_yaml_emit(const cp_node *root, cp_buf *out, cp_err *err);

#endif
