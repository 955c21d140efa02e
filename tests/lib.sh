# tests/lib.sh: the assertions the test files use.  Sourced by tests/run.
#
# Each assertion prints "ok - WHAT" or "not ok - WHAT" with the evidence;
# tests/run counts them.  A test file is a specification: one assertion per
# property, named by what it states.

# Files a test makes go here; tests/run removes it afterwards.
: "${TMP:?}"

# pass WHAT / fail WHAT [DETAIL...]: record one result.
pass() { printf 'ok - %s\n' "$1"; }
fail() {
	printf 'not ok - %s\n' "$1"
	shift
	[ $# -eq 0 ] || printf '#   %s\n' "$@"
}

# expect_eq WHAT WANT GOT
expect_eq() {
	if [ "$2" == "$3" ]; then pass "$1"
	else fail "$1" "want: $2" " got: $3"; fi
}

# expect_same_file WHAT WANT_FILE GOT_FILE
expect_same_file() {
	if cmp -s "$2" "$3"; then pass "$1"
	else fail "$1" "$(diff "$2" "$3" | head -n 20)"; fi
}

# expect_ok WHAT CMD...: CMD exits 0.
expect_ok() {
	local what=$1 rc=0
	shift
	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	if [ $rc -eq 0 ]; then pass "$what"
	else fail "$what" "exit $rc" "$(head -c 600 "$TMP/err")"; fi
}

# expect_error WHAT STATUS PATTERN CMD...: CMD exits STATUS and says,
# on stderr, something matching the extended regular expression PATTERN.
expect_error() {
	local what=$1 status=$2 pattern=$3 rc=0
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	if [ $rc -ne "$status" ]; then
		fail "$what" "want exit $status, got $rc" "$(head -c 600 "$TMP/err")"
	elif ! grep -Eq -- "$pattern" "$TMP/err"; then
		fail "$what" "stderr does not match: $pattern" "$(head -c 600 "$TMP/err")"
	else pass "$what"; fi
}

# run_filter CMD...: run a filter with stdout to $TMP/out, stderr to $TMP/err.
run_filter() { "$@" >"$TMP/out" 2>"$TMP/err"; }
