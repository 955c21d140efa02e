# h3compare.jq: the jq programs of h3compare(1), each a definition that
# h3compare calls by name after `include "h3compare";` (h3lib.sh's h3_jq
# finds it): sweep, configs, figures, gated_absent, settings, compare,
# markdown and said.
include "h3";

# A name as figure lines hold it: escaped as h3prof(5) escapes names.
def escaped: gsub("\\\\"; "\\\\") | gsub("\t"; "\\t") | gsub("\n"; "\\n")
	| gsub("\r"; "\\r");
def unescaped: gsub("\\\\(?<c>.)"; {t: "\t", n: "\n", r: "\r"}[.c] // .c);

# A configuration's key: its JSON text, keys sorted, so that the same
# configuration has one key in both sweeps.
def key: to_entries | sort_by(.key) | from_entries | tojson;
def conflabel: to_entries | map("\(.key)=\(.value)") | join(",");
# A group's key: its configuration's, or, for a group of no settings,
# which the summary makes of each such run alone, its run's name.
def groupkey: if .config == {} and .label != null then
	{"(run)": .label} | tojson else .config | key end;
# A kernel's figure, kernels.CATEGORY.NAME.MEASURE, in its parts: a name
# may hold dots and newlines, a category and a measure neither.
def kernel: split(".") | {category: .[1], name: (.[2:-1] | join(".")),
	measure: .[-1]};

# A report's scope -> the setting that made it, as a summary's scope
# records it: {range, skip} or {window}; null for none.
def scopesetting: if type != "object" then null
	elif has("range") then {range, skip: (.skip // 0)}
	elif has("window") then {window} else . end;

# A scope in words within a sentence: "scoped by ...", or "unscoped".
def scope_phrase: scope_words // "unscoped" | (.[:1] | ascii_downcase) + .[1:];

# A summary or a report -> {runs, groups, failed, scope, stamp}, as
# h3summary makes them; a report is a sweep of one run, its
# configuration without -r's keys.  A summary made before summaries
# recorded their scope has it from its reports.
def sweep($repeat):
	# A number that is not finite stays a string, which the figures tell:
	# jq would write NaN as null and infinity as the largest double.
	walk(if type == "number" and isnan then "NaN"
	     elif type == "number" and isinfinite then
		(if . > 0 then "Infinity" else "-Infinity" end)
	     else . end)
	| if has("groups") then {runs, groups, failed: (.failed | length),
		stamp: (.stamp // null),
		scope: (if has("scope") then .scope else
		    [.runs[]? | .scope | scopesetting] | unique
		    | if length <= 1 then .[0] else . end end)}
	else ($repeat | split(" ") | map(select(. != "") | [.])) as $rk
	| {runs: [.], failed: 0, stamp: null, scope: (.scope | scopesetting),
	   groups: [{config: (.run.config | delpaths($rk)), runs: [.run.name],
		label: .run.name,
		figures: (del(.run, .streams, .top_kernels)
		    | [paths(type == "number" or type == "null")
			| map(tostring) | join(".") | {(.): {}}] | add // {})}]}
	end;

# A sweep -> "key tab label tab runs tab config" of each configuration
# ($same the key of each, for two runs compared whatever their
# configurations; the label of a configuration without settings is its
# run's name, as the summary's), then "run tab name tab key" of each run,
# its name escaped as kernel tables hold it.
def configs($same):
	.groups[] | ($same // groupkey) as $k
	| "\($k)\t\(if .config == {} then .label // "" else .config | conflabel
	    end)\t\(.runs | length)\t\(.config | tojson)",
	  (.runs[] | "run\t\(escaped)\t\($k)");

# A report -> its figure $f, a path of parts joined by dots; nothing
# where the report has no such figure at all (null is a value).
def figure($f): ($f | split(".")) as $p
	| reduce $p[:-1][] as $part (.;
	    if type == "object" then .[$part] else null end)
	| if type == "object" and has($p[-1]) then .[$p[-1]] else empty end;

# A sweep -> the figure lines of its runs, from $file, each name escaped
# as h3prof(5) says; the kernels of its reports' top_kernels too unless
# $tabled (a kernel table has them all).  The figures are those of
# $known, a figure of either side: a run's value of one is a number; null
# only in a percentage (of nothing: reportjson writes null where the
# whole is 0); a time is never negative.  Any other value is an error
# naming the run.
def figures($file; $known; $same; $tabled):
	def bad($run; $f; $what): error("\($file): run \($run | shown): figure "
		+ "\($f | shown) \($what)");
	(.runs | map({(.run.name): .}) | add // {}) as $reports
	| .groups[] | ($same // groupkey) as $k
	| .runs[] | $reports[.] as $r
	| ($known[] | . as $f | $r | figure($f)
	    | if type == "number" then
		if . < 0 and ($f | test("(_ns|milliseconds)$")) then
		    bad($r.run.name; $f; "is \(.), a negative time")
		else "\($k)\t\($f | escaped)\t\(.)" end
	      elif . == null then
		if $f | test("percent[^.]*$") then empty
		else bad($r.run.name; $f; "is null, not a number") end
	      else bad($r.run.name; $f; "is \(tojson | .[:40]), not a number")
	      end),
	  (if $tabled then empty
	   else $r.top_kernels[]?
		| "kernels.\(.category).\(.name | escaped)" as $f
		| "\($k)\t\($f).total_ns\t\(.total_ns)",
		  "\($k)\t\($f).launches\t\(.launches)" end);

# Whether a figure (a name as figure lines hold it, or unescaped) of
# figdiff's verdict gates a configuration compared, so that new's runs
# must have it: a kernel's is aside.
def gates($figure; $verdict): ($figure | startswith("kernels.") | not)
	and ($verdict
	    | test("^(regression|improvement|unchanged|changed|missing)$"));

# A sweep -> {key, figure, run} of each figure of $figures that a run
# of it does not have at all (null is a value): how a figure that gates
# in base and is missing in new is told, naming the runs.
def absent($figures; $same):
	(.runs | map({(.run.name): .}) | add // {}) as $reports
	| .groups[] | ($same // groupkey) as $k
	| .runs[] | . as $name | $reports[$name] as $r
	| $figures[] | . as $f
	| select([$r | figure($f)] == [])
	| {key: $k, figure: $f, run: $name};

# A sweep, new, and figdiff's output $cmp -> absent's {key, figure, run}
# for each figure that gates in $cmp: the gate fails on them.  The
# figures are named as the reports name them: unescaped.
def gated_absent($cmp; $same):
	([$cmp | split("\n")[] | split("\t")
	    | select(length > 2 and gates(.[1]; .[2])) | .[1] | unescaped]
	    | unique) as $gated
	| absent($gated; $same);

# The settings that are not the default, $given, as h3compare gathers
# them (lines of setting, value and origin, tab-separated), and the lines
# of the tolerance file $tolfile (its text) at $tolpath: each line that
# gates is a setting too, from the file.  -> {setting, value, origin,
# text} each, text as a user writes it.
def settings($given; $tolfile; $tolpath):
	[$given | split("\n")[] | select(. != "") | split("\t")
	    | {setting: .[0], value: .[1], origin: .[2],
	       text: (if .[0] | startswith("-") then "\(.[0]) \(.[1])"
		   | rtrimstr(" ") else "\(.[0])=\(.[1])" end)}]
	+ [$tolfile | split("\n") | to_entries[]
	    | (.value | sub("#.*"; "") | gsub("^[ \t\r]+|[ \t\r]+$"; ""))
		as $text
	    | select($text != "")
	    | ($text | capture("^(?<glob>[^ \t]+)[ \t]+(?<rest>.*)$")) as $m
	    | {setting: $m.glob, value: ($m.rest | gsub("[ \t]+"; " ")),
	       origin: "tolerance file \($tolpath), line \(.key + 1)",
	       text: "\($m.glob) \($m.rest | gsub("[ \t]+"; " "))"}];

# figdiff's lines, and the configurations of both sides -> compare.json.
def compare($cmp; $confs; $base; $new; $alpha; $tolerance;
    $allowmissing; $absent; $settings; $scopesdiffer):
	def num: if . == "-" then null else tonumber end;
	def side($f): if $f[0] == "-" then null
		else {n: ($f[0] | tonumber), mean: ($f[1] | num),
		      stddev: ($f[2] | num)} end;
	# The three of the comparisons . (an array of {id, c}: the fields that
	# name comparison c) whose mean grew most in regression $r's
	# configuration, named by their ids, with their share of $r's change
	# ($unit of theirs to one of $r's).
	def grown($r; $unit):
		[.[] | ((.c.new.mean // 0) - (.c.base.mean // 0)) as $d
		    | select($d > 0)
		    | .id + {base: (.c.base.mean // 0), new: (.c.new.mean // 0),
		       change: $d, share_percent: (if $r.change == 0 then null
			   else $d / ($r.change * $unit) * 100 end)}]
		| sort_by(-.change) | .[:3];
	# The kernels whose change explains most of a regression of a figure of
	# kernel time or launches: those of its category for a component's, all
	# for the totals; the others no kernel explains.
	def explain($cmps):
		. as $r
		| ([$r.figure | capture("^components\\.(?<c>[^.]*)\\.") | .c]
		    | first) as $cat
		| (if $r.figure | test("^(components\\.[^.]*\\.milliseconds"
		      + "|kernel_time_ns|gpu_span_ns)$") then "total_ns"
		   elif $r.figure | test("^(components\\.[^.]*\\.launches"
		      + "|kernel_count)$") then "launches"
		   else null end) as $m
		| if $m == null then [] else
		  [$cmps[] | select(.configuration == $r.configuration
			and (.figure | startswith("kernels.")))
		    | (.figure | kernel) as $k
		    | select($k.measure == $m
			and ($cat == null or $k.category == $cat))
		    | {id: {kernel: $k.name, category: $k.category}, c: .}]
		  | grown($r; if $r.figure | endswith("milliseconds") then 1e6
		      else 1 end) end;
	# The parts of the time account that grew most in a regression of the
	# span (any part) or of idle time (the idle parts): why the GPU took
	# longer, where kernels say only which ran longer.  sweepsum's
	# why_parts is the span's, against the fastest (judge.c, grownparts);
	# tests/summarywhy.test holds the two equal.
	def explain_parts($cmps):
		. as $r
		| (if $r.figure == "gpu_span_ns" then "time_account.parts."
		   elif $r.figure == "idle_gaps.total_ns" then
		       "time_account.parts.idle_"
		   else null end) as $p
		| if $p == null then [] else
		  [$cmps[] | select(.configuration == $r.configuration
			and (.figure | startswith($p)))
		    | {id: {part: (.figure | ltrimstr("time_account.parts."))},
		       c: .}]
		  | grown($r; 1) end;

	($confs | split("\n") | map(select(. != "") | split("\t"))) as $c
	| ($c | map(select(.[0] == "base" and .[1] != "run")
	    | {(.[1]): {label: .[2], config: (.[4] | fromjson)}}) | add // {})
	    as $bl
	| ($c | map(select(.[0] == "new" and .[1] != "run")
	    | {(.[1]): {label: .[2], config: (.[4] | fromjson)}}) | add // {})
	    as $nl
	# A figure missing in new is only in base where it does not gate,
	# or is a kernel's (which a table's runs ran 0 times and the top
	# ten may leave out).  Figure lines hold names escaped; from here
	# on a figure is named as the reports name it, as $absent does.
	| (reduce $absent[] as $a ({}; .["\($a.key)\t\($a.figure)"] += [$a.run]))
	    as $lacking
	| [$cmp | split("\n")[] | select(. != "") | split("\t")
	    | ($nl[.[0]] // $bl[.[0]]) as $conf
	    | .[2] as $v | (.[1] | unescaped) as $f
	    | {configuration: $conf.label, config: $conf.config,
	       key: .[0], figure: $f,
	       verdict: (if $v == "missing" and (($f | startswith("kernels."))
		    or ($lacking["\(.[0])\t\($f)"] | length) == 0)
		   then "only-base" else $v end),
	       base: side(.[3:6]), new: side(.[6:9]), change: (.[9] | num),
	       change_percent: (.[10] | num), t: (.[11] | num),
	       df: (.[12] | num), p_value: (.[13] | num),
	       q_value: (.[14] | num)}] as $all
	| ($all | map(select(.figure == ""))) as $one
	| ($all | map(select(.figure != "") | del(.config, .key))) as $cmps
	| ([$one[] | select(.verdict == "only-base") | .configuration])
	    as $missing
	# The figures that gate in a configuration compared, and that some
	# of new's runs of it lack: the gate fails closed on them.
	| [$all[] | select(.figure != "" and gates(.figure; .verdict))
	    | {configuration, figure,
	       runs: ($lacking["\(.key)\t\(.figure)"] // [])}
	    | select(.runs | length > 0)] as $lost
	| ([$all[] | select(.figure != "")] | map(.configuration) | unique
	    | length) as $ncompared
	| (($base.scope | tojson) != ($new.scope | tojson)) as $rescoped
	| def entry: {configuration, figure, base: .base.mean, new: .new.mean,
		change, change_percent, p_value, q_value, n_base: .base.n,
		n_new: .new.n};
	{base: $base, new: $new, alpha: ($alpha | tonumber),
	   tolerance: (if $tolerance == "" then null else $tolerance end),
	   test: ("Welch's t-test, two-sided, where both sides have two runs"
	       + " or more"),
	   correction: "Benjamini-Hochberg, over every test that gates",
	   configurations: (
	     [$all | group_by(.configuration)[] | .[0]
		| {configuration, config,
		   status: (if .figure != "" then "compared"
			    elif .verdict == "only-base" then "only in base"
			    else "only in new" end)}]),
	   comparisons: $cmps,
	   regressions: [$cmps[] | select(.verdict == "regression") | entry
		| . + {explained_by: explain($cmps),
		    explained_by_parts: explain_parts($cmps)}],
	   improvements: [$cmps[] | select(.verdict == "improvement") | entry],
	   missing_in_new: $missing,
	   missing_allowed: $allowmissing,
	   missing_figures: $lost,
	   scopes_differ: $rescoped,
	   scopes_may_differ: $scopesdiffer,
	   settings: $settings,
	   counts: (reduce ($cmps[] | select((.figure | startswith("kernels."))
		    and (.verdict | test("^(ungated|only-)")) | not)
		| .verdict) as $v ({regression: 0, improvement: 0, changed: 0,
		    unchanged: 0, ungated: 0, missing: 0, "only-base": 0,
		    "only-new": 0};
		    .[$v] += 1)
		| . + {tests: ($cmps | map(select(.q_value != null)) | length),
		    gated: ($cmps | map(select(.verdict
			| test("^(ungated|only-)") | not)) | length),
		    explaining: ($cmps | map(select(.verdict == "ungated"))
			| length),
		    kernel_figures: ($cmps | map(select(.figure
		    | startswith("kernels."))) | length)}),
	   gated_figures: ([$cmps[]
		| select(.verdict | test("^(ungated|only-)") | not)
		| .figure | sub("^components\\.[^.]*\\."; "components.*.")
		| if startswith("kernels.") then "kernels.*.\(kernel.measure)"
		  else . end]
		| unique)}
	# Why the gate fails, each reason a phrase; none: it passes.
	| . + {failures: [
		(.regressions | length | select(. > 0) | plural(.; "regression")),
		($missing | length | select(. > 0 and ($allowmissing | not))
		    | plural(.; "configuration") + " of base missing in new"),
		($lost | length | select(. > 0) | plural(.; "gated figure")
		    + " of base missing in runs of new"),
		(select($ncompared == 0) | "no configuration compared"),
		(select($rescoped and ($scopesdiffer | not))
		    | "base and new are of different scopes")]}
	| . + {passed: ((.failures | length) == 0)};

# compare.json -> compare.md, sized for a pull-request comment.
def markdown($max):
	# x with d decimals, as text: no float noise from jq's printing.
	def fixed($d): if . < 0 then "-" + (-. | fixed($d)) else
		(. * pow(10; $d) | round | tostring) as $s
		| if $d == 0 then $s else
		  ("0" * ($d + 1 - ($s | length)) + $s) as $z
		  | $z[:-$d] + "." + $z[-$d:] end end;
	# Three significant digits, at least the units.
	def sig3: if . == floor then tostring else
		(fabs | log10 | floor) as $e
		| fixed(if $e >= 2 then 0 else 2 - $e end) end;
	# A figure's value in ns, if it is a time; else null.
	def ns($f): if $f | endswith("_ns") then .
		elif $f | endswith("milliseconds") then . * 1e6 else null end;
	# A time in the unit that reads: ms from 1 ms, µs from 1 µs, else ns.
	def time: fabs as $a
		| if $a >= 1e6 then "\(. / 1e6 | sig3) ms"
		  elif $a >= 1e3 then "\(. / 1e3 | sig3) µs"
		  else "\(sig3) ns" end;
	def percentage($f): $f | test("percent[^.]*$");
	def value($f): if . == null then "-"
		elif ns($f) != null then ns($f) | time
		elif percentage($f) then "\(sig3)%" else sig3 end;
	def signed($f): (if . > 0 then "+" else "" end) + (if percentage($f)
		then "\(sig3) pp" else value($f) end);
	# What an explaining kernel's change counts: launches or time.
	def kunit: if .figure | test("(launches|kernel_count)$") then "launches"
		else "_ns" end;
	# Text for Markdown and the HTML it may hold, as a table cell: control
	# characters shown, HTML's specials as entities, and what makes a link,
	# a code span or a cell escaped.
	def cell: tostring | gsub("\n"; " ") | shown | gsub("&"; "&amp;")
		| gsub("<"; "&lt;") | gsub(">"; "&gt;")
		| gsub("(?<c>[\\\\`\\[\\]|])"; "\\\(.c)");
	# A kernel's name shortened: no "void", namespaces of no name,
	# template arguments or parameters.
	def kshort: sub("^void "; "")
		| gsub("<unnamed>::|\\(anonymous namespace\\)::"; "")
		| (split("(")[0] | split("<")[0]) as $s
		| (if $s == "" then . else $s end)
		| if length > 50 then .[:49] + "…" else . end;
	# Text for a code span: there nothing is markup, and only a backtick
	# would end it.
	def kcode: gsub("\n"; " ") | shown | gsub("`"; "'");
	# The names compare.md shows of the kernels it names, each unique:
	# shortened, and where two shorten alike, numbered (#1, #2, in the
	# order of their full names), which "Kernel names" lists in full.
	([(.regressions[:$max][], .improvements[:$max][]) | .figure
	    | select(startswith("kernels.")) | kernel.name]
	    + [.regressions[:$max][] | .explained_by[]?.kernel]
	    | unique | group_by(kshort)
	    | map(if length == 1 then {(.[0]): (.[0] | kshort)}
		  else to_entries | map({(.value):
		    "\(.value | kshort) #\(.key + 1)"}) | add end)
	    | add // {}) as $knames
	| def kname: ($knames[.] // kshort) | kcode;
	def pv($v): if $v < 0.001 then "< 0.001" else $v | fixed(3) end;
	def p: if .p_value == null then "n = 1: untested" else pv(.p_value) end;
	def q: if .q_value == null then "-" else pv(.q_value) end;
	# A figure's name as a cell; a kernel's name shortened in it.
	def fcell: if startswith("kernels.") then kernel
		| "kernels.\(.category | cell)."
		+ "`\(.name | kname | gsub("\\|"; "\\|"))`.\(.measure | cell)"
	  else cell end;
	def row: .figure as $f
		| "| \(.configuration | cell) | \($f | fcell) | "
		+ "\(.n_base) → \(.n_new) | \(.base | value($f)) | "
		+ "\(.new | value($f)) | \(.change | signed($f))"
		+ (if .change_percent == null then "" else
		    " (\(if .change_percent > 0 then "+" else "" end)"
		    + "\(.change_percent | fixed(1))%)" end)
		+ " | \(p) | \(q) |";
	def table($rows):
		"| configuration | figure | n | base | new | change | p"
		    + " | p adjusted |",
		"| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
		($rows[:$max][] | row),
		(if ($rows | length) > $max then
		    "",
		    "… and \(($rows | length) - $max) more in compare.json."
		 else empty end);
	# What an explaining figure grew by, in unit $u, and its share.
	def grew($u): "\(.change | signed($u))"
		+ (if .share_percent == null then ""
		   else " (\(.share_percent | fixed(0))%)" end);
	def only($status): [.configurations[] | select(.status == $status)];

	def scopecell: scope_phrase | cell;

	.counts as $n
	| "## h3compare: \(.base.path | cell) → \(.new.path | cell)", "",
	  "**\(if .passed then "Passed: \(plural($n.regression; "regression"))"
		else "Failed: \(.failures | join("; "))" end)**, "
	    + "\(plural($n.improvement; "improvement")), "
	    + "in \(plural(only("compared") | length; "configuration"))"
	    + " compared"
	    + (if (.missing_in_new | length) > 0 then
		", \(.missing_in_new | length) missing in new"
		+ (if .missing_allowed then " (allowed)" else "" end)
	       else "" end)
	    + ".",
	  (if (.settings | length) > 0 then
	    "", "Settings not the default: " + (.settings
		| map("`\(.text | kcode)` from \(.origin | cell)") | join("; "))
		+ "."
	   else empty end),
	  (if .scopes_differ then
	    "", "Scopes differ: base \(.base.scope | scopecell); new "
	    + "\(.new.scope | scopecell)"
	    + (if .scopes_may_differ then "; compared as SCOPES=differ allows."
	       else ": figures of two scopes are not of one kind; make the "
		 + "reports of one scope, or allow it with SCOPES=differ." end)
	   elif .new.scope != null then
	    "", "Both \(.new.scope | scope_phrase | cell)."
	   else empty end),
	  (if (.missing_figures | length) > 0 then
	    "", "### Figures missing in new", "",
	    "These figures gate in base and are missing in these runs of "
	    + "new: the gate fails closed.", "",
	    (.missing_figures[] | "- \(.configuration | cell), "
		+ "\(.figure | cell): \(.runs | map(cell) | join(", "))")
	   else empty end),
	  (if (.regressions | length) > 0 then
	    "", "### Regressions", "", table(.regressions),
	    (.regressions[:$max][] | select(.explained_by | length > 0)
		| kunit as $u
		| "", "- \(.configuration | cell), \(.figure | fcell): "
		+ (.explained_by | map("`\(.kernel | kname)` " + grew($u))
		    | join(", "))),
	    (.regressions[:$max][] | select(.explained_by_parts | length > 0)
		| "", "- \(.configuration | cell), \(.figure | fcell), "
		+ "by the time account: "
		+ (.explained_by_parts | map("`\(.part)` " + grew("_ns"))
		    | join(", ")))
	   else empty end),
	  (if (.improvements | length) > 0 then
	    "", "### Improvements", "", table(.improvements)
	   else empty end),
	  (if (only("only in base") | length) > 0 then
	    "", "### Missing in new", "",
	    "These configurations of base are not in new: "
	    + (if .missing_allowed then "allowed (MISSING=ok)."
	       else "the gate fails unless MISSING=ok." end), "",
	    (only("only in base")[] | "- \(.configuration | cell)")
	   else empty end),
	  (if (only("only in new") | length) > 0 then
	    "", "### Only in new", "",
	    (only("only in new")[] | "- \(.configuration | cell)")
	   else empty end),
	  (if .base.kernels == "top_kernels" or .new.kernels == "top_kernels"
	   then
	    "", "Kernels of \([.base, .new]
		| map(select(.kernels == "top_kernels") | .path | cell)
		| join(" and ")): the top ten of each report, "
	    + "as there is no kernels.tsv."
	   else empty end),
	  ($knames | to_entries | map(select(.value | test(" #[0-9]+$")))
	    | if length > 0 then
		"", "Kernel names shortened alike, in full:", "",
		(sort_by(.value)[] | "- `\(.value | kcode)`: `\(.key | kcode)`")
	      else empty end),
	  "", "Gated: \($n.gated) figures ("
	    + "\(.gated_figures | map(cell) | join(", "))), "
	    + "Welch's t-test at alpha \(.alpha), Benjamini-Hochberg over its "
	    + "\($n.tests) tests where both sides have repeats; tolerance "
	    + "\(if .tolerance == null then "5%"
		 else "of \(.tolerance | cell)" end)."
	    + "  Only explain: \($n.explaining) figures "
	    + "(maxima, percentiles, counts, shares and kernels, unless the "
	    + "tolerance file gates them).";

# compare.json -> what h3compare says last: on stderr, the scopes of base
# and new if they differ and may not; then whether the gate passed.
def said($prog):
	(select(.scopes_differ and (.scopes_may_differ | not))
	| "\($prog): base \(.base.path | shown) is \(.base.scope
	    | scope_phrase); new \(.new.path | shown) is \(.new.scope
	    | scope_phrase): compare reports of one scope, or set SCOPES=differ"
	    + " (h3compare -d)"), .passed;
