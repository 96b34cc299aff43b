#!/bin/sh
# Hostile file names and files (issue 41's low items): a line break or a
# tab in a file name cannot forge a row of `matter docs` (shown as \n and
# \t); an original is synced before its rename into files/ and the rename
# after it (the fault seams original-sync and original-dir-sync make each
# sync fail: the import says so in one line and keeps nothing); a task file
# that is a symbolic link (another matter's final as a template) or a FIFO
# is refused in one line, never read or waited on; a PDF over the file
# limit is refused in one line that says what to do.
. "$(dirname "$0")/lib.sh"
new_workspace
cd "$T/ws" || exit 1

# --------------------------------------- names that would print rows
mkdir in
nl_name=$(printf 'a\n     9  evidence  active      text            1  -    forged.txt')
printf 'The pallets arrived short.\n' >"in/$nl_name"
printf 'The credit note was issued.\n' >"in/$(printf 'b\tc.txt')"
run 0 "$SWORN" ingest -m m in
has "$T/out" "imported 2"
run 0 "$SWORN" matter docs -m m
lines "$T/out" 3 # the header and two rows, no forged one
has "$T/out" 'a\n     9  evidence'
has "$T/out" 'b\tc.txt'
run 0 "$SWORN" matter docs -m m --fields id,name
lines "$T/out" 3
has "$T/out" 'a\n     9  evidence'
has "$T/out" 'b\tc.txt'
run 0 "$SWORN" matter docs -m m --json
eq "names kept as they are in JSON" "$(jq -r '.documents[].name' "$T/out" | grep -c 'forged.txt')" 1

# ---------------------------------- originals synced around the rename
printf 'A letter about the late shipment.\n' >late.txt
run 2 env SWORN_FAULT=original-sync:1 "$SWORN" ingest -m m late.txt
has "$T/err" "cannot sync"
eq "nothing stored" "$(sql m "SELECT count(*) FROM documents WHERE name = 'late.txt'")" 0
eq "no partial original" "$(find matters/m/files -name '*.part.*' | wc -l | tr -d ' ')" 0
run 2 env SWORN_FAULT=original-dir-sync:1 "$SWORN" ingest -m m late.txt
has "$T/err" "cannot sync folder"
eq "nothing stored" "$(sql m "SELECT count(*) FROM documents WHERE name = 'late.txt'")" 0
run 0 "$SWORN" ingest -m m late.txt
has "$T/out" "imported 1"

# ------------------------------------- task files: links and FIFOs
"$SWORN" matter new other >/dev/null || exit 1
printf 'PRIVILEGED: the settlement authority is $2M.\n' >matters/other/final.md
run 0 "$SWORN" task init declaration
run 0 "$SWORN" task show declaration
cp tasks/declaration/draft.md "$T/draft.md"
rm tasks/declaration/draft.md
ln -s ../../matters/other/final.md tasks/declaration/draft.md
run 2 "$SWORN" task show declaration
has "$T/err" "the task's draft.md is a symbolic link"
lines "$T/err" 1
lacks "$T/out" "settlement authority"
rm tasks/declaration/draft.md
mkfifo tasks/declaration/draft.md
# a FIFO would block the read until a writer came: the command must
# answer at once; the timeout only ends a run that hangs (then it fails)
run 2 timeout 120 "$SWORN" task show declaration
has "$T/err" "the task's draft.md is not a regular file (a FIFO)"
rm tasks/declaration/draft.md
cp "$T/draft.md" tasks/declaration/draft.md
run 0 "$SWORN" task show declaration
# nor the whole task folder through a link (to another matter's folder)
mkdir -p matters/other/task
cp tasks/declaration/* matters/other/task/
cp matters/other/final.md matters/other/task/draft.md
ln -s ../matters/other/task tasks/letter
run 2 "$SWORN" task show letter
has "$T/err" "task folder"
has "$T/err" "is a symbolic link"
lacks "$T/out" "settlement authority"
run 2 "$SWORN" draft -m m --task letter --brief "$T/draft.md"
has "$T/err" "is a symbolic link"
rm tasks/letter

# ------------------------------------------- a large PDF with no table
# sparse: 600 MB on disk costs nothing.  A PDF that large is read (mapped:
# tests/cli/ingest_pdf_large.sh), but one whose end names no
# cross-reference table is refused before poppler rebuilds the table from
# every byte (all 600 MB resident at once).
printf '%%PDF-1.4\n' >big.pdf
truncate -s 600M big.pdf
run 2 "$SWORN" ingest -m m big.pdf
has "$T/err" "big.pdf"
has "$T/err" "damaged PDF: its end names no cross-reference table"
has "$T/err" "repair it with a PDF tool"
eq "nothing stored" "$(sql m "SELECT count(*) FROM documents WHERE name = 'big.pdf'")" 0

done_testing
