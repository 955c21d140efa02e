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
