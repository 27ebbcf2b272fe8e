/*
 * fe.h - internals shared by the frontend's files (not a public API).
 *
 * One pkf_ctx lives for one pkf_lower call: the module being built, the
 * diagnostics, the grammar's tables (node types and fields, parse.c), the
 * node index of the file (tree.c), the import aliases found at the top of the
 * file, the device functions, and the state of the function being lowered
 * (its scope chain). Which file lowers which construct: "Dispatch" below.
 */
#ifndef PKC_FE_H
#define PKC_FE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "frontend.h"

const TSLanguage *tree_sitter_python(void);

/* ---- grammar node types and fields (parse.c) -----------------------------
 * The frontend never compares node type names as strings: every node type it
 * tests is listed here (enum name, tree-sitter name) and every field it reads
 * in PKF_FIELDS. pkf_grammar_init fills, once per pkf_ctx, a table from the
 * grammar's symbol ids to these entries, matching names: tree-sitter may give
 * one name several symbol ids (aliases, and named nodes spelled like a
 * keyword: `type`, `lambda`, `await`, `yield`), and every one of them maps to
 * the entry, so pkf_type_is(c, n, PKF_N_CALL) holds exactly where
 * strcmp(ts_node_type(n), "call") == 0 would (ts_node_type names the node's
 * alias or grammar symbol; ts_node_symbol, which indexes the table, gives the
 * public symbol of the same name). Types not listed are PKF_N_OTHER. */
#define PKF_NODE_TYPES(X)                                                            \
  /* expressions */                                                                 \
  X(IDENTIFIER, "identifier") X(INTEGER, "integer") X(FLOAT, "float") X(TRUE, "true") \
  X(FALSE, "false") X(NONE, "none") X(STRING, "string")                              \
  X(CONCATENATED_STRING, "concatenated_string") X(ELLIPSIS, "ellipsis")              \
  X(ATTRIBUTE, "attribute") X(SUBSCRIPT, "subscript") X(SLICE, "slice") X(CALL, "call") \
  X(ARGUMENT_LIST, "argument_list") X(KEYWORD_ARGUMENT, "keyword_argument")          \
  X(LIST_SPLAT, "list_splat") X(DICTIONARY_SPLAT, "dictionary_splat")                \
  X(PARENTHESIZED_EXPRESSION, "parenthesized_expression") X(LIST, "list")            \
  X(TUPLE, "tuple") X(EXPRESSION_LIST, "expression_list") X(DICTIONARY, "dictionary") \
  X(SET, "set") X(LIST_COMPREHENSION, "list_comprehension")                          \
  X(DICTIONARY_COMPREHENSION, "dictionary_comprehension")                            \
  X(SET_COMPREHENSION, "set_comprehension") X(GENERATOR_EXPRESSION, "generator_expression") \
  X(LAMBDA, "lambda") X(AWAIT, "await") X(YIELD, "yield")                            \
  X(NAMED_EXPRESSION, "named_expression") X(CONDITIONAL_EXPRESSION, "conditional_expression") \
  X(BINARY_OPERATOR, "binary_operator") X(BOOLEAN_OPERATOR, "boolean_operator")      \
  X(UNARY_OPERATOR, "unary_operator") X(NOT_OPERATOR, "not_operator")                \
  X(COMPARISON_OPERATOR, "comparison_operator") X(GENERIC_TYPE, "generic_type")      \
  X(TYPE, "type")                                                                    \
  /* statements */                                                                  \
  X(MODULE, "module") X(BLOCK, "block") X(EXPRESSION_STATEMENT, "expression_statement") \
  X(ASSIGNMENT, "assignment") X(AUGMENTED_ASSIGNMENT, "augmented_assignment")        \
  X(IF_STATEMENT, "if_statement") X(ELIF_CLAUSE, "elif_clause") X(ELSE_CLAUSE, "else_clause") \
  X(FOR_STATEMENT, "for_statement") X(WHILE_STATEMENT, "while_statement")            \
  X(RETURN_STATEMENT, "return_statement") X(PASS_STATEMENT, "pass_statement")        \
  X(BREAK_STATEMENT, "break_statement") X(CONTINUE_STATEMENT, "continue_statement")  \
  X(ASSERT_STATEMENT, "assert_statement") X(GLOBAL_STATEMENT, "global_statement")    \
  X(NONLOCAL_STATEMENT, "nonlocal_statement") X(DELETE_STATEMENT, "delete_statement") \
  X(WITH_STATEMENT, "with_statement") X(TRY_STATEMENT, "try_statement")              \
  X(RAISE_STATEMENT, "raise_statement") X(IMPORT_STATEMENT, "import_statement")      \
  X(IMPORT_FROM_STATEMENT, "import_from_statement")                                  \
  X(FUTURE_IMPORT_STATEMENT, "future_import_statement") X(ALIASED_IMPORT, "aliased_import") \
  X(DOTTED_NAME, "dotted_name") X(MATCH_STATEMENT, "match_statement")                \
  X(PRINT_STATEMENT, "print_statement") X(EXEC_STATEMENT, "exec_statement")          \
  X(TYPE_ALIAS_STATEMENT, "type_alias_statement")                                    \
  /* definitions, parameters, patterns */                                           \
  X(FUNCTION_DEFINITION, "function_definition") X(CLASS_DEFINITION, "class_definition") \
  X(DECORATED_DEFINITION, "decorated_definition") X(DECORATOR, "decorator")          \
  X(TYPED_PARAMETER, "typed_parameter") X(DEFAULT_PARAMETER, "default_parameter")    \
  X(TYPED_DEFAULT_PARAMETER, "typed_default_parameter")                              \
  X(LIST_SPLAT_PATTERN, "list_splat_pattern")                                        \
  X(DICTIONARY_SPLAT_PATTERN, "dictionary_splat_pattern") X(PATTERN_LIST, "pattern_list") \
  X(TUPLE_PATTERN, "tuple_pattern") X(LIST_PATTERN, "list_pattern")                  \
  /* tokens */                                                                      \
  X(ASYNC, "async") X(LPAREN, "(") X(RPAREN, ")") X(LBRACKET, "[") X(RBRACKET, "]")  \
  X(LBRACE, "{") X(RBRACE, "}")

typedef enum pkf_ntype {
  PKF_N_NULL,  /* a null node */
  PKF_N_OTHER, /* a type the frontend does not test */
  PKF_N_ERROR, /* an ERROR node (tree-sitter's builtin error symbol) */
#define PKF_X(id, name) PKF_N_##id,
  PKF_NODE_TYPES(PKF_X)
#undef PKF_X
  PKF_N_COUNT
} pkf_ntype;

#define PKF_FIELDS(X)                                                                \
  X(ALIAS, "alias") X(ALTERNATIVE, "alternative") X(ARGUMENT, "argument")            \
  X(ARGUMENTS, "arguments") X(ATTRIBUTE, "attribute") X(BODY, "body")                \
  X(CONDITION, "condition") X(CONSEQUENCE, "consequence") X(DEFINITION, "definition") \
  X(FUNCTION, "function") X(LEFT, "left") X(MODULE_NAME, "module_name") X(NAME, "name") \
  X(OBJECT, "object") X(OPERATOR, "operator") X(PARAMETERS, "parameters")            \
  X(RETURN_TYPE, "return_type") X(RIGHT, "right") X(SUBSCRIPT, "subscript")          \
  X(SUPERCLASSES, "superclasses") X(TYPE, "type") X(VALUE, "value")

typedef enum pkf_field_name {
#define PKF_X(id, name) PKF_F_##id,
  PKF_FIELDS(PKF_X)
#undef PKF_X
  PKF_F_COUNT
} pkf_field_name;

/* The node types that open a bracket (the nesting limit counts them). */
static inline bool pkf_opens_bracket(pkf_ntype t) {
  return t == PKF_N_PARENTHESIZED_EXPRESSION || t == PKF_N_ARGUMENT_LIST ||
         t == PKF_N_SUBSCRIPT || t == PKF_N_LIST || t == PKF_N_TUPLE || t == PKF_N_DICTIONARY ||
         t == PKF_N_SET;
}

/* The node index of tree.c (one per pkf_ctx, freed at the end of pkf_lower). */
typedef struct pkf_tree pkf_tree;
enum { PKF_NO_NODE = UINT32_MAX };

/* The tables of one pkf_ctx (arena memory, read-only once filled). */
typedef struct pkf_grammar {
  uint8_t *type;      /* symbol id -> pkf_ntype */
  bool *statement;    /* symbol id -> its name contains "statement" or "clause" */
  uint32_t nsym;      /* symbol ids below nsym index the tables */
  TSFieldId field[PKF_F_COUNT]; /* 0 where the grammar has no such field */
} pkf_grammar;

/* PKF_AL_PKNAME: a name imported from pykokkos (`from pykokkos import printf`). */
typedef enum { PKF_AL_PK, PKF_AL_MATH, PKF_AL_NP, PKF_AL_MATHNAME, PKF_AL_PKNAME } pkf_alias_kind;

/* A name bound at module level by an import. */
typedef struct pkf_alias {
  const char *local;  /* the name used in the file */
  const char *orig;   /* PKF_AL_MATHNAME / PKF_AL_PKNAME: the name it stands for */
  pkf_alias_kind kind;
} pkf_alias;

/* A name that went out of scope with the block that bound it, or whose
 * binding was rejected (construct NULL: its uses are not reported again). */
typedef struct pkf_dead {
  const char *name;
  const char *construct; /* "if", "for", ...; NULL: a rejected binding */
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

/* A nested def seen in the current body; lowered when a pattern uses it. */
typedef struct pkf_ndef {
  const char *name;
  TSNode def;
  pki_func *fn;      /* once lowered */
  pkf_scope *scope;  /* the block that defines it */
  struct pkf_ndef *next;
} pkf_ndef;

typedef struct pkf_ctx {
  pki_module *m;
  pki_diags *d;
  const char *src;
  pkf_alias *aliases;
  int nalias, capalias;
  pki_func **dfuncs; /* top-level @pk.function defs */
  int ndf, capdf;
  /* default values of device functions' parameters (`k: float = 3.0`): the
   * expression a call that omits the parameter passes */
  struct pkf_default { const pki_var *param; TSNode value; } *defaults;
  int ndefaults, capdefaults;
  /* the function being lowered */
  pki_entity *ent;
  pki_func *fn;
  pkf_scope *scope;
  int loops;
  /* entities helper: host = lowering @pk.main (host C++): kernel-only constructs
   * (team methods, atomics, random) must be rejected, host-only ones allowed;
   * ents = module-level state (constants, globals, classtypes, callbacks). */
  bool host;
  struct pkf_ents *ents;
  /* entities helper: dispatches inside an expression of @pk.main
   * (`self.mean = pk.parallel_reduce(...) / n`), run just before their
   * statement into a temporary that the expression reads instead */
  struct pkf_hoisted { TSNode call; pki_var *var; } *hoisted;
  int nhoisted, caphoisted;
  TSNode root; /* the module node (call-site inference) */
  /* kernels helper (lower_team.c, lower_kexpr.c): real = what pk.real means
   * (PKI_VOID = default PKI_F64; set from the --real option); ndefs = nested
   * defs seen so far (lowered at their pk.parallel_* or pk.single call site);
   * nonlocals = names declared nonlocal by the closure being lowered. */
  pki_kind real;
  bool strict_types;       /* pkf_options.strict_types */
  const pkf_spec *spec;    /* pkf_options.spec */
  struct pkf_ndef *ndefs;
  struct pkf_nonlocal *nonlocals;
  /* every pk.parallel_* call in the file, collected once on first need
   * (lower_team.c), so call-site lookups stay linear in the file size */
  struct { TSNode *v; uint32_t n; } par_calls;
  bool par_calls_done;
  pkf_grammar g; /* node types and fields of the grammar (pkf_grammar_init) */
  pkf_tree *tree; /* the node index (tree.c) */
  struct pkf_type_memo *types; /* annotations typed so far (types.c) */
} pkf_ctx;

/* tree.c: the node index. pkf_tree_build indexes the named nodes under root
 * (before anything else reads the tree; pkf_tree_free at the end) and
 * returns false if a node is nested deeper than max_depth nodes or
 * max_brackets (< 255) bracket nodes (pkf_opens_bracket). The queries below
 * take any node of the tree; the arrays they return are read-only and valid
 * until pkf_tree_free. */
bool pkf_tree_build(pkf_ctx *c, TSNode root, uint32_t max_depth, uint32_t max_brackets);
void pkf_tree_free(pkf_ctx *c);
/* The index of n, if it has children (leaves are not hashed); else PKF_NO_NODE. */
uint32_t pkf_node_index(const pkf_ctx *c, TSNode n);
typedef struct pkf_nodes {
  const TSNode *v;
  uint32_t n;
} pkf_nodes;
/* A growable stack of nodes for tree walks (arena memory; no size limit). */
typedef struct pkf_stack {
  TSNode *v;
  int n, cap;
} pkf_stack;
void pkf_push(pkf_ctx *c, pkf_stack *s, TSNode n);
/* Children without extras (comments): named ones only, or all (operators
 * too: from tree-sitter, for the few callers that need them). */
pkf_nodes pkf_children(pkf_ctx *c, TSNode n);
/* The reducer (a pki_reducer) the body of workunit def is written for with
 * accumulator acc (`acc *= x`: PROD, `if x > acc.val: ...`: MAXLOC, ...;
 * acc_reducer.c), or -1 for a sum or where the body does not tell. */
int pkf_reducer_from_body(pkf_ctx *c, TSNode def, const char *acc);
pkf_nodes pkf_all_children(pkf_ctx *c, TSNode n);
/* The named children as ts_node_named_child counts them (comments included). */
pkf_nodes pkf_named_children(pkf_ctx *c, TSNode n);
/* ts_node_named_child, ts_node_named_child_count and ts_node_parent over the
 * index. */
TSNode pkf_named_child(pkf_ctx *c, TSNode n, uint32_t i);
uint32_t pkf_named_child_count(pkf_ctx *c, TSNode n);
TSNode pkf_parent(pkf_ctx *c, TSNode n);
/* The child of n in field f (null if none, or if n is null). */
TSNode pkf_field(pkf_ctx *c, TSNode n, pkf_field_name f);

/* parse.c: nodes */
pki_span pkf_span(TSNode n);
pki_span pkf_span2(TSNode a, TSNode b); /* from a's start to b's end */
const char *pkf_text(pkf_ctx *c, TSNode n); /* arena copy */
bool pkf_is(pkf_ctx *c, TSNode n, const char *text);
/* The innermost function_definition around n (null if none). */
TSNode pkf_enclosing_def(pkf_ctx *c, TSNode n);
/* Fills c->g for language l (before anything looks at a node). */
void pkf_grammar_init(pkf_ctx *c, const TSLanguage *l);
/* The type of n (PKF_N_NULL for a null node). */
static inline pkf_ntype pkf_ntype_of(const pkf_ctx *c, TSNode n) {
  if (ts_node_is_null(n))
    return PKF_N_NULL;
  TSSymbol s = ts_node_symbol(n);
  return s < c->g.nsym ? (pkf_ntype)c->g.type[s] : s == (TSSymbol)-1 ? PKF_N_ERROR : PKF_N_OTHER;
}
static inline bool pkf_type_is(const pkf_ctx *c, TSNode n, pkf_ntype t) {
  return pkf_ntype_of(c, n) == t;
}
/* True if n's type name contains "statement" or "clause" (a compound
 * statement's parts, which may hold nested definitions). */
bool pkf_statement_like(const pkf_ctx *c, TSNode n);
/* Reports ERROR / MISSING nodes; returns how many. */
int pkf_syntax_errors(pkf_ctx *c, TSNode root);
/* The undecorated module-level `def name(...)` of the file, or a null node
 * (host_calls.c names it in its diagnostic). */
TSNode pkf_plain_top_def(pkf_ctx *c, TSNode name);

/* entities.c */
void pkf_collect(pkf_ctx *c, TSNode root);

/* types.c: annotation (a `type` node or an expression) to a type. as_elem:
 * the View element context (int is int32). Reports and returns false on error. */
bool pkf_type(pkf_ctx *c, TSNode ann, bool as_elem, pki_type *out);
/* pkf_type for a guess (inference): reports nothing; false also for None and str. */
bool pkf_type_quiet(pkf_ctx *c, TSNode ann, bool as_elem, pki_type *out);
/* True if ann spells pk.Acc[...] / pk.TeamMember. */
bool pkf_is_acc(pkf_ctx *c, TSNode ann);
bool pkf_is_team_member(pkf_ctx *c, TSNode ann);
/* Unwraps a `type` node to its expression. */
TSNode pkf_unwrap_type(pkf_ctx *c, TSNode ann);

/* scope.c */
void pkf_scope_push(pkf_ctx *c, pkf_scope *s, const char *construct, pki_span at);
/* Closes the innermost scope (its names become dead in the enclosing one,
 * its nested defs are forgotten). */
void pkf_scope_pop(pkf_ctx *c);
/* The import alias identifier n names (pykokkos, math, numpy, or a name
 * imported from them: entities.c collects them), or NULL. */
const pkf_alias *pkf_alias_find(pkf_ctx *c, TSNode n);
/* Whether n names an import alias of that kind. */
bool pkf_alias_is(pkf_ctx *c, TSNode n, pkf_alias_kind kind);
/* The value of math's (and numpy's) constant name: pi, e, tau, inf, nan. */
bool pkf_math_const(const char *name, double *v);
/* float("inf"), float("-nan"), float(" Infinity ") ...: Python's special
 * floats from a string literal, as float() parses them; false otherwise. */
bool pkf_special_float(pkf_ctx *c, TSNode call, double *v);
void pkf_scope_bind(pkf_ctx *c, pki_var *v);
pki_var *pkf_lookup(pkf_ctx *c, const char *name, size_t len);
/* A name for a variable pkf introduces (base + "_it", then "_it1", ...) that occurs
 * nowhere in the file's text, so no user name, nor a name derived from one by
 * appending, can be it, and that no local of the function being lowered has.
 * Allocated in c's arena. */
const char *pkf_fresh_name(pkf_ctx *c, const char *base);
const pkf_dead *pkf_lookup_dead(pkf_ctx *c, const char *name, size_t len);
/* Identifier `name` was to be bound here but its assignment was rejected
 * (reported): later uses are not reported again, nor taken for module names. */
void pkf_scope_reject(pkf_ctx *c, TSNode name);
/* The module a top-level `from M import name` (or `... as name`) of the file
 * takes name from, for diagnostics (pkc reads one file); NULL if none. */
const char *pkf_imported_from(pkf_ctx *c, const char *name);
/* How to declare data member self.<name> of the functor or workload being
 * lowered, for diagnostics. */
const char *pkf_member_hint(pkf_ctx *c, const char *name);

/* ---- Dispatch (lower_stmt.c, lower_expr.c) -------------------------------
 * Statements and expressions are lowered through tables indexed by pkf_ntype,
 * one entry per construct; a type with no entry is reported as "this
 * statement (TYPE)" / "this expression (TYPE) is not supported in kernels".
 *
 * Statements (lower_stmt.c, stmt_rules): an entry has up to two hooks, tried
 * in order -- a hook returns true when the statement is its own (lowered into
 * the block, or reported) and false to pass it on -- then the file's own
 * handler, or the message rejecting the construct.
 *   expression_statement  hooks pkf_ent_stmt (workload.c: dispatches, policy
 *                         locals, typed declarations of @pk.main, `self.x: T
 *                         = v` in a classtype ctor), pkf_kernel_pattern
 *                         (lower_team.c: pk.parallel_*(range, fn) and
 *                         pk.single in team workunits); then assignments,
 *                         augmented assignments, calls and pk.printf
 *   if/for/while/return/assert/pass/break/continue   lower_stmt.c
 *   function_definition   hook pkf_kernel_def (lower_team.c: a closure of a
 *                         team workunit), else rejected
 *   nonlocal_statement    hook pkf_kernel_nonlocal (lower_team.c), else rejected
 *   type_alias_statement  hook soft_type_assign (`type[i] = v` to a View
 *                         named type), else rejected
 *   global, del, with, try, raise, imports, class and decorated definitions,
 *   match, print, exec    rejected with a message of their own
 * A string as the first statement of a body is its docstring (skipped).
 *
 * Expressions (lower_expr.c, expr_rules): an entry is a handler returning the
 * expression (NULL after a reported error) or the message rejecting it.
 *   identifier     names: scopes, math constants, then the entities helper
 *                  (pkf_constant_lookup, pkf_global_capture, pkf_global_error)
 *   attribute      pkf_ent_attr (classtype.c) first, then self.x, math.pi
 *   call           NAME(...): pkf_ent_name_call (classtype construction),
 *                  @pk.function calls, builtins, casts, math names;
 *                  obj.NAME(...): the method rules below
 *   subscript, literals, operators, conditional and parenthesized expressions
 *                  lower_expr.c (slices: pkf_subview, lower_kexpr.c)
 *   strings, lists, tuples, dicts, sets, comprehensions, lambda, await,
 *   walrus, None, ..., slices, splats, keyword arguments, yield   rejected
 *
 * Method calls obj.NAME(...) (lower_expr.c, method_rules): a pkf_method_rule
 * returns true when the call is its own (*out: the expression, NULL after a
 * reported error); the rules are tried in this order:
 *   pkf_ent_method_call (classtype.c: ScratchView.shmem_size, pk.Timer /
 *   pk.fence / pk.BinOp* / pk.BinSort, callbacks, timer, binsort and classtype
 *   methods), math.NAME, pk.NAME (pkf_kernel_pk_call, lower_kexpr.c: atomics,
 *   subviews, scratch views; other pk.NAME rejected), numpy (rejected),
 *   self.NAME of functors and workloads, an undefined object name (reported),
 *   pkf_kernel_method (lower_kexpr.c: team member, random pool and state
 *   methods), v.extent(d); none: "method call ... is not supported". */

/* A statement hook: true = n is lowered into out or reported. */
typedef bool pkf_stmt_hook(pkf_ctx *c, TSNode n, pki_block *out);

/* A method call being lowered: the call, its function (an attribute), that
 * attribute's object and name node, and the name's text. */
typedef struct pkf_method {
  TSNode call, fn, obj, attr;
  const char *name;
} pkf_method;
typedef bool pkf_method_rule(pkf_ctx *c, const pkf_method *mc, pki_expr **out);

/* lower_stmt.c / lower_expr.c */
void pkf_lower_body(pkf_ctx *c, TSNode block, pki_block *out);
pki_expr *pkf_expr(pkf_ctx *c, TSNode n);
/* A call used as a statement (a lambda's body): pk.printf(...) becomes a
 * PKI_S_PRINTF, other calls a PKI_S_EXPR, appended to out. */
void pkf_lower_call_stmt(pkf_ctx *c, TSNode call, pki_block *out);
/* Target of an assignment: a View element (flattened indices). NULL on error. */
pki_expr *pkf_subscript(pkf_ctx *c, TSNode n);
/* Reports a use of the List-typed (Python-only) data member name of the entity
 * being lowered at `at`; false (nothing reported) if name is not one. */
bool pkf_list_member_error(pkf_ctx *c, TSNode at, const char *name);
/* A data member named without `self.` (`dt` for `self.dt`), as the C++ PyKokkos
 * emits resolves it: the member of the enclosing functor, workload or classtype
 * method; NULL if none. Callers ask after locals and parameters, before globals. */
pki_var *pkf_bare_member(pkf_ctx *c, TSNode id);
/* The same by name (`type`, which tree-sitter may read as a soft keyword). */
pki_var *pkf_bare_member_named(pkf_ctx *c, const char *name);
bool pkf_is_self_attr(pkf_ctx *c, TSNode n);
/* Reports an unknown name (scope rule or not defined at all). */
void pkf_unknown_name(pkf_ctx *c, TSNode n);

/* strings.c: the text of a string literal or concatenation n (what: "pk.printf
 * formats", for messages), Python's escapes decoded to UTF-8, NULs kept
 * (*len bytes); NULL after a located error (f-string, bytes, an escape that
 * cannot be translated such as \N{...}), or when n is no string literal. */
char *pkf_string_text(pkf_ctx *c, TSNode n, const char *what, size_t *len);
/* strings.c: each NUL of printf statement s's format (len bytes) becomes '%c'
 * with a 0 argument in its place among s's arguments. */
bool pkf_printf_nuls(pkf_ctx *c, pki_stmt *s, size_t len);

/* ---- entities helper (entities.c, classtype.c, constants.c, infer.c, workload.c).
 * Hooks called from lower_expr.c / lower_stmt.c / types.c; each returns false
 * (or NULL) when the construct is not theirs, so the caller goes on as before. */
/* constants.c: collects top-level NAME = <constant> (before bodies are lowered). */
void pkf_constants_collect(pkf_ctx *c, TSNode root);
/* A module-level compile-time constant used at name: a fresh literal
 * (PKI_E_INT/FLOAT/BOOL, str = NAME) spanning name; NULL if name is not one. */
pki_expr *pkf_constant_lookup(pkf_ctx *c, TSNode name);
/* Reports "global 'x' is not a compile-time constant" if name is a module-level
 * variable that is not a constant; returns true if it reported. */
bool pkf_global_error(pkf_ctx *c, TSNode name);
/* types.c: a @pk.classtype named by n (identifier or "Name" string); NULL if none. */
pki_entity *pkf_classtype_find(pkf_ctx *c, TSNode n);
/* lower_expr.c hooks: Name(...) of a classtype (PKI_E_CONSTRUCT); obj.attr(...)
 * (a method rule: classtype methods, Timer methods, pk.Timer/pk.fence,
 * callbacks); obj.attr (classtype fields, self.x of classtypes/workloads).
 * true = handled, *out = the result (NULL after a reported error). */
bool pkf_ent_name_call(pkf_ctx *c, TSNode call, TSNode fn, pki_expr **out);
bool pkf_ent_method_call(pkf_ctx *c, const pkf_method *mc, pki_expr **out);
bool pkf_ent_attr(pkf_ctx *c, TSNode attr, pki_expr **out);
/* binsort.c: pk.BinOp1D/BinOp3D/BinSort(...) (name: the attribute after pk.) and
 * the methods of a pk.BinSort local (t: its type) in @pk.main; same contract. */
bool pkf_binsort_new(pkf_ctx *c, TSNode call, const char *name, pki_expr **out);
bool pkf_binsort_method(pkf_ctx *c, TSNode call, TSNode obj, pki_type t, const char *name,
                        pki_expr **out);
/* lower_stmt.c hooks: assignment targets self.x (ctor / main) and v.field;
 * the expression_statement hook (statements of @pk.main: dispatches, timers;
 * `self.x: T = v` in a ctor). */
bool pkf_ent_target(pkf_ctx *c, TSNode left, pki_expr **out);
/* The target `dt = v` where dt is the bare member m: as `self.dt = v` (writable in
 * @pk.main and classtype methods, reported in workunits). NULL after an error. */
pki_expr *pkf_bare_member_target(pkf_ctx *c, TSNode id, pki_var *m);
bool pkf_ent_stmt(pkf_ctx *c, TSNode n, pki_block *out);
/* infer.c: type of unannotated FunctionSty kernel argument pname of kernel from
 * the pk.parallel_* calls in the file; false (nothing reported) if it cannot. */
bool pkf_infer_param(pkf_ctx *c, const char *kernel, const char *pname, pki_type *out);

/* infer.c: the type of module global name from all its assignments (module
 * level, and in defs that declare it `global`); false if they disagree or one
 * cannot be typed. constants.c: a use of such a global in a kernel or
 * @pk.main as an implicit argument (pki_var.from_global); NULL if name is not
 * a non-constant global (after reporting if it cannot be captured). */
bool pkf_infer_global(pkf_ctx *c, const char *name, pki_type *out);
/* infer.c: the type of host variable name as bound in def scope (or at module
 * level): annotation, parameter annotation or single binding; false if unknown. */
bool pkf_infer_name(pkf_ctx *c, TSNode scope, const char *name, pki_type *out);
/* workload.c: checks a lambda's parameters for the pattern (reports; false if
 * wrong); lowers its body into f: a call, `acc + expr` when f has an acc, or with
 * fill (the View of `pk.parallel_for(n, lambda i: expr, view)`, else NULL)
 * `fill[i] = expr`, as PyKokkos does. */
bool pkf_lambda_params_ok(pkf_ctx *c, TSNode lam, int pattern);
bool pkf_lambda_body(pkf_ctx *c, pki_func *f, TSNode body, pki_expr *fill);
/* host_lambda.c: lambdas given to pk.parallel_* in host code, as workunits. */
void pkf_host_lambdas(pkf_ctx *c, TSNode root);
/* Whether decorated_definition dd has a pk.* decorator (a pk entity). */
bool pkf_pk_decorated(pkf_ctx *c, TSNode dd);
/* The pki_pattern of a pk.parallel_for/reduce/scan call, or -1 for other calls. */
int pkf_parallel_pattern(pkf_ctx *c, TSNode call);
/* host_chains.c: runs of launch statements in host code (m->host_chains). */
void pkf_host_chains(pkf_ctx *c, TSNode root);
/* host_calls.c: reports host launches of an undecorated function and keyword
 * arguments a launched workunit does not take. */
void pkf_host_calls(pkf_ctx *c, TSNode root);
pki_expr *pkf_global_capture(pkf_ctx *c, TSNode name, bool *handled);

/* ---- kernels helper (types.c, lower_team.c, lower_kexpr.c). */
/* types.c: the accumulator annotations pk.Acc/Max/Min/Prod[T]; *r = its reducer. */
bool pkf_acc_reducer(pkf_ctx *c, TSNode ann, pki_reducer *r);
/* A parameter of a def: the node, its name (an identifier) and annotation
 * (null if none). */
typedef struct pkf_param {
  TSNode node, name, ann;
  TSNode dflt; /* the default value, or a null node */
} pkf_param;
/* parse.c: the parameters of def that have a plain name (defaults
 * included, in dflt), in order; report: report the forms kernels do not
 * allow (*args, **kwargs). Returns the count (*out in the arena). */
int pkf_params(pkf_ctx *c, TSNode def, bool report, pkf_param **out);
/* lower_expr.c: the arguments of call to device function, classtype method or
 * constructor f (named name in messages; f NULL: no parameters), one per
 * parameter after `skip` empty leading slots: positional ones, keyword ones by
 * name, then the defaults of those left out, as Python binds them. NULL after
 * a located error. */
pki_expr **pkf_bind_args(pkf_ctx *c, TSNode call, const char *name, const pki_func *f,
                         int skip);
/* lower_team.c: the work index / acc / final of a workunit (Range, MDRange or
 * Team) def, whose n parameters are ps; k = index of the first parameter
 * after self. Returns the index in ps of the first kernel argument. */
int pkf_workunit_head(pkf_ctx *c, pki_func *f, TSNode def, const pkf_param *ps, int n, int k);
/* lower_team.c statement hooks of kernel bodies (see "Dispatch"): a def in a
 * team workunit (a closure, lowered where a nested pattern uses it),
 * `nonlocal` in such a closure, and a pk.parallel_*(range, fn) / pk.single
 * expression statement. */
bool pkf_kernel_def(pkf_ctx *c, TSNode n, pki_block *out);
bool pkf_kernel_nonlocal(pkf_ctx *c, TSNode n, pki_block *out);
bool pkf_kernel_pattern(pkf_ctx *c, TSNode n, pki_block *out);
/* `x[: T] = pk.parallel_reduce/scan(range, fn)`: true = handled. */
bool pkf_nested_assign(pkf_ctx *c, TSNode n, TSNode left, TSNode ann, TSNode right,
                       pki_block *out);
/* True if v belongs to c->fn (declared in it), false if it is an outer variable. */
bool pkf_own_var(pkf_ctx *c, pki_var *v);
/* True if the closure being lowered declared v nonlocal. */
bool pkf_is_nonlocal(pkf_ctx *c, pki_var *v);
/* lower_kexpr.c method rules: pk.NAME(...) calls (mc->obj is the pk alias) and
 * obj.meth(...) calls of kernels (team members, random pools/states, atomics,
 * subviews, scratch views). true = handled, *out = the expression (NULL after
 * a reported error). */
bool pkf_kernel_pk_call(pkf_ctx *c, const pkf_method *mc, pki_expr **out);
bool pkf_kernel_method(pkf_ctx *c, const pkf_method *mc, pki_expr **out);
/* A subscript with slices (A[i, :], A[a:b]) as a PKI_INTRINSIC_SUBVIEW of base b. */
pki_expr *pkf_subview(pkf_ctx *c, TSNode n, pki_expr *b, const TSNode *ix, int nix);
/* lower_stmt.c: the target of an assignment to an existing name / element
 * (checks read-only and closure nonlocal rules); NULL after an error. */
pki_expr *pkf_target(pkf_ctx *c, TSNode left);
/* The rest of a sum whose leftmost operand is the accumulator acc (`acc + a - b`
 * gives `a - b`, `acc - a` gives `-a`), as PyKokkos reads `acc = acc + ...` and
 * reduce lambda bodies; NULL if e is not such a sum. Allocates in c's arena. */
pki_expr *pkf_acc_sum_rest(pkf_ctx *c, pki_expr *e, const pki_var *acc);
/* A `[a, b]` list literal of a typing.List local; NULL after an error. */
pki_expr *pkf_list_literal(pkf_ctx *c, TSNode list, pki_kind elem);
/* A `[[a, b], [c, d]]` literal of a List[List[T]] local (flat; type rank =
 * columns); NULL after an error. */
pki_expr *pkf_matrix_literal(pkf_ctx *c, TSNode list, pki_kind elem);

#endif /* PKC_FE_H */
