# Evidence integrity of an import: an e-mail's family is complete, or is
# completed by the next run, whatever stopped the first one (a failed
# attachment, a kill -9 between two attachments).
. "$SW_SRC/tests/cli/lib.sh"

# mail N: an e-mail with N text attachments, as a mail client writes it.
mail() {
	printf 'From: Tom Vale <tom@vale.example>\r\nTo: roe@acme.example\r\n'
	printf 'Date: Wed, 3 Mar 2021 16:02:11 -0500\r\nSubject: the credit notes\r\n'
	printf 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n'
	printf -- '--b1\r\nContent-Type: text/plain\r\n\r\nThe credit notes are attached.\r\n'
	i=1
	while [ "$i" -le "$1" ]; do
		printf -- '--b1\r\nContent-Type: text/plain; name="cn%s.txt"\r\n' "$i"
		printf 'Content-Disposition: attachment; filename="cn%s.txt"\r\n\r\n' "$i"
		printf 'Credit note CN-%s for the damaged crates.\r\n' "$i"
		i=$((i + 1))
	done
	printf -- '--b1--\r\n'
}

family() {
	new_workspace
	cd "$T/ws" || exit 1
	mkdir in
	mail 5 > in/credit.eml
}

# A failed attachment (the third document stored: the second attachment):
# the next run stores it, and the family is whole.
family
SWORN_FAULT=store-doc:3 run 2 "$SWORN" ingest -m m in
has "$T/out" "imported 5, skipped 0, failed 1"
eq "partial family" "$(sql m 'SELECT count(*) FROM documents')" 5
run 0 "$SWORN" ingest -v -m m in
has "$T/out" "imported 1, skipped 5, failed 0"
cat "$T/out" "$T/err" > "$T/all"
has "$T/all" "storing the attachments it still lacks"
eq "whole family" "$(sql m 'SELECT count(*) FROM documents WHERE parent_id = (SELECT id FROM documents WHERE name = '"'credit.eml'"')')" 5
eq "no mark left" "$(sql m "SELECT count(*) FROM documents WHERE meta LIKE '%family_partial%'")" 0
# A complete family is not read again.
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 0, skipped 1, failed 0"

# A kill -9 between the attachments.  An e-mail and its attachments are
# stored in one batch, which the kill rolls back whole: nothing of the
# family is kept, and the next run stores all of it.
family
SWORN_FAULT=store-doc:4:crash "$SWORN" ingest -m m in >"$T/out" 2>"$T/err"
eq "killed inside the family's batch" "$?" 137
eq "nothing of the batch kept" "$(sql m 'SELECT count(*) FROM documents')" 0
lacks "$T/out" "imported"
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 6, skipped 0, failed 0"
eq "family after the batch's crash" "$(sql m 'SELECT count(*) FROM documents WHERE parent_id IS NOT NULL')" 5

# With one transaction per document (batch_pages = 1), a kill -9 between
# the attachments leaves a partial family: the next run completes it.
for n in 2 4 6; do
	family
	printf '[ingest]\nbatch_pages = 1\n' >> sworn.conf
	SWORN_FAULT=store-doc:$n:crash "$SWORN" ingest -m m in >"$T/out" 2>"$T/err"
	eq "killed at $n" "$?" 137
	eq "kept before $n" "$(sql m 'SELECT count(*) FROM documents')" $((n - 1))
	run 0 "$SWORN" ingest -m m in
	has "$T/out" "imported $((7 - n)), skipped $((n - 1)), failed 0"
	eq "family after crash at $n" "$(sql m 'SELECT count(*) FROM documents WHERE parent_id IS NOT NULL')" 5
	run 0 "$SWORN" search -m m damaged crates
	eq "all searchable after crash at $n" "$(grep -c 'CN-' "$T/out")" 5
done

# A message attached to a message: the inner family is completed too
# (one transaction per document, as above).
new_workspace
cd "$T/ws" || exit 1
printf '[ingest]\nbatch_pages = 1\n' >> sworn.conf
mkdir in
mail 3 > inner.eml
{
	printf 'From: Roe <roe@acme.example>\r\nTo: counsel@firm.example\r\n'
	printf 'Date: Thu, 4 Mar 2021 09:00:00 -0500\r\nSubject: Fwd: the credit notes\r\n'
	printf 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="o1"\r\n\r\n'
	printf -- '--o1\r\nContent-Type: text/plain\r\n\r\nForwarding.\r\n'
	printf -- '--o1\r\nContent-Type: message/rfc822; name="inner.eml"\r\n'
	printf 'Content-Disposition: attachment; filename="inner.eml"\r\n\r\n'
	cat inner.eml
	printf -- '--o1--\r\n'
} > in/fwd.eml
SWORN_FAULT=store-doc:4:crash "$SWORN" ingest -m m in >"$T/out" 2>"$T/err"
eq "killed inside the inner family" "$?" 137
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 2, skipped 3, failed 0"
eq "nested family" "$(sql m 'SELECT count(*) FROM documents')" 5
eq "no mark left (nested)" "$(sql m "SELECT count(*) FROM documents WHERE meta LIKE '%family_partial%'")" 0

# A temporary original left by a killed import (files/xx/<sha>.part.PID of
# a process that is gone) is removed by the next import; provenance.db is
# private like the matters.
new_workspace
cd "$T/ws" || exit 1
mkdir in
printf 'a note\n' > in/a.txt
run 0 "$SWORN" ingest -m m in
sh -c 'exit 0' & dead=$!
wait "$dead"
mkdir -p matters/m/files/ab
stale=matters/m/files/ab/ab$(printf '%062d' 0).part.$dead
printf 'half' > "$stale"
printf 'another note\n' > in/b.txt
run 0 "$SWORN" ingest -m m in
eq "stale temporary removed" "$(ls "$stale" 2>/dev/null)" ""
# Evidence alone has no model output to be checked against: provenance.db
# is made by the first model output, not by every first import.
eq "no provenance.db for evidence alone" "$(ls provenance.db 2>/dev/null)" ""
printf 'a model draft about the notes\n' > draft.md
run 0 "$SWORN" ingest -m m --origin model draft.md
eq "provenance.db mode" "$(stat -c %a provenance.db)" 600

done_testing
