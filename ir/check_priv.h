/*
 * check_priv.h - internals shared by the checker's files (check.c,
 * check_expr.c, check_stmt.c). Not part of the IR's public interface.
 */
#ifndef PKC_CHECK_PRIV_H
#define PKC_CHECK_PRIV_H

#include "ir.h"

/* A call from one function to another (for the recursion check). */
typedef struct pki_ck_call {
  pki_func *caller, *callee;
  pki_span span;
} pki_ck_call;

/* A View variable passed to a function parameter (access propagation). */
typedef struct pki_ck_pass {
  pki_var *arg, *param;
} pki_ck_pass;

/* The checker's state for one pki_check run. */
typedef struct pki_ck {
  pki_module *m;
  pki_diags *d;
  pki_func *f;          /* function being checked */
  bool value_return;    /* f returned a value somewhere */
  pki_vec calls;        /* pki_ck_call * */
  pki_vec passes;       /* pki_ck_pass * */
  pki_vec done;         /* closures already checked (pki_func *) */
} pki_ck;

/* How a value of one type fits a place of another. */
typedef enum pki_ck_fit {
  PKI_CK_OK,           /* fits, maybe through an explicit cast */
  PKI_CK_SKIP,         /* a side is untyped (an error was already reported) */
  PKI_CK_FLOAT_TO_INT, /* float into an integer: needs int(...) */
  PKI_CK_MISMATCH      /* View/str/scalar mix */
} pki_ck_fit;

/* check_names.c: two definitions of one C++ name (module or class scope). */
void pki_ck_names(pki_ck *c);

/* check_expr.c */
/* Types e and its operands; returns e or the node replacing it. NULL-safe. */
pki_expr *pki_ck_expr(pki_ck *c, pki_expr *e);
/* Types a call; as_stmt: its value is discarded (void callee allowed). */
void pki_ck_call_expr(pki_ck *c, pki_expr *e, bool as_stmt);
/* Types an assignment target (VAR or INDEX), adding `access` to its View
 * or variable; returns false (after reporting) if it is not assignable. */
bool pki_ck_target(pki_ck *c, pki_expr *t, unsigned access);
/* Types e as a condition (what: "if", "while", ...) and casts it to bool. */
pki_expr *pki_ck_bool(pki_ck *c, pki_expr *e);
/* Types `a op b` (arithmetic or bitwise op) and stores the type the
 * operands convert to in *operand. Returns the result type, VOID after an
 * error or with an untyped operand. */
pki_type pki_ck_binop(pki_ck *c, pki_op op, const pki_expr *a, const pki_expr *b,
                      pki_span at, pki_type *operand);
/* Casts e to t unless e is NULL or untyped. */
pki_expr *pki_ck_conv(pki_ck *c, pki_expr *e, pki_type t);
pki_ck_fit pki_ck_fits(pki_type from, pki_type to);
/* Converts e for storing into a place of type `to`, reporting at `at`
 * "cannot <verb> <from> <place>" when it does not fit. */
pki_expr *pki_ck_store(pki_ck *c, pki_expr *e, pki_type to, pki_span at,
                       const char *verb, const char *place);
/* "to int64 local 'x' (...)", "to int32 element of View1D 'A'", ... */
const char *pki_ck_place(pki_ck *c, const pki_expr *target);
/* Adds access bits to a kernel-visible variable (param, member, acc). */
void pki_ck_mark(pki_var *v, unsigned access);
/* If acc belongs to a MaxLoc/MinLoc/MinMax/MinMaxLoc reduction (a struct
 * with fields), reports that `at` uses it whole and returns true. */
bool pki_ck_acc_whole(pki_ck *c, const pki_var *acc, pki_span at);
/* Where Views of classtype values may be (check_dialect.c). */
void pki_ck_class_views(pki_ck *c, pki_entity *e);
/* A classtype's __init__ reads no field before assigning it. */
void pki_ck_init_order(pki_ck *c, pki_entity *e);
/* e is p[i] of a View of classtype values p (a variable). */
bool pki_ck_class_elem(const pki_expr *e);
const char *pki_ck_op_sym(pki_op op);

/* check_stmt.c: function bodies */
/* Context of the function being checked: a TeamPolicy workunit (or one of
 * its closures) / a workload's @pk.main (or one of its lambdas). */
bool pki_ck_in_team(const pki_ck *c);
bool pki_ck_in_main(const pki_ck *c);
/* Checks closure g (nested def / lambda) once, inside the current function. */
void pki_ck_closure(pki_ck *c, pki_func *g);
/* Checks the work indices, accumulator and body of function f (c->f == f). */
void pki_ck_body(pki_ck *c, pki_func *f);

/* check_dialect.c */
/* Types a pk.* intrinsic; as_stmt: its value is discarded (void allowed). */
void pki_ck_intrinsic(pki_ck *c, pki_expr *e, bool as_stmt);
void pki_ck_field(pki_ck *c, pki_expr *e, unsigned access);
void pki_ck_construct(pki_ck *c, pki_expr *e);
/* Types a List literal; want (PKI_ARRAY or VOID): the declared type. */
void pki_ck_list(pki_ck *c, pki_expr *e, pki_type want);
/* A local may hold this View value (a subview or a scratch View). */
bool pki_ck_view_local_ok(const pki_expr *value);
/* Method call parameter matching: the parameter for argument i (args[0] is
 * the receiver of a classtype method); NULL for the receiver/extra args. */
pki_var *pki_ck_param_for(pki_func *g, int i);

/* check_par.c */
void pki_ck_nested(pki_ck *c, pki_stmt *s);
void pki_ck_single(pki_ck *c, pki_stmt *s);
void pki_ck_dispatch(pki_ck *c, pki_stmt *s);

#endif /* PKC_CHECK_PRIV_H */
