# h3runerr.sh: why a run failed, and its error record, for the rule of a
# run's report (mk/report.mk), whose shell (POSIX sh) reads it only then.

# h3_failed DIR TEMP SPARE PID MAKE FILE...: fails, saying why the run
# whose products go to DIR failed.  DIR was not writable (h3_e is empty);
# or its error record is shown, FILE... (its products and files in
# between) and its records of before go, to free their space on a full
# disk, and the record is written to TEMP and renamed DIR/report.err, or
# else to SPARE by SPARE.PID, which h3_at then names.  MAKE reduced it.
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

# h3_errors: prints the record: the reduction's messages (in the file
# $h3_e) but make's own lines that say a step failed or its file was
# deleted, or, where no line is left, one that gives make's exit status
# ($h3_rc).  Fails if a line is not written.
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
