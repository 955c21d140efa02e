# fuzz/fuzz.mk: `make fuzz` fuzzes every parser of the filters with AFL++
# (Debian: apt-get install afl++) for FUZZ_SECONDS each and fails if any
# input crashes or hangs a filter; see scripts/fuzz.  The filters are built
# as they are, instrumented and with the sanitizers, in a tree of their own.
FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz
FUZZ_CC ?= afl-clang-fast

fuzz:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) SAN=1 all
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz $(FUZZ_BUILD)/bin

.PHONY: fuzz
