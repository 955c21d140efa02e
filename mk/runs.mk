# mk/runs.mk: finding and checking the runs, and which reports are stale
# (Part of pipeline.mk, which includes it: see the map there.)

# --- the runs ------------------------------------------------------------------

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
h3_base := $(if $(h3_out),$(h3_out)/$(h3_n),$(h3_d))
h3_where := $(h3_base)$(if $(h3_scopetag),/$(h3_scopetag))
# The nsys report the case's trace is exported from, if it is one; the
# settings of reduce.mk for the run.
h3_exportof :=
h3_chainargs :=
h3_kexecpath :=
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
# Where the run directory holds one SQLite export beside its CSV pair
# (make profile leaves both), reduce.mk reads the export too: its API
# calls of copies and memsets, which the pair lacks, tell the time
# account more.  Several exports beside a pair are left unread.
define h3_run_pair
h3_xport := $(if $(word 2,$(h3_sqls)),,$(h3_sqls))
h3_srcs := $(h3_pairs) $(call h3_kmate,$(h3_pairs)) $(h3_xport)
h3_chainargs := 'TRACEDIR=$(h3_tracedir)'$(if $(h3_xport), 'SQLITE_NAME=$(notdir \
    $(h3_xport))') $(if $(filter \
    %cuda_gpu_trace.csv,$(h3_pairs)),'CSV_PREFIX=$(patsubst \
    $(h3_d)/%cuda_gpu_trace.csv,%,$(h3_pairs))','GPU_CSV=$(notdir \
    $(h3_pairs))' 'KERNEL_CSV=$(notdir $(call h3_kmate,$(h3_pairs)))' \
    'NVTX_CSV=')
h3_kexecpath := $(h3_tracedir)$(notdir $(call h3_kmate,$(h3_pairs)))
$(eval $(value h3_define))
endef
define h3_run_sqlites
$(call h3_err,run directory $(h3_d): $(words $(h3_sqls)) nsys SQLite \
    exports ($(notdir $(h3_sqls))); a run directory holds one: put each \
    run in its own)
endef
define h3_run_sqlite
h3_srcs := $(h3_sqls)
h3_chainargs := 'TRACEDIR=$(h3_tracedir)' 'SQLITE_NAME=$(notdir $(h3_sqls))'
h3_exportof := $(filter $(h3_sqls:.sqlite=.nsys-rep),$(h3_reps))
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
h3_srcs := $(h3_base)/$(notdir $(h3_reps:.nsys-rep=.sqlite))
h3_exportof := $(h3_reps)
h3_chainargs := 'TRACEDIR=$(patsubst -%,./-%,$(h3_base))/' \
    'SQLITE_NAME=$(notdir $(h3_srcs))'
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
# Under -k, a failed run of the sweep, whose error record says why; else
# an error of the sweep, which stops everything.
define h3_run_notrace
h3_why := run directory $(h3_d): no trace: $(h3_looks)$(foreach \
    f,$(h3_gpu) $(h3_kx),$(if $(call h3_havemate,$f),,; found \
    $(notdir $f) without $(notdir $(call h3_mate,$f))))$(if \
    $(wildcard $(h3_d)/*/*.csv $(h3_d)/*/*.sqlite $(h3_d)/*/*.nsys-rep),; \
    did you mean '$(h3_d)/*'?)
ifeq ($(h3_keepgoing),)
$(call h3_err,$(h3_why))
else
h3_name_$(h3_i) := $(h3_n)
h3_json_$(h3_i) := $(h3_where)/report.json
h3_notrace_$(h3_i) := yes
$(h3_json_$(h3_i)): private h3_why := $(h3_why)
endif
endef

# h3_define: the rules of the report of run h3_d, read from h3_srcs.  It
# is made again when what report.inputs says it was made from is no more
# so: h3_in, the key, names the run and its files, and fresh(1) records
# and checks the files' identity (see h3_stale, below).
define h3_define
h3_name_$(h3_i) := $(h3_n)
h3_json_$(h3_i) := $(h3_where)/report.json
h3_nvtx := $(filter $(patsubst %cuda_kern_exec_trace.csv,\
    %nvtx_pushpop_trace.csv,$(filter %cuda_kern_exec_trace.csv,\
    $(h3_srcs))),$(h3_ls))
h3_in := name=$(h3_n) dir=$(h3_d) config=$(h3_conf) \
    rules=$(H3PROF_RULES) traces=$(subst $() ,$(,),$(strip $(h3_srcs)))$(if \
    $(h3_nvtx), nvtx=$(h3_nvtx))$(h3_scopein)
h3_in_$(h3_i) := $(h3_in)
h3_deps := $(h3_srcs) $(h3_nvtx) $(h3_conf)
$(h3_json_$(h3_i)): $(h3_deps)
ifneq ($(h3_quiet),)
# The report under its second name, for the count (see h3-plan): an
# export it is made from, under its second name too, is made again by
# nothing but what would make the export again.
$(h3_where)/./report.json: $(if $(h3_exportof),$(filter-out \
    $(h3_srcs),$(h3_deps)) $(dir $(h3_srcs))./$(notdir $(h3_srcs)),$(h3_deps))
ifneq ($(h3_exportof),)
$(dir $(h3_srcs))./$(notdir $(h3_srcs)): $(h3_exportof) ;
endif
endif
$(h3_json_$(h3_i)): private h3_args := $(h3_chainargs) 'RUN_NAME=$(h3_n)'$(if \
    $(h3_conf), 'RUN_CONFIG=$(h3_conf)')$(h3_scopeargs)
$(h3_json_$(h3_i)): private h3_kexec := $(h3_kexecpath)
$(h3_json_$(h3_i)): private h3_in := $(h3_in)
$(h3_json_$(h3_i)): private h3_inputs := $(h3_deps)
$(h3_json_$(h3_i)): private h3_page := $(h3_reports)/pages/$(h3_n).html
h3_files_$(h3_i) := $(h3_srcs) $(h3_nvtx) $(h3_conf)
endef
# The settings of reduce.mk for a run (h3_chainargs, set by the cases):
# where its traces are, h3_tracedir (a path that starts with - is no
# option as ./-), and their names; for a pair, h3_kexecpath, its
# kernel-exec trace, whose size the recipe's shell tells reduce.mk.  A
# scope, checked and named here, it takes as it is (SCOPE_TAG).
h3_tracedir = $(patsubst -%,./-%,$(h3_d))/
h3_scopeargs := $(if $(RANGE), 'RANGE=$(RANGE)'$(if $(SKIP), \
    'SKIP=$(SKIP)'))$(if $(WINDOW), 'WINDOW=$(WINDOW)')$(if \
    $(h3_scopetag), 'SCOPE_TAG=$(h3_scopetag)')

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
h3_jsons := $(foreach i,$(h3_ids),$(if $(h3_kept_$i)$(h3_notrace_$i),,$(h3_json_$i)))
h3_notracejsons := $(foreach i,$(h3_ids),$(if $(h3_notrace_$i),$(h3_json_$i)))
h3_keptjsons := $(foreach i,$(h3_ids),$(if $(h3_kept_$i),$(h3_json_$i)))
h3_files := $(foreach i,$(h3_ids),$(h3_files_$i))
ifeq ($(TRACES)$(TRACES_FROM),)
$(call h3_err,no TRACES given$(,) and $(h3_reports) remembers no sweep: name \
    the run directories$(,) as in make reports TRACES='runs/*')
endif

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
	the sweep of $(h3_reports) changed: $(or $(h3_was_TRACES),$(addprefix \
	TRACES_FROM=,$(h3_was_TRACES_FROM))) -> $(or $(TRACES),$(addprefix \
	TRACES_FROM=,$(TRACES_FROM)))))
# Make expands a whole recipe before it runs it: the directory must be
# there when $(file) writes.  It writes the file itself, no temporary one
# that an interrupt could leave: make removes a target its interrupted
# recipe changed, and one it did not finish is not the list make wants,
# so the next make writes it again.  A new list, of a sweep to OUT, makes
# the runs' product directories there, a mkdir for 200 (each run makes
# its own where it is missing, a process a run).
$(h3_list) $(h3_record):
	$(if $(h3_changed),@echo 'pipeline.mk: $(strip $(h3_changed))')
	$(shell mkdir -p -- '$(@D)')$(file >$@,$(if \
	    $(filter $(h3_list),$@),$(h3_listtext),$(h3_recordtext)))
	@:$(if $(h3_litter),; rm -f -- $(h3_litter))$(if $(and $(h3_out),$(filter \
	    $(h3_list),$@)),$(call h3_chunks,mkdir -p --,$(h3_newdirs)))
h3_productdirs = $(sort $(dir $(h3_jsons) $(h3_notracejsons)))
h3_newdirs = $(filter-out $(wildcard $(h3_productdirs)),$(h3_productdirs))

# The start of the names of the files make writes for a process to read
# (fresh -s's query, the pages' batch lists): in TMPDIR, or in REPORTS
# where TMPDIR's name is one that $(file) cannot write (a comma, or a
# character h3_unsafe rejects).
h3_tmproot := $(if $(or $(call h3_unsafe,$(TMPDIR)),$(findstring \
    $(,),$(TMPDIR))),$(h3_reports)/.,$(or $(TMPDIR),/tmp)/h3prof.)

# Which reports and pages are stale, decided for the whole sweep by one
# fresh -s (no process a run): a report whose record, report.inputs, is
# missing, of another key, or names a file that is no more the same file
# (a trace or configuration replaced, even by one with an older
# modification time, as cp -p, tar x, rsync -a and mv leave it; a product
# deleted, cut short or edited); a page whose record, pages/NAME.inputs,
# names another report (a scope set or unset) or a report made again
# since.  Each stale one is made again (h3-force).  The query, one line
# per record (its ID, a tab, the record's path, a tab, the key it must
# hold), is written by make in TMPDIR, as the
# batches' lists are (see h3_tmproot).  Without fresh, which is then
# built, every report is made again anyway: it is a newer prerequisite.
h3_query := $(h3_tmproot)fresh.$(h3_pid)
h3_querytext := $(foreach i,$(filter-out $(foreach j,$(h3_ids),$(if \
    $(h3_kept_$j)$(h3_notrace_$j),$j)),$(h3_ids)),$i$(h3_tab)$(dir \
    $(h3_json_$i))report.inputs$(h3_tab)$(h3_in_$i)$(h3_nl))$(if $(filter \
    0,$(HTML)),,$(foreach i,$(h3_ids),p$i$(h3_tab)$(h3_reports)/pages/$(h3_name_$i).inputs$(h3_tab)$(h3_json_$i)$(h3_nl)))
h3_stale := $(if $(and $(h3_ids),$(wildcard $(H3PROF_BIN)/fresh)),$(file \
    >$(h3_query),$(h3_querytext))$(shell '$(H3PROF_BIN)/fresh' -s \
    '$(h3_query)' -x))
# (Each target is written as a variable reference, not as its value:
# a run's path may hold = or :, which eval would read as rule syntax.)
$(foreach i,$(filter-out p%,$(h3_stale)),$(eval $$(h3_json_$i) $(if \
    $(h3_quiet),$$(dir $$(h3_json_$i))./report.json): h3-force))
$(foreach i,$(patsubst p%,%,$(filter p%,$(h3_stale))),$(eval \
    $$(h3_reports)/pages/$$(h3_name_$i).html: h3-force))
