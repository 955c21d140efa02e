# dev/makerun.mk: the prototype of issue 19's "make runs the filters", on
# run directories of the tests and benchmarks: the rules of ../reduce.mk,
# which pipeline.mk runs for each run it reduces.
#
#	make -f dev/makerun.mk RUNS='dir ...' [H3PROF_BIN=dir]
#	    [H3PROF_RULES=file] [CSV_PREFIX=profile_]
#	    [SQLITE_NAME=profile.sqlite]
#	    [RANGE=pattern [SKIP=n] | WINDOW=start:end] [-j N]
#
# Each run directory holds a CSV pair, profile_cuda_gpu_trace.csv and
# profile_cuda_kern_exec_trace.csv (CSV_PREFIX), and may hold
# profile_nvtx_pushpop_trace.csv; or, in its place, an nsys SQLite
# export, profile.sqlite (SQLITE_NAME), with NVTX ranges or without; a
# run with both has its GPU operations read from the pair and its launch
# lines from the export (see reduce.mk).  It gets report.json, kernels.tsv,
# strip.tsv and gapbins.tsv beside them, byte for byte those of h3report
# on the same paths; a scoped run's in RUN/scope.TAG/, as pipeline.mk
# names them.
here := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# (Not PREFIX, BIN or RULES, which the environment may hold: perf exports
# PREFIX=/usr.)
H3PROF_BIN ?= $(here)/../build/bin
H3PROF_RULES ?= $(here)/../rules/h3.rules
CSV_PREFIX ?= profile_
SQLITE_NAME ?= profile.sqlite
include $(here)/../reduce.mk
