# mk/summary.mk: the summary of the sweep
# (Part of pipeline.mk, which includes it: see the map there.)

h3_summaries := $(addprefix $(h3_reports)/summary.,json csv md) \
	$(h3_reports)/groups.csv $(h3_reports)/kernels.tsv \
	$(h3_reports)/effects.csv
$(h3_summaries) &: $(h3_list) $(h3_record) $(h3_jsons) $(h3_keptjsons) \
	$(h3_notracejsons) \
	$(h3_summary) $(H3PROF_BIN)/sweepsum $(h3_lib) $(h3_mkfiles)
	$(h3_Q)$(eval h3_made := yes)$(call h3_trap)$(if $(h3_chained),rm -f -- \
	    $(h3_errfiles) && )$(call h3_bg,H3PROF_BIN='$(H3PROF_BIN)' \
	    '$(h3_summary)' -r '$(REPEAT_KEYS)' -o '$(h3_reports)' \
	    '$(h3_list)')$(if $(h3_quiet), && { $(h3_readmd) $(call \
	    h3_echo,summary) :; })
	$(if $(h3_chained),$(call h3_chunks,rm -rf --,$(h3_deadreductions)))

# summary.md's own words, read by the shell's read (no process): its
# count of failed runs, h3_failed, and its verdict, h3_verdict.
h3_readmd = { read -r h3_l; read -r h3_l; read -r h3_counts; read -r h3_l; \
    read -r h3_verdict; } <'$(h3_reports)/summary.md' && \
    h3_failed=$${h3_counts\#*reduced, } && h3_failed=$${h3_failed%% failed*} &&
h3_quiet_summary = '  SUMMARY %s (%s, %s failed)\n' '$(h3_reports)' \
    '$(call h3_runs,$(words $(h3_ids)))' "$$h3_failed"
# N runs, or 1 run.
h3_runs = $1 run$(if $(filter 1,$1),,s)

# The last line, once the summary and the pages are made, if this make
# made either: the fastest configuration, as summary.md's verdict names
# it, and where to read more.
h3-done: $(h3_summaries)
	$(if $(and $(h3_quiet),$(h3_made)),@$(h3_readmd) \
	    h3_fastest=$${h3_verdict%%; next: *} && printf '%s; see %s\n' \
	    "$${h3_fastest%.}" '$(h3_reports)/summary.md$(if $(filter \
	    0,$(HTML)),, and $(h3_index))' || :)

h3-failed: $(h3_summaries) h3-done
	@'$(h3_summary)' -c '$(h3_reports)/summary.json'
