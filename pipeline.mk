# pipeline.mk: reduce a sweep of nsys trace directories to a report.json
# per run and a summary of them all, in parallel and incrementally.
#
#	make reports [TRACES='runs/*' | TRACES_FROM=file] [OUT=dir]
#	    [REPORTS=dir] [REPEAT_KEYS='key ...'] [-j N] [-k]
#	make clean-reports [REPORTS=dir]
#
# Include it from a Makefile of your own (one that sets no target before
# the include reduces on a plain make), or run it with make -f; it needs
# GNU make 4.3 or later, bash and jq.  What it reads:
#
# TRACES	the run directories, shell patterns allowed.  Each holds its
#		trace as one of, the first found winning:
#		- a pair of nsys stats CSV exports: cuda_gpu_trace.csv and
#		  cuda_kern_exec_trace.csv, or PREFIX_ before each, or
#		  PREFIX_gputrace.csv and PREFIX_kernexectrace.csv;
#		- an nsys SQLite export, NAME.sqlite;
#		- an nsys report, NAME.nsys-rep, which needs nsys: it is
#		  exported (nsys export --type sqlite) to NAME.sqlite beside
#		  the run's report.json, and the export is made again when
#		  the report is newer.  With OUT, an export in the run
#		  directory itself is read as it is.
#		A pattern that matches no directory, a directory without a
#		trace or with two, and a path make cannot carry (whitespace,
#		: # % $ \, quotes or other shell characters) are errors:
#		make says so for all of them and does nothing else (exit 2).
#		Patterns skip REPORTS, OUT and the RUN.failed directories
#		of failed profiles.
# TRACES_FROM	a file that names the run directories, one a line, for
#		lists too long for a command line (make sweep gives one).
#		Not with TRACES.
# OUT		if set, RUN/report.json is written as OUT/NAME/report.json,
#		NAME the last part of RUN's path: for read-only archives.
# REPORTS	where the summaries go (default: reports).
# REPEAT_KEYS	configuration keys that tell repeats apart, left out when
#		runs are grouped (default: rep repeat trial seed).
# NSYS		the nsys that exports NAME.nsys-rep (default: nsys).
# RANGE		if set, scope every report to the GPU work launched in
#		the NVTX ranges whose name matches the shell pattern
#		RANGE (h3report -R): make reports RANGE='denoise*'.
# SKIP		with RANGE, leave out the first SKIP instances of each
#		matching range name as warm-up (h3report -s).
# WINDOW	if set instead, START:END, scope every report to the GPU
#		work that starts in that window, in ns from the first GPU
#		operation or as shares of the GPU span, as in 50%:100%
#		(h3report -w).
# H3PROF_BIN	the filters (default: build/bin beside this file, or
#		PREFIX/libexec/h3prof/bin if it is installed in
#		PREFIX/share/h3prof).
# H3PROF_RULES	the classify(1) rules (default: rules/h3.rules beside it,
#		or h3.rules if installed).
# H3PROF_SCRIPTS h3report, h3summary, h3page (default: scripts beside
#		it, or PREFIX/bin if installed).
#
# A reports directory remembers its sweep: REPORTS/inputs.mk records
# TRACES (or TRACES_FROM), OUT, REPEAT_KEYS and the rules it was made
# from.  make reports without TRACES and TRACES_FROM reduces the sweep
# REPORTS remembers, with its OUT unless OUT is given; only a REPORTS
# that remembers nothing takes the samples of h3prof.  TRACES that
# differ from the remembered ones reduce the new sweep and say, in one
# line, that the sweep changed.  REPEAT_KEYS and the rules are those
# given, or the defaults, each time: what changed is redone.
#
# A run directory of make sweep HOSTS=... holds no trace but a report.json
# made where its traces are, which its config.json names (traces_at): the
# report is taken as it is, and make clean-reports leaves it.
#
# What it makes, all written to a temporary file and renamed, so that none
# is ever partial:
#
# RUN/report.json	the report of h3report (reportjson -x): every key of
#			the reference's report, then the extensions.  Its
#			time is when its reading began.  A run that cannot
#			be reduced leaves RUN/report.err instead, the error
#			messages, and no report.json.
# RUN/report.inputs	what the report was made from besides the files'
#			contents: the run's name and path, its trace and
#			configuration files, the rules, and the scope,
#			RANGE and SKIP or WINDOW, where one is given.
# REPORTS/summary.json	every run's report, the failed runs with their
#			errors, and groups of runs of the same configuration
#			with n, mean, standard deviation, min and max of every
#			figure; see h3summary(1).
# RUN/kernels.tsv	every kernel of the run, most time first, made with
#			the report (topkernels -t): a header, then name,
#			category, launches, total_ns, mean_ns.  It is
#			renamed into place just before report.json, with
#			its time, and removed when the run fails.
# REPORTS/summary.csv	a row per run: name, status, configuration, figures.
# REPORTS/groups.csv	a row per group: n, mean, stddev, min, max of every
#			figure.
# REPORTS/summary.md	for a person: a row per configuration, fastest
#			first, times in ms; the kernels in other of each;
#			the failed runs.
# REPORTS/runs.list	the runs of the sweep, NAME tab report, a line each.
# REPORTS/inputs.mk	the sweep, as above.
#
# A report is made again when anything it was made from changed: its
# trace files (the CSV pair, the SQLite export or the nsys report), its
# configuration file, its name or path (a run renamed or copied), which
# files it is read from, the rules (their path or their content), a
# filter, a script or this file.  The summary is made again when a report,
# the list of runs, REPEAT_KEYS or the rules changed.  make -j N reduces N
# runs at once; the files are the same as with -j 1, and two make reports
# of one sweep at once both succeed with the same files.  Without -k,
# make stops at the first run it cannot reduce; with -k, it reduces every
# other run, writes the summary, which lists the failed runs, and then
# fails.
#
# make clean-reports removes the summaries and the runs' reports, kernel
# tables, inputs and error records, and the temporary files of reductions
# killed with SIGKILL (so not while another make reports runs); it leaves
# the record of the sweep and the SQLite exports of nsys reports.
# make clean-reports reports redoes the sweep in full; rm -r REPORTS
# forgets it.

H3PROF_MK := $(lastword $(MAKEFILE_LIST))
H3PROF_DIR := $(patsubst ./,,$(dir $(H3PROF_MK)))
# The includer's default goal stays its own; without one, it is reports.
h3_goal := $(or $(.DEFAULT_GOAL),reports)

# In a checkout the filters are built in build/bin; installed, this file
# is in PREFIX/share/h3prof, beside the rules, the filters are in
# PREFIX/libexec/h3prof/bin and the scripts in PREFIX/bin.
ifneq ($(wildcard $(H3PROF_DIR)rules/h3.rules),)
H3PROF_BIN ?= $(H3PROF_DIR)build/bin
H3PROF_RULES ?= $(H3PROF_DIR)rules/h3.rules
H3PROF_SCRIPTS ?= $(H3PROF_DIR)scripts
else
H3PROF_BIN ?= $(H3PROF_DIR)../../libexec/h3prof/bin
H3PROF_RULES ?= $(H3PROF_DIR)h3.rules
H3PROF_SCRIPTS ?= $(H3PROF_DIR)../../bin
endif
REPORTS ?= reports
REPEAT_KEYS ?= rep repeat trial seed
NSYS ?= nsys
RANGE ?=
SKIP ?=
WINDOW ?=
$(foreach v,RANGE SKIP WINDOW,$(if $(findstring ',$($v)),\
    $(error $v="$($v)" holds a quote, which the recipes cannot carry)))
ifneq ($(SKIP),)
ifeq ($(RANGE),)
$(error SKIP=$(SKIP) without RANGE: SKIP leaves out instances of the ranges RANGE names)
endif
endif
ifneq ($(RANGE),)
ifneq ($(WINDOW),)
$(error RANGE and WINDOW: a report is scoped by ranges or by time, not both)
endif
endif
# SKIP is digits: what is left of it without them is nothing.
h3_skipleft := $(SKIP)
$(foreach d,0 1 2 3 4 5 6 7 8 9,$(eval h3_skipleft := $(subst \
    $d,,$(h3_skipleft))))
ifneq ($(strip $(h3_skipleft))$(word 2,$(SKIP)),)
$(error SKIP=$(SKIP): not a count of instances)
endif
# h3report's options of the scope, and the scope as report.inputs says it.
h3_scope := $(if $(RANGE),-R '$(RANGE)'$(if $(SKIP), -s '$(SKIP)'))$(if \
    $(WINDOW),-w '$(WINDOW)')
h3_scopein := $(if $(RANGE), scope=$(RANGE)/$(SKIP))$(if $(WINDOW), \
    window=$(WINDOW))

# Characters make cannot carry in a file name, and those the recipes would
# have to quote: scripts/h3lib.sh's h3_unsafe is the same set.
, := ,
h3_hash := \#
h3_unsafechars := : $(h3_hash) % $$ ' " \ ` * ? [ ] ; | & < > ( ) { }
h3_unsafe = $(or $(word 2,$1),$(call h3_anyunsafe,$1))
# Whether any word of list $1 holds one of those characters: as fast for a
# list as for a name.
h3_anyunsafe = $(strip $(foreach c,$(h3_unsafechars),$(findstring $c,$1)))
$(foreach v,REPORTS OUT TRACES_FROM H3PROF_DIR H3PROF_RULES,\
    $(if $(call h3_unsafe,$($v)),\
	$(error $v="$($v)" holds whitespace, a quote or one of : $(h3_hash) % $$ \ ` * ? [ ] ; | & < > ( ) { }, which make cannot carry in a file name)))
# Without a trailing slash, so that each file has one name.
h3_reports := $(patsubst %/,%,$(REPORTS))

# --- the sweep: what was asked for, and what REPORTS remembers ---------------

h3_record := $(h3_reports)/inputs.mk
$(eval $(file <$(h3_record)))
h3_given = $(filter-out undefined default,$(origin $1))
h3_differ = $(if $(and $(findstring x$1x,x$2x),$(findstring x$2x,x$1x)),,differ)
ifneq ($(call h3_given,TRACES)$(call h3_given,TRACES_FROM),)
ifneq ($(and $(call h3_given,TRACES),$(call h3_given,TRACES_FROM)),)
$(error give TRACES or TRACES_FROM, not both)
endif
else ifneq ($(h3_was_TRACES)$(h3_was_TRACES_FROM),)
TRACES := $(h3_was_TRACES)
TRACES_FROM := $(h3_was_TRACES_FROM)
OUT ?= $(h3_was_OUT)
else
# The samples of a checkout; an installation has none.
TRACES := $(if $(wildcard $(H3PROF_DIR)samples/),$(H3PROF_DIR)samples/*)
endif
OUT ?=
h3_out := $(patsubst %/,%,$(OUT))

# --- the runs ------------------------------------------------------------------

# What is wrong with the sweep, a message each: h3_errs names them, h3_eN
# is message N.  With any, make reports says them all and does nothing
# else.  $ and # in a message are a file's name, not make's.
h3_errs :=
h3_err = $(eval h3_errs += h3_e$(words x $(h3_errs)))$(eval \
    $(lastword $(h3_errs)) := $(subst $(h3_hash),\$(h3_hash),$(subst $$,$$$$,$1)))

# A path as make can name it: make strips ./ and expands a leading ~, so
# a run directory named ~ takes its full path.
h3_path = $(patsubst ~%,$(CURDIR)/~%,$(patsubst %/,%,$1))

# The run directories that pattern $1 matches, less REPORTS, OUT and what
# a failed make profile kept (RUN.failed).
# (An absolute path is one word here, whatever the current directory holds.)
h3_abs = $(subst $() ,?,$(abspath $1))
h3_skip := $(foreach p,$(h3_reports) $(h3_out),$(call h3_abs,$p))
# A match that is no directory is part of a name make split at a blank.
# The matches are taken one by one only when one of them may be skipped
# or no directory (an absolute path with a blank is more than one word).
h3_matches = $(call h3_sift,$1,$(filter-out %.failed/,$(wildcard $1/)))
h3_sift = $(if $(or $(findstring ?,$(h3_skip)),$(filter $(h3_skip),$(abspath \
    $2)),$(filter-out $(words $2),$(words $(wildcard $(addsuffix /,$(call \
    h3_path,$2)))))),$(foreach d,$2,$(if $(filter $(h3_skip),$(call \
    h3_abs,$d)),,$(if $(wildcard $(call h3_path,$d)/),$(call \
    h3_path,$d),$(call h3_err,TRACES: $1 matches a name that holds \
    whitespace or a backslash$(,) near $d$(,) which make cannot carry in a \
    file name; rename it)h3-refused))),$(call h3_path,$2))
ifneq ($(TRACES_FROM),)
ifeq ($(wildcard $(TRACES_FROM)),)
$(call h3_err,TRACES_FROM=$(TRACES_FROM): no such file)
endif
h3_dirs := $(foreach w,$(file <$(TRACES_FROM)),$(or $(call h3_path,$(wildcard \
    $(patsubst %/,%,$w)/)),$(call h3_err,run directory $w: no such \
    directory (named in $(TRACES_FROM)))))
else
h3_dirs := $(foreach w,$(TRACES),$(or $(call h3_matches,$(patsubst %/,%,$w)),\
    $(call h3_err,TRACES: $w matches no directory$(if $(wildcard $w), (it \
    matches files: TRACES names run directories)))))
endif
h3_dirs := $(filter-out h3-refused,$(h3_dirs))
# A variable close to TRACES given on the command line is a slip.
$(foreach v,$(filter TRACE trace traces TRACE_FROM RUNS,$(.VARIABLES)),\
    $(if $(filter command line,$(origin $v)),\
	$(call h3_err,$v=$($v): no such setting; did you mean TRACES?)))

# The files of run directory $1 that may be its trace or configuration,
# by the names nsys gives them (h3_kinds: the same as patterns of $(filter)).
h3_globs = $(addprefix $1/,cuda_gpu_trace.csv *_cuda_gpu_trace.csv \
    *_gputrace.csv cuda_kern_exec_trace.csv *_cuda_kern_exec_trace.csv \
    *_kernexectrace.csv *nvtx_pushpop_trace.csv *.sqlite *.nsys-rep \
    config.json run.env)
h3_kinds := $(subst %/*,%,$(call h3_globs,%))
h3_gpukinds := %/cuda_gpu_trace.csv %_cuda_gpu_trace.csv %_gputrace.csv
h3_kxkinds := %/cuda_kern_exec_trace.csv %_cuda_kern_exec_trace.csv \
    %_kernexectrace.csv
# The other trace of a pair: of GPU trace $1, of kernel trace $1.
h3_kmate = $(patsubst %_gputrace.csv,%_kernexectrace.csv,$(patsubst \
    %cuda_gpu_trace.csv,%cuda_kern_exec_trace.csv,$1))
h3_gmate = $(patsubst %_kernexectrace.csv,%_gputrace.csv,$(patsubst \
    %cuda_kern_exec_trace.csv,%cuda_gpu_trace.csv,$1))
h3_mate = $(if $(filter %_gputrace.csv %cuda_gpu_trace.csv,$1),$(call \
    h3_kmate,$1),$(call h3_gmate,$1))
h3_havemate = $(if $(filter $(call h3_mate,$1),$(h3_ls)),$1)
# The name of run directory h3_d: the last part of its path.
h3_name = $(notdir $(abspath $(h3_d)))

h3_looks := h3prof looks for cuda_gpu_trace.csv and cuda_kern_exec_trace.csv \
    (or PREFIX_ before each, or PREFIX_gputrace.csv and \
    PREFIX_kernexectrace.csv), NAME.sqlite or NAME.nsys-rep
h3_rename := holds whitespace or a character make cannot carry in a file \
    name; rename it

# h3_run: find the trace of run directory h3_d, named h3_n, and define
# the rules of its report, or say what is wrong with it: h3_run_CASE, the
# first case of h3_case that holds.  (The path and the name are variables,
# not arguments: a comma in them is no separator.)  Its files, h3_ls, are
# from one listing of it; a name in it that holds whitespace, which make
# splits, leaves words outside h3_d/, and then they are looked for by
# their patterns, which $(wildcard) matches with whole names.
define h3_run
h3_n := $(h3_name)
h3_ls := $(wildcard $(h3_d)/*)
h3_ls := $(filter $(h3_kinds),$(if $(filter-out $(h3_d)/%,$(h3_ls)),$(wildcard \
    $(call h3_globs,$(h3_d))),$(h3_ls)))
h3_gpu := $(sort $(filter $(h3_gpukinds),$(h3_ls)))
h3_kx := $(sort $(filter $(h3_kxkinds),$(h3_ls)))
h3_pairs := $(filter $(call h3_gmate,$(h3_kx)),$(h3_gpu))
h3_sqls := $(filter %.sqlite,$(h3_ls))
h3_reps := $(filter %.nsys-rep,$(h3_ls))
h3_conf := $(firstword $(filter %/config.json,$(h3_ls)) $(filter \
    %/run.env,$(h3_ls)))
h3_found := $(h3_gpu) $(h3_kx) $(h3_sqls) $(h3_reps)
h3_where := $(if $(h3_out),$(h3_out)/$(h3_n),$(h3_d))
$(eval $(value h3_run_$(h3_case)))
ifneq ($(h3_samenames),)
h3_names += $(h3_n)
endif
endef
# A name with a blank is split by make: a word that is not in the run.
h3_case = $(or $(if $(filter-out $(h3_d)/%,$(h3_found))$(and \
    $(h3_oddfiles),$(call h3_anyunsafe,$(notdir $(h3_found)))),badfile),$(if \
    $(and $(h3_samenames),$(filter $(h3_n),$(h3_names))),samename),$(if \
    $(word 2,$(h3_pairs)),pairs,$(if $(h3_pairs),pair)),$(if \
    $(word 2,$(h3_sqls)),sqlites,$(if $(h3_sqls),sqlite)),$(if \
    $(word 2,$(h3_reps)),nsysreps,$(if $(h3_reps),nsysrep)),$(if $(and \
    $(wildcard $(h3_d)/report.json),$(findstring "traces_at":,$(file \
    <$(h3_d)/config.json))),kept),notrace)

define h3_run_badfile
$(call h3_err,run directory $(h3_d): a trace file name in it $(h3_rename))
endef
define h3_run_samename
$(call h3_err,run directory $(h3_d): another run is named $(h3_n)$(,) the \
    last part of its path; a sweep needs distinct names)
endef
define h3_run_pairs
$(call h3_err,run directory $(h3_d): $(words $(h3_pairs)) trace pairs \
    ($(notdir $(h3_pairs))); a run directory holds one: put each run in \
    its own)
endef
define h3_run_pair
h3_srcs := $(h3_pairs) $(call h3_kmate,$(h3_pairs))
$(eval $(value h3_define))
endef
define h3_run_sqlites
$(call h3_err,run directory $(h3_d): $(words $(h3_sqls)) nsys SQLite \
    exports ($(notdir $(h3_sqls))); a run directory holds one: put each \
    run in its own)
endef
define h3_run_sqlite
h3_srcs := $(h3_sqls)
$(h3_srcs): private h3_errfile := $(h3_where)/report.err
$(eval $(value h3_define))
endef
define h3_run_nsysreps
$(call h3_err,run directory $(h3_d): $(words $(h3_reps)) nsys reports \
    ($(notdir $(h3_reps))); a run directory holds one: put each run in \
    its own)
endef
# The trace is the SQLite export of the nsys report, made beside the
# report (in the run directory by the pattern rule %.sqlite).
define h3_run_nsysrep
h3_srcs := $(h3_where)/$(notdir $(h3_reps:.nsys-rep=.sqlite))
ifneq ($(h3_out),)
$(h3_srcs): $(h3_reps)
	$(h3_exporting)
endif
$(h3_srcs): private h3_errfile := $(h3_where)/report.err
$(eval $(value h3_define))
# The export is made by its own rules, not taken as it is.
h3_files_$(h3_i) := $(h3_conf)
endef
# Reduced where its traces are, by make sweep HOSTS=...: its report is
# taken as it is, for it cannot be made again here.
define h3_run_kept
h3_name_$(h3_i) := $(h3_n)
h3_json_$(h3_i) := $(h3_d)/report.json
h3_kept_$(h3_i) := yes
$(if $(RANGE)$(WINDOW),$(call h3_err,run directory $(h3_d): reduced where \
    it was profiled (make sweep HOSTS=...)$(,) it cannot be scoped here: \
    profile it with KEEP_TRACES=1 to scope it))
endef
define h3_run_notrace
$(call h3_err,run directory $(h3_d): no trace: $(h3_looks)$(foreach \
    f,$(h3_gpu) $(h3_kx),$(if $(call h3_havemate,$f),,; found \
    $(notdir $f) without $(notdir $(call h3_mate,$f))))$(if \
    $(wildcard $(h3_d)/*/*.csv $(h3_d)/*/*.sqlite $(h3_d)/*/*.nsys-rep),; \
    did you mean '$(h3_d)/*'?))
endef

# h3_define: the rules of the report of run h3_d, read from h3_srcs.  It
# is made again when what report.inputs says it was made from is no more
# so.  (Make 4.3's $(file <) keeps the last newline of some files: what it
# reads is compared stripped.)
define h3_define
h3_name_$(h3_i) := $(h3_n)
h3_json_$(h3_i) := $(h3_where)/report.json
h3_nvtx := $(filter $(patsubst %cuda_kern_exec_trace.csv,\
    %nvtx_pushpop_trace.csv,$(filter %cuda_kern_exec_trace.csv,\
    $(h3_srcs))),$(h3_ls))
h3_in := name=$(h3_n) dir=$(h3_d) config=$(h3_conf) \
    rules=$(H3PROF_RULES) traces=$(subst $() ,$(,),$(strip $(h3_srcs)))$(if \
    $(h3_nvtx), nvtx=$(h3_nvtx))$(h3_scopein)
h3_was_in := $(strip $(file <$(h3_where)/report.inputs))
$(h3_json_$(h3_i)): $(h3_srcs) $(h3_nvtx) $(h3_conf) $(if $(subst $(h3_was_in),,$(h3_in))$(subst \
    $(h3_in),,$(h3_was_in)),h3-force)
$(h3_json_$(h3_i)): private h3_args := -n '$(h3_n)' \
    $(if $(h3_conf),-c '$(h3_conf)') -- $(foreach s,$(h3_srcs),'$s')
$(h3_json_$(h3_i)): private h3_in := $(h3_in)
h3_files_$(h3_i) := $(h3_srcs) $(h3_nvtx) $(h3_conf)
endef

# Run directory N of h3_dirs, h3_d, is run N, h3_i, the key of its variables;
# the names of runs are compared one by one only when two are the same,
# and the paths and names checked one by one only when one of them may be
# unsafe (a name that make splits makes more names than runs).
# (No list grows run by run, with += or counted with $(words): each step
# would copy or scan it, and 10,000 runs would take seconds.)
h3_seq := $(if $(h3_dirs),$(shell seq $(words $(h3_dirs))))
h3_allnames := $(notdir $(abspath $(h3_dirs)))
h3_samenames := $(if $(filter-out $(words $(h3_allnames)),$(words $(sort \
    $(h3_allnames)))),yes)
h3_oddpaths := $(call h3_anyunsafe,$(h3_dirs))
h3_oddnames := $(or $(filter-out $(words $(h3_dirs)),$(words \
    $(h3_allnames))),$(call h3_anyunsafe,$(h3_allnames)))
# Whether a name of the runs' files may be unsafe, from one listing of them
# all (make reads a directory once): each run's trace files are checked
# only then.
h3_oddfiles := $(call h3_anyunsafe,$(notdir $(filter $(h3_kinds),$(wildcard \
    $(addsuffix /*,$(h3_dirs))))))
h3_names :=
$(foreach p,$(join $(addsuffix |,$(h3_seq)),$(h3_dirs)),\
    $(foreach h3_i,$(firstword $(subst |, ,$p)),$(foreach h3_d,$(patsubst \
    $(h3_i)|%,%,$p),$(if $(and $(h3_oddpaths),$(call h3_unsafe,$(h3_d))),\
    $(call h3_err,run directory $(h3_d): its path $(h3_rename)),\
    $(if $(and $(h3_oddnames),$(call h3_unsafe,$(h3_name))),\
	$(call h3_err,run directory $(h3_d): its name $(h3_name) $(h3_rename)),\
	$(eval $(value h3_run)))))))
h3_ids := $(foreach i,$(h3_seq),$(if $(h3_json_$i),$i))
h3_jsons := $(foreach i,$(h3_ids),$(if $(h3_kept_$i),,$(h3_json_$i)))
h3_keptjsons := $(foreach i,$(h3_ids),$(if $(h3_kept_$i),$(h3_json_$i)))
h3_files := $(foreach i,$(h3_ids),$(h3_files_$i))
ifeq ($(TRACES)$(TRACES_FROM),)
$(call h3_err,no TRACES given$(,) and $(h3_reports) remembers no sweep: name \
    the run directories$(,) as in make reports TRACES='runs/*')
endif

# --- the rules -----------------------------------------------------------------

h3_report := $(H3PROF_SCRIPTS)/h3report
h3_summary := $(H3PROF_SCRIPTS)/h3summary
h3_lib := $(firstword $(wildcard $(H3PROF_SCRIPTS)/h3lib.sh \
	$(H3PROF_DIR)h3lib.sh))
# What every report depends on besides its run's files.
h3_tools := $(addprefix $(H3PROF_BIN)/,csv2intervals sqlite2intervals \
	classify tally gapstat merge intersect topkernels runconfig \
	reportjson nvtxranges inrange inwindow devstat exportinfo) \
	$(H3PROF_SCRIPTS)/h3report \
	$(h3_lib) $(H3PROF_RULES) $(H3PROF_MK)

# This make's process ID, in the names of its temporary files, .NAME.PID:
# two makes of one sweep at once must not write the same one.  Those of a
# make (or an h3summary) that was killed are removed by the next.
h3_pid = $(eval h3_pid := $(shell echo $$PPID))$(h3_pid)
h3_tmp = $(@D)/.$(@F).$(h3_pid)
h3_pidof = $(lastword $(subst ., ,$1))
h3_dead = $(foreach f,$1,$(if $(wildcard /proc/$(call h3_pidof,$f)/),,$f))
h3_deadx = $(foreach f,$1,$(if $(call h3_dead,$(basename $f)),$f))
h3_litter := $(call h3_dead,$(wildcard $(h3_reports)/.runs.list.[0-9]* \
	$(h3_reports)/.inputs.mk.[0-9]* $(h3_reports)/.summary.*.[0-9]* \
	$(h3_reports)/.groups.csv.[0-9]*))

# With -k a run that fails does not stop the summary, which lists it; a
# check after the summary fails the sweep.
h3_keepgoing := $(findstring k,$(filter-out -%,$(firstword $(MAKEFLAGS))))

# One shell a run, which starts no process it need not: the inputs are
# recorded once the report is made.  A run's page (see the pages, below)
# goes as its report is made again.
$(h3_jsons): $(h3_tools)
	$(if $(h3_out),{ [ -d '$(@D)' ] || mkdir -p -- '$(@D)'; } && ){ [ ! -e \
	    '$(@D)/report.html' ] && [ ! -L '$(@D)/report.html' ] || \
	    rm -f -- '$(@D)/report.html'; } && \
	    H3PROF_BIN='$(H3PROF_BIN)' \
	    '$(h3_report)' -r '$(H3PROF_RULES)' -o '$@' -k '$(@D)/kernels.tsv' \
	    $(h3_scope) $(h3_args) && \
	    printf '%s\n' '$(h3_in)' >'$(@D)/report.inputs' || \
	    { rm -f -- '$(@D)/report.inputs' '$(@D)/kernels.tsv'; \
	    $(if $(h3_keepgoing),:,exit 1); }

# A trace file the run lost, or a run directory deleted, is no reason for
# make to stop: h3report says what is missing, as with any broken run.
# (An empty recipe, not none: make 4.3 takes seconds over thousands of
# targets of a rule without one.  But none for an export beside its nsys
# report, which the pattern rule %.sqlite makes again when it is stale.)
h3_exports := $(foreach f,$(filter %.sqlite,$(h3_files)),$(if $(wildcard \
    $(f:.sqlite=.nsys-rep)),$f))
$(sort $(filter-out $(h3_exports),$(h3_files))): ;
$(h3_exports):

# The SQLite export of an nsys report, in a run directory by the pattern
# rule, in OUT by a rule of the run's.  On failure the run's error record
# says why, as h3report's would, and its report, made from the report's
# export of before, is removed.  (A path that starts with - is no option.)
define h3_exporting
@mkdir -p -- '$(@D)'
@command -v -- '$(NSYS)' >/dev/null || { printf '%s%s%s\n' \
    'pipeline.mk: $<: an nsys report is read through its SQLite export, ' \
    'which needs nsys, and $(NSYS) is no command: put nsys on the PATH or ' \
    'name it in NSYS=, or export it where nsys is (nsys export --type sqlite) and put $(@F) beside it' | \
    tee -- '$(h3_errfile)' >&2; rm -f -- '$(h3_errfile:.err=.json)' '$(h3_errfile:.err=.html)' '$(h3_errfile:report.err=kernels.tsv)'; exit 1; }
'$(NSYS)' export --type sqlite --quiet true --force-overwrite true \
    --output '$(h3_tmp).sqlite' '$(patsubst -%,./-%,$<)' \
    2>'$(h3_tmp).err' || { cat -- '$(h3_tmp).err' >&2; \
    echo 'pipeline.mk: $<: $(NSYS) export failed' >>'$(h3_tmp).err'; \
    mv -f -- '$(h3_tmp).err' '$(h3_errfile)'; \
    rm -f -- '$(h3_errfile:.err=.json)' '$(h3_errfile:.err=.html)' '$(h3_errfile:report.err=kernels.tsv)'; \
    rm -f -- '$(h3_tmp).sqlite'; exit 1; }
@rm -f -- '$(h3_tmp).err'
@mv -f -- '$(h3_tmp).sqlite' '$@'
endef
%.sqlite: %.nsys-rep
	$(h3_exporting)

# The list of runs, NAME tab report a line each, and the record of the
# sweep: each written again only when it would change, which the summary
# must then follow.
define h3_nl


endef
h3_tab := $(subst x,	,x)
h3_list := $(h3_reports)/runs.list
h3_listtext := $(subst :,$(h3_tab),$(subst $() ,$(h3_nl),$(strip \
	$(foreach i,$(h3_ids),$(h3_name_$i):$(h3_json_$i)))))
h3_recordtext := $(strip \
	# make reports: the sweep of this directory; see pipeline.mk.)$(h3_nl)$(strip \
	h3_was_TRACES := $(TRACES))$(h3_nl)$(strip \
	h3_was_TRACES_FROM := $(TRACES_FROM))$(h3_nl)$(strip \
	h3_was_OUT := $(OUT))$(h3_nl)$(strip \
	h3_was_REPEAT_KEYS := $(REPEAT_KEYS))$(h3_nl)$(strip \
	h3_was_RULES := $(H3PROF_RULES))
ifneq ($(strip $(file <$(h3_list))),$(strip $(h3_listtext)))
$(h3_list): h3-force
endif
ifneq ($(strip $(file <$(h3_record))),$(strip $(h3_recordtext)))
$(h3_record): h3-force
endif
$(h3_record): h3_changed := $(if $(h3_was_TRACES)$(h3_was_TRACES_FROM),$(if \
	$(call h3_differ,$(TRACES)|$(TRACES_FROM),$(h3_was_TRACES)|$(h3_was_TRACES_FROM)),\
	the sweep of $(h3_reports) changed: $(or $(h3_was_TRACES),TRACES_FROM=$(\
	h3_was_TRACES_FROM)) -> $(or $(TRACES),TRACES_FROM=$(TRACES_FROM))))
# Make expands a whole recipe before it runs it: the directory must be
# there when $(file) writes.  It writes the file itself, no temporary one
# that an interrupt could leave: make removes a target its interrupted
# recipe changed, and one it did not finish is not the list make wants,
# so the next make writes it again.
$(h3_list) $(h3_record):
	$(if $(h3_changed),@echo 'pipeline.mk: $(strip $(h3_changed))')
	$(shell mkdir -p -- '$(@D)')$(file >$@,$(if \
	    $(filter $(h3_list),$@),$(h3_listtext),$(h3_recordtext)))
	@:$(if $(h3_litter),; rm -f -- $(h3_litter))

h3_summaries := $(addprefix $(h3_reports)/summary.,json csv md) \
	$(h3_reports)/groups.csv
$(h3_summaries) &: $(h3_list) $(h3_record) $(h3_jsons) $(h3_keptjsons) \
	$(h3_summary) $(H3PROF_BIN)/sweepsum $(h3_lib) $(H3PROF_MK)
	H3PROF_BIN='$(H3PROF_BIN)' '$(h3_summary)' -r '$(REPEAT_KEYS)' \
	    -o '$(h3_reports)' '$(h3_list)'

ifeq ($(h3_errs),)
reports: $(h3_summaries) $(if $(h3_keepgoing),h3-failed)
else
reports clean-reports: h3-errors
endif

# rm -f a few hundred files, printf a hundred messages at a time: a shell
# takes 128 KiB of command.
h3_chunks = $(if $2,$(h3_nl)$1 $(wordlist 1,200,$2)$(call \
	h3_chunks,$1,$(wordlist 201,$(words $2),$2)))
h3_quote = '$(subst ','\'',$1)'
h3_say = $(if $1,$(h3_nl)printf 'pipeline.mk: %s\n' $(foreach \
	e,$(wordlist 1,100,$1),$(call h3_quote,$($e))) | cat -v >&2$(call \
	h3_say,$(wordlist 101,$(words $1),$1)))

# What is wrong with the sweep, all of it; control characters in names
# are shown as cat -v shows them.  (Make runs each line of the expansion
# in a shell of its own.)
h3-errors:
	@:$(call h3_say,$(h3_errs))
	@echo 'pipeline.mk: nothing was done: mend TRACES and run make again' >&2
	@exit 2

h3-failed: $(h3_summaries)
	@'$(h3_summary)' -c '$(h3_reports)/summary.json'

ifeq ($(h3_errs),)
clean-reports:
	rm -f -- $(h3_summaries) $(h3_list) $(h3_litter)$(call h3_chunks,rm -f --,\
	    $(foreach j,$(h3_jsons),$j $(j:.json=.err) $(j:.json=.inputs) \
	    $(dir $j)kernels.tsv $(wildcard $(dir $j).report.json.?????? \
	    $(dir $j).report.err.[0-9]* $(dir $j).kernels.tsv.[0-9]*) \
	    $(call h3_deadx,$(wildcard $(dir $j).*.sqlite.[0-9]*.*))))
endif

h3-force:

.PHONY: reports clean-reports h3-errors h3-failed h3-force

# make profile and make sweep, which make the runs this file reduces.
include $(H3PROF_DIR)sweep.mk

.DEFAULT_GOAL := $(h3_goal)

# --- make compare ----------------------------------------------------------------
#
#	make compare BASE=dir NEW=dir [TOLERANCE=file] [ALPHA=p]
#
# compares two reports directories of make reports (or two run
# directories, each holding a report.json) configuration by
# configuration, with Welch's t-test over the repeats, and fails on a
# regression: h3compare writes NEW/compare.json and NEW/compare.md and
# prints the second.  TOLERANCE is a file of per-figure tolerances and
# ALPHA the significance level (default 0.05); see h3compare(1) and
# figdiff(1).  Runs are grouped in configurations as REPEAT_KEYS says in
# run directories; a reports directory keeps the groups of its summary.
# h3compare exits 1 for a regression and 2 for bad usage or an unreadable
# input; make, as for any failed recipe, exits 2 for both and names
# h3compare's status in its message (Error 1, Error 2).

h3_compare := $(H3PROF_SCRIPTS)/h3compare

compare:
	$(if $(and $(BASE),$(NEW)),,@echo 'pipeline.mk: make compare needs \
	    BASE=dir and NEW=dir: two reports directories, or two run \
	    directories' >&2; exit 2)
	$(foreach v,BASE NEW TOLERANCE ALPHA,$(if $(call h3_unsafe,$($v)),\
	    $(error $v="$($v)" holds whitespace, a quote or one of : \
	    $(h3_hash) % $$ \ ` * ? [ ] ; | & < > ( ) { }, which make \
	    cannot carry in a file name)))
	@H3PROF_BIN='$(H3PROF_BIN)' '$(h3_compare)' -r '$(REPEAT_KEYS)' \
	    $(if $(TOLERANCE),-t '$(TOLERANCE)') $(if $(ALPHA),-a '$(ALPHA)') \
	    -- '$(BASE)' '$(NEW)'

.PHONY: compare

# --- the pages -------------------------------------------------------------------
#
# make reports also writes, unless HTML=0 (for hosts that read no pages):
#
# RUN/report.html	the run's page (h3page(1)): its figures, kernel time
#			per category, a timeline strip of its kernels per
#			device and stream, its idle gaps, its streams and
#			top kernels.
# REPORTS/index.html	the sweep's page: the configurations fastest first,
#			their kernel time per category, busy and idle time,
#			idle gaps, the GPU span and the kernel time per
#			category against each numeric setting, and links
#			to the runs' pages.
#
# Both are self-contained HTML, inline SVG charts drawn by gnuplot and no
# script, and the same inputs give the same bytes.  A run's page follows
# its report.json, which follows the trace and the rules; the index
# follows the summaries.  A page never outlives what it shows: a run's
# page goes as its report is made again (so a run that fails has none),
# and with HTML=0 an index older than the summary goes.  Without
# gnuplot, make reports does nothing and says how to install it or skip
# the pages (exit 2).

HTML ?= 1
h3_page := $(H3PROF_SCRIPTS)/h3page
h3_pagelibs := $(h3_lib) $(patsubst %h3lib.sh,%h3.jq,$(h3_lib))
h3_pages := $(h3_jsons:.json=.html)
h3_index := $(h3_reports)/index.html

ifeq ($(h3_errs),)
ifeq ($(HTML),0)
reports: h3-stale-index
else
reports: $(h3_pages) $(h3_index)
# Asked for the pages, make says at once, before it does anything, that
# it cannot draw them.
ifneq ($(filter reports,$(or $(MAKECMDGOALS),$(h3_goal))),)
ifeq ($(shell command -v gnuplot),)
$(error the pages of make reports need gnuplot, which is not installed: \
    install it (apt-get install gnuplot-nox, or dev/install-deps), or skip \
    the pages with make reports HTML=0)
endif
endif
endif
endif

# (With -k, a run whose report failed has none, and no page.)
$(h3_pages): %.html: %.json $(h3_page) $(h3_pagelibs) $(H3PROF_MK) \
	$(addprefix $(H3PROF_BIN)/,csv2intervals sqlite2intervals classify \
	timeline gapstat)
	[ ! -f '$<' ] || H3PROF_BIN='$(H3PROF_BIN)' '$(h3_page)' -o '$@' \
	    -r '$(H3PROF_RULES)' '$<'

# The index links the runs' pages that are there: it follows them.
$(h3_index): $(h3_summaries) $(h3_pages) $(h3_page) $(h3_pagelibs) \
	$(H3PROF_MK)
	H3PROF_BIN='$(H3PROF_BIN)' '$(h3_page)' -s -o '$@' \
	    '$(h3_reports)/summary.json' '$(h3_list)'

h3-stale-index: $(h3_summaries)
	@[ ! -e '$(h3_index)' ] || [ '$(h3_index)' -nt \
	    '$(h3_reports)/summary.json' ] || rm -f -- '$(h3_index)'

ifeq ($(h3_errs),)
clean-reports: h3-clean-pages
endif
# As clean-reports takes the reports' temporary files, whoever left them
# (a killed page's process may linger as a zombie, its PID still there).
h3-clean-pages:
	rm -f -- '$(h3_index)' $(wildcard \
	    $(h3_reports)/.index.html.[0-9]*)$(call h3_chunks,rm -f --,\
	    $(foreach p,$(h3_pages),$p $(wildcard \
	    $(dir $p).report.html.[0-9]*)))

.PHONY: h3-clean-pages h3-stale-index
