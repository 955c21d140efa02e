# h3arraylog.awk: the outcome of each task of h3sweep's job array, as
# lines of GNU parallel's job log appended to -v logfile=FILE, so that the
# next sweep resumes from it as from parallel's own.  Its inputs: the
# tasks' job numbers in the log (a line per task), the array's lines
# (NAME tab COMMAND), and arraytasks's line per task.  A task that did not
# end COMPLETED failed, whatever its status; one that Slurm ended (not
# COMPLETED nor FAILED) also goes to -v states=FILE as NAME tab STATE.
# Run with -F'\t' -v OFS='\t' -v job=JOBID.
FILENAME == ARGV[1] { seq[FNR] = $0; next }
FILENAME == ARGV[2] { name[FNR] = $1; next }
{
	x = $3; sig = $4
	if ($2 != "COMPLETED" && x == 0 && sig == 0)
		x = 1
	printf "%s\t%s\t%s\t%s\t0\t0\t%s\t%s\tsbatch task %s_%s: %s %s\n",
	    seq[$1], $5, $8, $7, x, sig, job, $1, name[$1], $2 >> logfile
	if ($2 != "COMPLETED" && $2 != "FAILED")
		print name[$1], $2 > states
}
