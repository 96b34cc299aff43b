# A PDF longer than one extraction chunk (64 pages) is stored page by page:
# every page in order with its footer stamp, and a kill inside its
# transaction leaves no half-stored document.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
# 150 pages of base-14 Helvetica, each with its number and a Bates footer,
# cross-reference offsets counted as the file is written.
LC_ALL=C awk -v pages=150 '
function out(s) { printf "%s", s; pos += length(s) }
function obj(n, body) { off[n] = pos; out(n " 0 obj\n" body "\nendobj\n") }
BEGIN {
	out("%PDF-1.4\n")
	for (p = 0; p < pages; p++) kids = kids (4 + 2 * p) " 0 R "
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, "<< /Type /Pages /Count " pages " /Kids [" kids "] >>")
	obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for (p = 0; p < pages; p++) {
		s = sprintf("BT /F1 10 Tf 12 TL 50 750 Td (Exhibit page marker%d of the shipment letter.) Tj 0 -600 Td (CONFIDENTIAL   PDFS%07d) Tj ET", p + 1, p + 1)
		obj(4 + 2 * p, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents " (5 + 2 * p) " 0 R >>")
		obj(5 + 2 * p, "<< /Length " length(s) " >>\nstream\n" s "\nendstream")
	}
	n = 4 + 2 * pages; xref = pos
	out("xref\n0 " n "\n0000000000 65535 f \n")
	for (i = 1; i < n; i++) out(sprintf("%010d 00000 n \n", off[i]))
	out("trailer\n<< /Size " n " /Root 1 0 R >>\nstartxref\n" xref "\n%%EOF\n")
}' > long.pdf

# Killed inside the document's transaction: nothing of it is visible.
SWORN_FAULT=store-doc:1:crash "$SWORN" ingest -m m --no-ocr long.pdf >"$T/out" 2>"$T/err"
eq "killed" "$?" 137
eq "integrity after crash" "$(sql m 'PRAGMA integrity_check')" "ok"
eq "no half document" "$(sql m 'SELECT count(*) FROM documents')" 0
eq "no pages" "$(sql m 'SELECT count(*) FROM pages')" 0

run 0 "$SWORN" ingest -m m --no-ocr long.pdf
has "$T/out" "imported 1, skipped 0, failed 0 (150 pages"
eq "page count" "$(sql m 'SELECT page_count FROM documents')" 150
eq "pages" "$(sql m 'SELECT count(*) FROM pages')" 150
eq "stamps" "$(sql m 'SELECT count(bates) FROM pages')" 150
eq "order" "$(sql m "SELECT count(*) FROM pages WHERE text LIKE '%marker' || page_no || ' %'")" 150
eq "page 100" "$(sql m 'SELECT bates FROM pages WHERE page_no = 100')" "PDFS0000100"
eq "meta" "$(sql m "SELECT json_extract(meta, '\$.pdf_pages') || json_extract(meta, '\$.file_name') FROM documents")" "150long.pdf"
run 0 "$SWORN" search -m m marker130
has "$T/out" "PDFS0000130"
