/*
 * names.c - C++ spellings: scalar, View and other types, Python names as C++
 * identifiers (docs/NAMING.md), and the names and arguments of kernels (tags,
 * @pk.main host functions, C entry points).
 */
#include <stdlib.h>
#include <string.h>

#include "pkb_priv.h"

/* ------------------------------------------------------------ types */

const char *pkb_scalar_ctype(pki_kind k) {
  switch (k) {
  case PKI_BOOL: return "bool";
  case PKI_I8: return "int8_t";
  case PKI_I16: return "int16_t";
  case PKI_I32: return "int32_t";
  case PKI_I64: return "int64_t";
  case PKI_U8: return "uint8_t";
  case PKI_U16: return "uint16_t";
  case PKI_U32: return "uint32_t";
  case PKI_U64: return "uint64_t";
  case PKI_F32: return "float";
  case PKI_F64: return "double";
  default: return "void";
  }
}

static bool put_special_type(pkb_buf *b, pki_type t) {
  switch (t.kind) {
  case PKI_TEAM_MEMBER: pkb_put(b, "pkc::TeamMember"); return true;
  case PKI_CLASS:
    if (t.cls)
      pkb_put_ident(b, t.cls->name);
    else
      pkb_put(b, "void");
    return true;
  case PKI_POOL: pkb_put(b, t.rank == 1024 ? "pkc::Pool1024" : "pkc::Pool64"); return true;
  case PKI_RAND_STATE:
    pkb_put(b, t.rank == 1024 ? "pkc::Pool1024::generator_type" : "pkc::Pool64::generator_type");
    return true;
  case PKI_TIMER: pkb_put(b, "Kokkos::Timer"); return true;
  case PKI_BINOP:
  case PKI_BINSORT: { /* Kokkos::BinOp3D<Key> / pkc::BinSort<Key, Kokkos::BinOp3D<Key>> */
    pki_type key = pki_view(t.elem, t.rank, t.layout);
    const char *op = t.length == 3 ? "Kokkos::BinOp3D<" : "Kokkos::BinOp1D<";
    if (t.kind == PKI_BINSORT) {
      pkb_put(b, "pkc::BinSort<");
      pkb_put_type(b, key);
      pkb_put(b, ", ");
    }
    pkb_put(b, op);
    pkb_put_type(b, key);
    pkb_put(b, t.kind == PKI_BINSORT ? ">>" : ">");
    return true;
  }
  case PKI_ARRAY: pkb_put(b, pkb_scalar_ctype(t.elem)); return true; /* + [n] after the name */
  case PKI_VIEW:
    if (pki_is_class_view(t)) { /* emit_classview.c; DEFAULT: a template parameter */
      pkb_put_ident(b, t.cls ? t.cls->name : "void");
      pkb_putf(b, t.layout == PKI_LAYOUT_SOA ? "_soa<%d>" : "_aos<%d>", t.rank);
      return true;
    }
    if (t.space != PKI_SPACE_SCRATCH && t.layout != PKI_LAYOUT_STRIDE)
      return false;
    if (t.layout == PKI_LAYOUT_STRIDE && t.space != PKI_SPACE_SCRATCH) {
      pkb_put(b, "auto");
      return true;
    }
    pkb_putf(b, "pkc::ScratchView<%s ", pkb_scalar_ctype(t.elem));
    for (int i = 0; i < t.rank; i++)
      pkb_put(b, "*");
    pkb_put(b, ">");
    return true;
  default: return false;
  }
}

void pkb_put_type(pkb_buf *b, pki_type t) {
  if (put_special_type(b, t))
    return;
  if (t.kind != PKI_VIEW) {
    pkb_put(b, pkb_scalar_ctype(t.kind));
    return;
  }
  pkb_putf(b, "pkc::View<%s ", pkb_scalar_ctype(t.elem));
  for (int i = 0; i < t.rank; i++)
    pkb_put(b, "*");
  pkb_put(b, t.layout == PKI_LAYOUT_RIGHT  ? ", Kokkos::LayoutRight"
             : t.layout == PKI_LAYOUT_LEFT ? ", Kokkos::LayoutLeft"
                                           : ", pkc::DefaultLayout");
  unsigned tr = t.traits & (PKI_TRAIT_ATOMIC | PKI_TRAIT_RANDOM_ACCESS | PKI_TRAIT_RESTRICT);
  if (tr) {
    pkb_put(b, ", ");
    const char *sep = "";
    if (tr & PKI_TRAIT_ATOMIC) { pkb_putf(b, "%sKokkos::Atomic", sep); sep = " | "; }
    if (tr & PKI_TRAIT_RANDOM_ACCESS) { pkb_putf(b, "%sKokkos::RandomAccess", sep); sep = " | "; }
    if (tr & PKI_TRAIT_RESTRICT) pkb_putf(b, "%sKokkos::Restrict", sep);
  }
  pkb_put(b, ">");
}

/* ------------------------------------------------------------ identifiers */

/* C++ keywords, names the generated code relies on and common macros of the
 * C/C++ headers it includes, sorted by strcmp (looked up with bsearch: every
 * identifier the emitter writes passes here). */
static const char *const reserved[] = {
    "CHAR_BIT", "EOF", "EXIT_FAILURE", "EXIT_SUCCESS", "HUGE_VAL", "HUGE_VALF",
    "INFINITY", "Kokkos", "NAN", "NULL", "RAND_MAX", "SIZE_MAX", "alignas", "alignof",
    "and", "and_eq", "asm", "assert", "auto", "bitand", "bitor", "bool", "case",
    "catch", "char", "char16_t", "char32_t", "class", "compl", "concept", "const",
    "const_cast", "constexpr", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "errno", "explicit", "export", "extern", "false",
    "float", "for", "friend", "goto", "i386", "if", "inline", "int", "int16_t",
    "int32_t", "int64_t", "int8_t", "linux", "long", "main", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "nullptr", "offsetof", "operator", "or",
    "or_eq", "pkc", "printf", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "return", "setjmp", "short", "signed", "size_t",
    "sizeof", "static", "static_assert", "static_cast", "std", "stderr", "stdin",
    "stdout", "struct", "switch", "template", "this", "thread_local", "throw", "true",
    "try", "typedef", "typeid", "typename", "uint16_t", "uint32_t", "uint64_t",
    "uint8_t", "union", "unix", "unsigned", "using", "va_arg", "va_end", "va_start",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
};

/* Prefixes of macro families (M_PI, INT64_C, DBL_MAX, KOKKOS_INLINE_FUNCTION...). */
static const char *const macro_prefix[] = {
    "DBL_", "FLT_", "INT", "KOKKOS_", "LDBL_", "LLONG_", "LONG_", "M_", "PKC_",
    "PRI", "PTRDIFF_", "SCHAR_", "SCN", "SHRT_", "UCHAR_", "UINT", "ULLONG_",
    "ULONG_", "USHRT_", "WCHAR_",
};

static int cmp_name(const void *key, const void *elem) {
  return strcmp((const char *)key, *(const char *const *)elem);
}

/* Is name a plain ASCII identifier that C++ reads as the same name: no
 * keyword or macro of the headers, no '__', no trailing '_', no reserved
 * `_X` start and not in the generated namespace (`pkc`, `pku`, `pkc_...`,
 * `pku_...`)? */
static bool ident_plain(const char *name) {
  size_t n = strlen(name);
  if ((!strncmp(name, "pkc", 3) || !strncmp(name, "pku", 3)) && (!name[3] || name[3] == '_'))
    return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)name[i] >= 0x80 || (name[i] == '_' && name[i + 1] == '_'))
      return false;
  return n && name[n - 1] != '_' && !(name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z');
}

static bool ident_taken(const char *name) {
  if (bsearch(name, reserved, sizeof reserved / sizeof *reserved, sizeof *reserved, cmp_name))
    return true;
  for (size_t i = 0; name[0] >= 'A' && name[0] <= 'Z' && i < sizeof macro_prefix / sizeof *macro_prefix; i++)
    if (!strncmp(name, macro_prefix[i], strlen(macro_prefix[i]))) /* all start upper-case */
      return true;
  return false;
}

/* One UTF-8 code point of s (an invalid byte reads as itself); *len its bytes. */
static unsigned utf8_cp(const unsigned char *s, int *len) {
  int n = s[0] >= 0xF0 && s[0] < 0xF8 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
  if (s[0] >= 0xF8)
    n = 1;
  unsigned cp = n == 1 ? s[0] : s[0] & (0x7F >> n);
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) {
      *len = 1;
      return s[0];
    }
    cp = cp << 6 | (s[i] & 0x3F);
  }
  *len = n;
  return cp;
}

/* The C++ spelling of a Python name (docs/NAMING.md): plain names as they
 * are; a keyword or macro name plus '_'; any other (non-ASCII, '__',
 * trailing '_', `_X`, `pkc...`/`pku...`) as `pku_` + its characters with '_'
 * written `_0` and a non-ASCII code point `_<hex>x` (`pku_0` before a
 * leading one of those). Injective, never contains '__' and
 * never starts with `pkc_`, the prefix of generated temporaries; the
 * frontend's temporaries, named `pkc.<word>` (no Python name has a '.'),
 * are written `pkc_<word>`. */
static void ident_write(pkb_buf *b, const char *name) {
  if (!strncmp(name, "pkc.", 4)) { /* a temporary the frontend made: pkc.x -> pkc_x */
    pkb_put(b, "pkc_");
    pkb_put(b, name + 4);
    return;
  }
  if (ident_plain(name)) {
    pkb_put(b, name);
    if (ident_taken(name))
      pkb_put(b, "_");
    return;
  }
  /* "pku_0" before a leading '_' or code point keeps '__' out */
  pkb_put(b, name[0] == '_' || (unsigned char)name[0] >= 0x80 ? "pku_0" : "pku_");
  for (const unsigned char *p = (const unsigned char *)name; *p;) {
    int len;
    unsigned cp = utf8_cp(p, &len);
    char one[2] = {(char)*p, 0};
    if (cp == '_')
      pkb_put(b, "_0");
    else if (cp < 0x80)
      pkb_put(b, one);
    else
      pkb_putf(b, "_%xx", cp);
    p += len;
  }
}

void pkb_put_ident(pkb_buf *b, const char *name) { ident_write(b, name); }

const char *pkb_ident(pki_arena *a, const char *name) {
  if (ident_plain(name) && !ident_taken(name))
    return name;
  pkb_buf b;
  pkb_buf_init(&b);
  ident_write(&b, name);
  const char *r = pki_strdup(a, b.data ? b.data : "");
  pkb_buf_free(&b);
  return r;
}

/* ------------------------------------------------------------ kernels */

const char *pkb_kokkos_reducer(pki_reducer r) {
  static const char *const red[] = {NULL,           "Kokkos::Prod",   "Kokkos::Min",
                                    "Kokkos::Max",  "Kokkos::MaxLoc", "Kokkos::MinLoc",
                                    "Kokkos::BAnd", "Kokkos::BOr",    "Kokkos::LAnd",
                                    "Kokkos::LOr",  "Kokkos::MinMax", "Kokkos::MinMaxLoc"};
  return r >= 0 && (size_t)r < sizeof red / sizeof *red ? red[r] : NULL;
}

/* Does the functor struct holding f have a member or method called name? */
static bool struct_has_name(pki_arena *a, const pki_func *f, const char *name) {
  pki_var *const *args = NULL;
  int n = pkb_kernel_args(f, &args);
  for (int i = 0; i < n; i++)
    if (!strcmp(pkb_ident(a, args[i]->name), name))
      return true;
  for (int i = 0; f->owner && i < f->owner->nfuncs; i++)
    if (!strcmp(pkb_ident(a, f->owner->funcs[i]->name), name))
      return true;
  return false;
}

const char *pkb_tag_name(pki_arena *a, const pki_func *f) {
  const char *t = pki_sprintf(a, "%s_tag", pkb_ident(a, f->name));
  while (struct_has_name(a, f, t)) /* a member `run_tag` beside workunit `run` */
    t = pki_sprintf(a, "%s_", t);
  return t;
}

bool pkb_is_class_entity(const pki_entity *e) {
  return e && (e->kind == PKI_ENT_FUNCTOR || e->kind == PKI_ENT_WORKLOAD);
}

const char *pkb_main_name(pki_arena *a, const pki_func *f) {
  /* '__' joins: no spelled Python name contains it (docs/NAMING.md), so no
   * entity, function or constant of the namespace is called the same */
  return pki_sprintf(a, "%s__%s", f->owner ? pkb_ident(a, f->owner->name) : "workload",
                     pkb_ident(a, f->name));
}

const char *pkb_wrapper_name(pki_arena *a, const pki_module *m, const pki_func *f) {
  if (pkb_is_class_entity(f->owner))
    return pki_sprintf(a, "pkc_%s__%s__%s", m->name, pkb_ident(a, f->owner->name),
                       pkb_ident(a, f->name));
  return pki_sprintf(a, "pkc_%s__%s", m->name, pkb_ident(a, f->name));
}

int pkb_kernel_args(const pki_func *f, pki_var *const **out) {
  if (pkb_is_class_entity(f->owner)) {
    *out = f->owner->members;
    return f->owner->nmembers;
  }
  *out = f->params;
  return f->nparams;
}

bool pkb_valloc(const pki_func *f) {
  return f->pattern == PKI_PATTERN_REDUCE && f->acc && pki_reducer_has_fields(f->reducer);
}

const char *pkb_valloc_type(pki_arena *a, const pki_func *f) {
  const char *t = pkb_scalar_ctype(f->acc->type.kind);
  return f->reducer == PKI_REDUCER_MINMAX ? pki_sprintf(a, "Kokkos::MinMaxScalar<%s>", t)
         : f->reducer == PKI_REDUCER_MINMAXLOC
             ? pki_sprintf(a, "Kokkos::MinMaxLocScalar<%s, int64_t>", t)
             : pki_sprintf(a, "Kokkos::ValLocScalar<%s, int64_t>", t);
}

const char *pkb_valloc_reducer(pki_arena *a, const pki_func *f) {
  const char *t = pkb_scalar_ctype(f->acc->type.kind);
  return f->reducer == PKI_REDUCER_MINMAX
             ? pki_sprintf(a, "%s<%s>", pkb_kokkos_reducer(f->reducer), t)
             : pki_sprintf(a, "%s<%s, int64_t>", pkb_kokkos_reducer(f->reducer), t);
}

bool pkb_acc_widened(const pki_func *f) {
  bool logical = f->acc && f->pattern == PKI_PATTERN_REDUCE &&
                 (f->reducer == PKI_REDUCER_LAND || f->reducer == PKI_REDUCER_LOR);
  if (logical) /* a bool reduced with Kokkos::LAnd/LOr: as an int-sized value */
    return f->acc->type.kind == PKI_BOOL;
  if (!f->acc || pkb_valloc(f) ||
      (f->pattern == PKI_PATTERN_REDUCE && f->reducer != PKI_REDUCER_SUM))
    return false;
  pki_kind k = f->acc->type.kind;
  return k == PKI_I8 || k == PKI_I16 || k == PKI_U8 || k == PKI_U16;
}

const char *pkb_acc_ctype(const pki_func *f) {
  if (pkb_acc_widened(f))
    return f->acc->type.kind == PKI_I8 || f->acc->type.kind == PKI_I16 ||
                   f->acc->type.kind == PKI_BOOL
               ? "int32_t"
               : "uint32_t";
  return pkb_scalar_ctype(f->acc->type.kind);
}

void pkb_put_acc_type(pkb_buf *b, const pki_func *f) {
  if (pkb_acc_widened(f))
    pkb_put(b, pkb_acc_ctype(f));
  else
    pkb_put_type(b, f->acc->type);
}

const char *pkb_acc_result(pki_arena *a, const pki_func *f, const char *var) {
  if (!pkb_acc_widened(f))
    return var;
  return pki_sprintf(a, "static_cast<%s>(%s)", pkb_scalar_ctype(f->acc->type.kind), var);
}

bool pkb_is_kernel(const pki_func *f) { return f->is_workunit || f->is_main; }
