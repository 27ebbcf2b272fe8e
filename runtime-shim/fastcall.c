/*
 * fastcall.c - the shim's C fast path for launches (CPython extension
 * module pykokkos._fastcall, optional: without it the shim runs the same
 * launches through its Python call plans and ctypes).
 *
 * A Launcher holds what a kernel's call plan (pykokkos/_dispatch.py, Plan)
 * already prepared: the kernel entry point (pkc_abi.h, pkc_kernel_fn), its
 * argument slots, policy struct and result slot, and per parameter how the
 * Python value goes into its slot. Calling it as run(policy, kw) handles
 * the steady state of a launch loop in C: an int range, the same pk.View
 * objects as the call before (the plan's `last` list), float/int/bool
 * scalars that fit their C types. Anything else (a new or other array, a
 * RangePolicy object, a value that does not fit, a missing argument) goes
 * to the plan's Python run(), which binds, checks and raises exactly as
 * before; a non-zero return of the kernel goes to plan.failed(rc).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdint.h>

#include "pkc_abi.h"

enum { ARG_VIEW = 1, ARG_F64 = 2, ARG_I64 = 3, ARG_U64 = 4, ARG_BOOL = 5 };
enum { RES_NONE = 0, RES_F64 = 1, RES_I64 = 2, RES_U64 = 3, RES_BOOL = 4 };

typedef struct {
  PyObject_HEAD
  pkc_kernel_fn fn;
  void *const *args;
  pkc_policy *policy;
  pkc_value *result;
  char *err;
  size_t errlen;
  Py_ssize_t n;
  PyObject **names;  /* n interned str */
  int *kinds;        /* n ARG_* */
  pkc_value **slots; /* n scalar slots (NULL for Views) */
  int64_t *lo, *hi;  /* n integer ranges (ARG_I64) */
  int result_kind;
  Py_ssize_t nkw;    /* the kw dict's size in every call (-1: any, a functor's dict) */
  PyObject *last;    /* the plan's list: the View each View slot holds */
  PyObject *cur;     /* the Python run's mirror [begin, end] of the policy struct */
  PyObject *slow;    /* the plan's Python run(policy, kw) */
  PyObject *failed;  /* plan.failed(rc): raises the kernel's error */
  PyObject *plan;
  PyObject *dict;    /* attributes set by Python code, as on a function */
  vectorcallfunc vectorcall;
} Launcher;

static void launcher_dealloc(Launcher *l) {
  for (Py_ssize_t i = 0; l->names && i < l->n; i++)
    Py_XDECREF(l->names[i]);
  PyMem_Free(l->names);
  PyMem_Free(l->kinds);
  PyMem_Free(l->slots);
  PyMem_Free(l->lo);
  PyMem_Free(l->hi);
  Py_XDECREF(l->last);
  Py_XDECREF(l->cur);
  Py_XDECREF(l->slow);
  Py_XDECREF(l->failed);
  Py_XDECREF(l->plan);
  Py_XDECREF(l->dict);
  Py_TYPE(l)->tp_free((PyObject *)l);
}

static PyObject *slow_path(Launcher *l, PyObject *policy, PyObject *kw) {
  PyObject *a[2] = {policy, kw};
  return PyObject_Vectorcall(l->slow, a, 2, NULL);
}

/* Puts v into slot i; 0: not the steady state (the slow path decides). */
static int put_arg(Launcher *l, Py_ssize_t i, PyObject *v) {
  pkc_value *s = l->slots[i];
  int overflow = 0;
  switch (l->kinds[i]) {
  case ARG_VIEW:
    return v == PyList_GET_ITEM(l->last, i);
  case ARG_F64:
    if (PyFloat_CheckExact(v))
      s->f = PyFloat_AS_DOUBLE(v);
    else if (PyLong_CheckExact(v)) {
      s->f = PyLong_AsDouble(v);
      if (s->f == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
      }
    } else
      return 0;
    return 1;
  case ARG_I64: {
    if (!PyLong_CheckExact(v))
      return 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred()) || x < l->lo[i] || x > l->hi[i]) {
      PyErr_Clear();
      return 0;
    }
    s->i = x;
    return 1;
  }
  case ARG_U64: {
    if (!PyLong_CheckExact(v))
      return 0;
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    s->u = x;
    return 1;
  }
  case ARG_BOOL:
    if (v != Py_True && v != Py_False)
      return 0;
    s->i = v == Py_True;
    return 1;
  }
  return 0;
}

static PyObject *result_of(Launcher *l) {
  switch (l->result_kind) {
  case RES_F64: return PyFloat_FromDouble(l->result->f);
  case RES_I64: return PyLong_FromLongLong(l->result->i);
  case RES_U64: return PyLong_FromUnsignedLongLong(l->result->u);
  case RES_BOOL: return PyBool_FromLong(l->result->i != 0);
  }
  Py_RETURN_NONE;
}

static PyObject *launcher_vectorcall(PyObject *self, PyObject *const *a, size_t nargsf,
                                     PyObject *kwnames) {
  Launcher *l = (Launcher *)self;
  if (PyVectorcall_NARGS(nargsf) != 2 || kwnames) {
    PyErr_SetString(PyExc_TypeError, "run(policy, kw)");
    return NULL;
  }
  PyObject *policy = a[0], *kw = a[1];
  int overflow = 0;
  if (!PyLong_CheckExact(policy) || !PyDict_CheckExact(kw) ||
      (l->nkw >= 0 && PyDict_GET_SIZE(kw) != l->nkw))
    return slow_path(l, policy, kw);
  long long end = PyLong_AsLongLongAndOverflow(policy, &overflow);
  if (overflow || (end == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return slow_path(l, policy, kw);
  }
  for (Py_ssize_t i = 0; i < l->n; i++) {
    PyObject *v = PyDict_GetItemWithError(kw, l->names[i]);
    if (!v || !put_arg(l, i, v)) {
      PyErr_Clear();
      return slow_path(l, policy, kw);
    }
  }
  if (l->policy->begin[0] != 0 || l->policy->end[0] != end) { /* keep the mirror true */
    PyObject *b = PyLong_FromLong(0), *e = PyLong_FromLongLong(end);
    if (!b || !e || PyList_SetItem(l->cur, 0, b) < 0 || PyList_SetItem(l->cur, 1, e) < 0) {
      Py_XDECREF(e);
      return NULL;
    }
    l->policy->begin[0] = 0;
    l->policy->end[0] = end;
  }
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = l->fn(l->args, l->policy, l->result, l->err, l->errlen);
  Py_END_ALLOW_THREADS
  if (rc) {
    PyObject *r = PyLong_FromLong(rc);
    PyObject *out = r ? PyObject_CallOneArg(l->failed, r) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(out);
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_RuntimeError, "kernel failed");
    return NULL;
  }
  return result_of(l);
}

/* Launcher(plan, slow, failed, last, cur, fn, args, policy, result, err, errlen,
 *          names, kinds, slots, ranges, result_kind, nkw): addresses as ints
 *          (ctypes.addressof), one names/kinds/slots/ranges entry per parameter. */
static PyObject *launcher_new(PyTypeObject *type, PyObject *a, PyObject *kw) {
  PyObject *plan, *slow, *names, *kinds, *slots, *ranges, *last, *failed, *cur;
  unsigned long long fn, args, policy, result, err;
  Py_ssize_t errlen;
  int result_kind;
  Py_ssize_t nkw;
  (void)kw;
  if (!PyArg_ParseTuple(a, "OOOOO!KKKKKnO!O!O!O!in", &plan, &slow, &failed, &last, &PyList_Type,
                        &cur, &fn, &args,
                        &policy, &result, &err, &errlen, &PyTuple_Type, &names, &PyTuple_Type,
                        &kinds, &PyTuple_Type, &slots, &PyTuple_Type, &ranges, &result_kind,
                        &nkw))
    return NULL;
  Py_ssize_t n = PyTuple_GET_SIZE(names);
  if (!PyList_Check(last) || PyList_GET_SIZE(last) != n || PyList_GET_SIZE(cur) != 2 || PyTuple_GET_SIZE(kinds) != n ||
      PyTuple_GET_SIZE(slots) != n || PyTuple_GET_SIZE(ranges) != n) {
    PyErr_SetString(PyExc_ValueError, "Launcher: one entry per parameter");
    return NULL;
  }
  Launcher *l = (Launcher *)type->tp_alloc(type, 0);
  if (!l)
    return NULL;
  l->vectorcall = launcher_vectorcall;
  l->fn = (pkc_kernel_fn)(uintptr_t)fn;
  l->args = (void *const *)(uintptr_t)args;
  l->policy = (pkc_policy *)(uintptr_t)policy;
  l->result = (pkc_value *)(uintptr_t)result;
  l->err = (char *)(uintptr_t)err;
  l->errlen = (size_t)errlen;
  l->result_kind = result_kind;
  l->nkw = nkw;
  l->n = n;
  l->names = PyMem_Calloc((size_t)(n ? n : 1), sizeof *l->names);
  l->kinds = PyMem_Calloc((size_t)(n ? n : 1), sizeof *l->kinds);
  l->slots = PyMem_Calloc((size_t)(n ? n : 1), sizeof *l->slots);
  l->lo = PyMem_Calloc((size_t)(n ? n : 1), sizeof *l->lo);
  l->hi = PyMem_Calloc((size_t)(n ? n : 1), sizeof *l->hi);
  Py_INCREF(plan), Py_INCREF(slow), Py_INCREF(failed), Py_INCREF(last), Py_INCREF(cur);
  l->plan = plan, l->slow = slow, l->failed = failed, l->last = last, l->cur = cur;
  if (!l->names || !l->kinds || !l->slots || !l->lo || !l->hi) {
    Py_DECREF(l);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *nm = PyTuple_GET_ITEM(names, i);
    if (!PyUnicode_Check(nm)) {
      Py_DECREF(l);
      PyErr_SetString(PyExc_TypeError, "Launcher: names are str");
      return NULL;
    }
    Py_INCREF(nm);
    PyUnicode_InternInPlace(&nm);
    l->names[i] = nm;
    l->kinds[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(kinds, i));
    l->slots[i] = (pkc_value *)(uintptr_t)PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(slots, i));
    PyObject *r = PyTuple_GET_ITEM(ranges, i);
    if (PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2) {
      l->lo[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(r, 0));
      l->hi[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(r, 1));
    }
    if (PyErr_Occurred()) {
      Py_DECREF(l);
      return NULL;
    }
  }
  return (PyObject *)l;
}

static PyMemberDef launcher_members[] = {
    {"plan", T_OBJECT, offsetof(Launcher, plan), READONLY, "the call plan it runs"},
    {NULL, 0, 0, 0, NULL}};

static PyTypeObject LauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pykokkos._fastcall.Launcher",
    .tp_basicsize = sizeof(Launcher),
    .tp_dealloc = (destructor)launcher_dealloc,
    .tp_vectorcall_offset = offsetof(Launcher, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A kernel's launch in C (see fastcall.c); run(policy, kw).",
    .tp_members = launcher_members,
    .tp_dictoffset = offsetof(Launcher, dict),
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_new = launcher_new,
};

static struct PyModuleDef fastcall_module = {
    PyModuleDef_HEAD_INIT, "_fastcall",
    "C fast path for pykokkos launches (optional; the shim works without it).", -1,
    NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fastcall(void) {
  if (PyType_Ready(&LauncherType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&fastcall_module);
  if (!m)
    return NULL;
  Py_INCREF(&LauncherType);
  if (PyModule_AddObject(m, "Launcher", (PyObject *)&LauncherType) < 0) {
    Py_DECREF(&LauncherType);
    Py_DECREF(m);
    return NULL;
  }
  PyModule_AddIntConstant(m, "ABI_VERSION", PKC_ABI_VERSION);
  return m;
}
