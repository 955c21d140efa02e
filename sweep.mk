# sweep.mk: profile commands with nsys into the run directories that
# pipeline.mk reduces: one run, or a whole sweep of them with GNU parallel,
# one job per GPU, on this machine or over several.
#
#	make profile RUN=runs/NAME CMD='command' [CONFIG='KEY=VALUE ...']
#	make sweep SWEEP=sweep.tsv [GPUS=N] [HOSTS=file [KEEP_TRACES=1]]
#	    [HALT=now|soon|never] [SWEEPDIR=dir] [SWEEP_ENV='VAR ...']
#	make sweep SWEEP=sweep.tsv SLURM=1 [SBATCH='options'] [SRUN='options']
#	    [GPUS=N] [HALT=now|soon|never] [SWEEPDIR=dir]
#	make reports SLURM=1 [-j N] ...
#
# Include it from a Makefile of your own (pipeline.mk includes it), or run
# it with make -f (which reads it through pipeline.mk, so that a setting
# of the command line neither names is an error); it needs GNU make 4.3
# or later, bash and jq, and for make sweep GNU parallel.  What it reads:
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
#		(default 1; with SLURM inside an allocation, the GPUs of the
#		allocation).
# HOSTS		make sweep: run the jobs on the machines of this parallel
#		--sshloginfile instead of this one; each needs h3prof at the
#		same path as here, bash, jq, flock, rsync and nsys.  Each run
#		is reduced there (h3profile -t): its report.json, kernels.tsv,
#		strip.tsv, gapbins.tsv (its page's products), config.json
#		and profile.log come back, and its traces stay
#		on that machine in SWEEPDIR/.traces/NAME (SWEEPDIR as an
#		absolute path), which config.json records as traces_at.
# KEEP_TRACES	make sweep with HOSTS: 1 brings each run back whole, its
#		traces too, to be reduced here.
# HALT		make sweep: what a failed run does: never (the default) runs
#		the others; soon starts no other; now also kills those running.
# SWEEP_ENV	make sweep with HOSTS: environment variables to give the jobs
#		there too (NSYS and NSYS_FLAGS are given).
# SLURM		1: make sweep goes through Slurm (sbatch, srun), and
#		make reports inside an allocation runs each run's reduction
#		as a step of it without GPUs, srun -N1 -n1 --exclusive
#		--gres=none SRUN_REDUCE (not from within a step).
#		Inside an allocation (SLURM_JOB_ID set, as under
#		salloc or in a batch script), each run of make sweep is a
#		step, srun -N1 -n1 --exclusive --gpus=1 SRUN, started
#		through GNU parallel as without Slurm, as many at once as
#		the allocation has GPUs (GPUS: per node); outside one, the
#		runs still to make are one job array, sbatch --wait
#		--array=1-N --gpus=1 SBATCH, a task a run.  Either way a run
#		is profiled and then reduced, by pipeline.mk's own rule, on
#		the node that ran it, into SWEEPDIR, which must be on a file
#		system every node shares, at the same path, as must h3prof;
#		make reports then finds the reports made, and summarizes.
#		A run that Slurm ended (scancel, a time limit, a node that
#		failed) leaves no run, and is listed as failed with Slurm's
#		state for it, which SWEEPDIR/S.states keeps; see h3sweep(1).
# SBATCH	make sweep SLURM=1 outside an allocation: sbatch's options
#		for the job array, after --gpus=1, as --partition=P
#		--account=A --qos=Q --time=T --gpus=2.
# SRUN		make sweep SLURM=1 inside an allocation: srun's options for
#		each run's step, after --gpus=1, as --time=T or --gpus=2.
# SRUN_REDUCE	make reports SLURM=1 inside an allocation: srun's options
#		for each reduction's step, as --mem=8G where the site makes
#		memory a resource (a step takes all of the job's on its node
#		otherwise, and the steps then run one at a time).
# V		1: print the recipes as make runs them, not a line a step:
#		"  PROFILE RUN", "  SWEEP   SWEEP" and then the lines of make
#		reports (see pipeline.mk); make -s prints no such line.
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

# Run alone (make -f sweep.mk), it is read through pipeline.mk, which
# checks the command line's settings for make profile and make sweep as
# for its own goals: a slip (GPU=2 for GPUS=2) is an error, not a
# setting left at its default.  With no goal, it is make profile still.
ifeq ($(words $(MAKEFILE_LIST)),1)
h3s_alone := yes
.DEFAULT_GOAL := profile
include $(dir $(lastword $(MAKEFILE_LIST)))pipeline.mk
else ifndef h3s_mk
h3s_mk := $(lastword $(MAKEFILE_LIST))
h3s_dir := $(patsubst ./,,$(dir $(h3s_mk)))
# The includer's default goal stays its own; run alone, there is none.
h3s_goal := $(.DEFAULT_GOAL)

NSYS ?= nsys
NSYS_FLAGS ?= -t cuda,nvtx --cuda-graph-trace=node --force-overwrite=true
SWEEPDIR ?= runs
GPUS ?=
HOSTS ?=
HALT ?= never
SWEEP_ENV ?=
KEEP_TRACES ?=
SLURM ?=
SBATCH ?=
SRUN ?=
SRUN_REDUCE ?=

# The scripts: pipeline.mk's, which it sets before it includes this file;
# else, as there, those of the checkout or of the installation.
h3s_scripts := $(or $(H3PROF_SCRIPTS),$(if $(wildcard \
	$(h3s_dir)scripts/h3profile),$(h3s_dir)scripts,$(h3s_dir)../../bin))
h3s_profile := $(h3s_scripts)/h3profile
h3s_sweep := $(h3s_scripts)/h3sweep

# What make says, as pipeline.mk says it (see there): a line a step by
# default, the recipes with V=1, nothing with make -s.
h3s_quiet := $(if $(filter 1,$(V))$(findstring s,$(firstword \
	-$(MAKEFLAGS))),,yes)
h3s_Q := $(if $(filter 1,$(V)),,@)

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
sweep: export H3S_SBATCH = $(SBATCH)
sweep: export H3S_SRUN = $(SRUN)

profile:
	$(if $(RUN),,$(error make profile needs RUN=DIR, the run to make))
	$(if $(CMD),,$(error make profile needs CMD='command', what to profile))
	$(h3s_Q)$(if $(h3s_quiet),printf '  PROFILE %s\n' "$$H3S_RUN"; )NSYS=$$H3S_NSYS \
	    NSYS_FLAGS=$$H3S_NSYS_FLAGS '$(h3s_profile)' \
	    -c "$$H3S_CONFIG" -- "$$H3S_RUN" "$$H3S_CMD"

# pipeline.mk's settings, where a makefile set them: the make below reads
# only pipeline.mk and the command line.  (Run alone, only pipeline.mk
# set them, to what the make below sets them to again.)
h3s_pass := $(if $(h3s_alone),,$(foreach v,OUT REPORTS REPEAT_KEYS H3PROF_BIN H3PROF_RULES \
	H3PROF_SCRIPTS RANGE SKIP WINDOW HTML V,$(if $(filter file override,$(origin $v)),'$v=$($v)')))

# The reduction of a run in its Slurm step: pipeline.mk, with the
# settings that tell where its report goes and how it is made, whatever
# set them (the step's make has none of this one's flags), to make
# h3s-reports, below.
h3s_reduce = -m -f -m '$(h3s_dir)pipeline.mk' $(foreach v,OUT H3PROF_BIN \
	H3PROF_RULES H3PROF_SCRIPTS RANGE SKIP WINDOW NSYS,$(if $(filter file \
	override command line,$(origin $v)),-m '$v=$($v)')) -m SLURM= -m h3s-reports

# The runs that failed do not stop the reduction of the others; the check
# after it fails the sweep.  The runs go to make reports in a file, for a
# list of them can outgrow a command line (128 KiB).  Not one command
# line: make runs a line that names $(MAKE) even under make -n.
sweep:
	$(if $(SWEEP),,$(error make sweep needs SWEEP=FILE, the sweep file))
	$(h3s_Q)$(if $(h3s_quiet),printf '  SWEEP   %s\n' "$$H3S_SWEEP"; )NSYS=$$H3S_NSYS \
	    NSYS_FLAGS=$$H3S_NSYS_FLAGS '$(h3s_sweep)' -k \
	    -d "$$H3S_SWEEPDIR" $(if $(GPUS),-g '$(GPUS)') -x '$(HALT)' \
	    $(if $(HOSTS),-H "$$H3S_HOSTS") $(foreach v,$(SWEEP_ENV),-e '$v') \
	    $(if $(filter 1,$(KEEP_TRACES)),-K) \
	    $(if $(filter 1,$(SLURM)),-S -b "$$H3S_SBATCH" -o "$$H3S_SRUN" \
	    $(h3s_reduce)) \
	    -- "$$H3S_SWEEP"
	$(h3s_Q)list=$$('$(h3s_sweep)' -l -d "$$H3S_SWEEPDIR" -- "$$H3S_SWEEP"); \
	    $(MAKE) $(if $(h3s_quiet),--no-print-directory )-f \
	    '$(h3s_dir)pipeline.mk' reports $(h3s_pass) TRACES_FROM="$$list"
	@'$(h3s_sweep)' -c -d "$$H3S_SWEEPDIR" -- "$$H3S_SWEEP"

# A Slurm step's reduction (h3s_reduce): the reports of TRACES, as make
# reports makes them, and no summary.  (pipeline.mk includes this file
# once it knows its runs.)
h3s-reports: $(if $(h3_errs),h3-errors,$(h3_jsons))

# make reports SLURM=1 inside an allocation, not inside a step of it:
# the command that pipeline.mk runs each run's reduction (a make of
# reduce.mk) under, a step without GPUs (srun would take the allocation's
# from its environment), named h3report, the step's old name.
h3s_step = $(if $(and $(filter 1,$(SLURM)),$(SLURM_JOB_ID)),$(if \
	$(SLURM_STEP_ID),,env -u SLURM_GPUS -u SLURM_GPUS_PER_NODE -u \
	SLURM_GPUS_PER_SOCKET -u SLURM_GPUS_PER_TASK srun -Q \
	--quit-on-interrupt -N1 -n1 --exclusive --gres=none -J h3report \
	$(SRUN_REDUCE)))

.PHONY: profile sweep h3s-reports

.DEFAULT_GOAL := $(h3s_goal)
endif
