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

# A power cut (SIGKILL) inside the fourth document.  The six documents
# are one batch (one transaction, each document in a savepoint): the kill
# rolls it back whole, nothing is half stored or reported imported, and
# the next import stores all six.
six_documents
SWORN_FAULT=store-doc:4:crash "$SWORN" ingest -v -m m in >"$T/out" 2>"$T/err"
eq "killed" "$?" 137
eq "integrity after crash" "$(sql m 'PRAGMA integrity_check')" "ok"
eq "documents kept" "$(sql m 'SELECT count(*) FROM documents')" 0
eq "pages kept" "$(sql m 'SELECT count(*) FROM pages')" 0
lacks "$T/out" "imported"
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 6, skipped 0, failed 0"
eq "documents" "$(sql m 'SELECT count(*) FROM documents')" 6
run 0 "$SWORN" search -m m document page two
eq "all searchable" "$(grep -c 'p.2' "$T/out")" 6

# Batches of four pages (two of these documents): the batches committed
# before the kill are kept and searchable, the open one is lost whole
# (doc3, stored in it before doc4 was killed), and only the documents of
# committed batches were reported imported.
six_documents
printf '[ingest]\nbatch_pages = 4\n' >> sworn.conf
SWORN_FAULT=store-doc:4:crash "$SWORN" ingest -v -m m in >"$T/out" 2>"$T/err"
eq "killed (batches of 4 pages)" "$?" 137
eq "integrity after crash (batches)" "$(sql m 'PRAGMA integrity_check')" "ok"
eq "committed batch kept" "$(sql m 'SELECT count(*) FROM documents')" 2
eq "its pages kept" "$(sql m 'SELECT count(*) FROM pages')" 4
eq "open batch lost whole" "$(sql m "SELECT count(*) FROM documents WHERE name = 'doc3.txt'")" 0
eq "reported imported" "$(grep -c '^imported ' "$T/out")" 2
has "$T/out" "doc2.txt"
lacks "$T/out" "doc3.txt"
run 0 "$SWORN" search -m m document page two
eq "committed batch searchable" "$(grep -c 'p.2' "$T/out")" 2
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 4, skipped 2, failed 0"
run 0 "$SWORN" search -m m document page two
eq "all searchable (batches)" "$(grep -c 'p.2' "$T/out")" 6

# A failure committing a batch (the disk full at the end): the documents
# of that batch are not reported imported, the import stops with the
# error, and the next import stores them.
six_documents
SWORN_FAULT=batch-commit:1 run 2 "$SWORN" ingest -m m in
has "$T/err" "cannot commit the documents stored: injected fault"
has "$T/out" "imported 0, skipped 0, failed 0"
has "$T/err" "6 document(s) stored before it in the same batch were rolled back"
lines "$T/err" 1
eq "nothing kept of the failed batch" "$(sql m 'SELECT count(*) FROM documents')" 0
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 6, skipped 0, failed 0"

# A database error mid-import stops the import with one line and keeps
# what was stored.
new_workspace
cd "$T/ws" || exit 1
mkdir in
for i in 1 2 3; do printf 'doc %s\n' "$i" > "in/d$i.txt"; done
SWORN_FAULT=read:2 run 2 "$SWORN" ingest -m m in
has "$T/err" "injected fault"
has "$T/out" "imported 2, skipped 0, failed 1"

# An e-mail family killed at any moment (kill -9 from outside, and the
# fault seam between two attachments) is completed by the next import.
family_mail() {
	printf 'From: a@acme.example\r\nTo: b@acme.example\r\nSubject: crates\r\n'
	printf 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n'
	printf -- '--b1\r\nContent-Type: text/plain\r\n\r\nThe credit notes.\r\n'
	i=1
	while [ "$i" -le "$1" ]; do
		printf -- '--b1\r\nContent-Type: text/plain; name="cn%s.txt"\r\n' "$i"
		printf 'Content-Disposition: attachment; filename="cn%s.txt"\r\n\r\n' "$i"
		printf 'Credit note CN-%s for crate %s.\r\n' "$i" "$i"
		i=$((i + 1))
	done
	printf -- '--b1--\r\n'
}
for how in seam:7 seam:40 kill:0.3 kill:0.8; do
	new_workspace
	cd "$T/ws" || exit 1
	mkdir in
	family_mail 60 > in/crates.eml
	case $how in
	seam:*)
		SWORN_FAULT=store-doc:${how#seam:}:crash "$SWORN" ingest -m m in >"$T/out" 2>"$T/err"
		eq "family killed by the seam ($how)" "$?" 137 ;;
	kill:*)
		"$SWORN" ingest -m m in >"$T/out" 2>"$T/err" &
		pid=$!
		sleep "${how#kill:}"
		kill -9 "$pid" 2>/dev/null
		wait "$pid" ;;
	esac
	eq "integrity after a family crash ($how)" "$(sql m 'PRAGMA integrity_check')" "ok"
	run 0 "$SWORN" ingest -m m in
	eq "family whole after $how" "$(sql m "SELECT count(*) FROM documents WHERE parent_id = (SELECT id FROM documents WHERE name = 'crates.eml')")" 60
	eq "no partial mark after $how" "$(sql m "SELECT count(*) FROM documents WHERE meta LIKE '%family_partial%'")" 0
done

# Two imports into one matter at once: one import at a time runs in a
# matter, so the second waits for the first and then finds every document
# stored; neither reports a false failure.
many_notes() {
	new_workspace
	cd "$T/ws" || exit 1
	mkdir in
	i=1
	while [ "$i" -le "$1" ]; do
		printf 'note %s of the concurrent imports\n' "$i" > "in/n$i.txt"
		i=$((i + 1))
	done
}
many_notes 300
"$SWORN" ingest -m m in >"$T/out1" 2>"$T/err1" &
a=$!
"$SWORN" ingest -m m in >"$T/out2" 2>"$T/err2" &
b=$!
wait "$a"
eq "first concurrent import" "$?" 0
wait "$b"
eq "second concurrent import" "$?" 0
lacks "$T/err1" "UNIQUE constraint"
lacks "$T/err2" "UNIQUE constraint"
eq "documents after concurrent imports" "$(sql m 'SELECT count(*) FROM documents')" 300
n1=$(sed -n 's/^imported \([0-9]*\),.*/\1/p' "$T/out1")
n2=$(sed -n 's/^imported \([0-9]*\),.*/\1/p' "$T/out2")
eq "each document imported once" "$((${n1:-0} + ${n2:-0}))" 300

# While another holds the matter's import lock: --no-wait exits 2 saying
# so; without it the import says it waits, then runs.
hold_lock() { # SECONDS: hold matters/m/import.lock in the background
	rm -f "$T/held"
	flock matters/m/import.lock sh -c ": > '$T/held'; sleep $1" &
	holder=$!
	k=0
	while [ ! -e "$T/held" ] && [ "$k" -lt 200 ]; do sleep 0.05; k=$((k + 1)); done
}
printf 'one more note\n' > in/extra.txt
hold_lock 3
run 2 "$SWORN" ingest --no-wait -m m in
has "$T/err" "another import into matter 'm' is running"
eq "nothing imported by --no-wait" "$(sql m 'SELECT count(*) FROM documents')" 300
wait "$holder"
hold_lock 1
run 0 "$SWORN" ingest -m m in
has "$T/err" "waiting for it to end"
has "$T/out" "imported 1, skipped 300, failed 0"
wait "$holder"

# A kill -9 of the import holding the lock lets the waiting one go on,
# and the matter ends whole.
many_notes 300
SWORN_FAULT=store-doc:50:crash "$SWORN" ingest -m m in >"$T/out1" 2>"$T/err1" &
a=$!
k=0
while [ ! -s matters/m/import.lock ] && [ "$k" -lt 200 ]; do sleep 0.05; k=$((k + 1)); done
"$SWORN" ingest -m m in >"$T/out2" 2>"$T/err2" &
b=$!
wait "$a"
eq "lock holder killed" "$?" 137
wait "$b"
eq "waiting import after the kill" "$?" 0
# The 49 documents stored before the kill were one open batch: lost whole.
has "$T/out2" "imported 300, skipped 0, failed 0"
eq "integrity after the killed holder" "$(sql m 'PRAGMA integrity_check')" "ok"
eq "documents after the killed holder" "$(sql m 'SELECT count(*) FROM documents')" 300

done_testing
