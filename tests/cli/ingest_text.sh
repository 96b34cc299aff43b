# Importing text and Markdown: pages, Bates stamps, encodings, re-import,
# and bad files that fail alone.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
mkdir -p in/sub

printf 'First page of the memo.\n\nCONFIDENTIAL   ACME0000101\n\fSecond page.\n\nACME0000102\n\f' > in/memo.txt
printf '# Notes\n\nA Markdown note about § 1983.\n' > in/sub/notes.md
printf 'Caf\351 receipt, price \24395\n' > in/sub/latin1.txt      # Windows-1252
printf 'cut in the middle \342\200' > in/sub/truncated.txt         # truncated UTF-8
: > in/empty.txt
printf 'bin\000ary' > in/binary.txt
printf 'ignored' > in/photo.jpg
printf 'hidden' > in/.hidden.txt

run 2 "$SWORN" ingest -m m in
has "$T/out" "imported 4, skipped 1, failed 2"
has "$T/err" "empty.txt: the file is empty"
has "$T/err" "binary.txt: binary data"
has "$T/err" "latin1.txt: line 1 is not valid UTF-8: read as Windows-1252"
has "$T/err" "truncated.txt: ends in the middle of a UTF-8 character"
lacks "$T/err" ".hidden"
eq "documents" "$(sql m 'SELECT count(*) FROM documents')" 4
eq "memo pages" "$(sql m "SELECT page_count FROM documents WHERE name = 'memo.txt'")" 2
eq "memo Bates" "$(sql m "SELECT group_concat(bates, ' ') FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'memo.txt'")" "ACME0000101 ACME0000102"
eq "stamp source" "$(sql m "SELECT DISTINCT bates_source FROM pages WHERE bates IS NOT NULL")" "stamp"
eq "latin1 decoded" "$(sql m "SELECT text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'latin1.txt'")" "Café receipt, price £95"
eq "markdown kind" "$(sql m "SELECT kind FROM documents WHERE name = 'notes.md'")" "markdown"
eq "origin" "$(sql m "SELECT DISTINCT origin FROM documents")" "evidence"
eq "integrity" "$(sql m 'PRAGMA integrity_check')" "ok"

# Originals are kept under their SHA-256.
sha=$(sha256sum in/memo.txt | cut -d' ' -f1)
test -f "matters/m/files/$(echo "$sha" | cut -c1-2)/$sha"
eq "original kept" "$?" 0
eq "original recorded" "$(sql m "SELECT original FROM documents WHERE name = 'memo.txt'")" "$sha"

# The same content again is a no-op that says so, even under another name.
cp in/memo.txt in/memo-copy.txt
run 0 "$SWORN" ingest -m m -v in/memo.txt in/memo-copy.txt in/sub
has "$T/out" "imported 0, skipped 5, failed 0"
has "$T/out" "already imported as document"
eq "documents after re-import" "$(sql m 'SELECT count(*) FROM documents')" 4

# A lost original is restored by a re-import of the same file.
rm "matters/m/files/$(echo "$sha" | cut -c1-2)/$sha"
run 0 "$SWORN" ingest -m m in/memo.txt
test -f "matters/m/files/$(echo "$sha" | cut -c1-2)/$sha"
eq "original restored" "$?" 0

# --origin is recorded; JSON summary.
printf 'A draft the model wrote.\n' > draft.txt
run 0 "$SWORN" ingest -m m --origin model --json draft.txt
has "$T/out" '"imported": 1'
has "$T/out" '"event": "imported"'
eq "model origin" "$(sql m "SELECT origin FROM documents WHERE name = 'draft.txt'")" "model"

# A missing path fails alone.
run 2 "$SWORN" ingest -m m nosuch.txt in/sub/notes.md
has "$T/err" "nosuch.txt: cannot read"
has "$T/out" "skipped 1, failed 1"

# Bates gaps and duplicates are reported.
printf 'p1\nZED0000001\n\fp2\nZED0000002\n\fp5\nZED0000005\n' > gap.txt
printf 'again\nZED0000002\n' > dup.txt
run 0 "$SWORN" ingest -m m gap.txt dup.txt
has "$T/err" "ZED: Bates gap: 2 number(s) missing: ZED0000003-ZED0000004"
has "$T/err" "ZED: duplicate Bates: 1 page(s) reuse a number: ZED0000002"
run 0 "$SWORN" matter list
has "$T/out" "Bates ZED0000001–ZED0000005  4 page(s), 2 missing, 1 duplicated"

done_testing
