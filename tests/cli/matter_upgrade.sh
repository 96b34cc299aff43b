# A matter written by a build that kept Bates prefixes as written ("BLT-"
# where this build keeps "BLT"): schema version 2, the same tables.  Opened
# by this build it is migrated to version 3 and its prefixes made
# canonical, so verify and search find BLT-000003 and BLT-000005 (numbered by a load
# file only) without a re-import.
# The old file is made here with the sqlite3 shell from one this build
# imported, put back the way the older build left it.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
mkdir in
printf 'Brightline memo.\n\nThe order left the warehouse on March 31, 2021.\n\nBLT-000001\n\fSecond page.\n\nBLT-000002\n\fThe carrier delivered the goods on April 6, 2021.\n\nCONFIDENTIAL   BLT-000003\n\f' > in/memo.txt
# And a load-file volume whose pages are numbered by the DAT alone: their
# text holds no stamp, so only the stored prefix finds them.
mkdir -p in/VOL001/DATA in/VOL001/TEXT/TEXT001
{
	dat_row "$DC4" "$UTF8_THORN" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$UTF8_THORN" BLT-000004 BLT-000005 'TEXT\TEXT001\BLT-000004.txt'
} > in/VOL001/DATA/VOL001.DAT
printf 'The invoice for the late shipment.\fThe credit note was never issued.\n' > in/VOL001/TEXT/TEXT001/BLT-000004.txt
run 0 "$SWORN" ingest -m m in
version=$(sql m 'PRAGMA user_version')
eq "pages" "$(sql m 'SELECT count(*) FROM pages WHERE bates_num IS NOT NULL')" 5
eq "from the load file" "$(sql m "SELECT text FROM pages WHERE bates = 'BLT-000005'")" "The credit note was never issued."

sql m "UPDATE pages SET bates_prefix = 'BLT-' WHERE bates_num IS NOT NULL; PRAGMA user_version = 2;"
sql_only m documents pages transcript_lines labels quarantine
eq "old prefix" "$(sql m "SELECT count(*) FROM pages WHERE bates_prefix = 'BLT-'")" 5
eq "old version" "$(sql m 'PRAGMA user_version')" 2

printf 'The goods were delivered on April 6, 2021. (BLT-000003.) See BLT-000001-BLT-000002. The credit note was never issued. (BLT-000005.)\n' > draft.md
run 0 "$SWORN" verify -m m draft.md
has "$T/out" "BLT-000003 is in the production"
has "$T/out" "April 6, 2021 is on the cited page (BLT-000003)"
has "$T/out" "BLT-000005 is in the production"
lacks "$T/out" "not in the production"
lacks "$T/out" "no production of this matter uses"
eq "version" "$(sql m 'PRAGMA user_version')" "$version"
eq "canonical prefix" "$(sql m "SELECT group_concat(DISTINCT bates_prefix) FROM pages WHERE bates_num IS NOT NULL")" "BLT"
eq "numbers as written" "$(sql m "SELECT group_concat(bates, ' ') FROM pages WHERE bates_num IS NOT NULL ORDER BY bates_num")" "BLT-000001 BLT-000002 BLT-000003 BLT-000004 BLT-000005"

# Search, on a second old file: the migration runs on whichever command
# opens the matter first.
sql m "UPDATE pages SET bates_prefix = 'blt_' WHERE bates_num IS NOT NULL; PRAGMA user_version = 2;"
sql_only m documents pages transcript_lines labels quarantine
run 0 "$SWORN" search -m m BLT-000005
has "$T/out" "BLT-000005"
has "$T/out" "credit note"
eq "version after search" "$(sql m 'PRAGMA user_version')" "$version"
eq "prefix after search" "$(sql m "SELECT count(*) FROM pages WHERE bates_prefix = 'BLT'")" 5
eq "integrity" "$(sql m 'PRAGMA integrity_check')" "ok"

done_testing
