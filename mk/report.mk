# mk/report.mk: reducing a run: the rule of each run's report
# (Part of pipeline.mk, which includes it: see the map there.)

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
	$(h3_reducemk) $(H3PROF_RULES) $(h3_mkfiles)

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
