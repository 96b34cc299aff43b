#!/bin/sh
# check-under-load.sh [-j JOBS] [-R REGEX] BUILD: run BUILD's whole CTest
# suite (what `make check` runs for one build) while two busy loops per
# core run beside it, the "stress" load that once failed a test asserting
# wall-clock time.  No test may assert how long something took, so the
# suite must pass as it does on an idle machine, only slower.
#
#   tools/check-under-load.sh build/dev
#   ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 tools/check-under-load.sh build/asan
#
# -j JOBS is ctest's parallelism (default 2, as `make check`); -R REGEX runs
# only the matching tests.  The busy loops are plain shell processes of
# this script's own, started before ctest and killed, one by one by their
# pid, when it ends (also on Ctrl-C).  Prints the load it ran beside the
# suite, ctest's summary, and exits with ctest's status.
set -u

jobs=2
regex=""
while [ $# -gt 1 ]; do
	case "$1" in
	-j) jobs=$2; shift 2 ;;
	-R) regex=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ] || [ ! -f "$1/CTestTestfile.cmake" ]; then
	echo "usage: tools/check-under-load.sh [-j JOBS] [-R REGEX] BUILD (a configured, built CMake build folder)" >&2
	exit 2
fi
build=$1
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
loops=$((cores * 2))

busy=""
stop_busy() {
	for p in $busy; do kill "$p" 2>/dev/null; done
	for p in $busy; do wait "$p" 2>/dev/null; done
	busy=""
}
trap 'stop_busy; exit 130' INT TERM
trap 'stop_busy' EXIT

i=0
while [ $i -lt $loops ]; do
	sh -c 'while :; do :; done' &
	busy="$busy $!"
	i=$((i + 1))
done
echo "load: $loops busy loops on $cores core(s), ctest -j $jobs in $build"
if [ -n "$regex" ]; then
	ctest --test-dir "$build" -j "$jobs" --output-on-failure -R "$regex"
else
	ctest --test-dir "$build" -j "$jobs" --output-on-failure
fi
rc=$?
stop_busy
echo "ctest under load: exit $rc"
exit $rc
