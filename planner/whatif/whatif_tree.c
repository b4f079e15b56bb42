/*
 * Small edits on cp_node trees for what-if scenarios: copy, build, append,
 * delete. cp_node arrays carry no capacity, so an append grows the array
 * by one; trees edited here are inputs, built once per scenario, and a
 * scenario adds a handful of entities, so this stays cheap.
 */
#include "whatif_internal.h"

#include "cp_alloc.h"

#include <string.h>

cp_node *cp_wi_clone(const cp_node *n)
{
    cp_node *c = cp_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = n->kind;
    c->pos = n->pos;
    c->quoted = n->quoted;
    if (n->str && !(c->str = cp_strdup(n->str))) {
        cp_free(c);
        return NULL;
    }
    if (n->kind == CP_NODE_SCALAR)
        return c;
    size_t k = n->kind == CP_NODE_MAP ? 2 * n->n : n->n;
    c->kids = cp_calloc(k ? k : 1, sizeof *c->kids);
    if (!c->kids) {
        cp_node_free(c);
        return NULL;
    }
    for (size_t i = 0; i < k; i++) {
        if (!(c->kids[i] = cp_wi_clone(n->kids[i]))) {
            for (size_t j = 0; j < i; j++)
                cp_node_free(c->kids[j]);
            cp_node_free(c); /* c->n is 0: frees kids array and node only */
            return NULL;
        }
    }
    c->n = n->n;
    return c;
}

cp_node *cp_wi_scalar_new(const char *text, bool quoted, cp_pos pos)
{
    cp_node *c = cp_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = CP_NODE_SCALAR;
    c->pos = pos;
    c->quoted = quoted;
    if (!(c->str = cp_strdup(text))) {
        cp_free(c);
        return NULL;
    }
    return c;
}

cp_node *cp_wi_coll_new(cp_node_kind kind, cp_pos pos)
{
    cp_node *c = cp_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = kind;
    c->pos = pos;
    if (!(c->kids = cp_calloc(1, sizeof *c->kids))) {
        cp_free(c);
        return NULL;
    }
    return c;
}

int cp_wi_seq_push(cp_node *seq, cp_node *item)
{
    cp_node **k = item ? cp_reallocarray(seq->kids, seq->n + 1, sizeof *k) : NULL;
    if (!k) {
        cp_node_free(item);
        return CP_ERR_NOMEM;
    }
    seq->kids = k;
    seq->kids[seq->n++] = item;
    return CP_OK;
}

int cp_wi_map_put(cp_node *map, cp_node *key, cp_node *value)
{
    cp_node **k = key && value ? cp_reallocarray(map->kids, 2 * map->n + 2, sizeof *k) : NULL;
    if (!k) {
        cp_node_free(key);
        cp_node_free(value);
        return CP_ERR_NOMEM;
    }
    map->kids = k;
    map->kids[2 * map->n] = key;
    map->kids[2 * map->n + 1] = value;
    map->n++;
    return CP_OK;
}

cp_node **cp_wi_map_slot(cp_node *map, const char *key)
{
    if (!map || map->kind != CP_NODE_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++)
        if (!strcmp(map->kids[2 * i]->str, key))
            return &map->kids[2 * i + 1];
    return NULL;
}

void cp_wi_seq_delete(cp_node *seq, size_t i)
{
    cp_node_free(seq->kids[i]);
    memmove(&seq->kids[i], &seq->kids[i + 1], (seq->n - i - 1) * sizeof *seq->kids);
    seq->n--;
}

const char *cp_wi_entity_name(const cp_node *entity)
{
    const cp_node *n = cp_map_get(entity, "name");
    return n && n->kind == CP_NODE_SCALAR ? n->str : NULL;
}
