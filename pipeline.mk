# pipeline.mk: reduce a sweep of nsys trace directories to a report.json
# per run and a summary of them all, in parallel and incrementally.
#
#	make reports TRACES='runs/*' [OUT=dir] [REPORTS=dir] [-j N] [-k]
#
# Include it from a Makefile of your own, or run it with make -f; it needs
# GNU make 4.3 or later, bash and jq.  What it reads:
#
# TRACES	the run directories, shell patterns allowed (default: the
#		samples of h3prof).  Each holds its trace as one of, the
#		first found winning:
#		- a pair of nsys stats CSV exports: cuda_gpu_trace.csv and
#		  cuda_kern_exec_trace.csv, or PREFIX_ before each, or
#		  PREFIX_gputrace.csv and PREFIX_kernexectrace.csv;
#		- an nsys SQLite export, NAME.sqlite;
#		- an nsys report, NAME.nsys-rep, which needs nsys: it is
#		  exported (nsys export --type sqlite) to NAME.sqlite beside
#		  the run's report.json, and the export kept for next time.
#		Other files a pattern matches are left out.  See
#		scripts/h3report for the rest, the run's configuration
#		among it.
# NSYS		the nsys that exports NAME.nsys-rep (default: nsys on the
#		PATH).
# OUT		if set, RUN/report.json is written as OUT/NAME/report.json,
#		NAME the last part of RUN's path: for read-only archives.
# REPORTS	where the summaries go (default: reports).
# REPEAT_KEYS	configuration keys that tell repeats apart, left out when
#		runs are grouped (default: rep repeat trial seed).
# H3PROF_BIN	the filters (default: build/bin beside this file, or
#		PREFIX/bin if it is installed in PREFIX/share/h3prof).
# H3PROF_RULES	the classify(1) rules (default: rules/h3.rules beside it,
#		or h3.rules if installed).
# H3PROF_SCRIPTS h3facts, h3report, h3summary (default: scripts beside
#		it, or PREFIX/bin if installed).
#
# What it makes, all written to a temporary file and renamed, so that none
# is ever partial:
#
# RUN/report.json	the report of reportjson -x: every key of the
#			reference's report, then the extensions.  A run that
#			cannot be reduced leaves RUN/report.err instead, the
#			error messages, and no report.json.
# REPORTS/summary.json	every run's report, the failed runs with their
#			errors, and groups of runs of the same configuration
#			with n, mean, standard deviation, min and max of every
#			figure; see scripts/h3summary.
# REPORTS/summary.csv	a row per run: name, status, configuration, figures.
# REPORTS/summary.md	the same as Markdown tables.
# REPORTS/runs.list	the runs of the sweep, so that the summary is made
#			again when they change.
#
# make -j N reduces N runs at once; the files are the same as with -j 1.
# A report is made again only when its trace (the CSV pair, the SQLite
# export or the nsys report; an export and the report it was made from),
# its configuration file, a filter, a script, the rules or this file
# changed.  Without -k, make stops at the first run it cannot reduce; with
# -k, it reduces every other run, writes the summary, which lists the
# failed runs, and then fails.
# A run path that holds a character make cannot carry in a file name
# (whitespace, : # % $, quotes or other shell characters) is an error that
# says so: rename it.
#
# make clean-reports removes the summaries and the runs' reports and
# error records; it leaves the SQLite exports of nsys reports.

H3PROF_MK := $(lastword $(MAKEFILE_LIST))
H3PROF_DIR := $(patsubst ./,,$(dir $(H3PROF_MK)))
# The includer's default goal stays its own; run alone, it is reports.
h3_goal := $(or $(.DEFAULT_GOAL),$(if $(word 2,$(MAKEFILE_LIST)),,reports))

# In a checkout the filters are built in build/bin; installed, this file
# is in PREFIX/share/h3prof, beside the rules, and the filters and scripts
# are in PREFIX/bin.
ifneq ($(wildcard $(H3PROF_DIR)rules/h3.rules),)
H3PROF_BIN ?= $(H3PROF_DIR)build/bin
H3PROF_RULES ?= $(H3PROF_DIR)rules/h3.rules
H3PROF_SCRIPTS ?= $(H3PROF_DIR)scripts
else
H3PROF_BIN ?= $(H3PROF_DIR)../../bin
H3PROF_RULES ?= $(H3PROF_DIR)h3.rules
H3PROF_SCRIPTS ?= $(H3PROF_BIN)
endif
TRACES ?= $(H3PROF_DIR)samples/*
OUT ?=
REPORTS ?= reports
REPEAT_KEYS ?= rep repeat trial seed

# What a report depends on besides its run's files.
h3_report := $(H3PROF_SCRIPTS)/h3report
h3_summary := $(H3PROF_SCRIPTS)/h3summary
h3_tools := $(addprefix $(H3PROF_BIN)/,csv2intervals sqlite2intervals \
	classify tally gapstat merge intersect topkernels reportjson) \
	$(H3PROF_SCRIPTS)/h3facts $(h3_report) $(H3PROF_RULES) $(H3PROF_MK)

# Characters make cannot carry in a file name, and quotes, which the
# recipes use.
h3_hash := \#
h3_unsafe = $(or $(word 2,$1),$(findstring :,$1),$(findstring $(h3_hash),$1),$(findstring %,$1),$(findstring $$,$1),$(findstring ',$1),$(findstring ",$1))
$(foreach v,OUT REPORTS H3PROF_DIR,$(if $(call h3_unsafe,$($v)),\
	$(error $v="$($v)" holds whitespace, ":", "$(h3_hash)", "%", "$$" or a quote, which make cannot carry in a file name)))
# Without a trailing slash, so that each file has one name.
h3_out := $(patsubst %/,%,$(OUT))
h3_reports := $(patsubst %/,%,$(REPORTS))

# The runs: h3report -l prints run:NAME:DIR:SOURCE... or err:MESSAGE.
h3_found := $(shell H3PROF_BIN='$(H3PROF_BIN)' '$(h3_report)' -l -- $(TRACES))
ifneq ($(.SHELLSTATUS),0)
$(error $(h3_report) -l could not list the runs of TRACES=$(TRACES))
endif
h3_errors := $(patsubst err:%,%,$(filter err:%,$(h3_found)))

# Run i's name, directory, sources and report; the rule of its report.
# A run without sources cannot be reduced: trying again says why, and
# removes any report it had.
h3_ids :=
define h3_run
h3_i := $$(words x $$(h3_ids))
h3_ids += $$(h3_i)
h3_name_$$(h3_i) := $(word 2,$1)
h3_dir_$$(h3_i) := $(word 3,$1)
h3_json_$$(h3_i) := $(if $(h3_out),$(h3_out)/$(word 2,$1),$(word 3,$1))/report.json
h3_src_$$(h3_i) := $(wordlist 4,$(words $1),$1)
$$(h3_json_$$(h3_i)): $$(or $$(h3_src_$$(h3_i)),h3-force)
$$(h3_json_$$(h3_i)): private h3_rundir := $$(h3_dir_$$(h3_i))
endef
$(foreach r,$(filter run:%,$(h3_found)),$(eval $(call h3_run,$(subst :, ,$r))))
h3_jsons := $(foreach i,$(h3_ids),$(h3_json_$i))

# With -k a run that fails does not stop the summary, which lists it; a
# check after the summary fails the sweep.
h3_keepgoing := $(findstring k,$(filter-out -%,$(firstword $(MAKEFLAGS))))

$(h3_jsons): $(h3_tools)
	H3PROF_BIN='$(H3PROF_BIN)' '$(h3_report)' -r '$(H3PROF_RULES)' \
	    -o '$@' '$(h3_rundir)'$(if $(h3_keepgoing), || :)

# The list of runs: NAME, tab, report, a line each.  It is written again
# only when it would change, which the summary must then follow.
h3_list := $(h3_reports)/runs.list
define h3_nl


endef
h3_tab := $(subst x,	,x)
h3_listtext := $(subst :,$(h3_tab),$(subst $() ,$(h3_nl),$(strip \
	$(foreach i,$(h3_ids),$(h3_name_$i):$(h3_json_$i)))))
ifneq ($(file <$(h3_list)),$(h3_listtext))
$(h3_list): h3-force
endif
# Make expands a whole recipe before it runs it: the directory must be
# there when $(file) writes.
$(h3_list):
	$(shell mkdir -p -- '$(@D)')$(file >$@.tmp,$(h3_listtext))
	@mv -f '$@.tmp' '$@'

h3_summaries := $(addprefix $(h3_reports)/summary.,json csv md)
$(h3_summaries) &: $(h3_list) $(h3_jsons) $(h3_summary) $(H3PROF_MK)
	'$(h3_summary)' -r '$(REPEAT_KEYS)' -o '$(h3_reports)' '$(h3_list)'

reports: $(if $(h3_errors),h3-errors) $(h3_summaries) \
	$(if $(h3_keepgoing),h3-failed)

# TRACES names directories make cannot carry: say so, in full.
h3-errors:
	@printf '%b\n' $(foreach e,$(h3_errors),'pipeline.mk: $e') >&2; exit 1

h3-failed: $(h3_summaries)
	@'$(h3_summary)' -c '$(h3_reports)/summary.json'

# rm -f a few hundred files at a time: a shell takes 128 KiB of command.
h3_rm = $(if $1,$(h3_nl)rm -f -- $(wordlist 1,200,$1)$(call h3_rm,$(wordlist 201,$(words $1),$1)))

# A run killed with SIGKILL cannot remove its temporary directory.
h3_rmtmp = $(if $1,$(h3_nl)rm -rf -- $(addsuffix .h3report.*,$(wordlist 1,200,$1))$(call h3_rmtmp,$(wordlist 201,$(words $1),$1)))

clean-reports:
	rm -f -- $(h3_summaries) $(h3_list)$(call h3_rm,$(h3_jsons) $(h3_jsons:.json=.err))
	rm -rf -- '$(h3_reports)'/.h3summary.*$(call h3_rmtmp,$(sort $(dir $(h3_jsons))))

h3-force:

.PHONY: reports clean-reports h3-errors h3-failed h3-force

# make profile and make sweep, which make the runs this file reduces.
include $(H3PROF_DIR)sweep.mk

.DEFAULT_GOAL := $(h3_goal)
