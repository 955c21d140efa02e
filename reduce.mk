# reduce.mk: the reduction of a run by make (issue 19's "make runs the
# filters"): the extended report of a run (what h3report -o report.json -k
# kernels.tsv -p makes), its filters chained by pattern rules and started
# by make itself, without a shell between them.
#
#	make -r -f reduce.mk RUNS='dir ...' [TRACEDIR=dir] [H3PROF_BIN=dir]
#	    [H3PROF_RULES=file] [CSV_PREFIX=profile_] [GPU_CSV=name]
#	    [KERNEL_CSV=name] [NVTX_CSV=name] [SQLITE_NAME=profile.sqlite]
#	    [RUN_NAME=name] [RUN_CONFIG=file] [SKIPPED='dir ...']
#	    [HIDDEN_PREFIX=.report.] [KEEP_OLD=yes]
#	    [RECORD_KEY=key [RECORD_INPUTS='file ...']]
#	    [RANGE=pattern [SKIP=n] | WINDOW=start:end] [SCOPE_TAG=tag]
#	    [GPU_TRACE=path [KERNEL_TRACE=path] [NVTX_TRACE=path]] [-j N]
#
# Each run directory of RUNS gets report.json, kernels.tsv, strip.tsv and
# gapbins.tsv (h3report's, which runs these rules for it), of its
# traces: a CSV pair, GPU_CSV and KERNEL_CSV (CSV_PREFIXcuda_gpu_trace.csv
# and CSV_PREFIXcuda_kern_exec_trace.csv, as newer nsys names them;
# PREFIX_gputrace.csv and PREFIX_kernexectrace.csv, as 2022.4 does), with or
# without NVTX_CSV (CSV_PREFIXnvtx_pushpop_trace.csv; empty: none); or,
# in its place, an nsys SQLite export, SQLITE_NAME, with NVTX ranges or
# without.  A run may have both (make profile leaves both).  Then the
# GPU operations and memory lines are read from the pair, so the
# reference figures are the pair's; the launch lines, NVTX ranges,
# devices and processes are read from the export, whose API calls that
# launch copies and memsets (which the kernel-exec trace lacks) tell the
# time account why the GPU waited before them.  The traces are beside
# the products, or in TRACEDIR (for
# one run: pipeline.mk reduces each run by a make of its own).  The run's
# name is RUN_NAME, or the last part of its directory's path, and its
# configuration file RUN_CONFIG (runconfig -c), if any.  dev/makerun.mk
# runs it on run directories; pipeline.mk, for each run it reduces;
# h3report, for the run of the traces it is given, named in GPU_TRACE,
# KERNEL_TRACE and NVTX_TRACE (see below).
#
# RANGE, SKIP and WINDOW scope the reports as in pipeline.mk (see there),
# each run's h3report -R RANGE [-s SKIP] or -w WINDOW: the GPU work
# launched in the NVTX ranges whose name matches the shell pattern RANGE,
# after the first SKIP instances of each, or that starting in the window
# START:END.  A scoped run's products go to RUN/scope.TAG/, as there;
# SCOPE_TAG is that TAG, as a caller that has checked the scope (as
# pipeline.mk has) names it: then neither is done again, which takes a
# shell or two.
#
# How it is cut: one rule a filter, each writing its outputs with -o (or
# -f, -B, -S, -U), which a filter puts in place whole or not at all, so
# that no recipe needs a redirection and make execs every filter itself
# (a recipe without shell syntax is run without /bin/sh).  tally and
# gapstat each write two sets of facts from one pass over the GPU
# operations.  What passes between the filters lies in hidden files of the
# run directory, .report.NAME (or HIDDEN_PREFIX NAME: pipeline.mk gives
# each make its own, so that two makes of one run at once keep apart):
# they are intermediate files of the chain, which make removes once the
# goals are made, and no pattern of runs takes them.  The pair and the
# export have readers of their own, and the rest is shared: of two
# pattern rules for one file make takes the first whose prerequisites are
# there.  The few decisions made of the facts (the span of the strip, a
# run without GPU work, several devices or processes, CUDA graph
# launches, whether an export has NVTX ranges) are make's, from $(file <)
# in a recipe, which make expands only once its prerequisites are made.
.DELETE_ON_ERROR:
.SUFFIXES:
SHELL := /bin/sh
export LC_ALL := C

# (Not PREFIX, BIN or RULES, which the environment may hold: perf exports
# PREFIX=/usr.)
reduce_dir := $(dir $(lastword $(MAKEFILE_LIST)))
H3PROF_BIN ?= $(reduce_dir)build/bin
H3PROF_RULES ?= $(reduce_dir)rules/h3.rules
CSV_PREFIX ?= profile_
GPU_CSV ?= $(CSV_PREFIX)cuda_gpu_trace.csv
KERNEL_CSV ?= $(CSV_PREFIX)cuda_kern_exec_trace.csv
NVTX_CSV ?= $(CSV_PREFIX)nvtx_pushpop_trace.csv
SQLITE_NAME ?= profile.sqlite
TRACEDIR ?=
RUN_NAME ?=
RUN_CONFIG ?=
BIN := $(H3PROF_BIN)
RULES := $(H3PROF_RULES)
RUNS ?=
HIDDEN_PREFIX ?= .report.
SCOPE_TAG ?=

# --- The scope: RANGE [SKIP] or WINDOW, as pipeline.mk takes them -------
# Checked by scope.mk, as pipeline.mk checks them, before any run is
# reduced, which names the scope's directory, tag, as pipeline.mk names
# it; or SCOPE_TAG, where the caller has checked the scope and named it.
h3_scopetag := $(SCOPE_TAG)
include $(reduce_dir)mk/scope.mk
tag := $(h3_scopetag)
ifneq ($(SCOPE_TAG),)
ifeq ($(RANGE)$(WINDOW),)
$(error SCOPE_TAG=$(SCOPE_TAG) without RANGE or WINDOW: it names a scope's \
    directory)
endif
endif

# The hidden files' prefix, h in the rules: a name's start, of letters,
# digits and ._- (the recipes carry it unquoted), as SCOPE_TAG is.
h := $(HIDDEN_PREFIX)
namechars := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F \
    G H I J K L M N O P Q R S T U V W X Y Z $(h3_digits) . _ -
# $(call namelike,VAR): an error unless VAR's value is one word of namechars.
namelike = $(if $(call h3_without,$(namechars),$($1))$(filter-out \
    1,$(words $($1))),$(error $1=$($1): not $(if $(filter \
    HIDDEN_PREFIX,$1),the start of )a file name of letters, digits and ._-))
$(call namelike,HIDDEN_PREFIX)
$(if $(SCOPE_TAG),$(call namelike,SCOPE_TAG))

# Where a run's traces are: as a prerequisite, at, the run directory's
# pattern (beside the products) or TRACEDIR; in a recipe, traces.
at := $(if $(TRACEDIR),$(patsubst %/,%,$(TRACEDIR))/,%/)
traces = $(subst %,$*,$(at))

# A run's report and the page's products, each a goal of its own: named
# by a goal, none is an intermediate file that make would remove.
products := report.json kernels.tsv strip.tsv gapbins.tsv
runs := $(patsubst %/,%,$(RUNS))
all: $(foreach r,$(runs),$(products:%=$r$(tag:%=/%)/%))
.PHONY: all
# A rule's other outputs, and the ranges, which two rules of the chain
# take, make keeps: named here, they are removed with the rest.
.INTERMEDIATE: $(foreach r,$(runs),$(addprefix $r/$(h),memory \
    device.facts ops export.facts ranges gpu.facts kstream.facts gaps.facts \
    idle.facts))

empty :=
tab := $(empty)	$(empty)
, := ,
space := $(empty) $(empty)

# The filters' messages name the trace that a hidden file was made of,
# not the hidden file, which is gone once the run is made: make puts in
# each filter's environment (no process) H3PROF_SOURCES, NAME<tab>TRACE
# pairs (filters/lib's source_name), of the run of the recipe, R (of the
# stem R, or R/TAG), its pair's traces or else its export, each as the
# caller named it where it did (GPU_TRACE, KERNEL_TRACE, NVTX_TRACE).
source_dir = $(subst %,$(if $(tag),$(patsubst %/$(tag),%,$*),$*),$(at))
# $(call source,NAME,GIVEN): the run's trace NAME of a pair (GIVEN, if
# given), or its export.
source = $(if $(wildcard $(source_dir)$(GPU_CSV)),$(or $2,$(call \
    shown,$(source_dir)$1)),$(or $(GPU_TRACE),$(call \
    shown,$(source_dir)$(SQLITE_NAME))))
# $(call sources,NAMES,TRACE): NAME<tab>TRACE<tab> for each hidden file
# of NAMES (one space apart), which TRACE may hold spaces.
sources = $(h)$(subst $(space),$(tab)$2$(tab)$(h),$1)$(tab)$2$(tab)
export H3PROF_SOURCES = $(call sources,raw ops memory gpu bystart \
    idlein,$(call source,$(GPU_CSV),$(GPU_TRACE)))$(call \
    sources,launchlines launches selected,$(call \
    source,$(KERNEL_CSV),$(KERNEL_TRACE)))$(call sources,ranges \
    outside,$(call source,$(NVTX_CSV),$(NVTX_TRACE)))

# $(call fact,KEY,FILE): the value of KEY in the fact file FILE (one word).
fact = $(patsubst $1=%,%,$(filter $1=%,$(subst $1$(tab),$1=,$(file <$2))))
# $(call devices,FILE): how many devices account's -d facts in FILE name
# (keys device.ID.count, an ID without a dot).
devices = $(words $(foreach k,$(filter device.%.count,$(file <$1)),\
    $(if $(findstring .,$(k:device.%.count=%)),,$k)))

# A run's traces, named as the report and the messages name them: in the
# run's directory (or TRACEDIR) by the rules' names; or, for one run, as
# the caller was given them (h3report), GPU_TRACE (a GPU trace CSV, or an
# export), KERNEL_TRACE and NVTX_TRACE, which may be any path: the run's
# directory then holds links of the rules' names to them, for make's
# prerequisites.  (The caller doubles each $ in these paths, because make
# expands a value given on its command line.)
gpu_csv = $(or $(GPU_TRACE),$(traces)$(GPU_CSV))
kexec_csv = $(or $(KERNEL_TRACE),$(traces)$(KERNEL_CSV))
export_db = $(or $(GPU_TRACE),$(traces)$(SQLITE_NAME))
nvtx_csv = $(or $(NVTX_TRACE),$(traces)$(NVTX_CSV))
# A newline, to tell a path that holds one.
define nl


endef
# $(call shword,TEXT,VAR): TEXT, the value of the setting VAR, as one
# word of a recipe's command: as it is where it needs no quoting (then
# make execs the filter without a shell), else quoted for the shell; one
# with a newline, which would split the recipe, as the shell's "$VAR", of
# the setting exported.
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

# The start of a run's reduction, made before its readers by make itself
# (no process): the products get its time (reportjson -s), as h3report's
# get that of its start, so that a trace written again while it was read
# is newer than they are and they are made again.  The products of
# before, and their record (RECORD_KEY), stale, go now, so that a run
# that fails leaves none; with KEEP_OLD=yes they stay until the new ones
# replace them, whole, as pipeline.mk has it: it removes them itself
# where the run fails, and a summary made meanwhile (by another make of
# the sweep) reads them.
KEEP_OLD ?=
old_products = $(if $(KEEP_OLD),,$(wildcard $(products:%=$(product_dir)/%) \
    $(if $(RECORD_KEY),$(product_dir)/report.inputs)))
# Where the products of the start $@ go: its directory, but for the
# start of a run a scoped make reads, whose products are not its own.
product_dir = $(if $(tag),$(filter %/$(tag),$(@D)),$(@D))
start = $(file >$@)$(if $(old_products),rm -f -- $(old_products))
%/$(h)start:
	$(start)

# The hidden files of a run that a make killed (kill -9) left, its stamp
# among them, which make writes first, go before this make looks at the
# run: make would keep those it found there, and an old stamp would date
# the products from then.  Looked for outside make's cache of the
# directories (realpath, and a glob of the shell), which would otherwise
# hold them.  Only then is a shell started; not under -n or -q.
flags := $(firstword -$(MAKEFLAGS))
quote = '$(subst ','\'',$1)'
ifeq ($(findstring n,$(flags))$(findstring q,$(flags)),)
left := $(dir $(realpath $(addsuffix /$(h)start,$(runs) \
    $(if $(tag),$(runs:%=%/$(tag))))))
cleaned := $(if $(left),$(shell rm -f -- $(foreach d,$(left),$(call \
    quote,$d)$(h)*)))
endif
# The page's products, which the filters write under hidden names and the
# report puts in place with it, and the stamp, are intermediate files.
pages := kernels.tsv strip.tsv gapbins.tsv
.INTERMEDIATE: $(foreach r,$(runs) $(if $(tag),$(runs:%=%/$(tag))),\
    $(addprefix $r/$(h),start $(pages)))

# The readers: each trace read once (the export's launch lines first,
# where a run holds both), its lines written in start order,
# sorted where the trace is not (-s).  The launch lines of the kernel-exec
# trace, in place of its launch API intervals (-L), whose facts the
# account gives; the GPU operations with the memory lines of the copies,
# kernels classified.  Each reader of a run waits for its first (|
# .report.raw of a pair, .report.export.facts of an export), which says
# so where the trace is broken: a failed run tells its error once, even
# under -j -k.
#
# The readers of an export, to the same lines.  Its CUDA graph launches
# (--cuda-graph-trace=graph), which no kernel table holds, count as GPU
# operations of kind other, merged in by start, as h3facts counts them:
# exportinfo -g -i, one pass, no shell.  Without any, the operations are
# those read, under a second name (a hard link, no copy).
%/$(h)launchlines: $(at)$(SQLITE_NAME) $(BIN)/sqlite2intervals \
    %/$(h)start | %/$(h)export.facts
	$(BIN)/sqlite2intervals -b -t launch -L -o $@ -- $(export_arg)

%/$(h)ops %/$(h)memory: $(at)$(SQLITE_NAME) $(BIN)/sqlite2intervals \
    %/$(h)start | %/$(h)export.facts
	$(BIN)/sqlite2intervals -t gpu -m $*/$(h)memory -o $*/$(h)ops \
	    -- $(export_arg)

%/$(h)export.facts: $(at)$(SQLITE_NAME) $(BIN)/exportinfo \
    %/$(h)start
	$(BIN)/exportinfo -o $@ -- $(export_arg)

# The readers of a pair.
%/$(h)launchlines: $(at)$(KERNEL_CSV) $(BIN)/csv2intervals %/$(h)start \
    | %/$(h)raw
	$(BIN)/csv2intervals -b -s -L -o $@ -- $(kexec_arg)

%/$(h)raw %/$(h)memory: $(at)$(GPU_CSV) $(BIN)/csv2intervals %/$(h)start
	$(BIN)/csv2intervals -s -m $*/$(h)memory -o $*/$(h)raw \
	    -- $(gpu_arg)

# The export's operations, where the pair's are not (a rule after the
# pair's: its prerequisite, named .INTERMEDIATE, would win it otherwise).
has_graphs = $(call fact,graphs.launches,$*/$(h)export.facts)
with_graphs = $(BIN)/exportinfo -g -i $< -o $@ -- $(export_arg)
%/$(h)raw: %/$(h)ops %/$(h)export.facts $(BIN)/exportinfo
	$(if $(has_graphs),$(with_graphs),ln -f -- $< $@)

%/$(h)gpu: %/$(h)raw $(BIN)/classify $(RULES)
	$(BIN)/classify -x -r $(RULES) -o $@ $<

# The filters of the GPU operations.  gapstat, account and timeline need
# them sorted by start, as the readers write them.  The counts of all
# operations and, from the same pass (-S), of the kernels by stream.
%/$(h)gpu.facts %/$(h)kstream.facts: %/$(h)gpu $(BIN)/tally
	$(BIN)/tally -p gpu. -o $*/$(h)gpu.facts -P kstream. \
	    -S $*/$(h)kstream.facts $<

# The launch gaps of the kernels and, from the same pass (-U), the idle
# facts and the idle gaps' bins of the page.
%/$(h)gaps.facts %/$(h)idle.facts %/$(h)gapbins.tsv: %/$(h)gpu \
    $(BIN)/gapstat
	$(BIN)/gapstat -k kernel -p gaps. -o $*/$(h)gaps.facts -P idle. \
	    -U $*/$(h)idle.facts -B $*/$(h)gapbins.tsv $<

# The kernel table of every kernel and the top.* facts, its first ten rows.
%/$(h)top.facts %/$(h)kernels.tsv: %/$(h)gpu $(BIN)/topkernels
	$(BIN)/topkernels -p top. -f $*/$(h)top.facts \
	    -o $*/$(h)kernels.tsv $<

# The time account, with the figures of merge -t, intersect -t and devstat
# of the same pass.
%/$(h)account.facts %/$(h)device.facts: %/$(h)gpu \
    %/$(h)launchlines %/$(h)memory $(BIN)/account $(RULES)
	$(BIN)/account -p account. -r $(RULES) -l $*/$(h)launchlines \
	    -a api. -i overlap. -u kunion. -d $*/$(h)device.facts \
	    -m $*/$(h)memory -f $*/$(h)account.facts -- $<

# The timeline strip of the kernels across the span, as wide as the page.
%/$(h)strip.tsv: %/$(h)gpu %/$(h)gpu.facts $(BIN)/timeline
	$(BIN)/timeline -H -w 960 \
	    -l $(or $(call fact,gpu.span_ns,$*/$(h)gpu.facts),0) \
	    -o $@ -- $<

# The run's name: RUN_NAME, or the last part of its directory's physical
# path; its configuration file, RUN_CONFIG, if any.  (Each quoted where
# it must be, for the shell that make then runs the recipe with.)
run_name = $(or $(RUN_NAME),$(notdir $(realpath $*)))
%/$(h)config.facts: $(BIN)/runconfig %/$(h)start
	$(BIN)/runconfig $(if $(RUN_CONFIG),-c $(call \
	    shword,$(RUN_CONFIG),RUN_CONFIG) )-o $@ -- $(call \
	    shword,$(run_name),RUN_NAME)

# The traces as given, written by make itself (no process), escaped as
# fact values.  An export is both traces.  (A path that starts with - is
# given as ./-, which is no option, and told as it is.)
shown = $(call factvalue,$(if $(filter ./-%,$(firstword $1)),$(patsubst \
    ./-%,-%,$1),$1))
%/$(h)source.facts: $(at)$(GPU_CSV) $(at)$(KERNEL_CSV) %/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call shown,$(gpu_csv)))$(file >>$@,source.kernel_exec_trace$(tab)$(call shown,$(kexec_csv)))

%/$(h)source.facts: $(at)$(SQLITE_NAME) %/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call shown,$(export_db)))$(file >>$@,source.kernel_exec_trace$(tab)$(call shown,$(export_db)))

# What the report of $* says beyond the facts, of its device facts and
# $(call ...,EXPORTFACTS), the export's (none of a pair): the devices, the
# processes doing GPU work (0 unless an export says), the CUDA graph
# launches and those of them whose kernels the trace lacks.
ndevices = $(call devices,$(@D)/$(h)device.facts)
nprocesses = $(or $(if $1,$(call fact,processes,$1)),0)
graph_launches = $(or $(if $1,$(call fact,graphs.launches,$1)),0)
graphs_hidden = $(or $(if $1,$(call fact,graphs.hidden,$1)),0)
# Nonempty for a trace of several devices or processes.
several = $(filter-out 0 1,$(ndevices) $(call nprocesses,$1))
# $(call warnings,TRACE,EXPORTFACTS): h3report's warnings of the trace
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

# Which runs take the rules below is decided when make reads the runs.
kexec_of = $(1:%=$(at)$(KERNEL_CSV))
# A kernel-exec trace file of 0 bytes, as nsys leaves one it skipped for a
# run without kernels: make cannot see a file's size, so one find names
# those of all the runs at once (exec'd by make itself where the paths
# need no quoting, as a recipe is).
# (A caller that has seen the sizes names those runs in SKIPPED, and no
# find is run: pipeline.mk, whose shell tests a size without a process.)
ifeq ($(origin SKIPPED),command line)
skipped := $(SKIPPED)
else
kexec_files := $(abspath $(wildcard $(call kexec_of,$(runs))))
empty_kexecs := $(if $(kexec_files),$(shell find -L $(kexec_files) \
    -maxdepth 0 -type f -empty))
skipped := $(foreach r,$(runs),\
    $(if $(filter $(abspath $(call kexec_of,$r)),$(empty_kexecs)),$r))
endif
# NVTX ranges: an nvtx_pushpop_trace CSV beside the kernel-exec trace, but
# for an empty one, which launched nothing.
nvtx_runs := $(if $(NVTX_CSV),$(filter-out $(skipped),$(foreach r,$(runs),\
    $(if $(wildcard $(subst %,$r,$(at))$(NVTX_CSV)),$r))))
.INTERMEDIATE: $(nvtx_runs:%=%/$(h)nvtx.facts) \
    $(foreach r,$(skipped),$(addprefix $r/$(h),kernels.facts \
    launchlines gpu))

# An empty kernel-exec trace has no launches, and its run no kernels: a
# GPU trace with kernels beside it is a failed export, and the run fails
# before its GPU operations are classified, so that none of its products
# is made.
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

# The NVTX facts: the ranges, of the pair's NVTX CSV or of the export
# (none where it has no NVTX table, or an empty one); the launches of the
# kernel-exec trace read again for their threads (which the launch API
# intervals do not carry), only where there are ranges, as h3facts reads
# them; and inrange's join of the two, empty without ranges, which the
# report takes as none.
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

%/$(h)nvtx.facts: %/$(h)ranges %/$(h)launches $(BIN)/inrange \
    $(RULES)
	$(BIN)/inrange -x -r $(RULES) -o $@ -- $< $*/$(h)launches

# Of each of the four products, which one rule makes: the one make takes
# first gives the recipe its prerequisites ($^).  (A line each, not an
# $(eval), which would read the = of a run's name as an assignment.)
$(nvtx_runs:%=%/report.json): %/report.json: %/$(h)nvtx.facts
$(nvtx_runs:%=%/kernels.tsv): %/kernels.tsv: %/$(h)nvtx.facts
$(nvtx_runs:%=%/strip.tsv): %/strip.tsv: %/$(h)nvtx.facts
$(nvtx_runs:%=%/gapbins.tsv): %/gapbins.tsv: %/$(h)nvtx.facts

facts = source gpu gaps idle kstream top account
# With RECORD_KEY (pipeline.mk's, for one run), reportjson then writes
# report.inputs beside the report: the record (h3prof(5)) of that key, the
# files RECORD_INPUTS, each changed since the start recorded so, and the
# products.  Each input is quoted as it is, which make reads without a
# shell (shword's test of each word would cost a run milliseconds).
RECORD_KEY ?=
RECORD_INPUTS ?=
record = $(if $(RECORD_KEY),-R $(@D)/report.inputs -k $(call \
    quote,$(RECORD_KEY)) $(patsubst %,-i '%',$(subst ','\'',$(RECORD_INPUTS))))
# $(call report,TRACE,EXPORTFACTS[,NOWORK]): the recipe of the report,
# made last, of the facts in the products' directory, $(@D) (R, or
# R/TAG): with it reportjson puts the page's products in place (-p), all
# with the time of the start (-s), the report last, which says that all
# are done; a run that fails before leaves none of them.  A run without
# GPU operations has no span to report (the recipe of the variable
# named NOWORK says so, if given), and a trace of several devices or
# processes, or of graph launches, says so: only then does the recipe
# need a shell.  The device facts (and the export's) are in the report
# where they tell something: several devices or processes, or graphs.
report = $(if $(filter-out gpu.count 0,$(wordlist 1,2,$(file \
    <$(@D)/$(h)gpu.facts))),$(if $(strip $(call warnings,$1,$2)),printf \
    '%s\n' $(call warnings,$1,$2) >&2 && exec )$(BIN)/reportjson -x \
    -r $(RULES) -s $(@D)/$(h)start -P $(h) $(pages:%=-p $(@D)/%) \
    -o $(@D)/report.json $(record) $(facts:%=$(@D)/$(h)%.facts) \
    $(filter $(@D)/$(h)nvtx.facts $(@D)/$(h)scope.facts,$^) \
    $(if $(call several,$2)$(filter-out 0,$(call graph_launches,$2)), \
    $(@D)/$(h)device.facts $2) $(@D)/$(h)config.facts,$(if $3,$($3),$(call \
    message,h3report: $1: no GPU operations in the trace)))

# The report and the page's products: one rule of four targets, so that
# make, interrupted while it runs, removes all that it put in place.
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

# --- The rules of a scope ----------------------------------------------
#
# A scoped run R is reduced in R/TAG, as h3report -R or -w reduces it.
# Its files in R/TAG are named as a run's are in R, so that the rules
# above make the facts that do not depend on the scope (their stem is
# R/TAG; these rules' stem is R, and make prefers the rule of the shorter
# stem).  WINDOW takes the run's GPU operations that start in the window,
# with their memory lines and launch lines, of R's files (inwindow): all
# else is as for the run.  RANGE takes the GPU work of the launch lines
# launched in the ranges (inrange -l), an export's copies and memsets
# among them (a CSV pair's kernel-exec trace has kernels only): the
# operations are classified in launch order (classify -l), as tally and
# topkernels read them (their figures are in first-seen order), and
# again sorted by start (classify -s) for the filters that need that
# order.  No memory lines and no CUDA graph launches merged in: those
# are of the whole trace, not of a scope of ranges.
ifneq ($(tag),)
scopes := $(runs:%=%/$(tag))
# The scope's directory (of the stem R).
sd = $*/$(tag)
.INTERMEDIATE: $(foreach s,$(scopes),$(addprefix $s/$(h),ranges \
    launches selected outside gpu memory launchlines bystart idlein \
    source.facts gpu.facts gaps.facts idle.facts kstream.facts top.facts \
    account.facts device.facts config.facts nvtx.facts scope.facts \
    export.facts))

$(scopes):
	mkdir -p -- $@

%/$(tag)/$(h)start: | %/$(tag)
	$(start)

# The ranges: of the NVTX CSV beside the pair's kernel-exec trace, else
# of the export; the pair without one, or of an empty kernel-exec trace,
# which launched nothing, has none, which RANGE cannot scope by.  Ranges
# and launches are sorted by start where a CSV is not (-s), as the
# readers above sort theirs: a run out of order is scoped as the run in
# order.
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

# The launches, read once the ranges are: RANGE fails where there are
# none, before they are read, as h3report fails.
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

# The work of the scope, and with RANGE the holes between its parts,
# which idle gaps must not span.
ifneq ($(RANGE),)
%/$(tag)/$(h)selected %/$(tag)/$(h)outside: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)launches $(BIN)/inrange $(RULES)
	$(BIN)/inrange -l -m '$(RANGE)' -s $(or $(SKIP),0) -r $(RULES) \
	    -g $(sd)/$(h)outside -o $(sd)/$(h)selected -- \
	    $(sd)/$(h)ranges $(sd)/$(h)launches

no_work = printf "h3report: no GPU work launched in the NVTX ranges \
    matching '%s'%s\n" '$(RANGE)' '$(if $(SKIP), after the first $(SKIP))' \
    >&2; exit 1

# Its operations, kernels classified, in launch order.
%/$(tag)/$(h)gpu: %/$(tag)/$(h)selected $(BIN)/classify $(RULES)
	$(BIN)/classify -l -x -r $(RULES) -o $@ -- $<

# In start order; and a scope of no work fails the run here, before any
# product is made (the kernel table waits for it).
%/$(tag)/$(h)bystart: %/$(tag)/$(h)gpu %/$(tag)/$(h)gpu.facts \
    $(BIN)/classify $(RULES)
	$(if $(filter-out gpu.count 0,$(wordlist 1,2,$(file \
	    <$(sd)/$(h)gpu.facts))),$(BIN)/classify -s -x -r $(RULES) \
	    -o $@ -- $<,$(no_work))

$(scopes:%=%/$(h)kernels.tsv): %/$(h)kernels.tsv: %/$(h)bystart

# The filters that need the work in start order.  Idle in a scope of
# ranges is idle inside it: the holes between its parts, merged in
# (classify -s of the two), go with the work.
%/$(tag)/$(h)gaps.facts: %/$(tag)/$(h)bystart $(BIN)/gapstat
	$(BIN)/gapstat -k kernel -p gaps. -o $@ $<

%/$(tag)/$(h)idlein: %/$(tag)/$(h)bystart %/$(tag)/$(h)outside \
    $(BIN)/classify $(RULES)
	$(BIN)/classify -s -x -r $(RULES) -o $@ -- $< $(sd)/$(h)outside

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

%/$(tag)/$(h)strip.tsv: %/$(tag)/$(h)bystart %/$(tag)/$(h)gpu.facts \
    $(BIN)/timeline
	$(BIN)/timeline -H -w 960 \
	    -l $(or $(call fact,gpu.span_ns,$(sd)/$(h)gpu.facts),0) \
	    -o $@ -- $<

# The ranges' facts: each instance of the matching names and the scope.
%/$(tag)/$(h)nvtx.facts: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)launches $(BIN)/inrange $(RULES)
	$(BIN)/inrange -x -r $(RULES) -m '$(RANGE)' -s $(or $(SKIP),0) \
	    -o $@ -- $< $(sd)/$(h)launches
else
# A window keeps every GPU operation that starts in it, copies, memsets
# and graph launches too, of the run's own, classified, in start order:
# the operations, their memory lines and their launch lines, each taken
# by inwindow from the run's, R's (of the stem R).  The rules of the run
# above make the rest of them, as of the whole run: a window of 0%:100%
# is the run.
%/$(tag)/$(h)gpu: %/$(h)gpu $(BIN)/inwindow
	$(BIN)/inwindow -w $(WINDOW) -o $@ -- $<

%/$(tag)/$(h)memory: %/$(h)gpu %/$(h)memory $(BIN)/inwindow
	$(BIN)/inwindow -w $(WINDOW) -o $@ -- $< $*/$(h)memory

%/$(tag)/$(h)launchlines: %/$(h)gpu %/$(h)launchlines $(BIN)/inwindow
	$(BIN)/inwindow -l -w $(WINDOW) -o $@ -- $< $*/$(h)launchlines

%/$(tag)/$(h)scope.facts: %/$(h)gpu $(BIN)/inwindow
	$(BIN)/inwindow -f -w $(WINDOW) -o $@ -- $<

no_work = printf '%s\n' 'h3report: no GPU work starts in the window \
    $(WINDOW)' >&2; exit 1

# The ranges' facts, of the launches in the window, empty (none) where
# the run has no ranges (and no launches read).
%/$(tag)/$(h)selected: %/$(tag)/$(h)ranges %/$(tag)/$(h)launches \
    %/$(h)gpu $(BIN)/inwindow
	$(if $(file <$<),$(BIN)/inwindow -l -w $(WINDOW) -o $@ -- \
	    $*/$(h)gpu $(sd)/$(h)launches,$(file >$@))

%/$(tag)/$(h)nvtx.facts: %/$(tag)/$(h)ranges \
    %/$(tag)/$(h)selected $(BIN)/inrange $(RULES)
	$(if $(file <$<),$(BIN)/inrange -x -r $(RULES) -o $@ -- $< \
	    $(sd)/$(h)selected,$(file >$@))
endif

# The run's name (of R, not of its scope), its traces, and an export's
# facts, as for the run.
%/$(tag)/$(h)config.facts: $(BIN)/runconfig %/$(tag)/$(h)start
	$(BIN)/runconfig $(if $(RUN_CONFIG),-c $(call \
	    shword,$(RUN_CONFIG),RUN_CONFIG) )-o $@ -- $(call \
	    shword,$(run_name),RUN_NAME)

%/$(tag)/$(h)source.facts: $(at)$(GPU_CSV) $(at)$(KERNEL_CSV) \
    %/$(tag)/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call factvalue,$(gpu_csv)))$(file >>$@,source.kernel_exec_trace$(tab)$(call factvalue,$(kexec_csv)))

%/$(tag)/$(h)source.facts: $(at)$(SQLITE_NAME) %/$(tag)/$(h)start
	$(file >$@,source.gpu_trace$(tab)$(call factvalue,$(export_db)))$(file >>$@,source.kernel_exec_trace$(tab)$(call factvalue,$(export_db)))

%/$(tag)/$(h)export.facts: $(at)$(SQLITE_NAME) $(BIN)/exportinfo \
    %/$(tag)/$(h)start | %/$(tag)/$(h)ranges
	$(BIN)/exportinfo -o $@ -- $(export_arg)

# The report and the page's products, of the scope's facts (one rule of
# four targets, as for the run): an export's (a run without the pair's
# GPU trace) says its devices, processes and graph launches, of the whole
# trace, as h3report says them.
scope_exports := $(foreach r,$(runs),$(if $(wildcard \
    $(subst %,$r,$(at))$(GPU_CSV)),,$(if $(wildcard \
    $(subst %,$r,$(at))$(SQLITE_NAME)),$r)))
$(scope_exports:%=%/$(tag)/report.json): %/report.json: %/$(h)export.facts
$(scope_exports:%=%/$(tag)/kernels.tsv): %/kernels.tsv: %/$(h)export.facts
$(scope_exports:%=%/$(tag)/strip.tsv): %/strip.tsv: %/$(h)export.facts
$(scope_exports:%=%/$(tag)/gapbins.tsv): %/gapbins.tsv: %/$(h)export.facts
# The trace the report names, and the export's facts.
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
export_runs := $(foreach r,$(runs),$(if $(wildcard \
    $(subst %,$r,$(at))$(SQLITE_NAME)),$r))
$(nvtx_runs:%=%/facts): %/facts: %/$(h)nvtx.facts
$(export_runs:%=%/facts): %/facts: %/$(h)export.facts %/$(h)nvtx.facts
.INTERMEDIATE: $(export_runs:%=%/$(h)nvtx.facts)
$(if $(tag),$(runs:%=%/$(tag)/facts)): %/facts: %/$(h)nvtx.facts \
    $(if $(WINDOW),%/$(h)scope.facts)
$(if $(tag),$(scope_exports:%=%/$(tag)/facts)): %/facts: %/$(h)export.facts

# $(call no_scope_work,FACTS): nonempty for a scope whose GPU facts,
# the file FACTS, count no operations (an unscoped run's facts are
# printed all the same).
no_scope_work = $(if $(tag),$(if $(filter-out gpu.count 0,$(wordlist \
    1,2,$(file <$1))),,yes))
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

# What is pipeline.mk's, of the make of these rules it runs for a run:
# the error record and the quiet terminal lines.  A failed run's error is
# one line, its filter's or h3report's words naming the trace, but make
# adds its own ("make: *** [...] Error 1"), which no recipe can hold back
# (pipeline.mk drops it from the record); a run without its traces is
# make's "No rule to make target".  A failed scope leaves its directory,
# where pipeline.mk keeps its record.
