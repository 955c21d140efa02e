# h3joblog.awk: h3sweep's job log (GNU parallel's --joblog) brought up to
# date with the sweep file as it is now, so that parallel --resume-failed
# reruns exactly the runs that need it.  Its inputs, in order: the lines
# parallel was given last time (S.input), the sweep's lines now, the
# names of the runs whose directory exists, and the job log.
#
# An entry is kept, renumbered to its line's place now, if its run
# succeeded, its line is unchanged and its directory exists; of several
# entries for one line the last counts.  Failed entries are dropped:
# parallel reruns them anyway, and cannot read back an entry whose
# sshlogin holds a space.  Run with -F'\t' -v OFS='\t'.
FILENAME == ARGV[1] { old[FNR] = $0; next }
FILENAME == ARGV[2] { now[$0] = FNR; lines = FNR; next }
FILENAME == ARGV[3] { there[$0] = 1; next }
FNR == 1 { header = $0; next }
{
	if (!($1 in old) || !(old[$1] in now))
		next
	seq = now[old[$1]]
	split(old[$1], f, "\t")
	delete entry[seq]
	if ($7 == 0 && $8 == 0 && f[1] in there) {
		$1 = seq
		entry[seq] = $0
	}
}
END {
	if (header != "")
		print header
	for (i = 1; i <= lines; i++)
		if (i in entry)
			print entry[i]
}
