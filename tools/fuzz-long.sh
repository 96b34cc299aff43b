#!/bin/sh
# fuzz-long.sh [--runs N] [--fork J] BUILD SECONDS LOG [TARGET...]: run every libFuzzer
# target of BUILD (BUILD/tests/fuzz_*, from `make fuzz`) for SECONDS each,
# one after another, and write one line per target to LOG:
#
#   target  execs  execs/s  cov  ft  corpus  crashes  seconds  cpu_s
#
# cpu_s is the target's CPU time (user and system): on a shared machine
# execs/cpu_s is the target's speed, execs/s mostly the machine's load.
#
# Each target starts from its saved corpus (tests/fuzz/corpus/NAME/, never
# written) and keeps what it finds in tests/fuzz/corpus/NAME-new/ (ignored
# by git); a crash, leak or timeout input is written to
# BUILD/fuzz-artifacts/NAME/ and named in LOG.  A crashing input worth
# keeping goes into tests/fuzz/corpus/NAME/ (not as crash-*: .gitignore
# drops those) so that every build replays it.  Exits 1 when any target
# found one.  Targets may be named to run only those.
#
# --runs N stops each target after N executions (libFuzzer -runs=N); SECONDS
# is then only a cap, and 0 means none.  `--runs 10000000 BUILD 0 LOG` is
# the run of ten million executions per target.
#
# --fork J runs each target in libFuzzer's fork mode (-fork=J): J worker
# processes at once, each a fresh process for a short job, their finds
# merged into the corpus.  -runs then counts the executions of all workers
# together, so one target uses J cores and reaches N sooner; a target whose
# memory grows over a long run is restarted with every job.  libFuzzer's
# parent prints no stat:: lines in fork mode: execs are then read from its
# last status line and execs/s is execs over seconds.
set -u
usage='usage: fuzz-long.sh [--runs N] [--fork J] BUILD SECONDS LOG [TARGET...]'
runs=none
fork=none
while :; do
	case ${1:-} in
	--runs) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; runs=$2; shift 2 ;;
	--runs=*) runs=${1#--runs=}; shift ;;
	--fork) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; fork=$2; shift 2 ;;
	--fork=*) fork=${1#--fork=}; shift ;;
	*) break ;;
	esac
done
build=${1:?$usage}
seconds=${2:?$usage}
log=${3:?$usage}
shift 3
src=$(cd "$(dirname "$0")/.." && pwd)
case $seconds in
'' | *[!0-9]*) echo "fuzz-long: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;;
esac
limits="-max_total_time=$seconds"
if [ "$runs" != none ]; then
	case $runs in
	'' | *[!0-9]* | 0) echo "fuzz-long: --runs needs a whole number above 0, not '$runs'" >&2; exit 2 ;;
	esac
	limits="-runs=$runs $limits"
	what="$runs runs per target, at most $seconds s each"
	[ "$seconds" -eq 0 ] && what="$runs runs per target, no time cap"
elif [ "$seconds" -eq 0 ]; then
	echo "fuzz-long: SECONDS 0 (no time limit) needs --runs" >&2
	exit 2
else
	what="$seconds s per target"
fi
if [ "$fork" != none ]; then
	case $fork in
	'' | *[!0-9]* | 0) echo "fuzz-long: --fork needs a whole number of workers above 0, not '$fork'" >&2; exit 2 ;;
	esac
	limits="-fork=$fork $limits"
	what="$what, fork mode with $fork workers"
fi

if [ $# -gt 0 ]; then
	targets=$*
else
	targets=$(cd "$build/tests" 2>/dev/null && ls fuzz_* 2>/dev/null | sed 's/^fuzz_//')
fi
if [ -z "$targets" ]; then
	echo "fuzz-long: no fuzz targets in $build/tests (run make fuzz first)" >&2
	exit 2
fi

# The CPU time of this shell's finished children, user plus system, in
# seconds: `times` in this shell (in a subshell it would count the
# subshell's), read back from a file.
cpu=$build/fuzz-artifacts/.times
mkdir -p "$build/fuzz-artifacts"
cpu_secs() {
	tail -n 1 "$cpu" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.1f", s }'
}

found=0
{
	echo "# sworn fuzz-long $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown), $what, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	printf '%-14s %12s %9s %7s %7s %7s %7s %7s %7s\n' target execs execs/s cov ft corpus crashes seconds cpu_s
} >"$log"
for t in $targets; do
	bin=$build/tests/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "fuzz-long: no target $bin" >&2
		found=1
		continue
	fi
	seeds=$src/tests/fuzz/corpus/$t
	new=$src/tests/fuzz/corpus/$t-new
	art=$build/fuzz-artifacts/$t
	mkdir -p "$new" "$art"
	out=$build/fuzz-artifacts/$t.out
	stamp=$build/fuzz-artifacts/$t.start
	: >"$stamp"
	start=$(date +%s)
	times >"$cpu"
	cpu0=$(cpu_secs)
	# -rss_limit_mb: a target that needs more than this is a finding too.
	# shellcheck disable=SC2086 # $limits is one or two options
	"$bin" $limits -print_final_stats=1 -rss_limit_mb=2048 \
		-timeout=25 -artifact_prefix="$art/" "$new" "$seeds" >"$out" 2>&1
	rc=$?
	end=$(date +%s)
	times >"$cpu"
	cpu_s=$(awk -v a="$cpu0" -v b="$(cpu_secs)" 'BEGIN { printf "%.1f", b - a }')
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out" | tail -1)
	last=$(grep -E '^#[0-9]+' "$out" | tail -1)
	if [ "$fork" != none ] && [ -z "$execs" ]; then
		execs=$(echo "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
		rate=$(awk -v n="${execs:-0}" -v s="$((end - start))" 'BEGIN { if (n > 0 && s > 0) printf "%d", n / s }')
	fi
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	# Only this run's artifacts: an earlier run's stay but do not count.
	crashes=$(find "$art" -type f -newer "$stamp" | wc -l | tr -d ' ')
	printf '%-14s %12s %9s %7s %7s %7s %7s %7s %7s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
		"${ft:-?}" "${corp:-?}" "$crashes" "$((end - start))" "$cpu_s" >>"$log"
	if [ "$crashes" -gt 0 ] || [ $rc -ne 0 ]; then
		found=1
		find "$art" -type f -newer "$stamp" | while read -r a; do
			echo "#   $t: $a (exit $rc; output in $out)" >>"$log"
		done
		[ "$crashes" -gt 0 ] || echo "#   $t: exit $rc without an artifact; output in $out" >>"$log"
	fi
done
echo "# done $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" >>"$log"
cat "$log"
exit $found
