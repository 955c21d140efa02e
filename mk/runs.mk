# mk/runs.mk: finding and checking the runs, the list of runs and the
# record of the sweep, and which reports are stale.

# --- the run directories -----------------------------------------------------

# $(call h3_path,DIR): DIR as the targets name it: no trailing slash, and
# absolute if it starts with ~ (which make would expand).
h3_path = $(patsubst ~%,$(CURDIR)/~%,$(patsubst %/,%,$1))
# $(call h3_abs,PATH): PATH made absolute, its blanks ?, as one word.
# h3_skip: REPORTS and OUT so written, which are never runs.
h3_abs = $(subst $() ,?,$(abspath $1))
h3_skip := $(foreach p,$(h3_reports) $(h3_out),$(call h3_abs,$p))
# $(call h3_matches,PATTERN): the run directories PATTERN matches, less
# REPORTS, OUT and failed profiles' RUN.failed.  The matches are looked at
# one by one only when one may be skipped or a word is no directory (make
# split a name at a blank, an error).
h3_matches = $(call h3_sift,$1,$(filter-out %.failed/,$(wildcard $1/)))
h3_sift = $(if $(or $(findstring ?,$(h3_skip)),$(filter $(h3_skip),$(abspath \
    $2)),$(filter-out $(words $2),$(words $(wildcard $(addsuffix /,$(call \
    h3_path,$2)))))),$(foreach d,$2,$(if $(filter $(h3_skip),$(call \
    h3_abs,$d)),,$(if $(wildcard $(call h3_path,$d)/),$(call \
    h3_path,$d),$(call h3_err,TRACES: $1 matches a name that holds \
    whitespace or a backslash$(,) near $d$(,) which make cannot carry in a \
    file name; rename it)h3-refused))),$(call h3_path,$2))
# h3_dirs: the run directories, from TRACES_FROM's lines or TRACES' patterns.
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
ifeq ($(TRACES)$(TRACES_FROM),)
$(call h3_err,no TRACES given$(,) and $(h3_reports) remembers no sweep: name \
    the run directories$(,) as in make reports TRACES='runs/*')
endif

# --- a run's trace -----------------------------------------------------------

# $(call h3_globs,DIR): the names nsys gives a run's trace and configuration
# files; h3_kinds: the same as patterns of $(filter).
h3_globs = $(addprefix $1/,cuda_gpu_trace.csv *_cuda_gpu_trace.csv \
    *_gputrace.csv cuda_kern_exec_trace.csv *_cuda_kern_exec_trace.csv \
    *_kernexectrace.csv *nvtx_pushpop_trace.csv *.sqlite *.nsys-rep \
    config.json run.env)
h3_kinds := $(subst %/*,%,$(call h3_globs,%))
# The other half of a CSV pair: the kernel trace of GPU trace $1 (kmate),
# the GPU trace of kernel trace $1 (gmate).
h3_kmate = $(patsubst %_gputrace.csv,%_kernexectrace.csv,$(patsubst \
    %cuda_gpu_trace.csv,%cuda_kern_exec_trace.csv,$1))
h3_gmate = $(patsubst %_kernexectrace.csv,%_gputrace.csv,$(patsubst \
    %cuda_kern_exec_trace.csv,%cuda_gpu_trace.csv,$1))
# $(call h3_lacking,TRACES,MATE): "; found X without Y" for each of
# TRACES whose other half, $(call MATE,X), is not in the run.
h3_lacking = $(foreach f,$1,$(if $(filter $(call $2,$f),$(h3_runfiles)),,; \
    found $(notdir $f) without $(notdir $(call $2,$f))))
# The name of run directory h3_d: the last part of its path.
h3_name = $(notdir $(abspath $(h3_d)))
h3_looks := h3prof looks for cuda_gpu_trace.csv and cuda_kern_exec_trace.csv \
    (or PREFIX_ before each, or PREFIX_gputrace.csv and \
    PREFIX_kernexectrace.csv), NAME.sqlite or NAME.nsys-rep
h3_rename := holds whitespace or a character make cannot carry in a file \
    name; rename it

# h3_run: evaluated for run directory h3_d, run number h3_i (variables, not
# arguments, for a path may hold a comma), named h3_n.  It sorts the run's
# files by kind (by their patterns where make split a name at a blank),
# then evaluates h3_run_CASE for the case h3_case names: pair, sqlite,
# nsysrep, kept and (under -k) notrace define a report; the rest are errors.
define h3_run
h3_n := $(h3_name)
h3_name_$(h3_i) := $(h3_n)
h3_runfiles := $(wildcard $(h3_d)/*)
h3_runfiles := $(filter $(h3_kinds),$(if $(filter-out \
    $(h3_d)/%,$(h3_runfiles)),$(wildcard $(call \
    h3_globs,$(h3_d))),$(h3_runfiles)))
h3_gputraces := $(sort $(filter %gpu_trace.csv %_gputrace.csv,$(h3_runfiles)))
h3_kerntraces := $(sort $(filter %kern_exec_trace.csv \
    %_kernexectrace.csv,$(h3_runfiles)))
h3_pairs := $(filter $(call h3_gmate,$(h3_kerntraces)),$(h3_gputraces))
h3_sqlites := $(filter %.sqlite,$(h3_runfiles))
h3_nsysreps := $(filter %.nsys-rep,$(h3_runfiles))
h3_config := $(firstword $(filter %/config.json,$(h3_runfiles)) $(filter \
    %/run.env,$(h3_runfiles)))
h3_found := $(h3_gputraces) $(h3_kerntraces) $(h3_sqlites) $(h3_nsysreps)
h3_base := $(if $(h3_out),$(h3_out)/$(h3_n),$(h3_d))
h3_where := $(h3_base)$(if $(h3_scopetag),/$(h3_scopetag))
h3_exportof :=
h3_kexecpath :=
$(eval $(value h3_run_$(h3_case)))
ifneq ($(h3_samenames),)
h3_names += $(h3_n)
endif
endef
# The first case that holds (a word of h3_found outside h3_d is part of a
# name make split at a blank).
h3_case = $(or $(if $(filter-out $(h3_d)/%,$(h3_found))$(and \
    $(h3_oddfiles),$(call h3_anyunsafe,$(notdir $(h3_found)))),badfile),$(if \
    $(and $(h3_samenames),$(filter $(h3_n),$(h3_names))),samename),$(if \
    $(word 2,$(h3_pairs)),pairs,$(if $(h3_pairs),pair)),$(if \
    $(word 2,$(h3_sqlites)),sqlites,$(if $(h3_sqlites),sqlite)),$(if \
    $(word 2,$(h3_nsysreps)),nsysreps,$(if $(h3_nsysreps),nsysrep)),$(if $(and \
    $(wildcard $(h3_d)/report.json),$(findstring "traces_at":,$(file \
    <$(h3_d)/config.json))),kept),notrace)

h3_run_badfile = $(call h3_err,run directory $(h3_d): a trace file name in \
    it $(h3_rename))
h3_run_samename = $(call h3_err,run directory $(h3_d): another run is named \
    $(h3_n)$(,) the last part of its path; a sweep needs distinct names)
# $(call h3_toomany,FILES,WHAT): the error of a run with several traces.
h3_toomany = $(call h3_err,run directory $(h3_d): $(words $1) $2 ($(notdir \
    $1)); a run directory holds one: put each run in its own)
h3_run_pairs = $(call h3_toomany,$(h3_pairs),trace pairs)
h3_run_sqlites = $(call h3_toomany,$(h3_sqlites),nsys SQLite exports)
h3_run_nsysreps = $(call h3_toomany,$(h3_nsysreps),nsys reports)
# A CSV pair; a SQLite export beside it (make profile leaves both) is read
# too, for the copies and memsets the pair lacks.
define h3_run_pair
h3_extrasqlite := $(if $(word 2,$(h3_sqlites)),,$(h3_sqlites))
h3_traces := $(h3_pairs) $(call h3_kmate,$(h3_pairs)) $(h3_extrasqlite)
h3_chainargs := 'TRACEDIR=$(h3_tracedir)'$(if $(h3_extrasqlite), \
    'SQLITE_NAME=$(notdir $(h3_extrasqlite))') $(if $(filter \
    %cuda_gpu_trace.csv,$(h3_pairs)),'CSV_PREFIX=$(patsubst \
    $(h3_d)/%cuda_gpu_trace.csv,%,$(h3_pairs))','GPU_CSV=$(notdir \
    $(h3_pairs))' 'KERNEL_CSV=$(notdir $(call h3_kmate,$(h3_pairs)))' \
    'NVTX_CSV=')
h3_kexecpath := $(h3_tracedir)$(notdir $(call h3_kmate,$(h3_pairs)))
$(eval $(value h3_define))
endef
define h3_run_sqlite
h3_traces := $(h3_sqlites)
h3_chainargs := 'TRACEDIR=$(h3_tracedir)' 'SQLITE_NAME=$(notdir \
    $(h3_sqlites))'
h3_exportof := $(filter $(h3_sqlites:.sqlite=.nsys-rep),$(h3_nsysreps))
$(h3_traces): private h3_errfile := $(h3_where)/report.err
$(eval $(value h3_define))
endef
# An nsys report: the trace is its SQLite export, made beside the run's
# report (by the pattern rule %.sqlite, or under OUT by this rule).
define h3_run_nsysrep
h3_traces := $(h3_base)/$(notdir $(h3_nsysreps:.nsys-rep=.sqlite))
h3_exportof := $(h3_nsysreps)
h3_chainargs := 'TRACEDIR=$(patsubst -%,./-%,$(h3_base))/' \
    'SQLITE_NAME=$(notdir $(h3_traces))'
ifneq ($(h3_out),)
$(h3_traces): $(h3_nsysreps)
	$(h3_exporting)
endif
$(h3_traces): private h3_errfile := $(h3_where)/report.err
$(eval $(value h3_define))
h3_files_$(h3_i) := $(h3_config)
endef
# Reduced where it was profiled (make sweep HOSTS=...): its report is
# taken as it is, and cannot be scoped here.
define h3_run_kept
h3_json_$(h3_i) := $(h3_d)/report.json
h3_kept_$(h3_i) := yes
$(if $(RANGE)$(WINDOW),$(call h3_err,run directory $(h3_d): reduced where \
    it was profiled (make sweep HOSTS=...)$(,) it cannot be scoped here: \
    profile it with KEEP_TRACES=1 to scope it))
endef
# No trace: an error of the sweep, or under -k a failed run whose error
# record says why.
define h3_run_notrace
h3_why := run directory $(h3_d): no trace: $(h3_looks)$(call \
    h3_lacking,$(h3_gputraces),h3_kmate)$(call \
    h3_lacking,$(h3_kerntraces),h3_gmate)$(if \
    $(wildcard $(h3_d)/*/*.csv $(h3_d)/*/*.sqlite $(h3_d)/*/*.nsys-rep),; \
    did you mean '$(h3_d)/*'?)
ifeq ($(h3_keepgoing),)
$(call h3_err,$(h3_why))
else
h3_json_$(h3_i) := $(h3_where)/report.json
h3_notrace_$(h3_i) := yes
$(h3_json_$(h3_i)): private h3_why := $(h3_why)
endif
endef

# h3_define: the rule of run h3_i's report, made from h3_traces, and what
# its recipe reads.  h3_in, the key report.inputs records, names the run, its
# files and the scope.  For the count of reports (see h3-plan) the report
# has a second name, RUN/./report.json, as does an export it reads.
define h3_define
h3_json_$(h3_i) := $(h3_where)/report.json
h3_nvtx := $(filter $(patsubst %cuda_kern_exec_trace.csv,\
    %nvtx_pushpop_trace.csv,$(filter %cuda_kern_exec_trace.csv,\
    $(h3_traces))),$(h3_runfiles))
h3_in := name=$(h3_n) dir=$(h3_d) config=$(h3_config) \
    rules=$(H3PROF_RULES) traces=$(subst $() ,$(,),$(strip $(h3_traces)))$(if \
    $(h3_nvtx), nvtx=$(h3_nvtx))$(h3_scopein)
h3_in_$(h3_i) := $(h3_in)
h3_deps := $(h3_traces) $(h3_nvtx) $(h3_config)
$(h3_json_$(h3_i)): $(h3_deps)
ifneq ($(h3_quiet),)
$(h3_where)/./report.json: $(if $(h3_exportof),$(filter-out \
    $(h3_traces),$(h3_deps)) $(dir $(h3_traces))./$(notdir \
    $(h3_traces)),$(h3_deps))
ifneq ($(h3_exportof),)
$(dir $(h3_traces))./$(notdir $(h3_traces)): $(h3_exportof) ;
endif
endif
$(h3_json_$(h3_i)): private h3_args := $(h3_chainargs) 'RUN_NAME=$(h3_n)'$(if \
    $(h3_config), 'RUN_CONFIG=$(h3_config)')$(h3_scopeargs)
$(h3_json_$(h3_i)): private h3_kexec := $(h3_kexecpath)
$(h3_json_$(h3_i)): private h3_in := $(h3_in)
$(h3_json_$(h3_i)): private h3_inputs := $(h3_deps)
$(h3_json_$(h3_i)): private h3_page := $(h3_pagedir)/$(h3_n).html
h3_files_$(h3_i) := $(h3_deps)
endef
# reduce.mk's settings for a run: where its traces are (./-DIR, not an
# option, for a DIR that starts with -) and the scope, checked already.
h3_tracedir = $(patsubst -%,./-%,$(h3_d))/
h3_scopeargs := $(if $(RANGE), 'RANGE=$(RANGE)'$(if $(SKIP), \
    'SKIP=$(SKIP)'))$(if $(WINDOW), 'WINDOW=$(WINDOW)')$(if \
    $(h3_scopetag), 'SCOPE_TAG=$(h3_scopetag)')

# --- every run ---------------------------------------------------------------

# The loop over the runs, h3_run for each.  Each name and path is checked
# only when a look at them all finds a duplicate name or an unsafe
# character.  No list grows run by run (+=, or $(words) of a growing list):
# each step would copy it, and 10,000 runs would take seconds.
h3_seq := $(if $(h3_dirs),$(shell seq $(words $(h3_dirs))))
h3_allnames := $(notdir $(abspath $(h3_dirs)))
h3_samenames := $(if $(filter-out $(words $(h3_allnames)),$(words $(sort \
    $(h3_allnames)))),yes)
h3_oddpaths := $(call h3_anyunsafe,$(h3_dirs))
h3_oddnames := $(or $(filter-out $(words $(h3_dirs)),$(words \
    $(h3_allnames))),$(call h3_anyunsafe,$(h3_allnames)))
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
# h3_ids: the runs by number; h3_madeids: those reduced here.  Reports:
# h3_jsons, made here; h3_notracejsons, of runs without a trace (-k);
# h3_keptjsons, taken as they are.  h3_files: the runs' input files.
h3_ids := $(foreach i,$(h3_seq),$(if $(h3_json_$i),$i))
h3_madeids := $(foreach i,$(h3_ids),$(if $(h3_kept_$i)$(h3_notrace_$i),,$i))
h3_jsons := $(foreach i,$(h3_madeids),$(h3_json_$i))
h3_notracejsons := $(foreach i,$(h3_ids),$(if $(h3_notrace_$i),$(h3_json_$i)))
h3_keptjsons := $(foreach i,$(h3_ids),$(if $(h3_kept_$i),$(h3_json_$i)))
h3_files := $(foreach i,$(h3_ids),$(h3_files_$i))

# --- the list of runs and the record of the sweep ----------------------------

# $(call h3_runlines,IDS): runs IDS as runs.list lists them.
h3_runlines = $(subst :,$(h3_tab),$(subst $() ,$(h3_nl),$(strip \
	$(foreach i,$1,$(h3_name_$i):$(h3_json_$i)))))
# Each is written again only when its text changed; the summary follows.
h3_list := $(h3_reports)/runs.list
h3_listtext := $(call h3_runlines,$(h3_ids))
define h3_recordtext :=
# make reports: the sweep of this directory; see pipeline.mk.
$(strip h3_was_TRACES := $(TRACES))
$(strip h3_was_TRACES_FROM := $(TRACES_FROM))
$(strip h3_was_OUT := $(OUT))
$(strip h3_was_REPEAT_KEYS := $(REPEAT_KEYS))
$(strip h3_was_RULES := $(H3PROF_RULES))
endef
ifneq ($(strip $(file <$(h3_list))),$(strip $(h3_listtext)))
$(h3_list): h3-force
endif
ifneq ($(strip $(file <$(h3_record))),$(strip $(h3_recordtext)))
$(h3_record): h3-force
endif
$(h3_record): h3_changed := $(if $(h3_was_TRACES)$(h3_was_TRACES_FROM),$(if \
	$(call h3_differ,$(TRACES)|$(TRACES_FROM),$(h3_was_TRACES)|$(h3_was_TRACES_FROM)),\
	the sweep of $(h3_reports) changed: $(or $(h3_was_TRACES),$(addprefix \
	TRACES_FROM=,$(h3_was_TRACES_FROM))) -> $(or $(TRACES),$(addprefix \
	TRACES_FROM=,$(TRACES_FROM)))))
# Written in place by make: one an interrupt cuts short differs from its
# text, so the next make writes it again.  (The mkdir is in the expansion,
# which make does for the whole recipe first.)  A new list under OUT makes
# the runs' directories there; killed makes' litter goes.
$(h3_list) $(h3_record):
	$(if $(h3_changed),@echo 'pipeline.mk: $(strip $(h3_changed))')
	$(shell mkdir -p -- '$(@D)')$(file >$@,$(if \
	    $(filter $(h3_list),$@),$(h3_listtext),$(h3_recordtext)))
	@:$(if $(h3_litter),; rm -f -- $(h3_litter))$(if $(and $(h3_out),$(filter \
	    $(h3_list),$@)),$(call h3_chunks,mkdir -p --,$(h3_newdirs)))
h3_productdirs = $(sort $(dir $(h3_jsons) $(h3_notracejsons)))
h3_newdirs = $(filter-out $(wildcard $(h3_productdirs)),$(h3_productdirs))

# --- which reports are stale -------------------------------------------------

# One fresh -s for the whole sweep names the stale reports and pages,
# which are then made again (h3-force).  Its query has a line a record:
# ID, the record's path and the key it must hold, tab-separated.  Without
# fresh (then built), every report is made again anyway.
h3_query := $(h3_tmproot)fresh.$(h3_pid)
h3_querytext := $(foreach i,$(h3_madeids),$i$(h3_tab)$(dir \
    $(h3_json_$i))report.inputs$(h3_tab)$(h3_in_$i)$(h3_nl))$(if $(filter \
    0,$(HTML)),,$(foreach i,$(h3_ids),p$i$(h3_tab)$(h3_pagedir)/$(h3_name_$i).inputs$(h3_tab)$(h3_json_$i)$(h3_nl)))
h3_stale := $(if $(and $(h3_ids),$(wildcard $(H3PROF_BIN)/fresh)),$(file \
    >$(h3_query),$(h3_querytext))$(shell '$(H3PROF_BIN)/fresh' -s \
    '$(h3_query)' -x))
# (Targets are written as references: a path may hold = or :, which eval
# would read as rule syntax.)
$(foreach i,$(filter-out p%,$(h3_stale)),$(eval $$(h3_json_$i) $(if \
    $(h3_quiet),$$(dir $$(h3_json_$i))./report.json): h3-force))
$(foreach i,$(patsubst p%,%,$(filter p%,$(h3_stale))),$(eval \
    $$(h3_pagedir)/$$(h3_name_$i).html: h3-force))
