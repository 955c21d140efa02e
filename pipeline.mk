# pipeline.mk: reduce a sweep of nsys trace directories to a report per
# run and a summary of them all, in parallel and incrementally.
#
#	make reports [TRACES='runs/*' | TRACES_FROM=file] [OUT=dir]
#	    [REPORTS=dir] [REPEAT_KEYS='key ...'] [RANGE=pattern [SKIP=n] |
#	    WINDOW=start:end] [HTML=0] [V=1] [-j N] [-k]
#	make clean-reports
#	make compare BASE=dir NEW=dir
#
# Include it from your own Makefile, or run it with make -f.  What each
# setting does and what make writes is in h3prof(7) (mk/h3prof.7).
#
# A map for the maintainer.  This file includes the parts in mk/, one
# job each, in this order (a part may use what an earlier one defines):
#
#	mk/settings.mk	the settings, their defaults and checks, and the
#			sweep REPORTS remembers (includes mk/scope.mk,
#			the check of RANGE, SKIP and WINDOW)
#	mk/steps.mk	how a recipe runs: its one-line message, the
#			signal traps, temporary names, litter
#	mk/runs.mk	the run directories, the trace in each, runs.list,
#			inputs.mk, and which reports are stale
#	mk/report.mk	the rule that reduces one run
#	mk/summary.mk	the summary of all the reports
#	mk/pages.mk	the runs' pages and the index
#	mk/clean.mk	make clean-reports
#	sweep.mk	make profile and make sweep
#	mk/compare.mk	make compare
#
# How a run flows: runs.mk finds RUN's trace and gives RUN/report.json a
# rule; one fresh(1) at parse time names the stale reports.  report.mk's
# recipe runs a make of reduce.mk's rules, which runs the filters; its
# last, reportjson, writes report.json and the page's tables and records
# their inputs in RUN/report.inputs.  A run that fails gets RUN/report.err
# from scripts/h3runerr.sh.  Then summary.mk runs h3summary over
# runs.list, and pages.mk runs h3runpage and h3index.

H3PROF_MK := $(lastword $(MAKEFILE_LIST))
H3PROF_DIR := $(patsubst ./,,$(dir $(H3PROF_MK)))
# The includer's default goal stays its own; without one, it is reports.
h3_goal := $(or $(.DEFAULT_GOAL),reports)

# The make files a report is made by, on which it depends as on its
# filters (sweep.mk's h3s_step runs it under Slurm); the summary and the
# pages depend on their own file too, a change to compare.mk on none.
h3_mkfiles := $(H3PROF_MK) $(H3PROF_DIR)sweep.mk $(addprefix \
    $(H3PROF_DIR)mk/,settings.mk scope.mk steps.mk runs.mk report.mk)
include $(addprefix $(H3PROF_DIR)mk/,settings.mk steps.mk runs.mk \
    report.mk summary.mk pages.mk)

# make reports: the list of runs and the record of the sweep; the reports
# a batch at a time, each batch with the pages of the one before; the
# summary, the last pages, and h3-done: the index and the closing line.
ifeq ($(h3_errs),)
reports: $(h3_list) $(h3_record) $(h3_paging_order) $(h3_summaries) \
    $(addprefix h3-pages-,$(lastword $(h3_pagebatches))) h3-done \
    $(if $(h3_keepgoing),h3-failed)
else
reports clean-reports: h3-errors
endif
h3-force:
.PHONY: reports clean-reports h3-errors h3-slips h3-failed h3-force \
	h3-plan h3-done

include $(H3PROF_DIR)mk/clean.mk $(H3PROF_DIR)sweep.mk \
    $(H3PROF_DIR)mk/compare.mk
.DEFAULT_GOAL := $(h3_goal)
