# h3prof: build the filters, test them, benchmark them, and (through
# pipeline.mk) reduce trace directories to reports.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:

# The paths below are relative to the checkout, this file's directory.
# Run from another directory (make -f CHECKOUT/Makefile reports), make
# takes the sweep's goals from pipeline.mk, which finds the checkout's
# build itself, and runs the build's goals in the checkout.
h3_checkout := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ifneq ($(realpath $(h3_checkout)),$(realpath $(CURDIR)))
all check bench install clean:
	+$(MAKE) -C '$(h3_checkout)' $@
H3PROF_KNOWN := PREFIX DESTDIR SAN BUILD BENCH_RUNS BENCH_BIG FUZZ_SECONDS \
	FUZZ_BUILD FUZZ_CC
include $(h3_checkout)/pipeline.mk
else
PREFIX ?= /usr/local
CC ?= cc
CFLAGS ?= -O2 -g
# SAN=1 builds everything with AddressSanitizer and UBSan, in its own tree.
SAN ?=
ifeq ($(SAN),1)
BUILD ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
else
BUILD ?= build
SANFLAGS :=
endif
H3CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-Ifilters/lib $(SANFLAGS)

FILTERS := $(sort $(basename $(notdir $(wildcard filters/*.c))))
BIN := $(BUILD)/bin
PROGS := $(FILTERS:%=$(BIN)/%)
LIB := $(BUILD)/libh3prof.a

# Libraries a filter links beyond the shared one.
LIBS_csv2intervals := -lcsv
LIBS_sqlite2intervals := -lsqlite3
LIBS_nvtxranges := -lcsv -lsqlite3
LIBS_exportinfo := -lsqlite3

# The filters look for their rules in ../share/h3prof beside their bindir.
RULES := $(BUILD)/share/h3prof/h3.rules

all: $(PROGS) $(RULES)

$(RULES): rules/h3.rules
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cp)cp $< $@

LIBOBJS := $(patsubst filters/lib/%.c,$(BUILD)/lib/%.o,$(wildcard filters/lib/*.c))

$(BUILD)/lib/%.o: filters/lib/%.c filters/lib/h3prof.h
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cc)$(CC) $(H3CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIBOBJS)
	$(h3_Q)$(call h3_echo,ar)rm -f $@ && $(AR) rcs $@ $^

$(BIN)/%: filters/%.c filters/lib/h3prof.h $(LIB)
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cc)$(CC) $(H3CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
	    $(SRCS_$*) $(LIB) $(LIBS_$*) -lm

# A filter of several files: main in filters/NAME.c, a file a stage in
# filters/NAME/, behind filters/NAME/NAME.h.
SRCS_sweepsum := $(wildcard filters/sweepsum/*.c)
$(BIN)/sweepsum: $(SRCS_sweepsum) filters/sweepsum/sweepsum.h

check: all
	BIN=$(abspath $(BIN)) tests/run

# Test and benchmark tools (tests/): the synthetic trace generator, which
# tests/gentrace.test and dev/make-samples run, and the libcsv floor.
$(BUILD)/gentrace: tests/gentrace.c
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cc)$(CC) $(H3CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BUILD)/csvfloor: tests/csvfloor.c
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cc)$(CC) $(H3CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lcsv

# csv2intervals without its fast path, which tests/csv2intervals.test and
# the fuzz target csvpaths hold the fast path to.
$(BUILD)/csv2intervals-nofast: filters/csv2intervals.c filters/lib/h3prof.h $(LIB)
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cc)$(CC) $(H3CFLAGS) -DH3_NO_FASTPATH $(CFLAGS) \
	    $(LDFLAGS) -o $@ $< \
	    $(LIB) $(LIBS_csv2intervals) -lm

check: $(BUILD)/gentrace $(BUILD)/csv2intervals-nofast

# Timings against the reference and the libcsv floor; BENCH_RUNS,
# BENCH_BIG=0: see dev/bench.
bench: all $(BUILD)/gentrace $(BUILD)/csvfloor
	BUILD=$(abspath $(BUILD)) dev/bench
	BUILD=$(abspath $(BUILD)) dev/bench-rss
	BUILD=$(abspath $(BUILD)) dev/bench-sweep
	BUILD=$(abspath $(BUILD)) dev/bench-scope
	BUILD=$(abspath $(BUILD)) dev/bench-summary
	BUILD=$(abspath $(BUILD)) dev/bench-account
	BUILD=$(abspath $(BUILD)) dev/bench-makerun

# Installed, the programs a user runs are in PREFIX/bin; the filters,
# whose names (merge, tally...) are any package's, in
# PREFIX/libexec/h3prof/bin, which the scripts and pipeline.mk find, and
# their manuals in PREFIX/share/h3prof/man; the rules, pipeline.mk,
# reduce.mk, sweep.mk, scope.mk and the scripts' libraries (h3lib.sh,
# h3stop.sh, h3runerr.sh, the .jq and .awk programs) in PREFIX/share/h3prof.
# A filter finds its rules in ../share/h3prof beside its directory: there
# a link leads to the one copy.
SCRIPTS := scripts/summarize_nsys_profile scripts/h3facts scripts/h3report \
	scripts/h3summary scripts/h3profile scripts/h3sweep scripts/h3compare \
	scripts/h3runpage scripts/h3index
LIBEXEC := $(DESTDIR)$(PREFIX)/libexec/h3prof
SHARE := $(DESTDIR)$(PREFIX)/share
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(LIBEXEC)/bin \
	    $(LIBEXEC)/share/h3prof $(SHARE)/h3prof/man/man1 \
	    $(SHARE)/man/man1 $(SHARE)/man/man5 $(SHARE)/h3prof/mk
	install -m 755 $(SCRIPTS) $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(PROGS) $(LIBEXEC)/bin
	install -m 644 rules/h3.rules pipeline.mk reduce.mk sweep.mk \
	    scripts/h3lib.sh scripts/h3stop.sh scripts/h3runerr.sh $(wildcard scripts/*.jq scripts/*.awk) $(SHARE)/h3prof
	install -m 644 mk/*.mk $(SHARE)/h3prof/mk
	ln -sf ../../../../share/h3prof/h3.rules $(LIBEXEC)/share/h3prof/h3.rules
	install -m 644 $(FILTERS:%=filters/%.1) $(SHARE)/h3prof/man/man1
	install -m 644 $(wildcard scripts/*.1) $(SHARE)/man/man1
	install -m 644 filters/h3prof.5 $(SHARE)/man/man5

include fuzz/fuzz.mk

# What make says (pipeline.mk's V and -s): a line a step, as Kbuild.
h3_quiet_cc = '  CC      %s\n' '$@'
h3_quiet_ar = '  AR      %s\n' '$@'
h3_quiet_cp = '  CP      %s\n' '$@'

# Sweeps: make reports [TRACES='runs/*'] [OUT=dir] [REPORTS=dir] [-j N] [-k];
# see pipeline.mk.  It runs the filters of this build, and takes this
# file's settings on the command line too.
H3PROF_BIN = $(BIN)
H3PROF_KNOWN := PREFIX DESTDIR SAN BUILD BENCH_RUNS BENCH_BIG FUZZ_SECONDS \
	FUZZ_BUILD FUZZ_CC
include pipeline.mk

clean:
	rm -rf build build-san build-fuzz

.PHONY: all bench check clean install
endif
