# h3scontrol.awk: what h3sweep reads from "scontrol -o show job", a line
# of KEY=VALUE words per job.  With -v want=gpus: how many GPUs the
# allocation of -v nodes=N nodes has in all, from its TRES where the site
# counts GPUs there, else from what it asked for, per job or per node;
# nothing if it does not say.  With -v want=tasks: a line per task of a
# job array, its task ID, state, exit status, signal, node, start and run
# time in seconds (run with -v OFS='\t').
{
	for (i = 1; i <= NF; i++) {
		k = $i; sub(/=.*/, "", k)
		v = $i; sub(/^[^=]*=/, "", v)
		f[k] = v
	}
}
want == "gpus" {
	per = 1
	if (match(f["TRES"], /gres\/gpu=[0-9]+/))
		n = substr(f["TRES"], RSTART + 9, RLENGTH - 9)
	else if (match(f["TresPerJob"], /gpu(:[^:,]+)?:[0-9]+/))
		n = substr(f["TresPerJob"], RSTART, RLENGTH)
	else if (match(f["TresPerNode"], /gpu(:[^:,]+)?:[0-9]+/)) {
		n = substr(f["TresPerNode"], RSTART, RLENGTH)
		per = nodes
	}
	sub(/.*[:=]/, "", n)
	if (n * per > 0)
		print n * per
}
want == "tasks" {
	split(f["ExitCode"], ec, ":")
	# RunTime is [D-]HH:MM:SS.
	n = split(f["RunTime"], hms, /[-:]/)
	secs = hms[n] + 60 * hms[n - 1] + 3600 * hms[n - 2] + \
	    (n > 3 ? 86400 * hms[1] : 0)
	print f["ArrayTaskId"], f["JobState"], ec[1], ec[2], f["NodeList"],
	    f["StartTime"], secs
}
