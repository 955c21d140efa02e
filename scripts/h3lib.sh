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

# The reduction of one run, as h3report and h3facts do it: the scratch
# directory $t serves as the run's directory, and a make of reduce.mk's
# rules makes the goals there, with the settings the functions below
# gather in the array settings.

# h3_setting NAME VALUE: add NAME=VALUE to make's command line, with each
# $ doubled so that make keeps it.
h3_setting() {
	settings+=("$1=${2//\$/\$\$}")
}

# h3_link NAME PATH: link PATH into the scratch run directory as NAME, the
# name reduce.mk's rules read.
h3_link() {
	case $2 in
	/*) ln -s -- "$2" "$t/$1" ;;
	*) ln -s -- "$PWD/$2" "$t/$1" ;;
	esac
}

# h3_run GPU KEXEC: start the settings with the run's traces, an export
# (GPU ends in .sqlite; KEXEC is the same) or a CSV pair, linked into the
# run directory.  The filters are given the traces as they are named
# (GPU_TRACE, KERNEL_TRACE, NVTX_TRACE), so that messages and the source
# facts name them so.
h3_run() {
	settings=(RUNS="$t" H3PROF_BIN="$bin" H3PROF_RULES="$rules")
	h3_setting GPU_TRACE "$1"
	case $1 in
	*.sqlite)
		h3_link profile.sqlite "$1"
		return
		;;
	esac
	h3_link profile_cuda_gpu_trace.csv "$1"
	h3_link profile_cuda_kern_exec_trace.csv "$2"
	h3_setting KERNEL_TRACE "$2"
	# nsys leaves an empty kernel-exec trace where it skipped it.
	local skipped=
	[ ! -f "$2" ] || [ -s "$2" ] || skipped=$t
	settings+=(SKIPPED="$skipped")
	# The NVTX trace is the nvtx_pushpop_trace CSV beside the kernel-exec
	# trace, of the same prefix.
	case $2 in
	*cuda_kern_exec_trace.csv)
		local nvtx=${2%cuda_kern_exec_trace.csv}nvtx_pushpop_trace.csv
		if [ -f "$nvtx" ]; then
			h3_link profile_nvtx_pushpop_trace.csv "$nvtx"
			h3_setting NVTX_TRACE "$nvtx"
		fi
		;;
	esac
}

# h3_scope: add the scope of $range [$skip] or $window (-R [-s] or -w),
# if any, to the settings, and set made to where the products are made:
# the run's directory, or a scope's own, scope.PROG, inside it.
h3_scope() {
	made=$t
	[ -n "$range$window" ] || return 0
	[ -z "$range" ] || h3_setting RANGE "$range"
	[ -z "$skip" ] || h3_setting SKIP "$skip"
	[ -z "$window" ] || h3_setting WINDOW "$window"
	settings+=(SCOPE_TAG="scope.$prog")
	made=$t/scope.$prog
}

# h3_reduce [GOAL...]: make the goals (by default the report and the
# page's products) by a make of reduce.mk's rules with the settings;
# return its status.  Its messages go to $t/msg, as this script's (the
# rules speak as h3report), without make's own "*** [...] Error" and
# "Deleting file" lines.
h3_reduce() {
	local reducemk=$h3_libdir/../reduce.mk rc=0 line
	[ -f "$reducemk" ] || reducemk=$h3_libdir/reduce.mk
	# The make must not take the flags of a make that runs this script.
	unset MAKEFLAGS MFLAGS MAKELEVEL
	h3_wait make -rs --no-print-directory -f "$reducemk" "${settings[@]}" \
	    "$@" 2>"$t/err" || rc=$?
	while IFS= read -r line; do
		case $line in
		make*': *** ['*'] Error '*) ;;
		make*': *** Deleting file '*) ;;
		h3report:*) printf '%s\n' "$prog:${line#h3report:}" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$t/err" >"$t/msg"
	return "$rc"
}

# h3_needgnuplot: exit 1, saying what to do, if gnuplot is not installed.
h3_needgnuplot() {
	command -v gnuplot >/dev/null || h3_die "gnuplot: no such command: the" \
	    "pages' charts need it: install it (apt-get install gnuplot-nox, or" \
	    "dev/install-deps), or skip the pages (make reports HTML=0)"
}

# h3_draw: have gnuplot draw in $t the charts of the page stream
# $t/stream (its G lines).  Its warnings are of charts it draws all the
# same, so they are shown only if it fails.
h3_draw() {
	sed -n 's/^G//p' -- "$t/stream" >"$t/charts.gp"
	[ -s "$t/charts.gp" ] || return 0
	(cd -- "$t" && gnuplot charts.gp 2>gnuplot.err) || {
		cat -- "$t/gnuplot.err" >&2
		h3_die "gnuplot failed to draw the charts"
	}
}
