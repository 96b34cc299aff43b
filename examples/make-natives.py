#!/usr/bin/env python3
"""make-natives.py - writes the binary and generated parts of examples/acme:
the load files of both productions (Concordance DAT, Opticon OPT), the
natives (.eml, .docx), the loose PDFs, the deposition transcript and the
Excel-saved labels CSV.  Python 3 standard library only; run it from any
folder after editing the texts below, and commit what it writes.

The PDF writer is a minimal one of our own (one Helvetica text line per
line of input, WinAnsi encoding): enough for pdftotext and poppler to read
real text back.
"""
import io
import os
import zipfile

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "acme")


def write(rel, data, mode="wb"):
    path = os.path.join(TOP, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


# --- load files -------------------------------------------------------------

DAT_FIELDS = ["BEGBATES", "ENDBATES", "BEGATTACH", "ENDATTACH", "CUSTODIAN",
              "DATESENT", "FROM", "TO", "SUBJECT", "FILENAME", "TEXTPATH",
              "NATIVEPATH"]


def dat(rows, encoding, bom):
    """Concordance delimiters: thorn quotes, DC4 separates, CRLF ends."""
    out = []
    for r in [DAT_FIELDS] + rows:
        out.append("\x14".join("\u00fe" + v + "\u00fe" for v in r) + "\r\n")
    data = "".join(out).encode(encoding)
    return (b"\xef\xbb\xbf" if bom else b"") + data


def opt(volume, docs, prefix_width):
    """One line per page: Bates, volume, image path, document break, ..., pages."""
    lines = []
    for beg, pages, box in docs:
        prefix, num, width = prefix_width(beg)
        for i in range(pages):
            bates = "%s%0*d" % (prefix, width, num + i)
            lines.append("%s,%s,IMAGES\\%s\\%s.tif,%s,,,%s\r\n" % (
                bates, volume, box, bates, "Y" if i == 0 else "",
                pages if i == 0 else ""))
    return "".join(lines).encode("ascii")


def acme_bates(b):
    return "ACME", int(b[4:]), 7


def blt_bates(b):
    return "BLT-", int(b[4:]), 6


VOL001 = [
    ["ACME0000001", "ACME0000002", "ACME0000001", "ACME0000002", "Roe, Jane",
     "01/15/2021", "", "", "Master Supply Agreement", "Master Supply Agreement.pdf",
     r"TEXT\TEXT001\ACME0000001.txt", ""],
    ["ACME0000003", "ACME0000003", "ACME0000003", "ACME0000004", "Roe, Jane",
     "03/03/2021", "Tom Smith <tsmith@brightline.example>",
     "Jane Roe <jroe@acme.example>", "RE: PO 4471 delivery date",
     "RE PO 4471 delivery date.eml", r"TEXT\TEXT001\ACME0000003.txt",
     r"NATIVES\NATIVE001\ACME0000003.eml"],
    ["ACME0000004", "ACME0000004", "ACME0000003", "ACME0000004", "Roe, Jane",
     "", "", "", "", "Revised shipping schedule.docx",
     r"TEXT\TEXT001\ACME0000004.txt", r"NATIVES\NATIVE001\ACME0000004.docx"],
    ["ACME0000005", "ACME0000007", "ACME0000005", "ACME0000007", "Billing",
     "04/02/2021", "", "", "Invoice 8812", "Invoice 8812.pdf",
     r"TEXT\TEXT001\ACME0000005.txt", ""],
    ["ACME0000008", "ACME0000009", "ACME0000008", "ACME0000009", "Roe, Jane",
     "04/20/2021", "", "", "Notice of breach", "Notice of breach.docx",
     r"TEXT\TEXT001\ACME0000008.txt", ""],
    ["ACME0000010", "ACME0000010", "ACME0000010", "ACME0000010", "Receiving",
     "04/06/2021", "", "", "Receiving log", "Receiving log April 2021.xlsx",
     r"TEXT\TEXT001\ACME0000010.txt", ""],
]

BLT001 = [
    ["BLT-000001", "BLT-000002", "BLT-000001", "BLT-000002", "Whitaker, Dana",
     "03/02/2021", "", "", "Line 3 outage - open orders", "Line 3 outage memo.docx",
     r"TEXT\TEXT001\BLT-000001.txt", ""],
    ["BLT-000003", "BLT-000005", "BLT-000003", "BLT-000005", "Shipping",
     "03/31/2021", "", "", "Bill of lading NF-88213", "BOL NF-88213.pdf",
     r"TEXT\TEXT001\BLT-000003.txt", ""],
    ["BLT-000006", "BLT-000009", "BLT-000006", "BLT-000009", "Patel, Raj",
     "01/04/2020", "", "", "Customer credit procedure", "Credit procedure Rev 3.pdf",
     r"TEXT\TEXT001\BLT-000006.txt", ""],
    ["BLT-000010", "BLT-000012", "BLT-000010", "BLT-000012", "Patel, Raj",
     "04/26/2021", "Raj Patel <rpatel@brightline.example>",
     "Peter Vale <pvale@brightline.example>", "RE: Acme notice of breach",
     "RE Acme notice of breach.eml", r"TEXT\TEXT001\BLT-000010.txt",
     r"NATIVES\NATIVE001\BLT-000010.eml"],
]


# --- natives ----------------------------------------------------------------

def eml_smith():
    return ("""From: Tom Smith <tsmith@brightline.example>
To: Jane Roe <jroe@acme.example>
Date: Wed, 03 Mar 2021 09:14:37 -0500
Subject: RE: PO 4471 delivery date
Message-ID: <20210303091437.4471@brightline.example>
In-Reply-To: <20210302164012.77@acme.example>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="=_sched_4471"

--=_sched_4471
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: 8bit

Jane,

We will not make the March 10 date for PO 4471. The earliest we can ship is
March 31, 2021. I know this is past the thirty days in the agreement.

The revised schedule is attached.

Tom

-----Original Message-----
From: Jane Roe <jroe@acme.example>
Sent: Tuesday, March 2, 2021 4:40 PM
To: Tom Smith <tsmith@brightline.example>
Subject: PO 4471 delivery date

Tom, please confirm that PO 4471 will arrive by March 10.

--=_sched_4471
Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document;
 name="Revised shipping schedule.docx"
Content-Disposition: attachment; filename="Revised shipping schedule.docx"
Content-Transfer-Encoding: base64

""" + b64(docx_schedule()) + """
--=_sched_4471--
""").replace("\n", "\r\n").encode("utf-8")


def eml_patel():
    return """From: Raj Patel <rpatel@brightline.example>
To: Peter Vale <pvale@brightline.example>
Date: Mon, 26 Apr 2021 10:05:52 -0400
Subject: RE: Acme notice of breach
Message-ID: <20210426100552.9@brightline.example>
MIME-Version: 1.0
Content-Type: text/plain; charset="us-ascii"

Peter,

I have Dana's March 2 memo. Under our own procedure the Acme credit should
have gone out in March. I recommend we issue it now rather than wait for
payment of invoice 8812.

Raj

-----Original Message-----
From: Peter Vale <pvale@brightline.example>
Sent: Friday, April 23, 2021 5:47 PM
To: Raj Patel <rpatel@brightline.example>
Subject: Acme notice of breach

Raj, no credit goes to Acme until they pay invoice 8812 in full.
""".replace("\n", "\r\n").encode("ascii")


def eml_roe():
    """A loose e-mail with an attachment, a quoted reply and an invoice
    number on its last line (an identifier, not a Bates stamp)."""
    return ("""Return-Path: <jroe@acme.example>
From: Jane Roe <jroe@acme.example>
To: Peter Vale <pvale@brightline.example>
Cc: Raj Patel <rpatel@brightline.example>
Date: Thu, 22 Apr 2021 16:02:11 -0400
Subject: Re: Notice of breach - PO 4471
Message-ID: <CA+roe.20210422160211@acme.example>
In-Reply-To: <20210421113002.5@brightline.example>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="000000000000a1b2c3"

--000000000000a1b2c3
Content-Type: text/plain; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

Peter,

Our notice of April 20 stands. The credit under section 2 is $3,060.00, and=
 we
expect it by May 4, 2021. I attach our calculation.

Jane

On Wed, Apr 21, 2021 at 11:30 AM Peter Vale <pvale@brightline.example> wrote:
> Jane, we are reviewing your notice and will respond after we speak with
> our controller.
>
> Peter

Jane Roe | General Counsel | Acme Widgets, Inc.
Invoice INV-10236
--000000000000a1b2c3
Content-Type: text/plain; charset="UTF-8"; name="credit-calculation.txt"
Content-Disposition: attachment; filename="credit-calculation.txt"

Credit calculation - PO 4471
Order price: $51,000.00
Weeks of delay: 3
Credit at 2% per week: $3,060.00
--000000000000a1b2c3--
""").replace("\n", "\r\n").encode("utf-8")


def b64(data):
    import base64
    s = base64.b64encode(data).decode("ascii")
    return "\n".join(s[i:i + 76] for i in range(0, len(s), 76))


def docx(paragraphs):
    esc = (lambda t: t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    body = "".join('<w:p><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>' % esc(p)
                   for p in paragraphs)
    doc = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
           '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
           '<w:body>%s<w:sectPr/></w:body></w:document>' % body)
    types = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
             '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default Extension="xml" ContentType="application/xml"/>'
             '<Override PartName="/word/document.xml" ContentType="application/'
             'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
    rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/officeDocument" Target="word/document.xml"/></Relationships>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", types), ("_rels/.rels", rels),
                           ("word/document.xml", doc)):
            info = zipfile.ZipInfo(name, date_time=(2021, 3, 3, 9, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return buf.getvalue()


def docx_schedule():
    return docx(["REVISED SHIPPING SCHEDULE - PO 4471",
                 "Prepared by Brightline Operations, March 3, 2021",
                 "Original ship date: March 8, 2021",
                 "Revised ship date: March 31, 2021",
                 "Reason: Line 3 press outage; replacement die on order."])


# --- PDF --------------------------------------------------------------------

def pdf(pages, title):
    """pages: a list of lists of lines.  Returns the PDF's bytes."""
    def esc(s):
        return (s.encode("cp1252").replace(b"\\", b"\\\\")
                .replace(b"(", b"\\(").replace(b")", b"\\)"))
    objs = []  # bodies; object n is objs[n-1]
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(None)  # pages, filled below
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                b"/Encoding /WinAnsiEncoding >>")
    objs.append(b"<< /Title (" + esc(title) + b") /Producer (sworn examples) "
                b"/CreationDate (D:20210419120000-04'00') >>")
    kids = []
    for lines in pages:
        ops = [b"BT /F1 11 Tf 14 TL 72 720 Td"]
        for ln in lines:
            ops.append(b"(" + esc(ln) + b") Tj T*")
        ops.append(b"ET")
        stream = b"\n".join(ops)
        objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content = len(objs)
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                    b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content)
        kids.append(len(objs))
    objs[1] = (b"<< /Type /Pages /Count %d /Kids [" % len(kids) +
               b" ".join(b"%d 0 R" % k for k in kids) + b"] >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += (b"trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (len(objs) + 1, xref))
    return bytes(out)


PO_4471 = [[
    "ACME WIDGETS, INC.",
    "PURCHASE ORDER 4471",
    "",
    "Date: February 8, 2021",
    "Vendor: Brightline Logistics LLC",
    "Ship to: Acme Widgets, Inc., Dock 2, Newark, Delaware",
    "",
    "Item: widget housing WH-20",
    "Quantity: 12,000     Unit price: $4.25     Amount: $51,000.00",
    "",
    "Delivery required by: March 10, 2021",
    "Terms: per the Master Supply Agreement dated January 15, 2021.",
    "",
    "Authorized: Jane Roe, General Counsel",
]]

CREDIT_CALC = [[
    "CREDIT CALCULATION - PO 4471",
    "Prepared April 19, 2021",
    "",
    "The delivery date under section 1 of the Master Supply Agreement was",
    "March 10, 2021, thirty days after purchase order 4471. Acme re-",
    "ceived the order on April 6, 2021, twenty-seven days late. Section 2",
    "gives a credit of two percent of the order price for each week of",
    "delay. Acme reserves its right to",
    "",
    "Page 1 of 2",
], [
    "claim a fourth week once the final delivery records are produced.",
    "",
    "Three full weeks of delay at two percent a week is six percent of the",
    "order price of $51,000.00, or $3,060.00.",
    "",
    "Page 2 of 2",
]]


# --- transcript -------------------------------------------------------------

SMITH = [
    # page 1: caption
    ["UNITED STATES DISTRICT COURT", "FOR THE DISTRICT OF DELAWARE", "",
     "ACME WIDGETS, INC.,", "          Plaintiff,", "     v.              C.A. No. 21-1187",
     "BRIGHTLINE LOGISTICS LLC,", "          Defendant.", "", "",
     "     VIDEOTAPED DEPOSITION OF THOMAS SMITH", "", "     Wilmington, Delaware",
     "     Wednesday, March 2, 2022", "", "", "", "",
     "     Reported by: Karen Lutz, RPR", "", "", "", "", "", ""],
    # page 2: appearances, the oath
    ["APPEARANCES:", "", "For the Plaintiff:", "     Maria Ellis, Esq.",
     "     Ellis & Park LLP", "", "For the Defendant:", "     Owen Grant, Esq.",
     "     Grant Whitfield LLP", "", "", "     THOMAS SMITH, having been first duly",
     "sworn, was examined and testified as follows:", "", "EXAMINATION BY MS. ELLIS:",
     "Q.  Please state your name for the record.", "A.  Thomas Smith.",
     "Q.  Where do you work?", "A.  Brightline Logistics, in operations.",
     "Q.  What is your title?", "A.  Shipping supervisor.",
     "Q.  How long have you held that job?", "A.  Six years this June.",
     "Q.  Did you handle the Acme account in 2021?", "A.  Yes."],
    # page 3
    ["Q.  Did you write to Jane Roe about PO 4471?", "A.  Yes, on March 3, 2021.",
     "Q.  What did you tell her?", "A.  That we would miss the March 10 date.",
     "Q.  Why?", "A.  The Line 3 press was down.", "Q.  When did the order ship?",
     "A.  March 31, 2021.", "Q.  Was that within thirty days of the purchase order?",
     "A.  No, it was not.", "Q.  When did Acme receive it?",
     "A.  I believe April 6. The carrier had it for", "    most of a week.",
     "Q.  Did Brightline apply a late-delivery credit?", "A.  Not on invoice 8812, no.",
     "Q.  Why not?", "A.  Billing was not told about the delay.",
     "Q.  Who decides whether a credit applies?",
     "A.  Our controller, after operations reports a", "    delay.",
     "Q.  Did operations report this delay?", "A.  I do not recall doing so.",
     "Q.  Did anyone else?", "A.  Dana Whitaker may have sent something to the",
     "    controller, but I never saw it"],
    # page 4
    ["    myself.", "Q.  Look at Exhibit 2, please.", "A.  That is invoice 8812.",
     "Q.  Does it show any credit?", "A.  It says \u201cLate delivery credit applied: none.\u201d",
     "Q.  And the date it shipped?", "A.  March 31.", "Q.  Any reason to doubt that?",
     "A.  No.", "Q.  Have you seen Defendant's Exhibit 3?",
     "A.  Yes, that is our customer credit procedure.",
     "Q.  Does it say when credits are approved?",
     "A.  Within ten business days of the delay", "    report.",
     "Q.  Was a credit approved for Acme within ten", "    business days of March 2?",
     "A.  Not that I know of.", "MS. ELLIS:  Let's take a short break.",
     "(Recess taken.)", "Q.  Mr. Smith, before the break we discussed the",
     "    credit procedure. Did anyone tell Acme that", "    the credit was on hold?",
     "A.  Not in writing.", "Q.  Orally?", "A.  I told Jane Roe on the phone that the"],
    # page 5
    ["    controller was holding all credits until the", "    ship dates were final.",
     "Q.  When was that call?", "A.  Around March 5.",
     "Q.  Did Ms. Roe agree to wait?", "A.  She did not say one way or the other.",
     "Q.  Did Brightline ever issue the credit?", "A.  Not as of today, no.",
     "Q.  Are you aware of Mr. Patel's e-mail of", "    April 26?",
     "A.  I have seen it since.", "Q.  What does it recommend?",
     "A.  That we issue the credit rather than wait", "    for payment of invoice 8812.",
     "Q.  Did anyone follow that recommendation?", "A.  Not to my knowledge.",
     "MS. ELLIS:  Nothing further.", "MR. GRANT:  No questions.",
     "THE VIDEOGRAPHER:  We are off the record.", "(Deposition concluded at 11:42 a.m.)",
     "", "", "", "", ""],
    # page 6: certificate
    ["CERTIFICATE OF REPORTER", "", "I, Karen Lutz, Registered Professional",
     "Reporter, certify that the witness was duly", "sworn and that this transcript is a true record",
     "of the testimony given.", "", "", "     Karen Lutz, RPR", "", "", "", "", "", "", "",
     "", "", "", "", "", "", "", "", ""],
]


def transcript(pages):
    out = []
    for n, lines in enumerate(pages, 1):
        assert len(lines) == 25, (n, len(lines))
        page = ["%60s" % ("Page %d" % n)]
        for i, ln in enumerate(lines, 1):
            page.append(("%2d   %s" % (i, ln)).rstrip())
        page.append("")
        page.append("              Lakeside Court Reporting, LLC")
        out.append("\n".join(page) + "\n")
    return "\f".join(out).encode("utf-8")


# --- labels -----------------------------------------------------------------

LABELS = [
    ("Label", "Target"),
    ("Pl. Ex. 1", "ACME0000001"),
    ("Pl. Ex. 2", "ACME0000005"),
    ("Pl. Ex. 3", "ACME0000008"),
    ("Pl. Ex. 4", "purchase-order-4471.pdf"),
    ("Pl. Ex. 5", "roe-vale-2021-04-22.eml"),
    ("Pl. Ex. 6", "credit-calculation.pdf"),
    ("Def. Ex. 1", "BLT-000001"),
    ("Def. Ex. 2", "BLT-000003"),
    ("Def. Ex. 3", "BLT-000006"),
    ("DX-7", "BLT-000010"),
    ("Smith Dep.", "smith-dep.txt"),
]


def main():
    write("VOL001/DATA/VOL001.DAT", dat(VOL001, "utf-8", True))
    write("VOL001/DATA/VOL001.OPT", opt("VOL001", [
        ("ACME0000001", 2, "IMG001"), ("ACME0000003", 1, "IMG001"),
        ("ACME0000004", 1, "IMG001"), ("ACME0000005", 3, "IMG001"),
        ("ACME0000008", 2, "IMG001"), ("ACME0000010", 1, "IMG001")], acme_bates))
    write("BLT001/DATA/BLT001.DAT", dat(BLT001, "cp1252", False))
    write("BLT001/DATA/BLT001.OPT", opt("BLT001", [
        ("BLT-000001", 2, "IMG001"), ("BLT-000003", 3, "IMG001"),
        ("BLT-000006", 4, "IMG001"), ("BLT-000010", 3, "IMG001")], blt_bates))
    write("VOL001/NATIVES/NATIVE001/ACME0000003.eml", eml_smith())
    write("VOL001/NATIVES/NATIVE001/ACME0000004.docx", docx_schedule())
    write("BLT001/NATIVES/NATIVE001/BLT-000010.eml", eml_patel())
    write("pdf/purchase-order-4471.pdf", pdf(PO_4471, "Purchase order 4471"))
    write("pdf/credit-calculation.pdf", pdf(CREDIT_CALC, "Credit calculation - PO 4471"))
    write("email/roe-vale-2021-04-22.eml", eml_roe())
    write("transcripts/smith-dep.txt", transcript(SMITH))
    csv = "".join("%s,%s\r\n" % row for row in LABELS)
    write("labels.csv", b"\xef\xbb\xbf" + csv.encode("utf-8"))


if __name__ == "__main__":
    main()
