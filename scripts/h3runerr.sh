# h3runerr.sh: the error record of a run that failed, for the rule of a
# run's report (mk/report.mk), whose shell (POSIX sh) sources this file
# only then: a run that succeeds spends nothing on it.

# h3_unwritable DIR: fails, saying why DIR, a run's product directory,
# cannot take the run's products.
h3_unwritable() {
	[ -d "$1" ] && set -- "$1: not writable (read-only?): write the reports elsewhere, as make reports OUT=DIR does" ||
	    set -- "$1: no such directory"
	printf 'pipeline.mk: %s\n' "$1" >&2
	return 1
}

# h3_failed DIR TEMP SPARE PID MAKE FILE...: fails, having written the
# error record of a run whose reduction failed.  FILE... (the run's
# products and files in between) and its records of before go first, to
# free their space on a full disk.  The record is shown, then written to
# TEMP and renamed DIR/report.err; where that fails, it goes to SPARE by
# SPARE.PID, and h3_at names SPARE for the run's line.  MAKE: the make
# that reduced the run.
h3_failed() {
	h3_run=$1 h3_temp=$2 h3_spare=$3 h3_pid=$4 h3_make=${5##*/}
	shift 5
	rm -rf -- "$@" "$h3_run/report.err" "$h3_spare"
	h3_errors >&2
	h3_put "$h3_run/report.err" "$h3_temp" || {
		mkdir -p -- "${h3_spare%/*}" &&
		    h3_put "$h3_spare" "$h3_spare.$h3_pid" && h3_at=$h3_spare
		printf 'pipeline.mk: %s: cannot be written (is the disk full?): the error above is %s\n' \
		    "$h3_run/report.err" "${h3_at:+recorded in }${h3_at:-not recorded}" >&2
	}
	rm -f -- "$h3_e"
	return 1
}

# h3_put FILE TEMP: writes the record to TEMP and renames it FILE, or
# fails, leaving neither: a record is kept whole or not at all.
h3_put() {
	h3_errors 2>/dev/null >"$2" && mv -f -- "$2" "$1" || { rm -f -- "$2"; false; }
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
