# mk/pages.mk: the HTML pages, unless HTML=0: a page per run (h3runpage(1)),
# drawn in batches as the runs are reduced, and the sweep's index (h3index(1)).

# The scripts that draw the pages, and the files of h3prof both read.
h3_runpage := $(H3PROF_SCRIPTS)/h3runpage
h3_indexpage := $(H3PROF_SCRIPTS)/h3index
h3_pagelibs := $(h3_lib) $(addprefix $(dir $(h3_lib)),h3.jq h3pages.awk) \
    $(H3PROF_DIR)mk/pages.mk
# A page a run, and the index.
h3_pages := $(foreach i,$(h3_ids),$(h3_pagedir)/$(h3_name_$i).html)
h3_index := $(h3_reports)/index.html
# Pages of runs no longer in the sweep.
h3_gonepages = $(filter-out $(h3_pages),$(wildcard $(h3_pagedir)/*.html))

h3-done: $(if $(filter 0,$(HTML)),h3-stale-index,$(h3_index))
# Asked for the pages without gnuplot, make says so before it does anything.
ifeq ($(h3_errs)$(HTML)$(firstword $(filter reports,\
    $(or $(MAKECMDGOALS),$(h3_goal)))),1reports)
ifeq ($(shell command -v gnuplot),)
$(error the pages of make reports need gnuplot, which is not installed: \
    install it (apt-get install gnuplot-nox, or dev/install-deps), or skip \
    the pages with make reports HTML=0)
endif
endif

# A run's page follows its report, which removes it when made again.  Its
# recipe starts nothing: it puts the run, h3_pagerun, in the queue of pages
# to draw.  (Targets are variable references: a name may hold = or :.)
h3_pagequeue :=
ifneq ($(HTML),0)
$(eval $(foreach i,$(h3_ids),$$(h3_pagedir)/$$(h3_name_$i).html: \
    $$(h3_json_$i)$(h3_nl)$$(h3_pagedir)/$$(h3_name_$i).html: private \
    h3_pagerun := $i$(h3_nl)))
endif
$(h3_pages): $(h3_runpage) $(addprefix $(dir $(h3_lib)),h3runpage.jq h3runpage.awk) \
	$(h3_pagelibs) $(h3_mkfiles)
	$(eval h3_pagequeue += $(h3_pagerun))

# $(call h3_drawpages,N): the recipe line that draws the queued pages as
# batch N, records the report each was drawn from (fresh -d writes
# pages/NAME.inputs) and empties the queue; nothing if it is empty.
h3_drawpages = $(if $(h3_pagequeue),$(call \
    h3_drawlist,$(h3_tmproot)pages-$1.$(h3_pid)))
# Make writes the batch's list, in runs.list's form, to file $1 as it
# expands the line; if a signal comes before the trap is set, the next
# make removes it as litter.  h3_drawn counts the batch for the PAGES line.
h3_drawlist = $(file >$1,$(call h3_runlines,$(h3_pagequeue)))$(eval h3_drawn := $(words \
    $(h3_pagequeue)))$(eval h3_pagequeue :=)$(h3_Q)$(call h3_trap,rm -f -- \
    '$1')$(call h3_echo,pages)$(call h3_mkdir,$(h3_pagedir)) && $(call \
    h3_bg,'$(h3_runpage)' -i ../index.html -d '$(h3_pagedir)' '$1') && \
    '$(H3PROF_BIN)/fresh' -d '$(h3_pagedir)' '$1'; h3_rc=$$?; \
    rm -f -- '$1'; exit $$h3_rc
h3_quiet_pages = '  PAGES   %s (%s)\n' '$(h3_pagedir)' '$(call \
    h3_runs,$(h3_drawn))'

# Runs a batch: the least power of two at least the square root of five
# times the runs.  A batch costs some 0.2 s to start its jq and gnuplot, a
# page of 20,000 kernels 20 ms: so the starts, and the last batch, drawn
# once all is reduced, stay few and small.
h3_pagesize := $(or $(firstword $(foreach g,4:4 8:13 16:52 32:205 64:820 \
    128:3277 256:13108,$(if $(word $(lastword $(subst :, ,$g)),$(h3_ids)),,\
    $(firstword $(subst :, ,$g))))),512)
# $(call h3_paging,X...,IDS): the numbers of the batches of IDS, counting
# on from the X's; the runs of batch B are h3_batchids_B.
h3_paging = $(if $2,$(words x $1) $(eval h3_batchids_$(words x $1) := \
    $(wordlist 1,$(h3_pagesize),$2))$(call h3_paging,x $1,$(wordlist \
    $(words x $(h3_batchids_$(words x $1))),$(words $2),$2)))
h3_pagebatches := $(if $(filter 0,$(HTML)),,$(call h3_paging,,$(h3_ids)))
# The order make reports meets them in: the reports of each batch, then
# the pages of the batch before.  Make starts jobs in the order it meets
# them, so that with -j a batch is drawn while the next is reduced.
h3_paging_order := $(foreach b,$(h3_pagebatches),$(foreach \
    i,$(h3_batchids_$b),$(h3_json_$i)) $(addprefix h3-pages-,$(filter-out \
    x,$(word $b,x $(h3_pagebatches)))))

# Batch B's pages, drawn here only with -j (which MAKEFLAGS shows in a
# recipe); without it the index draws them all, in one batch.
$(foreach b,$(h3_pagebatches),$(eval h3-pages-$b: $(foreach \
    i,$(h3_batchids_$b),$$(h3_pagedir)/$$(h3_name_$i).html)))
$(addprefix h3-pages-,$(h3_pagebatches)): h3-pages-%:
	$(if $(filter-out -j1,$(filter -j%,$(MAKEFLAGS))),$(call h3_drawpages,$*))
$(addprefix h3-pages-,$(h3_pagebatches)): private h3_stepname = $(h3_pagedir)

# The index links the pages that are there: it draws those still queued,
# and removes those of runs gone from the sweep, with their records.
$(h3_index): $(h3_summaries) $(h3_pages) $(h3_indexpage) \
	$(addprefix $(dir $(h3_lib)),h3index.jq) $(h3_pagelibs) $(h3_mkfiles) \
	| $(addprefix h3-pages-,$(h3_pagebatches))
	$(call h3_drawpages,0)
	$(if $(h3_gonepages),$(h3_Q)rm -f -- $(foreach p,$(h3_gonepages) \
	    $(h3_gonepages:.html=.inputs),$(call h3_quote,$p)))
	$(h3_Q)$(eval h3_remade := yes)$(call h3_trap)$(call \
	    h3_echo,index)$(call h3_bg,'$(h3_indexpage)' -o '$@' \
	    '$(h3_reports)/summary.json' '$(h3_list)')
h3_quiet_index = '  INDEX   %s\n' '$(h3_index)'

# With HTML=0, an index older than the summary goes.
h3-stale-index: $(h3_summaries)
	@[ ! -e '$(h3_index)' ] || [ '$(h3_index)' -nt \
	    '$(h3_reports)/summary.json' ] || rm -f -- '$(h3_index)'

.PHONY: h3-stale-index $(addprefix h3-pages-,$(h3_pagebatches))
