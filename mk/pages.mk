# mk/pages.mk: the pages: a run's page and the sweep's index
# (Part of pipeline.mk, which includes it: see the map there.)

# The batches of pages: h3_pagebatches names them, h3_batchids_B are
# the runs of batch B, h3_pagesize runs, the least power of two at least
# the square root of five times the runs (see the pages, below).  make
# reports takes (after the sweep's list and record, which it writes
# first) the reports of each batch, then the pages of the batch
# before (the last batch after the summaries, which it can be drawn
# beside), so that with -j a batch is drawn while the next is reduced:
# make starts the jobs in the order it meets them, and comes back to a
# target whose prerequisites were under way only once it has met all.
h3_pagesize := $(or $(firstword $(foreach g,4:4 8:13 16:52 32:205 64:820 \
    128:3277 256:13108,$(if $(word $(lastword $(subst :, ,$g)),$(h3_ids)),,\
    $(firstword $(subst :, ,$g))))),512)
# $(call h3_paging,BEFORE,IDS): the numbers of the batches of IDS, the
# first 1 + the words of BEFORE, an x a batch before them.
h3_paging = $(if $2,$(words x $1) $(eval h3_batchids_$(words x $1) := \
    $(wordlist 1,$(h3_pagesize),$2))$(call h3_paging,x $1,$(wordlist \
    $(words x $(h3_batchids_$(words x $1))),$(words $2),$2)))
h3_pagebatches := $(if $(filter 0,$(HTML)),,$(call h3_paging,,$(h3_ids)))
h3_paging_order := $(foreach b,$(h3_pagebatches),$(foreach \
    i,$(h3_batchids_$b),$(h3_json_$i)) $(addprefix h3-pages-,$(filter-out \
    0,$(words $(wordlist 2,$b,$(h3_pagebatches))))))

# --- the pages -------------------------------------------------------------------
#
# make reports also writes, unless HTML=0 (for hosts that read no pages):
#
# REPORTS/pages/NAME.html	the page of run NAME (h3runpage(1)): its
#			figures, kernel time per category, a timeline strip
#			of its kernels per device and stream, its idle gaps,
#			its streams and top kernels, a link back to the
#			index.
# REPORTS/index.html	the sweep's page (h3index(1)): the summary's
#			verdict, the configurations fastest first with the
#			links to their runs' pages, what explains their
#			differences, their kernel time per category, busy and
#			idle time, idle gaps, the GPU span and the kernel time
#			per category against each numeric setting.
#
# Both are self-contained HTML, inline SVG charts drawn by gnuplot and no
# script, and the same inputs give the same bytes; links are relative to
# REPORTS, so a REPORTS copied or archived, or one whose traces are gone,
# still shows its pages.  A run's page is made from the products of its
# reduction alone, which the reduction (reduce.mk, as h3report -p) writes
# beside its report.json:
#
# RUN/strip.tsv		the timeline strip (timeline(1)): a header, then
#			lane, device, stream, start_ns, end_ns and category
#			of each stretch of pixel columns of one category, 960
#			columns across the GPU span.
# RUN/gapbins.tsv	the idle gaps of the report binned ten to a decade
#			(gapstat -b, the report's own gapstat): a header, then
#			edge_ns, count and total_ns of each bin with a gap.
#
# They are renamed into place with kernels.tsv, just before report.json,
# and go with it.  The pages of the runs whose report changed are drawn
# in batches, one jq and one gnuplot a batch: with -j as their reports
# are made, else in one batch; the index follows the summaries and the
# pages.  A page never outlives what it shows: a run's page goes as its
# report is made again (so a run that fails has none), and with HTML=0
# an index older than the summary goes.
# Without gnuplot, make reports does nothing and says how to install it
# or skip the pages (exit 2).

h3_runpage := $(H3PROF_SCRIPTS)/h3runpage
h3_indexpage := $(H3PROF_SCRIPTS)/h3index
h3_pagelibs := $(h3_lib) $(addprefix $(dir $(h3_lib)),h3.jq h3pages.awk)
h3_pagedir := $(h3_reports)/pages
h3_pages := $(foreach i,$(h3_ids),$(h3_pagedir)/$(h3_name_$i).html)
h3_index := $(h3_reports)/index.html
h3_gonepages = $(filter-out $(h3_pages),$(wildcard $(h3_pagedir)/*.html))

ifeq ($(h3_errs),)
ifeq ($(HTML),0)
h3-done: h3-stale-index
else
h3-done: $(h3_index)
# Asked for the pages, make says at once, before it does anything, that
# it cannot draw them.
ifneq ($(filter reports,$(or $(MAKECMDGOALS),$(h3_goal))),)
ifeq ($(shell command -v gnuplot),)
$(error the pages of make reports need gnuplot, which is not installed: \
    install it (apt-get install gnuplot-nox, or dev/install-deps), or skip \
    the pages with make reports HTML=0)
endif
endif
endif
endif

# Each page follows its run's report (with -k, a run whose report failed
# has none, and loses its page); its recipe, which starts nothing, puts
# the run in the queue of the pages to draw, h3_batch.  (The page
# variables are references, for a run's name may hold = or :.)
h3_batch :=
ifneq ($(HTML),0)
$(eval $(foreach i,$(h3_ids),$$(h3_pagedir)/$$(h3_name_$i).html: \
    $$(h3_json_$i)$(h3_nl)$$(h3_pagedir)/$$(h3_name_$i).html: private \
    h3_pagerun := $i$(h3_nl)))
endif
$(h3_pages): $(h3_runpage) $(addprefix $(dir $(h3_lib)),h3runpage.jq) \
	$(h3_pagelibs) $(h3_mkfiles)
	$(eval h3_batch += $(h3_pagerun))

# $(call h3_drawpages,N): the recipe line that draws the pages in the
# queue, as batch N, records which report each was drawn from (fresh -d:
# pages/NAME.inputs, see h3_stale), and empties it; nothing if it is
# empty.  Its list,
# NAME tab report a line each as runs.list, is written as the line is
# expanded, and h3_drawn counts it for the line make says.
h3_drawpages = $(if $(h3_batch),$(file >$(call \
    h3_batchlist,$1),$(h3_batchtext))$(eval h3_drawn := $(words \
    $(h3_batch)))$(eval h3_batch :=)$(h3_Q)$(call h3_trap,rm -f -- \
    '$(call h3_batchlist,$1)')$(call h3_echo,pages)$(call \
    h3_mkdir,$(h3_pagedir)) && { $(call h3_bg,'$(h3_runpage)' -i \
    ../index.html -d '$(h3_pagedir)' '$(call h3_batchlist,$1)') && \
    '$(H3PROF_BIN)/fresh' -d '$(h3_pagedir)' '$(call h3_batchlist,$1)'; \
    h3_rc=$$?; rm -f -- '$(call h3_batchlist,$1)'; exit $$h3_rc; })
# The list is written by make, before the recipe's shell sets the trap
# that removes it: one a signal leaves in that moment is in TMPDIR, beside
# the make's messages, not in REPORTS, and the next make takes it for
# litter (in REPORTS where TMPDIR's name is none $(file) can write).
h3_batchlist = $(h3_tmproot)pages-$1.$(h3_pid)
h3_batchtext = $(subst :,$(h3_tab),$(subst $() ,$(h3_nl),$(strip \
	$(foreach i,$(h3_batch),$(h3_name_$i):$(h3_json_$i)))))
h3_quiet_pages = '  PAGES   %s (%s)\n' '$(h3_pagedir)' '$(call \
    h3_runs,$(h3_drawn))'

# With -j the pages are drawn as their reports are made, while later
# runs are reduced: make reports meets each batch of h3_pagesize runs
# once it has started the reports of the next (see h3_pagebatches,
# above), and the batch's recipe draws the pages in the queue.  A batch
# costs some 0.2 s to start its jq and gnuplot, a page of 20,000 kernels
# 20 ms: batches of about the square root of five times the runs keep
# both the starts and the last batch, drawn once all is reduced, few and
# small.  Without -j, where none runs beside, the index's recipe draws
# them all, in one batch.
$(foreach b,$(h3_pagebatches),$(eval h3-pages-$b: $(foreach \
    i,$(h3_batchids_$b),$$(h3_pagedir)/$$(h3_name_$i).html)))
# Whether this make runs jobs beside each other: its -j, which MAKEFLAGS
# shows in a recipe (make 4.3 shows none while it parses).
h3_parallel = $(filter-out -j1,$(filter -j%,$(MAKEFLAGS)))
$(addprefix h3-pages-,$(h3_pagebatches)): h3-pages-%:
	$(if $(h3_parallel),$(call h3_drawpages,$*))
$(addprefix h3-pages-,$(h3_pagebatches)): private h3_stepname = $(h3_pagedir)

# The index links the runs' pages that are there: it follows them, and
# draws the pages still in the queue.  The pages of runs no more in the
# sweep, and their records, go with the index of before.
$(h3_index): $(h3_summaries) $(h3_pages) $(h3_indexpage) \
	$(addprefix $(dir $(h3_lib)),h3index.jq) $(h3_pagelibs) $(h3_mkfiles) \
	| $(addprefix h3-pages-,$(h3_pagebatches))
	$(call h3_drawpages,0)
	$(if $(h3_gonepages),$(h3_Q)rm -f -- $(foreach p,$(h3_gonepages) \
	    $(h3_gonepages:.html=.inputs),$(call h3_quote,$p)))
	$(h3_Q)$(eval h3_made := yes)$(call h3_trap)$(call \
	    h3_echo,index)$(call h3_bg,'$(h3_indexpage)' -o '$@' \
	    '$(h3_reports)/summary.json' '$(h3_list)')
h3_quiet_index = '  INDEX   %s\n' '$(h3_index)'

h3-stale-index: $(h3_summaries)
	@[ ! -e '$(h3_index)' ] || [ '$(h3_index)' -nt \
	    '$(h3_reports)/summary.json' ] || rm -f -- '$(h3_index)'
