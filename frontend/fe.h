/*
 * fe.h - internals shared by the frontend's files (not a public API).
 *
 * One pkf_ctx lives for one pkf_lower call: the module being built, the
 * diagnostics, the import aliases found at the top of the file, the device
 * functions, and the state of the function being lowered (its scope chain).
 */
#ifndef PKC_FE_H
#define PKC_FE_H

#include <stdbool.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "frontend.h"

const TSLanguage *tree_sitter_python(void);

typedef enum { PKF_AL_PK, PKF_AL_MATH, PKF_AL_NP, PKF_AL_MATHNAME } pkf_alias_kind;

/* A name bound at module level by an import. */
typedef struct pkf_alias {
  const char *local;  /* the name used in the file */
  const char *orig;   /* PKF_AL_MATHNAME: the math name it stands for */
  pkf_alias_kind kind;
} pkf_alias;

/* A name that went out of scope with the block that bound it. */
typedef struct pkf_dead {
  const char *name;
  const char *construct; /* "if", "for", ... */
  pki_span at;           /* the block's statement */
} pkf_dead;

/* One C++ block: the names it binds (few: linear search is fine). */
typedef struct pkf_scope {
  struct pkf_scope *parent;
  const char *construct;
  pki_span at;
  pki_var **vars;
  int n, cap;
  pkf_dead *dead;
  int nd, capd;
} pkf_scope;

typedef struct pkf_ctx {
  pki_module *m;
  pki_diags *d;
  const char *src;
  pkf_alias *aliases;
  int nalias, capalias;
  pki_func **dfuncs; /* top-level @pk.function defs */
  int ndf, capdf;
  /* the function being lowered */
  pki_entity *ent;
  pki_func *fn;
  pkf_scope *scope;
  int loops;
  TSTreeCursor cursor; /* reused by pkf_children (resetting avoids a malloc) */
  bool has_cursor;
} pkf_ctx;

/* parse.c: nodes */
pki_span pkf_span(TSNode n);
pki_span pkf_span2(TSNode a, TSNode b); /* from a's start to b's end */
const char *pkf_text(pkf_ctx *c, TSNode n); /* arena copy */
bool pkf_is(pkf_ctx *c, TSNode n, const char *text);
bool pkf_type_is(TSNode n, const char *type);
TSNode pkf_field(TSNode n, const char *field);
/* Children without extras (comments): named only, or all (operators too).
 * Linear (tree cursor); the array lives in the arena. */
typedef struct pkf_nodes {
  TSNode *v;
  uint32_t n;
} pkf_nodes;
pkf_nodes pkf_children(pkf_ctx *c, TSNode n);
pkf_nodes pkf_all_children(pkf_ctx *c, TSNode n);
/* Reports ERROR / MISSING nodes; returns how many. */
int pkf_syntax_errors(pkf_ctx *c, TSNode root);

/* entities.c */
void pkf_collect(pkf_ctx *c, TSNode root);
bool pkf_alias_is(pkf_ctx *c, TSNode n, pkf_alias_kind kind);
const pkf_alias *pkf_alias_find(pkf_ctx *c, TSNode n);

/* types.c: annotation (a `type` node or an expression) to a type. as_elem:
 * the View element context (int is int32). Reports and returns false on error. */
bool pkf_type(pkf_ctx *c, TSNode ann, bool as_elem, pki_type *out);
/* True if ann spells pk.Acc[...] / pk.TeamMember. */
bool pkf_is_acc(pkf_ctx *c, TSNode ann);
bool pkf_is_team_member(pkf_ctx *c, TSNode ann);
/* Unwraps a `type` node to its expression. */
TSNode pkf_unwrap_type(TSNode ann);

/* scope.c */
void pkf_scope_push(pkf_ctx *c, pkf_scope *s, const char *construct, pki_span at);
void pkf_scope_pop(pkf_ctx *c);
void pkf_scope_bind(pkf_ctx *c, pki_var *v);
pki_var *pkf_lookup(pkf_ctx *c, const char *name, size_t len);
const pkf_dead *pkf_lookup_dead(pkf_ctx *c, const char *name, size_t len);

/* lower_stmt.c / lower_expr.c */
void pkf_lower_body(pkf_ctx *c, TSNode block, pki_block *out);
pki_expr *pkf_expr(pkf_ctx *c, TSNode n);
/* Target of an assignment: a View element (flattened indices). NULL on error. */
pki_expr *pkf_subscript(pkf_ctx *c, TSNode n);
pki_var *pkf_member(pkf_ctx *c, TSNode attr); /* self.x; reports if unknown */
bool pkf_is_self_attr(pkf_ctx *c, TSNode n);
/* Reports an unknown name (scope rule or not defined at all). */
void pkf_unknown_name(pkf_ctx *c, TSNode n);

#endif /* PKC_FE_H */
