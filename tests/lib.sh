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

# ivs [-d C] LINE...: interval lines, as the filters read and write them:
# each space in a LINE stands for a tab, or each C with -d (for fields
# that hold spaces, such as kernel names).
ivs() {
	local sep=' '
	if [ "${1-}" = -d ]; then sep=$2; shift 2; fi
	printf '%s\n' "$@" | tr -- "$sep" '\t'
}

# have_reference WHAT: whether the reference program
# ($SHARED/reference/summarize_nsys_profile.py) and python3 are here to
# check WHAT against; where not, say "# skip WHAT: why".
have_reference() {
	if [ -z "$SHARED" ] ||
	    [ ! -f "$SHARED/reference/summarize_nsys_profile.py" ]; then
		echo "# skip $1: \$SHARED/reference is not here"
		return 1
	elif ! command -v python3 >/dev/null; then
		echo "# skip $1: no python3"
		return 1
	fi
}

# have_sqlite: whether SQLite files can be made here; sets sqlite_by to
# what makes them, python3 (its sqlite3 module) or the sqlite3 shell, or
# to nothing.  Call it in the test file's own shell before sqldo or mkdb:
# the answer is kept there.
have_sqlite() {
	if [ -z "${sqlite_by+set}" ]; then
		sqlite_by=
		if command -v python3 >/dev/null &&
		    python3 -c 'import sqlite3' 2>/dev/null; then
			sqlite_by=python3
		elif command -v sqlite3 >/dev/null; then
			sqlite_by=sqlite3
		fi
	fi
	[ -n "$sqlite_by" ]
}

# sqldo DB: run the SQL on stdin in the SQLite file DB.
sqldo() {
	have_sqlite || return 1
	if [ "$sqlite_by" = python3 ]; then
		python3 -c 'import sqlite3, sys
sqlite3.connect(sys.argv[1]).executescript(sys.stdin.read())' "$1"
	else
		sqlite3 -bail "$1"
	fi
}

# mkdb DB [SQLFILE...]: a new SQLite file DB, from the SQL in the files,
# or on stdin without them.
mkdb() {
	local db=$1
	shift
	rm -f "$db"
	cat "$@" | sqldo "$db"
}

# --- sweeps: what the tests of pipeline.mk share ----------------------------

# gentrace_setup: G, the trace generator: the one make built, else (a
# BIN of filters only) one compiled here.
gentrace_setup() {
	G=$BIN/../gentrace
	[ ! -x "$G" ] || return 0
	G=$TMP/gentrace
	${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -o "$G" "$TOP/tests/gentrace.c" ||
	    fail "gentrace compiles" "${CC:-cc} failed"
}

# sweep_setup: G, the trace generator; private filters and rules, which
# the tests touch; none of make's own options and variables leaking in
# from a make check.
sweep_setup() {
	gentrace_setup
	mkdir "$TMP/bin"
	cp -p "$BIN"/* "$TMP/bin/"
	cp -p "$TOP/rules/h3.rules" "$TMP/h3.rules"
	export H3PROF_BIN=$TMP/bin H3PROF_RULES=$TMP/h3.rules
	unset MAKEFLAGS MAKELEVEL MFLAGS MAKEFILES OUT REPORTS TRACES \
	    TRACES_FROM REPEAT_KEYS
}

# pmake DIR ARGS...: pipeline.mk in DIR; stdout and stderr to DIR/make.out.
pmake() {
	local d=$1
	shift
	make -C "$d" -f "$TOP/pipeline.mk" --no-print-directory "$@" \
	    >"$d/make.out" 2>&1
}

# reduced DIR [REPORTS]: the report.json files the last pmake in DIR made
# or tried to make, sorted: those of the runs its REPORT lines name, as
# DIR/REPORTS/runs.list (default: DIR/reports/runs.list) names them.
reduced() {
	awk -F'\t' 'FILENAME == ARGV[1] { report[$1] = $2; next }
	    /^  REPORT  \[ *[0-9]+\/[0-9]+\] / {
		sub(/^[^]]*\] /, ""); sub(/ .*/, ""); print report[$0] }' \
	    "$1/${2:-reports}/runs.list" "$1/make.out" 2>/dev/null | sort |
	    tr '\n' ' ' | sed 's/ $//'
}

# mtimes FILE...: the modification times of the files, to the nanosecond.
mtimes() { stat -c '%y %n' -- "$@"; }

# gen DIR PREFIX GENTRACE-OPTIONS...: a trace pair by gentrace.
gen() {
	local d=$1 p=$2
	shift 2
	mkdir -p "$d"
	"$G" "$@" -o "$d/$p"
}

# pair DIR: a tiny hand-made trace pair from lines "kind start dur stream
# name" on stdin, kernels launched 500 ns before they start.
pair() {
	mkdir -p "$1"
	awk -F' ' -v gpu="$1/cuda_gpu_trace.csv" \
	    -v kx="$1/cuda_kern_exec_trace.csv" '
	BEGIN {
		dev = "NVIDIA GeForce RTX 5090 (0)"
		print "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX," \
		    "BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB)," \
		    "Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx," \
		    "Strm,Name" >gpu
		print "API Start (ns),API Dur (ns),Queue Start (ns)," \
		    "Queue Dur (ns),Kernel Start (ns),Kernel Dur (ns)," \
		    "Total Dur (ns),PID,TID,DevId,API Function,GridXYZ," \
		    "BlockXYZ,Kernel Name" >kx
	}
	$1 == "kernel" {
		print $2 "," $3 "," NR ",1,1,1,128,1,1,32,0.000,0.000,,,,," \
		    dev ",1,," $4 "," $5 >gpu
		print $2 - 500 ",20,,," $2 "," $3 "," 500 + $3 \
		    ",1,1,0,cudaLaunchKernel,   1    1    1, 128    1    1," \
		    $5 >kx
	}
	$1 == "memcpy" {
		print $2 "," $3 "," NR ",,,,,,,,,,0.001,1.000,Pageable,Device," \
		    dev ",1,," $4 ",[CUDA memcpy Host-to-Device]" >gpu
	}'
}

# --- NVTX ranges: what tests/nvtx*.test share ---------------------------------

# nvtx_figures: of inrange's facts on stdin, each range name with GPU
# work, its kernel launches, kernel time and projected time, tab-separated,
# sorted bytewise by name: the figures of nsys's nvtx_kern_sum and
# nvtx_gpu_proj_sum that tests/data/nvtx/nsys holds.
nvtx_figures() {
	awk -F'\t' -v OFS='\t' '
	{ split($1, k, ".") }
	k[3] == "name" { name[k[2]] = $2 }
	k[4] != "" { next }
	k[3] == "kernel_launches" { n[k[2]] = $2 }
	k[3] == "kernel_time_ns" { ns[k[2]] = $2 }
	k[3] == "projected_time_ns" { p[k[2]] = $2 }
	END {
		for (i in name)
			if (n[i] > 0 || p[i] > 0)
				print name[i], n[i], ns[i], p[i]
	}' | LC_ALL=C sort
}

# nvtx_real: the real exports with NVTX ranges, as "NAME PATH" lines, and
# the nsys reports that tests/data/nvtx/nsys/NAME.tsv was made from.
nvtx_real() {
	local r=$SHARED/traces/real
	printf '%s\n' \
	    "dlprof $r/dlprof-rtx2070s-cudnn-nsys2022.1/derived-by-nsys-2024.2.3/nsys_profile.sqlite" \
	    "memfusion $r/memfusion-rtx3090-tensorrt-nsys2023.1/report1.sqlite" \
	    "casio $r/casio-nerf-a100-tf-nsys2021.5/output-file.sqlite"
}

# step_ranges KEXEC_CSV: an nvtx_pushpop_trace CSV, on stdout, of ranges
# "step" over a gentrace run: each from the launch of a step's first
# kernel, its sin kernel, to just before the next one's, the last to the
# end of the last launch, on the thread that launched them.
step_ranges() {
	"$BIN/nvtxranges" -t launch "$1" | awk -F'\t' '
	BEGIN { print "Start (ns),End (ns),Name,PID,TID" }
	$10 ~ /sin_kernel_cuda/ {
		if (n++) printf "%d,%d,step,%s,%s\n", start, $1 - 1, id[1], id[2]
		start = $1
		split($3, id, ":")
	}
	{ last = $2 > last ? $2 : last }
	END { if (n) printf "%d,%d,step,%s,%s\n", start, last, id[1], id[2] }'
}
