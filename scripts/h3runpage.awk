# h3runpage.awk: h3runpage(1)'s reader.  For each line NAME<TAB>REPORT of
# the list, it prints the files of the run's reduction in the tagged
# lines that h3runpage.jq reads (see there), and writes the run's strip to
# tmp/rN-strip.tsv for gnuplot.  A run whose report is missing is listed
# in the file gone instead.  Set with -v: prog, tmp, gone.

# join(tag, file): print tag, then the lines of file joined into one.
# Each line is printed as it is read: building a string of a report of
# megabytes took minutes, each append being a copy.
function join(tag, file,   l, rc) {
	printf "%s", tag
	while ((rc = getline l <file) > 0)
		printf "%s ", l
	close(file)
	printf "\n"
	if (rc < 0)
		missing = missing tag
}

# lines(tag, file, max): print tag and the count of the lines of file
# after its header, at most max (0: all), then those lines.  The count
# comes first so that jq need not append a line at a time.
function lines(tag, file, max,   a, h, l, n, rc, i) {
	while ((rc = getline l <file) > 0)
		if (h++ && (max == 0 || n < max))
			a[++n] = l
	close(file)
	print tag (n + 0)
	for (i = 1; i <= n; i++)
		print a[i]
	if (rc < 0)
		missing = missing tag
}

# strip(file, run): write the stretches of the strip of the run-th run
# (lane, start_ns, end_ns, number of the category) to the file gnuplot
# reads, and print its lanes (lane, device, stream) and its categories,
# each once, in the order they come: jq need not read a line per pixel.
function strip(file, run,   data, f, h, l, lane, lanes, nl, cat, cats, nc, rc,
    i) {
	data = tmp "/r" run "-strip.tsv"
	while ((rc = getline l <file) > 0) {
		if (!h++)
			continue
		split(l, f, "\t")
		if (!(f[1] in lane)) {
			lane[f[1]]
			lanes[++nl] = f[1] "\t" f[2] "\t" f[3]
		}
		if (!(f[6] in cat)) {
			cats[++nc] = f[6]
			cat[f[6]] = nc - 1
		}
		print f[1] "\t" f[4] "\t" f[5] "\t" cat[f[6]] >data
	}
	close(file)
	if (nl > 0 && close(data) != 0) {
		printf "%s: %s: cannot write it\n", prog, data >"/dev/stderr"
		exit 2
	}
	print "S" (nl + 0)
	for (i = 1; i <= nl; i++)
		print lanes[i]
	print "C" (nc + 0)
	for (i = 1; i <= nc; i++)
		print cats[i]
	if (rc < 0)
		missing = missing "S"
}

{
	n = split($2, p, "/")
	d = n > 1 ? substr($2, 1, length($2) - length(p[n])) : ""
	if ($1 == "" || $1 ~ /\// || $1 == "." || $1 == ".." || NF != 2) {
		printf "%s: %s:%d: not NAME<TAB>report.json\n", prog, FILENAME,
		    FNR >"/dev/stderr"
		exit 1
	}
	rc = getline l <$2
	close($2)
	if (rc < 0) {
		print $1 >gone
		next
	}
	missing = ""
	print "N" $1 "\t" $2
	join("J", $2)
	lines("K", d "kernels.tsv", 20)
	strip(d "strip.tsv", ++runs)
	lines("B", d "gapbins.tsv", 0)
	print "M" missing
}
