# h3stop.sh: the signal traps of a sweep's recipe shell (POSIX sh: dash
# or bash), which sources it; mk/steps.mk's h3_trap and h3_bg write the
# recipe:
#
#	h3_step=TARGET h3_stopfile=REPORTS/.interrupted.PID
#	h3_discard() { rm -f -- ...; }
#	. h3stop.sh && ... { h3_job=starting; COMMAND & h3_job=$!;
#	    wait "$h3_job"; ... }
#
# The step runs in the background because a shell runs its traps only
# once its foreground command ends.  On SIGHUP, SIGINT or SIGTERM the
# trap ends the step and everything under it (make signals only its
# jobs' shells, and a background command ignores Ctrl-C's SIGINT), runs
# h3_discard, and then:
# - if make itself is dying of the signal, exits 0, so that make adds no
#   "Interrupt" or "Error" line, and the first job to create h3_stopfile
#   says once for the whole sweep that it was interrupted;
# - else the step fails, saying it was stopped.
# Nothing here starts a process unless a signal comes.

h3_job=

# h3_stop SIGNAL: the trap for signal number SIGNAL.
h3_stop() {
	trap '' HUP INT TERM
	h3_first=
	# noclobber makes the open exclusive: only one job creates the file.
	# (true, not :, as a failing special builtin would end the shell.)
	[ ! -d "${h3_stopfile%/*}" ] ||
	    { set -C; true >"$h3_stopfile"; } 2>/dev/null && h3_first=1
	# A signal that comes before the step's PID is known finds it in $!
	# (empty if the step was the recipe's first).
	[ "$h3_job" != starting ] || h3_job=${!-}
	if [ -n "$h3_job" ]; then
		h3_tree "$h3_job"
		kill $h3_pids 2>/dev/null
		# The step dies of the signal, as expected: no "Terminated".
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

# h3_tree PID: set h3_pids to PID and all its descendants, found from the
# parent field of each /proc/N/stat (PID alone without /proc).  (A
# process name with a blank shifts the fields: that process is skipped.)
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

# h3_dying SIGNAL: whether make, this shell's parent, is dying of signal
# number SIGNAL.  GNU make resets a fatal signal to its default before it
# dies, so it no longer catches it (the low 32 bits of the SigCgt mask in
# /proc/PID/status).  If that cannot be read, make is taken to be dying.
h3_dying() {
	h3_caught=
	while read -r h3_k h3_v; do
		[ "$h3_k" != SigCgt: ] || h3_caught=${h3_v#????????}
	done 2>/dev/null </proc/$PPID/status
	[ -z "$h3_caught" ] || [ $((0x$h3_caught >> ($1 - 1) & 1)) -eq 0 ]
}
