/*
 * ents.h - state of the entities layer of the frontend (private to entities.c,
 * classtype.c, constants.c, infer.c, workload.c, host_calls.c; types.c finds
 * classtypes by name): module-level constants and globals, classtypes,
 * callbacks. Lives in the module arena, one per pkf_lower.
 */
#ifndef PKC_ENTS_H
#define PKC_ENTS_H

#include "fe.h"

typedef struct pkf_const {
  const char *name;
  pki_expr_kind kind; /* PKI_E_INT / FLOAT / BOOL */
  int64_t ival;
  double fval;
  bool u64; /* PKI_E_INT: a literal above INT64_MAX, its bits in ival (uint64) */
  int calls_at; /* pkf_ents.call_stmts when bound: a call between two bindings
                   (a launch may read the first) makes the name a global */
} pkf_const;

typedef struct pkf_callback {
  pki_entity *ent;
  const char *name;
} pkf_callback;

struct pkf_ents {
  pkf_const *consts;
  int nconst, capconst;
  int call_stmts; /* top-level statements with a call seen so far by the scan */
  const char **globals; /* module-level names that are not constants */
  int nglob, capglob;
  pki_entity **classes; /* @pk.classtype entities (also in the module) */
  int ncls, capcls;
  pkf_callback *cbs;
  int ncb, capcb;
  pkf_callback *pylists; /* List-typed data members of functors/workloads: Python only */
  int npyl, cappyl;
  int nlambda;
  struct pkf_policy_alias {
    const char *name;
    TSNode node;
    pki_func *fn;
    TSNode *sizes; /* later `p.set_scratch_size(...)` statements, in source order */
    int nsizes, capsizes;
  } *pols;
  int npol, cappol; /* `p = pk.XPolicy(...)` locals of @pk.main, substituted at dispatches */
};

struct pkf_ents *pkf_ents_get(pkf_ctx *c);
/* True if the callback `name` is declared in entity e. */
bool pkf_is_callback(pkf_ctx *c, pki_entity *e, const char *name);
/* True if `self.name: List[...]` is a data member of functor/workload e: it stays
 * in Python (kernels cannot read lists) and is not part of the functor. */
bool pkf_is_python_list_member(pkf_ctx *c, pki_entity *e, const char *name);
/* classtype.c: fields of classtype e from its __init__ (ctor already in e->funcs). */
void pkf_classtype_fields(pkf_ctx *c, pki_entity *e, TSNode init);
/* classtype.c: reports fields through which a classtype would contain itself. */
void pkf_classtype_cycles(pkf_ctx *c);

#endif
