# h3lib.sh: strict mode and the shell functions every h3prof script
# shares.  Each script sources it from beside itself (a checkout's
# scripts/) or from ../share/h3prof (an installation), as h3report does.
set -euo pipefail
export LC_ALL=C

prog=${0##*/}	# the script's name, for messages
tab=$'\t'	# a tab, for splitting lines
h3_waitpid=	# the make that h3_reduce runs, for h3_cleanup to end
# The characters refused in a run's path, as a glob bracket: those make
# cannot carry in a file name and those pipeline.mk's recipes would have
# to quote.  pipeline.mk's h3_unsafe is the same set.
h3_unsafe='[][[:space:][:cntrl:]:#%$\\'\''"`*?;|&<>(){}]'
# h3_safepath PATH SHOWN: exit 1, saying so, if PATH holds an h3_unsafe
# character; SHOWN is PATH as messages show it (h3_shown).
h3_safepath() {
	[[ $1 != *$h3_unsafe* ]] || h3_die "$2: its path holds a character" \
	    "pipeline.mk cannot carry: white space or one of :#%\$\\'\"\`*?;|&<>(){}[]"
}
# The directory of this library, where h3.jq and reduce.mk are found.
case ${BASH_SOURCE[0]} in
*/*) h3_libdir=${BASH_SOURCE[0]%/*} ;;
*) h3_libdir=. ;;
esac

# h3_jq ARGS...: jq, with h3.jq's definitions for programs that include "h3".
h3_jq() {
	jq -L "$h3_libdir" "$@"
}

# h3_usage STATUS: print $usage and exit.  With 0 (-h, --help) to stdout,
# followed by a blank line and $help; otherwise to stderr, with status 2.
h3_usage() {
	[ "$1" -ne 0 ] || { printf '%s\n\n%s\n' "$usage" "$help"; exit 0; }
	printf '%s\n' "$usage" >&2
	exit 2
}

# h3_help "$@": answer --help, which getopts cannot take.
h3_help() {
	[ "${1-}" != --help ] || h3_usage 0
}

# h3_die MESSAGE...: print "prog: MESSAGE" on stderr and exit 1.
h3_die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

# h3_dirname VAR PATH: set VAR to PATH's directory as dirname(1) prints
# it, without starting a process.
h3_dirname() {
	local -n h3_dir=$1
	local p=$2
	while [[ $p == ?*/ ]]; do p=${p%/}; done
	[[ $p == */* ]] || { h3_dir=.; return 0; }
	p=${p%/*}
	while [[ $p == ?*/ ]]; do p=${p%/}; done
	h3_dir=${p:-/}
}

# h3_shown VAR TEXT: set VAR to TEXT safe to print: each control
# character as \ooo in octal and each backslash doubled, so that a file
# name can neither hide in a message nor send the terminal commands.
h3_shown() {
	local -n h3_out=$1
	local s=$2 c i
	h3_out=$s
	[[ $s == *[[:cntrl:]\\]* ]] || return 0
	h3_out=
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		\\) c='\\' ;;
		[[:cntrl:]]) printf -v c '\\%03o' "'$c" ;;
		esac
		h3_out+=$c
	done
}

# h3_tools: set bin to the filters' directory and rules, unless -r set
# it, to the classify(1) rules: $H3PROF_BIN and $H3PROF_RULES, else the
# checkout's, else the installation's.
h3_tools() {
	bin=${H3PROF_BIN:-$here/../build/bin}
	[ -n "${H3PROF_BIN:-}" ] || [ -x "$bin/reportjson" ] ||
	    bin=$here/../libexec/h3prof/bin
	[ -z "${rules:-}" ] || return 0
	rules=${H3PROF_RULES:-$here/../rules/h3.rules}
	[ -n "${H3PROF_RULES:-}" ] || [ -f "$rules" ] ||
	    rules=$here/../share/h3prof/h3.rules
}

# h3_tmpdir: set t to a new private directory, $TMPDIR/h3prof.PROG.PID,
# removed on exit by h3_cleanup.  A signal, or any failure, exits 1.  The
# traps come before the directory so that no signal leaves it behind.
# On the way it removes the directories of scripts killed by SIGKILL:
# those whose process is gone, or is now another program.
h3_tmpdir() {
	local root=${TMPDIR:-/tmp} d pid name args
	for d in "$root"/h3prof.*.[0-9]*; do
		[ -d "$d" ] && [ -O "$d" ] || continue
		pid=${d##*.} name=${d#"$root"/h3prof.}
		name=${name%.*} args=()
		[ ! -r "/proc/$pid/cmdline" ] ||
		    mapfile -d '' args <"/proc/$pid/cmdline" 2>/dev/null || :
		[[ " ${args[*]-} " == *[/\ ]"$name "* ]] || rm -rf -- "$d"
	done
	t=$root/h3prof.$prog.$$
	trap 'h3_cleanup; exit 1' HUP INT TERM
	trap 'h3_rc=$?; h3_cleanup; exit $((h3_rc == 0 ? 0 : 1))' EXIT
	[ ! -e "$t" ] || rm -rf -- "$t"
	mkdir -m 700 -- "$t" 2>/dev/null ||
	    { t=; h3_die "TMPDIR $root: not a writable directory"; }
}

# h3_hidden VAR PATH: set VAR to a temporary name for PATH, .NAME.PID
# beside it: hidden from the patterns that find runs, and this process's.
h3_hidden() {
	local -n h3_tmpname=$1
	local d=${2%/*}
	[ "$d" != "$2" ] || d=.
	h3_tmpname=$d/.${2##*/}.$$
}

# h3_cleanup: on exit or a signal, end the make of h3_reduce, run the
# script's h3_atexit if it has one, and remove $t.  Signals are ignored
# from here on, by this shell and the rm it starts, so none stops rm halfway.
h3_cleanup() {
	trap '' HUP INT TERM
	# A signal between the start of make and the setting of $! finds
	# "starting" (h3_reduce); $! is then that make.
	[ "${h3_waitpid-}" != starting ] || h3_waitpid=${!-}
	if [ -n "${h3_waitpid-}" ]; then
		kill "$h3_waitpid" 2>/dev/null || :
		wait "$h3_waitpid" 2>/dev/null || :
	fi
	if declare -F h3_atexit >/dev/null; then h3_atexit; fi
	[ -z "$t" ] || rm -rf -- "$t"
}

# h3_badname VAR NAME: set VAR to the rule that NAME, a run's name,
# breaks, or to nothing: letters, digits and _.,=+@- only, not starting
# with . or - (hidden, or an option), not ending in .failed (h3_failed),
# at most 255 bytes.
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

# h3_failed VAR RUN: set VAR to RUN.failed, where h3profile keeps a failed
# profile of RUN, its name cut to 248 bytes to fit a file name.
h3_failed() {
	local -n h3_kept=$1
	local h3_name=${2##*/}
	h3_kept=${2%"$h3_name"}${h3_name:0:248}.failed
}

# The reduction of one run, for h3report and h3facts: $t serves as the
# run's directory, holding links to its traces, and a make of reduce.mk's
# rules makes the products there.
makeargs=()	# that make's command line: the settings it is given

# h3_setting NAME VALUE: add NAME=VALUE to make's command line, each $
# doubled so that make keeps it.
h3_setting() {
	makeargs+=("$1=${2//\$/\$\$}")
}

# h3_trace SETTING NAME TRACE: link TRACE into $t as NAME, the name
# reduce.mk reads, and give its name as given in SETTING, so that the
# filters' messages and the source facts name it so.
h3_trace() {
	h3_setting "$1" "$3"
	traces+=("$3")
	local path=$3
	[[ $path == /* ]] || path=$PWD/$path
	ln -s -- "$path" "$t/$2"
}

# h3_run GPU KEXEC: set up the run of the traces GPU and KEXEC, a CSV
# pair, or an nsys export (GPU ends in .sqlite, and KEXEC is the same).
h3_run() {
	makeargs+=(RUNS="$t" H3PROF_BIN="$bin" H3PROF_RULES="$rules") traces=()
	if [[ $1 == *.sqlite ]]; then
		h3_trace GPU_TRACE profile.sqlite "$1"
		return 0
	fi
	h3_trace GPU_TRACE profile_cuda_gpu_trace.csv "$1"
	h3_trace KERNEL_TRACE profile_cuda_kern_exec_trace.csv "$2"
	# nsys leaves the kernel-exec trace empty where it skipped it.
	local skipped= nvtx=${2%cuda_kern_exec_trace.csv}nvtx_pushpop_trace.csv
	[ ! -f "$2" ] || [ -s "$2" ] || skipped=$t
	makeargs+=(SKIPPED="$skipped")
	# The NVTX trace, if any, is beside the kernel-exec trace, its name
	# of the same prefix.
	[[ $2 != *cuda_kern_exec_trace.csv || ! -f $nvtx ]] ||
	    h3_trace NVTX_TRACE profile_nvtx_pushpop_trace.csv "$nvtx"
}

# h3_checkscope: check the scope options, $range [$skip] or $window (-R
# [-s] or -w): -s only with -R and a count, -w only without -R.
h3_checkscope() {
	[ -z "$skip" ] || [ -n "$range" ] || h3_usage 2
	[ -z "$window" ] || [ -z "$range" ] || h3_usage 2
	[[ $skip =~ ^[0-9]{0,18}$ ]] ||
	    h3_die "-s $skip: not a count of instances (at most 18 digits)"
}

# h3_scope: give make the scope of $range [$skip] or $window (-R [-s] or
# -w), if any, and set made to the directory the products are made in:
# $t, or with a scope its own, $t/scope.PROG.
h3_scope() {
	made=$t
	[ -n "$range$window" ] || return 0
	[ -z "$range" ] || h3_setting RANGE "$range"
	[ -z "$skip" ] || h3_setting SKIP "$skip"
	[ -z "$window" ] || h3_setting WINDOW "$window"
	makeargs+=(SCOPE_TAG="scope.$prog")
	made=$t/scope.$prog
}

# h3_wait COMMAND...: COMMAND in the background, waited for in the wait
# builtin, which a signal interrupts, so that h3_cleanup ends it at once.
# A signal before $! is known finds h3_waitpid "starting", and takes $!.
h3_wait() {
	local rc=0
	h3_waitpid=starting
	"$@" <&0 &
	h3_waitpid=$!
	wait "$h3_waitpid" || rc=$?
	h3_waitpid=
	return "$rc"
}

# h3_reduce GPU KEXEC [GOAL...]: reduce the run of GPU and KEXEC (h3_run)
# in $t, making the goals, names in $made (h3_scope), or by default the
# report and the page's products; return 0, or 1 where make fails.  The
# messages go to stderr and $t/msg, as this script's (the rules speak as
# h3report), without make's "*** [...] Error" and "Deleting file" lines.
h3_reduce() {
	local reducemk=$h3_libdir/../reduce.mk rc=0 line trace
	h3_run "$1" "$2"
	h3_scope
	shift 2
	[ -f "$reducemk" ] || reducemk=$h3_libdir/reduce.mk
	# A trace that is not there is named as given, where make would name
	# only its link.
	for trace in "${traces[@]}"; do
		[ ! -e "$trace" ] || continue
		h3_shown trace "$trace"
		echo "$prog: $trace: No such file or directory" | tee -- "$t/msg" >&2
		return 1
	done
	# The make must not take the flags of a make that runs this script.
	unset MAKEFLAGS MFLAGS MAKELEVEL
	# Each goal is named with "$made/" before it.
	h3_wait make -rs --no-print-directory -f "$reducemk" "${makeargs[@]}" \
	    "${@/#/"$made/"}" 2>"$t/err" || rc=$?
	while IFS= read -r line; do
		case $line in
		make*': *** ['*'] Error '*) ;;
		make*': *** Deleting file '*) ;;
		h3report:*) printf '%s\n' "$prog:${line#h3report:}" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$t/err" >"$t/msg"
	if [ "$rc" -ne 0 ] && [ ! -s "$t/msg" ]; then
		h3_shown trace "${traces[0]}"
		echo "$prog: $trace: reduction failed (exit $rc)" >"$t/msg"
	fi
	[ ! -s "$t/msg" ] || cat -- "$t/msg" >&2
	[ "$rc" -eq 0 ]
}

# h3_needgnuplot: exit 1, saying what to do, if gnuplot is not installed.
h3_needgnuplot() {
	command -v gnuplot >/dev/null || h3_die "gnuplot: no such command: the" \
	    "pages' charts need it: install it (apt-get install gnuplot-nox, or" \
	    "dev/install-deps), or skip the pages (make reports HTML=0)"
}

# h3_draw: have gnuplot draw, in $t, the charts of the page stream
# $t/stream (its G lines).  Its warnings, of charts drawn all the same,
# are shown only if it fails.
h3_draw() {
	sed -n 's/^G//p' -- "$t/stream" >"$t/charts.gp"
	[ -s "$t/charts.gp" ] || return 0
	(cd -- "$t" && gnuplot charts.gp 2>gnuplot.err) || {
		cat -- "$t/gnuplot.err" >&2
		h3_die "gnuplot failed to draw the charts"
	}
}
