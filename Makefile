# pkc - build the compiler (build/bin/pkc), the runtime library
# (build/lib/libpkcrt.so) and the tests. `make test` runs everything.
#
# Dependencies (installed by scripts/setup.sh): libtree-sitter-dev (runtime),
# tree-sitter-python from npm (grammar, compiled in), libssl-dev (SHA-256),
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
CORE_OBJ := $(CORE_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/embedded.o \
            $(B)/obj/grammar/parser.o $(B)/obj/grammar/scanner.o
CMD_OBJ  := $(patsubst %.c,$(B)/obj/%.o,$(wildcard cmd/*.c))
# tree-sitter linked statically where the .a exists (the GPU machine has no libtree-sitter.so)
TS_LIB   := $(firstword $(wildcard /usr/lib/*/libtree-sitter.a) -ltree-sitter)
LIBS     := $(TS_LIB) -lcrypto -lm
EMBED    := runtime-shim/pkc_abi.h backends/pkc_kokkos.hpp backends/pkc_dialect.hpp
# DLPack's header (Debian libdlpack-dev) is embedded too and written as
# <project>/dlpack/dlpack.h, so generated projects need no system dlpack.h.
# Fallback: .deps/dlpack-include (for machines without libdlpack-dev).
DLPACK_H ?= $(firstword $(wildcard /usr/include/dlpack/dlpack.h \
              .deps/dlpack-include/dlpack/dlpack.h) /usr/include/dlpack/dlpack.h)

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

.PHONY: all test clean bench
all: $(B)/bin/pkc $(B)/lib/libpkcrt.so $(UNIT_BIN) $(B)/tests/c_host $(B)/man/pkc.1

$(B)/obj/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -Iir -Ifrontend -Ibackends -Iruntime-shim -c $< -o $@

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

$(B)/bin/pkc: $(CORE_OBJ) $(CMD_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LIBS)

$(B)/lib/libpkcrt.so: runtime-shim/pkcrt.c runtime-shim/pkcrt.h runtime-shim/pkc_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -fPIC -shared -fvisibility=hidden -Iruntime-shim $< -o $@ -ldl

$(B)/tests/test_%: tests/unit/test_%.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -Iir -Ifrontend -Ibackends -Iruntime-shim $^ -o $@ $(LIBS) -lcmocka

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

bench: all
	$(PYTHON) scripts/bench.py

clean:
	rm -rf $(B)
