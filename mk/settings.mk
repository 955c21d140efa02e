# mk/settings.mk: the settings of make reports, their defaults and checks,
# and the sweep: the one asked for, or the one REPORTS remembers.

# Where the filters, rules and scripts are: in a checkout, its own (its
# filters built where missing, unless H3PROF_BIN is given: h3_build);
# installed in PREFIX/share/h3prof, those of PREFIX.
ifneq ($(wildcard $(H3PROF_DIR)rules/h3.rules),)
h3_build := $(if $(filter undefined,$(origin H3PROF_BIN)),yes)
H3PROF_BIN ?= $(H3PROF_DIR)build/bin
H3PROF_RULES ?= $(H3PROF_DIR)rules/h3.rules
H3PROF_SCRIPTS ?= $(H3PROF_DIR)scripts
else
H3PROF_BIN ?= $(H3PROF_DIR)../../libexec/h3prof/bin
H3PROF_RULES ?= $(H3PROF_DIR)h3.rules
H3PROF_SCRIPTS ?= $(H3PROF_DIR)../../bin
endif
# The scripts' library, beside which are the files recipes source.
h3_lib := $(firstword $(wildcard $(H3PROF_SCRIPTS)/h3lib.sh \
	$(H3PROF_DIR)h3lib.sh))
# A checkout's missing filters, all made at once by its Makefile.
ifneq ($(h3_build),)
$(addprefix $(H3PROF_BIN)/,$(basename $(notdir $(wildcard \
    $(H3PROF_DIR)filters/*.c)))) &:
	+$(MAKE) -C '$(or $(H3PROF_DIR),.)' --no-print-directory all
endif
REPORTS ?= reports
REPEAT_KEYS ?= rep repeat trial seed
NSYS ?= nsys
V ?=
HTML ?= 1
# Under -k a failed run does not stop the summary; a check after it fails
# the sweep.
h3_keepgoing := $(findstring k,$(filter-out -%,$(firstword $(MAKEFLAGS))))

# Characters that make functions cannot take plainly: a comma, a #, a
# newline and a tab.
, := ,
h3_hash := \#
define h3_nl


endef
h3_tab := $(subst x,	,x)

# The sweep's errors, all found before any work: $(call h3_err,MESSAGE)
# keeps MESSAGE, its $ and # as text, in h3_eN and adds h3_eN to h3_errs;
# make reports then says them all and does nothing.
h3_errs :=
h3_err = $(eval h3_errs += h3_e$(words x $(h3_errs)))$(eval \
    $(lastword $(h3_errs)) := $(subst $(h3_hash),\$(h3_hash),$(subst $$,$$$$,$1)))

# A slip: a command-line variable of one of these goals that is no
# setting, nor make's own, nor named in H3PROF_KNOWN (as TOLERENCE=).  A
# sub-make is not checked: its parent checked the same command line.
h3_settings := TRACES TRACES_FROM OUT REPORTS REPEAT_KEYS NSYS RANGE SKIP \
    WINDOW HTML V SLURM SBATCH BASE NEW TOLERANCE ALPHA MISSING SCOPES \
    H3PROF_BIN H3PROF_RULES H3PROF_SCRIPTS H3PROF_KNOWN \
    NSYS_FLAGS RUN CMD CONFIG SWEEP SWEEPDIR GPUS HOSTS HALT SWEEP_ENV \
    KEEP_TRACES SRUN SRUN_REDUCE
h3_makes := MAKEFLAGS GNUMAKEFLAGS MAKEFILES MAKEOVERRIDES MAKESHELL SHELL \
    .SHELLFLAGS MAKE MAKELEVEL MFLAGS CC CFLAGS CPPFLAGS LDFLAGS LDLIBS AR \
    ARFLAGS
h3_goals := reports clean-reports compare profile sweep
ifeq ($(MAKELEVEL),0)
ifneq ($(filter $(h3_goals),$(or $(MAKECMDGOALS),$(h3_goal))),)
h3_slips := $(filter-out $(h3_settings) $(h3_makes) $(H3PROF_KNOWN),$(foreach \
    v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v)))
endif
endif
# Each slip's nearest setting, SLIP=SETTING, by edit distance with case
# ignored, if one is near (RUNS is TRACES).  Each awk statement ends in ;
# as $(shell) makes the program one line.
ifneq ($(h3_slips),)
define h3_nearawk
function min(a, b) { return a < b ? a : b; }
function dist(a, b,    i, j, d) {
	for (i = 0; i <= length(a); i++) d[i, 0] = i;
	for (j = 0; j <= length(b); j++) d[0, j] = j;
	for (i = 1; i <= length(a); i++)
		for (j = 1; j <= length(b); j++)
			d[i, j] = min(min(d[i - 1, j], d[i, j - 1]) + 1,
			    d[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1)));
	return d[length(a), length(b)];
}
BEGIN {
	ns = split(slips, s, " "); nk = split(known, k, " ");
	for (i = 1; i <= ns; i++) {
		best = toupper(s[i]) == "RUNS" ? "TRACES" : ""; bd = 3;
		for (j = 1; j <= nk && best != "TRACES"; j++)
			if ((x = dist(toupper(s[i]), k[j])) < bd &&
			    x <= length(k[j]) / 3 + 1) { bd = x; best = k[j]; }
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
# HTML and V take 1 or 0 alone (V empty too): HTML=no must not draw the
# pages without a word.
$(if $(filter-out x0 x1,x$(HTML)),$(call \
    h3_err,HTML=$(HTML): no such value; give HTML=1 (the pages$(,) the \
    default) or HTML=0 (none)))
$(if $(filter-out x x0 x1,x$(V)),$(call h3_err,V=$(V): no such value; give \
    V=1 (the recipes) or V=0 (a line a step$(,) the default)))
h3_slipids := $(h3_errs)
# The scope, checked by scope.mk; h3_scopein, as report.inputs records it.
include $(H3PROF_DIR)mk/scope.mk
h3_scopein := $(if $(RANGE), scope=$(RANGE)/$(SKIP))$(if $(WINDOW), \
    window=$(WINDOW))

# Characters make cannot carry in a file name, or the recipes would have
# to quote (scripts/h3lib.sh's h3_unsafe is the same set).  h3_unsafe is
# nonempty unless $1 is one safe name; h3_anyunsafe, if a word of $1 holds
# one; h3_cannotcarry, the error of a setting $1 that holds one.
h3_unsafechars := : $(h3_hash) % $$ ' " \ ` * ? [ ] ; | & < > ( ) { }
h3_unsafe = $(or $(word 2,$1),$(call h3_anyunsafe,$1))
h3_anyunsafe = $(strip $(foreach c,$(h3_unsafechars),$(findstring $c,$1)))
h3_cannotcarry = $1="$($1)" holds whitespace, a quote or one of $(filter-out \
    ' ",$(h3_unsafechars)), which make cannot carry in a file name
$(foreach v,REPORTS OUT TRACES_FROM H3PROF_DIR H3PROF_RULES,$(if $(call \
    h3_unsafe,$($v)),$(error $(call h3_cannotcarry,$v))))
# REPORTS without a trailing slash, so that each file has one name.
h3_reports := $(patsubst %/,%,$(REPORTS))
h3_pagedir := $(h3_reports)/pages

# The sweep: TRACES or TRACES_FROM as given, else those REPORTS/inputs.mk
# recorded (h3_was_*, with its OUT unless OUT is given), else a checkout's
# samples.
h3_record := $(h3_reports)/inputs.mk
$(eval $(file <$(h3_record)))
# Whether variable $1 was given; whether texts $1 and $2 differ.
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
TRACES := $(if $(wildcard $(H3PROF_DIR)samples/),$(H3PROF_DIR)samples/*)
endif
OUT ?=
h3_out := $(patsubst %/,%,$(OUT))
