# scope.mk: the scope of a reduction, RANGE [SKIP] or WINDOW (see
# pipeline.mk), checked before any run is reduced, and the name of its
# directory, h3_scopetag.  pipeline.mk and reduce.mk read it, so that both
# take a scope alike; a caller that has set h3_scopetag (reduce.mk, given
# its caller's SCOPE_TAG) has checked the scope: what takes a shell is
# not done again.
RANGE ?=
SKIP ?=
WINDOW ?=
# $(call h3_without,CHARS,TEXT): TEXT less every character of the list
# CHARS.
h3_without = $(if $1,$(call h3_without,$(wordlist 2,$(words $1),$1),$(subst \
    $(firstword $1),,$2)),$2)
h3_digits := 0 1 2 3 4 5 6 7 8 9

$(foreach v,RANGE SKIP WINDOW,$(if $(findstring ',$($v)),\
    $(error $v="$($v)" holds a quote, which the recipes cannot carry)))
ifneq ($(SKIP),)
ifeq ($(RANGE),)
$(error SKIP=$(SKIP) without RANGE: SKIP leaves out instances of the ranges RANGE names)
endif
endif
ifneq ($(RANGE),)
ifneq ($(WINDOW),)
$(error RANGE=$(RANGE) and WINDOW=$(WINDOW): a report is scoped by ranges \
    or by time, not both)
endif
endif
# SKIP is digits, at most 18, as every count of h3prof (64 bits).
ifneq ($(strip $(call h3_without,$(h3_digits),$(SKIP)))$(word 2,$(SKIP)),)
$(error SKIP=$(SKIP): not a count of instances)
endif
h3_skipdigits := $(SKIP)
$(foreach d,$(h3_digits),$(eval h3_skipdigits := $(subst \
    $d,$d ,$(h3_skipdigits))))
ifneq ($(word 19,$(h3_skipdigits)),)
$(error SKIP=$(SKIP): not a count of instances (at most 18 digits))
endif

ifeq ($(h3_scopetag),)
# WINDOW is START:END, each whole ns (at most 18 digits) or a percentage
# of at most 100, and ends after it starts where both are of one kind,
# as inwindow(1) takes it.
ifneq ($(WINDOW),)
h3_windowbad := $(shell awk -v w='$(WINDOW)' 'BEGIN { \
    n = split(w, b, ":"); if (n != 2 || w ~ /[[:space:]]/) { print "form"; exit } \
    for (i = 1; i <= 2; i++) \
	if (b[i] ~ /^[0-9]+$$/ && length(b[i]) <= 18) { \
	    rel[i] = 0; sub(/^0+/, "", b[i]); v[i] = b[i] } \
	else if (b[i] ~ /^([0-9]+(\.[0-9]*)?|\.[0-9]+)%$$/ && b[i] + 0 <= 100) { \
	    rel[i] = 1; v[i] = b[i] + 0 } \
	else { print "form"; exit } \
    if (rel[1] == rel[2] && (rel[1] ? v[2] < v[1] : length(v[2]) < \
	length(v[1]) || length(v[2]) == length(v[1]) && v[2] < v[1])) \
	print "order" }')
ifeq ($(h3_windowbad),form)
$(error WINDOW=$(WINDOW): not START:END, each whole ns from the first GPU \
    operation (at most 18 digits) or a percentage of the span, as in \
    WINDOW=50%:100% or WINDOW=0:2000000)
endif
ifeq ($(h3_windowbad),order)
$(error WINDOW=$(WINDOW): the window ends before it starts)
endif
endif
# A scoped reduction's products go to a directory of their own inside the
# run's, scope.TAG: TAG is the scope in file-name characters, then the
# checksum of it exact (RANGE='a*' and 'a?' are two scopes), so that each
# scope keeps its reports and the unscoped report is never overwritten.
# Empty without a scope.
h3_scopetag := $(if $(RANGE)$(WINDOW),$(shell s='$(if $(RANGE),range-$(RANGE)$(if \
    $(SKIP),-skip-$(SKIP)),window-$(WINDOW))'; printf 'scope.%s.%s' \
    "$$(printf '%s' "$$s" | tr -c 'A-Za-z0-9._-' _ | cut -c1-48)" \
    "$$(printf '%s' "$$s" | cksum | cut -d' ' -f1)"))
endif
