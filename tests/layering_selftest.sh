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

exit $fail
