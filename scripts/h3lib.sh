# h3lib.sh: the shell plumbing every h3prof script shares.  Sourced, not
# run: a script finds it beside itself (the checkout's scripts/) or in
# ../share/h3prof (an installation), with
#
#	case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
#	lib=$here/h3lib.sh
#	[ -f "$lib" ] || lib=$here/../share/h3prof/h3lib.sh
#	. "$lib" || exit 1
#
# and gets strict mode, prog and tab, and the functions below.  (No
# dirname(1), but h3_dirname: a script that reduces a run of a sweep
# starts few processes.)
set -euo pipefail
export LC_ALL=C

prog=${0##*/}	# the script's name, for messages
tab=$'\t'
h3_waitpid=	# the command h3_wait runs, which h3_cleanup ends
# The characters make cannot carry in a file name, and those the recipes
# of pipeline.mk would have to quote, as a glob bracket: a run path with
# one is refused.  pipeline.mk's h3_unsafe is the same set.
h3_unsafe='[][[:space:][:cntrl:]:#%$\\'\''"`*?;|&<>(){}]'

# Where this library is, and h3.jq, the jq definitions the scripts share.
case ${BASH_SOURCE[0]} in
*/*) h3_libdir=${BASH_SOURCE[0]%/*} ;;
*) h3_libdir=. ;;
esac

# h3_jq ARGS...: jq, its programs able to include "h3".
h3_jq() {
	jq -L "$h3_libdir" "$@"
}

# h3_usage STATUS: print $usage (the script's synopsis lines) and exit:
# status 0 to stdout, for -h and --help, followed by a blank line and
# $help (what the script does in a line, its options a line each, and
# its manual); else $usage alone to stderr, with exit 2.
h3_usage() {
	if [ "$1" -eq 0 ]; then
		printf '%s\n\n%s\n' "$usage" "$help"
		exit 0
	fi
	printf '%s\n' "$usage" >&2
	exit 2
}

# h3_help "$@": answer --help, which getopts cannot take, before it runs.
h3_help() {
	[ "${1-}" != --help ] || h3_usage 0
}

# h3_die MESSAGE...: the message on stderr, after the script's name; exit 1.
h3_die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

# h3_escape VAR TEXT: set VAR to TEXT as a fact value: backslash, tab,
# newline and CR escaped as in names (h3prof(5)).
h3_escape() {
	local -n h3_esc=$1
	h3_esc=${2//\\/\\\\}
	h3_esc=${h3_esc//$tab/\\t}
	h3_esc=${h3_esc//$'\n'/\\n}
	h3_esc=${h3_esc//$'\r'/\\r}
}

# h3_bystart IN OUT: the interval lines of IN in OUT (which may be IN),
# sorted as the reference sorts them: stable, by start alone (the filters
# take ties in any order).  Nsys writes its traces so; this is for those
# that a filter finds otherwise.
h3_bystart() {
	sort -s -t"$tab" -k1,1n -o "$2" -- "$1"
}

# h3_unescape VAR TEXT: set VAR to TEXT with the escapes of h3_escape
# (and of jq's @tsv) undone: \\ \t \n \r.
h3_unescape() {
	local -n h3_raw=$1
	local s=$2 c
	h3_raw=
	while [[ $s == *\\* ]]; do
		h3_raw+=${s%%\\*}
		s=${s#*\\}
		c=${s:0:1} s=${s:1}
		case $c in
		t) h3_raw+=$tab ;;
		n) h3_raw+=$'\n' ;;
		r) h3_raw+=$'\r' ;;
		*) h3_raw+=$c ;;
		esac
	done
	h3_raw+=$s
}

# h3_dirname VAR PATH: set VAR to the directory PATH is in, as dirname(1)
# prints it.
h3_dirname() {
	local -n h3_dir=$1
	local p=$2
	while [[ $p == ?*/ ]]; do p=${p%/}; done
	case $p in
	*/*)
		p=${p%/*}
		while [[ $p == ?*/ ]]; do p=${p%/}; done
		h3_dir=${p:-/}
		;;
	*) h3_dir=. ;;
	esac
}

# h3_shown VAR TEXT: set VAR to TEXT fit for a terminal: each control
# character as \ooo in octal, a backslash doubled, so that a file name
# can neither hide in a message nor send the terminal commands.
h3_shown() {
	local -n h3_out=$1
	local s=$2 c i
	h3_out=
	if [[ $s != *[[:cntrl:]\\]* ]]; then
		h3_out=$s
		return
	fi
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		\\) h3_out+='\\' ;;
		[[:cntrl:]]) printf -v c '\\%03o' "'$c"; h3_out+=$c ;;
		*) h3_out+=$c ;;
		esac
	done
}

# h3_tools: set bin to the filters and rules to the classify(1) rules,
# unless the script set rules (from -r): $H3PROF_BIN, else build/bin of
# the checkout the script is in, else libexec/h3prof/bin of the
# installation; $H3PROF_RULES, else rules/h3.rules of the checkout, else
# share/h3prof/h3.rules of the installation.
h3_tools() {
	if [ -n "${H3PROF_BIN:-}" ]; then
		bin=$H3PROF_BIN
	elif [ -x "$here/../build/bin/reportjson" ]; then
		bin=$here/../build/bin
	else
		bin=$here/../libexec/h3prof/bin
	fi
	if [ -n "${rules:-}" ]; then
		:
	elif [ -n "${H3PROF_RULES:-}" ]; then
		rules=$H3PROF_RULES
	elif [ -f "$here/../rules/h3.rules" ]; then
		rules=$here/../rules/h3.rules
	else
		rules=$here/../share/h3prof/h3.rules
	fi
}

# h3_tmpdir: set t to a new private directory in ${TMPDIR:-/tmp},
# h3prof.PROG.PID, removed when the script exits; a signal removes it and
# exits 1, and any failure is exit status 1.  The traps come first and the
# name is known before the directory is made, so that no signal finds it
# unnoticed (see h3_cleanup).  A script that must do more on exit
# defines h3_atexit, which runs first.  The directories of scripts killed with
# SIGKILL, whose process is gone, are reclaimed on the way: one of this
# process's name can only be such.
h3_tmpdir() {
	local root=${TMPDIR:-/tmp} d pid name cmd args
	for d in "$root"/h3prof.*.[0-9]*; do
		[ -d "$d" ] && [ -O "$d" ] || continue
		pid=${d##*.}
		name=${d#"$root"/h3prof.}
		name=${name%.*}
		# Process IDs are reused: alive, it must be that script.
		args=()
		[ ! -r "/proc/$pid/cmdline" ] ||
		    mapfile -d '' args <"/proc/$pid/cmdline" 2>/dev/null || :
		cmd=" ${args[*]-} "
		[[ $cmd == *"/$name "* || $cmd == *" $name "* ]] ||
		    rm -rf -- "$d"
	done
	t=$root/h3prof.$prog.$$
	trap 'h3_cleanup; exit 1' HUP INT TERM
	trap 'h3_rc=$?; h3_cleanup; exit $((h3_rc == 0 ? 0 : 1))' EXIT
	[ ! -e "$t" ] || rm -rf -- "$t"
	mkdir -m 700 -- "$t" 2>/dev/null ||
	    { t=; h3_die "TMPDIR $root: not a writable directory"; }
}

# h3_hidden VAR PATH: set VAR to the temporary name of PATH beside it,
# .NAME.PID: hidden, so that no pattern of runs takes it, and this
# process's own.
h3_hidden() {
	local -n h3_tmpname=$1
	local d=${2%/*}
	[ "$d" != "$2" ] || d=.
	h3_tmpname=$d/.${2##*/}.$$
}

# Once cleaning up, signals are ignored, by this shell and so by the rm it
# starts: one that came between the start of rm and a trap of its own would
# stop it halfway.  A command of h3_wait still running is ended first.
h3_cleanup() {
	trap '' HUP INT TERM
	# (Started but not yet known, it is $!, as h3_wait says.)
	[ "${h3_waitpid-}" != starting ] || h3_waitpid=${!-}
	if [ -n "${h3_waitpid-}" ]; then
		kill "$h3_waitpid" 2>/dev/null || :
		wait "$h3_waitpid" 2>/dev/null || :
	fi
	if declare -F h3_atexit >/dev/null; then h3_atexit; fi
	[ -z "$t" ] || rm -rf -- "$t"
}

# h3_badname VAR NAME: set VAR to the rule NAME breaks as the name of a
# run h3profile makes, or to nothing if it keeps them all: letters,
# digits and _.,=+@-, not starting with . or - (hidden, or an option);
# not ending in .failed (h3_failed); a file name, at most 255 bytes.
h3_badname() {
	local -n h3_why=$1
	h3_why=
	if [[ ! $2 =~ ^[A-Za-z0-9_][A-Za-z0-9_.,=+@-]*$ ]]; then
		h3_why="letters, digits and _.,=+@- only,"
		h3_why+=" not starting with . or -"
	elif [[ $2 == *.failed ]]; then
		h3_why="not ending in .failed, a failed run's output"
	elif [ ${#2} -gt 255 ]; then
		h3_why="at most 255 bytes"
	fi
}

# h3_failed VAR RUN: set VAR to where h3profile keeps the output of a
# failed profile of RUN: RUN.failed, its name cut to 248 bytes so that
# the whole fits in a file name.
h3_failed() {
	local -n h3_kept=$1
	local h3_name=${2##*/}
	h3_kept=${2%"$h3_name"}${h3_name:0:248}.failed
}

# h3_wait CMD...: CMD in the background, its standard input this
# shell's, and its status: this shell waits in the wait builtin, which a
# signal interrupts, so that h3_cleanup ends it, and its filters, at once.
h3_wait() {
	# A signal handled before $! is assigned finds "starting": h3_cleanup
	# takes $!, this shell's first background process.
	h3_waitpid=starting
	"$@" <&0 &
	h3_waitpid=$!
	local rc=0
	wait "$h3_waitpid" || rc=$?
	h3_waitpid=
	return "$rc"
}

# h3_facts: the facts of one run (h3prof(5)), computed by the filters
# into files in $t, on stdout: h3facts's work.  The run is in gpu and
# kexec (its traces, or its export twice), the filters in bin, the rules
# of classify in rules, and extend, kernels, range, skip and window are
# h3facts's -x, -k, -R, -s and -w.
#
# Run through h3_wait, as a process of its own, so that a failure,
# told on stderr, ends it and its filters alone with status 1 (the caller
# records it), and a signal ends it at once.  Call that where -e counts
# (not after if, && or ||; with set +e around it to see its status):
# inside, -e is set again.
h3_facts() {
	set -e
	local gpuin kexecin gpuread apiread launchread skipped nvtxin

	[[ $skip =~ ^[0-9]{0,18}$ ]] ||
	    h3_die "-s $skip: not a count of instances (at most 18 digits)"
	# A path that no filter takes for an option or for standard input.
	case $gpu in -*) gpuin=./$gpu ;; *) gpuin=$gpu ;; esac
	case $kexec in -*) kexecin=./$kexec ;; *) kexecin=$kexec ;; esac
	# The memory lines of the copies, for the time account; -x, the
	# rules' communication categories (nccl), which the reference lacks.
	local memfile='' launchfile=$t/launches xopt=
	[ "$extend" -eq 0 ] || [ -n "$range" ] || memfile=$t/memory
	[ "$extend" -eq 0 ] || xopt=-x
	# The readers: the GPU operations, and the launch API intervals bare.
	case $gpu in
	*.sqlite) gpuread=("$bin/sqlite2intervals" -t gpu ${memfile:+-m "$memfile"}) ;;
	*) gpuread=("$bin/csv2intervals" ${memfile:+-m "$memfile"}) ;;
	esac
	# The launch lines, for the time account and for a window: of the
	# reader of the kernel-exec trace, in place of the launch API
	# intervals (-L), whose facts the account gives.
	local apifile=$t/api
	case $kexec in
	*.sqlite) apiread=("$bin/sqlite2intervals" -b -t launch) ;;
	*) apiread=("$bin/csv2intervals" -b) ;;
	esac
	{ [ "$extend" -eq 1 ] || [ -n "$window" ]; } && [ -z "$range" ] && {
		apiread+=(-L)
		apifile=$t/launchlines launchfile=$t/launchlines
	}
	# A kernel-exec trace file of 0 bytes, as nsys leaves one it skipped,
	# has no launches: : (true) reads it.  Whether it is a skip is known
	# once the kernels are.
	skipped=0
	if [[ $kexec != *.sqlite && -f $kexecin && ! -s $kexecin ]]; then
		skipped=1
		apiread=(:) apifile=$t/api launchfile=$t/launches
	fi

	# is_export FILE: whether FILE is an SQLite file; one named .sqlite
	# that is not is sqlite2intervals's to reject, in its words.
	is_export() {
		local magic=
		[ -f "$1" ] && { IFS= read -r -N 15 magic <"$1" || :; } &&
		    [ "$magic" = "SQLite format 3" ]
	}
	# NVTX ranges: those of the export, or of the nvtx_pushpop_trace CSV
	# beside a cuda_kern_exec_trace CSV of the same prefix.
	case $kexecin in
	*.sqlite) nvtxin=$kexecin; is_export "$nvtxin" || nvtxin='' ;;
	*cuda_kern_exec_trace.csv)
		nvtxin=${kexecin%cuda_kern_exec_trace.csv}nvtx_pushpop_trace.csv
		[ -f "$nvtxin" ] || nvtxin=''
		;;
	*) nvtxin='' ;;
	esac
	# An empty kernel-exec trace launched nothing.
	[ "$skipped" -eq 0 ] || nvtxin=''
	[ -n "$nvtxin" ] || [ -z "$range" ] ||
	    h3_die "$kexec: no NVTX ranges to scope by -R (an export, or an" \
		"nvtx_pushpop_trace CSV beside the kernel-exec trace, holds them)"
	# The filters' messages name the trace a scratch file was made of,
	# as reduce.mk's do (NAME<tab>TRACE pairs: filters/lib's
	# source_name), never the scratch file, which is gone afterwards.
	printf -v H3PROF_SOURCES '%s\t%s\t' gpu "$gpu" gpu.sorted "$gpu" \
	    gpu.idle "$gpu" gpu.sorted.idle "$gpu" memory "$gpu" \
	    launchlines "$kexec" launchlines.sorted "$kexec" api "$kexec" \
	    api.sorted "$kexec" launches "$kexec" selected "$kexec" \
	    ranges "${nvtxin:-$kexec}" outside "${nvtxin:-$kexec}"
	export H3PROF_SOURCES

	# A filter that fails ends the subshell: end those still running
	# with it, and wait for them, before the caller removes the temporary
	# directory.  A signal ends it with status 1.
	pids=()		# the filters running in the background
	trap 'trap "" HUP INT TERM
	    [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || :
	    wait' EXIT
	trap 'exit 1' HUP INT TERM

	# spawn OUT CMD...: run CMD in the background with its stdout in OUT.
	# wait_for PID...: wait for each; fail, once all are done, if one
	# failed.
	spawn() {
		local out=$1
		shift
		"$@" >"$out" &
		pids+=($!)
	}
	wait_for() {
		local pid rc=0
		for pid; do
			wait "$pid" || rc=1
		done
		return $rc
	}

	# ordered API GPU: the facts of the filters that need their intervals
	# sorted by start, from the launch intervals in API (of the report
	# without the account, which reads the launch lines instead) and
	# the GPU operations in GPU, in the background.  Kernels are picked
	# out of the operations by -k kernel.
	ordered() {
		spawn "$t/gaps.facts" "$bin/gapstat" -k kernel -p gaps. "$2"
		if [ "$extend" -eq 0 ]; then
			spawn "$t/api.facts" "$bin/merge" -t -p api. "$1"
			spawn "$t/overlap.facts" "$bin/intersect" -t \
			    -k kernel -p overlap. "$1" "$2"
			return 0
		fi
		# Idle in a scope of ranges is idle inside it: the time
		# between its instances goes with the work.
		if [ -n "$range" ]; then
			sort -m -s -t"$tab" -k1,1n -o "$2.idle" -- "$2" \
			    "$t/outside"
			spawn "$t/idle.facts" "$bin/gapstat" -u -q -p idle. \
			    "$2.idle"
		else
			spawn "$t/idle.facts" "$bin/gapstat" -u -q -p idle. \
			    "$2"
		fi
		# The time account: the GPU operations against their launch
		# calls, and the bytes of the copies where the reader wrote
		# them (unscoped).  Of the same pass, the facts merge and
		# intersect give the reference's report of the launch API
		# intervals (the calls of the launch lines of kernels), and
		# devstat's and merge's of the kernels: four passes fewer.
		spawn "$t/account.facts" "$bin/account" -p account. \
		    -r "$rules" -l "$launchfile" -a api. -i overlap. \
		    -u kunion. -d "$t/device.facts" \
		    ${memfile:+-m "$memfile"} -- "$2"
	}

	# An export's GPU names, processes and CUDA graph launches: with
	# graph rows, an unscoped report counts the graph launches as GPU
	# operations of kind other (a scoped one has them among the launch
	# lines), merged in by start as a stable sort of the two would
	# place them: the operations stay in start order.
	if [ "$extend" -eq 1 ] && [[ $gpu == *.sqlite ]] && is_export "$gpuin"
	then
		"$bin/exportinfo" -- "$gpuin" >"$t/export.facts"
		if [ -z "$range" ] &&
		    grep -q '^graphs\.launches' -- "$t/export.facts"; then
			"$bin/exportinfo" -g -- "$gpuin" >"$t/graphs"
			gpu_and_graphs() {
				"$bin/sqlite2intervals" -t gpu \
				    ${memfile:+-m "$memfile"} "$@" |
				    sort -m -s -t"$tab" -k1,1n -- - "$t/graphs"
			}
			gpuread=(gpu_and_graphs)
		fi
	fi
	# The ranges and the launches inside them.  With -R, the GPU work of
	# the matching ranges (inrange -l) takes the place of the traces.
	if [ -n "$nvtxin" ] && { [ "$extend" -eq 1 ] || [ -n "$range" ]; }; then
		"$bin/nvtxranges" -- "$nvtxin" >"$t/ranges"
		[ -s "$t/ranges" ] || [ -z "$range" ] ||
		    h3_die "$nvtxin: no NVTX ranges to scope by -R"
		[ -s "$t/ranges" ] || nvtxin=''
	fi
	# The launches: read first where they make the scope, else beside the
	# traces, for nvtx_ranges.
	[ "$extend" -eq 1 ] || [ -n "$range" ] || nvtxin=''
	launchread=("$bin/nvtxranges" -t launch -- "$kexecin")
	# An empty kernel-exec trace (nsys's skip) launched nothing.
	if [ "$skipped" -eq 1 ]; then
		: >"$t/launches"
	elif [ -n "$range" ]; then
		"${launchread[@]}" >"$t/launches"
	fi
	if [ -n "$range" ]; then
		"$bin/inrange" -l -m "$range" -s "${skip:-0}" -r "$rules" \
		    -g "$t/outside" -- "$t/ranges" "$t/launches" >"$t/selected"
		[ -s "$t/selected" ] || h3_die "no GPU work launched in the" \
		    "NVTX ranges matching '$range'${skip:+ after the first $skip}"
	fi
	if [ -n "$range" ]; then
		# The readers of launch lines (h3prof(5)), called as the
		# traces' are, with -- and the file.
		# (exec: a filter started in the background is the process
		# its PID names, which the trap ends.)
		selected_ops() { exec cut -f4- -- "$2"; }
		selected_calls() {
			exec awk -F'\t' -v OFS='\t' \
			    '$6 == "kernel" { print $1, $2 }' "$2"
		}
		gpuread=(selected_ops) apiread=(selected_calls) skipped=0
		gpuin=$t/selected kexecin=$t/selected launchfile=$t/selected
	fi

	# Each trace is read once, the two at once: the launch API intervals,
	# and the GPU operations, kernels classified, into a file the other
	# filters read, each started once.  (With NVTX ranges, nvtxranges
	# reads the kernel-exec trace again for the launches' threads, which
	# the launch intervals do not carry.)
	# What the launch readers say waits for the GPU trace's reader: of an
	# export, the one file all read, an error is told once, by the latter.
	"${apiread[@]}" -- "$kexecin" >"$apifile" 2>"$t/api.err" &
	pids+=($!)
	: >"$t/launches.err"
	if [ -n "$nvtxin" ] && [ -z "$range" ] &&
	    [ "$skipped" -eq 0 ]; then
		"${launchread[@]}" >"$t/launches" 2>"$t/launches.err" &
		pids+=($!)
	fi
	local readers=("${pids[@]}") rc=0
	# In the background too, so that a signal ends it (its classify,
	# and through the pipe its reader) at once.
	"${gpuread[@]}" -- "$gpuin" | "$bin/classify" $xopt -r "$rules" >"$t/gpu" &
	pids+=($!)
	wait "$!"
	wait_for "${readers[@]}" || rc=$?
	pids=()
	[ ! -s "$t/api.err" ] || cat -- "$t/api.err" >&2
	[ ! -s "$t/launches.err" ] || cat -- "$t/launches.err" >&2
	[ "$rc" -eq 0 ] || exit 1
	# A window keeps every GPU operation that starts in it, copies,
	# memsets and graph launches too, with their memory and launch
	# lines, as reduce.mk's WINDOW: of the whole run's, read above.
	if [ -n "$window" ]; then
		"$bin/inwindow" -f -w "$window" -- "$t/gpu" >"$t/scope.facts"
		"$bin/inwindow" -w "$window" -- "$t/gpu" >"$t/gpu.window"
		[ -s "$t/gpu.window" ] ||
		    h3_die "no GPU work starts in the window $window"
		[ -z "$memfile" ] || "$bin/inwindow" -w "$window" -- \
		    "$t/gpu" "$memfile" >"$t/memory.window"
		"$bin/inwindow" -l -w "$window" -- "$t/gpu" "$launchfile" \
		    >"$t/launchlines.window"
		[ -z "$nvtxin" ] || "$bin/inwindow" -l -w "$window" -- \
		    "$t/gpu" "$t/launches" >"$t/selected"
		mv -- "$t/gpu.window" "$t/gpu"
		[ -z "$memfile" ] || mv -- "$t/memory.window" "$memfile"
		mv -- "$t/launchlines.window" "$launchfile"
		# The launch API intervals (of h3facts without -x): the
		# calls of the kernels' launch lines.
		[ "$extend" -eq 1 ] || awk -F'\t' -v OFS='\t' \
		    '$6 == "kernel" { print $1, $2 }' "$launchfile" >"$t/api"
	fi

	local facts=("$t/gpu.facts" "$t/gaps.facts")
	[ "$extend" -eq 1 ] || facts+=("$t/api.facts" "$t/overlap.facts")
	spawn "$t/gpu.facts" "$bin/tally" -p gpu. "$t/gpu"
	if [ "$extend" -eq 1 ]; then
		spawn "$t/kstream.facts" "$bin/tally" -s -k kernel \
		    -p kstream. "$t/gpu"
		# One pass for the table of every kernel and the top.* facts,
		# its first ten rows.
		spawn "$t/top.facts" "$bin/topkernels" -p top. \
		    -o "${kernels:-$t/kernels}" "$t/gpu"
		facts+=("$t/idle.facts" "$t/kstream.facts"
		    "$t/top.facts" "$t/account.facts")
		if [ -n "$nvtxin" ]; then
			# A window's ranges are of the launches in it.  (Not
			# launchfile: the account's, sorted on a rerun.)
			local rangelaunches=$t/launches
			[ -z "$window" ] || rangelaunches=$t/selected
			spawn "$t/nvtx.facts" "$bin/inrange" -x -r "$rules" \
			    ${range:+-m "$range" -s "${skip:-0}"} -- \
			    "$t/ranges" "$rangelaunches"
			facts+=("$t/nvtx.facts")
		fi
		[ -z "$window" ] || facts+=("$t/scope.facts")
	fi
	local unordered=${#pids[@]} rerun=
	# Nsys writes its traces sorted by start, so the filters that need
	# them so are run on them as they are.  Where one fails, they are
	# sorted (h3_bystart) and run again: only then are their errors told.
	ordered "$t/api" "$t/gpu" 2>"$t/ordered.err"
	if ! wait_for "${pids[@]:unordered}"; then
		h3_bystart "$t/gpu" "$t/gpu.sorted"
		if [ "$extend" -eq 1 ]; then
			h3_bystart "$launchfile" "$t/launchlines.sorted"
			launchfile=$t/launchlines.sorted
		else
			h3_bystart "$t/api" "$t/api.sorted"
		fi
		rerun=${#pids[@]}
		ordered "$t/api.sorted" "$t/gpu.sorted" 2>"$t/ordered.err"
		wait_for "${pids[@]:rerun}" ||
		    { cat -- "$t/ordered.err" >&2; exit 1; }
	fi
	wait_for "${pids[@]:0:unordered}"
	pids=()
	# Every reader did its work: the kernels tell whether an empty
	# kernel-exec trace is nsys's skip or a failed export.
	local shownk showng
	h3_shown showng "$gpu"
	if [ "$skipped" -eq 1 ] &&
	    grep -q "^gpu\.kind\.kernel\.count$tab" -- "$t/gpu.facts"; then
		h3_shown shownk "$kexec"
		h3_die "$shownk: empty (0 bytes), but the GPU trace $showng" \
		    "has kernels: a failed export (nsys leaves a kernel-exec" \
		    "trace empty only for a run without kernels); export it" \
		    "again"
	fi

	# What the figures cannot show by themselves, said where it is seen.
	# The export's facts go in the report only where they tell something:
	# several devices or processes, or graphs.
	if [ "$extend" -eq 1 ]; then
		local devfacts=("$t/device.facts") f key value
		local launches=0 hidden=0 processes=0 devices=0
		[ ! -f "$t/export.facts" ] || devfacts+=("$t/export.facts")
		for f in "${devfacts[@]}"; do
			while IFS=$tab read -r key value; do
				case $key in
				graphs.launches) launches=$value ;;
				graphs.hidden) hidden=$value ;;
				processes) processes=$value ;;
				device.*.count)
					key=${key#device.}
					[[ ${key%.count} == *.* ]] ||
					    ((++devices))
					;;
				esac
			done <"$f"
		done
		[ "$hidden" -eq 0 ] || echo "$prog: $showng: $hidden of" \
		    "$launches CUDA graph launches show none of their kernels" \
		    "(nsys --cuda-graph-trace=graph): the component table" \
		    "misses them; profile with --cuda-graph-trace=node to" \
		    "see them" >&2
		[ "$devices" -le 1 ] && [ "$processes" -le 1 ] ||
		    echo "$prog: $showng: $devices devices and" \
			"$((processes > 1 ? processes : 1)) processes in one" \
			"trace: its figures sum them; see devices in the" \
			"report" >&2
		[ "$launches" -eq 0 ] && [ "$devices" -le 1 ] &&
		    [ "$processes" -le 1 ] || facts+=("${devfacts[@]}")
	fi

	local gpufact kexecfact
	h3_escape gpufact "$gpu"
	h3_escape kexecfact "$kexec"
	printf 'source.gpu_trace\t%s\nsource.kernel_exec_trace\t%s\n' \
	    "$gpufact" "$kexecfact" >"$t/source.facts"
	cat -- "$t/source.facts" "${facts[@]}"
}
