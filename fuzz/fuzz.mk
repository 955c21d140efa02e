# fuzz/fuzz.mk: `make fuzz` fuzzes every parser of the filters with AFL++
# (Debian: apt-get install afl++) for FUZZ_SECONDS each and fails if any
# input crashes or hangs a filter; see dev/fuzz and fuzz/targets.  The
# filters are built as they are, instrumented by afl-clang-fast and with
# the sanitizers, in a tree of their own.
FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz
FUZZ_CC ?= afl-clang-fast

# Included anywhere, this file leaves the includer's default goal alone.
fuzz_goal := $(.DEFAULT_GOAL)

fuzz:
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: no $(FUZZ_CC):" \
	    "apt-get install afl++ libclang-rt-14-dev" >&2; exit 1; }
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) SAN=1 all \
	    $(FUZZ_BUILD)/csv2intervals-nofast $(FUZZ_BUILD)/bin/csvpaths
	FUZZ_SECONDS=$(FUZZ_SECONDS) dev/fuzz $(FUZZ_BUILD)/bin

# The fuzz target that runs csv2intervals with and without its fast path
# (fuzz/csvpaths.c), beside the filters.
$(BUILD)/bin/csvpaths: fuzz/csvpaths.c
	@mkdir -p $(@D)
	$(CC) $(H3CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

.PHONY: fuzz
.DEFAULT_GOAL := $(fuzz_goal)
