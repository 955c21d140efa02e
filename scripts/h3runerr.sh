# h3runerr.sh: sourced by a run's recipe (mk/report.mk, POSIX sh) only
# when the run fails.

# h3_failed DIR TEMP SPARE PID MAKE FILE...: says why the run whose
# products go to DIR failed; returns 1.  With h3_e empty, DIR was not
# writable.  Else it shows the record, removes FILE... and the old records
# (to free a full disk), and writes the record to TEMP, renamed to
# DIR/report.err, or else to SPARE (by SPARE.PID), which h3_at then names.
# MAKE is the make that reduced the run.
h3_failed() {
	h3_run=$1 h3_temp=$2 h3_spare=$3 h3_pid=$4 h3_make=${5##*/}
	shift 5
	if [ -z "$h3_e" ]; then
		h3_why='no such directory'
		[ ! -d "$h3_run" ] || h3_why='not writable (read-only?): write the reports elsewhere, as make reports OUT=DIR does'
		printf 'pipeline.mk: %s: %s\n' "$h3_run" "$h3_why" >&2
		return 1
	fi
	rm -rf -- "$@" "$h3_run/report.err" "$h3_spare"
	h3_errors >&2
	h3_errors 2>/dev/null >"$h3_temp" && mv -f -- "$h3_temp" "$h3_run/report.err" || {
		rm -f -- "$h3_temp"
		mkdir -p -- "${h3_spare%/*}" && h3_errors 2>/dev/null >"$h3_spare.$h3_pid" &&
		    mv -f -- "$h3_spare.$h3_pid" "$h3_spare" && h3_at=$h3_spare ||
		    rm -f -- "$h3_spare.$h3_pid"
		printf 'pipeline.mk: %s: cannot be written (is the disk full?): the error above is %s\n' \
		    "$h3_run/report.err" "${h3_at:+recorded in }${h3_at:-not recorded}" >&2
	}
	rm -f -- "$h3_e"
	return 1
}

# h3_errors: prints the record: the reduction's messages (file $h3_e)
# less make's lines that say a step failed or a file was deleted; if none
# is left, a line with make's exit status ($h3_rc).  Fails if a write does.
h3_errors() {
	h3_wrote=yes h3_kept=
	while IFS= read -r h3_l; do
		case $h3_l in
		"$h3_make"*': *** ['*'] Error '* | "$h3_make"*': *** Deleting file '*) ;;
		*) h3_kept=1; printf '%s\n' "$h3_l" || h3_wrote= ;;
		esac
	done <"$h3_e"
	[ -n "$h3_kept" ] || printf 'pipeline.mk: %s: reduction failed (exit %s)\n' \
	    "$h3_run" "$h3_rc" || h3_wrote=
	[ -n "$h3_wrote" ]
}
