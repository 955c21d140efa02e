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
#		Under -k, a directory without a trace is a failed run
#		instead: its report.err says why, the summary lists it.
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
#		RANGE (h3report -R): make reports RANGE='denoise*'.  A
#		name carries its domain, DOMAIN:NAME (RANGE='cuBLAS:*');
#		a RANGE that matches no name fails the run, naming the
#		nearest names.
# SKIP		with RANGE, leave out the first SKIP instances of each
#		matching range name as warm-up (h3report -s): digits, at
#		most 18.
# WINDOW	if set instead, START:END, scope every report to the GPU
#		work that starts in that window, in ns from the first GPU
#		operation or as shares of the GPU span, as in 50%:100%
#		(h3report -w).  SKIP and WINDOW are checked before any run
#		is reduced: 1e3:2e3, -5:10 or 100%:0% is an error (exit 2).
# H3PROF_BIN	the filters (default: build/bin beside this file, or
#		PREFIX/libexec/h3prof/bin if it is installed in
#		PREFIX/share/h3prof).  The default build of a checkout is
#		made (its Makefile's all) where a filter is missing, for
#		every goal; after an edit of the filters' sources, a plain
#		make there builds them again.
# H3PROF_RULES	the classify(1) rules (default: rules/h3.rules beside it,
#		or h3.rules if installed).
# H3PROF_SCRIPTS h3summary, h3runpage, h3index (default: scripts
#		beside it, or PREFIX/bin if installed).
# V		1: print the recipes as make runs them instead of a line a
#		step (see what make says, below).
# H3PROF_KNOWN	variables of the includer's own makefile, which the
#		goals take on the command line: any other variable given
#		there (not in the environment) to make reports,
#		clean-reports, compare, profile or sweep that is none of
#		the settings of this file and sweep.mk (and MISSING, SLURM,
#		SBATCH, HTML, V) nor one of make's own (CC, CFLAGS, SHELL...)
#		is a slip, as TOLERENCE= or RANGES=: make names it, with the
#		setting nearest to it, and does nothing (exit 2).  (A make
#		run by another, as make sweep runs make reports, takes its
#		parent's command line unchecked.)
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
# RUN/report.json	the report of the run (reportjson -x): every key of
#			the reference's report, then the extensions.  Make
#			runs the filters itself, by the rules of reduce.mk
#			(to the bytes of h3report), its files in between
#			named RUN/.reduce.PID-START.NAME.  Its
#			time is when its reading began.  A run that cannot
#			be reduced leaves RUN/report.err instead, the error
#			messages, and no report.json.
# REPORTS/errors/NAME.err
#			the error record of a failed run whose product
#			directory is too full to hold its report.err (a
#			full disk under OUT), read by the summary in its
#			place; the run's next reduction removes it, as
#			does make clean-reports.
# RUN/scope.TAG/	with RANGE or WINDOW, the scoped reduction's
#			products instead (report.json, kernels.tsv,
#			report.inputs, report.err, the page), TAG the scope
#			in file-name characters and its checksum, as in
#			scope.range-denoise_-skip-2.1234567890: each scope
#			keeps its own, the unscoped report is never
#			overwritten, and runs.list names the scope's.  With
#			OUT, OUT/NAME/scope.TAG/.
# RUN/report.inputs	what the report was made from (fresh(1), h3prof(5)):
#			the run's name and path, its trace and
#			configuration files, the rules, and the scope,
#			RANGE and SKIP or WINDOW, where one is given; then
#			the identity (device, inode, size, modification
#			and change times) of each of those files, of the
#			filters and make files, and of the products.
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
# REPORTS/effects.csv	a row per effect of a configuration key on a figure,
#			with its interval; see h3summary(1).
# REPORTS/kernels.tsv	every run's kernels.tsv, each line after its run's
#			name, under a line "# stamp STAMP", STAMP that of
#			summary.json; made with the summary.
# REPORTS/runs.list	the runs of the sweep, NAME tab report, a line each.
# REPORTS/inputs.mk	the sweep, as above.
#
# A report is made again when anything it was made from changed: its
# trace files (the CSV pair, the SQLite export or the nsys report), its
# configuration file, its name or path (a run renamed or copied), which
# files it is read from, the scope, the rules (their path or their
# content), a filter, a script or this file; and when one of its products
# changed since it was made (deleted, cut short, edited).  A file that is
# no more the one recorded is changed, whatever its time: one replaced by
# cp -p, tar x, rsync -a or mv keeps its old modification time, but has a
# new change time.  The summary is made again when a report,
# the list of runs, REPEAT_KEYS or the rules changed.  make -j N reduces N
# runs at once; the files are the same as with -j 1, and two make reports
# of one sweep at once both succeed with the same files.  Without -k,
# make stops at the first run it cannot reduce; with -k, it reduces every
# other run, writes the summary, which lists the failed runs, and then
# fails.
#
# What make says: a line a step, as the Linux kernel's Kbuild says one,
# and no recipe:
#
#	  REPORT  [ 2/12] res=720,attn=sdpa,rep=1  0.4 s
#	  SUMMARY reports (12 runs, 1 failed)
#	  PAGES   reports/pages (12 runs)
#	  INDEX   reports/index.html
#	Fastest: res=720,attn=sage2, GPU span 20.501 ms; see reports/summary.md and reports/index.html
#
# (and EXPORT for the export of an nsys report, CLEAN for make
# clean-reports, COMPARE for make compare; sweep.mk's PROFILE and
# SWEEP).  A REPORT line names the run as runs.list does; TOTAL is the
# count of the reports this make makes, known before the first starts,
# and N counts them as they start; the line comes as the run ends, with
# the time it took where the recipes' shell tells it without a process
# (bash's EPOCHREALTIME: the Makefile of a checkout sets SHELL to bash;
# dash, /bin/sh on Debian, has none), so that under -j the Ns can come
# out of order.  A PAGES line says a batch of pages, which under -j
# comes between the reports (see the pages, below).  A run that fails
# prints its error as it comes, and its line says "failed: see
# RUN/report.err" (or REPORTS/errors/NAME.err).  The last line, when
# this make made the summary or the index, is the first clause of
# summary.md's verdict, the fastest configuration, and where summary.md
# and the index are (no index with HTML=0).  V=1 prints the recipes
# instead, and make -s nothing but errors.  HTML takes 1 or 0 and V 1 or
# 0 alone: another value is an error that names it.
#
# A signal to make or to its process group (Ctrl-C's SIGINT, SIGTERM,
# SIGHUP) ends every step under way at once and keeps nothing of it (a
# run's report.json, report.inputs, kernels.tsv, strip.tsv, gapbins.tsv,
# an export, a batch of pages), and make says so in one line, where it
# would say a line a job:
#
#	pipeline.mk: interrupted: the steps under way were stopped and nothing of them was kept; make reports again to finish the sweep
#
# and exits 130 for SIGINT, 143 for SIGTERM.
#
# make clean-reports removes the summaries and the runs' reports, kernel
# tables, inputs and error records (REPORTS/errors/*.err too), their
# scope.TAG directories (with
# RANGE or WINDOW, that scope's products alone), and the temporary files
# of reductions killed with SIGKILL (not those of a make reports at work);
# it leaves the record of the sweep and the
# SQLite exports of nsys reports.
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
# A checkout's own build, unless another is named, is made where it is
# missing: every goal builds the filters it runs (after an edit of their
# sources, a plain make in the checkout builds them again).
h3_build := $(if $(filter undefined,$(origin H3PROF_BIN)),yes)
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

, := ,
h3_hash := \#
# With -k a run that fails does not stop the summary, which lists it; a
# check after the summary fails the sweep.
h3_keepgoing := $(findstring k,$(filter-out -%,$(firstword $(MAKEFLAGS))))

# What make says, as the Linux kernel's Kbuild says it: by default a line
# a step, the step's word and what it made (Kbuild's quiet_cmd_*), and no
# recipe (Kbuild's $(Q)); with V=1 the recipes instead, as make echoes
# them; with make -s nothing but the errors.  Each line is printed by a
# builtin printf in the shell the recipe runs anyway: no process more.
V ?=
# The pages (see the pages, below) are drawn unless HTML=0; set here,
# before the check of its value.
HTML ?= 1
h3_verbose := $(filter 1,$(V))
# make -s, as Kbuild tells it: an s among the letters of MAKEFLAGS' first
# word (-s wins over V=1).
h3_silent := $(findstring s,$(firstword -$(MAKEFLAGS)))
h3_quiet := $(if $(h3_verbose)$(h3_silent),,yes)
# Put before each recipe line: make echoes it only with V=1.
h3_Q := $(if $(h3_verbose),,@)
# $(call h3_echo,STEP): the shell command, ending in ;, that prints the
# line of STEP, h3_quiet_STEP: printf's format and arguments, a format
# free of the names' characters (no name holds % or \).  Nothing unless
# quiet.
h3_echo = $(if $(h3_quiet),printf $(h3_quiet_$1);)

# A signal to make (which passes SIGTERM on to its jobs' shells) or to
# its process group (Ctrl-C's SIGINT) ends the steps under way at once,
# keeps nothing of them, and make says so in one line, not in a line a
# job.  $(call h3_trap,CLEANUP) starts such a recipe: its shell sources
# h3stop.sh (no process), whose traps end its h3_bg command and all under
# it, run the shell command CLEANUP and say it (see there).
# The step is named by its target, or by its h3_stepname.
h3_trap = h3_step='$(or $(h3_stepname),$@)' h3_stopfile='$(h3_stopfile)'; \
    h3_discard() { $(or $1,:); }; . '$(h3_stopsh)' &&
h3_stopfile = $(h3_reports)/.interrupted.$(h3_pid)
# $(call h3_mkdir,DIR): the shell command that makes DIR where it is
# missing: no process where it is there.
h3_mkdir = { [ -d '$1' ] || mkdir -p -- '$1'; }
h3_stopsh = $(dir $(h3_lib))h3stop.sh
# $(call h3_bg,COMMAND): a simple command, which succeeds as COMMAND does,
# in the background of the recipe's shell, which waits for it: a shell
# defers its traps until its foreground command ends.  (A background
# command's standard input is /dev/null: COMMAND reads none.)  h3_job
# is "starting" until its PID is known: a signal that comes as COMMAND
# is started finds it in $$! (see h3stop.sh).
h3_bg = { h3_job=starting; $1 & h3_job=$$!; wait "$$h3_job"; h3_rc=$$?; \
    h3_job=; [ "$$h3_rc" -eq 0 ]; }
# The time a step took, h3_took ("  0.4 s", or nothing) from h3_t0, which
# h3_clock sets when it begins: where the shell tells the time for free
# (EPOCHREALTIME, in microseconds: bash 5, which a checkout's Makefile
# runs the recipes with); dash, which is /bin/sh on Debian, does not.
h3_clock = h3_t0=$${EPOCHREALTIME-};
h3_took = h3_took=; case $$h3_t0 in *[.,]*) h3_t1=$$EPOCHREALTIME; \
    h3_ds=$$((($${h3_t1%[.,]*}$${h3_t1\#*[.,]} - \
    $${h3_t0%[.,]*}$${h3_t0\#*[.,]} + 50000) / 100000)); \
    h3_took="  $$((h3_ds / 10)).$$((h3_ds % 10)) s";; esac;

# What is wrong with the sweep, a message each: h3_errs names them, h3_eN
# is message N.  With any, make reports says them all and does nothing
# else.  $ and # in a message are a file's name, not make's.
h3_errs :=
h3_err = $(eval h3_errs += h3_e$(words x $(h3_errs)))$(eval \
    $(lastword $(h3_errs)) := $(subst $(h3_hash),\$(h3_hash),$(subst $$,$$$$,$1)))

# The settings: a variable given on the command line of make reports,
# clean-reports, compare, profile or sweep that is none of them, nor make's
# own nor one the includer names in H3PROF_KNOWN, is a slip (TOLERENCE=,
# RANGES=): make says so, with the nearest setting, and does nothing.
# (The environment is no command line: its variables are not looked at.)
h3_settings := TRACES TRACES_FROM OUT REPORTS REPEAT_KEYS NSYS RANGE SKIP \
    WINDOW HTML V SLURM SBATCH BASE NEW TOLERANCE ALPHA MISSING SCOPES \
    H3PROF_BIN H3PROF_RULES H3PROF_SCRIPTS H3PROF_KNOWN \
    NSYS_FLAGS RUN CMD CONFIG SWEEP SWEEPDIR GPUS HOSTS HALT SWEEP_ENV \
    KEEP_TRACES SRUN SRUN_REDUCE
h3_makes := MAKEFLAGS GNUMAKEFLAGS MAKEFILES MAKEOVERRIDES MAKESHELL SHELL \
    .SHELLFLAGS MAKE MAKELEVEL MFLAGS CC CFLAGS CPPFLAGS LDFLAGS LDLIBS AR \
    ARFLAGS
h3_goals := reports clean-reports compare profile sweep
# (A make that another runs takes its parent's command line, which was the
# parent's to check: make sweep's make reports, an includer's own.)
ifeq ($(MAKELEVEL),0)
ifneq ($(filter $(h3_goals),$(or $(MAKECMDGOALS),$(h3_goal))),)
h3_slips := $(filter-out $(h3_settings) $(h3_makes) $(H3PROF_KNOWN),$(foreach \
    v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v)))
endif
endif
# The setting nearest to each slip, SLIP=SETTING, by edit distance with case ignored
# (RUNS, a slip for the run directories, is TRACES), if one is near.
ifneq ($(h3_slips),)
# (Make's $(shell) runs its command as one line: each statement ends in ;.)
define h3_nearawk
function dist(a, b,    i, j, m, n, d, c) {
	m = length(a); n = length(b);
	for (i = 0; i <= m; i++) d[i, 0] = i;
	for (j = 0; j <= n; j++) d[0, j] = j;
	for (i = 1; i <= m; i++)
		for (j = 1; j <= n; j++) {
			c = d[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1));
			if (d[i - 1, j] + 1 < c) c = d[i - 1, j] + 1;
			if (d[i, j - 1] + 1 < c) c = d[i, j - 1] + 1;
			d[i, j] = c;
		}
	return d[m, n];
}
BEGIN {
	ns = split(slips, s, " "); nk = split(known, k, " ");
	for (i = 1; i <= ns; i++) {
		best = ""; bd = 3;
		if (toupper(s[i]) == "RUNS") best = "TRACES";
		for (j = 1; j <= nk && best != "TRACES"; j++) {
			x = dist(toupper(s[i]), k[j]);
			if (x < bd && x <= length(k[j]) / 3 + 1) { bd = x; best = k[j]; }
		}
		if (best != "") printf "%s=%s ", s[i], best;
	}
}
endef
h3_nearest := $(shell awk -v slips='$(h3_slips)' -v known='$(h3_settings)' \
    '$(h3_nearawk)')
$(foreach v,$(h3_slips),$(call h3_err,$v=$($v): no such setting$(if $(filter \
    $v=%,$(h3_nearest)),; did you mean $(patsubst $v=%,%,$(filter \
    $v=%,$(h3_nearest)))?,: make $(firstword $(filter $(h3_goals),$(or \
    $(MAKECMDGOALS),$(h3_goal)))) takes those pipeline.mk and sweep.mk \
    name (name your own makefile's in H3PROF_KNOWN))))
endif
# HTML and V take only the values their manual gives: HTML 1 or 0, V 1
# or 0 (or empty).  Any other value is an error, so that HTML=no, for
# one, does not draw the pages without a word.
$(if $(filter-out x0 x1,x$(HTML)),$(call \
    h3_err,HTML=$(HTML): no such value; give HTML=1 (the pages$(,) the \
    default) or HTML=0 (none)))
$(if $(filter-out x x0 x1,x$(V)),$(call h3_err,V=$(V): no such value; give \
    V=1 (the recipes) or V=0 (a line a step$(,) the default)))
h3_slipids := $(h3_errs)
# The scope, checked before any run is reduced, and its directory's
# name, h3_scopetag (see scope.mk); as report.inputs says it.
include $(H3PROF_DIR)scope.mk
h3_scopein := $(if $(RANGE), scope=$(RANGE)/$(SKIP))$(if $(WINDOW), \
    window=$(WINDOW))

# Characters make cannot carry in a file name, and those the recipes would
# have to quote: scripts/h3lib.sh's h3_unsafe is the same set.
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

# --- the rules -----------------------------------------------------------------

# The filters of a checkout whose build is missing, all made at once by
# its Makefile, which names its own build (H3PROF_BIN): no loop.
ifneq ($(h3_build),)
$(addprefix $(H3PROF_BIN)/,$(basename $(notdir $(wildcard \
    $(H3PROF_DIR)filters/*.c)))) &:
	+$(MAKE) -C '$(or $(H3PROF_DIR),.)' --no-print-directory all
endif
h3_summary := $(H3PROF_SCRIPTS)/h3summary
h3_lib := $(firstword $(wildcard $(H3PROF_SCRIPTS)/h3lib.sh \
	$(H3PROF_DIR)h3lib.sh))
# What every report depends on besides its run's files: the filters that
# reduce.mk's rules run, read from its text (each is written $(BIN)/NAME
# there), so that this list cannot drift from those rules; fresh, which
# checks the reports' records; the make files and the rules.
h3_reducemk := $(H3PROF_DIR)reduce.mk
h3_tools := $(patsubst $$(BIN)/%,$(H3PROF_BIN)/%,$(sort $(filter \
	$$(BIN)/%,$(file <$(h3_reducemk))))) $(H3PROF_BIN)/fresh \
	$(h3_reducemk) $(H3PROF_DIR)scope.mk $(H3PROF_RULES) $(H3PROF_MK)

# This make's process ID and start time (field 22 of /proc/PID/stat,
# where there is one), in the names of its temporary files,
# .NAME.PID-START, as h3summary names its own: two makes of one sweep at
# once must not write the same one.  Those of a make or an h3summary that
# was killed are removed by the next: a process of that ID that started at
# another time is not the one that wrote them, as process IDs are reused
# (a bare .NAME.PID, of an older h3prof, is live while that ID is).
h3_pid = $(eval h3_pid := $(shell s=; { read -r s </proc/$$PPID/stat; } \
    2>/dev/null; set -- $$s; echo "$$PPID$${22:+-$${22}}"))$(h3_pid)
h3_tmp = $(@D)/.$(@F).$(h3_pid)
h3_alive = $(if $(findstring -,$1),$(call h3_running,$(file </proc/$(firstword \
    $(subst -, ,$1))/stat),$(word 2,$(subst -, ,$1))),$(wildcard /proc/$1/))
# Whether the process of /proc/PID/stat $1 started at $2 and still runs:
# a killed make lingers as a zombie (state Z) until it is reaped, which in
# a container can take seconds.
h3_running = $(if $(filter-out Z X,$(word 3,$1)),$(filter $2,$(word 22,$1)))
# $(call h3_deadby,PIDOF,FILES): of FILES, those of dead processes, whose
# ID (and start) $(call PIDOF,NAME) reads from the file's name.
h3_deadby = $(foreach f,$2,$(if $(call h3_alive,$(call $1,$(notdir $f))),,$f))
# Of files named .NAME.PID-START, those of dead processes.
h3_dead = $(call h3_deadby,h3_pidlast,$1)
h3_pidlast = $(lastword $(subst ., ,$1))
h3_deadx = $(foreach f,$1,$(if $(call h3_dead,$(basename $f)),$f))
# Of the files named [.].reduce.PID-START[.NAME], by a make's reduction
# (and of an older h3prof, its scratch directories), those of dead makes.
h3_deadhidden = $(call h3_deadby,h3_pidsecond,$1)
h3_pidsecond = $(word 2,$(subst ., ,$1))
# Those that killed makes left in the sweep's runs, which a make that
# reduces a run removes with the summary, and make clean-reports (looked
# for only then: the no-op looks at no run's hidden files).
h3_deadreductions = $(call h3_deadhidden,$(wildcard $(foreach \
    d,$(h3_productdirs),$d.reduce.[0-9]* $d..reduce.[0-9]*)))
# The messages of the runs that dead makes reduced, and their queries of
# fresh (see h3_stale), in TMPDIR.
h3_deaderrs := $(if $(call h3_unsafe,$(TMPDIR)),,$(call h3_dead,$(wildcard \
	$(or $(TMPDIR),/tmp)/h3prof.reduce.*.[0-9]* \
	$(or $(TMPDIR),/tmp)/h3prof.fresh.[0-9]*)))
h3_litter := $(strip $(call h3_dead,$(wildcard $(h3_reports)/.runs.list.[0-9]* \
	$(h3_reports)/.inputs.mk.[0-9]* $(h3_reports)/.summary.*.[0-9]* \
	$(h3_reports)/.groups.csv.[0-9]* $(h3_reports)/.kernels.tsv.[0-9]* \
	$(h3_reports)/.effects.csv.[0-9]* $(h3_reports)/.interrupted.[0-9]* \
	$(h3_reports)/.pages-*.[0-9]* $(h3_reports)/.fresh.[0-9]* \
	$(h3_reports)/errors/*.err.[0-9]*) $(if \
	$(call h3_unsafe,$(TMPDIR)),,$(wildcard \
	$(or $(TMPDIR),/tmp)/h3prof.pages-*.[0-9]*))) $(h3_deaderrs))

# One shell a run, which starts no process it need not (but a make of
# reduce.mk's rules, whose reportjson records the inputs).  A
# run's page (see the pages, below), and one an older h3prof wrote beside
# the report, go as its report is made again.  Interrupted, it keeps none
# of the run's products, nor its report of before, which was being made
# again.
# A run's products: its report and the tables its page is drawn from.
h3_tables := kernels.tsv strip.tsv gapbins.tsv
h3_reportfiles := report.json $(h3_tables)
# $(call h3_here,FILES): FILES in the run's product directory, quoted.
h3_here = $(foreach f,$1,'$(@D)/$f')
$(h3_jsons): $(h3_tools)
	$(h3_Q)$(call h3_trap,rm -rf -- $(call \
	    h3_here,$(h3_reportfiles) report.inputs) $(h3_hiddenfiles) \
	    $${h3_e:+"$$h3_e"} '$(h3_spare).$(h3_pid)')$(if \
	    $(h3_quiet),$(h3_count)$(h3_clock) )$(if \
	    $(h3_out)$(h3_scopetag),$(call h3_mkdir,$(@D)) && )for p in \
	    '$(h3_page)' '$(@D)/report.html'; do [ ! -e "$$p" ] && \
	    [ ! -L "$$p" ] || rm -f -- "$$p"; done && \
	    $(h3_reducing) && \
	    { $(if $(h3_quiet),$(h3_took) $(call h3_echo,report)) :; } || \
	    { rm -rf -- $(call h3_here,report.inputs $(h3_tables)) \
	    $(h3_hiddenfiles); \
	    $(call h3_echo,failed)$(if $(h3_keepgoing),:,exit 1); }

# A run reduced by reduce.mk's chain (h3_args are its settings): one make
# of its rules, which execs each filter itself and puts the products in
# place, in the run's product directory: the kernel table and the page's
# first and the report last, each dated from the start of its reading
# (reportjson -s), as h3report dates them; then reportjson writes the
# record of what they were made from, RUN/report.inputs (see fresh(1)):
# the key, h3_in, and the identity of each input (the run's files, the
# filters, the make files and the rules) and of each product, an input
# changed since the reduction began recorded as changed.  Its files in
# between are named by this make, h3_hidden (HIDDEN_PREFIX), so that two makes of one
# run at once keep apart; make removes them once the products are made,
# and a killed make's are litter that the next removes.  It makes every
# step (-B): the products of before are there, and this make, not that
# one, knows that they are stale; they stay until the new ones replace
# them (KEEP_OLD), or the run fails.  Its error messages, less make's own
# lines about the failed step, are the run's error record; made, the
# messages are removed with the others of this make once the summary is
# made (h3_errfiles), which saves a process a run.  (The make below takes
# none of this one's flags and variables: MAKEFLAGS is empty; it runs the
# filters one at a time, the runs being make's -j.)
h3_dir = $(if $(filter -%,$(@D)),$(abspath $(@D)),$(@D))
# The run reduce.mk reduces, of which a scope's products are in scope.TAG.
h3_rundir = $(if $(h3_scopetag),$(patsubst \
    %/$(h3_scopetag),%,$(h3_dir)),$(h3_dir))
h3_hidden = .reduce.$(h3_pid).
# A run's files in between, and their filters' temporary files (.NAME.*).
h3_hiddenfiles = '$(h3_dir)/$(h3_hidden)'* '$(h3_dir)/.$(h3_hidden)'*
h3_makename := $(notdir $(MAKE))
# The kernel-exec trace of a pair (h3_kexec, of the run's), whose size the
# shell tells reduce.mk (SKIPPED: empty, a run without kernels), where
# make cannot see it.
h3_reducing = $(eval h3_chained := yes){ [ -w '$(@D)' ] || { if [ -d \
    '$(@D)' ]; then printf 'pipeline.mk: %s: not writable (read-only?): \
    write the reports elsewhere, as make reports OUT=DIR does\n' '$(@D)'; \
    else printf 'pipeline.mk: %s: no such directory\n' '$(@D)'; fi >&2; \
    false; }; } && h3_at= h3_e="$${TMPDIR:-/tmp}/$(h3_errname)" && \
    $(if $(h3_kexec),h3_skip= && { [ -s '$(h3_kexec)' ] || \
    h3_skip='$(h3_rundir)'; } && )if $(h3_nolinks) && $(call \
    h3_bg,MAKEFLAGS= $(h3s_step) \
    '$(MAKE)' -rB$(if $(h3_quiet)$(h3_silent),s) --no-print-directory -f \
    '$(h3_reducemk)' RUNS='$(h3_rundir)' HIDDEN_PREFIX=$(h3_hidden) \
    KEEP_OLD=yes H3PROF_BIN='$(H3PROF_BIN)' H3PROF_RULES='$(H3PROF_RULES)' \
    RECORD_KEY='$(h3_in)' RECORD_INPUTS='$(h3_inputs) $(h3_tools)' \
    $(h3_args)$(if $(h3_kexec), SKIPPED="$$h3_skip") 2>"$$h3_e"); then { [ \
    ! -s "$$h3_e" ] || cat -- "$$h3_e" >&2; } && { [ ! -e \
    '$(@D)/report.err' ] && [ ! -e '$(h3_spare)' ] || rm -f -- \
    '$(@D)/report.err' '$(h3_spare)'; }; else h3_kept=; \
    h3_errors() { h3_wrote=yes; while IFS= read -r h3_l; do case $$h3_l in \
    '$(h3_makename)'*': *** ['*'] Error '*|'$(h3_makename)'*': *** \
    Deleting file '*) ;; *) h3_kept=1; printf '%s\n' "$$h3_l" || \
    h3_wrote=;; esac; done <"$$h3_e"; [ -n "$$h3_kept" ] || echo \
    'pipeline.mk: $(@D): reduction failed (exit '"$$h3_rc"')' || \
    h3_wrote=; [ -n "$$h3_wrote" ]; }; rm -rf -- $(h3_hiddenfiles) $(call \
    h3_here,$(h3_reportfiles)) '$(@D)/report.err' '$(h3_spare)'; \
    h3_errors >&2; \
    h3_errors 2>/dev/null >'$(h3_dir)/$(h3_hidden)report.err' && mv -f -- \
    '$(h3_dir)/$(h3_hidden)report.err' '$(@D)/report.err' || { rm -f -- \
    '$(h3_dir)/$(h3_hidden)report.err'; h3_at='$(h3_spare)'; $(call \
    h3_mkdir,$(dir $(h3_spare))) && h3_errors 2>/dev/null \
    >'$(h3_spare).$(h3_pid)' && mv -f -- '$(h3_spare).$(h3_pid)' \
    "$$h3_at" || { rm -f -- '$(h3_spare).$(h3_pid)'; h3_at=; }; printf \
    'pipeline.mk: %s: cannot be written (is the disk full?): the error \
    above is %s\n' '$(@D)/report.err' "$${h3_at:+recorded in }$${h3_at:-not \
    recorded}" >&2; }; rm -f -- "$$h3_e"; false; fi
# A failed run's error record, RUN/report.err.  The run's products are
# removed first, to free their space on a full disk.  A record that
# cannot be written whole is not kept (the error is on stderr anyway).
# Where the run's directory has no room, the record goes to
# REPORTS/errors/NAME.err instead, which sweepsum reads for a run that
# has no report.err; the run's next reduction, or a record written in
# the run's own directory, removes it.
h3_spare = $(h3_reports)/errors/$(h3_runname).err
# A trace or configuration file that is a symbolic link to no file
# (dangling, or a loop of links) fails its run with a message that
# names the link; reduce.mk's make would instead say "No rule to make
# target" of one of its hidden intermediate files.
h3_nolinks = { h3_ok=1; for h3_f in $(foreach f,$(h3_inputs),'$f'); do \
    [ -e "$$h3_f" ] || [ ! -L "$$h3_f" ] || { h3_ok=; printf \
    'pipeline.mk: %s: a symbolic link to no file (dangling, or a loop of \
    links)\n' "$$h3_f"; }; done >"$$h3_e"; [ -n "$$h3_ok" ]; }
# The make's messages, in TMPDIR: a full disk in the run's must not hide
# them.  Those of a killed make go with the next sweep's litter.
h3_errname = h3prof.reduce.$(h3_runname).$(h3_pid)
# Those of this make, once its runs are reduced, and of the dead ones.
h3_chained :=
h3_errfiles = "$${TMPDIR:-/tmp}"/h3prof.reduce.*.$(h3_pid) $(h3_deaderrs)

# The line of a run: [N/TOTAL] and its name, then the time it took where
# the shell tells it.  TOTAL is the count of the reports this make makes,
# whole before the first starts (h3-plan); N counts them as they start,
# and each line is said as its run ends: with -j, N can come out of order.
h3_quiet_report = '  REPORT  [%*d/%d] %s%s\n' $(h3_width) $(h3_nth) \
    $(h3_total) '$(h3_runname)' "$$h3_took"
h3_quiet_failed = '  REPORT  [%*d/%d] %s  failed: see %s\n' $(h3_width) \
    $(h3_nth) $(h3_total) '$(h3_runname)' "$${h3_at:-$(@D)/report.err}"
h3_runname = $(patsubst name=%,%,$(firstword $(h3_in)))
# h3_count, as a run's recipe is expanded, as its run starts: h3_nth,
# its N.
h3_started :=
h3_count = $(eval h3_started += x)$(eval h3_nth := $(words $(h3_started)))

# The count: before any report is made, make updates each report under a
# second name, RUN/./report.json, the same file for the system but
# another target for make, with the same prerequisites as the report's
# and a recipe that runs nothing but counts: make updates it exactly when
# it will make the report again.  (Not with V=1 nor -s, which say no
# count.)
ifneq ($(h3_quiet),)
h3_planned :=
$(foreach j,$(h3_jsons),$(dir $j)./$(notdir $j)): $(h3_tools)
	$(eval h3_planned += x)
h3-plan: $(foreach j,$(h3_jsons),$(dir $j)./$(notdir $j))
	$(eval h3_total := $(words $(h3_planned)))$(eval h3_width := \
	    $(h3_total))$(foreach d,0 1 2 3 4 5 6 7 8 9,$(eval h3_width := \
	    $(subst $d,$d ,$(h3_width))))$(eval h3_width := $(words $(h3_width)))
$(h3_jsons): | h3-plan
endif

# A directory with no trace, under -k: a failed run, its error record
# saying why.
$(h3_notracejsons): h3-force
	@mkdir -p -- '$(@D)' && printf 'pipeline.mk: %s\n' $(call \
	    h3_quote,$(h3_why)) | tee -- '$(@D)/.report.err.$(h3_pid)' >&2 && \
	    mv -f -- '$(@D)/.report.err.$(h3_pid)' '$(@D)/report.err' && \
	    rm -f -- '$@' '$(@D)/kernels.tsv' '$(@D)/report.inputs'

# A trace file the run lost, or a run directory deleted, is no reason for
# make to stop: the run's reduction says what is missing, as with any
# broken run.
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
@mkdir -p -- '$(@D)' '$(dir $(h3_errfile))'
@command -v -- '$(NSYS)' >/dev/null || { printf '%s%s%s\n' \
    'pipeline.mk: $<: an nsys report is read through its SQLite export, ' \
    'which needs nsys, and $(NSYS) is no command: put nsys on the PATH or ' \
    'name it in NSYS=, or export it where nsys is (nsys export --type sqlite) and put $(@F) beside it' | \
    tee -- '$(h3_errfile)' >&2; rm -f -- '$(h3_errfile:.err=.json)' $(h3_products); exit 1; }
$(h3_Q)$(call h3_trap,rm -f -- '$(h3_tmp).sqlite' '$(h3_tmp).err')$(call \
    h3_echo,export)$(call h3_bg,'$(NSYS)' export --type sqlite --quiet true \
    --force-overwrite true --output '$(h3_tmp).sqlite' \
    '$(patsubst -%,./-%,$<)' 2>'$(h3_tmp).err') || { \
    cat -- '$(h3_tmp).err' >&2; \
    echo 'pipeline.mk: $<: $(NSYS) export failed' >>'$(h3_tmp).err'; \
    mv -f -- '$(h3_tmp).err' '$(h3_errfile)'; \
    rm -f -- '$(h3_errfile:.err=.json)' $(h3_products); \
    rm -f -- '$(h3_tmp).sqlite'; exit 1; }
@rm -f -- '$(h3_tmp).err'
@mv -f -- '$(h3_tmp).sqlite' '$@'
endef
h3_quiet_export = '  EXPORT  %s\n' '$@'
# The products of the report of the export's run, which go with it.
h3_products = $(foreach f,$(h3_tables),'$(h3_errfile:report.err=$f)')
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

h3_summaries := $(addprefix $(h3_reports)/summary.,json csv md) \
	$(h3_reports)/groups.csv $(h3_reports)/kernels.tsv \
	$(h3_reports)/effects.csv
$(h3_summaries) &: $(h3_list) $(h3_record) $(h3_jsons) $(h3_keptjsons) \
	$(h3_notracejsons) \
	$(h3_summary) $(H3PROF_BIN)/sweepsum $(h3_lib) $(H3PROF_MK)
	$(h3_Q)$(eval h3_made := yes)$(call h3_trap)$(if $(h3_chained),rm -f -- \
	    $(h3_errfiles) && )$(call h3_bg,H3PROF_BIN='$(H3PROF_BIN)' \
	    '$(h3_summary)' -r '$(REPEAT_KEYS)' -o '$(h3_reports)' \
	    '$(h3_list)')$(if $(h3_quiet), && { $(h3_readmd) $(call \
	    h3_echo,summary) :; })
	$(if $(h3_chained),$(call h3_chunks,rm -rf --,$(h3_deadreductions)))

# summary.md's own words, read by the shell's read (no process): its
# count of failed runs, h3_failed, and its verdict, h3_verdict.
h3_readmd = { read -r h3_l; read -r h3_l; read -r h3_counts; read -r h3_l; \
    read -r h3_verdict; } <'$(h3_reports)/summary.md' && \
    h3_failed=$${h3_counts\#*reduced, } && h3_failed=$${h3_failed%% failed*} &&
h3_quiet_summary = '  SUMMARY %s (%s, %s failed)\n' '$(h3_reports)' \
    '$(call h3_runs,$(words $(h3_ids)))' "$$h3_failed"
# N runs, or 1 run.
h3_runs = $1 run$(if $(filter 1,$1),,s)

# The last line, once the summary and the pages are made, if this make
# made either: the fastest configuration, as summary.md's verdict names
# it, and where to read more.
h3-done: $(h3_summaries)
	$(if $(and $(h3_quiet),$(h3_made)),@$(h3_readmd) \
	    h3_fastest=$${h3_verdict%%; next: *} && printf '%s; see %s\n' \
	    "$${h3_fastest%.}" '$(h3_reports)/summary.md$(if $(filter \
	    0,$(HTML)),, and $(h3_index))' || :)

# The batches of pages: h3_pagebatches names them, h3_batchids_B are
# the runs of batch B, h3_pagesize runs, the least power of two at least
# the square root of five times the runs (see the pages, below).  make
# reports takes (after the sweep's list and record, which it writes
# first) the reports of each batch, then the pages of the batch
# before (the last batch after the summaries, which it can be drawn
# beside), so that with -j a batch is drawn while the next is reduced:
# make starts the jobs in the order it meets them, and comes back to a
# target whose prerequisites were under way only once it has met all.
h3_pagesize := $(or $(firstword $(foreach g,4:4 8:13 16:52 32:205 64:820 \
    128:3277 256:13108,$(if $(word $(lastword $(subst :, ,$g)),$(h3_ids)),,\
    $(firstword $(subst :, ,$g))))),512)
# $(call h3_paging,BEFORE,IDS): the numbers of the batches of IDS, the
# first 1 + the words of BEFORE, an x a batch before them.
h3_paging = $(if $2,$(words x $1) $(eval h3_batchids_$(words x $1) := \
    $(wordlist 1,$(h3_pagesize),$2))$(call h3_paging,x $1,$(wordlist \
    $(words x $(h3_batchids_$(words x $1))),$(words $2),$2)))
h3_pagebatches := $(if $(filter 0,$(HTML)),,$(call h3_paging,,$(h3_ids)))
h3_paging_order := $(foreach b,$(h3_pagebatches),$(foreach \
    i,$(h3_batchids_$b),$(h3_json_$i)) $(addprefix h3-pages-,$(filter-out \
    0,$(words $(wordlist 2,$b,$(h3_pagebatches))))))

ifeq ($(h3_errs),)
reports: $(h3_list) $(h3_record) $(h3_paging_order) $(h3_summaries) \
    $(addprefix h3-pages-,$(lastword $(h3_pagebatches))) h3-done \
    $(if $(h3_keepgoing),h3-failed)
else
reports clean-reports: h3-errors
endif

# rm -f a few hundred files, printf a hundred messages at a time: a shell
# takes 128 KiB of command.
h3_chunks = $(if $2,$(h3_nl)$(h3_Q)$1 $(wordlist 1,200,$2)$(call \
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
	@echo 'pipeline.mk: nothing was done: mend $(if $(h3_slipids),the \
	    settings$(if $(filter-out $(h3_slipids),$(h3_errs)), and \
	    TRACES),TRACES) and run make again' >&2
	@exit 2

# A slip in the settings of make compare, profile or sweep: said before
# anything is done.
ifneq ($(h3_slipids),)
compare profile sweep: h3-slips
endif
h3-slips:
	@:$(call h3_say,$(h3_slipids))
	@echo 'pipeline.mk: nothing was done: mend the settings and run make again' >&2
	@exit 2

h3-failed: $(h3_summaries) h3-done
	@'$(h3_summary)' -c '$(h3_reports)/summary.json'

ifeq ($(h3_errs),)
clean-reports:
	$(h3_Q)$(call h3_echo,clean)rm -f -- $(h3_summaries) $(h3_list) $(h3_litter)$(call h3_chunks,rm -f --,\
	    $(wildcard $(h3_reports)/errors/*.err) \
	    $(foreach j,$(h3_jsons) $(h3_notracejsons),$j $(j:.json=.err) $(j:.json=.inputs) \
	    $(addprefix $(dir $j),$(h3_tables)) \
	    $(wildcard $(dir $j).report.json.?????? $(dir $j).report.err.[0-9]* \
	    $(dir $j).kernels.tsv.[0-9]* $(dir $j).strip.tsv.[0-9]* \
	    $(dir $j).gapbins.tsv.[0-9]*) \
	    $(call h3_deadx,$(wildcard $(dir $j).*.sqlite.[0-9]*.*))))$(call \
	    h3_chunks,rm -rf --,$(h3_deadreductions))$(if \
	    $(h3_scopetag),,$(call h3_chunks,rm -rf --,$(wildcard $(addsuffix \
	    scope.*/,$(dir $(h3_jsons) $(h3_notracejsons))))))
endif

h3-force:

h3_quiet_clean = '  CLEAN   %s\n' '$(h3_reports)'

.PHONY: reports clean-reports h3-errors h3-slips h3-failed h3-force \
	h3-plan h3-done

# make profile and make sweep, which make the runs this file reduces.
include $(H3PROF_DIR)sweep.mk

.DEFAULT_GOAL := $(h3_goal)

# --- make compare ----------------------------------------------------------------
#
#	make compare BASE=dir NEW=dir [TOLERANCE=file] [ALPHA=p] [MISSING=ok]
#		[SCOPES=differ]
#
# compares two reports directories of make reports (or two run
# directories, each holding a report.json and kernels.tsv) configuration
# by configuration, with Welch's t-test over the repeats and the
# Benjamini-Hochberg correction over the tests that gate, and fails on a
# regression: h3compare writes NEW/compare.json and NEW/compare.md and
# prints the second.  It reads nothing outside BASE and NEW.  TOLERANCE
# is a file of per-figure tolerances and ALPHA the significance level
# (default 0.05); see h3compare(1) and figdiff(1).  A configuration of
# BASE missing in NEW fails the gate too, unless MISSING=ok; one only in
# NEW is listed.  So do a figure that gates in BASE and is missing in
# NEW's runs, no configuration compared, and BASE and NEW of two scopes
# (RANGE, SKIP, WINDOW), unless SCOPES=differ.  Each setting given is
# passed with its $(origin), which compare.md names.  Runs are grouped
# in configurations as REPEAT_KEYS says in run directories; a reports
# directory keeps the groups of its summary.  h3compare exits 1 for a
# failed gate and 2 for bad usage or an unreadable input; make, as for
# any failed recipe, exits 2 for both and names h3compare's status in
# its message (Error 1, Error 2).  It builds figdiff first in a checkout
# (its Makefile has the rule; installed, the filter is there).

h3_compare := $(H3PROF_SCRIPTS)/h3compare
MISSING ?=
SCOPES ?=

compare: $(H3PROF_BIN)/figdiff
	$(if $(and $(BASE),$(NEW)),,@echo 'pipeline.mk: make compare needs \
	    BASE=dir and NEW=dir: two reports directories, or two run \
	    directories' >&2; exit 2)
	$(foreach v,BASE NEW TOLERANCE ALPHA,$(if $(call h3_unsafe,$($v)),\
	    $(error $v="$($v)" holds whitespace, a quote or one of : \
	    $(h3_hash) % $$ \ ` * ? [ ] ; | & < > ( ) { }, which make \
	    cannot carry in a file name)))
	$(if $(filter-out ok,$(MISSING)),$(error MISSING="$(MISSING)": \
	    MISSING=ok lets configurations of BASE be missing in NEW; \
	    without it they fail the gate))
	$(if $(filter-out differ,$(SCOPES)),$(error SCOPES="$(SCOPES)": \
	    SCOPES=differ lets BASE and NEW be of different scopes; without \
	    it they fail the gate))
	@$(call h3_echo,compare)H3PROF_BIN='$(H3PROF_BIN)' '$(h3_compare)' -r '$(REPEAT_KEYS)' \
	    $(if $(TOLERANCE),-t '$(TOLERANCE)') $(if $(ALPHA),-a '$(ALPHA)') \
	    $(if $(MISSING),-m) $(if $(SCOPES),-d) $(foreach v,TOLERANCE ALPHA \
	    MISSING SCOPES REPEAT_KEYS,$(if $($v),-o '$v=$(origin $v)')) \
	    -- '$(BASE)' '$(NEW)'

h3_quiet_compare = '  COMPARE %s against %s\n' '$(NEW)' '$(BASE)'

.PHONY: compare

# --- the pages -------------------------------------------------------------------
#
# make reports also writes, unless HTML=0 (for hosts that read no pages):
#
# REPORTS/pages/NAME.html	the page of run NAME (h3runpage(1)): its
#			figures, kernel time per category, a timeline strip
#			of its kernels per device and stream, its idle gaps,
#			its streams and top kernels, a link back to the
#			index.
# REPORTS/index.html	the sweep's page (h3index(1)): the summary's
#			verdict, the configurations fastest first with the
#			links to their runs' pages, what explains their
#			differences, their kernel time per category, busy and
#			idle time, idle gaps, the GPU span and the kernel time
#			per category against each numeric setting.
#
# Both are self-contained HTML, inline SVG charts drawn by gnuplot and no
# script, and the same inputs give the same bytes; links are relative to
# REPORTS, so a REPORTS copied or archived, or one whose traces are gone,
# still shows its pages.  A run's page is made from the products of its
# reduction alone, which the reduction (reduce.mk, as h3report -p) writes
# beside its report.json:
#
# RUN/strip.tsv		the timeline strip (timeline(1)): a header, then
#			lane, device, stream, start_ns, end_ns and category
#			of each stretch of pixel columns of one category, 960
#			columns across the GPU span.
# RUN/gapbins.tsv	the idle gaps of the report binned ten to a decade
#			(gapstat -b, the report's own gapstat): a header, then
#			edge_ns, count and total_ns of each bin with a gap.
#
# They are renamed into place with kernels.tsv, just before report.json,
# and go with it.  The pages of the runs whose report changed are drawn
# in batches, one jq and one gnuplot a batch: with -j as their reports
# are made, else in one batch; the index follows the summaries and the
# pages.  A page never outlives what it shows: a run's page goes as its
# report is made again (so a run that fails has none), and with HTML=0
# an index older than the summary goes.
# Without gnuplot, make reports does nothing and says how to install it
# or skip the pages (exit 2).

h3_runpage := $(H3PROF_SCRIPTS)/h3runpage
h3_indexpage := $(H3PROF_SCRIPTS)/h3index
h3_pagelibs := $(h3_lib) $(addprefix $(dir $(h3_lib)),h3.jq h3pages.awk)
h3_pagedir := $(h3_reports)/pages
h3_pages := $(foreach i,$(h3_ids),$(h3_pagedir)/$(h3_name_$i).html)
h3_index := $(h3_reports)/index.html
h3_gonepages = $(filter-out $(h3_pages),$(wildcard $(h3_pagedir)/*.html))

ifeq ($(h3_errs),)
ifeq ($(HTML),0)
reports: h3-stale-index
h3-done: h3-stale-index
else
reports: $(h3_index)
h3-done: $(h3_index)
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

# Each page follows its run's report (with -k, a run whose report failed
# has none, and loses its page); its recipe, which starts nothing, puts
# the run in the queue of the pages to draw, h3_batch.  (The page
# variables are references, for a run's name may hold = or :.)
h3_batch :=
ifneq ($(HTML),0)
$(eval $(foreach i,$(h3_ids),$$(h3_pagedir)/$$(h3_name_$i).html: \
    $$(h3_json_$i)$(h3_nl)$$(h3_pagedir)/$$(h3_name_$i).html: private \
    h3_pagerun := $i$(h3_nl)))
endif
$(h3_pages): $(h3_runpage) $(addprefix $(dir $(h3_lib)),h3runpage.jq) \
	$(h3_pagelibs) $(H3PROF_MK)
	$(eval h3_batch += $(h3_pagerun))

# $(call h3_drawpages,N): the recipe line that draws the pages in the
# queue, as batch N, records which report each was drawn from (fresh -d:
# pages/NAME.inputs, see h3_stale), and empties it; nothing if it is
# empty.  Its list,
# NAME tab report a line each as runs.list, is written as the line is
# expanded, and h3_drawn counts it for the line make says.
h3_drawpages = $(if $(h3_batch),$(file >$(call \
    h3_batchlist,$1),$(h3_batchtext))$(eval h3_drawn := $(words \
    $(h3_batch)))$(eval h3_batch :=)$(h3_Q)$(call h3_trap,rm -f -- \
    '$(call h3_batchlist,$1)')$(call h3_echo,pages)$(call \
    h3_mkdir,$(h3_pagedir)) && { $(call h3_bg,'$(h3_runpage)' -i \
    ../index.html -d '$(h3_pagedir)' '$(call h3_batchlist,$1)') && \
    '$(H3PROF_BIN)/fresh' -d '$(h3_pagedir)' '$(call h3_batchlist,$1)'; \
    h3_rc=$$?; rm -f -- '$(call h3_batchlist,$1)'; exit $$h3_rc; })
# The list is written by make, before the recipe's shell sets the trap
# that removes it: one a signal leaves in that moment is in TMPDIR, beside
# the make's messages, not in REPORTS, and the next make takes it for
# litter (in REPORTS where TMPDIR's name is none $(file) can write).
h3_batchlist = $(h3_tmproot)pages-$1.$(h3_pid)
h3_batchtext = $(subst :,$(h3_tab),$(subst $() ,$(h3_nl),$(strip \
	$(foreach i,$(h3_batch),$(h3_name_$i):$(h3_json_$i)))))
h3_quiet_pages = '  PAGES   %s (%s)\n' '$(h3_pagedir)' '$(call \
    h3_runs,$(h3_drawn))'

# With -j the pages are drawn as their reports are made, while later
# runs are reduced: make reports meets each batch of h3_pagesize runs
# once it has started the reports of the next (see h3_pagebatches,
# above), and the batch's recipe draws the pages in the queue.  A batch
# costs some 0.2 s to start its jq and gnuplot, a page of 20,000 kernels
# 20 ms: batches of about the square root of five times the runs keep
# both the starts and the last batch, drawn once all is reduced, few and
# small.  Without -j, where none runs beside, the index's recipe draws
# them all, in one batch.
$(foreach b,$(h3_pagebatches),$(eval h3-pages-$b: $(foreach \
    i,$(h3_batchids_$b),$$(h3_pagedir)/$$(h3_name_$i).html)))
# Whether this make runs jobs beside each other: its -j, which MAKEFLAGS
# shows in a recipe (make 4.3 shows none while it parses).
h3_parallel = $(filter-out -j1,$(filter -j%,$(MAKEFLAGS)))
$(addprefix h3-pages-,$(h3_pagebatches)): h3-pages-%:
	$(if $(h3_parallel),$(call h3_drawpages,$*))
$(addprefix h3-pages-,$(h3_pagebatches)): private h3_stepname = $(h3_pagedir)

# The index links the runs' pages that are there: it follows them, and
# draws the pages still in the queue.  The pages of runs no more in the
# sweep, and their records, go with the index of before.
$(h3_index): $(h3_summaries) $(h3_pages) $(h3_indexpage) \
	$(addprefix $(dir $(h3_lib)),h3index.jq) $(h3_pagelibs) $(H3PROF_MK) \
	| $(addprefix h3-pages-,$(h3_pagebatches))
	$(call h3_drawpages,0)
	$(if $(h3_gonepages),$(h3_Q)rm -f -- $(foreach p,$(h3_gonepages) \
	    $(h3_gonepages:.html=.inputs),$(call h3_quote,$p)))
	$(h3_Q)$(eval h3_made := yes)$(call h3_trap)$(call \
	    h3_echo,index)$(call h3_bg,'$(h3_indexpage)' -o '$@' \
	    '$(h3_reports)/summary.json' '$(h3_list)')
h3_quiet_index = '  INDEX   %s\n' '$(h3_index)'

h3-stale-index: $(h3_summaries)
	@[ ! -e '$(h3_index)' ] || [ '$(h3_index)' -nt \
	    '$(h3_reports)/summary.json' ] || rm -f -- '$(h3_index)'

ifeq ($(h3_errs),)
clean-reports: h3-clean-pages
endif
# As clean-reports takes the reports' temporary files, whoever left them
# (a killed page's process may linger as a zombie, its PID still there).
h3-clean-pages:
	$(h3_Q)rm -f -- '$(h3_index)' $(wildcard $(h3_reports)/.index.html.[0-9]* \
	    $(h3_reports)/.pages.list.[0-9]* $(h3_reports)/.pages-*.[0-9]*)$(call \
	    h3_chunks,rm -f --,\
	    $(h3_pages))
	$(h3_Q)rm -rf -- $(wildcard $(h3_pagedir)/.h3runpage.[0-9]* \
	    $(h3_pagedir)/*.inputs)

.PHONY: h3-clean-pages h3-stale-index $(addprefix h3-pages-,$(h3_pagebatches))
