# reduce.mk: the reduction of a run: each run directory of RUNS gets its
# report.json and its page's tables (kernels.tsv, strip.tsv, gapbins.tsv),
# made from its traces by pattern rules that chain the filters.
#
#	make -r -f reduce.mk RUNS='dir ...' [SETTING=value ...] [-j N]
#
# Run by mk/report.mk (a make for each run of a sweep), scripts/h3report
# and h3facts (one run) and dev/makerun.mk (tests, benchmarks).  Recipes
# use no shell syntax except where a run fails or warns, so make execs
# each filter itself; each writes its outputs whole or not at all (-o, -f,
# -B, -S, -U).
# A failed run says one line on stderr, its filter's, naming the trace;
# make adds "*** [...] Error" lines, which the callers drop.  A run without
# its traces gets make's "No rule to make target"; a failed scope leaves
# its directory.
.DELETE_ON_ERROR:
.SUFFIXES:
SHELL := /bin/sh
export LC_ALL := C

# The settings.  Not PREFIX, BIN or RULES, which the environment may hold.
reduce_dir := $(dir $(lastword $(MAKEFILE_LIST)))
H3PROF_BIN ?= $(reduce_dir)build/bin
H3PROF_RULES ?= $(reduce_dir)rules/h3.rules
# A run's traces: a CSV pair, with an NVTX CSV (empty: none) or without,
# or an nsys SQLite export.
CSV_PREFIX ?= profile_
GPU_CSV ?= $(CSV_PREFIX)cuda_gpu_trace.csv
KERNEL_CSV ?= $(CSV_PREFIX)cuda_kern_exec_trace.csv
NVTX_CSV ?= $(CSV_PREFIX)nvtx_pushpop_trace.csv
SQLITE_NAME ?= profile.sqlite
# Where the traces of a single run are, if not in its directory.
TRACEDIR ?=
# The run's name (default: its directory's) and configuration file.
RUN_NAME ?=
RUN_CONFIG ?=
BIN := $(H3PROF_BIN)
RULES := $(H3PROF_RULES)
RUNS ?=
# The start of the names of the files between the filters: a sweep gives
# each make its own, so that two makes of one run keep apart.
HIDDEN_PREFIX ?= .report.
# The scope's directory, named by a caller that has checked the scope.
SCOPE_TAG ?=
# yes: the products of before stay until the new ones replace them.
KEEP_OLD ?=
# Also: GPU_TRACE, KERNEL_TRACE, NVTX_TRACE (one run's traces by any path,
# linked in its directory under the names above), SKIPPED, RECORD_KEY and
# RECORD_INPUTS (below), and the scope, RANGE [SKIP] or WINDOW.

# The scope, checked by mk/scope.mk, which names tag, the directory of a
# scoped run's products in the run's.
h3_scopetag := $(SCOPE_TAG)
include $(reduce_dir)mk/scope.mk
tag := $(h3_scopetag)
ifneq ($(SCOPE_TAG),)
ifeq ($(RANGE)$(WINDOW),)
$(error SCOPE_TAG=$(SCOPE_TAG) without RANGE or WINDOW: it names a scope's \
    directory)
endif
endif

# The hidden files' prefix, h; it and SCOPE_TAG go unquoted in recipes.
h := $(HIDDEN_PREFIX)
namechars := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F \
    G H I J K L M N O P Q R S T U V W X Y Z $(h3_digits) . _ -
# $(call namelike,VAR): an error unless VAR's value is one word of namechars.
namelike = $(if $(call h3_without,$(namechars),$($1))$(filter-out \
    1,$(words $($1))),$(error $1=$($1): not $(if $(filter \
    HIDDEN_PREFIX,$1),the start of )a file name of letters, digits and ._-))
$(call namelike,HIDDEN_PREFIX)
$(if $(SCOPE_TAG),$(call namelike,SCOPE_TAG))

# Where a run's traces are: at in a prerequisite (a pattern, or TRACEDIR),
# traces in a recipe.
at := $(if $(TRACEDIR),$(patsubst %/,%,$(TRACEDIR))/,%/)
traces = $(subst %,$*,$(at))

# The goals: each run's products (a scope's in RUN/TAG), kept as goals.
products := report.json kernels.tsv strip.tsv gapbins.tsv
runs := $(patsubst %/,%,$(RUNS))
scopes := $(if $(tag),$(runs:%=%/$(tag)))
all: $(foreach r,$(runs),$(products:%=$r$(tag:%=/%)/%))
.PHONY: all
# Hidden files that make would keep, as a rule names them (other outputs
# of a rule, files two rules read): intermediate, removed with the rest.
# (Named here, make also counts them as makeable when it chooses a rule.)
pages := kernels.tsv strip.tsv gapbins.tsv
.INTERMEDIATE: $(foreach r,$(runs),$(addprefix $r/$(h),memory \
    device.facts ops export.facts ranges gpu.facts kstream.facts gaps.facts \
    idle.facts)) $(foreach r,$(runs) $(scopes),$(addprefix $r/$(h),start \
    $(pages)))

empty :=
tab := $(empty)	$(empty)
, := ,
space := $(empty) $(empty)
define nl


endef
# $(call quote,TEXT): TEXT quoted for the shell.
quote = '$(subst ','\'',$1)'

# H3PROF_SOURCES, in each filter's environment: NAME<tab>TRACE pairs, so
# that a filter's message names the trace, not the hidden file it read.
# run_dir: the run of the stem, R for a stem R or R/TAG.
run_dir = $(if $(tag),$(patsubst %/$(tag),%,$*),$*)
source_dir = $(subst %,$(run_dir),$(at))
# $(call source,NAME,GIVEN): the pair's trace NAME (GIVEN, if the caller
# gave it), or else the export.
source = $(if $(wildcard $(source_dir)$(GPU_CSV)),$(or $2,$(call \
    shown,$(source_dir)$1)),$(or $(GPU_TRACE),$(call \
    shown,$(source_dir)$(SQLITE_NAME))))
# $(call sources,NAMES,TRACE): NAME<tab>TRACE<tab> for each hidden NAME.
sources = $(h)$(subst $(space),$(tab)$2$(tab)$(h),$1)$(tab)$2$(tab)
export H3PROF_SOURCES = $(call sources,raw ops memory gpu bystart \
    idlein,$(call source,$(GPU_CSV),$(GPU_TRACE)))$(call \
    sources,launchlines launches selected,$(call \
    source,$(KERNEL_CSV),$(KERNEL_TRACE)))$(call sources,ranges \
    outside,$(call source,$(NVTX_CSV),$(NVTX_TRACE)))

# $(call fact,KEY,FILE): the value of KEY in the fact file FILE (one word).
fact = $(patsubst $1=%,%,$(filter $1=%,$(subst $1$(tab),$1=,$(file <$2))))
# $(call counts,KIND,FILE): nonempty if tally's facts in FILE count some
# KIND (its first fact, KIND.count, is not 0).
counts = $(filter-out $1.count 0,$(wordlist 1,2,$(file <$2)))
# $(call devices,FILE): how many devices account -d's facts in FILE name.
devices = $(words $(foreach k,$(filter device.%.count,$(file <$1)),\
    $(if $(findstring .,$(k:device.%.count=%)),,$k)))

# The traces' paths: as the caller named them, if it did (with each $
# doubled), else in the run's directory.
gpu_csv = $(or $(GPU_TRACE),$(traces)$(GPU_CSV))
kexec_csv = $(or $(KERNEL_TRACE),$(traces)$(KERNEL_CSV))
export_db = $(or $(GPU_TRACE),$(traces)$(SQLITE_NAME))
nvtx_csv = $(or $(NVTX_TRACE),$(traces)$(NVTX_CSV))
# $(call shword,TEXT,VAR): TEXT, VAR's value, as one word of a command:
# bare where it can be (make execs the filter then), else quoted; one
# holding a newline as "$VAR", the exported setting.
wordchars := $(namechars) / + , = @ :
shword = $(if $(findstring $(nl),$1),"$$$2",$(if $(call \
    h3_without,$(wordchars),$1),$(call quote,$1),$1))
export GPU_TRACE KERNEL_TRACE NVTX_TRACE RUN_NAME RUN_CONFIG
# $(call factvalue,TEXT): TEXT as a fact's value, \, tab, newline escaped.
factvalue = $(subst $(nl),\n,$(subst $(tab),\t,$(subst \,\\,$1)))
# $(call shownname,TEXT): TEXT as a message shows it (h3_shown).
shownname = $(subst $(nl),\012,$(subst $(tab),\011,$(subst \,\\,$1)))
# The traces as the filters are given them.
gpu_arg = $(call shword,$(gpu_csv),GPU_TRACE)
kexec_arg = $(call shword,$(kexec_csv),KERNEL_TRACE)
export_arg = $(call shword,$(export_db),GPU_TRACE)
nvtx_arg = $(call shword,$(nvtx_csv),NVTX_TRACE)
# $(call message,TEXT): the recipe that says TEXT on stderr and fails.
message = printf '%s\n' $(call quote,$1) >&2; exit 1

# The stamp of a run's start, written by make: the products get its time
# (reportjson -s), older than a trace rewritten while it was read.  The old
# products and record go now (unless KEEP_OLD), so a failed run leaves none.
old_products = $(if $(KEEP_OLD),,$(wildcard $(products:%=$(product_dir)/%) \
    $(if $(RECORD_KEY),$(product_dir)/report.inputs)))
# The stamp's products' directory, the scope's in a scoped make.
product_dir = $(if $(tag),$(filter %/$(tag),$(@D)),$(@D))
start = $(file >$@)$(if $(old_products),rm -f -- $(old_products))
%/$(h)start:
	$(start)
# A scope's stamp by the same rule, once its directory is there.
$(scopes:%=%/$(h)start): %/$(h)start: | %
$(scopes):
	mkdir -p -- $@

# The hidden files a killed make left go first (an old stamp would date
# the new products), found past make's directory cache; not under -n, -q.
flags := $(firstword -$(MAKEFLAGS))
ifeq ($(findstring n,$(flags))$(findstring q,$(flags)),)
left := $(dir $(realpath $(addsuffix /$(h)start,$(runs) $(scopes))))
cleaned := $(if $(left),$(shell rm -f -- $(foreach d,$(left),$(call \
    quote,$d)$(h)*)))
endif

# The readers, each trace read once, in start order (-s sorts a CSV).  Of
# two rules for one file make takes the first whose prerequisites exist,
# so an export's launch lines win over a pair's beside it: its API calls
# that launch copies and memsets tell the account why the GPU waited.
# The other readers wait (|) for the first, so a broken trace is told once.
%/$(h)launchlines: $(at)$(SQLITE_NAME) $(BIN)/sqlite2intervals \
    %/$(h)start | %/$(h)export.facts
	$(BIN)/sqlite2intervals -b -t launch -L -o $@ -- $(export_arg)
%/$(h)ops %/$(h)memory: $(at)$(SQLITE_NAME) $(BIN)/sqlite2intervals \
    %/$(h)start | %/$(h)export.facts
	$(BIN)/sqlite2intervals -t gpu -m $*/$(h)memory -o $*/$(h)ops \
	    -- $(export_arg)
%/$(h)export.facts: $(at)$(SQLITE_NAME) $(BIN)/exportinfo %/$(h)start
	$(BIN)/exportinfo -o $@ -- $(export_arg)
%/$(h)launchlines: $(at)$(KERNEL_CSV) $(BIN)/csv2intervals %/$(h)start \
    | %/$(h)raw
	$(BIN)/csv2intervals -b -s -L -o $@ -- $(kexec_arg)
%/$(h)raw %/$(h)memory: $(at)$(GPU_CSV) $(BIN)/csv2intervals %/$(h)start
	$(BIN)/csv2intervals -s -m $*/$(h)memory -o $*/$(h)raw -- $(gpu_arg)

# An export's operations, where there is no pair (after the pair's rule,
# which it would beat: make counts its .INTERMEDIATE prerequisites as
# makeable), its CUDA graph launches merged in as operations of kind
# other; without any, a hard link.
%/$(h)raw: %/$(h)ops %/$(h)export.facts $(BIN)/exportinfo
	$(if $(call fact,graphs.launches,$*/$(h)export.facts),\
	    $(BIN)/exportinfo -g -i $< -o $@ -- $(export_arg),ln -f -- $< $@)

# The GPU operations, kernels classified, and the filters that read them.
# tally and gapstat each write two sets of facts from one pass.
%/$(h)gpu: %/$(h)raw $(BIN)/classify $(RULES)
	$(BIN)/classify -x -r $(RULES) -o $@ $<
%/$(h)gpu.facts %/$(h)kstream.facts: %/$(h)gpu $(BIN)/tally
	$(BIN)/tally -p gpu. -o $*/$(h)gpu.facts -P kstream. \
	    -S $*/$(h)kstream.facts $<
%/$(h)gaps.facts %/$(h)idle.facts %/$(h)gapbins.tsv: %/$(h)gpu $(BIN)/gapstat
	$(BIN)/gapstat -k kernel -p gaps. -o $*/$(h)gaps.facts -P idle. \
	    -U $*/$(h)idle.facts -B $*/$(h)gapbins.tsv $<
%/$(h)top.facts %/$(h)kernels.tsv: %/$(h)gpu $(BIN)/topkernels
	$(BIN)/topkernels -p top. -f $*/$(h)top.facts -o $*/$(h)kernels.tsv $<
%/$(h)account.facts %/$(h)device.facts: %/$(h)gpu \
    %/$(h)launchlines %/$(h)memory $(BIN)/account $(RULES)
	$(BIN)/account -p account. -r $(RULES) -l $*/$(h)launchlines \
	    -a api. -i overlap. -u kunion. -d $*/$(h)device.facts \
	    -m $*/$(h)memory -f $*/$(h)account.facts -- $<
%/$(h)strip.tsv: %/$(h)gpu %/$(h)gpu.facts $(BIN)/timeline
	$(BIN)/timeline -H -w 960 \
	    -l $(or $(call fact,gpu.span_ns,$*/$(h)gpu.facts),0) -o $@ -- $<

# The run's name and configuration (a scope's are its run's).
run_name = $(or $(RUN_NAME),$(notdir $(realpath $(run_dir))))
%/$(h)config.facts: $(BIN)/runconfig %/$(h)start
	$(BIN)/runconfig $(if $(RUN_CONFIG),-c $(call \
	    shword,$(RUN_CONFIG),RUN_CONFIG) )-o $@ -- $(call \
	    shword,$(run_name),RUN_NAME)

# $(call shown,PATH): a path as a fact's value; ./-NAME, which the caller
# gave so that it is no option, as -NAME.
shown = $(call factvalue,$(if $(filter ./-%,$(firstword $1)),$(patsubst \
    ./-%,-%,$1),$1))
# $(call sourcefacts,GPU,KERNEL): the recipe of the traces' facts, by make
# itself (an export is both traces).
sourcefacts = $(file >$@,source.gpu_trace$(tab)$1)$(file \
    >>$@,source.kernel_exec_trace$(tab)$2)
%/$(h)source.facts: $(at)$(GPU_CSV) $(at)$(KERNEL_CSV) %/$(h)start
	$(call sourcefacts,$(call shown,$(gpu_csv)),$(call shown,$(kexec_csv)))
%/$(h)source.facts: $(at)$(SQLITE_NAME) %/$(h)start
	$(call sourcefacts,$(call shown,$(export_db)),$(call shown,$(export_db)))

# Of the device facts and of $1, an export's facts (none for a pair): the
# devices, the processes doing GPU work, the CUDA graph launches and how
# many of them show none of their kernels.
ndevices = $(call devices,$(@D)/$(h)device.facts)
nprocesses = $(or $(if $1,$(call fact,processes,$1)),0)
graph_launches = $(or $(if $1,$(call fact,graphs.launches,$1)),0)
graphs_hidden = $(or $(if $1,$(call fact,graphs.hidden,$1)),0)
# Nonempty for a trace of several devices or processes.
several = $(filter-out 0 1,$(ndevices) $(call nprocesses,$1))
# $(call warnings,TRACE,EXPORTFACTS): h3report's warnings, quoted words.
warnings = $(if $(filter-out 0,$(call graphs_hidden,$2)),$(call \
    quote,h3report: $1: $(call graphs_hidden,$2) of $(call \
    graph_launches,$2) CUDA graph launches show none of their kernels \
    (nsys --cuda-graph-trace=graph): the component table misses them; \
    profile with --cuda-graph-trace=node to see them)) $(if $(call \
    several,$2),$(call quote,h3report: $1: $(ndevices) devices and $(if \
    $(filter-out 0 1,$(call nprocesses,$2)),$(call nprocesses,$2),1) \
    processes in one trace: its figures sum them; see devices in the report))

# The runs whose kernel-exec CSV is empty, as nsys leaves it for a run
# without kernels: named by the caller (SKIPPED), else by one find, since
# make cannot see a file's size.
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
# The runs with an export, and those whose NVTX CSV is read: not those of
# an empty kernel-exec CSV.
export_runs := $(foreach r,$(runs),$(if $(wildcard \
    $(subst %,$r,$(at))$(SQLITE_NAME)),$r))
nvtx_runs := $(if $(NVTX_CSV),$(filter-out $(skipped),$(foreach r,$(runs),\
    $(if $(wildcard $(subst %,$r,$(at))$(NVTX_CSV)),$r))))
.INTERMEDIATE: $(nvtx_runs:%=%/$(h)nvtx.facts) \
    $(foreach r,$(skipped),$(addprefix $r/$(h),kernels.facts launchlines gpu))

# An empty kernel-exec CSV beside a GPU trace with kernels is a failed
# export: the run fails before its operations are classified.
%/$(h)kernels.facts: %/$(h)raw $(BIN)/tally
	$(BIN)/tally -k kernel -p kernels. -o $@ $<
failed_export = h3report: $(call shownname,$(kexec_csv)): empty (0 bytes), \
    but the GPU trace $(call shownname,$(gpu_csv)) has kernels: a failed \
    export (nsys leaves a kernel-exec trace empty only for a run without \
    kernels); export it again
$(skipped:%=%/$(h)launchlines): %/$(h)launchlines: $(at)$(KERNEL_CSV) \
    %/$(h)kernels.facts
	$(if $(call counts,kernels,$*/$(h)kernels.facts),$(call \
	    message,$(failed_export)),$(file >$@))
$(skipped:%=%/$(h)gpu): %/$(h)gpu: %/$(h)launchlines

# The NVTX facts: the ranges (none where an export has no NVTX table),
# the launches read again for their threads where there are ranges, and
# inrange's join of the two, empty without ranges.
%/$(h)ranges: $(at)$(SQLITE_NAME) $(BIN)/nvtxranges %/$(h)start \
    | %/$(h)export.facts
	$(BIN)/nvtxranges -o $@ -- $(export_arg)
ifneq ($(NVTX_CSV),)
%/$(h)ranges: $(at)$(NVTX_CSV) $(BIN)/nvtxranges %/$(h)start | %/$(h)raw
	$(BIN)/nvtxranges -o $@ -- $(nvtx_arg)
endif
# $(call launches,TRACE): the recipe of the launches of TRACE.
launches = $(if $(file <$<),$(BIN)/nvtxranges -t launch -o $@ -- $1,$(file \
    >$@))
%/$(h)launches: %/$(h)ranges $(at)$(SQLITE_NAME) $(BIN)/nvtxranges
	$(call launches,$(export_arg))
%/$(h)launches: %/$(h)ranges $(at)$(KERNEL_CSV) $(BIN)/nvtxranges
	$(call launches,$(kexec_arg))
%/$(h)nvtx.facts: %/$(h)ranges %/$(h)launches $(BIN)/inrange $(RULES)
	$(BIN)/inrange -x -r $(RULES) -o $@ -- $< $*/$(h)launches

# $(call products_need,RUNS,FILE[,DIR]): each product of the runs in the
# variable RUNS (in DIR under each) also needs the hidden FILE, so that
# the report's recipe finds it in $^ whichever product make takes first.
# (Escaped: a run's name may hold an =.)
products_need = $(foreach p,$(products),$(eval $$($1:%=%$3/$p): %/$p: \
    %/$$(h)$2))
$(call products_need,nvtx_runs,nvtx.facts)

# The fact files that every report reads.
facts = source gpu gaps idle kstream top account
# With RECORD_KEY, reportjson then writes report.inputs, the record
# (h3prof(5)) of that key, of the files RECORD_INPUTS and of the products.
# The inputs are quoted by a substitution: make runs reportjson without a shell.
RECORD_KEY ?=
RECORD_INPUTS ?=
record = $(if $(RECORD_KEY),-R $(@D)/report.inputs -k $(call \
    quote,$(RECORD_KEY)) $(patsubst %,-i '%',$(subst ','\'',$(RECORD_INPUTS))))
# $(call report,TRACE,EXPORTFACTS[,NOWORK]): the report's recipe, of the
# facts in $(@D); reportjson puts the page's tables in place (-p), all
# dated from the start (-s), the report last.  No GPU operations: it fails
# (by the recipe in the variable NOWORK, if given).  Only a trace to warn
# about (several devices or processes, graph launches) needs a shell, and
# only its report has the device and export facts.
report = $(if $(call counts,gpu,$(@D)/$(h)gpu.facts),$(if $(strip $(call \
    warnings,$1,$2)),printf '%s\n' $(call warnings,$1,$2) >&2 && exec \
    )$(BIN)/reportjson -x \
    -r $(RULES) -s $(@D)/$(h)start -P $(h) $(pages:%=-p $(@D)/%) \
    -o $(@D)/report.json $(record) $(facts:%=$(@D)/$(h)%.facts) \
    $(filter $(@D)/$(h)nvtx.facts $(@D)/$(h)scope.facts,$^) \
    $(if $(call several,$2)$(filter-out 0,$(call graph_launches,$2)), \
    $(@D)/$(h)device.facts $2) $(@D)/$(h)config.facts,$(if $3,$($3),$(call \
    message,h3report: $1: no GPU operations in the trace)))

# The report and the page's tables, of an export or else of a pair: one
# rule of four targets, so that an interrupted make removes all of them.
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

# --- A scope -------------------------------------------------------------
# A scoped run R is reduced in R/TAG, its files there named as a run's are
# in R.  The rules above make those that do not depend on the scope (stem
# R/TAG), the rules below the rest (stem R): make prefers the shorter stem.
ifneq ($(tag),)
# The scope's directory, of the stem R.
sd = $*/$(tag)
.INTERMEDIATE: $(foreach s,$(scopes),$(addprefix $s/$(h),ranges launches \
    selected outside gpu memory launchlines bystart idlein $(facts:%=%.facts) \
    device.facts config.facts nvtx.facts scope.facts export.facts))

# The ranges, sorted by start (-s): of the NVTX CSV beside the pair, or of
# the export.  A pair without one, or with an empty kernel-exec CSV, has
# none, which RANGE cannot scope by.
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
%/$(tag)/$(h)ranges: $(at)$(SQLITE_NAME) $(BIN)/nvtxranges %/$(tag)/$(h)start
	$(BIN)/nvtxranges -s -o $@ -- $(export_arg)
$(skipped:%=%/$(tag)/$(h)ranges): %/$(tag)/$(h)ranges: \
    $(at)$(KERNEL_CSV) %/$(tag)/$(h)start
	$(no_ranges)

# $(call scope_launches,TRACE,NVTX): the recipe of the launches, sorted,
# read where NVTX (as a message shows it) has ranges; RANGE fails if not.
scope_launches = $(if $(file <$<),$(BIN)/nvtxranges -s -t launch -o $@ -- \
    $1,$(if $(RANGE),$(call message,h3report: $2: no NVTX ranges to scope \
    by -R),$(file >$@)))
%/$(tag)/$(h)launches: %/$(tag)/$(h)ranges $(at)$(KERNEL_CSV) $(BIN)/nvtxranges
	$(call scope_launches,$(kexec_arg),$(call shownname,$(nvtx_csv)))
%/$(tag)/$(h)launches: %/$(tag)/$(h)ranges $(at)$(SQLITE_NAME) \
    $(BIN)/nvtxranges
	$(call scope_launches,$(export_arg),$(call shownname,$(export_db)))
$(skipped:%=%/$(tag)/$(h)launches): %/$(tag)/$(h)launches: %/$(tag)/$(h)ranges
	$(file >$@)

ifneq ($(RANGE),)
# RANGE: the GPU work launched in the matching ranges (inrange -l), with
# an export's copies and memsets (a kernel-exec CSV has kernels only), and
# the holes between ranges, which idle gaps must not span.  No memory
# lines or graph launches: those are of the whole trace.
%/$(tag)/$(h)selected %/$(tag)/$(h)outside: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)launches $(BIN)/inrange $(RULES)
	$(BIN)/inrange -l -m '$(RANGE)' -s $(or $(SKIP),0) -r $(RULES) \
	    -g $(sd)/$(h)outside -o $(sd)/$(h)selected -- \
	    $(sd)/$(h)ranges $(sd)/$(h)launches
# The recipe that fails a scope of no work.
no_work = printf "h3report: no GPU work launched in the NVTX ranges \
    matching '%s'%s\n" '$(RANGE)' '$(if $(SKIP), after the first $(SKIP))' \
    >&2; exit 1

# Its operations classified in launch order (-l), as tally and topkernels
# count them; then in start order, where a scope of no work fails, before
# any product (the kernel table waits for it).
%/$(tag)/$(h)gpu: %/$(tag)/$(h)selected $(BIN)/classify $(RULES)
	$(BIN)/classify -l -x -r $(RULES) -o $@ -- $<
%/$(tag)/$(h)bystart: %/$(tag)/$(h)gpu %/$(tag)/$(h)gpu.facts \
    $(BIN)/classify $(RULES)
	$(if $(call counts,gpu,$(sd)/$(h)gpu.facts),$(BIN)/classify -s -x \
	    -r $(RULES) -o $@ -- $<,$(no_work))
$(scopes:%=%/$(h)kernels.tsv): %/$(h)kernels.tsv: %/$(h)bystart

# The filters that need start order.  Idle is idle inside the ranges: the
# holes are merged in (idlein) before the idle gaps are counted.
%/$(tag)/$(h)gaps.facts: %/$(tag)/$(h)bystart $(BIN)/gapstat
	$(BIN)/gapstat -k kernel -p gaps. -o $@ $<
%/$(tag)/$(h)idlein: %/$(tag)/$(h)bystart %/$(tag)/$(h)outside \
    $(BIN)/classify $(RULES)
	$(BIN)/classify -s -x -r $(RULES) -o $@ -- $< $(sd)/$(h)outside
%/$(tag)/$(h)idle.facts %/$(tag)/$(h)gapbins.tsv: %/$(tag)/$(h)idlein \
    $(BIN)/gapstat
	$(BIN)/gapstat -u -q -B $(sd)/$(h)gapbins.tsv -p idle. \
	    -o $(sd)/$(h)idle.facts $<
# The account of the selected launch lines, without copies' bytes.
%/$(tag)/$(h)account.facts %/$(tag)/$(h)device.facts: \
    %/$(tag)/$(h)bystart %/$(tag)/$(h)selected $(BIN)/account $(RULES)
	$(BIN)/account -p account. -r $(RULES) -l $(sd)/$(h)selected \
	    -a api. -i overlap. -u kunion. -d $(sd)/$(h)device.facts \
	    -f $(sd)/$(h)account.facts -- $<
%/$(tag)/$(h)strip.tsv: %/$(tag)/$(h)bystart %/$(tag)/$(h)gpu.facts \
    $(BIN)/timeline
	$(BIN)/timeline -H -w 960 \
	    -l $(or $(call fact,gpu.span_ns,$(sd)/$(h)gpu.facts),0) -o $@ -- $<
# The NVTX facts: each instance of the matching names, and the scope.
%/$(tag)/$(h)nvtx.facts: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)launches $(BIN)/inrange $(RULES)
	$(BIN)/inrange -x -r $(RULES) -m '$(RANGE)' -s $(or $(SKIP),0) \
	    -o $@ -- $< $(sd)/$(h)launches
else
# WINDOW: every GPU operation that starts in it, copies, memsets and graph
# launches too, with its memory and launch lines, taken from the run's by
# inwindow; the rest as for the run (a window of 0%:100% is the run).
%/$(tag)/$(h)gpu: %/$(h)gpu $(BIN)/inwindow
	$(BIN)/inwindow -w $(WINDOW) -o $@ -- $<
%/$(tag)/$(h)memory: %/$(h)gpu %/$(h)memory $(BIN)/inwindow
	$(BIN)/inwindow -w $(WINDOW) -o $@ -- $< $*/$(h)memory
%/$(tag)/$(h)launchlines: %/$(h)gpu %/$(h)launchlines $(BIN)/inwindow
	$(BIN)/inwindow -l -w $(WINDOW) -o $@ -- $< $*/$(h)launchlines
%/$(tag)/$(h)scope.facts: %/$(h)gpu $(BIN)/inwindow
	$(BIN)/inwindow -f -w $(WINDOW) -o $@ -- $<
# The recipe that fails a window of no work.
no_work = printf '%s\n' 'h3report: no GPU work starts in the window \
    $(WINDOW)' >&2; exit 1

# The launches in the window and their NVTX facts, empty without ranges.
%/$(tag)/$(h)selected: %/$(tag)/$(h)ranges %/$(tag)/$(h)launches \
    %/$(h)gpu $(BIN)/inwindow
	$(if $(file <$<),$(BIN)/inwindow -l -w $(WINDOW) -o $@ -- \
	    $*/$(h)gpu $(sd)/$(h)launches,$(file >$@))
%/$(tag)/$(h)nvtx.facts: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)selected $(BIN)/inrange $(RULES)
	$(if $(file <$<),$(BIN)/inrange -x -r $(RULES) -o $@ -- $< \
	    $(sd)/$(h)selected,$(file >$@))
endif

# The traces' paths and an export's facts, as for the run.
%/$(tag)/$(h)source.facts: $(at)$(GPU_CSV) $(at)$(KERNEL_CSV) \
    %/$(tag)/$(h)start
	$(call sourcefacts,$(call factvalue,$(gpu_csv)),$(call \
	    factvalue,$(kexec_csv)))
%/$(tag)/$(h)source.facts: $(at)$(SQLITE_NAME) %/$(tag)/$(h)start
	$(call sourcefacts,$(call factvalue,$(export_db)),$(call \
	    factvalue,$(export_db)))
%/$(tag)/$(h)export.facts: $(at)$(SQLITE_NAME) $(BIN)/exportinfo \
    %/$(tag)/$(h)start | %/$(tag)/$(h)ranges
	$(BIN)/exportinfo -o $@ -- $(export_arg)

# The report and the page's tables, of the scope's facts; an export's
# facts (its devices, processes and graph launches) where it has no pair.
scope_exports := $(foreach r,$(export_runs),$(if $(wildcard \
    $(subst %,$r,$(at))$(GPU_CSV)),,$r))
$(call products_need,scope_exports,export.facts,/$(tag))
# The trace the report names, and the export's facts it reads.
is_export = $(filter $*,$(scope_exports))
scope_trace = $(call shownname,$(if $(is_export),$(export_db),$(gpu_csv)))
scope_exportfacts = $(if $(is_export),$(sd)/$(h)export.facts)
%/$(tag)/report.json %/$(tag)/kernels.tsv %/$(tag)/strip.tsv \
    %/$(tag)/gapbins.tsv: $(subst %/,%/$(tag)/,$(report_facts)) \
    %/$(tag)/$(h)nvtx.facts $(if $(WINDOW),%/$(tag)/$(h)scope.facts)
	$(call report,$(scope_trace),$(scope_exportfacts),no_work)
endif

# --- The facts of a run, for h3facts ------------------------------------
#
# Two goals that only h3facts asks for, of a run R or of its scope R/TAG.
# R/facts holds what h3facts -x prints: the facts the report is made of,
# without the run's configuration.  R/reference.facts holds what h3facts
# prints without -x: the facts of the reference's report (reportjson -t).
# A scope without GPU work fails here, as its report would.
%/facts: %/$(h)source.facts %/$(h)gpu.facts %/$(h)gaps.facts \
    %/$(h)idle.facts %/$(h)kstream.facts %/$(h)top.facts \
    %/$(h)account.facts %/$(h)device.facts
	$(if $(call no_scope_work,$(@D)/$(h)gpu.facts),$(no_work),$(call \
	    write_facts,$(facts:%=$(@D)/$(h)%.facts) $(filter \
	    %/$(h)nvtx.facts %/$(h)scope.facts,$^) $(if $(call \
	    several,$(facts_export))$(filter-out 0,$(call \
	    graph_launches,$(facts_export))),$(@D)/$(h)device.facts \
	    $(facts_export)))$(if $(strip $(facts_warnings)),printf '%s\n' \
	    $(facts_warnings) >&2))

%/reference.facts: %/$(h)source.facts %/$(h)reference.gpu.facts \
    %/$(h)gaps.facts %/$(h)api.facts
	$(if $(call no_scope_work,$(@D)/$(h)reference.gpu.facts),$(no_work),$(call \
	    write_facts,$^))

# $(call write_facts,FILES): the fact files FILES, one after another,
# written to $@ by make itself (no process).  $(file <) takes off the
# newline that ends each file, and $(file >>) puts it back; an empty
# file adds nothing.
write_facts = $(file >$@)$(foreach f,$1,$(if $(file <$f),$(file \
    >>$@,$(file <$f))))

# The facts that only some runs have, named for the runs and scopes whose
# reports take them: the NVTX ranges' (of a pair with an NVTX CSV, of an
# export, of a scope), a window's, an export's.  The export's NVTX facts,
# named here, are intermediate files only if said so.
$(nvtx_runs:%=%/facts): %/facts: %/$(h)nvtx.facts
$(export_runs:%=%/facts): %/facts: %/$(h)export.facts %/$(h)nvtx.facts
.INTERMEDIATE: $(export_runs:%=%/$(h)nvtx.facts)
$(if $(tag),$(runs:%=%/$(tag)/facts)): %/facts: %/$(h)nvtx.facts \
    $(if $(WINDOW),%/$(h)scope.facts)
$(if $(tag),$(scope_exports:%=%/$(tag)/facts)): %/facts: %/$(h)export.facts

# $(call no_scope_work,FACTS): nonempty for a scope whose GPU facts,
# the file FACTS, count no operations (an unscoped run's facts are
# printed all the same).
no_scope_work = $(if $(tag),$(if $(call counts,gpu,$1),,yes))
# The export's facts of the recipe, if any, and h3report's warnings of
# its trace.
facts_export = $(filter %/$(h)export.facts,$^)
facts_warnings = $(call warnings,$(call shownname,$(if \
    $(facts_export),$(export_db),$(gpu_csv))),$(facts_export))

# The reference classifies the communication kernels by the rules after
# theirs (classify without -x, which replaces the categories of -x).  Its
# union of the launch calls (api.*) and their overlap with the kernels
# (overlap.*) are copied by make from the time account's facts, which
# gives them of its pass.
%/$(h)reference.gpu: %/$(h)gpu $(BIN)/classify $(RULES)
	$(BIN)/classify -r $(RULES) -o $@ $<

%/$(h)reference.gpu.facts: %/$(h)reference.gpu $(BIN)/tally
	$(BIN)/tally -p gpu. -o $@ $<

api_facts := api.count api.ns overlap.count overlap.ns
%/$(h)api.facts: %/$(h)account.facts
	$(file >$@)$(foreach k,$(api_facts),$(file >>$@,$k$(tab)$(call \
	    fact,$k,$<)))
