#!/bin/sh
# make analyze: gcc's static analyser (-fanalyzer) over the sources, every
# file of src/ and tools/ compiled afresh.  Fails on any warning that is not
# listed in tools/analyze.known (the findings still open, each with why).
#   tools/analyze.sh [BUILD-DIR]      (run from the source folder)
set -eu
build=${1:-build/analyze}
src=$(pwd)
# gcc's messages in ASCII, whatever the locale, so they compare as text.
LC_ALL=C
export LC_ALL
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSW_ANALYZE=ON >/dev/null
start=$(date +%s)
if ! cmake --build "$build" -j "${JOBS:-2}" --clean-first --target sworn gen_man \
	>"$build/analyze.log" 2>&1; then
	tail -40 "$build/analyze.log"
	echo "analyze: the build failed (log: $build/analyze.log)"
	exit 1
fi
secs=$(($(date +%s) - start))
# "src/x.c:12:3: warning: message [-Wkind]" becomes "src/x.c: message [-Wkind]":
# line numbers move with every edit, the file and the message do not.
grep -E '^[^ ]+:[0-9]+:[0-9]+: warning: ' "$build/analyze.log" |
	sed -E "s|^$src/||; s|^([^:]+):[0-9]+:[0-9]+: warning: |\\1: |" |
	sort -u >"$build/findings"
grep -v -e '^#' -e '^[[:space:]]*$' "$src/tools/analyze.known" | sort -u >"$build/known"
new=$(comm -23 "$build/findings" "$build/known")
gone=$(comm -13 "$build/findings" "$build/known")
if [ -n "$gone" ]; then
	echo "analyze: fixed, remove from tools/analyze.known:"
	echo "$gone" | sed 's/^/  /'
fi
if [ -n "$new" ]; then
	echo "analyze: new findings (details in $build/analyze.log):"
	echo "$new" | sed 's/^/  /'
	exit 1
fi
echo "analyze: clean in ${secs}s ($(wc -l <"$build/findings" | tr -d ' ') known findings, listed in tools/analyze.known)"
