# h3pages.awk: the pages of the tagged stream of h3runpage.jq or
# h3index.jq (see h3.jq) written, once gnuplot has drawn their charts in
# the directory dir (awk -v dir=...): F PATH starts the file PATH, P LINE
# is a line of it, and a line <!-- chart FILE ID --> takes the place of
# the SVG dir/FILE.svg, inline: without its XML declaration, its ids
# prefixed with ID, so that the charts of a page share none.  G lines,
# gnuplot's, are skipped.  X NAME TAB MESSAGE, of a page not written, is
# said on stderr after prog (awk -v prog=...), NAME noted in dir/bad, and
# the status is 1; a chart missing or a write that fails is status 2.
BEGIN { q = "'" }
/^X/ {
	split(substr($0, 2), w, "\t")
	print w[1] >(dir "/bad")
	printf "%s: %s\n", prog, substr($0, length(w[1]) + 3) >"/dev/stderr"
	status = 1
	next
}
/^F/ {
	if (out != "")
		close(out)
	out = substr($0, 2)
	printf "" >out
	next
}
/^P<!-- chart [^ ]* [^ ]* -->$/ {
	split($0, w, " ")
	f = dir "/" w[3] ".svg"
	id = w[4]
	while ((rc = getline l <f) > 0) {
		if (l ~ /^<\?xml /)
			continue
		# Most lines, a shape each, hold no id and no reference.
		if (l ~ /id=|href=|url\(#/) {
			gsub(" id=\"", " id=\"" id "-", l)
			gsub(" id=" q, " id=" q id "-", l)
			gsub("href=\"#", "href=\"#" id "-", l)
			gsub("href=" q "#", "href=" q "#" id "-", l)
			gsub("url\\(#", "url(#" id "-", l)
		}
		print l >out
	}
	if (rc < 0) {
		printf "%s: %s: gnuplot drew no such chart\n", prog, f \
		    >"/dev/stderr"
		failed = 2
		exit
	}
	close(f)
	next
}
/^P/ { print substr($0, 2) >out }
END {
	if (failed)
		exit failed
	if (out != "" && close(out) != 0)
		exit 2
	exit status
}
