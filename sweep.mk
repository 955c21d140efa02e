# sweep.mk: profile commands with nsys into the run directories that
# pipeline.mk reduces: one run, or a whole sweep of them with GNU parallel,
# one job per GPU, on this machine or over several.
#
#	make profile RUN=runs/NAME CMD='command' [CONFIG='KEY=VALUE ...']
#	make sweep SWEEP=sweep.tsv [GPUS=N] [HOSTS=file [KEEP_TRACES=1]]
#	    [HALT=now|soon|never] [SWEEPDIR=dir] [SWEEP_ENV='VAR ...']
#
# Include it from a Makefile of your own (pipeline.mk includes it), or run
# it with make -f; it needs GNU make 4.3 or later, bash and jq, and for
# make sweep GNU parallel.  What it reads:
#
# NSYS		nsys (default: nsys from the PATH).
# NSYS_FLAGS	the options of nsys profile (default: -t cuda,nvtx
#		--cuda-graph-trace=node --force-overwrite=true: CUDA and NVTX,
#		and each kernel a CUDA graph launches).
# RUN		make profile: the run directory to make.
# CMD		make profile: the command, a shell command line; its KEY=VALUE
#		words at the start are settings.  A $ in it is make's: write
#		$$ for the shell.
# CONFIG	make profile: more settings, KEY=VALUE words.
# SWEEP		make sweep: the sweep file, a line per run: its name, a tab,
#		its command (with KEY=VALUE settings first, as CMD).
# SWEEPDIR	make sweep: where the runs go, as SWEEPDIR/NAME (default: runs),
#		with the sweep's job log SWEEPDIR/S.joblog (S: the sweep file's
#		name without its extension).
# GPUS		make sweep: jobs at once on each machine, one per GPU
#		(default 1).
# HOSTS		make sweep: run the jobs on the machines of this parallel
#		--sshloginfile instead of this one; each needs h3prof at the
#		same path as here, bash, jq, flock, rsync and nsys.  Each run
#		is reduced there (h3profile -t): its report.json, kernels.tsv,
#		config.json and profile.log come back, and its traces stay
#		on that machine in SWEEPDIR/.traces/NAME (SWEEPDIR as an
#		absolute path), which config.json records as traces_at.
# KEEP_TRACES	make sweep with HOSTS: 1 brings each run back whole, its
#		traces too, to be reduced here.
# HALT		make sweep: what a failed run does: never (the default) runs
#		the others; soon starts no other; now also kills those running.
# SWEEP_ENV	make sweep with HOSTS: environment variables to give the jobs
#		there too (NSYS and NSYS_FLAGS are given).
# H3PROF_SCRIPTS h3profile and h3sweep (default: scripts beside this file,
#		or PREFIX/bin if it is installed in PREFIX/share/h3prof).
#
# make profile runs h3profile: nsys profile, then nsys stats to the two
# CSVs, which must hold a trace (nsys exits 0 when it skips or fails an
# export), then RUN/config.json with the settings, the host, the GPU, the
# nsys version and the time; nsys's output goes to RUN/profile.log too.
# The run is made beside RUN and renamed to it only when all of it
# succeeded; a failed profile leaves RUN as it was, and what it made, its
# log saying why, in RUN.failed.
#
# make sweep runs h3sweep over SWEEP, which first checks that NSYS runs,
# then make reports (pipeline.mk) over the runs of SWEEP that are there,
# named in the file SWEEPDIR/S.runs (TRACES_FROM), and fails if some runs
# are not (the others are reduced all the same).  Another make sweep of
# the same SWEEP profiles again only the runs that failed, were not run,
# changed or are missing.  h3profile and h3sweep say the rest.

ifndef h3s_mk
h3s_mk := $(lastword $(MAKEFILE_LIST))
h3s_dir := $(patsubst ./,,$(dir $(h3s_mk)))
# The includer's default goal stays its own; run alone, there is none.
h3s_goal := $(.DEFAULT_GOAL)

NSYS ?= nsys
NSYS_FLAGS ?= -t cuda,nvtx --cuda-graph-trace=node --force-overwrite=true
SWEEPDIR ?= runs
GPUS ?= 1
HOSTS ?=
HALT ?= never
SWEEP_ENV ?=
KEEP_TRACES ?=

# The scripts: pipeline.mk's, which it sets before it includes this file;
# else, as there, those of the checkout or of the installation.
h3s_scripts := $(or $(H3PROF_SCRIPTS),$(if $(wildcard \
	$(h3s_dir)scripts/h3profile),$(h3s_dir)scripts,$(h3s_dir)../../bin))
h3s_profile := $(h3s_scripts)/h3profile
h3s_sweep := $(h3s_scripts)/h3sweep

# The command lines and paths go to the scripts through the environment,
# which takes any text, quotes among it.
profile sweep: export H3S_NSYS = $(NSYS)
profile sweep: export H3S_NSYS_FLAGS = $(NSYS_FLAGS)
profile: export H3S_RUN = $(RUN)
profile: export H3S_CMD = $(CMD)
profile: export H3S_CONFIG = $(CONFIG)
sweep: export H3S_SWEEP = $(SWEEP)
sweep: export H3S_SWEEPDIR = $(SWEEPDIR)
sweep: export H3S_HOSTS = $(HOSTS)

profile:
	$(if $(RUN),,$(error make profile needs RUN=DIR, the run to make))
	$(if $(CMD),,$(error make profile needs CMD='command', what to profile))
	NSYS=$$H3S_NSYS NSYS_FLAGS=$$H3S_NSYS_FLAGS '$(h3s_profile)' \
	    -c "$$H3S_CONFIG" -- "$$H3S_RUN" "$$H3S_CMD"

# pipeline.mk's settings, where a makefile set them: the make below reads
# only pipeline.mk and the command line.
h3s_pass := $(foreach v,OUT REPORTS REPEAT_KEYS H3PROF_BIN H3PROF_RULES \
	H3PROF_SCRIPTS RANGE SKIP WINDOW HTML,$(if $(filter file override,$(origin $v)),'$v=$($v)'))

# The runs that failed do not stop the reduction of the others; the check
# after it fails the sweep.  The runs go to make reports in a file, for a
# list of them can outgrow a command line (128 KiB).  Not one command
# line: make runs a line that names $(MAKE) even under make -n.
sweep:
	$(if $(SWEEP),,$(error make sweep needs SWEEP=FILE, the sweep file))
	NSYS=$$H3S_NSYS NSYS_FLAGS=$$H3S_NSYS_FLAGS '$(h3s_sweep)' -k \
	    -d "$$H3S_SWEEPDIR" -g '$(GPUS)' -x '$(HALT)' \
	    $(if $(HOSTS),-H "$$H3S_HOSTS") $(foreach v,$(SWEEP_ENV),-e '$v') \
	    $(if $(filter 1,$(KEEP_TRACES)),-K) \
	    -- "$$H3S_SWEEP"
	list=$$('$(h3s_sweep)' -l -d "$$H3S_SWEEPDIR" -- "$$H3S_SWEEP"); \
	    $(MAKE) -f '$(h3s_dir)pipeline.mk' reports $(h3s_pass) \
	    TRACES_FROM="$$list"
	@'$(h3s_sweep)' -c -d "$$H3S_SWEEPDIR" -- "$$H3S_SWEEP"

.PHONY: profile sweep

.DEFAULT_GOAL := $(h3s_goal)
endif
