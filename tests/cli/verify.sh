# sworn verify: every planted failure kind in the example draft is blocked,
# the clean draft passes, and the reports (table, JSON, HTML) say why.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" "$SW_SRC/examples/authorities/codes.csv"

# The clean draft passes, strictly and leniently.
run 0 "$SWORN" verify -m m "$SW_TEST_DATA/acme-mini-drafts/acme-clean.md"
has "$T/out" "gate: pass"
has "$T/out" "0 unsupported, 0 contradicted, 0 unverifiable"
run 0 "$SWORN" verify -m m --lenient "$SW_TEST_DATA/acme-mini-drafts/acme-clean.md"

run 1 "$SWORN" verify -m m "$SW_TEST_DATA/acme-mini-drafts/acme-planted.md"
has "$T/out" "gate: blocked"
has "$T/out" "no case at 812 F.3d 455 in the authority table"                 # nonexistent case
has "$T/out" "550 U.S. 544 is Bell Atlantic Corp. v. Twombly"                  # real page, invented name
has "$T/out" "925 F.3d 1339 falls inside J.D. v. Azar, 925 F.3d 1291 (D.C. Cir. 2019)"
has "$T/out" "was decided by U.S., not 2d Cir."                              # wrong court/year
has "$T/out" "ACME0000012 is not in the production (ACME0000001–ACME0000008)" # Bates past the end
has "$T/out" 'gives "March 31, 2021" (2021-03-31), not April 7, 2021'       # shifted date
has "$T/out" "not found verbatim on ACME0000003"                              # one word altered

# Blocked claims come first.
eq "blocked first" "$(head -1 "$T/out" | cut -c1-15)" "blocked claims "

run 1 "$SWORN" verify -m m --json --html "$T/r.html" "$SW_TEST_DATA/acme-mini-drafts/acme-planted.md"
has "$T/out" '"gate": "blocked"'
has "$T/out" '"verdict": "contradicted"'
has "$T/out" '"source": "authority"'
has "$T/out" '"excerpt":'
has "$T/r.html" 'class="c contradicted"'
has "$T/r.html" 'falls inside J.D. v. Azar'

# Propositions: a fact not on the cited page is named where it is, each
# fact has its own verdict in --json, the sentence's line:column is its
# own (propositions come after every other claim), and the HTML underlines
# the sentence piece by piece inside the other claims' marks.
printf '# Facts\n\nAcme was billed $52,850.00 for *PO 4471* (ACME0000004).\n\nThe invoice billed 12,000 housings at $4.25 (ACME0000004).\n' > prop.md
run 1 "$SWORN" verify -m m --html "$T/p.html" prop.md
has "$T/out" "\$52,850.00 is not on ACME0000004; it is on ACME0000005"
has "$T/out" "unsupported   proposition 3:1 "
has "$T/out" "supported     proposition 5:1 "
has "$T/out" "facts: \$52,850.00 ✗ on ACME0000005; PO 4471 ✓ ACME0000004"
has "$T/p.html" '<em><span class="p unsupported" title="$52,850.00 is not on ACME0000004; it is on ACME0000005">PO 4471</span></em>'
has "$T/p.html" '<a class="c supported" href="#c1" title="ACME0000004 is in the production"><span class="p unsupported"'
lacks "$T/p.html" '<a class="c unsupported"'   # a proposition is no inline claim mark
run 1 "$SWORN" verify -m m --json prop.md
eq "per-fact verdicts" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["claims"]:
    if c["kind"] == "proposition":
        print(c["line"], c["column"], c["verdict"], ";".join("%s=%s@%s" % (f["text"], f["verdict"], ",".join(f["found_on"])) for f in c["facts"]))
' "$T/out")" "3 1 unsupported \$52,850.00=unsupported@ACME0000005;PO 4471=supported@ACME0000004;Acme=supported@ACME0000004
5 1 supported 12,000 housings=supported@ACME0000004;\$4.25=supported@ACME0000004"

# A quotation and a date the cited page does not hold are blocked.
printf 'The carrier said "we guarantee delivery by March 5, 2021." ACME0000003.\n' > bad.md
run 1 "$SWORN" verify -m m bad.md
has "$T/out" "not found verbatim on ACME0000003"
has "$T/out" "March 5, 2021 is not on the cited page"

# Only evidence supports anything: words and a date found only in a
# model-written document stay unsupported.
printf 'Brightline promised a refund on June 9, 2022 in writing.\n' > model-note.txt
run 0 "$SWORN" ingest -m m --origin model model-note.txt
printf 'Brightline promised "a refund on June 9, 2022 in writing."\n' > uncited.md
run 1 "$SWORN" verify -m m uncited.md
has "$T/out" "June 9, 2022 appears nowhere in the evidence"
has "$T/out" "not in the evidence"

# Transcript lines and exhibit pages must exist.
printf 'He said so. Smith Dep. 3:1-2. See Ex. 2 at 9. Ex. 7.\n' > cites.md
run 1 "$SWORN" verify -m m cites.md
has "$T/out" "has no page 3"
has "$T/out" "has 3 pages, not a page 9"
has "$T/out" "no document of the record is labelled 'Ex. 7'"

# Usage and input errors exit 2.
run 2 "$SWORN" verify -m m
run 2 "$SWORN" verify -m nosuch bad.md
run 2 "$SWORN" verify -m m missing.md

# lookup: a case, a page inside one, nothing.
run 0 "$SWORN" authorities lookup 550 U.S. 544
has "$T/out" "Bell Atlantic Corp. v. Twombly"
run 0 "$SWORN" authorities lookup 925 F.3d 1339
has "$T/out" "inside J.D. v. Azar"
run 1 "$SWORN" authorities lookup 812 F.3d 455
run 2 "$SWORN" authorities lookup nonsense
# Re-import updates, never duplicates.
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv"
eq "no duplicates" "$(sqlite3 authorities.db 'SELECT count(*) FROM cases')" 18

# The record rules on the example matter as vendors ship it: hyphenated
# Bates numbers in any spelling, party exhibits, a transcript cited across a
# page break, an e-mail's Date header, identifiers that are not Bates
# numbers.
mkdir ex && cd ex || exit 1
run 0 "$SWORN" init .
run 0 "$SWORN" matter new m
cp -r "$SW_SRC/examples/acme" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
cat > shapes.md <<'DRAFT'
Brightline's memo of March 2, 2021 put all credits on hold. (BLT-000001.) The bill of lading shows a ship date of March 31, 2021. (Def. Ex. 2 at 1.) Acme received it on April 6, 2021 (BLT000005).

Smith told Roe "that the controller was holding all credits until the ship dates were final." (Smith Dep. 4:25-5:2.) He said the call was "Around March 5." (*Id.* at 5:4.)

Invoice INV-10236 is unpaid. See BLT-000001–BLT-000005; BLT_000007-000012. Def. Ex. 3 at 2. DX-7. Roe wrote to Vale on April 22, 2021. (Pl. Ex. 5.)
DRAFT
run 0 "$SWORN" verify -m m shapes.md
has "$T/out" "gate: pass"
grep -v proposition "$T/out" >"$T/out.np" # its sentence's proposition quotes it
lacks "$T/out.np" "INV-10236"
has "$T/out" "on Smith Dep. 4:25-5:2"
lacks "$T/out" "Smith Dep. 4:25-5:2 (Smith Dep. 4:25-5:2)"   # named once
has "$T/out" "April 22, 2021 is on the cited page (roe-vale-2021-04-22.eml p. 1)"
run 0 "$SWORN" verify -m m --json shapes.md
has "$T/out" '"cite": "Smith Dep. 4:25-5:2"'

cat > wrong.md <<'DRAFT'
The memo is dated March 3, 2021. (BLT-000001.) See BLT-000013. The card failed (INV-10236). Smith said "the controller was holding all credits." (Smith Dep. 4:1-3.) He testified again. (Smith Dep. 5:30.) See Pl. Ex. 7 at 1. Vale answered on April 23, 2021. Acme was paid on June 9, 2022.
DRAFT
run 1 "$SWORN" verify -m m wrong.md
has "$T/out" 'the cited page (BLT-000001) gives "March 2, 2021" (2021-03-02), not March 3, 2021'
has "$T/out" "BLT-000013 is not in the production (BLT-000001–BLT-000012)"
has "$T/out" "INV-10236 is cited as a Bates number, but no production of this matter uses the prefix INV (productions: ACME0000001–ACME0000010, BLT-000001–BLT-000012)"
has "$T/out" "not found verbatim in the cited lines, Smith Dep. 4:1-3"
has "$T/out" "Smith Dep. (smith-dep.txt) has no line 30 on page 5"
has "$T/out" "no document of the record is labelled 'Pl. Ex. 7'; the record has DX-7"
has "$T/out" "April 23, 2021 is found elsewhere in the record, not tied to this sentence (BLT-000011)"
has "$T/out" "June 9, 2022 appears nowhere in the evidence"
cd .. || exit 1

done_testing
