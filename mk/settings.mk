# mk/settings.mk: the settings of make reports and their checks
# (Part of pipeline.mk, which includes it: see the map there.)

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

V ?=
HTML ?= 1

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
include $(H3PROF_DIR)mk/scope.mk
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
