# mk/steps.mk: how a step runs: the line it says, the traps that stop it,
# its temporary files and the litter of killed makes; make's refusal.

# What make says, as Kbuild says it: a line a step by default, the recipes
# with V=1, nothing but errors with -s (an s in MAKEFLAGS' first word, which
# wins over V=1).  h3_Q starts each recipe line: make echoes it with V=1.
h3_verbose := $(filter 1,$(V))
h3_silent := $(findstring s,$(firstword -$(MAKEFLAGS)))
h3_quiet := $(if $(h3_verbose)$(h3_silent),,yes)
h3_Q := $(if $(h3_verbose),,@)
# $(call h3_echo,STEP): printf (a shell builtin) of STEP's line, whose
# format and arguments are h3_quiet_STEP; nothing unless quiet.
h3_echo = $(if $(h3_quiet),printf $(h3_quiet_$1);)

# $(call h3_trap,CLEANUP): the start of a recipe that a signal stops at
# once.  Its shell sources scripts/h3stop.sh, whose traps end the step's
# h3_bg command, run CLEANUP and say so, in one line for the whole make.
# The step is named by h3_stepname, or its target.
h3_trap = h3_step='$(or $(h3_stepname),$@)' h3_stopfile='$(h3_stopfile)'; \
    h3_discard() { $(or $1,:); }; . '$(h3_stopsh)' &&
h3_stopfile = $(h3_reports)/.interrupted.$(h3_pid)
h3_stopsh = $(dir $(h3_lib))h3stop.sh
# $(call h3_mkdir,DIR): mkdir -p DIR, with no process where DIR exists.
h3_mkdir = { [ -d '$1' ] || mkdir -p -- '$1'; }
# $(call h3_bg,COMMAND): COMMAND in the background, waited for, so that a
# signal's trap runs at once (a shell defers it while a foreground command
# runs).  COMMAND reads no input.  h3_job is "starting" until its PID is
# known (see h3stop.sh).
h3_bg = { h3_job=starting; $1 & h3_job=$$!; wait "$$h3_job"; h3_rc=$$?; \
    h3_job=; [ "$$h3_rc" -eq 0 ]; }
# h3_clock at a step's start, h3_took at its end: h3_took is the time it
# took, "  0.4 s", where the shell tells it without a process (bash's
# EPOCHREALTIME); empty under dash.
h3_clock = h3_t0=$${EPOCHREALTIME-};
h3_took = h3_took=; case $$h3_t0 in *[.,]*) h3_t1=$$EPOCHREALTIME; \
    h3_ds=$$((($${h3_t1%[.,]*}$${h3_t1\#*[.,]} - \
    $${h3_t0%[.,]*}$${h3_t0\#*[.,]} + 50000) / 100000)); \
    h3_took="  $$((h3_ds / 10)).$$((h3_ds % 10)) s";; esac;

# PID-START: this make's process ID and start time (field 22 of
# /proc/PID/stat), worked out once.  It ends the names of the make's
# temporary files, .NAME.PID-START, so two makes never write one file and
# a dead make's files are known as such even once its PID is reused.
h3_pid = $(eval h3_pid := $(shell s=; { read -r s </proc/$$PPID/stat; } \
    2>/dev/null; set -- $$s; echo "$$PPID$${22:+-$${22}}"))$(h3_pid)
h3_tmp = $(@D)/.$(@F).$(h3_pid)
# Whether process $1, PID-START (or a bare PID, of an older h3prof), runs.
# h3_running: whether the process of stat line $1 started at $2 and is no
# zombie (a killed make stays one until reaped, seconds in a container).
h3_alive = $(if $(findstring -,$1),$(call h3_running,$(file </proc/$(firstword \
    $(subst -, ,$1))/stat),$(word 2,$(subst -, ,$1))),$(wildcard /proc/$1/))
h3_running = $(if $(filter-out Z X,$(word 3,$1)),$(filter $2,$(word 22,$1)))
# $(call h3_deadby,PIDOF,FILES): the FILES whose make is dead, $(call
# PIDOF,NAME) taking PID-START from a file's name: its last dot-separated
# part for h3_dead (.NAME.PID-START), the second for h3_deadhidden
# (.reduce.PID-START.NAME), the last but one for h3_deadx.
h3_deadby = $(foreach f,$2,$(if $(call h3_alive,$(call $1,$(notdir $f))),,$f))
h3_dead = $(call h3_deadby,h3_pidlast,$1)
h3_pidlast = $(lastword $(subst ., ,$1))
h3_deadx = $(foreach f,$1,$(if $(call h3_dead,$(basename $f)),$f))
h3_deadhidden = $(call h3_deadby,h3_pidsecond,$1)
h3_pidsecond = $(word 2,$(subst ., ,$1))
# What killed makes left: their reductions' files in the runs (looked for
# only by the summary and clean-reports, not by a no-op), their messages
# and queries in TMPDIR (unless make cannot name it), their temporary
# files in REPORTS.
h3_deadreductions = $(call h3_deadhidden,$(wildcard $(foreach \
    d,$(h3_productdirs),$d.reduce.[0-9]* $d..reduce.[0-9]*)))
h3_tmp_in = $(if $(call h3_unsafe,$(TMPDIR)),,$(addprefix $(or \
    $(TMPDIR),/tmp)/h3prof.,$1))
# Where make writes the files it hands a process (fresh's query, the pages'
# lists): TMPDIR, or REPORTS if $(file) cannot write TMPDIR's name.
h3_tmproot := $(if $(or $(call h3_unsafe,$(TMPDIR)),$(findstring \
    $(,),$(TMPDIR))),$(h3_reports)/.,$(or $(TMPDIR),/tmp)/h3prof.)
h3_deaderrs := $(call h3_dead,$(wildcard $(call h3_tmp_in,reduce.*.[0-9]* \
    fresh.[0-9]*)))
h3_litter := $(strip $(call h3_dead,$(wildcard $(addprefix $(h3_reports)/,\
    .runs.list.[0-9]* .inputs.mk.[0-9]* .summary.*.[0-9]* .groups.csv.[0-9]* \
    .kernels.tsv.[0-9]* .effects.csv.[0-9]* .interrupted.[0-9]* \
    .pages-*.[0-9]* .fresh.[0-9]* errors/*.err.[0-9]*) $(call \
    h3_tmp_in,pages-*.[0-9]*))) $(h3_deaderrs))

# $(call h3_chunks,COMMAND,WORDS): recipe lines that run COMMAND on 200
# WORDS at a time, as a shell takes 128 KiB of command line.
h3_chunks = $(if $2,$(h3_nl)$(h3_Q)$1 $(wordlist 1,200,$2)$(call \
	h3_chunks,$1,$(wordlist 201,$(words $2),$2)))
h3_quote = '$(subst ','\'',$1)'
# $(call h3_say,IDS): recipe lines that print the messages IDS name (see
# h3_err), a hundred at a time, control characters as cat -v shows them.
h3_say = $(if $1,$(h3_nl)printf 'pipeline.mk: %s\n' $(foreach \
	e,$(wordlist 1,100,$1),$(call h3_quote,$($e))) | cat -v >&2$(call \
	h3_say,$(wordlist 101,$(words $1),$1)))

# make's refusal of a sweep with errors (h3-errors) or of a goal with a slip
# in its settings (h3-slips): $(call h3_refuse,IDS,WHAT) says the errors
# and what to mend, and fails, having done nothing.
define h3_refuse
:$(call h3_say,$1)
echo 'pipeline.mk: nothing was done: mend $2 and run make again' >&2; exit 2
endef
h3-errors:
	@$(call h3_refuse,$(h3_errs),$(if $(h3_slipids),the settings$(if \
	    $(filter-out $(h3_slipids),$(h3_errs)), and TRACES),TRACES))
ifneq ($(h3_slipids),)
compare profile sweep: h3-slips
endif
h3-slips:
	@$(call h3_refuse,$(h3_slipids),the settings)
