# Image-only productions: a volume whose load file has no text, only the
# page images its .OPT lists (single- and multi-page TIFF, JPEG, a scanned
# PDF), is read by OCR page by page, each page keeping its Bates number
# from the .OPT; a re-run reads nothing again.  The OCR budget (--ocr-pages,
# [ingest] ocr_pages) stops OCR where it is reached, says what was left
# and how to go on, and a later run with a larger budget and --replace
# reads the rest.  The images are drawn by tests/fakes/scan_gen.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_SCAN_GEN:?set SW_SCAN_GEN to the page image writer}"
new_workspace
cd "$T/ws" || exit 1

# VOL001: ABC0000001 one TIFF page; ABC0000002-4 one TIFF of three pages
# (the .OPT names it on each line); ABC0000005 a JPEG; ABC0000006-7 a
# scanned PDF of two pages (named on the first line only).
v="$T/prod/VOL001"
mkdir -p "$v/DATA" "$v/IMAGES/001"
"$SW_SCAN_GEN" "$v"/IMAGES/001/ABC0000001.tif "Supply agreement between|Walrus Freight and the buyer" || exit 1
"$SW_SCAN_GEN" "$v"/IMAGES/001/ABC0000002.tif "Invoice number 4471" \
	"The pelican crates arrived broken" "Signed by Marigold Trent" || exit 1
"$SW_SCAN_GEN" "$v"/IMAGES/001/ABC0000005.jpg "Shipping manifest for tangerine boxes" || exit 1
"$SW_SCAN_GEN" "$v"/IMAGES/001/ABC0000006.pdf "Board minutes on the violin sale" \
	"Harbour fees were waived" || exit 1
q=$UTF8_THORN
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES CUSTODIAN
	dat_row "$DC4" "$q" ABC0000001 ABC0000001 "Renée Smith"
	dat_row "$DC4" "$q" ABC0000002 ABC0000004 "Tom Jones"
	dat_row "$DC4" "$q" ABC0000005 ABC0000005 "Tom Jones"
	dat_row "$DC4" "$q" ABC0000006 ABC0000007 "Tom Jones"
} > "$v"/DATA/VOL001.dat
{
	printf 'ABC0000001,VOL001,IMAGES\\001\\ABC0000001.tif,Y,,,1\r\n'
	printf 'ABC0000002,VOL001,IMAGES\\001\\ABC0000002.tif,Y,,,3\r\n'
	printf 'ABC0000003,VOL001,IMAGES\\001\\ABC0000002.tif,,,,\r\n'
	printf 'ABC0000004,VOL001,IMAGES\\001\\ABC0000002.tif,,,,\r\n'
	printf 'ABC0000005,VOL001,IMAGES\\001\\ABC0000005.jpg,Y,,,1\r\n'
	printf 'ABC0000006,VOL001,IMAGES\\001\\ABC0000006.pdf,Y,,,2\r\n'
	printf 'ABC0000007,VOL001,,,,,\r\n'
} > "$v"/DATA/VOL001.opt

# A tiny budget first: three pages, then the message and what is left.
run 0 "$SWORN" ingest -m m --ocr-pages 3 "$T/prod"
has "$T/out" "imported 4, skipped 0, failed 0"
has "$T/out" "3 by OCR"
has "$T/err" "OCR budget reached (3 pages): 4 scanned page(s) kept without text"
has "$T/err" "--replace and a larger --ocr-pages"
has "$T/err" "VOL001.dat:3 ABC0000002: OCR budget reached: 1 of its 3 page(s) kept without text, from ABC0000004"
eq "unread pages recorded" "$(sql m "SELECT json_extract(meta, '\$.ocr_unread_pages') FROM documents WHERE name = 'ABC0000002'")" 1
eq "ocr pages" "$(sql m "SELECT count(*) FROM pages WHERE text_source = 'ocr'")" 3
run 0 "$SWORN" search -m m pelican
has "$T/out" "ABC0000003"
run 1 "$SWORN" search -m m tangerine

# The budget from sworn.conf, as the flag gives it; a bad value is refused.
run 0 "$SWORN" doctor --keys
has "$T/out" "ocr_pages"
has "$T/out" "ocr_seconds"
has sworn.conf "; ocr_pages = 0"   # sworn init's template names them
printf '\n[ingest]\nocr_pages = -1\n' >> sworn.conf
run 2 "$SWORN" ingest -m m "$T/prod"
has "$T/err" "ocr_pages"
sed -i 's/^ocr_pages = -1$/ocr_pages = 1/' sworn.conf

# Again with --replace and no limit: what was read in full is skipped
# without OCR, the rest is read and replaces its partial copy.
run 0 "$SWORN" ingest -m m --replace --ocr-pages 0 --json "$T/prod"
eq "imported" "$(jq .imported "$T/out")" 3
eq "skipped" "$(jq .skipped "$T/out")" 1
eq "replaced" "$(jq .replaced "$T/out")" 3
eq "nothing left unread" "$(jq .ocr_unread_pages "$T/out")" 0
eq "live documents" "$(sql m "SELECT count(*) FROM documents WHERE status = 'active'")" 4

# Every page by its Bates number from the .OPT.
for pair in walrus=ABC0000001 4471=ABC0000002 pelican=ABC0000003 marigold=ABC0000004 \
	tangerine=ABC0000005 violin=ABC0000006 harbour=ABC0000007; do
	word=${pair%%=*} bates=${pair#*=}
	run 0 "$SWORN" search -m m --json "$word"
	eq "$word on its page" "$(jq -r '[.hits[].bates] | join(",")' "$T/out")" "$bates"
done
eq "bates source" "$(sql m "SELECT DISTINCT bates_source FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.status = 'active'")" "opt"
eq "pages by OCR" "$(sql m "SELECT count(*) FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.status = 'active' AND p.text_source = 'ocr'")" 7
eq "images kept" "$(sql m "SELECT json_array_length(meta, '\$.page_images') FROM documents WHERE name = 'ABC0000002' AND status = 'active'")" 1
run 0 "$SWORN" show -m m ABC0000004
has "$T/out" "Marigold Trent"

# A third run reads nothing: every document is found by its images.
run 0 "$SWORN" ingest -m m --json "$T/prod"
eq "all skipped" "$(jq .imported "$T/out"),$(jq .ocr_pages "$T/out")" "0,0"

# Imported first without OCR (--no-ocr; tesseract missing is the same):
# a later import that can read the pages does not take the documents for
# stored, and with --replace reads and replaces them.
new_workspace
cd "$T/ws" || exit 1
run 0 "$SWORN" ingest -m m --no-ocr --json "$T/prod"
eq "read nothing" "$(jq .imported "$T/out"),$(jq .ocr_pages "$T/out")" "4,0"
run 1 "$SWORN" search -m m walrus
run 0 "$SWORN" ingest -m m --replace --json "$T/prod"
eq "read now" "$(jq .imported "$T/out"),$(jq .replaced "$T/out")" "4,4"
run 0 "$SWORN" search -m m --json walrus
eq "walrus page" "$(jq -r '.hits[0].bates' "$T/out")" ABC0000001

# The time budget, and a scanned PDF imported as a file of its own: the
# budget bounds the pages of every importer.
new_workspace
cd "$T/ws" || exit 1
"$SW_SCAN_GEN" scans.pdf "First scanned page" "Second scanned page" "Third scanned page" || exit 1
run 0 "$SWORN" ingest -m m --ocr-pages 1 scans.pdf
has "$T/out" "1 by OCR"
has "$T/err" "scans.pdf: OCR budget reached: 2 image-only page(s) kept without text"
has "$T/err" "OCR budget reached (1 pages): 2 scanned page(s) kept without text"
run 0 "$SWORN" ingest -m m --ocr-seconds 0.001 --json "$T/prod"
eq "one page in the time" "$(jq .ocr_pages "$T/out")" 1
eq "the rest left" "$(jq .ocr_unread_pages "$T/out")" 6
has "$T/out" "OCR budget reached (0.001 seconds)"

# A damaged image costs its page only, with the reason; what the image
# libraries print (libjpeg's "Premature end of JPEG file", leptonica's
# "Error in ...") is captured into that reason, never printed on its own.
new_workspace
cd "$T/ws" || exit 1
mkdir -p bad/DATA bad/IMAGES
"$SW_SCAN_GEN" bad/IMAGES/X0000001.tif "Quartz mine survey" || exit 1
printf 'this is no image at all, only text\n' > bad/IMAGES/X0000002.tif
"$SW_SCAN_GEN" whole.jpg "A page cut short by a bad copy" || exit 1
head -c 3000 whole.jpg > bad/IMAGES/X0000003.jpg
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES
	dat_row "$DC4" "$q" X0000001 X0000003
} > bad/DATA/BAD.dat
printf 'X0000001,BAD,IMAGES\\X0000001.tif,Y,,,3\r\nX0000002,BAD,IMAGES\\X0000002.tif,,,,\r\nX0000003,BAD,IMAGES\\X0000003.jpg,,,,\r\n' > bad/DATA/BAD.opt
run 0 "$SWORN" ingest -m m bad
has "$T/err" "page 1 of image 'IMAGES\\X0000002.tif': not an image"
has "$T/err" "page 1 of image 'IMAGES\\X0000003.jpg': the image cannot be decoded: Premature end of JPEG file"
eq "lines not sworn's own" "$(grep -v -c -E '^(warning|failed) ' "$T/err")" 0
run 0 "$SWORN" search -m m --json quartz
eq "quartz page" "$(jq -r '.hits[0].bates' "$T/out")" X0000001

done_testing
