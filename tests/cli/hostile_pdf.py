#!/usr/bin/env python3
"""hostile_pdf.py OUT: a PDF of a few KB whose one page draws a form that
draws a form ... (seven levels, each drawing the next ten times: ten
million draws of the last), with a line of text on the page itself.  Its
text imports within the page bounds; drawing it whole takes hours.  Used
by tests/cli/serve_hostile.sh and tests/browser/seed.sh."""
import sys
objs = {
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
    3: b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >>"
       b" /XObject << /X 6 0 R >> >> >>",
    5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
}
def stream(dict_, data):
    return b"<< " + dict_ + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
objs[4] = stream(b"", b"BT /F1 12 Tf 72 720 Td (Exhibit 7: the hostile page) Tj ET\n"
                      + b"/X Do " * 10)
for k in range(6, 13):  # forms 6..12, each drawing the next ten times
    if k < 12:
        body = b"q 0.9 0 0 0.9 1 1 cm /X Do Q " * 10
        res = b"/Resources << /XObject << /X %d 0 R >> >>" % (k + 1)
    else:
        body = b"0 0 m 600 780 l S 0 780 m 600 0 l S"
        res = b"/Resources << >>"
    objs[k] = stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] " + res, body)
out = bytearray(b"%PDF-1.4\n")
off = {}
for k in sorted(objs):
    off[k] = len(out)
    out += b"%d 0 obj\n" % k + objs[k] + b"\nendobj\n"
xref = len(out)
n = max(objs) + 1
out += b"xref\n0 %d\n0000000000 65535 f \n" % n
for k in range(1, n):
    out += b"%010d 00000 n \n" % off[k]
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (n, xref)
open(sys.argv[1], "wb").write(out)
