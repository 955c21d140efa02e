# h3runpage.jq: the pages of runs, as h3runpage(1) draws them, from the
# lines h3runpage's reader gives, raw (jq -R), a run after another: N
# NAME TAB REPORT starts run NAME, then J its report.json on one line;
# then K, S, C and B, each with the count of the lines that follow it:
# the first lines of its kernels.tsv without its header, the lanes of
# its strip.tsv (lane, device, stream), its categories, and the lines of
# its gapbins.tsv without its header; then M and the tags of those files
# that are missing.  The strip of the Nth run of the batch is in the file
# rN-strip.tsv, which gnuplot reads: lane, start_ns, end_ns and the
# number of the category, from 0.  $dir is where the pages go,
# DIR/NAME.html; $index, if not "", the link back to the sweep's page.
# Writes the tagged stream of h3.jq's page definitions, and X NAME TAB
# MESSAGE for a run whose report is none.
include "h3";

def row($k; $v): "<tr><th>" + $k + "</th><td class=\"n\">" +
	($v | tostring | @html) + "</td></tr>";
def cells: map("<td class=\"n\">" + (tostring | @html) + "</td>") | add;
def tsv_rows: map(split("\t"));
# A time in ns as text in the unit that fits it: ns, µs or ms.
def duration:
	if . < 1e3 then "\(fixed(0)) ns" elif . < 1e6 then "\(. / 1e3 | fixed(3)) µs"
	else "\(ms) ms" end;

# Whether . is an account h3runpage can draw: a span, and parts of ns.
def drawable: type == "object" and (.gpu_span_ns | type) == "number" and
	(.parts | type) == "object" and all(.parts[]; type == "number");

# The section of the time account of report $r (time_account), the $n-th
# of the batch, its charts' files named after $f: the verdict, a bar per
# device of its span cut in its parts, their key and their figures.
# Nothing for a report without one (an older report, the reference's).
def account($r; $n; $f):
	($r.time_account // null) as $ta |
	if ($ta | drawable | not) or ($ta.devices | type) != "object" or
	    ($ta.devices | length) == 0 or
	    any($ta.devices[]; drawable | not) then empty else
	($ta.devices | to_entries) as $devs |
	# The figures' columns: with several devices the run's account first,
	# the devices as one timeline, of which the verdict speaks.
	((if ($devs | length) > 1 then [{key: "all devices", value: $ta}]
	  else [] end) + [$devs[] | .key = "device \(.key)"]) as $cols |
	account_present([$cols[].value.parts]) as $parts |
	($devs | map(.value.gpu_span_ns // 0) | max) as $longest |
	("<h2>Time account</h2>",
	 (if $ta.verdict then "<p><strong>" + ($ta.verdict | tostring | @html) +
	    "</strong></p>" else empty end) | page_line),
	(if $longest > 0 and ($parts | length) > 0 then
	chart("\($f)-account"; "account"; 70 + 30 * ($devs | length);
	    # A block of each part: the stretch of each device's bar it
	    # takes, after the parts before it.
	    "$a\($n) << EOD",
	    ($parts[] | .[0] as $k |
		([account_parts[] | .[0]] | index($k)) as $at |
		($devs | to_entries[] | .key as $i | .value.value.parts as $p |
		    ([account_parts[0:$at][] | $p[.[0]] // 0] | add // 0) as $from |
		    select(($p[$k] // 0) > 0) |
		    [$i, $from / 1e6, ($from + $p[$k]) / 1e6] | @tsv),
		"", ""),
	    "EOD",
	    "set xlabel \"GPU span of the device (ms)\"",
	    "set xrange [0:\($longest / 1e6)]",
	    "set yrange [\(($devs | length) - 0.4):-0.6]",
	    "set ytics (" + ([$devs | to_entries[] |
		"\("device \(.value.key)" | gp_quote) \(.key)"] | join(", ")) + ")",
	    "set style fill solid 1 noborder",
	    "plot " + ([$parts | to_entries[] |
		"$a\($n) index \(.key) using (($2 + $3) / 2):1:(($3 - $2) / 2):(0.35) with boxxyerror lc rgb \"#\(.value[2])\""] |
		join(", ")),
	    "undefine $a\($n)"),
	 ([$parts[] | {(.[1]): .[2]}] | add | legend | page_line)
	 else empty end),
	("<div class=\"wide\"><table>",
	 "<tr><th>part</th>" + ([$cols[] | "<th>" + (.key | @html) +
	    " ms</th><th>%</th>"] | add) + "</tr>",
	 ($parts[] | .[0] as $k | "<tr><th>" + (.[1] | @html) + "</th>" +
	    ([$cols[].value | (.parts[$k] // 0) as $v | ($v | ms),
		(if .gpu_span_ns > 0 then 100 * $v / .gpu_span_ns | fixed(1)
		 else "" end)] | cells) + "</tr>"),
	 "<tr><th>GPU span</th>" + ([$cols[].value | (.gpu_span_ns | ms),
	    (if .gpu_span_ns > 0 then "100.0" else "" end)] | cells) + "</tr>",
	 "</table></div>",
	 "<p>Every ns of each device's GPU span, from its first operation to its last, is in one part: the first of these that runs then (compute, exposed communication, copies and memsets not under a kernel, other work), else idle, by the cause the launch call of the work that ends the gap gives (h3prof(5)).</p>",
	 (if $ta.verdict_rule then "<p>The verdict's rule: " +
	    ($ta.verdict_rule | tostring | @html) + ".</p>" else empty end) | page_line)
	end;

# The section of the utilization of report $r over time, as account: for
# each device a bar of each chunk of its span, the share of the chunk a
# kernel ran, and its longest stretch below 50%.
def utilization($r; $n; $f):
	(try $r.time_account.devices catch null) as $devs |
	if ($devs | type) != "object" or ($devs | length) == 0 or
	    any($devs[]; drawable | not) then empty else
	("<h2>Utilization</h2>",
	 "<p>Each device's GPU span cut into equal chunks: the share of each chunk in which a kernel ran (the kernel busy union, never above 100%), those below 50% in orange.</p>" |
	    page_line),
	($devs | to_entries | to_entries[] | (.key + 1) as $i |
	 .value.key as $d | .value.value as $v |
	 (try $v.utilization.busy_percent catch null |
	    if type == "array" and all(.[]; type == "number") then . else []
	    end) as $busy | ($busy | length) as $nc |
	 $v.gpu_span_ns as $span |
	 (try $v.utilization.longest_below_50_percent catch null |
	    if type == "object" and all(.chunks, .start_ns, .end_ns;
		type == "number") then . else null end) as $low |
	 # The first longest stretch below 50% (the one the report names),
	 # found again to say which chunks it is.
	 (reduce ($busy | to_entries[]) as $e ({from: 0, n: 0, run: null};
	    if $e.value < 50 then .run //= $e.key |
		if $e.key + 1 - .run > .n then .n = $e.key + 1 - .run |
		    .from = .run else . end
	    else .run = null end)) as $found |
	 ("<h3>device " + ($d | @html) + "</h3>",
	  if $span <= 0 then "<p>The device has no span.</p>"
	  elif $nc == 0 then "<p>The report has no chunks of its span.</p>"
	  else "<p>\($nc) chunks of \($span / $nc | duration)." +
	    (if $low == null then ""
	     elif $low.chunks == 0 then " No chunk was below 50%."
	     elif $found.n == $low.chunks then
		" The longest stretch below 50%: chunks \($found.from + 1) to \($found.from + $found.n) (\($found.n) in a row), " +
		"\($low.end_ns - $low.start_ns | duration) from \($span * $found.from / $nc | duration) into the span."
	     else " The longest stretch below 50%: \($low.chunks) chunks in a row, " +
		"\($low.end_ns - $low.start_ns | duration)." end) + "</p>"
	  end | page_line),
	 if $nc == 0 or $span <= 0 then empty else
	 chart("\($f)-utilization\($i)"; "utilization\($i)"; 220;
	    datablock("u\($n)d\($i)"; $busy | to_entries[] |
		[($span * (.key + 0.5) / $nc) / 1e6, .value]),
	    "set xlabel \"time since the device's first GPU operation (ms)\"",
	    "set ylabel \"kernel busy union (%)\"",
	    "set xrange [0:\($span / 1e6)]",
	    "set yrange [0:100]",
	    "set ytics 0, 25, 100",
	    "set boxwidth \($span * 0.85 / $nc / 1e6) absolute",
	    "set style fill solid 1 noborder",
	    "set key outside right top vertical",
	    "plot $u\($n)d\($i) using 1:(100) with boxes lc rgb \"#f4f4f4\", \\",
	    "    '' using 1:($2 < 50 ? $2 : NaN) with boxes lc rgb \"#D55E00\" title \"below 50%\", \\",
	    "    '' using 1:($2 >= 50 ? $2 : NaN) with boxes lc rgb \"#0072B2\" title \"50% or more\", \\",
	    "    50 with lines dt 2 lc rgb \"black\" title \"50%\"",
	    "undefine $u\($n)d\($i)") end) end;

# The page of a run: . is {n, name, J, K, S, B}, the lines of its files.
def runpage:
	.n as $n | "r\(.n)" as $f | .name as $name |
	(.J[0] // "" | try fromjson catch null) as $r |
	if ($r | type) != "object" or ($r.gpu_span_ns | type) != "number" or
	    ($r.components | type) != "object" then
		"X\($name)\t\(.report | shown): not a report of h3report"
	else
	(.B | tsv_rows) as $bins |
	($r.components | keys_unsorted | colours) as $c |
	($r.components | to_entries) as $cats |
	$r.gpu_span_ns as $span |
	(.S | tsv_rows | sort_by(.[0] | tonumber) |
	    map({lane: (.[0] | tonumber), label: "device \(.[1]) stream \(.[2])"})) as $lanes |
	($r.idle_gaps.count // 0) as $gaps | ($r.idle_gaps.total_ns // 0) as $idle |
	("F\($dir)/\($name).html"),
	(page_head("h3prof: \($r.run.name // $name)")),
	(if $index != "" then
		"<p><a href=\"\($index | href | @html)\">The sweep</a></p>"
	 else empty end,
	 "<h1>" + ($r.run.name // $name | @html) + "</h1>",
	 "<p>" + ([$r.run.config // {} | to_entries[] |
		"\(.key)=\(.value)"] | join(", ") | @html) + "</p>",
	 (if $r.scope then "<p>" + ($r.scope | scope_words
		+ (if .instances then "; \(.instances) instances"
		    + (if (.skipped // 0) > 0 then ", \(.skipped) skipped"
		       else "" end) else "" end)
		+ (if .covered_ns then ", \(.covered_ns | ms) ms covered"
		   else "" end) | @html) + ".</p>" else empty end),
	 "<h2>Figures</h2>", "<table>",
	 row("GPU span ms"; $span | ms),
	 row("GPU operations"; $r.gpu_operation_count),
	 row("kernels"; $r.kernel_count),
	 row("kernel time ms"; $r.kernel_time_ns | ms),
	 row("kernel busy union %"; $r.kernel_busy_union_percent | fixed(1)),
	 row("idle gaps"; $r.idle_gaps.count),
	 row("idle ms"; $r.idle_gaps.total_ns | ms),
	 row("longest idle gap ms"; $r.idle_gaps.maximum_ns | ms),
	 row("launch gaps"; $r.launch_gaps.positive_gap_count),
	 row("launch gap ms"; $r.launch_gaps.total_ns | ms),
	 row("launch API / GPU overlap %";
	     $r.cpu_gpu_overlap.launch_api_overlap_percent | fixed(1)),
	 "</table>",
	 "<h2>Streams</h2>", "<table>",
	 "<tr><th>device</th><th>stream</th><th>kernel ms</th><th>launches</th></tr>",
	 ($r.streams[]? | "<tr>" + ([.device, .stream, (.kernel_ns | ms),
	     .launches] | cells) + "</tr>"),
	 "</table>" | page_line),
	account($r; $n; $f),
	("<h2>Kernel time per category</h2>" | page_line),
	(if ($cats | length) > 0 then
	chart("\($f)-categories"; "categories"; 60 + 28 * ($cats | length);
	    datablock("c\($n)"; $cats | to_entries[] |
		[.key, .value.value.milliseconds, ($c[.value.key] | rgb)]),
	    "set xlabel \"kernel time (ms)\"",
	    "set xrange [0:*]",
	    "set yrange [\(($cats | length) - 0.4):-0.6]",
	    "set ytics (" + ([$cats | to_entries[] |
		"\(.value.key | gp_quote) \(.key)"] | join(", ")) + ")",
	    "set style fill solid 1 noborder",
	    "plot $c\($n) using ($2 / 2):1:($2 / 2):(0.35):3 with boxxyerror lc rgb variable",
	    "undefine $c\($n)"),
	($c | legend | page_line) else empty end),
	# A chart for each NVTX range of the report with instance figures (a
	# scoped report's range), the skipped and the likely warm-up
	# instances marked: what SKIP should be.
	([$r.nvtx_ranges[]? | select(.per_instance | type == "array" and
	    length > 0)] as $ranges |
	 if ($ranges | length) > 0 then
		("<h2>Kernel time per range instance</h2>",
		 "<p>Instances skipped as warm-up (SKIP) in grey; those its report flags as likely warm-up in orange.</p>" | page_line),
		($ranges | to_entries[] | (.key + 1) as $i | .value as $g |
		 ("<h3>" + ($g.name | @html) + "</h3>" | page_line),
		 chart("\($f)-instances\($i)"; "instances\($i)"; 300;
		    datablock("i\($n)"; $g.per_instance[] | [.instance,
			.kernel_time_ns / 1e6, if .skipped then 0
			elif .likely_warmup then 1 else 2 end]),
		    "set xlabel \"instance\"",
		    "set ylabel \"kernel time (ms)\"",
		    "set yrange [0:*]",
		    "set boxwidth 0.8",
		    "set style fill solid 1 noborder",
		    "set key outside right top vertical",
		    "plot $i\($n) using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb \"#999999\" title \"skipped\", \\",
		    "    '' using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb \"#D55E00\" title \"likely warm-up\", \\",
		    "    '' using 1:($3 == 2 ? $2 : NaN) with boxes lc rgb \"#0072B2\" title \"used\"",
		    "undefine $i\($n)"))
	 else empty end),
	("<h2>Timeline</h2>" | page_line),
	(if .M | index("S") then
		"<p>Not drawn: the strip is not beside the report (strip.tsv, which h3report -p writes).</p>" | page_line
	 elif ($lanes | length) == 0 then
		"<p>No kernels ran" + (if $r.scope then " in the scope" else "" end) + ".</p>" | page_line
	 else
		("<p>A lane per device and stream across the GPU span" +
		 (if $r.scope then " of the scope" else "" end) +
		 "; each pixel column takes the colour of the category with the most kernel time in it; white is idle.</p>" | page_line),
		chart("\($f)-timeline"; "timeline"; 70 + 22 * ($lanes | length);
		    datablock("l\($n)"; $lanes[] | [.lane]),
		    # Each category's colour, by its number in the strip's file.
		    "array s\($n)[\(.C | length)] = [" + ([.C[] |
			$c[.] // "999999" | rgb | tostring] | join(", ")) + "]",
		    "set xlabel \"time since the first GPU operation (ms)\"",
		    "set xrange [0:\($span / 1e6)]",
		    "set yrange [\(($lanes | length) - 0.4):-0.6]",
		    "set ytics (" + ([$lanes[] | "\(.label | gp_quote) \(.lane)"] |
			join(", ")) + ")",
		    "set style fill solid 1 noborder",
		    "plot $l\($n) using (\($span / 2e6)):1:(\($span / 2e6)):(0.45) with boxxyerror fc rgb \"#f4f4f4\", \\",
		    "    'r\($n)-strip.tsv' using (($2 / 1e6 + $3 / 1e6) / 2):1:(($3 / 1e6 - $2 / 1e6) / 2):(0.4):(s\($n)[$4 + 1]) with boxxyerror lc rgb variable",
		    "undefine $l\($n) s\($n)"),
		($c | legend | page_line)
	 end),
	utilization($r; $n; $f),
	("<h2>Idle gaps</h2>" | page_line),
	(if $gaps == 0 then
		"<p>The GPU was never idle" + (if $r.scope then " in the scope" else "" end) + ".</p>" | page_line
	 elif .M | index("B") then
		"<p>Not drawn: the lengths of the gaps are not beside the report (gapbins.tsv, which h3report -p writes).</p>" | page_line
	 else
		("<p>The gaps in all GPU work, by length: the share of the gaps, and of the idle time, in gaps no longer than each length (in bins ten to a decade).</p>" | page_line),
		chart("\($f)-gaps"; "gaps"; 320;
		    datablock("g\($n)"; $bins[] | map(tonumber)),
		    "set xlabel \"idle gap (µs)\"",
		    "set ylabel \"percent\"",
		    "set logscale x",
		    "set yrange [0:105]",
		    "set key outside right top vertical",
		    "plot $g\($n) using ($1 / 1e3):(100.0 * $2 / \($gaps)) smooth cumulative with steps lw 1.5 lc rgb \"#0072B2\" title \"of the gaps\", \\",
		    "    '' using ($1 / 1e3):(100.0 * $3 / \($idle)) smooth cumulative with steps lw 1.5 lc rgb \"#D55E00\" title \"of the idle time\"",
		    "undefine $g\($n)")
	 end),
	("<h2>Top kernels</h2>", "<table>",
	 "<tr><th>kernel</th><th>category</th><th>launches</th><th>total ms</th><th>mean µs</th></tr>",
	 # The rows of the kernel table the reader gives, its first twenty,
	 # the names escaped as they are for h3prof(5).
	 (.K[] | split("\t") |
	    "<tr><td class=\"k\">\(.[0] | @html)</td><td>\(.[1] | @html)</td>" +
	    "<td class=\"n\">\(.[2])</td><td class=\"n\">\(.[3] | tonumber | ms)</td>" +
	    "<td class=\"n\">\(.[4] | tonumber / 1e3 | fixed(2))</td></tr>"),
	 "</table>", "</body>", "</html>" | page_line) end;

# The lines of a file that follow its tag and count.
def lines: [range(.[1:] | tonumber) | input];

gp_prelude,
(foreach inputs as $l (0; . + 1; . as $n | $l[1:] | split("\t") |
    {n: $n, name: .[0], report: .[1], J: [input[1:]], K: (input | lines),
     S: (input | lines), C: (input | lines), B: (input | lines),
     M: input[1:]}) | runpage)
