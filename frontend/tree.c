/*
 * tree.c - the node index of one pkf_lower call. One walk over the parsed
 * tree, right after parsing, records every named node (comments aside) with
 * its parent and named children, so that the lowering lists children, reads
 * fields and finds parents in constant time rather than walking tree-sitter's
 * subtrees each time (a cursor step costs hundreds of instructions through
 * the grammar's hidden nodes, ts_node_parent starts from the root,
 * ts_node_named_child(n, i) scans from the first child).
 *
 * The walk is breadth-first with ts_node_child, so a node's named children
 * are consecutive in node[]; an anonymous node or a comment that has children
 * of its own (`not in`, an ERROR) follows them and is walked too, and the same
 * walk measures the nesting translate.c limits. Anonymous nodes (operators,
 * punctuation) are not kept: the index stays small (touching fresh memory
 * costs about 2 us a page in a VM, as much as the walk), and the few callers
 * that need them (pkf_all_children, operator fields) ask tree-sitter. The TSNodes kept are the ones
 * tree-sitter returns, so a node the frontend holds is found again by its id
 * (a hash table); one that is not indexed goes to tree-sitter's functions.
 *
 * Fields are read lazily: the first pkf_field on a node records the field of
 * each named child (ts_node_field_name_for_child), and the first in field f
 * is what ts_node_child_by_field_id(n, f) returns, since in the Python grammar
 * no field holds an anonymous token before a named node. A field that no
 * named child holds is asked of tree-sitter: anonymous tokens (`operator`),
 * and the fields of a hidden rule that an alias makes visible, which
 * tree-sitter lends to the parent (only match_statement's `alternative`).
 */
#include "fe.h"

#include <stdio.h>
#include <stdlib.h>

enum {
  KIDS_EXTRA = 1,  /* a child is an extra (a comment) */
  KIDS_FIELDS = 2, /* the named children's fields are recorded */
  HASHED = 4,      /* in the hash table: the root and the nodes with children */
};

/* Nodes with more children than this are listed with a tree cursor: the cost
 * of ts_node_child(n, i) grows with i in a node whose children are not
 * grouped under hidden repetition nodes. */
enum { FEW_CHILDREN = 16 };

typedef struct pkf_tnode {
  uint32_t parent;      /* PKF_NO_NODE for the root */
  uint32_t kids, nkids; /* named children (no extras): node[kids .. kids + nkids) */
  uint32_t pos;         /* index among the parent's children (all of them) */
  uint16_t field;       /* field id in the parent, once the parent has KIDS_FIELDS */
  uint8_t flags;
  uint8_t brackets; /* bracket nodes from the root to here, at most UINT8_MAX */
} pkf_tnode;

struct pkf_tree {
  uint32_t n, cap;
  TSNode *node;   /* the root, then each node's kept children */
  pkf_tnode *t;   /* by the same index */
  uint32_t *slot; /* hash table: node id -> index + 1 (0: empty) */
  uint32_t mask, nslot;
  uint32_t last; /* the node found last (callers ask about one node several times) */
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

static void put(pkf_tree *t, uint32_t i) {
  uint32_t h = hash(t->node[i].id, t->mask);
  while (t->slot[h])
    h = (h + 1) & t->mask;
  t->slot[h] = i + 1;
}

/* A table of cap slots (a power of two) holding the hashed nodes. */
static void rehash(pkf_tree *t, uint32_t cap) {
  free(t->slot);
  t->slot = calloc(cap, sizeof *t->slot);
  if (!t->slot)
    out_of_memory();
  t->mask = cap - 1;
  for (uint32_t i = 0; i < t->n; i++)
    if (t->t[i].flags & HASHED)
      put(t, i);
}

/* Only nodes with children are hashed: a leaf's queries (its parent aside,
 * which few callers ask) have tree-sitter answers as cheap as a lookup, and
 * a smaller table touches fewer pages. */
static void insert(pkf_tree *t, uint32_t i) {
  t->t[i].flags |= HASHED;
  if (2 * ++t->nslot > t->mask + 1) /* at most half full */
    rehash(t, 2 * (t->mask + 1));
  else
    put(t, i);
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

/* The k children of x, all of them, into v (a cursor past FEW_CHILDREN). */
static void list_children(TSNode x, uint32_t k, TSNode *v) {
  uint32_t j = 0;
  if (k > FEW_CHILDREN) {
    TSTreeCursor cur = ts_tree_cursor_new(x);
    if (ts_tree_cursor_goto_first_child(&cur))
      do
        v[j++] = ts_tree_cursor_current_node(&cur);
      while (j < k && ts_tree_cursor_goto_next_sibling(&cur));
    ts_tree_cursor_delete(&cur);
  }
  for (; j < k; j++) /* (the cursor sees as many children as ts_node_child_count) */
    v[j] = ts_node_child(x, j);
}

/* Appends node n, child number pos of node i, to the index. */
static void add(const pkf_ctx *c, pkf_tree *t, uint32_t i, TSNode n, uint32_t pos) {
  if (t->n == t->cap) { /* the descendant count bounds it; a guard */
    t->cap = 2 * t->cap + 16;
    t->node = xrealloc(t->node, t->cap, sizeof *t->node);
    t->t = xrealloc(t->t, t->cap, sizeof *t->t);
  }
  uint32_t br = t->t[i].brackets + pkf_opens_bracket(pkf_ntype_of(c, n));
  t->node[t->n] = n;
  t->t[t->n++] = (pkf_tnode){.parent = i, .pos = pos,
                             .brackets = (uint8_t)(br < UINT8_MAX ? br : UINT8_MAX)};
}

/* Indexes the children of node i: its named ones first (consecutive), then
 * those with children of their own. ch: room for its k children. */
static void add_children(const pkf_ctx *c, pkf_tree *t, uint32_t i, uint32_t k, TSNode *ch) {
  list_children(t->node[i], k, ch);
  t->t[i].kids = t->n;
  bool others = false; /* an anonymous child or an extra with children */
  for (uint32_t j = 0; j < k; j++) {
    bool extra = ts_node_is_extra(ch[j]);
    if (!extra && ts_node_is_named(ch[j]))
      add(c, t, i, ch[j], j);
    else
      others |= ts_node_child_count(ch[j]) > 0;
    if (extra)
      t->t[i].flags |= KIDS_EXTRA;
  }
  t->t[i].nkids = t->n - t->t[i].kids;
  for (uint32_t j = 0; others && j < k; j++)
    if ((ts_node_is_extra(ch[j]) || !ts_node_is_named(ch[j])) && ts_node_child_count(ch[j]))
      add(c, t, i, ch[j], j);
}

bool pkf_tree_build(pkf_ctx *c, TSNode root, uint32_t max_depth, uint32_t max_brackets) {
  pkf_tree *t = xrealloc(NULL, 1, sizeof *t);
  *t = (pkf_tree){0};
  c->tree = t;
  uint32_t all = ts_node_descendant_count(root), cap = 16;
  while (cap < all / 2 && cap < (UINT32_C(1) << 30)) /* about a third have children */
    cap *= 2;
  t->slot = calloc(cap, sizeof *t->slot);
  if (!t->slot)
    out_of_memory();
  t->mask = cap - 1;
  t->cap = all; /* pages are touched only as far as they are used */
  t->node = xrealloc(NULL, t->cap, sizeof *t->node);
  t->t = xrealloc(NULL, t->cap, sizeof *t->t);
  t->node[0] = root;
  t->t[0] = (pkf_tnode){.parent = PKF_NO_NODE,
                        .brackets = pkf_opens_bracket(pkf_ntype_of(c, root))};
  t->n = 1;
  TSNode few[FEW_CHILDREN], *ch = few;
  uint32_t depth = 0, level_end = 1, chcap = FEW_CHILDREN; /* breadth-first: level by level */
  bool ok = true;
  for (uint32_t i = 0; i < t->n; i++) {
    if (i == level_end) {
      depth++;
      level_end = t->n;
    }
    uint32_t k = ts_node_child_count(t->node[i]);
    if (k || i == 0)
      insert(t, i);
    /* the node, and its children that are not kept (leaves) */
    ok &= depth <= max_depth && t->t[i].brackets <= max_brackets && (!k || depth < max_depth);
    if (k > chcap) {
      chcap = k;
      ch = xrealloc(ch == few ? NULL : ch, chcap, sizeof *ch);
    }
    add_children(c, t, i, k, ch);
  }
  if (ch != few)
    free(ch);
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
  free(t->slot);
  free(t->field_name);
  free(t);
  c->tree = NULL;
}

/* ------------------------------------------------------------ queries */

typedef enum { ALL, NAMED, NAMED_AND_EXTRAS } which;

/* Children of n from tree-sitter, into the arena: all those that are not
 * extras, the named ones among them, or the named ones and the extras (as
 * ts_node_named_child counts them). */
static pkf_nodes from_tree_sitter(pkf_ctx *c, TSNode n, which w) {
  uint32_t k = ts_node_is_null(n) ? 0 : ts_node_child_count(n), m = 0;
  if (!k)
    return (pkf_nodes){0};
  TSNode *v = pki_alloc(c->m->arena, sizeof *v * k);
  list_children(n, k, v);
  for (uint32_t j = 0; j < k; j++) {
    bool extra = ts_node_is_extra(v[j]), named = ts_node_is_named(v[j]);
    if (w == ALL ? !extra : w == NAMED ? named && !extra : named)
      v[m++] = v[j];
  }
  return (pkf_nodes){v, m};
}

pkf_nodes pkf_children(pkf_ctx *c, TSNode n) {
  uint32_t i = pkf_node_index(c, n);
  if (i == PKF_NO_NODE)
    return from_tree_sitter(c, n, NAMED);
  const pkf_tnode *x = &c->tree->t[i];
  return (pkf_nodes){x->nkids ? c->tree->node + x->kids : NULL, x->nkids};
}

pkf_nodes pkf_all_children(pkf_ctx *c, TSNode n) { return from_tree_sitter(c, n, ALL); }

pkf_nodes pkf_named_children(pkf_ctx *c, TSNode n) {
  uint32_t i = pkf_node_index(c, n);
  if (i == PKF_NO_NODE || (c->tree->t[i].flags & KIDS_EXTRA))
    return from_tree_sitter(c, n, NAMED_AND_EXTRAS);
  return pkf_children(c, n);
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
  for (uint32_t j = x->kids; j < x->kids + x->nkids; j++)
    t->t[j].field = field_id(t, ts_node_field_name_for_child(t->node[i], t->t[j].pos));
  x->flags |= KIDS_FIELDS;
}

TSNode pkf_field(pkf_ctx *c, TSNode n, pkf_field_name f) {
  uint32_t i = pkf_node_index(c, n), id = c->g.field[f];
  if (i != PKF_NO_NODE && id) {
    pkf_tree *t = c->tree;
    if (!(t->t[i].flags & KIDS_FIELDS))
      read_fields(t, i);
    const pkf_tnode *x = &t->t[i];
    for (uint32_t j = x->kids; j < x->kids + x->nkids; j++)
      if (t->t[j].field == id)
        return t->node[j];
  }
  return ts_node_is_null(n) ? n : ts_node_child_by_field_id(n, (TSFieldId)id);
}

void pkf_push(pkf_ctx *c, pkf_stack *s, TSNode n) {
  s->v = pki_grow(c->m->arena, s->v, s->n, &s->cap, sizeof *s->v);
  s->v[s->n++] = n;
}
