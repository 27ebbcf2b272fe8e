/*
 * query.c - questions passes and backends ask of checked IR.
 */
#include "ir.h"


static bool expr_uses_scratch(const pki_expr *e, int level, bool thread) {
  if (!e)
    return false;
  pki_intrinsic want = thread ? PKI_INTRINSIC_THREAD_SCRATCH : PKI_INTRINSIC_TEAM_SCRATCH;
  if (e->kind == PKI_E_INTRINSIC && e->intrinsic == want && e->nargs >= 2) {
    const pki_expr *l = e->args[1];
    while (l->kind == PKI_E_CAST)
      l = l->args[0];
    if (l->kind != PKI_E_INT || l->ival == level)
      return true;
  }
  for (int i = 0; i < e->nargs; i++)
    if (expr_uses_scratch(e->args[i], level, thread))
      return true;
  return false;
}

bool pki_uses_scratch(const pki_block *b, int level, bool thread) {
  for (int i = 0; i < b->n; i++) {
    const pki_stmt *s = b->stmts[i];
    const pki_expr *es[] = {s->target, s->value, s->cond, s->begin, s->end, s->step};
    for (size_t k = 0; k < sizeof es / sizeof es[0]; k++)
      if (expr_uses_scratch(es[k], level, thread))
        return true;
    for (int k = 0; k < s->nargs; k++)
      if (expr_uses_scratch(s->args[k], level, thread))
        return true;
    if (pki_uses_scratch(&s->body, level, thread) || pki_uses_scratch(&s->orelse, level, thread))
      return true;
    if (s->closure && pki_uses_scratch(&s->closure->body, level, thread))
      return true;
  }
  return false;
}
