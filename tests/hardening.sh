#!/bin/sh
# Checks that a sworn binary is built hardened: a position-independent
# executable, full RELRO (GNU_RELRO and BIND_NOW), the stack protector, and,
# in an optimised build, _FORTIFY_SOURCE's checked calls.
# Usage: hardening.sh BINARY BUILD-TYPE
set -u
bin=${1:?usage: hardening.sh BINARY BUILD-TYPE}
type=${2:-}
bad=0
fail() { echo "hardening: $bin: $*"; bad=1; }

command -v readelf >/dev/null || { echo "hardening: readelf not found (binutils)"; exit 1; }
[ -f "$bin" ] || { echo "hardening: no binary $bin"; exit 1; }
readelf -h "$bin" | grep -q 'Type:[[:space:]]*DYN' || fail "not a position-independent executable"
readelf -lW "$bin" | grep -q 'GNU_RELRO' || fail "no GNU_RELRO segment (RELRO)"
readelf -dW "$bin" | grep -Eq '\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW|\(BIND_NOW\)' ||
	fail "symbols are bound lazily (no BIND_NOW: partial RELRO only)"
syms=$(readelf --dyn-syms -W "$bin")
echo "$syms" | grep -q '__stack_chk_fail' || fail "no stack protector (__stack_chk_fail is not called)"
case $type in
Debug | "") ;;
*)
	echo "$syms" | grep -Eq ' __[a-z_]*_chk(@|$)' ||
		fail "no _FORTIFY_SOURCE checked calls (__*_chk) in a $type build"
	;;
esac
[ $bad -eq 0 ] && echo "hardening: $bin is PIE, full RELRO, stack-protected${type:+ ($type)}"
exit $bad
