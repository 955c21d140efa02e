# reduce.mk: the reduction of a run.  Each run directory of RUNS gets its
# report.json and the tables its page is drawn from (kernels.tsv,
# strip.tsv, gapbins.tsv), made from its traces by pattern rules that
# chain the filters.
#
#	make -r -f reduce.mk RUNS='dir ...' [SETTING=value ...] [-j N]
#
# Callers: mk/report.mk (a make of this file for each run of a sweep),
# scripts/h3report (one run, in a scratch directory) and dev/makerun.mk
# (tests and benchmarks).  Users meet these rules through h3report(1) and
# make reports (h3prof(7)); the settings are listed below.
#
# Every recipe that runs a filter is free of shell syntax, so make execs
# the filter itself and starts no shell.  That is why each filter writes
# its outputs with -o (or -f, -B, -S, -U) instead of a redirection, and
# puts each output in place whole or not at all.
.DELETE_ON_ERROR:
.SUFFIXES:
SHELL := /bin/sh
export LC_ALL := C

# The settings.  Not named PREFIX, BIN or RULES, which the environment
# may hold (perf exports PREFIX=/usr).
reduce_dir := $(dir $(lastword $(MAKEFILE_LIST)))
# The filters, and the rules file of classify.
H3PROF_BIN ?= $(reduce_dir)build/bin
H3PROF_RULES ?= $(reduce_dir)rules/h3.rules
# A run's trace files: a CSV pair (nsys 2022.4 names them
# PREFIX_gputrace.csv and PREFIX_kernexectrace.csv), with an NVTX CSV or
# without (NVTX_CSV empty: none); or an nsys SQLite export.
CSV_PREFIX ?= profile_
GPU_CSV ?= $(CSV_PREFIX)cuda_gpu_trace.csv
KERNEL_CSV ?= $(CSV_PREFIX)cuda_kern_exec_trace.csv
NVTX_CSV ?= $(CSV_PREFIX)nvtx_pushpop_trace.csv
SQLITE_NAME ?= profile.sqlite
# The directory of the traces of a single run, if not the run directory.
TRACEDIR ?=
# The run's name (default: the last part of its directory's physical
# path) and its configuration file for runconfig -c, if any.
RUN_NAME ?=
RUN_CONFIG ?=
BIN := $(H3PROF_BIN)
RULES := $(H3PROF_RULES)
# The run directories.
RUNS ?=
# How the names of the files passed between the filters start; a sweep
# gives each make its own, so that two makes of one run keep apart.
HIDDEN_PREFIX ?= .report.
# The name of the scope's directory, from a caller that has already
# checked the scope, which saves a shell or two.
SCOPE_TAG ?=
# yes: keep the products of before until the new ones replace them (a
# sweep removes them itself when the run fails).
KEEP_OLD ?=
# Also: GPU_TRACE, KERNEL_TRACE, NVTX_TRACE (traces given by any path, for
# one run: h3report links them into the run directory under the names
# above); SKIPPED (runs whose kernel-exec trace is empty); RANGE [SKIP] or
# WINDOW (the scope).

# The scope, RANGE [SKIP] or WINDOW, checked by mk/scope.mk, which names
# the directory of a scoped run's products, RUN/tag.
h3_scopetag := $(SCOPE_TAG)
include $(reduce_dir)mk/scope.mk
tag := $(h3_scopetag)
ifneq ($(SCOPE_TAG),)
ifeq ($(RANGE)$(WINDOW),)
$(error SCOPE_TAG=$(SCOPE_TAG) without RANGE or WINDOW: it names a scope's \
    directory)
endif
endif

# The hidden files' prefix, and the characters allowed in it and in
# SCOPE_TAG: the recipes carry them unquoted.
h := $(HIDDEN_PREFIX)
namechars := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F \
    G H I J K L M N O P Q R S T U V W X Y Z $(h3_digits) . _ -
# $(call namelike,VAR): an error unless VAR's value is one word of namechars.
namelike = $(if $(call h3_without,$(namechars),$($1))$(filter-out \
    1,$(words $($1))),$(error $1=$($1): not $(if $(filter \
    HIDDEN_PREFIX,$1),the start of )a file name of letters, digits and ._-))
$(call namelike,HIDDEN_PREFIX)
$(if $(SCOPE_TAG),$(call namelike,SCOPE_TAG))

# Where a run's traces are: at in a prerequisite (the run directory's
# pattern, or TRACEDIR), traces in a recipe.
at := $(if $(TRACEDIR),$(patsubst %/,%,$(TRACEDIR))/,%/)
traces = $(subst %,$*,$(at))

# The goals: each run's products, named so that none is an intermediate
# file that make would remove.
products := report.json kernels.tsv strip.tsv gapbins.tsv
runs := $(patsubst %/,%,$(RUNS))
all: $(foreach r,$(runs),$(products:%=$r$(tag:%=/%)/%))
.PHONY: all
# Files that a rule makes besides its target, or that two rules read:
# intermediate, so that make removes them with the rest.
.INTERMEDIATE: $(foreach r,$(runs),$(addprefix $r/$(h),memory \
    device.facts ops export.facts ranges gpu.facts kstream.facts gaps.facts \
    idle.facts))

empty :=
tab := $(empty)	$(empty)
, := ,
space := $(empty) $(empty)
# A newline, to tell a path that holds one.
define nl


endef
# $(call quote,TEXT): TEXT quoted for the shell.
quote = '$(subst ','\'',$1)'

# H3PROF_SOURCES, in each filter's environment (filters/lib's
# source_name): NAME<tab>TRACE pairs, so that a filter's message names
# the trace a hidden file was read from, not the hidden file.
# run_dir: the run of the stem, R for a stem R or R/TAG.
run_dir = $(if $(tag),$(patsubst %/$(tag),%,$*),$*)
source_dir = $(subst %,$(run_dir),$(at))
# $(call source,NAME,GIVEN): the trace NAME of a pair (GIVEN, the path the
# caller named, if any), or else the export.
source = $(if $(wildcard $(source_dir)$(GPU_CSV)),$(or $2,$(call \
    shown,$(source_dir)$1)),$(or $(GPU_TRACE),$(call \
    shown,$(source_dir)$(SQLITE_NAME))))
# $(call sources,NAMES,TRACE): NAME<tab>TRACE<tab> for each hidden file of
# NAMES; TRACE may hold spaces.
sources = $(h)$(subst $(space),$(tab)$2$(tab)$(h),$1)$(tab)$2$(tab)
export H3PROF_SOURCES = $(call sources,raw ops memory gpu bystart \
    idlein,$(call source,$(GPU_CSV),$(GPU_TRACE)))$(call \
    sources,launchlines launches selected,$(call \
    source,$(KERNEL_CSV),$(KERNEL_TRACE)))$(call sources,ranges \
    outside,$(call source,$(NVTX_CSV),$(NVTX_TRACE)))

# $(call fact,KEY,FILE): the value of KEY in the fact file FILE (one word).
fact = $(patsubst $1=%,%,$(filter $1=%,$(subst $1$(tab),$1=,$(file <$2))))
# $(call devices,FILE): how many devices account -d's facts in FILE name
# (keys device.ID.count, an ID without a dot).
devices = $(words $(foreach k,$(filter device.%.count,$(file <$1)),\
    $(if $(findstring .,$(k:device.%.count=%)),,$k)))

# A run's traces as the products and messages name them: by the names
# above, or as the caller named them (a caller doubles each $ in them,
# since make expands its command line).
gpu_csv = $(or $(GPU_TRACE),$(traces)$(GPU_CSV))
kexec_csv = $(or $(KERNEL_TRACE),$(traces)$(KERNEL_CSV))
export_db = $(or $(GPU_TRACE),$(traces)$(SQLITE_NAME))
nvtx_csv = $(or $(NVTX_TRACE),$(traces)$(NVTX_CSV))
# $(call shword,TEXT,VAR): TEXT, the value of the setting VAR, as one word
# of a command: bare where it needs no quoting (so make still execs the
# filter without a shell), else quoted; one holding a newline, which would
# split the recipe, as "$VAR" of the exported setting.
wordchars := $(namechars) / + , = @ :
shword = $(if $(findstring $(nl),$1),"$$$2",$(if $(call \
    h3_without,$(wordchars),$1),$(call quote,$1),$1))
export GPU_TRACE KERNEL_TRACE NVTX_TRACE RUN_NAME RUN_CONFIG
# $(call factvalue,TEXT): TEXT as a fact's value (h3prof(5)): a backslash,
# tab and newline escaped.
factvalue = $(subst $(nl),\n,$(subst $(tab),\t,$(subst \,\\,$1)))
# $(call shownname,TEXT): TEXT as a message shows it (h3_shown): a
# backslash doubled, a tab and a newline as \011 and \012.
shownname = $(subst $(nl),\012,$(subst $(tab),\011,$(subst \,\\,$1)))
# The traces as the filters are given them, each one word.
gpu_arg = $(call shword,$(gpu_csv),GPU_TRACE)
kexec_arg = $(call shword,$(kexec_csv),KERNEL_TRACE)
export_arg = $(call shword,$(export_db),GPU_TRACE)
nvtx_arg = $(call shword,$(nvtx_csv),NVTX_TRACE)
# $(call message,TEXT): the recipe that says TEXT on stderr and fails.
message = printf '%s\n' $(call quote,$1) >&2; exit 1

# The stamp of a run's start, written by make itself (no process) before
# any trace is read.  reportjson -s gives the products its time, so that
# a trace rewritten while it was read is newer than they are.  The
# products of before go now, so that a failed run leaves none, unless
# KEEP_OLD.
old_products = $(if $(KEEP_OLD),,$(wildcard $(products:%=$(product_dir)/%)))
# The products' directory of the stamp $@: not the run's own in a scoped
# make, which reads the run's stamp but makes the scope's products.
product_dir = $(if $(tag),$(filter %/$(tag),$(@D)),$(@D))
start = $(file >$@)$(if $(old_products),rm -f -- $(old_products))
%/$(h)start:
	$(start)

# The hidden files a killed make left, its stamp among them, go before
# make looks at the run: make would keep them, and an old stamp would
# date the new products.  Found outside make's directory cache (realpath)
# and removed by one shell, only when there are some; not under -n or -q.
flags := $(firstword -$(MAKEFLAGS))
ifeq ($(findstring n,$(flags))$(findstring q,$(flags)),)
left := $(dir $(realpath $(addsuffix /$(h)start,$(runs) \
    $(if $(tag),$(runs:%=%/$(tag))))))
cleaned := $(if $(left),$(shell rm -f -- $(foreach d,$(left),$(call \
    quote,$d)$(h)*)))
endif
# The page's tables, which the filters write under hidden names and
# reportjson -p puts in place with the report; they and the stamp are
# intermediate.
pages := kernels.tsv strip.tsv gapbins.tsv
.INTERMEDIATE: $(foreach r,$(runs) $(if $(tag),$(runs:%=%/$(tag))),\
    $(addprefix $r/$(h),start $(pages)))

# The readers: each trace is read once, its lines written in start order
# (-s sorts a CSV that is not).  The export and the pair have readers of
# their own and share the rest: of two pattern rules for one file, make
# takes the first whose prerequisites exist.  Every other reader of a run
# waits (|) for its first, .report.export.facts of an export or
# .report.raw of a pair, so that a broken trace is reported once, even
# under -j -k.

# An export's launch calls (-L: the launch lines, in place of the launch
# API intervals).  Listed first: a run with both an export and a pair
# takes them from the export, whose API calls that launch copies and
# memsets (which the kernel-exec CSV lacks) tell the account why the GPU
# waited.
%/$(h)launchlines: $(at)$(SQLITE_NAME) $(BIN)/sqlite2intervals \
    %/$(h)start | %/$(h)export.facts
	$(BIN)/sqlite2intervals -b -t launch -L -o $@ -- $(export_arg)

# An export's GPU operations and the memory lines of its copies.
%/$(h)ops %/$(h)memory: $(at)$(SQLITE_NAME) $(BIN)/sqlite2intervals \
    %/$(h)start | %/$(h)export.facts
	$(BIN)/sqlite2intervals -t gpu -m $*/$(h)memory -o $*/$(h)ops \
	    -- $(export_arg)

# An export's devices, processes, graph launches and NVTX table.
%/$(h)export.facts: $(at)$(SQLITE_NAME) $(BIN)/exportinfo \
    %/$(h)start
	$(BIN)/exportinfo -o $@ -- $(export_arg)

# A pair's launch lines, of its kernel-exec CSV.
%/$(h)launchlines: $(at)$(KERNEL_CSV) $(BIN)/csv2intervals %/$(h)start \
    | %/$(h)raw
	$(BIN)/csv2intervals -b -s -L -o $@ -- $(kexec_arg)

# A pair's GPU operations and memory lines, of its GPU trace CSV.
%/$(h)raw %/$(h)memory: $(at)$(GPU_CSV) $(BIN)/csv2intervals %/$(h)start
	$(BIN)/csv2intervals -s -m $*/$(h)memory -o $*/$(h)raw \
	    -- $(gpu_arg)

# An export's operations, where there is no pair (after the pair's rule,
# which its intermediate prerequisite would otherwise lose to).  CUDA
# graph launches (--cuda-graph-trace=graph), which no kernel table holds,
# are merged in by start as operations of kind other, as h3facts counts
# them (exportinfo -g -i, no shell); without any, a hard link, no copy.
has_graphs = $(call fact,graphs.launches,$*/$(h)export.facts)
with_graphs = $(BIN)/exportinfo -g -i $< -o $@ -- $(export_arg)
%/$(h)raw: %/$(h)ops %/$(h)export.facts $(BIN)/exportinfo
	$(if $(has_graphs),$(with_graphs),ln -f -- $< $@)

# The GPU operations, kernels classified.
%/$(h)gpu: %/$(h)raw $(BIN)/classify $(RULES)
	$(BIN)/classify -x -r $(RULES) -o $@ $<

# The counts of all operations and, from the same pass (-S), of the
# kernels by stream.
%/$(h)gpu.facts %/$(h)kstream.facts: %/$(h)gpu $(BIN)/tally
	$(BIN)/tally -p gpu. -o $*/$(h)gpu.facts -P kstream. \
	    -S $*/$(h)kstream.facts $<

# The kernels' launch gaps and, from the same pass (-U), the idle facts
# and the page's bins of the idle gaps.
%/$(h)gaps.facts %/$(h)idle.facts %/$(h)gapbins.tsv: %/$(h)gpu \
    $(BIN)/gapstat
	$(BIN)/gapstat -k kernel -p gaps. -o $*/$(h)gaps.facts -P idle. \
	    -U $*/$(h)idle.facts -B $*/$(h)gapbins.tsv $<

# The table of every kernel, and the top.* facts of its first ten rows.
%/$(h)top.facts %/$(h)kernels.tsv: %/$(h)gpu $(BIN)/topkernels
	$(BIN)/topkernels -p top. -f $*/$(h)top.facts \
	    -o $*/$(h)kernels.tsv $<

# The time account, with the device facts from the same pass.
%/$(h)account.facts %/$(h)device.facts: %/$(h)gpu \
    %/$(h)launchlines %/$(h)memory $(BIN)/account $(RULES)
	$(BIN)/account -p account. -r $(RULES) -l $*/$(h)launchlines \
	    -a api. -i overlap. -u kunion. -d $*/$(h)device.facts \
	    -m $*/$(h)memory -f $*/$(h)account.facts -- $<

# The page's timeline strip of the kernels across the span.
%/$(h)strip.tsv: %/$(h)gpu %/$(h)gpu.facts $(BIN)/timeline
	$(BIN)/timeline -H -w 960 \
	    -l $(or $(call fact,gpu.span_ns,$*/$(h)gpu.facts),0) \
	    -o $@ -- $<

# The run's name and configuration (a scope's are its run's), each quoted
# only where it must be.
run_name = $(or $(RUN_NAME),$(notdir $(realpath $(run_dir))))
%/$(h)config.facts: $(BIN)/runconfig %/$(h)start
	$(BIN)/runconfig $(if $(RUN_CONFIG),-c $(call \
	    shword,$(RUN_CONFIG),RUN_CONFIG) )-o $@ -- $(call \
	    shword,$(run_name),RUN_NAME)

# $(call shown,PATH): a trace's path as a fact's value; one the caller
# gave as ./-NAME, so that it is no option, shown as -NAME.
shown = $(call factvalue,$(if $(filter ./-%,$(firstword $1)),$(patsubst \
    ./-%,-%,$1),$1))
# The traces' paths, written by make itself; an export is both traces.
%/$(h)source.facts: $(at)$(GPU_CSV) $(at)$(KERNEL_CSV) %/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call shown,$(gpu_csv)))$(file >>$@,source.kernel_exec_trace$(tab)$(call shown,$(kexec_csv)))

%/$(h)source.facts: $(at)$(SQLITE_NAME) %/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call shown,$(export_db)))$(file >>$@,source.kernel_exec_trace$(tab)$(call shown,$(export_db)))

# What the report says beyond the facts, of the device facts and
# $(call ...,EXPORTFACTS) (none for a pair): the devices, the processes
# doing GPU work (0 unless an export says), the CUDA graph launches and
# how many of them show none of their kernels.
ndevices = $(call devices,$(@D)/$(h)device.facts)
nprocesses = $(or $(if $1,$(call fact,processes,$1)),0)
graph_launches = $(or $(if $1,$(call fact,graphs.launches,$1)),0)
graphs_hidden = $(or $(if $1,$(call fact,graphs.hidden,$1)),0)
# Nonempty for a trace of several devices or processes.
several = $(filter-out 0 1,$(ndevices) $(call nprocesses,$1))
# $(call warnings,TRACE,EXPORTFACTS): h3report's warnings about the trace
# (as a message shows it), each a quoted word for printf.
warnings = $(if $(filter-out 0,$(call graphs_hidden,$2)),$(call \
    quote,h3report: $1: $(call graphs_hidden,$2) of $(call \
    graph_launches,$2) CUDA graph launches show none of their kernels \
    (nsys --cuda-graph-trace=graph): the component table misses them; \
    profile with --cuda-graph-trace=node to see them)) $(if $(call \
    several,$2),$(call quote,h3report: $1: $(ndevices) devices and $(if \
    $(filter-out 0 1,$(call nprocesses,$2)),$(call nprocesses,$2),1) \
    processes in one trace: its figures sum them; see devices in the \
    report))

# The runs whose kernel-exec CSV is empty (0 bytes): nsys leaves it so for
# a run without kernels.  Make cannot see a file's size, so one find names
# them for all runs, unless the caller names them in SKIPPED (a sweep,
# whose shell tests the size without a process).
kexec_of = $(1:%=$(at)$(KERNEL_CSV))
ifeq ($(origin SKIPPED),command line)
skipped := $(SKIPPED)
else
kexec_files := $(abspath $(wildcard $(call kexec_of,$(runs))))
empty_kexecs := $(if $(kexec_files),$(shell find -L $(kexec_files) \
    -maxdepth 0 -type f -empty))
skipped := $(foreach r,$(runs),\
    $(if $(filter $(abspath $(call kexec_of,$r)),$(empty_kexecs)),$r))
endif
# The runs with an NVTX CSV, which an empty kernel-exec CSV cannot use.
nvtx_runs := $(if $(NVTX_CSV),$(filter-out $(skipped),$(foreach r,$(runs),\
    $(if $(wildcard $(subst %,$r,$(at))$(NVTX_CSV)),$r))))
.INTERMEDIATE: $(nvtx_runs:%=%/$(h)nvtx.facts) \
    $(foreach r,$(skipped),$(addprefix $r/$(h),kernels.facts \
    launchlines gpu))

# An empty kernel-exec CSV has no launches.  Beside a GPU trace that has
# kernels it is a failed export: the run fails before its operations are
# classified, so that none of its products is made.
%/$(h)kernels.facts: %/$(h)raw $(BIN)/tally
	$(BIN)/tally -k kernel -p kernels. -o $@ $<

failed_export = h3report: $(call shownname,$(kexec_csv)): empty (0 bytes), \
    but the GPU trace $(call shownname,$(gpu_csv)) has kernels: a failed \
    export (nsys leaves a kernel-exec trace empty only for a run without \
    kernels); export it again
$(skipped:%=%/$(h)launchlines): %/$(h)launchlines: $(at)$(KERNEL_CSV) \
    %/$(h)kernels.facts
	$(if $(filter-out kernels.count 0,$(wordlist 1,2,$(file <$*/$(h)kernels.facts))),$(call message,$(failed_export)),$(file >$@))
$(skipped:%=%/$(h)gpu): %/$(h)gpu: %/$(h)launchlines

# The NVTX ranges, of the export (empty if it has no NVTX table) or of the
# pair's NVTX CSV.
%/$(h)ranges: $(at)$(SQLITE_NAME) $(BIN)/nvtxranges %/$(h)start \
    | %/$(h)export.facts
	$(BIN)/nvtxranges -o $@ -- $(export_arg)

ifneq ($(NVTX_CSV),)
%/$(h)ranges: $(at)$(NVTX_CSV) $(BIN)/nvtxranges %/$(h)start | %/$(h)raw
	$(BIN)/nvtxranges -o $@ -- $(nvtx_arg)
endif

# The launches read again with their threads, which the launch lines do
# not carry, only where there are ranges, as h3facts reads them.
# $(call launches,TRACE): the recipe of the launches of TRACE.
launches = $(if $(file <$<),$(BIN)/nvtxranges -t launch -o $@ -- $1,$(file \
    >$@))
%/$(h)launches: %/$(h)ranges $(at)$(SQLITE_NAME) $(BIN)/nvtxranges
	$(call launches,$(export_arg))

%/$(h)launches: %/$(h)ranges $(at)$(KERNEL_CSV) $(BIN)/nvtxranges
	$(call launches,$(kexec_arg))

# The NVTX facts, inrange's join of ranges and launches; empty, which the
# report takes as none, without ranges.
%/$(h)nvtx.facts: %/$(h)ranges %/$(h)launches $(BIN)/inrange \
    $(RULES)
	$(BIN)/inrange -x -r $(RULES) -o $@ -- $< $*/$(h)launches

# $(call prerequisite,RUNS,FILE,DIR): each product of each run of RUNS
# (in DIR under the run, if given) also depends on the hidden FILE beside
# it, so that the report's recipe finds it in $^ whichever product make
# takes first.  (Escaped: a run's name may hold an =.)
prerequisite = $(foreach p,$(products),$(eval $$($1:%=%$3/$p): %/$p: \
    %/$$(h)$2))
$(call prerequisite,nvtx_runs,nvtx.facts)

facts = source gpu gaps idle kstream top account
# $(call report,TRACE,EXPORTFACTS[,NOWORK]): the recipe of the report, of
# the facts in the products' directory, $(@D) (R, or R/TAG).  reportjson
# puts the page's tables in place (-p), all dated from the start (-s),
# the report last.  A run without GPU operations fails (with the recipe
# of the variable NOWORK, if given).  Only a trace of several devices or
# processes, or of graph launches, needs a shell, to warn; only then are
# the device and export facts part of the report.
report = $(if $(filter-out gpu.count 0,$(wordlist 1,2,$(file \
    <$(@D)/$(h)gpu.facts))),$(if $(strip $(call warnings,$1,$2)),printf \
    '%s\n' $(call warnings,$1,$2) >&2 && exec )$(BIN)/reportjson -x \
    -r $(RULES) -s $(@D)/$(h)start -P $(h) $(pages:%=-p $(@D)/%) \
    -o $(@D)/report.json $(facts:%=$(@D)/$(h)%.facts) \
    $(filter $(@D)/$(h)nvtx.facts $(@D)/$(h)scope.facts,$^) \
    $(if $(call several,$2)$(filter-out 0,$(call graph_launches,$2)), \
    $(@D)/$(h)device.facts $2) $(@D)/$(h)config.facts,$(if $3,$($3),$(call \
    message,h3report: $1: no GPU operations in the trace)))

# The report and the page's tables: one rule of four targets, so that an
# interrupted make removes all it put in place.  An export's first, then
# a pair's.
report_facts = %/$(h)source.facts %/$(h)gpu.facts \
    %/$(h)gaps.facts %/$(h)idle.facts %/$(h)kstream.facts \
    %/$(h)top.facts %/$(h)account.facts %/$(h)device.facts \
    %/$(h)config.facts $(addprefix %/$(h),$(pages)) %/$(h)start \
    $(BIN)/reportjson $(RULES)
%/report.json %/kernels.tsv %/strip.tsv %/gapbins.tsv: $(at)$(SQLITE_NAME) \
    %/$(h)export.facts %/$(h)nvtx.facts $(report_facts)
	$(call report,$(call shownname,$(export_db)),$*/$(h)export.facts)

%/report.json %/kernels.tsv %/strip.tsv %/gapbins.tsv: \
    $(at)$(GPU_CSV) $(report_facts)
	$(call report,$(call shownname,$(gpu_csv)))

# --- A scope: the rules of a scoped make ---------------------------------
# A scoped run R is reduced in R/TAG, its files there named as a run's are
# in R.  The rules above make those that do not depend on the scope (stem
# R/TAG); the rules below (stem R) make the rest, as make prefers the rule
# of the shorter stem.
ifneq ($(tag),)
scopes := $(runs:%=%/$(tag))
# The scope's directory, of the stem R.
sd = $*/$(tag)
.INTERMEDIATE: $(foreach s,$(scopes),$(addprefix $s/$(h),ranges \
    launches selected outside gpu memory launchlines bystart idlein \
    source.facts gpu.facts gaps.facts idle.facts kstream.facts top.facts \
    account.facts device.facts config.facts nvtx.facts scope.facts \
    export.facts))

$(scopes):
	mkdir -p -- $@

# The scope's stamp, by the run's rule, once its directory is there.
$(scopes:%=%/$(h)start): %/$(h)start: | %

# The ranges, of the NVTX CSV beside the kernel-exec CSV or of the export,
# sorted by start (-s) as the readers sort theirs.  A pair without an NVTX
# CSV, or with an empty kernel-exec CSV, has none, which RANGE cannot
# scope by.
no_ranges = $(if $(RANGE),$(call message,h3report: $(call \
    shownname,$(kexec_csv)): no NVTX ranges to scope by -R (an export$(,) \
    or an nvtx_pushpop_trace CSV beside the kernel-exec trace$(,) holds \
    them)),$(file >$@))
ifneq ($(NVTX_CSV),)
%/$(tag)/$(h)ranges: $(at)$(NVTX_CSV) $(at)$(KERNEL_CSV) \
    $(BIN)/nvtxranges %/$(tag)/$(h)start
	$(BIN)/nvtxranges -s -o $@ -- $(nvtx_arg)
endif

%/$(tag)/$(h)ranges: $(at)$(KERNEL_CSV) %/$(tag)/$(h)start
	$(no_ranges)

%/$(tag)/$(h)ranges: $(at)$(SQLITE_NAME) $(BIN)/nvtxranges \
    %/$(tag)/$(h)start
	$(BIN)/nvtxranges -s -o $@ -- $(export_arg)

$(skipped:%=%/$(tag)/$(h)ranges): %/$(tag)/$(h)ranges: \
    $(at)$(KERNEL_CSV) %/$(tag)/$(h)start
	$(no_ranges)

# The launches, read once the ranges are: RANGE without ranges fails
# before they are read, as h3report fails.
# $(call scope_launches,TRACE,NVTX): the recipe of the launches of TRACE
# (as the filter is given it), its ranges of NVTX (as a message shows it).
scope_launches = $(if $(file <$<),$(BIN)/nvtxranges -s -t launch -o $@ -- \
    $1,$(if $(RANGE),$(call message,h3report: $2: no NVTX ranges to scope \
    by -R),$(file >$@)))
%/$(tag)/$(h)launches: %/$(tag)/$(h)ranges \
    $(at)$(KERNEL_CSV) $(BIN)/nvtxranges
	$(call scope_launches,$(kexec_arg),$(call shownname,$(nvtx_csv)))

%/$(tag)/$(h)launches: %/$(tag)/$(h)ranges $(at)$(SQLITE_NAME) \
    $(BIN)/nvtxranges
	$(call scope_launches,$(export_arg),$(call shownname,$(export_db)))

$(skipped:%=%/$(tag)/$(h)launches): %/$(tag)/$(h)launches: \
    %/$(tag)/$(h)ranges
	$(file >$@)

ifneq ($(RANGE),)
# RANGE: the GPU work launched in the matching ranges (inrange -l), an
# export's copies and memsets too (a kernel-exec CSV has kernels only),
# and the holes between the ranges, which idle gaps must not span.  No
# memory lines or graph launches: those are of the whole trace.
%/$(tag)/$(h)selected %/$(tag)/$(h)outside: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)launches $(BIN)/inrange $(RULES)
	$(BIN)/inrange -l -m '$(RANGE)' -s $(or $(SKIP),0) -r $(RULES) \
	    -g $(sd)/$(h)outside -o $(sd)/$(h)selected -- \
	    $(sd)/$(h)ranges $(sd)/$(h)launches

# The error of a scope of no work.
no_work = printf "h3report: no GPU work launched in the NVTX ranges \
    matching '%s'%s\n" '$(RANGE)' '$(if $(SKIP), after the first $(SKIP))' \
    >&2; exit 1

# The scope's operations, classified in launch order (-l), the order in
# which tally and topkernels count them (their figures are first seen
# first).
%/$(tag)/$(h)gpu: %/$(tag)/$(h)selected $(BIN)/classify $(RULES)
	$(BIN)/classify -l -x -r $(RULES) -o $@ -- $<

# The same in start order, for the filters that need it; a scope of no
# work fails here, before any product is made.
%/$(tag)/$(h)bystart: %/$(tag)/$(h)gpu %/$(tag)/$(h)gpu.facts \
    $(BIN)/classify $(RULES)
	$(if $(filter-out gpu.count 0,$(wordlist 1,2,$(file \
	    <$(sd)/$(h)gpu.facts))),$(BIN)/classify -s -x -r $(RULES) \
	    -o $@ -- $<,$(no_work))

# The kernel table waits for that check.
$(scopes:%=%/$(h)kernels.tsv): %/$(h)kernels.tsv: %/$(h)bystart

# The kernels' launch gaps.
%/$(tag)/$(h)gaps.facts: %/$(tag)/$(h)bystart $(BIN)/gapstat
	$(BIN)/gapstat -k kernel -p gaps. -o $@ $<

# The work with the holes merged in: idle in a scope of ranges is idle
# inside them.
%/$(tag)/$(h)idlein: %/$(tag)/$(h)bystart %/$(tag)/$(h)outside \
    $(BIN)/classify $(RULES)
	$(BIN)/classify -s -x -r $(RULES) -o $@ -- $< $(sd)/$(h)outside

# The idle facts and the page's bins of the idle gaps.
%/$(tag)/$(h)idle.facts %/$(tag)/$(h)gapbins.tsv: %/$(tag)/$(h)idlein \
    $(BIN)/gapstat
	$(BIN)/gapstat -u -q -B $(sd)/$(h)gapbins.tsv -p idle. \
	    -o $(sd)/$(h)idle.facts $<

# The time account of the selected launch lines, without the copies'
# bytes (the trace's memory lines are not the scope's).
%/$(tag)/$(h)account.facts %/$(tag)/$(h)device.facts: \
    %/$(tag)/$(h)bystart %/$(tag)/$(h)selected $(BIN)/account \
    $(RULES)
	$(BIN)/account -p account. -r $(RULES) -l $(sd)/$(h)selected \
	    -a api. -i overlap. -u kunion. -d $(sd)/$(h)device.facts \
	    -f $(sd)/$(h)account.facts -- $<

# The page's timeline strip.
%/$(tag)/$(h)strip.tsv: %/$(tag)/$(h)bystart %/$(tag)/$(h)gpu.facts \
    $(BIN)/timeline
	$(BIN)/timeline -H -w 960 \
	    -l $(or $(call fact,gpu.span_ns,$(sd)/$(h)gpu.facts),0) \
	    -o $@ -- $<

# The NVTX facts: each instance of the matching names, and the scope.
%/$(tag)/$(h)nvtx.facts: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)launches $(BIN)/inrange $(RULES)
	$(BIN)/inrange -x -r $(RULES) -m '$(RANGE)' -s $(or $(SKIP),0) \
	    -o $@ -- $< $(sd)/$(h)launches
else
# WINDOW: every GPU operation that starts in the window, copies, memsets
# and graph launches too, with its memory and launch lines, taken by
# inwindow from the run's (stem R).  The rules above make the rest as for
# the run: a window of 0%:100% is the run.
%/$(tag)/$(h)gpu: %/$(h)gpu $(BIN)/inwindow
	$(BIN)/inwindow -w $(WINDOW) -o $@ -- $<

%/$(tag)/$(h)memory: %/$(h)gpu %/$(h)memory $(BIN)/inwindow
	$(BIN)/inwindow -w $(WINDOW) -o $@ -- $< $*/$(h)memory

%/$(tag)/$(h)launchlines: %/$(h)gpu %/$(h)launchlines $(BIN)/inwindow
	$(BIN)/inwindow -l -w $(WINDOW) -o $@ -- $< $*/$(h)launchlines

# The window's facts, for the report's scope.
%/$(tag)/$(h)scope.facts: %/$(h)gpu $(BIN)/inwindow
	$(BIN)/inwindow -f -w $(WINDOW) -o $@ -- $<

# The error of a window of no work.
no_work = printf '%s\n' 'h3report: no GPU work starts in the window \
    $(WINDOW)' >&2; exit 1

# The launches in the window and their NVTX facts; empty where the run
# has no ranges.
%/$(tag)/$(h)selected: %/$(tag)/$(h)ranges %/$(tag)/$(h)launches \
    %/$(h)gpu $(BIN)/inwindow
	$(if $(file <$<),$(BIN)/inwindow -l -w $(WINDOW) -o $@ -- \
	    $*/$(h)gpu $(sd)/$(h)launches,$(file >$@))

%/$(tag)/$(h)nvtx.facts: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)selected $(BIN)/inrange $(RULES)
	$(if $(file <$<),$(BIN)/inrange -x -r $(RULES) -o $@ -- $< \
	    $(sd)/$(h)selected,$(file >$@))
endif

# The traces' paths, of the run's traces.
%/$(tag)/$(h)source.facts: $(at)$(GPU_CSV) $(at)$(KERNEL_CSV) \
    %/$(tag)/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call factvalue,$(gpu_csv)))$(file >>$@,source.kernel_exec_trace$(tab)$(call factvalue,$(kexec_csv)))

%/$(tag)/$(h)source.facts: $(at)$(SQLITE_NAME) %/$(tag)/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call factvalue,$(export_db)))$(file >>$@,source.kernel_exec_trace$(tab)$(call factvalue,$(export_db)))

# An export's facts, of the whole trace.
%/$(tag)/$(h)export.facts: $(at)$(SQLITE_NAME) $(BIN)/exportinfo \
    %/$(tag)/$(h)start | %/$(tag)/$(h)ranges
	$(BIN)/exportinfo -o $@ -- $(export_arg)

# The report and the page's tables, of the scope's facts (one rule of four
# targets, as for the run).  The runs of an export without a pair have
# its facts in the report: its devices, processes and graph launches.
scope_exports := $(foreach r,$(runs),$(if $(wildcard \
    $(subst %,$r,$(at))$(GPU_CSV)),,$(if $(wildcard \
    $(subst %,$r,$(at))$(SQLITE_NAME)),$r)))
$(call prerequisite,scope_exports,export.facts,/$(tag))
# The trace the report names, and the export's facts.
is_export = $(filter $*,$(scope_exports))
scope_trace = $(call shownname,$(if $(is_export),$(export_db),$(gpu_csv)))
scope_exportfacts = $(if $(is_export),$(sd)/$(h)export.facts)
%/$(tag)/report.json %/$(tag)/kernels.tsv %/$(tag)/strip.tsv \
    %/$(tag)/gapbins.tsv: $(subst %/,%/$(tag)/,$(report_facts)) \
    %/$(tag)/$(h)nvtx.facts $(if $(WINDOW),%/$(tag)/$(h)scope.facts)
	$(call report,$(scope_trace),$(scope_exportfacts),no_work)
endif

# For callers: a failed run's error is one line on stderr, its filter's
# or h3report's naming the trace, followed by make's own "*** [...]
# Error" and "Deleting file" lines, which no recipe can hold back (the
# callers drop them); a run without its traces gets make's "No rule to
# make target".  A failed scope leaves its directory.
