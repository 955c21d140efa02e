# mk/summary.mk: the summary of the sweep (h3summary(1)), and the line
# that ends make reports.

# h3summary, and what it writes, all together.  Where this make reduced a
# run, the recipe then removes the reductions' messages and what killed
# makes left.
h3_summary := $(H3PROF_SCRIPTS)/h3summary
h3_summaries := $(addprefix $(h3_reports)/,summary.json summary.csv \
	summary.md groups.csv kernels.tsv effects.csv)
$(h3_summaries) &: $(h3_list) $(h3_record) $(h3_jsons) $(h3_keptjsons) \
	$(h3_notracejsons) $(h3_summary) $(H3PROF_BIN)/sweepsum $(h3_lib) \
	$(h3_mkfiles) $(H3PROF_DIR)mk/summary.mk
	$(h3_Q)$(eval h3_remade := yes)$(call h3_trap)$(if $(h3_chained),rm -f -- \
	    $(h3_errfiles) && )$(call h3_bg,H3PROF_BIN='$(H3PROF_BIN)' \
	    '$(h3_summary)' -r '$(REPEAT_KEYS)' -o '$(h3_reports)' \
	    '$(h3_list)')$(if $(h3_quiet), && { $(h3_read_summarymd) $(call \
	    h3_echo,summary) :; })
	$(if $(h3_chained),$(call h3_chunks,rm -rf --,$(h3_deadreductions)))
h3_quiet_summary = '  SUMMARY %s (%s, %s failed)\n' '$(h3_reports)' \
    '$(call h3_runs,$(words $(h3_ids)))' "$$h3_failed"
# $(call h3_runs,N): "N runs", or "1 run".
h3_runs = $1 run$(if $(filter 1,$1),,s)

# Shell that reads summary.md's count of failed runs into h3_failed and
# its verdict into h3_verdict, with the builtin read: no process.
h3_read_summarymd = { read -r h3_l; read -r h3_l; read -r h3_counts; \
    read -r h3_l; read -r h3_verdict; } <'$(h3_reports)/summary.md' && \
    h3_failed=$${h3_counts\#*reduced, } && h3_failed=$${h3_failed%% failed*} &&

# The last line, if this make remade the summary or the index: the
# fastest configuration, as the verdict names it, and where to read more.
h3-done: $(h3_summaries)
	$(if $(and $(h3_quiet),$(h3_remade)),@$(h3_read_summarymd) \
	    h3_fastest=$${h3_verdict%%; next: *} && printf '%s; see %s\n' \
	    "$${h3_fastest%.}" '$(h3_reports)/summary.md$(if $(filter \
	    0,$(HTML)),, and $(h3_index))' || :)

# Under -k, the sweep fails once the summary is made if a run failed.
h3-failed: $(h3_summaries) h3-done
	@'$(h3_summary)' -c '$(h3_reports)/summary.json'
