# pkc - build the compiler (build/bin/pkc), the runtime library
# (build/lib/libpkcrt.so) and the tests. `make test` runs everything;
# `make install` installs pkc (see "install" at the end).
#
# Dependencies (installed by scripts/setup.sh): tree-sitter (the runtime's C
# sources) and tree-sitter-python (grammar) from npm, both compiled in, libssl-dev (SHA-256),
# libcmocka-dev (unit tests), libdlpack-dev (DLPack header), Kokkos.

PYTHON      ?= /usr/bin/python3
CC          ?= cc
CFLAGS      ?= -O2 -g
KOKKOS_ROOT ?= $(CURDIR)/.deps/kokkos-openmp
# The version, kept in one place: the Python shim's pykokkos/_version.py.
PKC_VERSION := $(shell sed -n 's/^__version__ = "\(.*\)"$$/\1/p' runtime-shim/python/pykokkos/_version.py)
$(if $(PKC_VERSION),,$(error cannot read __version__ from runtime-shim/python/pykokkos/_version.py))

WARN     := -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter
DEFS     := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DPKC_VERSION=\"$(PKC_VERSION)\" \
            -DPKC_DEFAULT_KOKKOS_ROOT=\"$(KOKKOS_ROOT)\"
GRAMMAR  := node_modules/tree-sitter-python/src
B        := build

CORE_SRC := $(wildcard ir/*.c frontend/*.c backends/*.c)
# The tree-sitter runtime: its release sources from npm (the tree-sitter
# package's vendor/ copy, version pinned in package-lock.json), compiled in;
# 0.22 parses about 15% faster than Debian's 0.20.7 (issue 12).
TS_RT    := node_modules/tree-sitter/vendor/tree-sitter/lib
CORE_OBJ := $(CORE_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/embedded.o \
            $(B)/obj/grammar/parser.o $(B)/obj/grammar/scanner.o $(B)/obj/grammar/ts_runtime.o
CMD_OBJ  := $(patsubst %.c,$(B)/obj/%.o,$(wildcard cmd/*.c))
LIBS     := -lcrypto -lm
EMBED    := runtime-shim/pkc_abi.h backends/pkc_kokkos.hpp backends/pkc_dialect.hpp backends/pkc_glue.hpp
# DLPack's header (Debian libdlpack-dev) is embedded too and written as
# <project>/dlpack/dlpack.h, so generated projects need no system dlpack.h.
# Fallback: .deps/dlpack-include (for machines without libdlpack-dev).
DLPACK_H ?= $(firstword $(wildcard /usr/include/dlpack/dlpack.h \
              .deps/dlpack-include/dlpack/dlpack.h) /usr/include/dlpack/dlpack.h)

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

.PHONY: all test clean bench bench-peers install install-kernels uninstall fuzz test-sanitize
all: $(B)/bin/pkc $(B)/lib/libpkcrt.so $(UNIT_BIN) $(B)/tests/c_host $(B)/man/pkc.1

# node_modules/.package-lock.json: rewritten by every npm install, so a new
# tree-sitter runtime (its headers keep npm's fixed 1985 mtime) rebuilds all
$(B)/obj/%.o: %.c $(wildcard */*.h) $(wildcard node_modules/.package-lock.json)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -I$(TS_RT)/include -Iir -Ifrontend -Ibackends -Iruntime-shim -c $< -o $@

$(B)/obj/grammar/ts_runtime.o: $(TS_RT)/src/lib.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -w -D_DEFAULT_SOURCE -I$(TS_RT)/include -I$(TS_RT)/src -c $< -o $@

$(B)/obj/grammar/%.o: $(GRAMMAR)/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -w -I$(GRAMMAR) -c $< -o $@

# Support files written into every generated project, embedded as strings.
$(B)/gen/embedded.c: $(EMBED) $(DLPACK_H) scripts/embed.sh
	@mkdir -p $(dir $@)
	sh scripts/embed.sh $(EMBED) dlpack/dlpack.h=$(DLPACK_H) > $@.tmp && mv $@.tmp $@

$(B)/obj/gen/embedded.o: $(B)/gen/embedded.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -c $< -o $@

# linked beside and renamed: a pkc that is running (a build, the shim) never
# sees a half-written binary
$(B)/bin/pkc: $(CORE_OBJ) $(CMD_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@.tmp $(LIBS) && mv -f $@.tmp $@

$(B)/lib/libpkcrt.so: runtime-shim/pkcrt.c runtime-shim/pkcrt_graph.c runtime-shim/pkcrt.h runtime-shim/pkc_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -fPIC -shared -fvisibility=hidden -Iruntime-shim runtime-shim/pkcrt.c runtime-shim/pkcrt_graph.c -o $@ -ldl -lpthread

# The shim's optional C fast path for launches (CPython extension, beside
# libpkcrt.so; built only where Python's headers are installed: python3-dev).
PY_INCLUDE := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
PY_EXT     := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))' 2>/dev/null)
FASTCALL   := $(if $(wildcard $(PY_INCLUDE)/Python.h),$(B)/lib/_fastcall$(PY_EXT))
all: $(FASTCALL)

$(B)/lib/_fastcall$(PY_EXT): runtime-shim/fastcall.c runtime-shim/pkc_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wall -Wextra -Wno-missing-field-initializers -fPIC -shared -fvisibility=hidden \
	  -I$(PY_INCLUDE) -Iruntime-shim $< -o $@.tmp && mv -f $@.tmp $@

$(B)/tests/test_%: tests/unit/test_%.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -I$(TS_RT)/include -Iir -Ifrontend -Ibackends -Iruntime-shim $^ -o $@ $(LIBS) -lcmocka

# A plain C host program calling a kernel through libpkcrt (tests/c_host).
$(B)/tests/c_host: tests/c_host/c_host.c $(B)/lib/libpkcrt.so
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -Iruntime-shim $< -o $@ -L$(B)/lib -lpkcrt -Wl,-rpath,$(CURDIR)/$(B)/lib

# The man page, from `pkc help` (scripts/man.sh), so the two never differ.
$(B)/man/pkc.1: $(B)/bin/pkc scripts/man.sh
	@mkdir -p $(dir $@)
	sh scripts/man.sh $(B)/bin/pkc > $@.tmp && mv $@.tmp $@

test: all
	$(PYTHON) tests/run_tests.py

# libFuzzer on the translator, the signature parser and the sidecar reader
# (clang; findings in build/fuzz/findings/) and
# pkc under ASan + UBSan over every Python file in the tree; `make test` runs
# both (group sanitize, 60 s of fuzzing).
FUZZ_SECONDS ?= 3600
fuzz: $(B)/gen/embedded.c
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

test-sanitize:
	bash scripts/sanitize.sh

bench: all
	$(PYTHON) scripts/bench.py

# pkc against Numba and NumPy on the same kernels (bench/peers/README.md;
# needs python3-numba): table on stdout and in bench/peers/last_run.md
bench-peers: all
	$(PYTHON) bench/peers/run.py

clean:
	rm -rf $(B)

# --- install ------------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=staging dir] [PYTHONDIR=dir]
# installs pkc, libpkcrt and its headers (include/pkc/, DLPack's header
# included), the Python shim, pkg-config and CMake package files and the man
# page. Installed files name PREFIX, never DESTDIR; pkcConfig.cmake finds
# everything from its own place. PYTHONDIR defaults to
# PREFIX/lib/python3.X/dist-packages, which Debian's python3 searches for the
# prefixes /usr/local and /usr (other prefixes: PYTHONPATH). pkc finds Kokkos
# through --kokkos-root, $Kokkos_ROOT or the KOKKOS_ROOT it was built with.
PREFIX     ?= /usr/local
BINDIR     := $(PREFIX)/bin
LIBDIR     := $(PREFIX)/lib
INCLUDEDIR := $(PREFIX)/include
MANDIR     := $(PREFIX)/share/man
PYTHONDIR  ?= $(LIBDIR)/python$(PY_VERSION)/dist-packages
PY_VERSION  = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
# the shim's sources: *.py, *.pyi, the NVSHMEM transport's *.cu and py.typed, not the built kernels beside them (*.pk/)
SHIM_FILES  = $(shell cd runtime-shim/python && find pykokkos -name '*.pk' -prune -o \
                -type f \( -name '*.py' -o -name '*.pyi' -o -name '*.cu' -o -name py.typed \) -print | LC_ALL=C sort)

install: $(B)/bin/pkc $(B)/lib/libpkcrt.so $(B)/man/pkc.1
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(LIBDIR)/cmake/pkc \
	  $(DESTDIR)$(INCLUDEDIR)/pkc/dlpack $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(PYTHONDIR)
	install -m 755 $(B)/bin/pkc $(DESTDIR)$(BINDIR)/pkc
	install -m 755 $(B)/lib/libpkcrt.so $(DESTDIR)$(LIBDIR)/libpkcrt.so
	$(if $(FASTCALL),install -m 755 $(FASTCALL) $(DESTDIR)$(LIBDIR)/)
	install -m 644 runtime-shim/pkcrt.h runtime-shim/pkc_abi.h $(DESTDIR)$(INCLUDEDIR)/pkc/
	install -m 644 $(DLPACK_H) $(DESTDIR)$(INCLUDEDIR)/pkc/dlpack/dlpack.h
	install -m 644 $(B)/man/pkc.1 $(DESTDIR)$(MANDIR)/man1/pkc.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PKC_VERSION@|$(PKC_VERSION)|g' \
	  cmake/pkcrt.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/pkcrt.pc
	install -m 644 cmake/pkcConfig.cmake $(DESTDIR)$(LIBDIR)/cmake/pkc/
	sed -e 's|@PKC_VERSION@|$(PKC_VERSION)|g' cmake/pkcConfigVersion.cmake.in \
	  > $(DESTDIR)$(LIBDIR)/cmake/pkc/pkcConfigVersion.cmake
	@echo "install the Python shim (runtime-shim/python/pykokkos) into $(DESTDIR)$(PYTHONDIR)"
	@cd runtime-shim/python && for f in $(SHIM_FILES); do \
	  install -D -m 644 $$f $(DESTDIR)$(PYTHONDIR)/$$f || exit 1; done
	@case "$(KOKKOS_ROOT)" in "$(CURDIR)"/*) echo "install: note: pkc's default Kokkos is" \
	  "$(KOKKOS_ROOT), in this checkout; give pkc --kokkos-root or Kokkos_ROOT, or build" \
	  "it with KOKKOS_ROOT=<a Kokkos install> (make clean first)";; esac

# The array library's kernels (pk.add, pk.sum, ...) and the halo exchange's,
# built for the host backends by the installed pkc into the installed shim, so
# that users who cannot write there never need to build them. Run after
# `make install`, without DESTDIR: a module records its source's path. The
# files build in parallel, each one's backends in turn (they share its .pk/).
install-kernels:
	@test -z "$(DESTDIR)" || { echo "install-kernels: run it without DESTDIR"; exit 2; }
	@pids=; for f in $(PYTHONDIR)/pykokkos/lib/_kernels_*.py $(PYTHONDIR)/pykokkos/_halo_kernels.py; do \
	  echo "$(BINDIR)/pkc build $$f --backend openmp, serial"; \
	  { $(BINDIR)/pkc build $$f --backend openmp && $(BINDIR)/pkc build $$f --backend serial; } & \
	  pids="$$pids $$!"; done; for p in $$pids; do wait $$p || exit 1; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pkc $(DESTDIR)$(LIBDIR)/libpkcrt.so $(DESTDIR)$(LIBDIR)/pkgconfig/pkcrt.pc \
	  $(DESTDIR)$(MANDIR)/man1/pkc.1 $(DESTDIR)$(LIBDIR)/_fastcall$(PY_EXT)
	rm -rf $(DESTDIR)$(INCLUDEDIR)/pkc $(DESTDIR)$(LIBDIR)/cmake/pkc $(DESTDIR)$(PYTHONDIR)/pykokkos
