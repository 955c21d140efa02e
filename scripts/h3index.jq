# h3index.jq: the page of a sweep, as h3index(1) draws it, from the
# summary.json of h3summary(1) (the input) and $links, the names of the
# runs whose page is there, one a line: each links to $pages/NAME.html.
# $out is the page's file.  Writes the tagged stream of h3.jq's page
# definitions.
include "h3";

def f($k): .figures[$k].mean;
def f0($k): .figures[$k].mean // 0;
def cell: "<td class=\"n\">" + (tostring | @html) + "</td>";
# A name broken, where it must be, after its commas alone: a run's or a
# configuration's key=value pairs stay whole.
def commabreaks: @html | gsub(","; ",<wbr />");
def signed($d): (if . > 0 then "+" else "" end) + fixed($d);
# The settings of a configuration as one label, key=value joined by ,.
def settings: [to_entries[] | "\(.key)=\(.value)"] | join(",");
# A chart of lines, a block of the datablock $NAME each, titled.
def lines($name; $titles):
	"plot " + ([$titles | to_entries[] | "$\($name) index \(.key) using 1:2 with linespoints lt \(.key + 1) pt 7 ps 0.6 title \(.value | gp_quote)"] | join(", "));
# Lines in the palette's colours, which the categories do not mean here.
def linetypes:
	(palette | to_entries[] |
	    "set linetype \(.key + 1) lc rgb \"#\(.value)\" lw 1.5"),
	"set linetype cycle \(palette | length)";
def barlabels($labels):
	"set xtics (" + ([$labels | to_entries[] |
	    "\(.value | gp_quote) \(.key)"] | join(", ")) + ")";

select((.groups | type) == "array" and (.runs | type) == "array") |
($links | split("\n") | map(select(. != "") | {(.): true}) | add // {}) as $l |
([first(.runs[]?.components // empty) | keys_unsorted[]]) as $cats |
($cats | colours) as $c |
[.groups[]? ] as $all |
($all | sort_by(.ratio_to_fastest == null, .ratio_to_fastest)) as $groups |
($groups | map(.label)) as $labels |
($groups | length) as $ng |
# The parts of the time account of each configuration, the means of its
# runs', and those that are not 0 in one at least.
($groups | map(. as $g | reduce (account_parts[] | .[0]) as $k ({};
    ($g | f("time_account.parts.\($k)")) as $v |
    if ($v | type) == "number" then .[$k] = $v else . end))) as $accounts |
account_present($accounts) as $parts |
(any($groups[]; .verdict != null)) as $verdicts |
gp_prelude,
("F" + $out),
page_head("h3prof: sweep"),
("<h1>Sweep</h1>",
 (if .headline then "<p><strong>" + (.headline | @html) + "</strong></p>"
  else empty end),
 "<p>\(plural(.runs | length; "run")) reduced, \(.failed | length) failed, \(plural($ng; "configuration")).</p>",
 (.scope | scope_words // empty | "<p>\(@html).</p>"),
 "<h2>Configurations</h2>",
 "<p>Fastest first: means over the runs of a configuration, ± the sample standard deviation; each configuration's runs link to their pages.</p>",
 "<div class=\"wide\"><table class=\"configs\">",
 "<tr><th>configuration and runs</th><th>n</th><th>GPU span ms</th><th>× fastest</th><th>kernel ms</th><th>kernel busy union %</th>" +
    ([$cats[] | "<th>" + (@html | gsub("_"; "_<wbr />")) + " ms</th>"] |
	add // "") +
    "<th>idle ms</th>" +
    (if $verdicts then "<th>verdict</th>" else "" end) + "</tr>",
 ($groups[] |
    "<tr><td>" + (.label | commabreaks) +
    "<br /><span class=\"runs\">" +
    ([.runs[]? | if $l[.] then "<a href=\"" + ($pages + "/" + . + ".html" |
	href | @html) + "\">" + commabreaks + "</a>" else commabreaks end] |
	join(" ")) + "</span></td>" +
    (.n | cell) +
    "<td class=\"n\">\(f("gpu_span_ns") | ms)" +
    (if .figures.gpu_span_ns.stddev then "<span class=\"sd\">± " +
	(.figures.gpu_span_ns.stddev | ms) + "</span>" else "" end) + "</td>" +
    (.ratio_to_fastest | fixed(3) | cell) +
    (f("kernel_time_ns") | ms | cell) +
    (f("kernel_busy_union_percent") | fixed(1) | cell) +
    ([. as $g | $cats[] as $k |
	$g | f("components.\($k).milliseconds") | fixed(3) | cell] |
	add // "") +
    (f("idle_gaps.total_ns") | ms | cell) +
    (if $verdicts then "<td class=\"v\">" + (.verdict // "" |
	tostring | @html) + "</td>" else "" end) + "</tr>"),
 "</table></div>",
 ([$groups[] | select([.why, .why_parts] | any(type == "array" and length > 0))] |
  if length > 0 then
	"<h2>What explains the differences</h2>",
	"<p>For each configuration, the categories of kernel time that differ most from the fastest, largest first; then the parts of the time account that grew most, with their share of the difference.</p>",
	"<table>",
	"<tr><th>configuration</th><th>against the fastest</th></tr>",
	(.[] | "<tr><td>" + (.label | @html) + "</td><td>" +
	    ([([.why // [] | .[] | (.category | tostring | @html) + ": " +
		(.delta_ms | signed(3)) + " ms" +
		(if .delta_percent != null then
		    " (" + (.delta_percent | signed(1)) + "%)" else "" end)] |
		join(", ")),
	      ([.why_parts // [] | .[] | (.part | tostring | @html) + ": " +
		(.change / 1e6 | signed(3)) + " ms" +
		(if .share_percent != null then
		    " (" + (.share_percent | fixed(0)) + "% of the difference)"
		 else "" end)] | join(", ") |
		if . == "" then . else "the time account: " + . end)] |
		map(select(. != "")) | join("; ")) +
	    "</td></tr>"),
	"</table>"
  else empty end),
 (if (.failed | length) > 0 then
	"<h2>Failed runs</h2>", "<ul>",
	(.failed[] | "<li>" + (.name | @html) + ": <code>" +
	    (.error // "" | @html) + "</code></li>"), "</ul>"
  else empty end) | page_line),
(if $ng > 0 then
	("<h2>Kernel time per category</h2>",
	 "<p>The mean of the repeats of each configuration; the error bar is the standard deviation of the total kernel time.</p>" | page_line),
	chart("stacked"; "stacked"; 320 + 12 * $ng;
	    datablock("st"; $groups[] | . as $g |
		[$cats[] as $k | $g | f0("components.\($k).milliseconds")]),
	    datablock("tt"; $groups | to_entries[] | [.key,
		(.value | f0("kernel_time_ns") / 1e6),
		((.value.figures.kernel_time_ns.stddev // 0) / 1e6)]),
	    "set ylabel \"kernel time (ms)\"",
	    "set yrange [0:*]",
	    "set style data histograms",
	    "set style histogram rowstacked",
	    "set style fill solid 1 noborder",
	    "set boxwidth 0.7",
	    barlabels($labels),
	    "set xtics rotate by -20 left",
	    "set bmargin 8",
	    "set key outside right top vertical",
	    "set pointintervalbox 0",
	    "plot " + ([$cats | to_entries[] |
		"$st using \(.key + 1) title \(.value | gp_quote) lc rgb \"#\($c[.value])\""] +
		["$tt using 1:2:3 with yerrorbars lc rgb \"black\" pt 7 ps 0 title \"sd\""] |
		join(", ")),
	    "undefine $st $tt"),
	(if ($parts | length) > 0 then
	("<h2>Time account</h2>",
	 "<p>The GPU span of each configuration in the parts of its time account (the means over its runs, as shares of their sum, the mean span): compute, exposed communication, copies and memsets not under a kernel, other work and idle by cause, in the colours of the runs' pages.</p>" |
	    page_line),
	chart("account"; "account"; 320 + 12 * $ng;
	    # A part of 0 as NaN, which gnuplot leaves out: a 0 drew a
	    # sliver on the parts below it.
	    datablock("ac"; $accounts[] | . as $a |
		([.[]] | add // 0) as $sum | [$parts[] | ($a[.[0]] // 0) as $v |
		    if $sum > 0 and $v != 0 then 100 * $v / $sum else "NaN" end]),
	    "set ylabel \"share of the GPU span (%)\"",
	    "set yrange [0:100]",
	    "set style data histograms",
	    "set style histogram rowstacked",
	    "set style fill solid 1 noborder",
	    "set boxwidth 0.7",
	    barlabels($labels),
	    "set xtics rotate by -20 left",
	    "set bmargin 8",
	    "set key outside right top vertical",
	    "plot " + ([$parts | to_entries[] |
		"$ac using \(.key + 1) title \(.value[1] | gp_quote) lc rgb \"#\(.value[2])\""] |
		join(", ")),
	    "undefine $ac")
	 else empty end),
	("<h2>Busy and idle</h2>",
	 "<p>Kernel busy union (time a kernel ran), idle gaps (no GPU work at all) and the launch-gap total, in ms, means over the repeats.</p>" | page_line),
	chart("busy"; "busy"; 320 + 12 * $ng;
	    datablock("bu"; $groups[] | [f0("gpu_span_ns") *
		f0("kernel_busy_union_percent") / 1e8,
		f0("idle_gaps.total_ns") / 1e6,
		f0("launch_gaps.total_ns") / 1e6]),
	    "set ylabel \"ms\"",
	    "set yrange [0:*]",
	    "set style data histograms",
	    "set style histogram clustered gap 1",
	    "set style fill solid 1 noborder",
	    barlabels($labels),
	    "set xtics rotate by -20 left",
	    "set bmargin 8",
	    "set key outside right top vertical",
	    "plot $bu using 1 title \"kernel busy union\" lc rgb \"#0072B2\", '' using 2 title \"idle gaps\" lc rgb \"#E69F00\", '' using 3 title \"launch gaps\" lc rgb \"#999999\"",
	    "undefine $bu"),
	# The percentiles of the idle gaps of each configuration, in µs, a
	# block each, on a log axis only those above 0.
	([$groups[] | . as $g | [["p50_ns", 50], ["p90_ns", 90],
	    ["p99_ns", 99], ["maximum_ns", 100]][] | .[0] as $p |
	    ($g | f0("idle_gaps.\($p)")) as $v | select($v > 0)] | length) as $points |
	("<h2>Idle gaps</h2>",
	 "<p>The idle gaps of each configuration (no GPU work at all) by their percentiles, means over the repeats: half of the gaps are shorter than the 50% point, all of them no longer than the 100%, the longest.</p>" | page_line),
	if $points == 0 then "<p>No configuration had an idle gap.</p>" | page_line
	else chart("gaps"; "gaps"; 360;
	    "$gp << EOD",
	    # A block of each configuration, in order: one without gaps
	    # holds a point of NaN, which gnuplot does not draw, for an
	    # empty block would not count as one.
	    ($groups[] | . as $g | [[["p50_ns", 50], ["p90_ns", 90],
		["p99_ns", 99], ["maximum_ns", 100]][] | .[0] as $p |
		($g | f0("idle_gaps.\($p)")) as $v | select($v > 0) |
		[$v / 1e3, .[1]] | @tsv] |
		if length > 0 then .[] else "NaN\tNaN" end, "", ""),
	    "EOD",
	    "set xlabel \"idle gap (µs)\"",
	    "set ylabel \"percent of the gaps no longer\"",
	    "set logscale x",
	    "set yrange [0:105]",
	    "set key outside right top vertical",
	    linetypes,
	    lines("gp"; $labels),
	    "undefine $gp") end
 else empty end),
# Each key's effect on the GPU span, a row per pair of its values, most
# influential key first, with its 95% interval where it has one, on a log
# axis: summary.json's effects.
([.effects[]? | select(.figure == "gpu_span_ns")] as $ef |
 ($ef | length) as $n |
 if $n == 0 then empty else
	("<h2>What each setting does</h2>",
	 "<p>The ratio of GPU spans from one value of a configuration key to another: the geometric mean over the configurations equal in every other key, with its 95% interval where it has one (a bar); 1 is no effect. summary.md says how each is made and what moved; every figure is in summary.json (effects) and effects.csv.</p>" |
	    page_line),
	chart("effects"; "effects"; 100 + 22 * $n;
	    datablock("ef"; $ef | to_entries[] | [.key, .value.ratio,
		(.value.low // .value.ratio), (.value.high // .value.ratio)]),
	    "set logscale x",
	    "set xlabel \"ratio of GPU spans, to / from\"",
	    "set yrange [\($n):-1]",
	    "set ytics (" + ([$ef | to_entries[] | "\("\(.value.key): \(.value.from) → \(.value.to)" | gp_quote) \(.key)"] | join(", ")) + ")",
	    "set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb \"#999999\"",
	    "set lmargin 36",
	    "plot $ef using 2:1:3:4 with xerrorbars pt 7 ps 0.8 lc rgb \"#0072B2\"",
	    "undefine $ef")
 end),
# The numeric settings of more than one value: for each, the GPU span
# against it, a line per configuration of the other settings, and the
# time of each category, a line per category and configuration of them.
([$all[].config] as $conf |
 [$conf[] | keys_unsorted[]] | unique |
 map(select(. as $k | all($conf[]; .[$k] | type == "number") and
     ([$conf[][$k]] | unique | length) > 1))) as $scales |
($scales | to_entries[] | .key as $s | .value as $k |
 ($all | group_by(.config | del(.[$k]) | tojson) |
    map(sort_by(.config[$k]))) as $series |
 ($series | map(.[0].config | del(.[$k]) | settings |
    if . == "" then "all" else . end)) as $names |
 ("<h2>GPU span by " + ($k | @html) + "</h2>",
  "<p>A line per configuration of the other settings; means over the repeats.</p>" | page_line),
 chart("scale\($s)"; "scale\($s)"; 360;
    "$sc << EOD",
    ($series[] | (.[] | [.config[$k], f0("gpu_span_ns") / 1e6] | @tsv), "", ""),
    "EOD",
    "set xlabel \($k | gp_quote)",
    "set ylabel \"GPU span (ms)\"",
    "set yrange [0:*]",
    "set key outside right top vertical",
    linetypes,
    lines("sc"; $names),
    "undefine $sc"),
 ("<h2>Kernel time per category by " + ($k | @html) + "</h2>",
  "<p>A line per category in its colour, a dash pattern per configuration of the other settings; means over the repeats.</p>" | page_line),
 chart("cats\($s)"; "cats\($s)"; 400;
    "$ca << EOD",
    ($series[] as $g | $cats[] as $cat |
	($g[] | [.config[$k], f0("components.\($cat).milliseconds")] | @tsv),
	"", ""),
    "EOD",
    "set xlabel \($k | gp_quote)",
    "set ylabel \"kernel time (ms)\"",
    "set yrange [0:*]",
    "set key outside right top vertical",
    "plot " + ([$names | to_entries[] | .key as $i | .value as $name |
	$cats | to_entries[] |
	"$ca index \($i * ($cats | length) + .key) using 1:2 with linespoints lw 1.5 lc rgb \"#\($c[.value])\" dt \($i + 1) pt 7 ps 0.5 title \(.value + (if $name == "all" then "" else " " + $name end) | gp_quote)"] |
	join(", ")),
    "undefine $ca")),
("</body>", "</html>" | page_line)
