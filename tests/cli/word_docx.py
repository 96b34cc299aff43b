#!/usr/bin/env python3
"""Word documents for the --annotate tests, and the checks of what sworn
writes back.

  word_docx.py brief OUT.docx [--no-comment] [--repeat N]
                                    a brief as Word saves one: runs split by
                                    revision ids, proofing marks, bookmarks,
                                    bold and italic runs, typographic quotes,
                                    an escaped ampersand, a table, a
                                    reviewer's own comment, the parts Word
                                    writes beside the document
  word_docx.py check IN OUT CLAIMS  OUT is IN with a comment on each claim:
                                    every other part byte for byte, the text
                                    and each character's formatting as they
                                    were, each sworn comment's range holding
                                    its claim's text (CLAIMS: verify --json)
  word_docx.py comments OUT         each comment as "author: text", a line each
  word_docx.py odt FILE.odt         each comment of LibreOffice's conversion:
                                    author, the text it ranges over, its
                                    first line (tab-separated)
"""
import json
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = {"w": W}
q = lambda tag: "{%s}%s" % (W, tag)

HEAD = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<w:document xmlns:wpc="http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas" '
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
        'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
        'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
        'mc:Ignorable="w14"><w:body>')

RPR = '<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="24"/></w:rPr>'
BOLD = '<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:b/><w:sz w:val="24"/></w:rPr>'
ITAL = '<w:rPr><w:i/><w:iCs/></w:rPr>'


def run(text, rpr=RPR, rsid="00A1B2C3"):
    space = ' xml:space="preserve"' if text != text.strip() else ''
    return '<w:r w:rsidR="%s">%s<w:t%s>%s</w:t></w:r>' % (rsid, rpr, space, text)


def para(*runs, style=None):
    ppr = '<w:pPr><w:pStyle w:val="%s"/></w:pPr>' % style if style else ''
    return '<w:p w:rsidR="00A1B2C3" w:rsidRDefault="00D4E5F6">%s%s</w:p>' % (ppr, ''.join(runs))


def brief():
    body = [
        para('<w:commentRangeStart w:id="0"/>', run("MEMORANDUM IN SUPPORT OF SUMMARY JUDGMENT"),
             '<w:commentRangeEnd w:id="0"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/>'
             '</w:rPr><w:commentReference w:id="0"/></w:r>', style="Heading1"),
        para('<w:bookmarkStart w:id="1" w:name="_Toc1"/>',
             run("Brightline shipped PO 4471 on "), run("March 31, 2021", BOLD, "00F0F0F0"),
             '<w:bookmarkEnd w:id="1"/>',
             run(", three weeks late. See Ex. 2 at 1. "),
             '<w:proofErr w:type="spellStart"/>', run("Brightline"), '<w:proofErr w:type="spellEnd"/>',
             run(" knew the date: Tom Smith wrote that \u201c", rsid="00112233"),
             run("the earliest we can ship is April 30, 2021", RPR, "00445566"),
             run("\u201d (ACME0000003).")),
        para(run("The invoice charged $52,850.00 for housings &amp; freight (ACME0000012).")),
        para(run("Summary judgment is proper. "), run("Celotex Corp. v. Catrett", ITAL),
             run(", 477 U.S. 317, 322 (1986); "), run("Vale v. Acme Widgets", ITAL),
             run(", 999 F.3d 123, 125 (9th Cir. 2020).")),
        '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr>'
        '<w:tr><w:tc>' + para(run("Invoice")) + '</w:tc><w:tc>' + para(run("ACME0000099")) + '</w:tc></w:tr>'
        '<w:tr><w:tc>' + para(run("Letter")) + '</w:tc><w:tc>' + para(run("ACME0000007")) + '</w:tc></w:tr>'
        '</w:tbl>',
        para(run("Dated: May 1, 2021")),
        '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>',
    ]
    return HEAD + ''.join(body) + '</w:body></w:document>'


PARTS = {
    "[Content_Types].xml":
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>'
        '<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>'
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
        '</Types>',
    "_rels/.rels":
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
        '</Relationships>',
    "word/_rels/document.xml.rels":
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/>'
        '</Relationships>',
    "word/styles.xml":
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<w:styles xmlns:w="%s"><w:style w:type="paragraph" w:styleId="Heading1">'
        '<w:name w:val="heading 1"/><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style></w:styles>' % W,
    "word/settings.xml":
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<w:settings xmlns:w="%s"><w:zoom w:percent="100"/></w:settings>' % W,
    "docProps/core.xml":
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Brief</dc:title>'
        '<dc:creator>Jane Roe</dc:creator></cp:coreProperties>',
}


def write_brief(path, with_comment=True, repeat=1):
    parts = dict(PARTS)
    doc = brief()
    if repeat > 1:  # the body again and again: sentences run on from its table
        body = doc[doc.index("<w:body>") + 8:doc.index("<w:sectPr")]
        doc = doc.replace(body, body * repeat, 1)
    if with_comment:
        parts["word/comments.xml"] = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
            '<w:comments xmlns:w="%s"><w:comment w:id="0" w:author="Jane Roe" w:initials="JR">'
            '<w:p><w:r><w:annotationRef/></w:r><w:r><w:t>Shorten the title.</w:t></w:r></w:p>'
            '</w:comment></w:comments>' % W)
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            "</Types>", '<Override PartName="/word/comments.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/></Types>')
        parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(
            "</Relationships>", '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships/comments" Target="comments.xml"/></Relationships>')
    else:
        doc = re.sub(r'<w:commentRange(Start|End) w:id="0"/>', '', doc)
        doc = re.sub(r'<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr>'
                     r'<w:commentReference w:id="0"/></w:r>', '', doc)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", parts.pop("[Content_Types].xml"))
        z.writestr("word/document.xml", doc)
        for name, data in parts.items():
            z.writestr(name, data)


def chars(doc_xml):
    """Each character of the body's text with its run's formatting, and
    where the comment ranges start and end (character index by id)."""
    root = ET.fromstring(doc_xml)
    out, starts, ends = [], {}, {}
    for p in root.iter(q("p")):
        for el in p.iter():
            if el.tag == q("commentRangeStart"):
                starts[el.get(q("id"))] = len(out)
            elif el.tag == q("commentRangeEnd"):
                ends[el.get(q("id"))] = len(out)
            elif el.tag == q("r"):
                rpr = el.find("w:rPr", NS)
                fmt = ET.tostring(rpr) if rpr is not None else b""
                for t in el.findall("w:t", NS):
                    out.extend((c, fmt) for c in (t.text or ""))
        out.append(("\n", b""))
    return out, starts, ends


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(src, dst, claims_json):
    a, b = zipfile.ZipFile(src), zipfile.ZipFile(dst)
    if b.testzip() is not None:
        fail("the annotated archive is damaged")
    an, bn = a.namelist(), b.namelist()
    if bn[0] != "[Content_Types].xml":
        fail("[Content_Types].xml is not the first entry")
    if [n for n in an if n not in bn]:
        fail("entries lost: %s" % [n for n in an if n not in bn])
    changed = {"word/document.xml", "word/comments.xml", "[Content_Types].xml",
               "word/_rels/document.xml.rels"}
    for n in an:
        if n not in changed and a.read(n) != b.read(n):
            fail("%s changed" % n)
    ct = b.read("[Content_Types].xml").decode()
    if ct.count("/word/comments.xml") != 1 or "comments+xml" not in ct:
        fail("no single content type for word/comments.xml")
    rels = b.read("word/_rels/document.xml.rels").decode()
    if rels.count("relationships/comments") != 1:
        fail("no single relationship to comments.xml")
    ca, sa, ea = chars(a.read("word/document.xml"))
    cb, sb, eb = chars(b.read("word/document.xml"))
    if [c for c, _ in ca] != [c for c, _ in cb]:
        fail("the text changed")
    if ca != cb:
        fail("a character's formatting changed")
    text = "".join(c for c, _ in cb)
    croot = ET.fromstring(b.read("word/comments.xml"))
    comments = {c.get(q("id")): c for c in croot.findall("w:comment", NS)}
    refs = [r.get(q("id")) for r in ET.fromstring(b.read("word/document.xml")).iter(q("commentReference"))]
    if sorted(refs) != sorted(comments) or sorted(sb) != sorted(comments) or sorted(eb) != sorted(comments):
        fail("ranges %s, ends %s, references %s, comments %s" % (sorted(sb), sorted(eb), sorted(refs), sorted(comments)))
    if len(set(comments)) != len(comments):
        fail("two comments share an id")
    # The claims that did not pass, but those in the reader's list of
    # tracked changes and comments (not in the document's text).
    flat = " ".join(text.split())
    claims = [c for c in json.load(open(claims_json))["claims"]
              if c["verdict"] != "supported" and " ".join(c["text"].split()) in flat]
    mine = {i: c for i, c in comments.items() if c.get(q("author")) == "sworn"}
    if len(mine) != len(claims):
        fail("%d sworn comments for %d claims that did not pass" % (len(mine), len(claims)))
    # Each claim's text is what its comment's range holds, and the comment
    # says its verdict and reason.
    spans = {}
    for i, c in mine.items():
        body = "\n".join("".join(t.text or "" for t in p.iter(q("t"))) for p in c.findall("w:p", NS))
        spans[text[sb[i]:eb[i]]] = body
    for c in claims:
        ranged = " ".join(c["text"].split())
        body = next((b for s, b in spans.items() if " ".join(s.split()) == ranged), None)
        if body is None:
            fail("no comment ranges over %r (ranges: %s)" % (c["text"], list(spans)))
        if c["verdict"] not in body.split("\n")[0] or c["reason"] not in body:
            fail("the comment on %r lacks its verdict or reason: %r" % (c["text"], body))
    print("ok: %d comments on %d claims; text, formatting and %d other parts unchanged"
          % (len(mine), len(claims), len(an) - 4))


def odt_annotations(path):
    """What LibreOffice made of the comments (an .odt it converted): per
    annotation its author, the text it ranges over and its first line."""
    O = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
    DC = "http://purl.org/dc/elements/1.1/"
    root = ET.fromstring(zipfile.ZipFile(path).read("content.xml"))
    body = root.find("{%s}body" % O)
    found, open_ = [], {}

    def walk(el):
        if el.tag == "{%s}annotation" % O:
            name = el.get("{%s}name" % O)
            author = el.findtext("{%s}creator" % DC) or ""
            paras = ["".join(p.itertext()) for p in el if p.tag.endswith("}p")]
            entry = [author, "", paras[0] if paras else ""]
            found.append(entry)
            open_[name] = entry
            if el.tail:
                for e in open_.values():
                    e[1] += el.tail
            return
        if el.tag == "{%s}annotation-end" % O:
            open_.pop(el.get("{%s}name" % O), None)
        elif el.text:
            for e in open_.values():
                e[1] += el.text
        for child in el:
            walk(child)
        if el.tail:
            for e in open_.values():
                e[1] += el.tail

    walk(body)
    for author, text, first in found:
        print("%s\t%s\t%s" % (author, text, first))


def list_comments(path):
    z = zipfile.ZipFile(path)
    root = ET.fromstring(z.read("word/comments.xml"))
    for c in root.findall("w:comment", NS):
        body = " | ".join("".join(t.text or "" for t in p.iter(q("t"))) for p in c.findall("w:p", NS))
        print("%s: %s" % (c.get(q("author")), body))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "brief":
        opts = sys.argv[3:]
        write_brief(sys.argv[2], with_comment="--no-comment" not in opts,
                    repeat=int(opts[opts.index("--repeat") + 1]) if "--repeat" in opts else 1)
    elif cmd == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "odt":
        odt_annotations(sys.argv[2])
    elif cmd == "comments":
        list_comments(sys.argv[2])
    else:
        sys.exit(__doc__)
