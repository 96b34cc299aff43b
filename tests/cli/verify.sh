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
has "$T/out" "ACME0000012 is not in the production (ACME0000001-ACME0000008)" # Bates past the end
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
eq "no duplicates" "$(sqlite3 authorities.db 'SELECT count(*) FROM cases')" 12

done_testing
