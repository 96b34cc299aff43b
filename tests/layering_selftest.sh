#!/bin/sh
# The layering check must fail on each kind of violation, and pass a clean
# tree: a check that cannot fail proves nothing.
set -u
check=${SW_SRC:?}/tests/layering.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0

mk() { mkdir -p "$t/src/$1"; printf '%s\n' "$3" > "$t/src/$1/$2"; }

expect() { # expect pass|fail LABEL
	if sh "$check" "$t/src" > "$t/out" 2>&1; then got=pass; else got=fail; fi
	if [ "$got" != "$1" ]; then
		echo "selftest: $2: expected $1, got $got"; cat "$t/out"; fail=1
	else
		echo "selftest: $2: $got as expected"
	fi
	rm -rf "$t/src"
}

mk base base.h '#include "base/banned.h"'
mk record record.h '#include "base/base.h"'
mk record store.c '#include "record/record_int.h"'
expect pass "a clean tree"

mk base base.h ''
mk record record.h ''
mk claims scan.c '#include "record/record.h"'
expect fail "claims/ including record/"

mk base base.h ''
mk record record.h ''
mk pipeline pipeline.h ''
mk record ingest.c '#include "pipeline/pipeline.h"'
expect fail "record/ including pipeline/ (upward)"

mk base base.h ''
mk record record_int.h ''
mk verify gate.c '#include "record/record_int.h"'
expect fail "verify/ including record/'s internal header"

mk base base.h ''
mk widgets w.c ''
expect fail "an unknown subsystem folder"

mk base x.c '#include "base.h"'
expect fail "an include without its folder"

# Circles inside a folder, read from object files as CMake lays them out.
cc=${CC:-cc}
cxx=${CXX:-c++}
obj() { # obj FOLDER FILE: compile src/FOLDER/FILE as CMake's object would be
	o="$t/build/CMakeFiles/sw_$1.dir/src/$1/$2.o"
	mkdir -p "${o%/*}"
	case $2 in
	*.cc) "$cxx" -c -o "$o" "$t/src/$1/$2" ;;
	*) "$cc" -c -o "$o" "$t/src/$1/$2" ;;
	esac || { echo "selftest: cannot compile the fixture $1/$2 with $cc/$cxx"; exit 1; }
}
circle() { # circle pass|fail LABEL [NAME...]: run the check, and grep its output
	want=$1 label=$2
	shift 2
	if sh "$check" "$t/src" "$t/build" > "$t/out" 2>&1; then got=pass; else got=fail; fi
	for name in "$@"; do
		grep -q -- "$name" "$t/out" || { echo "selftest: $label: no '$name' in the output"; got="$got, unnamed"; }
	done
	if [ "$got" != "$want" ]; then
		echo "selftest: $label: expected $want, got $got"; cat "$t/out"; fail=1
	else
		echo "selftest: $label: $got as expected"
	fi
	rm -rf "$t/src" "$t/build"
}

mk base a.c 'int b_top(void); int a_helper(void); int a_helper(void) { return 1; } int a_top(void); int a_top(void) { return b_top(); }'
mk base b.c 'int a_helper(void); int b_top(void); int b_top(void) { return a_helper(); }'
obj base a.c; obj base b.c
circle fail "a two-file circle" "base/a.c base/b.c" "base/a.c -> base/b.c: b_top" "base/b.c -> base/a.c: a_helper"

mk base a.c 'int b_top(void); int a_top(void); int a_top(void) { return b_top(); }'
mk base b.c 'int b_top(void); int b_top(void) { return 0; }'
obj base a.c; obj base b.c
circle pass "calls that only go down"

mk base walk.cc 'extern "C" int c_helper(void); extern "C" int walk(void) { return c_helper(); }'
mk base pdf.c 'int walk(void); int c_helper(void); int c_helper(void) { return 0; } int pdf(void); int pdf(void) { return walk(); }'
obj base walk.cc; obj base pdf.c
circle fail "a circle through a .cc file" "base/pdf.c -> base/walk.cc: walk" "base/walk.cc -> base/pdf.c: c_helper"

mk base a.c 'int b_top(void); int a_helper(void); int a_helper(void) { return 1; } int a_top(void); int a_top(void) { return b_top(); }'
mk base b.c 'int a_helper(void); int b_top(void); int b_top(void) { return a_helper(); }'
obj base a.c; obj base b.c
rm "$t/src/base/b.c"
circle pass "an object whose source is gone"

mk base a.c 'int b_top(void); int a_helper(void); int a_helper(void) { return 1; } int a_top(void); int a_top(void) { return b_top(); }'
mk base b.c 'int a_helper(void); int b_top(void); int b_top(void) { return a_helper(); }'
obj base a.c; obj base b.c
mkdir -p "$t/build/CMakeFiles/sw_attic.dir/src/base"
mv "$t/build/CMakeFiles/sw_base.dir/src/base/b.c.o" "$t/build/CMakeFiles/sw_attic.dir/src/base/"
touch -t 200001010000 "$t/build/CMakeFiles/sw_attic.dir/src/base/b.c.o"
mk base b.c 'int b_top(void); int b_top(void) { return 0; }'
obj base b.c
circle pass "a stale object of a source built again elsewhere"

mkdir -p "$t/src/base" "$t/build"
circle fail "a build folder with no objects" "build first"

exit $fail
