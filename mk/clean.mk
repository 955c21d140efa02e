# mk/clean.mk: make clean-reports removes the summaries, the pages and the
# runs' products; it keeps the record of the sweep and the SQLite exports.

h3_quiet_clean = '  CLEAN   %s\n' '$(h3_reports)'

# Each run's report, its records and tables, and what a killed reduction
# or export of it left.
h3_runproducts = $(foreach j,$(h3_jsons) $(h3_notracejsons),$(addprefix \
    $(dir $j),$(h3_reportfiles) report.err report.inputs) $(wildcard \
    $(addprefix $(dir $j).,report.json.?????? report.err.[0-9]* \
    $(h3_tables:=.[0-9]*))) $(call h3_deadx,$(wildcard $(dir \
    $j).*.sqlite.[0-9]*.*)))
# The pages, their records and temporary files, whoever left them (a killed
# page's process may linger as a zombie, its PID still taken).
h3_pagefiles = $(h3_index) $(wildcard $(h3_reports)/.index.html.[0-9]* \
    $(h3_reports)/.pages.list.[0-9]* $(h3_reports)/.pages-*.[0-9]* \
    $(h3_pagedir)/*.inputs) $(h3_pages)
# Directories: the scratch of killed reductions and of h3runpage, and the
# products of every scope, unless one is given (h3_runproducts has them).
h3_cleandirs = $(h3_deadreductions) $(wildcard $(h3_pagedir)/.h3runpage.[0-9]*) \
    $(if $(h3_scopetag),,$(wildcard $(addsuffix scope.*/,$(dir $(h3_jsons) \
    $(h3_notracejsons)))))

ifeq ($(h3_errs),)
clean-reports:
	$(h3_Q)$(call h3_echo,clean)rm -f -- $(h3_summaries) $(h3_list) \
	    $(h3_litter)$(call h3_chunks,rm -f --,$(wildcard \
	    $(h3_reports)/errors/*.err) $(h3_runproducts) $(h3_pagefiles))$(call \
	    h3_chunks,rm -rf --,$(h3_cleandirs))
endif
