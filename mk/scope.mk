# mk/scope.mk: checks the scope, RANGE [SKIP] or WINDOW, and names its
# products' directory, h3_scopetag.  Included by mk/settings.mk and
# reduce.mk; where the includer set h3_scopetag, the scope was checked
# already and the checks that start a shell are skipped.
RANGE ?=
SKIP ?=
WINDOW ?=
# $(call h3_without,CHARS,TEXT): TEXT less the characters in list CHARS.
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
# SKIP is at most 18 digits, so that it fits in 64 bits.
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
# WINDOW is START:END as inwindow(1) takes it: each whole ns (at most 18
# digits) or a percentage up to 100; if both are of one kind, END is not
# before START.
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
# A scope's products go in RUN/scope.NAME.SUM (empty without a scope):
# NAME is the scope in safe characters, SUM its checksum, which tells
# apart scopes that NAME does not (RANGE='a*' and RANGE='a?').
h3_scopetag := $(if $(RANGE)$(WINDOW),$(shell s='$(if $(RANGE),range-$(RANGE)$(if \
    $(SKIP),-skip-$(SKIP)),window-$(WINDOW))'; printf 'scope.%s.%s' \
    "$$(printf '%s' "$$s" | tr -c 'A-Za-z0-9._-' _ | cut -c1-48)" \
    "$$(printf '%s' "$$s" | cksum | cut -d' ' -f1)"))
endif
