# A crash in the middle of an import loses nothing already stored, and the
# next import picks up where it stopped.  Fault seams (SWORN_FAULT) make the
# Nth document's store fail, or kill the process inside its transaction.
. "$SW_SRC/tests/cli/lib.sh"
# A fresh workspace with six two-page documents in $T/ws/in.
six_documents() {
	new_workspace
	cd "$T/ws" || exit 1
	mkdir in
	for i in 1 2 3 4 5 6; do
		printf 'document %s page one\fdocument %s page two\n' "$i" "$i" > "in/doc$i.txt"
	done
}

six_documents

# A failure inside one document's transaction: that document only.
SWORN_FAULT=store-doc:2 run 2 "$SWORN" ingest -m m in
has "$T/out" "imported 5, skipped 0, failed 1"
has "$T/err" "doc2.txt: cannot store the document: injected fault"
eq "pages" "$(sql m 'SELECT count(*) FROM pages')" 10
eq "no half document" "$(sql m "SELECT count(*) FROM documents WHERE name = 'doc2.txt'")" 0
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 1, skipped 5, failed 0"

# A power cut (SIGKILL) inside the fourth document's transaction.
six_documents
SWORN_FAULT=store-doc:4:crash "$SWORN" ingest -m m in >"$T/out" 2>"$T/err"
eq "killed" "$?" 137
eq "integrity after crash" "$(sql m 'PRAGMA integrity_check')" "ok"
eq "documents kept" "$(sql m 'SELECT count(*) FROM documents')" 3
eq "pages kept" "$(sql m 'SELECT count(*) FROM pages')" 6
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 3, skipped 3, failed 0"
eq "documents" "$(sql m 'SELECT count(*) FROM documents')" 6
run 0 "$SWORN" search -m m document page two
eq "all searchable" "$(grep -c 'p.2' "$T/out")" 6

# A database error mid-import stops the import with one line and keeps
# what was stored.
new_workspace
cd "$T/ws" || exit 1
mkdir in
for i in 1 2 3; do printf 'doc %s\n' "$i" > "in/d$i.txt"; done
SWORN_FAULT=read:2 run 2 "$SWORN" ingest -m m in
has "$T/err" "injected fault"
has "$T/out" "imported 2, skipped 0, failed 1"

done_testing
