# mk/report.mk: reducing a run: the rule of each run's report.

# What every report depends on besides its run's files: the filters named
# in reduce.mk's text ($(BIN)/NAME), so the list cannot drift; fresh, which
# checks the records; the make files and the rules.
h3_reducemk := $(H3PROF_DIR)reduce.mk
h3_tools := $(patsubst $$(BIN)/%,$(H3PROF_BIN)/%,$(sort $(filter \
	$$(BIN)/%,$(file <$(h3_reducemk))))) $(H3PROF_BIN)/fresh \
	$(h3_reducemk) $(H3PROF_RULES) $(h3_mkfiles)
# A run's products: its report and the tables its page is drawn from.
h3_tables := kernels.tsv strip.tsv gapbins.tsv
h3_reportfiles := report.json $(h3_tables)
# $(call h3_here,FILES): FILES in the run's product directory, quoted.
h3_here = $(foreach f,$1,'$(@D)/$f')

# A run's report: one shell runs the make of reduce.mk's rules (h3_reduce)
# and, if that fails, h3_failed.  Interrupted (h3_trap), it keeps nothing
# of the run.  The run's page, and an older h3prof's report.html, go first:
# they show the old report.
$(h3_jsons): $(h3_tools)
	$(h3_Q)$(call h3_trap,rm -rf -- $(call h3_here,$(h3_reportfiles) \
	    report.inputs) $(h3_hiddenfiles) $${h3_e:+"$$h3_e"} \
	    '$(h3_spare).$(h3_pid)')$(if $(h3_quiet),$(h3_count)$(h3_clock) )$(if \
	    $(h3_out)$(h3_scopetag),$(call h3_mkdir,$(@D)) && )for p in \
	    '$(h3_page)' '$(@D)/report.html'; do [ ! -e "$$p" ] && \
	    [ ! -L "$$p" ] || rm -f -- "$$p"; done && h3_at= h3_e= && \
	    if [ -w '$(@D)' ] && h3_e="$${TMPDIR:-/tmp}/$(h3_errname)" && \
	    $(h3_nolinks) && $(h3_reduce); then $(h3_reduced); else \
	    $(h3_failed); fi && \
	    { $(if $(h3_quiet),$(h3_took) $(call h3_echo,report)) :; } || \
	    { rm -rf -- $(call h3_here,report.inputs $(h3_tables)) \
	    $(h3_hiddenfiles); \
	    $(call h3_echo,failed)$(if $(h3_keepgoing),:,exit 1); }

# A run's line ends with the time it took, which bash tells without a
# process (EPOCHREALTIME) and dash, Debian's /bin/sh, cannot: under
# /bin/sh the runs' recipes are run by bash, where there is one, when
# their lines are said (not with -s or V=1).
ifeq ($(SHELL)$(h3_quiet),/bin/shyes)
%/report.json: SHELL := $(firstword $(wildcard /bin/bash /usr/bin/bash) /bin/sh)
endif

# Under make reports, the list of runs first: a new one makes the runs'
# directories under OUT together, before each run would make its own.
# (A Slurm step's h3s-reports writes no list.)
ifneq ($(filter reports,$(or $(MAKECMDGOALS),$(h3_goal))),)
$(h3_jsons): | $(h3_list)
endif

# The make of reduce.mk's rules that reduces the run (a Slurm step under
# SLURM=1: h3s_step, sweep.mk): settings h3_args, none of this make's
# flags, messages to file h3_e.  -B makes every step, as only this make
# knows the old products are stale; they stay until the new ones replace
# them (KEEP_OLD).  The shell tells it whether the kernel-exec trace is
# empty (SKIPPED); reportjson records the inputs (RECORD_KEY).  It and
# h3_failed are variables, not recipe text, which make -n would run for
# naming $(MAKE).
h3_reduce = $(eval h3_chained := yes)$(if $(h3_kexec),{ h3_skip=; [ -s \
    '$(h3_kexec)' ] || h3_skip='$(h3_rundir)'; } && )$(call \
    h3_bg,MAKEFLAGS= $(h3s_step) '$(MAKE)' -rB$(if $(h3_quiet)$(h3_silent),s) \
    --no-print-directory -f '$(h3_reducemk)' RUNS='$(h3_rundir)' \
    HIDDEN_PREFIX=$(h3_hidden) KEEP_OLD=yes H3PROF_BIN='$(H3PROF_BIN)' \
    H3PROF_RULES='$(H3PROF_RULES)' RECORD_KEY='$(h3_in)' \
    RECORD_INPUTS='$(h3_inputs) $(h3_tools)' $(h3_args)$(if $(h3_kexec), \
    SKIPPED="$$h3_skip") 2>"$$h3_e")
# After a reduction that succeeded: its warnings shown, the run's error
# records of before removed.
h3_reduced = { [ ! -s "$$h3_e" ] || cat -- "$$h3_e" >&2; } && { [ ! -e \
    '$(@D)/report.err' ] && [ ! -e '$(h3_spare)' ] || rm -f -- \
    '$(@D)/report.err' '$(h3_spare)'; }
# After a run that failed: h3runerr.sh, read only then, records why.
h3_failed = { . '$(dir $(h3_lib))h3runerr.sh' && h3_failed '$(@D)' \
    '$(h3_dir)/$(h3_hidden)report.err' '$(h3_spare)' '$(h3_pid)' '$(MAKE)' \
    $(h3_hiddenfiles) $(call h3_here,$(h3_reportfiles)); }
# A link to no file among the run's files fails the run, naming it
# (reduce.mk would say "No rule to make target" of another file).
h3_nolinks = { h3_ok=1; for h3_f in $(foreach f,$(h3_inputs),'$f'); do \
    [ -e "$$h3_f" ] || [ ! -L "$$h3_f" ] || { h3_ok=; printf \
    'pipeline.mk: %s: a symbolic link to no file (dangling, or a loop of \
    links)\n' "$$h3_f"; }; done >"$$h3_e"; [ -n "$$h3_ok" ]; }
# The run's directory, absolute where its name starts with - (no option).
h3_dir = $(if $(filter -%,$(@D)),$(abspath $(@D)),$(@D))
# The run that reduce.mk reduces; a scope's products are in its scope.TAG.
h3_rundir = $(if $(h3_scopetag),$(patsubst \
    %/$(h3_scopetag),%,$(h3_dir)),$(h3_dir))
# The prefix of this make's files between the filters in a run, so two
# makes of one sweep keep apart; h3_hiddenfiles: those and the filters'.
h3_hidden = .reduce.$(h3_pid).
h3_hiddenfiles = '$(h3_dir)/$(h3_hidden)'* '$(h3_dir)/.$(h3_hidden)'*
# A failed run's error record where RUN/report.err finds no room (read
# by sweepsum, removed by the run's next reduction).
h3_spare = $(h3_reports)/errors/$(h3_runname).err
# The messages of a run's reduction go to TMPDIR, where a full disk in
# the run's directory cannot lose them.  If a run was reduced (h3_chained),
# the summary removes them all (h3_errfiles) with one rm for the sweep.
h3_errname = h3prof.reduce.$(h3_runname).$(h3_pid)
h3_chained :=
h3_errfiles = "$${TMPDIR:-/tmp}"/h3prof.reduce.*.$(h3_pid) $(h3_deaderrs)

# The line of a run: [N/TOTAL], its name and the time it took, where the
# shell tells it.  N numbers the runs as they start (h3_count); a line is
# printed as its run ends, so that with -j the Ns can come out of order.
h3_quiet_report = '  REPORT  [%*d/%d] %s%s\n' $(h3_width) $(h3_nth) \
    $(h3_total) '$(h3_runname)' "$$h3_took"
h3_quiet_failed = '  REPORT  [%*d/%d] %s  failed: see %s\n' $(h3_width) \
    $(h3_nth) $(h3_total) '$(h3_runname)' "$${h3_at:-$(@D)/report.err}"
h3_runname = $(patsubst name=%,%,$(firstword $(h3_in)))
h3_started :=
h3_count = $(eval h3_started += x)$(eval h3_nth := $(words $(h3_started)))

# TOTAL, the number of reports to make (h3-plan): first make updates each
# under a second name, RUN/./report.json, the same file but another target
# with the same prerequisites, whose recipe only counts.  h3_width: its
# digits.  (Not with V=1 or -s, which print no count.)
ifneq ($(h3_quiet),)
h3_planned :=
h3_plans := $(foreach j,$(h3_jsons),$(dir $j)./$(notdir $j))
$(h3_plans): $(h3_tools)
	$(eval h3_planned += x)
h3-plan: $(h3_plans)
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

# A trace file or run directory gone is no reason for make to stop: the
# run's reduction says what is missing.  (An empty recipe: make 4.3 takes
# seconds over thousands of targets without one.  None for an export
# beside its nsys report, which %.sqlite makes again when stale.)
h3_exports := $(foreach f,$(filter %.sqlite,$(h3_files)),$(if $(wildcard \
    $(f:.sqlite=.nsys-rep)),$f))
$(sort $(filter-out $(h3_exports),$(h3_files))): ;
$(h3_exports):

# The SQLite export of an nsys report, in a run directory by the pattern
# rule, in OUT by a rule of the run's.  On failure the run's error record
# says why, as h3report's would, and the run's products, made from the
# export of before, are removed.  (A path that starts with - is no option.)
define h3_exporting
@mkdir -p -- '$(@D)' '$(dir $(h3_errfile))'
@command -v -- '$(NSYS)' >/dev/null || { printf '%s%s%s\n' \
    'pipeline.mk: $<: an nsys report is read through its SQLite export, ' \
    'which needs nsys, and $(NSYS) is no command: put nsys on the PATH or ' \
    'name it in NSYS=, or export it where nsys is (nsys export --type sqlite) and put $(@F) beside it' | \
    tee -- '$(h3_errfile)' >&2; rm -f -- $(h3_products); exit 1; }
$(h3_Q)$(call h3_trap,rm -f -- '$(h3_tmp).sqlite' '$(h3_tmp).err')$(call \
    h3_echo,export)$(call h3_bg,'$(NSYS)' export --type sqlite --quiet true \
    --force-overwrite true --output '$(h3_tmp).sqlite' \
    '$(patsubst -%,./-%,$<)' 2>'$(h3_tmp).err') || { cat -- '$(h3_tmp).err' >&2; \
    echo 'pipeline.mk: $<: $(NSYS) export failed' >>'$(h3_tmp).err'; mv -f -- \
    '$(h3_tmp).err' '$(h3_errfile)'; rm -f -- '$(h3_tmp).sqlite' $(h3_products); exit 1; }
@rm -f -- '$(h3_tmp).err' && mv -f -- '$(h3_tmp).sqlite' '$@'
endef
h3_quiet_export = '  EXPORT  %s\n' '$@'
# The products of the export's run, which go with it.
h3_products = $(foreach f,$(h3_reportfiles),'$(h3_errfile:report.err=$f)')
%.sqlite: %.nsys-rep
	$(h3_exporting)
