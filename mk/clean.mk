# mk/clean.mk: make clean-reports
# (Part of pipeline.mk, which includes it: see the map there.)

h3_quiet_clean = '  CLEAN   %s\n' '$(h3_reports)'

ifeq ($(h3_errs),)
clean-reports:
	$(h3_Q)$(call h3_echo,clean)rm -f -- $(h3_summaries) $(h3_list) $(h3_litter)$(call h3_chunks,rm -f --,\
	    $(wildcard $(h3_reports)/errors/*.err) \
	    $(foreach j,$(h3_jsons) $(h3_notracejsons),$j $(j:.json=.err) $(j:.json=.inputs) \
	    $(addprefix $(dir $j),$(h3_tables)) \
	    $(wildcard $(dir $j).report.json.?????? $(dir $j).report.err.[0-9]* \
	    $(dir $j).kernels.tsv.[0-9]* $(dir $j).strip.tsv.[0-9]* \
	    $(dir $j).gapbins.tsv.[0-9]*) \
	    $(call h3_deadx,$(wildcard $(dir $j).*.sqlite.[0-9]*.*))))$(call \
	    h3_chunks,rm -rf --,$(h3_deadreductions))$(if \
	    $(h3_scopetag),,$(call h3_chunks,rm -rf --,$(wildcard $(addsuffix \
	    scope.*/,$(dir $(h3_jsons) $(h3_notracejsons))))))
endif

ifeq ($(h3_errs),)
clean-reports: h3-clean-pages
endif
# As clean-reports takes the reports' temporary files, whoever left them
# (a killed page's process may linger as a zombie, its PID still there).
h3-clean-pages:
	$(h3_Q)rm -f -- '$(h3_index)' $(wildcard $(h3_reports)/.index.html.[0-9]* \
	    $(h3_reports)/.pages.list.[0-9]* $(h3_reports)/.pages-*.[0-9]*)$(call \
	    h3_chunks,rm -f --,\
	    $(h3_pages))
	$(h3_Q)rm -rf -- $(wildcard $(h3_pagedir)/.h3runpage.[0-9]* \
	    $(h3_pagedir)/*.inputs)

.PHONY: h3-clean-pages h3-stale-index $(addprefix h3-pages-,$(h3_pagebatches))
