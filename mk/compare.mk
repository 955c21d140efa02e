# mk/compare.mk: make compare
# (Part of pipeline.mk, which includes it: see the map there.)

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
