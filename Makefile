# h3prof: build, test and benchmark the filters, and (through pipeline.mk)
# reduce trace directories to reports.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:

# This file's settings, which pipeline.mk must not take for a mistyped
# setting of its own.
H3PROF_KNOWN := PREFIX DESTDIR SAN BUILD BENCH_RUNS BENCH_BIG FUZZ_SECONDS \
	FUZZ_BUILD FUZZ_CC

# The paths below are relative to the checkout.  Run from elsewhere
# (make -f CHECKOUT/Makefile), the build's goals run in the checkout
# and the sweep's come from pipeline.mk.
h3_checkout := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ifneq ($(realpath $(h3_checkout)),$(realpath $(CURDIR)))
all check bench install clean:
	+$(MAKE) -C '$(h3_checkout)' $@
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

# The classify rules, where the filters look for them: ../share/h3prof
# beside their bin directory.
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

# Test and benchmark tools: the synthetic trace generator (tests and
# dev/make-samples) and the libcsv speed floor (benchmarks).
LIBS_csvfloor := -lcsv
$(BUILD)/gentrace $(BUILD)/csvfloor: $(BUILD)/%: tests/%.c
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cc)$(CC) $(H3CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS_$*)

# csv2intervals without its fast path: the tests and the fuzzer compare
# the fast path with it.
$(BUILD)/csv2intervals-nofast: filters/csv2intervals.c filters/lib/h3prof.h $(LIB)
	@mkdir -p $(@D)
	$(h3_Q)$(call h3_echo,cc)$(CC) $(H3CFLAGS) -DH3_NO_FASTPATH $(CFLAGS) \
	    $(LDFLAGS) -o $@ $< \
	    $(LIB) $(LIBS_csv2intervals) -lm

check: all $(BUILD)/gentrace $(BUILD)/csv2intervals-nofast
	BIN=$(abspath $(BIN)) tests/run

# Timings against the reference and the libcsv floor; see dev/bench for
# BENCH_RUNS and BENCH_BIG.
bench: all $(BUILD)/gentrace $(BUILD)/csvfloor
	BUILD=$(abspath $(BUILD)) dev/bench
	BUILD=$(abspath $(BUILD)) dev/bench-rss
	BUILD=$(abspath $(BUILD)) dev/bench-sweep
	BUILD=$(abspath $(BUILD)) dev/bench-scope
	BUILD=$(abspath $(BUILD)) dev/bench-summary
	BUILD=$(abspath $(BUILD)) dev/bench-account
	BUILD=$(abspath $(BUILD)) dev/bench-makerun

# make install: the layout that README's Install section describes.  The
# link in libexec/h3prof/share lets the filters find the one copy of the
# rules.
SCRIPTS := scripts/summarize_nsys_profile scripts/h3facts scripts/h3report \
	scripts/h3summary scripts/h3profile scripts/h3sweep scripts/h3compare \
	scripts/h3runpage scripts/h3index
LIBEXEC := $(DESTDIR)$(PREFIX)/libexec/h3prof
SHARE := $(DESTDIR)$(PREFIX)/share
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(LIBEXEC)/bin \
	    $(LIBEXEC)/share/h3prof $(SHARE)/h3prof/man/man1 \
	    $(SHARE)/man/man1 $(SHARE)/man/man5 $(SHARE)/man/man7 \
	    $(SHARE)/h3prof/mk
	install -m 755 $(SCRIPTS) $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(PROGS) $(LIBEXEC)/bin
	install -m 644 rules/h3.rules pipeline.mk reduce.mk sweep.mk \
	    scripts/h3lib.sh scripts/h3stop.sh scripts/h3runerr.sh $(wildcard scripts/*.jq scripts/*.awk) $(SHARE)/h3prof
	install -m 644 mk/*.mk $(SHARE)/h3prof/mk
	ln -sf ../../../../share/h3prof/h3.rules $(LIBEXEC)/share/h3prof/h3.rules
	install -m 644 $(FILTERS:%=filters/%.1) $(SHARE)/h3prof/man/man1
	install -m 644 $(wildcard scripts/*.1) $(SHARE)/man/man1
	install -m 644 filters/h3prof.5 $(SHARE)/man/man5
	install -m 644 mk/h3prof.7 $(SHARE)/man/man7

include fuzz/fuzz.mk

# The line a step prints in a quiet build (pipeline.mk's V), as in Kbuild.
h3_quiet_cc = '  CC      %s\n' '$@'
h3_quiet_ar = '  AR      %s\n' '$@'
h3_quiet_cp = '  CP      %s\n' '$@'

# Sweeps (make reports, see pipeline.mk) run the filters of this build.
H3PROF_BIN = $(BIN)
include pipeline.mk

clean:
	rm -rf build build-san build-fuzz

.PHONY: all bench check clean install
endif
