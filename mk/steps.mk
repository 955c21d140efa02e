# mk/steps.mk: how a step runs, says its line, and cleans up after itself
# (Part of pipeline.mk, which includes it: see the map there.)

# What make says, as the Linux kernel's Kbuild says it: by default a line
# a step, the step's word and what it made (Kbuild's quiet_cmd_*), and no
# recipe (Kbuild's $(Q)); with V=1 the recipes instead, as make echoes
# them; with make -s nothing but the errors.  Each line is printed by a
# builtin printf in the shell the recipe runs anyway: no process more.
# The pages (see the pages, below) are drawn unless HTML=0; set here,
# before the check of its value.
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
