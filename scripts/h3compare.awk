# h3compare.awk: of h3compare(1), kernel tables -> figure lines, appended
# to DIR/SIDE.fig.  The inputs: "side tab run tab key" of every run of a
# side with a table, then each such side's table (side=SIDE before it;
# its path as shown in $shown_SIDE), in the long format of
# REPORTS/kernels.tsv: a "# " comment line or two, a header naming run,
# name, category, launches and total_ns, a line per run and kernel.  A
# table is whole: a kernel missing from some runs of a configuration, on
# either side, ran 0 times in those runs.
function bad(what) {
	printf "%s: %s:%d: %s\n", prog, ENVIRON["shown_" side], FNR, what \
	    >"/dev/stderr"
	exit 2
}
FILENAME == runsfile {
	key[$1, $2] = $3
	runs[$1, $3]++
	tabled[$1]
	next
}
FNR == 1 {
	header = 0
	delete col
}
!header && /^# / {
	next
}
!header {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	if (!("run" in col && "name" in col && "category" in col &&
	    "launches" in col && "total_ns" in col))
		bad("not a kernel table: its header names no run, name, " \
		    "category, launches and total_ns")
	header = 1
	out = dir "/" side ".fig"
	next
}
{
	if ($col["launches"] !~ /^[0-9]+$/ || $col["total_ns"] !~ /^[0-9]+$/)
		bad("launches and total_ns are not counts")
	if (!((side, $col["run"]) in key))
		next		# a run of no configuration: a failed one
	k = key[side, $col["run"]]
	fig = "kernels." $col["category"] "." $col["name"]
	print k "\t" fig ".total_ns\t" $col["total_ns"] >>out
	print k "\t" fig ".launches\t" $col["launches"] >>out
	seen[side, k, fig]++
	figs[k, fig]
}
END {
	for (kf in figs) {
		split(kf, p, SUBSEP)
		for (s in tabled)
			for (i = seen[s, p[1], p[2]]; i < runs[s, p[1]]; i++)
				print p[1] "\t" p[2] ".total_ns\t0\n" p[1] "\t" \
				    p[2] ".launches\t0" >>(dir "/" s ".fig")
	}
}
