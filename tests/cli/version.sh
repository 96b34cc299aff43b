#!/bin/sh
# sworn --version and sworn version: the version, commit, build type and the
# versions of the libraries loaded, as text and as JSON; tesseract "not
# found" when it cannot be loaded; every --json document starts with the
# "sworn" and "schema" stamp.
. "$(dirname "$0")/lib.sh"

want_version=$(sed -n 's/^project(sworn VERSION \([0-9.]*\).*/\1/p' "$SW_SRC/CMakeLists.txt")
want_rdb=$(sed -n 's/.*version \([0-9.]*\)).*/\1/p' "$SW_SRC/data/reporters-db/SOURCE.md")
want_sqlite=$(sqlite3 :memory: 'SELECT sqlite_version()')
tess_major=$(pkg-config --modversion tesseract | cut -d. -f1)

run 0 "$SWORN" --version
cp "$T/out" "$T/text"
eq "first line" "$(head -n1 "$T/text")" "sworn $want_version"
# The value printed for NAME (the text's second column).
field() {
	sed -n "s/^  $1  *//p" "$T/text"
}
commit=$(field commit)
case $commit in
unknown | [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ;;
*) echo "FAIL: commit '$commit'"; failures=$((failures + 1)) ;;
esac
case $(field build) in
Debug* | Release* | RelWithDebInfo* | MinSizeRel* | none*) ;;
*) echo "FAIL: build '$(field build)'"; failures=$((failures + 1)) ;;
esac
# The versions loaded are those of the Debian packages installed (the
# -dev packages give the same version as the libraries).
eq "SQLite" "$(field SQLite)" "$want_sqlite"
eq "poppler" "$(field poppler)" "$(pkg-config --modversion poppler-glib)"
eq "tesseract" "$(field tesseract)" "$(pkg-config --modversion tesseract)"
eq "GMime" "$(field GMime)" "$(pkg-config --modversion gmime-3.0)"
eq "libcurl" "$(field libcurl)" "$(pkg-config --modversion libcurl)"
has "$T/text" "reporters-db  $want_rdb (commit "

run 0 "$SWORN" version
cmp -s "$T/out" "$T/text"
eq "sworn version = sworn --version" "$?" 0
run 2 "$SWORN" version extra
has "$T/err" "too many arguments"
run 2 "$SWORN" --version --bogus
has "$T/err" "unknown option '--bogus'"

# --json: the same facts, after the stamp.
run 0 "$SWORN" --version --json
cp "$T/out" "$T/v.json"
run 0 "$SWORN" version --json
cmp -s "$T/out" "$T/v.json"
eq "version --json = --version --json" "$?" 0
python3 - "$T/v.json" "$T/text" >"$T/check" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = {}
for line in open(sys.argv[2]).read().splitlines()[1:]:
    k, v = line.strip().split(None, 1)
    text[k] = v
lib = doc["libraries"]
print("keys", list(doc)[:2])
print("stamp", doc["sworn"]["version"] == doc["version"], doc["sworn"]["commit"] == doc["commit"],
      doc["schema"])
print("same", doc["commit"] == text["commit"], doc["build_type"] == text["build"],
      lib["sqlite"] == text["SQLite"], lib["poppler"] == text["poppler"],
      lib["tesseract"] == text["tesseract"], lib["gmime"] == text["GMime"],
      lib["libcurl"] == text["libcurl"],
      text["reporters-db"].startswith(doc["reporters_db"]["version"] + " (commit "
                                      + doc["reporters_db"]["commit"][:12] + ")"))
PY
has "$T/check" "keys ['sworn', 'schema']"
has "$T/check" "stamp True True 1"
has "$T/check" "same True True True True True True True True"

# A tesseract that cannot be used: one that lacks TessVersion found first
# on the library path, and none at all (a name no library has).
mkdir "$T/lib"
printf 'int sw_not_tesseract(void);\nint sw_not_tesseract(void) { return 0; }\n' >"$T/lib/t.c"
cc -shared -fPIC -o "$T/lib/libtesseract.so.$tess_major" "$T/lib/t.c" || exit 1
LD_LIBRARY_PATH="$T/lib" run 0 "$SWORN" version
has "$T/out" "tesseract     not found (libtesseract.so.$tess_major lacks TessVersion; OCR is off)"
eq "first line, no tesseract" "$(head -n1 "$T/out")" "sworn $want_version"
LD_LIBRARY_PATH="$T/lib" run 0 "$SWORN" version --json
eq "tesseract in JSON" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["libraries"]["tesseract"])' "$T/out")" "None"

# Every --json document starts with the stamp: built trees (cli_emit), a
# command's "no" (search without hits, exit 1) and the streamed claims.
# stamp [anywhere]: $T/out is stamped, first (or, streamed, anywhere).
stamp() {
	python3 - "$T/out" "$want_version" "$commit" "${1:-first}" >"$T/check" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ok = isinstance(doc, dict) and doc.get("sworn") == {"version": sys.argv[2], "commit": sys.argv[3]} \
    and doc.get("schema") == 1 and (sys.argv[4] == "anywhere" or list(doc)[:2] == ["sworn", "schema"])
print("stamped" if ok else "not stamped: %r" % (list(doc)[:3] if isinstance(doc, dict) else doc,))
PY
	has "$T/check" "stamped"
	lacks "$T/check" "not stamped"
}
new_workspace
cd "$T/ws" || exit 1
printf 'The delivery was late.\n' >"$T/a.txt"
run 0 "$SWORN" ingest -m m --json "$T/a.txt"
stamp
run 0 "$SWORN" matter list --json
stamp
run 0 "$SWORN" search -m m --json delivery
stamp
run 1 "$SWORN" search -m m --json nothinglikethis
stamp
run 0 "$SWORN" task list --json
stamp
printf 'See Celotex Corp. v. Catrett, 477 U.S. 317 (1986).\n' >"$T/d.md"
run 0 "$SWORN" claims --json "$T/d.md"
stamp anywhere
run 1 "$SWORN" verify -m m --json "$T/d.md"
stamp

echo "version: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
