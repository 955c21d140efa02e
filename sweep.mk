# sweep.mk: make profile and make sweep, which profile commands with nsys
# into the run directories that pipeline.mk reduces.  They run
# scripts/h3profile and scripts/h3sweep.
#
#	make profile RUN=runs/NAME CMD='command' [CONFIG='KEY=VALUE ...']
#	make sweep SWEEP=sweep.tsv [GPUS=N] [HOSTS=file [KEEP_TRACES=1]]
#	    [HALT=now|soon|never] [SWEEPDIR=dir] [SWEEP_ENV='VAR ...']
#	make sweep SWEEP=sweep.tsv SLURM=1 [SBATCH='options'] [SRUN='options']
#	    [GPUS=N] [HALT=now|soon|never] [SWEEPDIR=dir]
#	make reports SLURM=1 [-j N] ...
#
# h3prof(7) says what each setting does, h3sweep(1) and h3profile(1) the
# rest.  pipeline.mk includes this file; make sweep needs GNU parallel.

# Run alone (make -f sweep.mk), this file is read through pipeline.mk, so
# that a mistyped setting (GPU=2 for GPUS=2) is an error there too.  The
# default goal is then make profile.
ifeq ($(words $(MAKEFILE_LIST)),1)
h3s_alone := yes
.DEFAULT_GOAL := profile
include $(dir $(lastword $(MAKEFILE_LIST)))pipeline.mk
else ifndef h3s_mk
h3s_mk := $(lastword $(MAKEFILE_LIST))
h3s_dir := $(patsubst ./,,$(dir $(h3s_mk)))
# The includer's default goal, restored at the end of this file.
h3s_includer_goal := $(.DEFAULT_GOAL)

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

# Where h3profile and h3sweep are: H3PROF_SCRIPTS (pipeline.mk sets it),
# else the checkout's scripts, else the installation's bin.
h3s_scripts := $(or $(H3PROF_SCRIPTS),$(if $(wildcard \
	$(h3s_dir)scripts/h3profile),$(h3s_dir)scripts,$(h3s_dir)../../bin))
h3s_profile := $(h3s_scripts)/h3profile
h3s_sweep := $(h3s_scripts)/h3sweep

# h3s_quiet is yes unless V=1 or make -s: then make prints one line a
# step.  h3s_Q hides the recipes unless V=1.
h3s_quiet := $(if $(filter 1,$(V))$(findstring s,$(firstword \
	-$(MAKEFLAGS))),,yes)
h3s_Q := $(if $(filter 1,$(V)),,@)

# The commands and paths reach the scripts through the environment, which
# carries any text, quotes included.
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

# The settings of pipeline.mk that a makefile set, for the make reports
# that make sweep runs: it reads only pipeline.mk and the command line.
# Run alone, only pipeline.mk set them, and that make sets them again.
h3s_file_settings := $(if $(h3s_alone),,$(foreach v,OUT REPORTS REPEAT_KEYS H3PROF_BIN H3PROF_RULES \
	H3PROF_SCRIPTS RANGE SKIP WINDOW HTML V,$(if $(filter file override,$(origin $v)),'$v=$($v)')))

# h3sweep's -m arguments under SLURM=1: each Slurm step reduces its run by
# a make of pipeline.mk's h3s-reports, given the settings that say where
# the report goes and how it is made, whoever set them.
h3s_step_make = -m -f -m '$(h3s_dir)pipeline.mk' $(foreach v,OUT H3PROF_BIN \
	H3PROF_RULES H3PROF_SCRIPTS RANGE SKIP WINDOW NSYS,$(if $(filter file \
	override command line,$(origin $v)),-m '$v=$($v)')) -m SLURM= -m h3s-reports

# Profile the runs, reduce those that are there, then fail if some runs
# failed.  The list of runs goes to make reports in a file, as it can
# outgrow a command line.  Three lines, for make runs a line that names
# $(MAKE) even under make -n.
sweep:
	$(if $(SWEEP),,$(error make sweep needs SWEEP=FILE, the sweep file))
	$(h3s_Q)$(if $(h3s_quiet),printf '  SWEEP   %s\n' "$$H3S_SWEEP"; )NSYS=$$H3S_NSYS \
	    NSYS_FLAGS=$$H3S_NSYS_FLAGS '$(h3s_sweep)' -k \
	    -d "$$H3S_SWEEPDIR" $(if $(GPUS),-g '$(GPUS)') -x '$(HALT)' \
	    $(if $(HOSTS),-H "$$H3S_HOSTS") $(foreach v,$(SWEEP_ENV),-e '$v') \
	    $(if $(filter 1,$(KEEP_TRACES)),-K) \
	    $(if $(filter 1,$(SLURM)),-S -b "$$H3S_SBATCH" -o "$$H3S_SRUN" \
	    $(h3s_step_make)) \
	    -- "$$H3S_SWEEP"
	$(h3s_Q)list=$$('$(h3s_sweep)' -l -d "$$H3S_SWEEPDIR" -- "$$H3S_SWEEP"); \
	    $(MAKE) $(if $(h3s_quiet),--no-print-directory )-f \
	    '$(h3s_dir)pipeline.mk' reports $(h3s_file_settings) TRACES_FROM="$$list"
	@'$(h3s_sweep)' -c -d "$$H3S_SWEEPDIR" -- "$$H3S_SWEEP"

# The reports of TRACES and no summary: what a Slurm step makes.
h3s-reports: $(if $(h3_errs),h3-errors,$(h3_jsons))

# Under make reports SLURM=1 inside an allocation (not inside a step), the
# command that pipeline.mk runs each reduction under: a Slurm step without
# GPUs, named h3report.  The SLURM_GPUS* variables go, or srun would give
# the step the allocation's GPUs.
h3s_step = $(if $(and $(filter 1,$(SLURM)),$(SLURM_JOB_ID)),$(if \
	$(SLURM_STEP_ID),,env -u SLURM_GPUS -u SLURM_GPUS_PER_NODE -u \
	SLURM_GPUS_PER_SOCKET -u SLURM_GPUS_PER_TASK srun -Q \
	--quit-on-interrupt -N1 -n1 --exclusive --gres=none -J h3report \
	$(SRUN_REDUCE)))

.PHONY: profile sweep h3s-reports

.DEFAULT_GOAL := $(h3s_includer_goal)
endif
