# The provenance firewall from the command line: a model output imported
# into one matter comes back re-saved into another and is quarantined,
# named with the output it matches; search leaves it out; a human accepts
# it with a reason; the audit lists origins and every decision.  Also the
# e-mail importer's attachments as child documents.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
"$SWORN" matter new other >/dev/null || exit 1

words="the plaintiff agreed shipment contract payment invoice delivered warehouse notice breach damages court witness stated late never signed terms letter counsel records goods accepted rejected inspection freight carrier seller buyer price credit refund"
i=0
for w in $words $words $words $words; do
	i=$((i + 1))
	printf '%s ' "$w"
	[ $((i % 13)) -eq 0 ] && printf 'item%d.\n' "$i"
done > draft.md
printf '\n' >> draft.md

run 0 "$SWORN" ingest -m other --origin model draft.md
has "$T/out" "imported 1"
test -f provenance.db
eq "provenance.db" "$?" 0
eq "prints only, no text" "$(sqlite3 provenance.db "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%text TEXT%'")" 0

mkdir in
tr '\n' ' ' < draft.md | fold -s -w 50 > in/resaved.txt
printf 'Dear counsel,\nWe write about the shipment of goods. The witness stated it was late.\nYours, A. Lawyer\n' > in/letter.txt
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 2, skipped 0, failed 0, quarantined 1"
has "$T/err" "quarantined resaved.txt: matches model output 'draft.md' of matter 'other' (overlap 100%"
eq "status" "$(sql m "SELECT status FROM documents WHERE name = 'resaved.txt'")" "quarantined"
eq "decision" "$(sql m "SELECT decision || ' ' || output_matter || ' ' || output_name FROM quarantine")" "quarantined other draft.md"

run 1 "$SWORN" search -m m inspection
run 0 "$SWORN" search -m m --all inspection
has "$T/out" "resaved.txt"

run 2 "$SWORN" ingest -m m --accept-quarantined resaved.txt
has "$T/err" "needs --reason"
run 2 "$SWORN" ingest -m m --accept-quarantined letter.txt --reason "x"
has "$T/err" "is not quarantined"
run 2 "$SWORN" ingest -m m --accept-quarantined nosuch.txt --reason "x"
run 0 "$SWORN" ingest -m m --accept-quarantined resaved.txt --reason "client produced the draft as an exhibit"
has "$T/out" "accepted document"
eq "accepted" "$(sql m "SELECT status FROM documents WHERE name = 'resaved.txt'")" "active"
run 0 "$SWORN" search -m m inspection
has "$T/out" "resaved.txt"

run 0 "$SWORN" matter audit -m m
has "$T/out" "evidence  active"
has "$T/out" "quarantine decisions (2):"
has "$T/out" "quarantined #"
has "$T/out" "accepted    #"
has "$T/out" "reason: client produced the draft as an exhibit"
run 0 "$SWORN" matter audit -m other --json
has "$T/out" '"origin": "model"'
run 2 "$SWORN" matter audit
has "$T/err" "which matter?"

# An e-mail with an attachment: the attachment is a child document.
cat > mail.eml <<'MAIL'
From: Ann <ann@example.com>
To: Bob <bob@example.com>
Date: Thu, 04 Mar 2021 09:00:00 +0000
Subject: Invoice 42
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="B"

--B
Content-Type: text/plain

Please find the invoice attached.
--B
Content-Type: text/plain
Content-Disposition: attachment; filename="invoice.txt"

Invoice 42: 100 widgets, paid.
--B--
MAIL
run 0 "$SWORN" ingest -m m -v mail.eml
has "$T/out" "imported 2"
has "$T/out" "mail.eml > invoice.txt: text, 1 page(s), attached to document"
eq "parent" "$(sql m "SELECT p.name FROM documents c JOIN documents p ON p.id = c.parent_id WHERE c.name = 'invoice.txt'")" "mail.eml"
run 0 "$SWORN" search -m m ann invoice
has "$T/out" "mail.eml"

run 0 "$SWORN" ingest --help
has "$T/out" "--accept-quarantined"
has "$T/out" "--no-ocr"

done_testing
