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

# The parts, in the order make must read them (see the map above); a
# report depends on all of them, as on the filters it runs.
h3_mkfiles := $(H3PROF_MK) $(addprefix $(H3PROF_DIR)mk/,settings.mk \
    scope.mk steps.mk runs.mk report.mk summary.mk pages.mk clean.mk \
    compare.mk)
include $(addprefix $(H3PROF_DIR)mk/,settings.mk steps.mk runs.mk \
    report.mk summary.mk pages.mk)

# make reports: the list of runs and the record of the sweep first, then
# the reports a batch at a time with the pages of the batch before, the
# summary, the last pages, the index and the last line.
ifeq ($(h3_errs),)
reports: $(h3_list) $(h3_record) $(h3_paging_order) $(h3_summaries) \
    $(addprefix h3-pages-,$(lastword $(h3_pagebatches))) h3-done \
    $(if $(h3_keepgoing),h3-failed) $(if $(filter \
    0,$(HTML)),h3-stale-index,$(h3_index))
else
reports clean-reports: h3-errors
endif
h3-force:
.PHONY: reports clean-reports h3-errors h3-slips h3-failed h3-force \
	h3-plan h3-done

include $(H3PROF_DIR)mk/clean.mk $(H3PROF_DIR)sweep.mk \
    $(H3PROF_DIR)mk/compare.mk
.DEFAULT_GOAL := $(h3_goal)
