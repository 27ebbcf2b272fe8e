/*
 * tree.c - the node index of one pkf_lower call. One walk over the parsed
 * tree, right after parsing, records every visible node with its type, parent
 * and children, so that the lowering lists children, reads fields and finds
 * parents in constant time rather than walking tree-sitter's subtrees each
 * time (a cursor step costs hundreds of instructions through the grammar's
 * hidden nodes, ts_node_parent starts from the root, ts_node_named_child(n, i)
 * scans from the first child).
 *
 * The walk is breadth-first (a node's children are consecutive in node[]) and
 * also measures the nesting translate.c limits. The TSNodes it stores are the
 * ones tree-sitter returns, so any node the frontend holds is found again by
 * its id (a hash table); a node that is not (none should be) goes to
 * tree-sitter's own functions. Fields are read lazily: the first pkf_field on
 * a node records the field of each of its children
 * (ts_node_field_name_for_child), and the first child in field f is what
 * ts_node_child_by_field_id(n, f) returns. It can also return a grandchild:
 * the fields inside a hidden rule that an alias makes visible are lent to
 * the parent (in the Python grammar only match_statement's `alternative`,
 * inside its body, a field the match_statement has no child in), so a field
 * that no child holds is asked of tree-sitter.
 */
#include "fe.h"

#include <stdio.h>
#include <stdlib.h>

enum {
  NODE_NAMED = 1,  /* named and not an extra (a comment) */
  KIDS_EXTRA = 2,  /* some child is an extra */
  KIDS_FIELDS = 4, /* the children's fields are recorded */
};

/* Nodes with more children than this are listed with a tree cursor: the cost
 * of ts_node_child(n, i) grows with i in a node whose children are not
 * grouped under hidden repetition nodes. */
enum { FEW_CHILDREN = 16 };

typedef struct pkf_tnode {
  uint32_t parent;        /* PKF_NO_NODE for the root */
  uint32_t kids, nkids;   /* children: node[kids .. kids + nkids), extras included */
  uint32_t named, nnamed; /* named children without extras: named[named .. named + nnamed) */
  uint16_t field;         /* field id in the parent, once the parent has KIDS_FIELDS */
  uint8_t flags;
} pkf_tnode;

struct pkf_tree {
  uint32_t n, cap, nnamed;
  TSNode *node;    /* every visible node, the root first */
  pkf_tnode *t;    /* by the same index */
  TSNode *named;   /* the lists of named children */
  uint32_t *depth, *brackets; /* while building: of every node, for the nesting limits */
  uint32_t *slot;  /* hash table: node id -> index + 1 (0: empty) */
  uint32_t mask;
  uint32_t last;   /* the node found last (callers ask about one node several times) */
  const char **field_name; /* field id -> the grammar's name for it */
  uint32_t nfield;
};

static void out_of_memory(void) {
  fputs("pkc: out of memory\n", stderr); /* as the arena does (ir/ir.c) */
  exit(3);
}

static void *xrealloc(void *p, size_t n, size_t size) {
  p = realloc(p, n ? n * size : 1);
  if (!p)
    out_of_memory();
  return p;
}

/* ------------------------------------------------------------- hashing */

static uint32_t hash(const void *id, uint32_t mask) {
  return (uint32_t)(((uint64_t)(uintptr_t)id * 0x9E3779B97F4A7C15u) >> 32) & mask;
}

static void insert(pkf_tree *t, uint32_t i) {
  uint32_t h = hash(t->node[i].id, t->mask);
  while (t->slot[h])
    h = (h + 1) & t->mask;
  t->slot[h] = i + 1;
}

static bool same_node(TSNode a, TSNode b) { return a.id == b.id && a.tree == b.tree; }

uint32_t pkf_node_index(const pkf_ctx *c, TSNode n) {
  pkf_tree *t = c->tree;
  if (!t || ts_node_is_null(n))
    return PKF_NO_NODE;
  if (same_node(t->node[t->last], n))
    return t->last;
  for (uint32_t h = hash(n.id, t->mask); t->slot[h]; h = (h + 1) & t->mask)
    if (same_node(t->node[t->slot[h] - 1], n))
      return t->last = t->slot[h] - 1;
  return PKF_NO_NODE;
}

/* ------------------------------------------------------------ building */

/* Room for need nodes (the descendant count should be exact; this is a guard). */
static void reserve(pkf_tree *t, uint32_t need) {
  if (need <= t->cap)
    return;
  t->cap = need > 2 * t->cap ? need : 2 * t->cap;
  t->node = xrealloc(t->node, t->cap, sizeof *t->node);
  t->t = xrealloc(t->t, t->cap, sizeof *t->t);
  t->named = xrealloc(t->named, t->cap, sizeof *t->named);
  t->depth = xrealloc(t->depth, t->cap, sizeof *t->depth);
  t->brackets = xrealloc(t->brackets, t->cap, sizeof *t->brackets);
}

/* Puts the k children of node i at node[t->n ...]. */
static void list_children(pkf_tree *t, TSTreeCursor *cur, uint32_t i, uint32_t k) {
  TSNode x = t->node[i];
  if (k <= FEW_CHILDREN) {
    for (uint32_t j = 0; j < k; j++)
      t->node[t->n + j] = ts_node_child(x, j);
    return;
  }
  ts_tree_cursor_reset(cur, x);
  uint32_t j = 0;
  if (ts_tree_cursor_goto_first_child(cur))
    do
      t->node[t->n + j++] = ts_tree_cursor_current_node(cur);
    while (j < k && ts_tree_cursor_goto_next_sibling(cur));
  for (; j < k; j++) /* (the cursor sees as many children as ts_node_child_count) */
    t->node[t->n + j] = ts_node_child(x, j);
}

static void add_children(const pkf_ctx *c, pkf_tree *t, TSTreeCursor *cur, uint32_t i) {
  uint32_t k = ts_node_child_count(t->node[i]), first = t->n;
  reserve(t, t->n + k);
  list_children(t, cur, i, k);
  t->n += k;
  t->t[i].kids = first;
  t->t[i].nkids = k;
  t->t[i].named = t->nnamed;
  for (uint32_t j = first; j < t->n; j++) {
    TSNode ch = t->node[j];
    t->t[j] = (pkf_tnode){.parent = i};
    if (ts_node_is_extra(ch)) {
      t->t[i].flags |= KIDS_EXTRA;
    } else if (ts_node_is_named(ch)) {
      t->t[j].flags = NODE_NAMED;
      t->named[t->nnamed++] = ch;
    }
    t->depth[j] = t->depth[i] + 1;
    t->brackets[j] = t->brackets[i] + pkf_opens_bracket(pkf_ntype_of(c, ch));
    insert(t, j);
  }
  t->t[i].nnamed = t->nnamed - t->t[i].named;
}

bool pkf_tree_build(pkf_ctx *c, TSNode root, uint32_t max_depth, uint32_t max_brackets) {
  pkf_tree *t = xrealloc(NULL, 1, sizeof *t);
  *t = (pkf_tree){0};
  c->tree = t;
  uint32_t n = ts_node_descendant_count(root), cap = 16;
  while (cap < 2 * (uint64_t)n && cap < (UINT32_C(1) << 31))
    cap *= 2;
  t->slot = calloc(cap, sizeof *t->slot);
  t->mask = cap - 1;
  if (!t->slot)
    out_of_memory();
  reserve(t, n);
  t->node[0] = root;
  t->t[0] = (pkf_tnode){.parent = PKF_NO_NODE};
  t->depth[0] = 0;
  t->brackets[0] = pkf_opens_bracket(pkf_ntype_of(c, root));
  t->n = 1;
  insert(t, 0);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  bool ok = true;
  for (uint32_t i = 0; i < t->n; i++) {
    ok &= t->depth[i] <= max_depth && t->brackets[i] <= max_brackets;
    add_children(c, t, &cur, i);
  }
  ts_tree_cursor_delete(&cur);
  free(t->depth);
  free(t->brackets);
  t->depth = t->brackets = NULL;
  const TSLanguage *l = ts_tree_language(root.tree);
  t->nfield = ts_language_field_count(l) + 1;
  t->field_name = xrealloc(NULL, t->nfield, sizeof *t->field_name);
  for (uint32_t f = 0; f < t->nfield; f++)
    t->field_name[f] = ts_language_field_name_for_id(l, (TSFieldId)f);
  return ok;
}

void pkf_tree_free(pkf_ctx *c) {
  pkf_tree *t = c->tree;
  if (!t)
    return;
  free(t->node);
  free(t->t);
  free(t->named);
  free(t->slot);
  free(t->field_name);
  free(t);
  c->tree = NULL;
}

/* ------------------------------------------------------------ queries */

/* The children of n without extras (named_only: named ones only), from
 * tree-sitter for a node missing from the index. */
static pkf_nodes ts_children(pkf_ctx *c, TSNode n, bool named_only) {
  uint32_t k = ts_node_is_null(n) ? 0 : ts_node_child_count(n), m = 0;
  TSNode *v = k ? pki_alloc(c->m->arena, sizeof *v * k) : NULL;
  for (uint32_t i = 0; i < k; i++) {
    TSNode ch = ts_node_child(n, i);
    if (!ts_node_is_extra(ch) && (!named_only || ts_node_is_named(ch)))
      v[m++] = ch;
  }
  return (pkf_nodes){v, m};
}

/* The children of indexed node i that are not extras (with_extras: the named
 * ones, extras included, as ts_node_named_child counts them). */
static pkf_nodes filtered(pkf_ctx *c, uint32_t i, bool with_extras) {
  const pkf_tree *t = c->tree;
  const pkf_tnode *x = &t->t[i];
  TSNode *v = x->nkids ? pki_alloc(c->m->arena, sizeof *v * x->nkids) : NULL;
  uint32_t m = 0;
  for (uint32_t j = x->kids; j < x->kids + x->nkids; j++) {
    bool extra = ts_node_is_extra(t->node[j]);
    if (with_extras ? extra || (t->t[j].flags & NODE_NAMED) : !extra)
      v[m++] = t->node[j];
  }
  return (pkf_nodes){v, m};
}

pkf_nodes pkf_children(pkf_ctx *c, TSNode n) {
  uint32_t i = pkf_node_index(c, n);
  if (i == PKF_NO_NODE)
    return ts_children(c, n, true);
  const pkf_tnode *x = &c->tree->t[i];
  return (pkf_nodes){x->nnamed ? c->tree->named + x->named : NULL, x->nnamed};
}

pkf_nodes pkf_all_children(pkf_ctx *c, TSNode n) {
  uint32_t i = pkf_node_index(c, n);
  if (i == PKF_NO_NODE)
    return ts_children(c, n, false);
  const pkf_tnode *x = &c->tree->t[i];
  if (x->flags & KIDS_EXTRA)
    return filtered(c, i, false);
  return (pkf_nodes){x->nkids ? c->tree->node + x->kids : NULL, x->nkids};
}

pkf_nodes pkf_named_children(pkf_ctx *c, TSNode n) {
  uint32_t i = pkf_node_index(c, n);
  if (i == PKF_NO_NODE) {
    uint32_t k = ts_node_is_null(n) ? 0 : ts_node_named_child_count(n);
    TSNode *v = k ? pki_alloc(c->m->arena, sizeof *v * k) : NULL;
    for (uint32_t j = 0; j < k; j++)
      v[j] = ts_node_named_child(n, j);
    return (pkf_nodes){v, k};
  }
  if (c->tree->t[i].flags & KIDS_EXTRA)
    return filtered(c, i, true);
  return pkf_children(c, n);
}

TSNode pkf_child(pkf_ctx *c, TSNode n, uint32_t k) {
  uint32_t i = pkf_node_index(c, n);
  if (i == PKF_NO_NODE)
    return ts_node_is_null(n) ? n : ts_node_child(n, k);
  const pkf_tnode *x = &c->tree->t[i];
  return k < x->nkids ? c->tree->node[x->kids + k] : (TSNode){0};
}

TSNode pkf_named_child(pkf_ctx *c, TSNode n, uint32_t k) {
  pkf_nodes ch = pkf_named_children(c, n);
  return k < ch.n ? ch.v[k] : (TSNode){0};
}

uint32_t pkf_named_child_count(pkf_ctx *c, TSNode n) { return pkf_named_children(c, n).n; }

TSNode pkf_parent(pkf_ctx *c, TSNode n) {
  uint32_t i = pkf_node_index(c, n);
  if (i == PKF_NO_NODE)
    return ts_node_is_null(n) ? n : ts_node_parent(n);
  uint32_t p = c->tree->t[i].parent;
  return p == PKF_NO_NODE ? (TSNode){0} : c->tree->node[p];
}

static uint16_t field_id(const pkf_tree *t, const char *name) {
  if (!name)
    return 0;
  for (uint32_t f = 1; f < t->nfield; f++)
    if (t->field_name[f] == name)
      return (uint16_t)f;
  for (uint32_t f = 1; f < t->nfield; f++)
    if (t->field_name[f] && !strcmp(t->field_name[f], name))
      return (uint16_t)f;
  return 0;
}

static void read_fields(pkf_tree *t, uint32_t i) {
  pkf_tnode *x = &t->t[i];
  for (uint32_t j = 0; j < x->nkids; j++)
    t->t[x->kids + j].field = field_id(t, ts_node_field_name_for_child(t->node[i], j));
  x->flags |= KIDS_FIELDS;
}

TSNode pkf_field(pkf_ctx *c, TSNode n, pkf_field_name f) {
  uint32_t i = pkf_node_index(c, n), id = c->g.field[f];
  if (i == PKF_NO_NODE)
    return ts_node_is_null(n) ? n : ts_node_child_by_field_id(n, (TSFieldId)id);
  pkf_tree *t = c->tree;
  if (!(t->t[i].flags & KIDS_FIELDS))
    read_fields(t, i);
  const pkf_tnode *x = &t->t[i];
  for (uint32_t j = 0; id && j < x->nkids; j++)
    if (t->t[x->kids + j].field == id)
      return t->node[x->kids + j];
  return id ? ts_node_child_by_field_id(n, (TSFieldId)id) : (TSNode){0};
}
