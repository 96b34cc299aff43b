#!/bin/sh
# sworn's modules: the binary links none of the large native libraries
# (poppler, cairo, GMime, libgsf, libcurl) and loads none of them for a
# command that reads only text; a copy of the binary without its modules
# still reads Markdown, says in one line why it cannot read a PDF, and
# sworn version names what it could not load.
. "$(dirname "$0")/lib.sh"

command -v readelf >/dev/null || { echo "FAIL: readelf not found (binutils)"; exit 1; }
readelf -dW "$SWORN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$T/needed"
has "$T/needed" "libsqlite3.so"
for lib in libpoppler libcairo libgmime libgsf libzip libexpat libcurl libglib libmicrohttpd libgnutls; do
	lacks "$T/needed" "$lib"
done

printf '# Brief\n\nSee Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007).\n' >"$T/brief.md"
LD_DEBUG=files "$SWORN" claims "$T/brief.md" >"$T/out" 2>"$T/loaded"
eq "claims on Markdown" "$?" 0
has "$T/out" "Twombly"
for lib in libpoppler libcairo libgmime libgsf libcurl libmicrohttpd sworn-extract sworn-fleet sworn-web; do
	lacks "$T/loaded" "$lib"
done

# The build's sworn finds its module (BUILD/lib/sworn) for a PDF.
printf 'not a PDF\n' >"$T/bad.pdf"
LD_DEBUG=files "$SWORN" claims "$T/bad.pdf" >"$T/out" 2>"$T/loaded"
eq "a damaged PDF" "$?" 2
has "$T/loaded" "sworn-extract.so"
has "$T/loaded" "libpoppler"
run 2 "$SWORN" claims "$T/bad.pdf"
lacks "$T/err" "sworn-extract"

# A copy of the binary alone: no lib/sworn beside it.
mkdir -p "$T/alone/bin"
cp "$SWORN" "$T/alone/bin/sworn"
run 0 "$T/alone/bin/sworn" claims "$T/brief.md"
has "$T/out" "Twombly"
run 2 "$T/alone/bin/sworn" claims "$T/bad.pdf"
has "$T/err" "cannot read '$T/bad.pdf': cannot load sworn-extract.so: it is not in $T/alone/bin/"
lines "$T/err" 1
run 0 "$T/alone/bin/sworn" version
has "$T/out" "poppler       not found (cannot load sworn-extract.so"
has "$T/out" "GMime         not found (cannot load sworn-extract.so"
run 0 "$T/alone/bin/sworn" version --json
python3 - "$T/out" <<'PY' >"$T/check" 2>&1
import json, sys
libs = json.load(open(sys.argv[1]))["libraries"]
print("poppler", libs["poppler"], "gmime", libs["gmime"], "curl", bool(libs["libcurl"]))
PY
eq "version --json without the module" "$(cat "$T/check")" "poppler None gmime None curl True"

# A module that is not one is an error with its reason, not a crash.
mkdir -p "$T/alone/lib/sworn"
printf 'not a module\n' >"$T/alone/lib/sworn/sworn-extract.so"
run 2 "$T/alone/bin/sworn" claims "$T/bad.pdf"
has "$T/err" "cannot load $T/alone/bin/../lib/sworn/sworn-extract.so: "
lines "$T/err" 1

echo "modules: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
