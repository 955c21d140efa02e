# h3.jq: the jq definitions the scripts share, read with h3lib.sh's h3_jq
# and `include "h3";`.

# Text fit for a terminal, as h3lib.sh's h3_shown shows a name: each byte
# of a control character (C0, DEL, C1) as \ooo in octal.  A backslash
# stays one: errors hold names their scripts have shown so already.
def shown:
	def octal: [92, 48 + (. / 64 | floor), 48 + ((. / 8 | floor) % 8),
	    48 + (. % 8)];
	explode
	| map(if . < 32 or . == 127 then octal
	      elif . >= 128 and . < 160 then (194 | octal) + octal
	      else [.] end)
	| add // [] | implode;

# A number with $d digits after the point, as text; null as "".
def fixed($d):
	if . == null then "" else
	(. * pow(10; $d) | round) as $r
	| ($r | fabs | tostring | until(length > $d; "0" + .)) as $s
	| ($s | length) as $l
	| (if $r < 0 then "-" else "" end) + $s[0:$l - $d]
	  + (if $d > 0 then "." + $s[$l - $d:] else "" end) end;

# A time in ns as ms with three digits; null as "".
def ms: if . == null then "" else . / 1e6 | fixed(3) end;

# --- the pages (h3runpage, h3index) ---------------------------------------
#
# The page programs' jq writes one stream of tagged lines, which
# h3pages.awk turns into pages once gnuplot has drawn the charts: F PATH
# starts a page file, P a line of it, G a line of gnuplot's script.

# An empty text is one empty line: jq 1.6 splits "" into no line at all,
# which lost the blank lines that part the blocks of a datablock.
def tagged($tag): if . == "" then $tag else split("\n")[] | $tag + . end;
def page_line: tagged("P");
def gp_line: tagged("G");

# The width of the charts, and of the columns of a run's timeline strip
# (reduce.mk draws it so wide), in pixels.
def page_width: 960;

# Text as a gnuplot string: in single quotes, which take nothing but ''
# as an escape, so that a label is read whole whatever it holds (in a
# data file gnuplot would end it at a "); control characters shown.
def gp_quote: "'" + (shown | gsub("'"; "''")) + "'";

# Text as a relative link: the characters a path may hold that a URL
# would take for something else percent-encoded.
def href:
	explode | map(if . <= 32 or . == 34 or . == 35 or . == 37 or
	    . == 58 or . == 60 or . == 62 or . == 63 or . == 92 or . == 94 or
	    . == 96 or (. >= 123 and . <= 125) or . == 127 then
	    "%" + ("0123456789ABCDEF"[. / 16 | floor:(. / 16 | floor) + 1] +
		"0123456789ABCDEF"[. % 16:. % 16 + 1])
	else [.] | implode end) | join("");

# The colours of the categories of an array of their names, in the order
# of the rules: Okabe and Ito's palette, which colour-blind readers tell
# apart, in turn; other is grey.  An object, category: "RRGGBB".
def palette: ["0072B2", "E69F00", "009E73", "CC79A7", "56B4E9", "D55E00",
	"F0E442", "000000"];
def colours:
	reduce .[] as $c ({i: 0, m: {}};
	    if $c == "other" then .m[$c] = "999999"
	    else .m[$c] = palette[.i % (palette | length)] | .i += 1 end) | .m;
# RRGGBB as the number gnuplot's "rgb variable" takes.
def rgb: explode | reduce .[] as $c (0;
	. * 16 + (if $c >= 65 then $c - 55 else $c - 48 end));

# The parts of the time account (h3prof(5)), in the report's order, each
# [key, label, colour]: the same colours on every page.  The GPU's work
# takes the palette's colours, the idle causes greys, darker the more the
# CPU is to blame.
def account_parts: [
	["compute_ns", "compute", "0072B2"],
	["communication_ns", "exposed communication", "CC79A7"],
	["memcpy_htod_ns", "copy host to device", "E69F00"],
	["memcpy_dtoh_ns", "copy device to host", "D55E00"],
	["memcpy_dtod_ns", "copy device to device", "F0E442"],
	["memcpy_peer_ns", "copy peer to peer", "56B4E9"],
	["memcpy_other_ns", "copy, other kind", "8C6D31"],
	["memset_ns", "memset", "009E73"],
	["other_ns", "other GPU work", "AD8BC9"],
	["idle_host_ns", "idle: host-bound", "333333"],
	["idle_launch_ns", "idle: in the launch call", "777777"],
	["idle_queued_ns", "idle: queued", "B0B0B0"],
	["idle_unknown_ns", "idle: cause unknown", "DCDCDC"]];

# The parts of account_parts that are not 0 in one at least of an array
# of parts objects (a part missing counts as 0).
def account_present($parts):
	[account_parts[] | .[0] as $k |
	    select(any($parts[]; (.[$k] // 0) != 0))];

# The colour key of the categories of a colours object.
def legend:
	"<ul class=\"legend\">",
	(to_entries[] | "<li><span class=\"swatch\" style=\"background:#" +
	    .value + "\"></span>" + (.key | @html) + "</li>"),
	"</ul>";

# The start of gnuplot's script: a chart drawn to nowhere.  A chart's SVG
# differs as the first of its process (a stroke of currentColor, else
# black): after this one, a page is the same bytes whichever batch draws
# it, first or not.
def gp_prelude:
	"set terminal svg size 100,100", "set output \"/dev/null\"",
	"set yrange [0:1]", "plot 0.5", "unset output" | gp_line;

# Rows (arrays of numbers) as gnuplot's datablock $NAME.
def datablock($name; rows): "$\($name) << EOD", (rows | @tsv), "EOD";

# A chart: gnuplot draws the commands of body (lines, reading the
# datablocks they define) as FILE.svg, an SVG of the page's width and
# $height, and the page takes it in its place, its ids prefixed with $id
# (unique in a page; FILE is unique in the batch).
def chart($file; $id; $height; body):
	("reset",
	 "set terminal svg size \(page_width),\($height) noenhanced font \"sans,11\" background rgb \"white\"",
	 "set output \"\($file).svg\"",
	 "set datafile separator \"\\t\"",
	 "set border 3", "set tics nomirror", "set key noautotitle",
	 body, "unset output" | gp_line),
	("<!-- chart \($file) \($id) -->" | page_line);

# A page's start, up to its body, with the title $title.
def page_head($title):
	"<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\" />
<title>\($title | @html)</title>
<style>
body { font-family: sans-serif; margin: 1em 2em; }
p, ul { max-width: \(page_width)px; }
div.wide { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.15em 0.5em; border-bottom: 1px solid #ddd; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th { text-align: left; vertical-align: bottom; }
table.configs { font-size: 90%; }
table.configs th, table.configs td { padding: 0.15em 0.3em; }
td.k { font-family: monospace; font-size: 85%; word-break: break-all; }
table.configs th:first-child, table.configs td:first-child { position: sticky; left: 0; background: white; min-width: 12em; max-width: 24em; }
span.sd { display: block; font-size: 85%; }
span.runs { font-size: 85%; }
td.v { min-width: 12em; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: middle; }
ul.legend { list-style: none; padding: 0; }
ul.legend li { display: inline-block; margin-right: 1.2em; }
</style>
</head>
<body>" | page_line;

# A count and its noun, one or many: 1 run, 2 runs.
def plural($n; $word): "\($n) \($word)\(if $n == 1 then "" else "s" end)";

# A scope in words, as a report's scope or a summary's records it (its
# setting: range and skip, or window), from "Scoped by": null where
# there is none; of a summary whose reports differ, each of them.
def scope_words:
	def bound: if endswith("%") then "\(.) of the span"
		else "\(.) ns from the first GPU operation" end;
	if . == null then null
	elif type == "array" then "Of different scopes: "
		+ (map(scope_words // "unscoped") | join("; "))
	elif has("range") then "Scoped by RANGE=\(.range)"
		+ (if (.skip // 0) > 0 then " SKIP=\(.skip)" else "" end)
		+ ": the GPU work launched in the NVTX ranges so named"
		+ (if (.skip // 0) > 0 then
		    ", the first \(plural(.skip; "instance")) skipped"
		   else "" end)
	elif has("window") then (.window | split(":")) as $b
		| "Scoped by WINDOW=\(.window): the GPU work that starts "
		+ "between \($b[0] | bound) and \($b[1] // "" | bound)"
	else "Scoped: \(tojson)" end;
