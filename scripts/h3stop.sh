# h3stop.sh: what a recipe of pipeline.mk does when make is interrupted.
# Sourced by the recipe's shell (POSIX sh: dash or bash), which then runs
# its step in the background and waits for it (a shell defers its traps
# until a foreground command ends), as pipeline.mk's h3_trap and h3_bg
# write it:
#
#	h3_step=TARGET h3_stopfile=REPORTS/.interrupted.PID
#	h3_discard() { rm -f -- ...; }
#	. h3stop.sh && ... { h3_job=starting; COMMAND & h3_job=$!;
#	    wait "$h3_job"; ... }
#
# On SIGHUP, SIGINT or SIGTERM the shell ends the step at once: SIGTERM to
# h3_job and every process under it, which do not all get the signal
# themselves (make passes SIGTERM on to its jobs' shells alone, and a
# background command ignores Ctrl-C's SIGINT), waits for it, and runs
# h3_discard.  Then, if make is dying of the signal too, it says once for
# the whole make that the sweep was interrupted and exits 0, so that
# make, which dies once its jobs are done, says no "Interrupt" or "Error"
# line of its own; else (a signal to the job's shell alone) the step
# fails, saying so.  Once: the job whose trap makes h3_stopfile first
# (with noclobber, an O_EXCL open) says it and removes the file; the
# others say nothing.  Nothing here starts a process but an rm or two,
# and only on a signal.

h3_job=

# h3_stop SIGNAL: the trap of signal number SIGNAL.
h3_stop() {
	trap '' HUP INT TERM
	h3_first=
	# (true, not :, which as a special builtin would take the shell
	# with it when the file is there.)
	[ ! -d "${h3_stopfile%/*}" ] ||
	    { set -C; true >"$h3_stopfile"; } 2>/dev/null && h3_first=1
	# A signal between the start of the step and the assignment of its
	# PID, which a shell handles once the command that starts it ends,
	# finds the step in $! (or none yet, the recipe's first: $! is empty).
	[ "$h3_job" != starting ] || h3_job=${!-}
	if [ -n "$h3_job" ]; then
		h3_tree "$h3_job"
		kill $h3_pids 2>/dev/null
		# (A step that dies of the signal, as make does, is no news:
		# the shell's "Terminated" goes.)
		wait "$h3_job" 2>/dev/null
	fi
	h3_discard
	[ -z "$h3_first" ] || rm -f -- "$h3_stopfile"
	if ! h3_dying "$1"; then
		echo "pipeline.mk: $h3_step: stopped by a signal" >&2
		exit 1
	fi
	[ -z "$h3_first" ] || echo 'pipeline.mk: interrupted: the steps' \
	    'under way were stopped and nothing of them was kept; make' \
	    'reports again to finish the sweep' >&2
	exit 0
}
trap 'h3_stop 1' HUP
trap 'h3_stop 2' INT
trap 'h3_stop 15' TERM

# h3_tree PID: set h3_pids to PID and every process under it, from the
# parent of each process in /proc/N/stat (to PID alone without /proc).
# (A process whose name holds a blank has another field fourth, which
# is no number: it is no match.)
h3_tree() {
	h3_pids=" $1 "
	h3_more=1
	while [ -n "$h3_more" ]; do
		h3_more=
		for h3_f in /proc/[0-9]*/stat; do
			read -r h3_p h3_x h3_x h3_pp h3_x 2>/dev/null <"$h3_f" ||
			    continue
			case $h3_pids in
			*" $h3_p "*) ;;
			*" $h3_pp "*) h3_pids="$h3_pids$h3_p " h3_more=1 ;;
			esac
		done
	done
}

# h3_dying SIGNAL: whether make, the parent of this shell, is dying of
# signal number SIGNAL: it no longer catches it, as GNU make's handler of
# a fatal signal sets it back to the default first (from the SigCgt mask
# of /proc/PID/status, its low 32 bits).  Where that cannot be read, it is
# taken to be.
h3_dying() {
	h3_caught=
	while read -r h3_k h3_v; do
		[ "$h3_k" != SigCgt: ] || h3_caught=${h3_v#????????}
	done 2>/dev/null </proc/$PPID/status
	[ -z "$h3_caught" ] || [ $((0x$h3_caught >> ($1 - 1) & 1)) -eq 0 ]
}
