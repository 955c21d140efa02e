# mk/compare.mk: make compare BASE=dir NEW=dir compares two sweeps with
# h3compare(1) and fails on a regression.

h3_compare := $(H3PROF_SCRIPTS)/h3compare
# Settings of make compare alone: MISSING=ok and SCOPES=differ loosen the gate.
MISSING ?=
SCOPES ?=

# The settings are checked before h3compare runs; each one given is passed
# with its $(origin), which compare.md names.
compare: $(H3PROF_BIN)/figdiff
	$(if $(and $(BASE),$(NEW)),,@echo 'pipeline.mk: make compare needs \
	    BASE=dir and NEW=dir: two reports directories, or two run \
	    directories' >&2; exit 2)
	$(foreach v,BASE NEW TOLERANCE ALPHA,$(if $(call h3_unsafe,$($v)),\
	    $(error $(call h3_cannotcarry,$v))))
	$(if $(filter-out ok,$(MISSING)),$(error MISSING="$(MISSING)": \
	    MISSING=ok lets configurations of BASE be missing in NEW; \
	    without it they fail the gate))
	$(if $(filter-out differ,$(SCOPES)),$(error SCOPES="$(SCOPES)": \
	    SCOPES=differ lets BASE and NEW be of different scopes; without \
	    it they fail the gate))
	@$(call h3_echo,compare)H3PROF_BIN='$(H3PROF_BIN)' '$(h3_compare)' \
	    -r '$(REPEAT_KEYS)' $(if $(TOLERANCE),-t '$(TOLERANCE)') \
	    $(if $(ALPHA),-a '$(ALPHA)') $(if $(MISSING),-m) $(if $(SCOPES),-d) \
	    $(foreach v,TOLERANCE ALPHA MISSING SCOPES REPEAT_KEYS,$(if \
	    $($v),-o '$v=$(origin $v)')) -- '$(BASE)' '$(NEW)'
h3_quiet_compare = '  COMPARE %s against %s\n' '$(NEW)' '$(BASE)'

.PHONY: compare
