/*
 * YAML → cp_node tree. libyaml's document API resolves aliases to shared
 * node ids (and even lets an anchor refer to itself), so the copy below
 * expands aliases while counting nodes and depth. A node copied a second
 * time is an alias expansion: those copies are limited to ALIAS_NODES_MIN
 * or ALIAS_NODES_PER_NODE per node of the document, whichever is more, so
 * an alias bomb ("billion laughs") stops after a few thousand nodes, long
 * before CP_YAML_MAX_NODES; a node reached again while it is still being
 * copied is a cycle. Both are reported where the alias is used (libyaml
 * keeps no mark for the alias itself, so at the collection holding it).
 */
#include "cp_yaml.h"

#include "cp_alloc.h"
#include "cp_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define ALIAS_NODES_MIN 100000L
#define ALIAS_NODES_PER_NODE 16L

typedef struct {
    yaml_document_t *doc;
    const char *name;
    const char *text; /* the source, to tell an explicit tag from the default */
    size_t len;
    long nodes;
    cp_diags *diags;
    int rc;
    unsigned char *state; /* per document node: VISITED, ON_PATH bits */
    long alias_nodes;     /* copies of nodes already copied once */
    long alias_max;
    long max_nodes;       /* CP_YAML_MAX_NODES, or the caller's limit */
} copy_ctx;

enum { VISITED = 1, ON_PATH = 2 };

static cp_pos mark_pos(const char *name, yaml_mark_t m)
{
    cp_pos p = {name, (int)m.line + 1, (int)m.column + 1};
    return p;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t cp_node_digest(const cp_node *n, uint64_t h)
{
    /* kind and quoting in one byte, the text with its NUL, the number of
     * children as 8 bytes: no two trees hash the same bytes */
    unsigned char head = (unsigned char)(n->kind * 2 + (n->quoted ? 1 : 0));
    h = fnv1a(h, &head, 1);
    if (n->kind == CP_NODE_SCALAR)
        return fnv1a(h, n->str ? n->str : "", (n->str ? strlen(n->str) : 0) + 1);
    uint64_t count = n->n;
    unsigned char c[8];
    for (int i = 0; i < 8; i++)
        c[i] = (unsigned char)(count >> (8 * i));
    h = fnv1a(h, c, sizeof c);
    size_t kids = n->kind == CP_NODE_MAP ? 2 * n->n : n->n;
    for (size_t i = 0; i < kids; i++)
        h = cp_node_digest(n->kids[i], h);
    return h;
}

void cp_node_free(cp_node *n)
{
    if (!n)
        return;
    size_t k = n->kind == CP_NODE_MAP ? 2 * n->n : n->n;
    for (size_t i = 0; i < k; i++)
        cp_node_free(n->kids[i]);
    cp_free(n->kids);
    cp_free(n->str);
    cp_free(n);
}

static int key_cmp(const void *a, const void *b)
{
    const cp_node *x = *(cp_node *const *)a, *y = *(cp_node *const *)b;
    int c = strcmp(x->str, y->str);
    if (c)
        return c;
    if (x->pos.line != y->pos.line)
        return x->pos.line < y->pos.line ? -1 : 1;
    return x->pos.col < y->pos.col ? -1 : x->pos.col > y->pos.col;
}

/* Reports duplicate keys of a map: sorting keeps this O(n log n). */
static int check_duplicates(copy_ctx *c, cp_node *map)
{
    if (map->n < 2)
        return CP_OK;
    cp_node **keys = cp_calloc(map->n, sizeof *keys);
    if (!keys)
        return CP_ERR_NOMEM;
    for (size_t i = 0; i < map->n; i++)
        keys[i] = map->kids[2 * i];
    qsort(keys, map->n, sizeof *keys, key_cmp);
    int rc = CP_OK;
    for (size_t i = 1; i < map->n; i++) {
        if (strcmp(keys[i]->str, keys[i - 1]->str) == 0) {
            rc = cp_diags_add(c->diags, CP_ERR_INPUT, keys[i]->pos,
                              "duplicate key '%s' (first at line %d, column %d)",
                              keys[i]->str, keys[i - 1]->pos.line, keys[i - 1]->pos.col);
        }
    }
    cp_free(keys);
    return rc;
}

/* `parent` is the position of the collection that holds yn; `site`, when
 * not NULL, that of the collection holding the alias whose expansion is
 * being copied (the place to blame for it). */
/* Whether the node's text starts with a tag ("!!str 2", "&a !x v"):
 * the document API cannot tell an explicit !!str from the default one,
 * but the node starts at its properties (anchor, tag) in the source. */
static bool has_explicit_tag(const copy_ctx *c, const yaml_node_t *yn)
{
    size_t i = yn->start_mark.index;
    if (i < c->len && c->text[i] == '&') {
        while (i < c->len && !strchr(" \t\r\n", c->text[i]))
            i++;
        while (i < c->len && (c->text[i] == ' ' || c->text[i] == '\t'))
            i++;
    }
    return i < c->len && c->text[i] == '!';
}

/* Explicit tags (YAML 1.2 core schema): !!str makes a scalar a string
 * (`nodes: !!str 2` is then refused as "not an integer" by the loader);
 * !!int, !!float, !!bool and !!null must agree with the text, !!map and
 * !!seq with the node; any other tag (!!python/object, !custom) is
 * refused, never dropped silently. */
static int check_tag(copy_ctx *c, const yaml_node_t *yn, cp_node *n)
{
    if (!has_explicit_tag(c, yn))
        return CP_OK;
    const char *tag = yn->tag ? (const char *)yn->tag : "";
    static const char core[] = "tag:yaml.org,2002:";
    const char *t = strncmp(tag, core, sizeof core - 1) ? NULL : tag + sizeof core - 1;
    cp_pos pos = mark_pos(c->name, yn->start_mark);
    bool fits;
    double v;
    bool b;
    static const char *const known[] = {"str", "int", "float", "bool", "null", "seq", "map", NULL};
    int k = 0;
    while (t && known[k] && strcmp(t, known[k]))
        k++;
    if (!t || !known[k])
        return cp_diags_add(c->diags, CP_ERR_INPUT, pos,
                            "unknown YAML tag '%s%s' (only !!str, !!int, !!float, !!bool, !!null, "
                            "!!seq and !!map are read)",
                            t ? "!!" : "", t ? t : tag);
    if (yn->type == YAML_SCALAR_NODE) {
        cp_node plain = *n;
        plain.quoted = false;
        if (!strcmp(t, "str")) {
            n->quoted = true;
            return CP_OK;
        }
        if (!strcmp(t, "int"))
            fits = !n->quoted && cp_scalar_number(&plain, &v) && isfinite(v) && v == floor(v);
        else if (!strcmp(t, "float"))
            fits = !n->quoted && cp_scalar_number(&plain, &v);
        else if (!strcmp(t, "bool"))
            fits = !n->quoted && cp_scalar_bool(&plain, &b);
        else if (!strcmp(t, "null"))
            fits = !n->quoted && cp_scalar_is_null(&plain);
        else
            fits = false;
    } else {
        fits = !strcmp(t, yn->type == YAML_SEQUENCE_NODE ? "seq" : "map");
    }
    if (fits)
        return CP_OK;
    return cp_diags_add(c->diags, CP_ERR_INPUT, pos, "the tag '!!%s' does not fit this %s", t,
                        yn->type == YAML_SCALAR_NODE ? "value" : yn->type == YAML_SEQUENCE_NODE ? "sequence" : "mapping");
}

static int copy_node(copy_ctx *c, yaml_node_t *yn, int depth, cp_pos parent, const cp_pos *site,
                     cp_node **out)
{
    cp_pos pos = mark_pos(c->name, yn->start_mark);
    size_t id = (size_t)(yn - c->doc->nodes.start);
    if ((c->state[id] & ON_PATH) && parent.line == pos.line && parent.col == pos.col)
        return cp_diags_add(c->diags, CP_ERR_INPUT, pos,
                            "this node holds an alias of itself (a cycle)");
    if (c->state[id] & ON_PATH)
        return cp_diags_add(c->diags, CP_ERR_INPUT, parent,
                            "an alias here refers to a node that contains it "
                            "(anchor at line %d, column %d): a cycle",
                            pos.line, pos.col);
    if (depth > CP_YAML_MAX_DEPTH)
        return cp_diags_add(c->diags, CP_ERR_INPUT, pos,
                            "nesting deeper than %d levels", CP_YAML_MAX_DEPTH);
    bool again = c->state[id] & VISITED;
    if (again && !site)
        site = &parent;
    if (again && ++c->alias_nodes > c->alias_max)
        return cp_diags_add(c->diags, CP_ERR_INPUT, *site,
                            "aliases here expand to more than %ld copied nodes (an alias bomb?)",
                            c->alias_max);
    if (++c->nodes > c->max_nodes)
        return cp_diags_add(c->diags, CP_ERR_INPUT, pos,
                            "document expands to more than %ld nodes", c->max_nodes);
    c->state[id] |= VISITED | ON_PATH;
    cp_node *n = cp_calloc(1, sizeof *n);
    if (!n) {
        c->state[id] &= (unsigned char)~ON_PATH;
        return CP_ERR_NOMEM;
    }
    n->pos = pos;
    int rc = CP_OK;
    switch (yn->type) {
    case YAML_SCALAR_NODE: {
        n->kind = CP_NODE_SCALAR;
        n->str = cp_strndup((const char *)yn->data.scalar.value, yn->data.scalar.length);
        if (!n->str) {
            rc = CP_ERR_NOMEM;
            break;
        }
        if (strlen(n->str) != yn->data.scalar.length) {
            rc = cp_diags_add(c->diags, CP_ERR_INPUT, pos, "scalar contains a NUL character");
            break;
        }
        /* The document API gives every untagged scalar the !!str tag, so
         * only the style tells a quoted scalar from a plain one. */
        n->quoted = yn->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
        rc = check_tag(c, yn, n);
        break;
    }
    case YAML_SEQUENCE_NODE: {
        n->kind = CP_NODE_SEQ;
        if ((rc = check_tag(c, yn, n)) != CP_OK)
            break;
        yaml_node_item_t *it = yn->data.sequence.items.start;
        size_t cnt = (size_t)(yn->data.sequence.items.top - it);
        n->kids = cp_calloc(cnt ? cnt : 1, sizeof *n->kids);
        if (!n->kids) {
            rc = CP_ERR_NOMEM;
            break;
        }
        for (size_t i = 0; i < cnt && rc == CP_OK; i++) {
            yaml_node_t *child = yaml_document_get_node(c->doc, it[i]);
            rc = copy_node(c, child, depth + 1, pos, site, &n->kids[i]);
            if (rc == CP_OK)
                n->n = i + 1;
        }
        break;
    }
    case YAML_MAPPING_NODE: {
        n->kind = CP_NODE_MAP;
        if ((rc = check_tag(c, yn, n)) != CP_OK)
            break;
        yaml_node_pair_t *p = yn->data.mapping.pairs.start;
        size_t cnt = (size_t)(yn->data.mapping.pairs.top - p);
        n->kids = cp_calloc(cnt ? 2 * cnt : 1, sizeof *n->kids);
        if (!n->kids) {
            rc = CP_ERR_NOMEM;
            break;
        }
        for (size_t i = 0; i < cnt && rc == CP_OK; i++) {
            yaml_node_t *k = yaml_document_get_node(c->doc, p[i].key);
            yaml_node_t *v = yaml_document_get_node(c->doc, p[i].value);
            if (k->type != YAML_SCALAR_NODE) {
                rc = cp_diags_add(c->diags, CP_ERR_INPUT, mark_pos(c->name, k->start_mark),
                                  "mapping key must be a scalar");
                break;
            }
            rc = copy_node(c, k, depth + 1, pos, site, &n->kids[2 * i]);
            if (rc == CP_OK)
                rc = copy_node(c, v, depth + 1, pos, site, &n->kids[2 * i + 1]);
            if (rc == CP_OK) {
                n->n = i + 1;
            } else {
                /* keep the half-built pair owned so it is freed */
                n->n = i + 1;
                if (!n->kids[2 * i])
                    n->n = i;
                else if (!n->kids[2 * i + 1]) {
                    cp_node_free(n->kids[2 * i]);
                    n->kids[2 * i] = NULL;
                    n->n = i;
                }
            }
        }
        if (rc == CP_OK)
            rc = check_duplicates(c, n);
        break;
    }
    default:
        rc = cp_diags_add(c->diags, CP_ERR_INPUT, pos, "empty node");
        break;
    }
    c->state[id] &= (unsigned char)~ON_PATH;
    if (rc != CP_OK) {
        cp_node_free(n);
        return rc;
    }
    *out = n;
    return CP_OK;
}

/* Where the byte at `offset` of text stands: its line, and its column in
 * characters, as libyaml's marks count them (a UTF-8 character is one
 * column whatever its bytes; a byte order mark is none). libyaml gives a
 * reader's error (invalid UTF-8, a control character) as a byte offset
 * only, with its mark left at the start of the file. */
static cp_pos offset_pos(const char *name, const char *text, size_t len, size_t offset)
{
    cp_pos p = {name, 1, 1};
    size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    for (; i < offset && i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
            p.line++;
            p.col = 1;
        } else if ((c & 0xC0) != 0x80 && c != '\r') {
            p.col++;
        }
    }
    return p;
}

/* libyaml's message as "PROBLEM (while CONTEXT at line L, column C)", where
 * the context names the construct being parsed and where it began; a tab
 * where a token should start gets a message of its own, since that is
 * almost always indentation. */
static int parse_error(const yaml_parser_t *parser, const char *name, const char *text,
                       size_t len, cp_diags *diags)
{
    if (parser->error == YAML_MEMORY_ERROR)
        return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    const char *what = parser->problem ? parser->problem : "cannot parse YAML";
    yaml_mark_t m = parser->problem_mark;
    cp_pos pos = parser->error == YAML_READER_ERROR
                     ? offset_pos(name, text, len, parser->problem_offset)
                     : mark_pos(name, m);
    if (m.index < len && text[m.index] == '\t')
        return cp_diags_add(diags, CP_ERR_INPUT, pos,
                            "a tab character where YAML allows only spaces "
                            "(indent with spaces)");
    if (parser->context) {
        yaml_mark_t cm = parser->context_mark;
        return cp_diags_add(diags, CP_ERR_INPUT, pos, "%s (%s at line %d, column %d)", what,
                            parser->context, (int)cm.line + 1, (int)cm.column + 1);
    }
    return cp_diags_add(diags, CP_ERR_INPUT, pos, "%s", what);
}

/* libyaml's loader builds the whole document before we can count its
 * nodes or its depth, at about 150 bytes a node: a 64 MiB file of
 * one-character items would take gigabytes, and its scanner's work per
 * token grows with the flow nesting, so 200,000 nested '[' (400 KB) took
 * over a minute. So the events are read first, in constant memory, and
 * a document is refused at the node past CP_YAML_MAX_DEPTH or
 * max_nodes, where the scan stops. Parse errors are left to the real
 * load, which reports them the same way; the copy checks the depth again
 * where aliases are expanded. */
static int prescan(const char *name, const char *text, size_t len, long max_nodes,
                   cp_diags *diags)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    long nodes = 0;
    int open = 0; /* collections open around the next node: its depth */
    int rc = CP_OK;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev))
            break;
        yaml_event_type_t t = ev.type;
        bool node = t == YAML_SCALAR_EVENT || t == YAML_SEQUENCE_START_EVENT ||
                    t == YAML_MAPPING_START_EVENT || t == YAML_ALIAS_EVENT;
        if (node && open > CP_YAML_MAX_DEPTH)
            rc = cp_diags_add(diags, CP_ERR_INPUT, mark_pos(name, ev.start_mark),
                              "nesting deeper than %d levels", CP_YAML_MAX_DEPTH);
        else if (node && ++nodes > max_nodes)
            rc = cp_diags_add(diags, CP_ERR_INPUT, mark_pos(name, ev.start_mark),
                              "document has more than %ld nodes", max_nodes);
        if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT)
            open++;
        else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT)
            open--;
        yaml_event_delete(&ev);
        if (rc != CP_OK || t == YAML_STREAM_END_EVENT)
            break;
    }
    yaml_parser_delete(&parser);
    return rc;
}

static const cp_yaml_limits input_limits = {(size_t)CP_FILE_MAX_BYTES, CP_YAML_MAX_NODES};

int cp_yaml_load_string(const char *name, const char *text, size_t len,
                        cp_node **out, cp_diags *diags)
{
    return cp_yaml_load_string_limits(name, text, len, &input_limits, out, diags);
}

int cp_yaml_load_string_limits(const char *name, const char *text, size_t len,
                               const cp_yaml_limits *lim, cp_node **out, cp_diags *diags)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = CP_OK;
    /* every text: the depth can pass its limit in a few hundred bytes */
    if ((rc = prescan(name, text, len, lim->max_nodes, diags)) != CP_OK)
        return rc;
    if (!yaml_parser_initialize(&parser))
        return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        rc = parse_error(&parser, name, text, len, diags);
        yaml_parser_delete(&parser);
        return rc;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        cp_pos p = {name, 1, 1};
        rc = cp_diags_add(diags, CP_ERR_INPUT, p, "empty file: expected a mapping with keys such as 'horizon' and 'jobs'");
        goto out;
    }
    size_t n_nodes = (size_t)(doc.nodes.top - doc.nodes.start);
    copy_ctx c = {&doc, name, text, len, 0, diags, CP_OK, NULL, 0, ALIAS_NODES_MIN,
                  lim->max_nodes};
    if ((long)n_nodes > ALIAS_NODES_MIN / ALIAS_NODES_PER_NODE)
        c.alias_max = (long)n_nodes * ALIAS_NODES_PER_NODE;
    c.state = cp_calloc(n_nodes, 1);
    if (!c.state) {
        rc = cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    cp_node *tree = NULL;
    rc = copy_node(&c, root, 0, mark_pos(name, root->start_mark), NULL, &tree);
    cp_free(c.state);
    if (rc == CP_ERR_NOMEM && diags->worst == CP_OK)
        cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    if (rc != CP_OK)
        goto out;
    /* A second document in the same file is not part of the format. */
    yaml_document_t doc2;
    if (!yaml_parser_load(&parser, &doc2)) {
        rc = parse_error(&parser, name, text, len, diags);
    } else {
        yaml_node_t *r2 = yaml_document_get_root_node(&doc2);
        if (r2) /* at its '---' line, where the second document starts */
            rc = cp_diags_add(diags, CP_ERR_INPUT, mark_pos(name, doc2.start_mark),
                              "a second YAML document; each file holds one mapping");
        yaml_document_delete(&doc2);
    }
    if (rc != CP_OK) {
        cp_node_free(tree);
        goto out;
    }
    *out = tree;
out:
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return rc;
}

int cp_yaml_load_file(const char *path, cp_node **out, cp_diags *diags)
{
    return cp_yaml_load_file_limits(path, &input_limits, out, diags);
}

int cp_yaml_load_file_limits(const char *path, const cp_yaml_limits *lim, cp_node **out,
                             cp_diags *diags)
{
    char *text = NULL;
    size_t len = 0;
    cp_err err;
    if (cp_file_read_max(path, "YAML", lim->max_bytes, &text, &len, &err) != CP_OK) {
        cp_diags_add_err(diags, &err);
        return err.code;
    }
    int rc = cp_yaml_load_string_limits(path, text, len, lim, out, diags);
    cp_free(text);
    return rc;
}

cp_node *cp_map_get(const cp_node *map, const char *key)
{
    if (!map || map->kind != CP_NODE_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->kids[2 * i]->str, key) == 0)
            return map->kids[2 * i + 1];
    return NULL;
}

const char *cp_node_kind_name(const cp_node *n)
{
    switch (n->kind) {
    case CP_NODE_SCALAR:
        return "a scalar";
    case CP_NODE_SEQ:
        return "a sequence";
    case CP_NODE_MAP:
        return "a mapping";
    }
    return "?";
}

bool cp_scalar_is_null(const cp_node *n)
{
    if (n->kind != CP_NODE_SCALAR || n->quoted)
        return false;
    const char *s = n->str;
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

bool cp_scalar_bool(const cp_node *n, bool *out)
{
    if (n->kind != CP_NODE_SCALAR || n->quoted)
        return false;
    const char *s = n->str;
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
        *out = true;
        return true;
    }
    if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
        *out = false;
        return true;
    }
    return false;
}

static bool all_in(const char *s, const char *set)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!strchr(set, *s))
            return false;
    return true;
}

/* YAML 1.2 core schema numbers, matched by hand because strtod accepts
 * more (hex floats, "inf", "nan", leading spaces) than the schema does. */
bool cp_scalar_number(const cp_node *n, double *out)
{
    if (n->kind != CP_NODE_SCALAR || n->quoted)
        return false;
    const char *s = n->str;
    const char *b = s + (*s == '+' || *s == '-');
    bool neg = *s == '-';
    if (!strcmp(b, ".inf") || !strcmp(b, ".Inf") || !strcmp(b, ".INF")) {
        *out = neg ? -INFINITY : INFINITY;
        return true;
    }
    if (!strcmp(s, ".nan") || !strcmp(s, ".NaN") || !strcmp(s, ".NAN")) {
        *out = NAN;
        return true;
    }
    if (!strncmp(s, "0x", 2) && all_in(s + 2, "0123456789abcdefABCDEF")) {
        *out = (double)strtoull(s + 2, NULL, 16);
        return true;
    }
    if (!strncmp(s, "0o", 2) && all_in(s + 2, "01234567")) {
        *out = (double)strtoull(s + 2, NULL, 8);
        return true;
    }
    /* [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )? */
    const char *p = b;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        int frac = 0;
        while (*p >= '0' && *p <= '9') {
            p++;
            frac++;
        }
        if (!digits && !frac)
            return false;
    } else if (!digits) {
        return false;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p)
        return false;
    *out = strtod(s, NULL);
    return true;
}
