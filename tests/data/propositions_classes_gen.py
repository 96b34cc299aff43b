#!/usr/bin/env python3
"""propositions_classes_gen.py - writes tests/data/propositions_classes.jsonl,
labelled proposition cases grouped by class (issue 36), and checks every
label against the record's own page text.

Usage: propositions_classes_gen.py [--check MATTER.db] [-o FILE]

The record is the example matter (examples/acme, its labels.csv) together
with tests/data/class-record (a subcontract dispute: a lot register and an
erection log as text tables, a pay application, e-mails, site-meeting
minutes with speakers, an inspection report and a deposition whose witness
says "we"; its own labels.csv), both imported into one matter.

Each case is one sentence as a model writes it, with its record cite in
parentheses, a label (supported or mismatch) and one class:
  unnamed-party      a witness or writer says "we", "our crew", "I"; the party
                     is named only elsewhere (question line, caption, e-mail
                     address, letterhead); the mismatches give the "we" to
                     another party or change what was said
  defined-term       sentence-initial capitals, defined terms and headings
                     ("Under the Subcontract", "Change Order No. 7")
  table-row          one row of a text table; mismatches take a value from
                     the neighbouring row (on the same page)
  number-words       numbers written in words on either side
  arithmetic         a percentage of an amount, a sum of rows, a product,
                     days between two dates on the page
  date-format        the page's date in another format
  negation           true denials and affirmations; mismatches deny what the
                     page says happened, or affirm what it denies
  count              how many the page lists ("only one" where it shows two)
  quote-attribution  a quotation given to its speaker, or to another one
  wrong-party        who hauled, signed, approved, inspected, reported
  chronology         one entry per line (a date, the event, its cite), written
                     as consecutive lines of a block (layout "line")
Checks, with --check (a matter built as tests/cli/propositions_classes.sh
builds it), on the cited pages only (a transcript cite: its cited lines):
  has / lacks   strings that must / must not be there (folded: case, curly
                quotes, whitespace; lacks matches whole words)
  chk           class checks the generator computes from the page itself:
                ("value", n) / ("novalue", n)   a number of that value (digits
                    or words, "two hundred and twelve") is / is not there
                ("date", iso)   the sentence's date is iso; for a supported
                    case some date on the page (any format) is iso, for a
                    mismatch none is
                ("row", key, {col: value})   the table row whose first column
                    is key has these cells (a mismatch: some cell differs and
                    the wrong value is in the neighbouring row)
                ("sum", [amounts], total) ("pct", p, base, result)
                ("product", a, b, result) ("days", d1, d2, n)   the operands
                    are on the page; the result holds (supported) or not
                ("count", regex, n)   the page has n distinct matches (a
                    mismatch: not n)
                ("speaker", quote, name)   the quotation is there and its
                    speaker (transcript Q/A/colloquy, "Name:" lines, an
                    e-mail's From) is / is not name
                ("role", regex, party)   the regex's group names party (its
                    last word; a mismatch: another party, one the record
                    names elsewhere)
                ("elsewhere", name)   name is in the cited document, outside
                    the cited text
A case whose label the page does not bear out is reported and nothing is
written.
"""
import datetime
import json
import re
import sqlite3
import sys

CASES = []
CLASSES = ("unnamed-party", "defined-term", "table-row", "number-words", "arithmetic",
           "date-format", "negation", "count", "quote-attribution", "wrong-party", "chronology")
CITE = re.compile(r"^(ACME|BLT-|CRV|Pl\. Ex\.|Def\. Ex\.|DX-|Smith Dep\.|Ortega Dep\.)")


def case(label, cls, sentence, has, lacks, chk, note, layout):
    assert cls in CLASSES, cls
    cites = []
    for group in re.findall(r"\(([^()]+)\)", sentence):
        for c in re.split(r";\s*", group.strip().rstrip(".")):
            c = re.sub(r"^(?:[Ss]ee also|[Ss]ee|[Cc]f\.) ", "", c)
            if CITE.match(c):
                cites.append(c)
    if not cites:
        raise SystemExit("no cite in %r" % sentence)
    CASES.append({"label": label, "class": cls, "sentence": sentence, "cites": cites,
                  "has": list(has), "lacks": list(lacks), "chk": list(chk), "note": note,
                  "layout": layout})


def T(cls, sentence, *has, lacks=(), chk=(), note="", layout="paragraph"):
    case("supported", cls, sentence, has, lacks, chk, note, layout)


def F(cls, sentence, has=(), lacks=(), chk=(), note="", layout="paragraph"):
    case("mismatch", cls, sentence, has, lacks, chk, note, layout)


# ---------------------------------------------------------------- unnamed-party
# The deponent of Ortega Dep. works for Delmar (2:14); he says "we", "our".
U = "unnamed-party"
T(U, "Delmar's crew loaded the Lot 20 trucks (Ortega Dep. 2:18-20).", "We did", "Our crew loads",
  lacks=["Delmar"], chk=[("elsewhere", "Delmar Precast")])
T(U, "Ortega testified that Delmar's crew loads every truck that leaves its yard (Ortega Dep. 2:19-20).",
  "Our crew loads every truck", lacks=["Delmar"], chk=[("elsewhere", "Delmar Precast")])
T(U, "Delmar's yard foreman checked every panel himself before the trucks left (Ortega Dep. 2:23-24).",
  "I checked every panel myself", lacks=["Delmar"], chk=[("elsewhere", "Delmar Precast")])
T(U, "Delmar braced the panels on timber A-frames, twelve to a truck (Ortega Dep. 3:2-4).",
  "We braced them on timber A-frames", lacks=["Delmar"], chk=[("value", 12)])
T(U, "Delmar's curing bed was full with Lot 18, its foreman testified (Ortega Dep. 3:10-11).",
  "Our curing bed was full with Lot 18", lacks=["Delmar"])
T(U, "Delmar made 212 panels for the garage, in five lots (Ortega Dep. 3:23-25).",
  "Two hundred and twelve, in five lots", lacks=["Delmar"], chk=[("value", 212)])
T(U, "Delmar paid each member of its crew fourteen hours of overtime (Ortega Dep. 4:14).",
  "fourteen hours each", lacks=["Delmar"], chk=[("elsewhere", "Did Delmar pay the crew overtime")],
  note="Delmar is in the question on the line before the pin")
T(U, "Ortega testified that Delmar's Nina Park is the one who talks to Carver (Ortega Dep. 3:12-13).",
  "Nina Park talks to Carver", lacks=["Delmar"])
T(U, "Delmar's foreman poured the Lot 21 corner pieces on December 20 (Ortega Dep. 4:6-8).",
  "I poured them on December 20", lacks=["Delmar"])
T(U, "Delmar told Carver that Lot 20 would ship on December 15 (CRV0000008).",
  "we will ship on December 15", "npark@delmarprecast.example", lacks=["Delmar", "Carver"],
  note="Delmar and Carver only in the e-mail addresses")
T(U, "Delmar's Nina Park wrote that Delmar's crew had finished casting Lot 20 that morning (Pl. Ex. 25 at 1).",
  "Our crew finished casting Lot 20 this morning", lacks=["Delmar"])
T(U, "Carver's Ruth Hale told Delmar that two panels of Lot 20 arrived cracked (CRV0000009).",
  "two panels of Lot 20 arrived cracked", lacks=["Carver", "Delmar"])
T(U, "Delmar's yard manager, Nina Park, submitted Pay Application No. 4 (CRV0000007).",
  "Submitted by: Nina Park, Yard Manager", lacks=["Delmar"], chk=[("elsewhere", "DELMAR PRECAST LLC")],
  note="the letterhead is on the application's first page")
T(U, "Delmar asked Carver for $240,480.00 net on its fourth pay application (CRV0000007).",
  "$240,480.00", lacks=["Delmar", "Carver"], chk=[("elsewhere", "To: Carver Construction Co.")])
T(U, "Carver told the meeting it would take the late-delivery credit for Lot 21 from the next payment (CRV0000011).",
  "We will take the late-delivery credit for Lot 21 from the next payment", lacks=["Carver"],
  chk=[("elsewhere", "Ruth Hale (Carver)")])
T(U, "Brightline told Acme that it would miss the March 10 date (Smith Dep. 3:3-4).",
  "That we would miss the March 10 date", lacks=["Brightline", "Acme"])
T(U, "Brightline's shipping supervisor testified that Brightline's controller decides whether a credit applies (Smith Dep. 3:18-20).",
  "Our controller", lacks=["Brightline"])
T(U, "Smith testified that Brightline never told Acme in writing that the credit was on hold (Smith Dep. 4:20-23).",
  "Not in writing", lacks=["Brightline"])
F(U, "Keel Transport's crew loaded the Lot 20 trucks (Ortega Dep. 2:18-20).", has=["We did"],
  lacks=["Keel"], chk=[("elsewhere", "Delmar Precast")], note="we is Delmar")
F(U, "Carver's crew loads every truck that leaves the yard (Ortega Dep. 2:19-20).", has=["Our crew loads"],
  lacks=["Carver"], note="our crew is Delmar's")
F(U, "Keel Transport's curing bed was full with Lot 18 (Ortega Dep. 3:10-11).", has=["Our curing bed"],
  lacks=["Keel"], note="our curing bed is Delmar's")
F(U, "Carver told Delmar that Lot 20 would ship on December 15 (CRV0000008).", has=["we will ship on December 15"],
  chk=[("speaker", "we will ship on December 15", "Ruth Hale")], note="Delmar's Park told Carver's Hale")
F(U, "Carver's Ruth Hale wrote that every panel passed Carver's yard inspection (CRV0000009).",
  chk=[("speaker", "Every panel passed our yard inspection", "Ruth Hale")], note="Delmar's Park wrote it")
F(U, "Carver asked Delmar for $240,480.00 net on its fourth pay application (CRV0000007).",
  has=["Submitted by: Nina Park"], note="Delmar's application to Carver")
F(U, "Delmar's crew loaded forty Lot 20 panels onto four trucks (Ortega Dep. 2:21-22).",
  has=["Forty-eight, on four trucks"], chk=[("novalue", 40)], note="forty-eight")
F(U, "Delmar's crew drove the Lot 20 trucks to the site (Ortega Dep. 3:5-6).", has=["We don't drive"],
  note="Keel Transport's drivers; we don't drive")
F(U, "Delmar told Carver that Lot 20 would ship on December 13 (CRV0000008).", has=["ship on December 15"],
  lacks=["December 13"], note="December 15")
F(U, "Delmar's foreman poured the Lot 21 corner pieces on December 22 (Ortega Dep. 4:6-8).",
  has=["December 20"], lacks=["December 22"], note="December 20")
F(U, "Delmar paid each member of its crew twelve hours of overtime (Ortega Dep. 4:14).",
  has=["fourteen hours each"], chk=[("novalue", 12)], note="fourteen")
F(U, "Delmar made 221 panels for the garage, in five lots (Ortega Dep. 3:23-25).",
  has=["Two hundred and twelve"], chk=[("novalue", 221)], note="two hundred and twelve")
F(U, "Delmar asked Carver for $240,840.00 net on its fourth pay application (CRV0000007).",
  has=["$240,480.00"], lacks=["$240,840.00"], note="$240,480.00")
F(U, "Brightline told Acme that it would miss the March 31 date (Smith Dep. 3:3-4).",
  has=["miss the March 10 date"], lacks=["March 31"], note="March 10")
F(U, "Smith testified that Acme's controller decides whether a credit applies (Smith Dep. 3:18-20).",
  has=["Our controller"], lacks=["Acme"], note="our controller is Brightline's")
F(U, "Delmar's yard foreman testified that he let Carver's inspector check every Lot 20 panel (Ortega Dep. 2:23-24).",
  has=["I checked every panel myself"], lacks=["inspector"], note="he checked them himself")

# who asked whom: the document is addressed to the one asked
T(U, "Delmar billed Carver $240,480.00 net on its fourth pay application (CRV0000007).",
  "Net due this application          $240,480.00")
T(U, "Delmar requested $240,480.00 from Carver in Pay Application No. 4 (CRV0000007).",
  "Net due this application          $240,480.00")
F(U, "Carver billed Delmar $240,480.00 net on its fourth pay application (CRV0000007).",
  has=["Net due this application          $240,480.00"], note="Delmar's application to Carver")
F(U, "Carver requested $240,480.00 from Delmar in Pay Application No. 4 (CRV0000007).",
  has=["Net due this application          $240,480.00"], note="Delmar's application to Carver")
# ---------------------------------------------------------------- defined-term
D = "defined-term"
T(D, "Under the Subcontract, Delmar had to deliver 212 precast wall panels (CRV0000001).",
  "two hundred and twelve (212) precast wall panels")
T(D, "The Subcontract price is $412,500.00 (Pl. Ex. 21 at 1).", "$412,500.00")
T(D, "The Subcontract is dated September 7, 2021 (CRV0000001).", "September 7, 2021")
T(D, "The Project is the Harbor Point Garage (CRV0000001).", "Harbor Point Garage (the \"Project\")")
T(D, "Change Order No. 7 added $18,240.00 to the price (CRV0000003).", "CHANGE ORDER NO. 7", "$18,240.00")
T(D, "Change Order No. 7 extended Lot 20 by seven days (Pl. Ex. 22).", "seven (7) days for Lot 20")
T(D, "Under Change Order No. 7, the Subcontract price rose to $430,740.00 (CRV0000003).",
  "Revised Subcontract price: $430,740.00")
T(D, "Schedule A is Delmar's lot delivery register for the Harbor Point Garage (CRV0000004).",
  "SCHEDULE A - LOT DELIVERY REGISTER - HARBOR POINT GARAGE")
T(D, "Pay Application No. 4 covers the period ending December 31, 2021 (CRV0000006).",
  "PAY APPLICATION NO. 4", "Period ending: December 31, 2021")
T(D, "Section 3 of the Subcontract sets retainage at 10% (CRV0000001).", "3. Retainage", "ten percent (10%)")
T(D, "Notices under the Subcontract go to Ruth Hale and Nina Park (CRV0000002).", "Notices go to", "Ruth Hale",
  "Nina Park")
T(D, "Late Delivery: for each week a lot ships late, the Subcontract gives Carver a credit of two percent of that lot's price (CRV0000002).",
  "Late delivery", "two percent (2%) of that lot's price")
T(D, "Field Inspection Report - Lot 20 lists 48 panels received (CRV0000012).", "FIELD INSPECTION REPORT - LOT 20",
  "Panels received: 48")
T(D, "Meeting No. 12 took place in the site trailer (CRV0000010).", "Meeting No. 12", "site trailer")
T(D, "Asked who loaded the Lot 20 trucks, Ortega said his crew did (Ortega Dep. 2:18-20).",
  "Who loaded the Lot 20 trucks", "We did")
T(D, "The Agreement selects Delaware law (ACME0000002).", "Delaware law governs this Agreement")
T(D, "Under the Agreement, Brightline owed a credit of 2% per week of delay (ACME0000001).", "two percent (2%)")
T(D, "The Master Supply Agreement runs for three years (Pl. Ex. 1 at 2).", "three years")
T(D, "Customer Credit Procedure Rev. 3 took effect on January 4, 2020 (BLT-000006).",
  "CUSTOMER CREDIT PROCEDURE (Rev. 3, effective January 4, 2020)")
# a numbered thing named with another number than the page's
T(D, "At Meeting No. 12, Park said the cracks happened in transit (CRV0000010).", "Meeting No. 12",
  "The cracks happened in transit")
T(D, "Change Order No. 7 added embedded steel plates to the Lot 20 panels (CRV0000003).", "CHANGE ORDER NO. 7",
  "Embedded steel plates added to the 48 panels of Lot 20")
T(D, "Delmar's Pay Application No. 4 billed Change Order No. 7 at $18,240.00 (CRV0000006).",
  "PAY APPLICATION NO. 4", "Change Order No. 7                $18,240.00")
F(D, "At Meeting No. 11, Park said the cracks happened in transit (CRV0000010).", has=["Meeting No. 12"],
  lacks=["No. 11"], note="Meeting No. 12")
F(D, "Change Order No. 8 added embedded steel plates to the Lot 20 panels (CRV0000003).",
  has=["CHANGE ORDER NO. 7"], lacks=["No. 8"], note="Change Order No. 7")
F(D, "Delmar's Pay Application No. 3 billed Change Order No. 7 at $18,240.00 (CRV0000006).",
  has=["PAY APPLICATION NO. 4"], lacks=["No. 3"], note="Pay Application No. 4")
F(D, "Change Order No. 7 added $18,420.00 to the price (CRV0000003).", has=["$18,240.00"],
  lacks=["$18,420.00"], note="$18,240.00")
F(D, "Change Order No. 9 added $18,240.00 to the price (CRV0000003).", has=["CHANGE ORDER NO. 7"],
  lacks=["No. 9"], note="Change Order No. 7")
F(D, "Under the Subcontract, Delmar had to deliver 221 precast wall panels (CRV0000001).",
  has=["(212) precast wall panels"], chk=[("novalue", 221)], note="212")
F(D, "The Subcontract price is $421,500.00 (Pl. Ex. 21 at 1).", has=["$412,500.00"], lacks=["$421,500.00"],
  note="$412,500.00")
F(D, "Change Order No. 7 extended Lot 20 by fourteen days (Pl. Ex. 22).", has=["seven (7) days"],
  chk=[("novalue", 14)], note="seven days")
F(D, "Under Change Order No. 7, the Subcontract price rose to $430,470.00 (CRV0000003).",
  has=["$430,740.00"], lacks=["$430,470.00"], note="$430,740.00")
F(D, "Section 3 of the Subcontract sets retainage at 15% (CRV0000001).", has=["ten percent (10%)"],
  chk=[("novalue", 15)], note="10%")
F(D, "Pay Application No. 5 covers the period ending December 31, 2021 (CRV0000006).",
  has=["PAY APPLICATION NO. 4"], lacks=["No. 5"], note="Pay Application No. 4")
F(D, "Notices under the Subcontract go to Owen Tate and Nina Park (CRV0000002).", has=["Ruth Hale"],
  lacks=["Owen Tate"], note="Ruth Hale, not Owen Tate")
F(D, "Late Delivery: for each week a lot ships late, the Subcontract gives Carver a credit of three percent of that lot's price (CRV0000002).",
  has=["two percent (2%)"], chk=[("novalue", 3)], note="two percent")
F(D, "Field Inspection Report - Lot 20 lists 46 panels received (CRV0000012).", has=["Panels received: 48"],
  chk=[("novalue", 46)], note="48")
F(D, "Under the Subcontract, Carver withholds no retainage (CRV0000001).",
  has=["Carver shall withhold retainage of ten percent"], note="it withholds ten percent")
F(D, "Change Order No. 7 was approved by Alan Brandt for Carver (CRV0000003).", has=["Approved: Ruth Hale"],
  lacks=["Alan Brandt"], note="Ruth Hale approved it")
F(D, "The Agreement selects New York law (ACME0000002).", has=["Delaware law governs"], lacks=["New York"],
  note="Delaware law")
F(D, "Under the Agreement, Brightline owed a credit of 3% per week of delay (ACME0000001).",
  has=["two percent (2%)"], chk=[("novalue", 3)], note="2%")
F(D, "The Master Supply Agreement runs for five years (Pl. Ex. 1 at 2).", has=["three years"],
  chk=[("novalue", 5)], note="three years")
F(D, "Customer Credit Procedure Rev. 4 took effect on January 4, 2020 (BLT-000006).", has=["Rev. 3"],
  lacks=["Rev. 4"], note="Rev. 3")

# ---------------------------------------------------------------- table-row
# Schedule A's register (CRV0000004) and the erection log (CRV0000005), one
# row each; a mismatch takes one cell from the row after (the last: before).
R = "table-row"
REGISTER = [  # Lot, Panels, Planned, Shipped, Hauler, Ticket: as the page has them
    ("17", "40", "11/29/2021", "11/30/2021", "Tri-County Haulers", "T-5512"),
    ("18", "44", "12/03/2021", "12/06/2021", "Tri-County Haulers", "T-5530"),
    ("19", "36", "12/08/2021", "12/13/2021", "Keel Transport", "T-5547"),
    ("20", "48", "12/10/2021", "12/15/2021", "Keel Transport", "T-5561"),
    ("21", "44", "12/14/2021", "12/22/2021", "Tri-County Haulers", "T-5578"),
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


def long_date(mdy):
    m, d, y = (int(x) for x in mdy.split("/"))
    return "%s %d, %d" % (MONTHS[m - 1], d, y)


for i, (lot, panels, planned, shipped, hauler, ticket) in enumerate(REGISTER):
    n = REGISTER[i + 1] if i + 1 < len(REGISTER) else REGISTER[i - 1]
    T(R, "Lot %s shipped on %s (CRV0000004)." % (lot, long_date(shipped)),
      chk=[("row", lot, {"Shipped": shipped})])
    T(R, "The register lists %s panels in Lot %s, hauled by %s (Pl. Ex. 23)." % (panels, lot, hauler),
      chk=[("row", lot, {"Panels": panels, "Hauler": hauler})])
    T(R, "Lot %s was planned for %s and went out on ticket %s (CRV0000004)." % (lot, planned, ticket),
      chk=[("row", lot, {"Planned": planned, "Ticket": ticket})])
    F(R, "Lot %s shipped on %s (CRV0000004)." % (lot, long_date(n[3])),
      chk=[("row", lot, {"Shipped": n[3]})], note="Lot %s shipped %s; %s is Lot %s's" % (lot, shipped, n[3], n[0]))
    if n[1] != panels:
        F(R, "The register lists %s panels in Lot %s, hauled by %s (Pl. Ex. 23)." % (n[1], lot, hauler),
          chk=[("row", lot, {"Panels": n[1], "Hauler": hauler})],
          note="Lot %s has %s panels; %s is Lot %s's" % (lot, panels, n[1], n[0]))
    F(R, "Lot %s was planned for %s and went out on ticket %s (CRV0000004)." % (lot, planned, n[5]),
      chk=[("row", lot, {"Planned": planned, "Ticket": n[5]})],
      note="Lot %s's ticket is %s; %s is Lot %s's" % (lot, ticket, n[5], n[0]))
LOG = [  # Date, Crew, Foreman, Hours, Panels set
    ("12/14/2021", "Crew A", "Dale Mercer", "8", "12"),
    ("12/15/2021", "Crew A", "Dale Mercer", "10", "16"),
    ("12/16/2021", "Crew B", "Iris Vance", "9", "11"),
    ("12/17/2021", "Crew B", "Iris Vance", "7", "9"),
    ("12/20/2021", "Crew A", "Dale Mercer", "11", "18"),
]
for i, (date, crew, foreman, hours, panels) in enumerate(LOG):
    n = LOG[i + 1] if i + 1 < len(LOG) else LOG[i - 1]
    T(R, "On %s, %s set %s panels in %s hours (CRV0000005)." % (long_date(date), crew, panels, hours),
      chk=[("row", date, {"Crew": crew, "Panels set": panels, "Hours": hours})])
    F(R, "On %s, %s set %s panels in %s hours (CRV0000005)." % (long_date(date), crew, n[4], hours),
      chk=[("row", date, {"Crew": crew, "Panels set": n[4], "Hours": hours})],
      note="%s panels on %s; %s is %s's" % (panels, date, n[4], n[0]))
    if i % 2 == 0:
        T(R, "%s's crew logged %s hours on %s (Pl. Ex. 24)." % (foreman, hours, date),
          chk=[("row", date, {"Foreman": foreman, "Hours": hours})])
        F(R, "%s's crew logged %s hours on %s (Pl. Ex. 24)." % (foreman, n[3], date),
          chk=[("row", date, {"Foreman": foreman, "Hours": n[3]})],
          note="%s hours on %s; %s is %s's" % (hours, date, n[3], n[0]))

# a table's total line, not the row of the period's first date
T(R, "For the week of December 14, 2021, the crews logged 45 hours in all (CRV0000005).", "Week total: 45 hours")
F(R, "For the week of December 14, 2021, the crews logged 54 hours in all (CRV0000005).",
  has=["Week total: 45 hours"], note="45 hours")
# a listed thing given its sibling row's state
T(R, "Tate's report rejects panel P-20-03 outright (CRV0000012).", "Panel P-20-03", "Rejected")
T(R, "Under Tate's report, panel P-20-11 is to be repaired and accepted (CRV0000012).", "Panel P-20-11",
  "Repair and accept")
F(R, "Tate's report rejects panel P-20-11 outright (CRV0000012).", has=["Panel P-20-11", "Repair and accept"],
  note="P-20-03 is the one rejected")
F(R, "Under Tate's report, panel P-20-03 is to be repaired and accepted (CRV0000012).",
  has=["Panel P-20-03", "Rejected"], note="P-20-03 is rejected")
# ---------------------------------------------------------------- number-words
N = "number-words"
T(N, "Ortega testified that Delmar made two hundred and twelve panels in all (Ortega Dep. 3:23-25).",
  chk=[("value", 212)])
T(N, "The Subcontract calls for two hundred twelve panels (CRV0000001).", chk=[("value", 212)])
T(N, "The Lot 20 trucks carried forty-eight panels (Ortega Dep. 2:21-22).", chk=[("value", 48)])
T(N, "Ortega's crew worked about 340 hours that week (Ortega Dep. 4:9-12).", chk=[("value", 340)])
T(N, "Each crew member was paid 14 hours of overtime (Ortega Dep. 4:13-14).", chk=[("value", 14)])
T(N, "Ortega has been the yard foreman for 11 years (Ortega Dep. 2:16-17).", chk=[("value", 11)])
T(N, "The panels were braced 12 to a truck (Ortega Dep. 3:2-4).", chk=[("value", 12)])
T(N, "Change Order No. 7 gave Lot 20 a 7-day extension (CRV0000003).", chk=[("value", 7)])
T(N, "Lot 21 shipped eight days after its planned date, according to Park (CRV0000011).", chk=[("value", 8)])
T(N, "Carver withholds ten percent retainage (CRV0000001).", chk=[("value", 10)])
T(N, "The Agreement's credit is capped at ten per cent (ACME0000001).", chk=[("value", 10)])
T(N, "Acme gave Brightline fourteen days to issue the credit (ACME0000009).", chk=[("value", 14)])
T(N, "The calculation found the order twenty seven days late (Pl. Ex. 6 at 1).", chk=[("value", 27)])
T(N, "Acme ordered twelve thousand housings (Pl. Ex. 4 at 1).", chk=[("value", 12000)])
T(N, "Invoice 8812 billed fifty-one thousand dollars for the housings (ACME0000005).", chk=[("value", 51000)])
T(N, "Two panels of Lot 20 arrived cracked (CRV0000009).", chk=[("value", 2)])
T(N, "Tate inspected all forty-eight panels of Lot 20 (CRV0000012).", chk=[("value", 48)])
T(N, "The bill of lading lists twenty-four pallets weighing eighteen thousand four hundred pounds (BLT-000004).",
  chk=[("value", 24), ("value", 18400)])
T(N, "Lot 19 went out 5 days late (Ortega Dep. 3:7-9).", chk=[("value", 5)])
F(N, "Ortega testified that Delmar made twelve panels in all (Ortega Dep. 3:23-25).", chk=[("novalue", 12)],
  note="two hundred and twelve")
F(N, "The Subcontract calls for two hundred and two panels (CRV0000001).", chk=[("novalue", 202)], note="212")
F(N, "The Lot 20 trucks carried forty-four panels (Ortega Dep. 2:21-22).", chk=[("novalue", 44)],
  note="forty-eight")
F(N, "Ortega's crew worked about 304 hours that week (Ortega Dep. 4:9-12).", chk=[("novalue", 304)],
  note="three hundred and forty")
F(N, "Each crew member was paid 40 hours of overtime (Ortega Dep. 4:13-14).", chk=[("novalue", 40)],
  note="fourteen")
F(N, "Ortega has been the yard foreman for 12 years (Ortega Dep. 2:16-17).", chk=[("novalue", 12)],
  note="eleven")
F(N, "The panels were braced twenty to a truck (Ortega Dep. 3:2-4).", chk=[("novalue", 20)], note="twelve")
F(N, "Change Order No. 7 gave Lot 20 a 17-day extension (CRV0000003).", chk=[("novalue", 17)], note="seven")
F(N, "Lot 21 shipped eighteen days after its planned date, according to Park (CRV0000011).",
  chk=[("novalue", 18)], note="eight days")
F(N, "Carver withholds twenty percent retainage (CRV0000001).", chk=[("novalue", 20)], note="ten percent")
F(N, "The Agreement's credit is capped at twenty per cent (ACME0000001).", chk=[("novalue", 20)],
  note="ten percent")
F(N, "Acme gave Brightline forty days to issue the credit (ACME0000009).", chk=[("novalue", 40)],
  note="fourteen")
F(N, "The calculation found the order thirty-seven days late (Pl. Ex. 6 at 1).", chk=[("novalue", 37)],
  note="twenty-seven")
F(N, "Acme ordered twenty thousand housings (Pl. Ex. 4 at 1).", chk=[("novalue", 20000)], note="12,000")
F(N, "Invoice 8812 billed fifteen thousand dollars for the housings (ACME0000005).", chk=[("novalue", 15000)],
  note="$51,000.00")
F(N, "Three panels of Lot 20 arrived cracked (CRV0000009).", chk=[("novalue", 3)], note="two")
F(N, "Tate inspected all forty panels of Lot 20 (CRV0000012).", chk=[("novalue", 40)], note="48")
F(N, "Lot 19 went out fifteen days late (Ortega Dep. 3:7-9).", chk=[("novalue", 15)], note="five days")

# ---------------------------------------------------------------- arithmetic
A = "arithmetic"
T(A, "Ten percent retainage on the $412,500.00 Subcontract price comes to $41,250.00 (CRV0000001).",
  chk=[("pct", "10%", "$412,500.00", 41250)])
T(A, "Lots 19 and 20 together were billed at $163,380.00 (CRV0000006).",
  chk=[("sum", ["$70,020.00", "$93,360.00"], 163380)])
T(A, "The four items on Pay Application No. 4 add up to $267,200.00 (CRV0000006-07).",
  chk=[("sum", ["$70,020.00", "$93,360.00", "$18,240.00", "$85,580.00"], 267200)])
T(A, "Lot 19 shipped five days after its planned date (CRV0000004).", chk=[("days", "12/08/2021", "12/13/2021", 5)])
T(A, "Lot 21 shipped eight days late (CRV0000004).", chk=[("days", "12/14/2021", "12/22/2021", 8)])
T(A, "Lot 18 went out three days after its planned date (CRV0000004).",
  chk=[("days", "12/03/2021", "12/06/2021", 3)])
T(A, "Lot 17 shipped one day late (CRV0000004).", chk=[("days", "11/29/2021", "11/30/2021", 1)])
T(A, "The five lots of Schedule A total 212 panels (CRV0000004).", chk=[("sum", ["40", "44", "36", "48", "44"], 212)])
T(A, "Lots 20 and 21 together held 92 panels (CRV0000004).", chk=[("sum", ["48", "44"], 92)])
T(A, "Crew A set 46 panels on 12/14, 12/15 and 12/20 (CRV0000005).", chk=[("sum", ["12", "16", "18"], 46)])
T(A, "Crew B worked 16 hours over its two days (CRV0000005).", chk=[("sum", ["9", "7"], 16)])
T(A, "At $380.00 a panel, the 48 plates of Change Order No. 7 cost $18,240.00 (CRV0000003).",
  chk=[("product", "$380.00", "48", 18240)])
T(A, "Change Order No. 7 raised the price by $18,240.00, from $412,500.00 to $430,740.00 (CRV0000001; CRV0000003).",
  chk=[("sum", ["$412,500.00", "$18,240.00"], 430740)])
T(A, "Three weeks of delay at two percent a week is a six percent credit (ACME0000001).",
  chk=[("product", "two percent", "3", 6)], note="three weeks: the sentence's own figure")
T(A, "Two percent of the $51,000.00 order price is $1,020.00 a week (ACME0000001; Pl. Ex. 4 at 1).",
  chk=[("pct", "2%", "$51,000.00", 1020)])
T(A, "PO 4471's new ship date was twenty-one days after the March 10 date it missed (ACME0000003).",
  chk=[("days", "March 10|2021-03-10", "March 31, 2021", 21)])
T(A, "The die was expected 26 days after the press failed (BLT-000001-02).",
  chk=[("days", "February 26, 2021", "March 24, 2021", 26)])
T(A, "Acme received the goods six days after Brightline shipped them (ACME0000008).",
  chk=[("days", "March 31, 2021", "April 6, 2021", 6)])
T(A, "Invoice 8812's housings and freight add up to $52,850.00 (ACME0000005-06).",
  chk=[("sum", ["$51,000.00", "$1,850.00"], 52850)])
F(A, "Ten percent retainage on the $412,500.00 Subcontract price comes to $4,125.00 (CRV0000001).",
  chk=[("pct", "10%", "$412,500.00", 4125)], note="$41,250.00")
F(A, "Lots 19 and 20 together were billed at $163,830.00 (CRV0000006).",
  chk=[("sum", ["$70,020.00", "$93,360.00"], 163830)], note="$163,380.00")
F(A, "The four items on Pay Application No. 4 add up to $276,200.00 (CRV0000006-07).",
  chk=[("sum", ["$70,020.00", "$93,360.00", "$18,240.00", "$85,580.00"], 276200)], note="$267,200.00")
F(A, "Lot 19 shipped three days after its planned date (CRV0000004).",
  chk=[("days", "12/08/2021", "12/13/2021", 3)], note="five days")
F(A, "Lot 21 shipped five days late (CRV0000004).", chk=[("days", "12/14/2021", "12/22/2021", 5)],
  note="eight days")
F(A, "Lot 18 went out six days after its planned date (CRV0000004).",
  chk=[("days", "12/03/2021", "12/06/2021", 6)], note="three days")
F(A, "Lot 17 shipped two days late (CRV0000004).", chk=[("days", "11/29/2021", "11/30/2021", 2)], note="one day")
F(A, "The five lots of Schedule A total 221 panels (CRV0000004).",
  chk=[("sum", ["40", "44", "36", "48", "44"], 221)], note="212")
F(A, "Lots 20 and 21 together held 96 panels (CRV0000004).", chk=[("sum", ["48", "44"], 96)], note="92")
F(A, "Crew A set 48 panels on 12/14, 12/15 and 12/20 (CRV0000005).", chk=[("sum", ["12", "16", "18"], 48)],
  note="46")
F(A, "Crew B worked 18 hours over its two days (CRV0000005).", chk=[("sum", ["9", "7"], 18)],
  note="16; 18 is on the page as panels set")
F(A, "At $380.00 a panel, the 48 plates of Change Order No. 7 cost $18,420.00 (CRV0000003).",
  chk=[("product", "$380.00", "48", 18420)], note="$18,240.00")
F(A, "Change Order No. 7 raised the price by $18,240.00, from $412,500.00 to $430,470.00 (CRV0000001; CRV0000003).",
  chk=[("sum", ["$412,500.00", "$18,240.00"], 430470)], note="$430,740.00")
F(A, "Three weeks of delay at two percent a week is an eight percent credit (ACME0000001).",
  chk=[("product", "two percent", "3", 8)], note="six percent")
F(A, "Two percent of the $51,000.00 order price is $1,200.00 a week (ACME0000001; Pl. Ex. 4 at 1).",
  chk=[("pct", "2%", "$51,000.00", 1200)], note="$1,020.00")
F(A, "PO 4471's new ship date was thirty-one days after the March 10 date it missed (ACME0000003).",
  chk=[("days", "March 10|2021-03-10", "March 31, 2021", 31)], note="twenty-one days")
F(A, "The die was expected 36 days after the press failed (BLT-000001-02).",
  chk=[("days", "February 26, 2021", "March 24, 2021", 36)], note="26 days")
F(A, "Acme received the goods nine days after Brightline shipped them (ACME0000008).",
  chk=[("days", "March 31, 2021", "April 6, 2021", 9)], note="six days")
F(A, "Invoice 8812's housings and freight add up to $52,580.00 (ACME0000005-06).",
  chk=[("sum", ["$51,000.00", "$1,850.00"], 52580)], note="$52,850.00")

# ---------------------------------------------------------------- date-format
DF = "date-format"
for cls_date, good, bad, cite, what in [
        ("2021-09-07", "9/7/2021", "7/9/2021", "CRV0000001", "The Subcontract was signed on %s (%s)."),
        ("2021-11-18", "18 November 2021", "8 November 2021", "CRV0000003", "Change Order No. 7 is dated %s (%s)."),
        ("2021-12-10", "2021-12-10", "2021-12-01", "CRV0000008", "Park's e-mail was sent on %s (%s)."),
        ("2021-12-15", "Dec. 15, 2021", "Dec. 16, 2021", "CRV0000004", "Lot 20 shipped on %s (%s)."),
        ("2021-12-22", "the 22nd of December, 2021", "the 2nd of December, 2021", "CRV0000004",
         "Lot 21 shipped on %s (%s)."),
        ("2021-12-17", "December 17, 2021", "December 7, 2021", "CRV0000010", "Meeting No. 12 was held on %s (%s)."),
        ("2021-12-16", "12/16/21", "12/6/21", "CRV0000012", "The inspection report is dated %s (%s)."),
        ("2022-01-05", "Jan. 5, 2022", "Jan. 15, 2022", "CRV0000007", "Pay Application No. 4 was submitted on %s (%s)."),
        ("2021-01-15", "1/15/2021", "1/5/2021", "ACME0000001", "The Master Supply Agreement was made on %s (%s)."),
        ("2021-03-31", "31 March 2021", "30 March 2021", "BLT-000003", "Brightline shipped PO 4471 on %s (%s)."),
        ("2021-03-31", "March 31st, 2021", "March 21st, 2021", "BLT-000003", "The bill of lading's ship date is %s (%s)."),
        ("2021-02-26", "2021-02-26", "2021-02-16", "BLT-000001", "The Line 3 press failed on %s (%s)."),
        ("2021-04-06", "April 6th, 2021", "April 9th, 2021", "ACME0000010", "Acme received the shipment on %s (%s)."),
        ("2021-04-02", "2 April 2021", "2 April 2020", "ACME0000005", "Invoice 8812 is dated %s (%s)."),
        ("2021-04-20", "April 20th, 2021", "April 2nd, 2021", "ACME0000008", "Acme's notice of breach is dated %s (%s)."),
        ("2022-06-14", "14 June 2022", "14 July 2022", "Ortega Dep. 1:14", "Ortega was deposed on %s (%s)."),
        ("2020-01-04", "Jan. 4, 2020", "Jan. 4, 2021", "BLT-000006", "Rev. 3 took effect on %s (%s)."),
        ("2021-12-03", "December 3rd, 2021", "December 30th, 2021", "CRV0000004", "Lot 18 was planned for %s (%s).")]:
    T(DF, what % (good, cite), chk=[("date", cls_date)])
    F(DF, what % (bad, cite), chk=[("date", None)], note="the page has %s" % cls_date)

# a date the page labels as another act's
T(DF, "Brightline shipped PO 4471 on March 31, 2021 (ACME0000005).", "Shipped: March 31, 2021")
T(DF, "Brightline invoiced Acme for PO 4471 on April 2, 2021 (ACME0000005).", "Invoice date: April 2, 2021")
F(DF, "Brightline shipped PO 4471 on April 2, 2021 (ACME0000005).", has=["Shipped: March 31, 2021"],
  note="April 2 is the invoice date")
F(DF, "Brightline dated its invoice for PO 4471 March 31, 2021 (ACME0000005).",
  has=["Invoice date: April 2, 2021"], note="March 31 is the ship date")
# ---------------------------------------------------------------- negation
G = "negation"
T(G, "Ortega testified that he found no cracks in the panels before they left (Ortega Dep. 2:23-3:1).",
  "Did you find any cracks", "No, none")
T(G, "Delmar's crew does not drive the trucks (Ortega Dep. 3:5-6).", "We don't drive")
T(G, "Lot 19 did not ship on its planned date (Ortega Dep. 3:7-9).", "Did Lot 19 ship on its planned date", "No.")
T(G, "Ortega did not tell Carver why Lot 19 was late (Ortega Dep. 3:7-13).", "Did you tell Carver that",
  "I didn't")
T(G, "No one from Carver came to the yard in December, Ortega testified (Ortega Dep. 3:21-22).",
  "No one from Carver came to the yard in December")
T(G, "None of the lots went out early (Ortega Dep. 4:1-3).", "None went early")
T(G, "Keel Transport's drivers reported no incident on the run from Milford (CRV0000010).",
  "Our drivers reported no incident")
T(G, "Hale wrote that the cracked panels would not be erected until the engineer inspected them (CRV0000009).",
  "will not erect them until your engineer inspects them")
T(G, "Park said Delmar does not accept a credit for a lot that ships within the week (CRV0000011).",
  "We do not accept a credit for a lot that ships within the week")
T(G, "Smith could not recall reporting the delay himself (Smith Dep. 3:21-22).", "I do not recall doing so")
T(G, "Brightline applied no late-delivery credit on invoice 8812 (Smith Dep. 3:14-15).", "Not on invoice 8812, no")
T(G, "The order did not ship within thirty days of the purchase order (Smith Dep. 3:9-10).", "No, it was not")
T(G, "Billing was never told about the delay (Smith Dep. 3:16-17).", "Billing was not told about the delay")
T(G, "Brightline has not issued the credit (Smith Dep. 5:7-8).", "Not as of today, no")
T(G, "Invoice 8812 applies no credit (ACME0000008).", "Invoice 8812 applies no credit")
T(G, "The Subcontract says no change binds either party unless it is in a written change order signed by both (CRV0000002).",
  "No change to the work binds either party unless")
T(G, "Roe did not say whether she would wait (Smith Dep. 5:5-6).", "She did not say one way or the other")
T(G, "The procedure does not allow a credit to be withheld because the customer has an open balance on another invoice (BLT-000007-08).",
  "No credit may be withheld")
F(G, "Ortega testified that his crew did not load the Lot 20 trucks (Ortega Dep. 2:18-20).", has=["We did"],
  note="we did")
F(G, "Ortega did not inspect the Lot 20 panels before they left (Ortega Dep. 2:23-24).", has=["I did"],
  note="I did. I checked every panel myself")
F(G, "Ortega testified that he found cracks in the panels before they left (Ortega Dep. 2:23-3:1).",
  has=["No, none"], note="no, none")
F(G, "The panels were not braced for transport (Ortega Dep. 3:2-4).", has=["Yes. We braced them"],
  note="yes, braced")
F(G, "Ortega testified that his own crew drove the Lot 20 trucks (Ortega Dep. 3:5-6).", has=["We don't drive"],
  note="Keel Transport's drivers")
F(G, "Lot 19 shipped on its planned date (Ortega Dep. 3:7-9).", has=["five days late"], note="five days late")
F(G, "Ortega told Carver why Lot 19 was late (Ortega Dep. 3:7-13).", has=["I didn't"], note="I didn't")
F(G, "Someone from Carver came to the yard in December, Ortega testified (Ortega Dep. 3:21-22).",
  has=["No one from Carver came"], note="no one came")
F(G, "Hale wrote that Carver had already erected the cracked panels (CRV0000009).",
  has=["will not erect them"], note="set aside, not erected")
F(G, "Park wrote that a panel of Lot 20 failed Delmar's yard inspection (CRV0000009).",
  has=["Every panel passed our yard inspection"], note="every panel passed")
F(G, "Keel Transport's drivers reported an incident on the run from Milford (CRV0000010).",
  has=["reported no incident"], note="no incident")
F(G, "Smith testified that Brightline applied a late-delivery credit on invoice 8812 (Smith Dep. 3:14-15).",
  has=["Not on invoice 8812, no"], note="not on invoice 8812")
F(G, "Smith testified that billing was told about the delay (Smith Dep. 3:16-17).",
  has=["Billing was not told"], note="billing was not told")
F(G, "Smith testified that the order shipped within thirty days of the purchase order (Smith Dep. 3:9-10).",
  has=["No, it was not"], note="no, it was not")
F(G, "Smith testified that Brightline has issued the credit (Smith Dep. 5:7-8).", has=["Not as of today, no"],
  note="not as of today")
F(G, "Smith testified that he never wrote to Jane Roe about PO 4471 (Smith Dep. 3:1-2).",
  has=["Yes, on March 3, 2021"], note="yes, he wrote on March 3, 2021")
F(G, "The Subcontract lets a change bind the parties without a written change order (CRV0000002).",
  has=["No change to the work binds either party unless set out in a written change order"],
  note="only a written change order binds")
F(G, "Park said Delmar accepts a credit for a lot that ships within the week (CRV0000011).",
  has=["We do not accept a credit"], note="we do not accept")

# testimony pinned to lines that say none of it
F(G, "Ortega testified that his crew never drives the trucks (Ortega Dep. 3:7-9).",
  lacks=["We don't drive"], note="that is at 3:5-6")
T(G, "Ortega testified that his crew never drives the trucks (Ortega Dep. 3:5-6).", "We don't drive")
# a witness's yes or no to a question the sentence answers
T(G, "Ortega checked the panels himself before they left, and found none cracked (Ortega Dep. 2:23-3:1).",
  "Did you inspect them before they left", "I did")
T(G, "Asked whether he told Carver, Ortega answered that he had not (Ortega Dep. 3:12-13).",
  "Did you tell Carver that", "I didn't")
T(G, "Smith confirmed that he wrote to Jane Roe about PO 4471 (Smith Dep. 3:1-2).",
  "Did you write to Jane Roe about PO 4471", "Yes, on March 3, 2021")
F(G, "Ortega said he did not inspect the panels before they left the yard (Ortega Dep. 2:23-24).",
  has=["Did you inspect them before they left", "I did"], note="I did")
F(G, "According to Ortega, he told Carver himself (Ortega Dep. 3:12-13).",
  has=["Did you tell Carver that", "I didn't"], note="I didn't")
F(G, "Smith denied writing to Jane Roe about PO 4471 (Smith Dep. 3:1-2).",
  has=["Did you write to Jane Roe about PO 4471", "Yes, on March 3, 2021"], note="yes, on March 3")

# a condition the page sets, done without
T(G, "Under the Subcontract, no change binds the parties without a written change order signed by both (CRV0000002).",
  "No change to the work binds either party unless set out in a written change order")
T(G, "Neither party is bound by a change to the work without a written change order (CRV0000002).",
  "No change to the work binds either party unless set out in a written change order")
F(G, "A change to the work binds Delmar and Carver without any written change order (CRV0000002).",
  has=["No change to the work binds either party unless set out in a written change order"],
  note="only a written change order binds")
F(G, "The Subcontract lets the parties agree a binding change to the work without a change order signed by both (CRV0000002).",
  has=["No change to the work binds either party unless set out in a written change order signed by both"],
  note="only a written change order signed by both binds")

# done "already" what the page says waits until
T(G, "Vale wrote that no credit would go to Acme until it paid invoice 8812 in full (BLT-000011).",
  "no credit goes to Acme until they pay invoice 8812 in full")
T(G, "Park wrote that Delmar's crew had already finished casting Lot 20 that morning (CRV0000008).",
  "Our crew finished casting Lot 20 this morning")
F(G, "Vale wrote that Brightline had already sent Acme its credit (BLT-000011).",
  has=["no credit goes to Acme until they pay invoice 8812 in full"], note="no credit until Acme pays")
F(G, "Hale wrote that the cracked panels were already erected (CRV0000009).",
  has=["will not erect them until your engineer inspects them"], note="not erected until inspected")

# a thing kept back against one let go
T(G, "Whitaker's memo asked that late-delivery credits be held until the final ship dates were known (BLT-000002).",
  "Please hold any late-delivery credits until we know the final ship dates")
F(G, "Whitaker's memo asked that late-delivery credits be released at once (BLT-000002).",
  has=["Please hold any late-delivery credits"], note="hold them")

# ---------------------------------------------------------------- count
C = "count"
T(C, "Two panels of Lot 20 arrived cracked, P-20-03 and P-20-11 (CRV0000009).", chk=[("count", r"p-20-\d\d", 2)])
T(C, "The inspection report lists two nonconformance reports (CRV0000012).", chk=[("count", r"ncr-\d+", 2)])
T(C, "Tate's report lists five photographs (CRV0000012).", chk=[("count", r"img_\d+", 5)])
T(C, "Four people attended Meeting No. 12 (CRV0000010).", chk=[("count", r"\w+ \w+ \((?:carver|delmar|keel transport)\)", 4)])
T(C, "Only one panel of Lot 20 was rejected outright (CRV0000012).", chk=[("count", r"\brejected\b", 1)])
T(C, "Keel Transport hauled two of the five lots (CRV0000004).", chk=[("count", r"\n\d\d .*keel transport", 2)])
T(C, "Tri-County Haulers carried three lots (CRV0000004).", chk=[("count", r"\n\d\d .*tri-county haulers", 3)])
T(C, "The register lists five delivery tickets (CRV0000004).", chk=[("count", r"t-\d{4}", 5)])
T(C, "Pay Application No. 4 bills three lots of panels (CRV0000006).", chk=[("count", r"lot \d\d panels", 3)])
T(C, "Pay Application No. 4 has four line items (CRV0000006).", chk=[("count", r"\$\d[\d,]*\.\d\d\n", 4)])
T(C, "Carver rejected two Lot 20 panels, Ortega was told (Ortega Dep. 3:14-16).", chk=[("count", r"p-20-\d\d", 2)])
T(C, "Crew A worked three of the five logged days (CRV0000005).", chk=[("count", r"\| \d\d/\d\d/2021 \| crew a", 3)])
T(C, "Invoice 8812 has two charges, for the housings and for freight (ACME0000005).",
  chk=[("count", r"\.\.\. \$[\d,]+\.\d\d", 2)])
T(C, "Only one delivery appears on the receiving log (ACME0000010).", chk=[("count", r"\n\d\d/\d\d/\d{4} ", 1)])
T(C, "Two people signed the Master Supply Agreement (ACME0000002).",
  chk=[("count", r"\n[a-z]+ [a-z]+, (?:general counsel|managing member)", 2)])
T(C, "Two foremen appear in the erection log (CRV0000005).", chk=[("count", r"dale mercer|iris vance", 2)])
F(C, "Only one panel of Lot 20 arrived cracked (CRV0000009).", chk=[("count", r"p-20-\d\d", 1)], note="two")
F(C, "The inspection report lists a single nonconformance report (CRV0000012).", chk=[("count", r"ncr-\d+", 1)],
  note="two: NCR-041 and NCR-042")
F(C, "Tate's report lists three photographs (CRV0000012).", chk=[("count", r"img_\d+", 3)], note="five")
F(C, "Three people attended Meeting No. 12 (CRV0000010).",
  chk=[("count", r"\w+ \w+ \((?:carver|delmar|keel transport)\)", 3)], note="four")
F(C, "Both damaged panels of Lot 20 were rejected outright (CRV0000012).", chk=[("count", r"\brejected\b", 2)],
  note="one rejected, one repaired and accepted")
F(C, "Keel Transport hauled three of the five lots (CRV0000004).", chk=[("count", r"\n\d\d .*keel transport", 3)],
  note="two")
F(C, "Tri-County Haulers carried only one lot (CRV0000004).", chk=[("count", r"\n\d\d .*tri-county haulers", 1)],
  note="three")
F(C, "The register lists four delivery tickets (CRV0000004).", chk=[("count", r"t-\d{4}", 4)], note="five")
F(C, "Pay Application No. 4 bills only two lots of panels (CRV0000006).", chk=[("count", r"lot \d\d panels", 2)],
  note="three")
F(C, "Pay Application No. 4 has three line items (CRV0000006).", chk=[("count", r"\$\d[\d,]*\.\d\d\n", 3)],
  note="four")
F(C, "Carver rejected only one Lot 20 panel, Ortega was told (Ortega Dep. 3:14-16).",
  chk=[("count", r"p-20-\d\d", 1)], note="two")
F(C, "Crew A worked only two of the logged days (CRV0000005).", chk=[("count", r"\| \d\d/\d\d/2021 \| crew a", 2)],
  note="three")
F(C, "Invoice 8812 has a single charge (ACME0000005).", chk=[("count", r"\.\.\. \$[\d,]+\.\d\d", 1)],
  note="two: housings and freight")
F(C, "Two deliveries appear on the receiving log (ACME0000010).", chk=[("count", r"\n\d\d/\d\d/\d{4} ", 2)],
  note="one")
F(C, "Only one person signed the Master Supply Agreement (ACME0000002).",
  chk=[("count", r"\n[a-z]+ [a-z]+, (?:general counsel|managing member)", 1)], note="two")
F(C, "Three foremen appear in the erection log (CRV0000005).", chk=[("count", r"dale mercer|iris vance", 3)],
  note="two")

# ---------------------------------------------------------------- quote-attribution
Q = "quote-attribution"
for quote, sentence, right, wrong, cite in [
        ("our crew loads every truck that leaves the yard",
         "%s testified that \"[o]ur crew loads every truck that leaves the yard.\" (%s.)", "Ortega", "Pryor",
         "Ortega Dep. 2:19-20"),
        ("I checked every panel myself", "%s said, \"I checked every panel myself.\" (%s.)", "Ortega", "Dunn",
         "Ortega Dep. 2:24"),
        ("Objection, form", "%s objected: \"Objection, form.\" (%s.)", "Dunn", "Ortega", "Ortega Dep. 3:19"),
        ("Who loaded the Lot 20 trucks", "%s asked, \"[w]ho loaded the Lot 20 trucks?\" (%s.)", "Pryor", "Ortega",
         "Ortega Dep. 2:18"),
        ("The cracks happened in transit",
         "%s told the meeting that \"[t]he cracks happened in transit.\" (%s.)", "Park", "Hale", "CRV0000010"),
        ("were cracked on arrival and cannot be set as they are",
         "%s told the meeting that two panels \"were cracked on arrival and cannot be set as they are.\" (%s.)",
         "Hale", "Park", "CRV0000010"),
        ("Our drivers reported no incident on the run from Milford",
         "%s said, \"Our drivers reported no incident on the run from Milford.\" (%s.)", "Okafor", "Tate",
         "CRV0000010"),
        ("The inspector rejected P-20-03",
         "%s reported that \"[t]he inspector rejected P-20-03 . . . .\" (%s.)", "Tate", "Okafor", "CRV0000010"),
        ("Every panel passed our yard inspection",
         "%s wrote, \"Every panel passed our yard inspection.\" (%s.)", "Park", "Hale", "CRV0000009"),
        ("until your engineer inspects them",
         "%s wrote that the panels would not be erected \"until your engineer inspects them.\" (%s.)", "Hale",
         "Park", "CRV0000009"),
        ("will ship on December 22, eight days after its planned date",
         "%s said that Lot 21 \"will ship on December 22, eight days after its planned date.\" (%s.)", "Park",
         "Hale", "CRV0000011"),
        ("Billing was not told about the delay",
         "%s testified that \"[b]illing was not told about the delay.\" (%s.)", "Smith", "Ellis",
         "Smith Dep. 3:17"),
        ("Did Brightline apply a late-delivery credit",
         "%s asked, \"Did Brightline apply a late-delivery credit?\" (%s.)", "Ellis", "Smith", "Smith Dep. 3:14"),
        ("Under our own procedure the Acme credit should have gone out in March",
         "%s wrote: \"Under our own procedure the Acme credit should have gone out in March.\" (%s.)", "Patel",
         "Vale", "BLT-000010"),
        ("no credit goes to Acme until they pay invoice 8812 in full",
         "%s wrote, \"[N]o credit goes to Acme until they pay invoice 8812 in full.\" (%s.)", "Vale", "Patel",
         "BLT-000011"),
        ("The earliest we can ship is March 31, 2021",
         "%s wrote that \"[t]he earliest we can ship is March 31, 2021.\" (%s.)", "Smith", "Roe", "ACME0000003"),
        ("confirm that PO 4471 will arrive by March 10",
         "%s asked to \"confirm that PO 4471 will arrive by March 10.\" (%s.)", "Roe", "Smith", "ACME0000003")]:
    T(Q, sentence % (right, cite), chk=[("speaker", quote, right)])
    F(Q, sentence % (wrong, cite), chk=[("speaker", quote, wrong)], note="%s said it, not %s" % (right, wrong))

# words given without quotation marks: the page's speaker of them
T(Q, "Vale instructed Patel that no credit was to go to Acme until it paid invoice 8812 in full (BLT-000011).",
  "From: Peter Vale", "no credit goes to Acme until they pay invoice 8812 in full")
F(Q, "Patel instructed that no credit was to go to Acme until it paid invoice 8812 in full (BLT-000011).",
  has=["From: Peter Vale", "no credit goes to Acme until they pay invoice 8812 in full"], note="Vale wrote it")

T(Q, "Park told the meeting that the panels left Delmar's yard intact (CRV0000010).",
  "Nina Park: The panels left our yard intact")
T(Q, "Tate reported that the inspector would allow the other cracked panel after an epoxy repair (CRV0000010).",
  "Owen Tate: The inspector rejected P-20-03 and will allow P-20-11 after an epoxy repair")
T(Q, "Patel recommended issuing the Acme credit now rather than waiting for payment (BLT-000010).",
  "I recommend we issue it now rather than wait for payment")
T(Q, "Vale wrote Patel that no credit would go to Acme until it paid invoice 8812 in full (BLT-000011).",
  "From: Peter Vale", "no credit goes to Acme until they pay invoice 8812 in full")
F(Q, "Hale told the meeting the panels had left the yard intact (CRV0000010).",
  has=["Nina Park: The panels left our yard intact"], note="Park said it")
F(Q, "Tate said that the cracks happened in transit (CRV0000010).",
  has=["Nina Park: The panels left our yard intact. The cracks happened in transit"], note="Park said it")
F(Q, "Okafor said the inspector would allow the other cracked panel after an epoxy repair (CRV0000010).",
  has=["Owen Tate: The inspector rejected P-20-03"], note="Tate said it")
F(Q, "Patel wrote that no credit would go to Acme until it paid invoice 8812 in full (BLT-000011).",
  has=["From: Peter Vale", "no credit goes to Acme until they pay invoice 8812 in full"], note="Vale wrote it")

# ---------------------------------------------------------------- wrong-party
W = "wrong-party"
for role, regex, right, wrong, sentence, cite in [
        ("hauler", r"\n20 .*?(keel transport|tri-county haulers)", "Keel Transport", "Tri-County Haulers",
         "%s hauled Lot 20 (%s).", "CRV0000004"),
        ("hauler", r"\n21 .*?(keel transport|tri-county haulers)", "Tri-County Haulers", "Keel Transport",
         "%s hauled Lot 21 (%s).", "CRV0000004"),
        ("approver", r"approved: ([a-z ]+),", "Ruth Hale", "Sam Okafor", "%s approved Change Order No. 7 for Carver (%s).",
         "CRV0000003"),
        ("acceptor", r"accepted: ([a-z ]+),", "Nina Park", "Owen Tate", "%s accepted Change Order No. 7 for Delmar (%s).",
         "CRV0000003"),
        ("signer", r"\n([a-z ]+), president, delmar", "Alan Brandt", "Nina Park",
         "%s signed the Subcontract for Delmar (%s).", "CRV0000002"),
        ("inspector", r"inspector: ([a-z ]+),", "Owen Tate", "Ruth Hale", "%s inspected Lot 20 (%s).", "CRV0000012"),
        ("submitter", r"submitted by: ([a-z ]+),", "Nina Park", "Ruth Hale",
         "%s submitted Pay Application No. 4 (%s).", "CRV0000007"),
        ("minute-taker", r"minutes by ([a-z ]+),", "Owen Tate", "Nina Park",
         "%s kept the minutes of Meeting No. 12 (%s).", "CRV0000011"),
        ("carrier", r"carrier: ([a-z ]+)", "Northway Freight", "Keel Transport",
         "%s carried the PO 4471 shipment (%s).", "BLT-000003"),
        ("receiver", r"signed: ([a-z. ]+),", "L. Ortiz", "Dale Mercer", "%s signed the delivery receipt (%s).",
         "BLT-000005"),
        ("approver", r"approved: ([a-z ]+),", "Raj Patel", "Peter Vale", "%s approved Rev. 3 of the procedure (%s).",
         "BLT-000009"),
        ("author", r"from: ([a-z ]+),", "Dana Whitaker", "Tom Smith", "%s wrote the Line 3 memo to Raj Patel (%s).",
         "BLT-000001"),
        ("reporter", r"reported by: ([a-z ]+),", "Karen Lutz", "Paula Ruiz", "%s reported Smith's deposition (%s).",
         "Smith Dep. 1:19"),
        ("reporter", r"reported by: ([a-z ]+),", "Paula Ruiz", "Karen Lutz", "%s reported Ortega's deposition (%s).",
         "Ortega Dep. 1:19"),
        ("examiner", r"examination by ms\. ([a-z]+)", "Lena Pryor", "Marc Dunn", "%s examined Ortega for the plaintiff (%s).",
         "Ortega Dep. 2:3-12"),
        ("driver", r"a\. ([a-z -]+)'s drivers", "Keel Transport", "Tri-County Haulers",
         "%s drivers drove the trucks (%s).", "Ortega Dep. 3:5-6"),
        ("foreman", r"12/20/2021 \| crew a \| ([a-z ]+?) \|", "Dale Mercer", "Iris Vance",
         "%s's crew set 18 panels on December 20, 2021 (%s).", "CRV0000005"),
        ("sender", r"from: ([a-z ]+) <", "Nina Park", "Owen Tate",
         "%s wrote that Lot 20 would ship on December 15 (%s).", "CRV0000008")]:
    T(W, sentence % (right, cite), chk=[("role", regex, right)])
    F(W, sentence % (wrong, cite), chk=[("role", regex, wrong)],
      note="the page names %s as %s" % (right, role))

# the witness's answer to a question of who
T(W, "Ortega testified that Keel Transport's drivers drove the trucks (Ortega Dep. 3:5-6).",
  "Who drove the trucks", "Keel Transport's drivers")
T(W, "Keel Transport drove the trucks; Delmar's crew only loaded them (Ortega Dep. 2:18-3:6).",
  "Who drove the trucks", "Keel Transport's drivers", "Our crew loads every truck")
F(W, "Delmar's own drivers drove the Lot 20 trucks (Ortega Dep. 3:5-6).",
  has=["Who drove the trucks", "Keel Transport's drivers"], note="Keel Transport's drivers")
F(W, "The trucks were driven by Northway Freight, Ortega testified (Ortega Dep. 3:5-6).",
  has=["Who drove the trucks", "Keel Transport's drivers"], note="Keel Transport's drivers")
T(W, "Ortega testified that Nina Park set the ship dates (Ortega Dep. 4:4-5).", "Who set the ship dates",
  "Nina did")
F(W, "Ortega testified that Ruth Hale set the ship dates (Ortega Dep. 4:4-5).",
  has=["Who set the ship dates", "Nina did"], note="Nina (Park) set them")
# a city of a state the page names otherwise
T(W, "Ortega was deposed in Wilmington, Delaware (Ortega Dep. 1:13-14).", "Wilmington, Delaware")
F(W, "Ortega was deposed in Milford, Delaware (Ortega Dep. 1:13-14).", has=["Wilmington, Delaware"],
  note="Wilmington")
# a role in the passive
T(W, "Change Order No. 7 was approved by Ruth Hale and accepted by Nina Park (CRV0000003).",
  "Approved: Ruth Hale", "Accepted: Nina Park")
F(W, "Change Order No. 7 was approved by Nina Park and accepted by Ruth Hale (CRV0000003).",
  has=["Approved: Ruth Hale", "Accepted: Nina Park"], note="Hale approved, Park accepted")
# the carrier, named after "with" or "via"
T(W, "Brightline shipped PO 4471 via Northway Freight (BLT-000003).", "Carrier: Northway Freight")
F(W, "Brightline shipped PO 4471 via Keel Transport (BLT-000003).", has=["Carrier: Northway Freight"],
  note="the page names Northway Freight as carrier")

# ---------------------------------------------------------------- chronology
# One entry per line, written as consecutive lines of a block (the draft
# mixes supported and mismatched entries in each block).
K = "chronology"


def KT(sentence, *has, chk=()):
    T(K, sentence, *has, chk=chk, layout="line")


def KF(sentence, has=(), lacks=(), chk=(), note=""):
    F(K, sentence, has=has, lacks=lacks, chk=chk, note=note, layout="line")


KT("September 7, 2021 - Carver and Delmar sign the Precast Supply Subcontract (CRV0000001).",
   "Carver Construction Co.", "Delmar Precast LLC", chk=[("date", "2021-09-07")])
KT("November 18, 2021 - Change Order No. 7 adds $18,240.00 for embedded plates (CRV0000003).", "$18,240.00",
   chk=[("date", "2021-11-18")])
KT("November 30, 2021 - Lot 17 ships with Tri-County Haulers (CRV0000004).", chk=[("row", "17", {"Shipped": "11/30/2021"})])
KT("December 6, 2021 - Lot 18 ships, three days after its planned date (CRV0000004).",
   chk=[("row", "18", {"Shipped": "12/06/2021"})])
KT("December 10, 2021 - Park tells Hale that Lot 20 will ship on December 15 (CRV0000008).",
   "we will ship on December 15", chk=[("date", "2021-12-10")])
KT("December 13, 2021 - Lot 19 ships on Keel Transport trucks (CRV0000004).",
   chk=[("row", "19", {"Shipped": "12/13/2021", "Hauler": "Keel Transport"})])
KT("December 15, 2021 - Lot 20 leaves the yard at 2 p.m. on four Keel Transport trucks (CRV0000009).",
   "left the yard at 2 p.m. on four Keel Transport trucks", chk=[("date", "2021-12-15")])
KT("December 16, 2021 - Hale reports that two panels of Lot 20 arrived cracked (CRV0000009).",
   "two panels of Lot 20 arrived cracked", chk=[("date", "2021-12-16")])
KT("December 16, 2021 - Tate's inspection rejects panel P-20-03 (CRV0000012).", "P-20-03", "Rejected",
   chk=[("date", "2021-12-16")])
KT("December 17, 2021 - At Meeting No. 12, Park says the cracks happened in transit (CRV0000010).",
   "The cracks happened in transit", chk=[("date", "2021-12-17")])
KT("December 22, 2021 - Lot 21 ships, eight days late (CRV0000004).",
   chk=[("row", "21", {"Shipped": "12/22/2021"}), ("days", "12/14/2021", "12/22/2021", 8)])
KT("January 5, 2022 - Delmar submits Pay Application No. 4 for $267,200.00 (CRV0000006-07).", "$267,200.00",
   chk=[("date", "2022-01-05")])
KT("March 3, 2021 - Smith tells Roe that Brightline will not make the March 10 date (ACME0000003).",
   "We will not make the March 10 date", chk=[("date", "2021-03-03")])
KT("March 31, 2021 - Brightline ships PO 4471 with Northway Freight (BLT-000003).", "Northway Freight",
   chk=[("date", "2021-03-31")])
KT("April 20, 2021 - Acme demands a credit of $3,060.00 (ACME0000008).", "$3,060.00", chk=[("date", "2021-04-20")])
KT("April 26, 2021 - Patel recommends issuing the credit now (BLT-000010).", "I recommend we issue it now",
   chk=[("date", "2021-04-26")])
KF("September 17, 2021 - Carver and Delmar sign the Precast Supply Subcontract (CRV0000001).",
   chk=[("date", None)], note="September 7, 2021")
KF("November 18, 2021 - Change Order No. 7 adds $18,420.00 for embedded plates (CRV0000003).",
   has=["$18,240.00"], lacks=["$18,420.00"], note="$18,240.00")
KF("November 30, 2021 - Lot 17 ships with Keel Transport (CRV0000004).", chk=[("row", "17", {"Hauler": "Keel Transport"})],
   note="Tri-County Haulers")
KF("December 6, 2021 - Lot 19 ships, three days after its planned date (CRV0000004).",
   chk=[("row", "19", {"Shipped": "12/06/2021"})], note="that is Lot 18's date")
KF("December 10, 2021 - Park tells Hale that Lot 20 will ship on December 18 (CRV0000008).",
   has=["December 15"], lacks=["December 18"], note="December 15")
KF("December 13, 2021 - Lot 19 ships on Tri-County Haulers trucks (CRV0000004).",
   chk=[("row", "19", {"Hauler": "Tri-County Haulers"})], note="Keel Transport")
KF("December 15, 2021 - Lot 20 leaves the yard at 2 p.m. on six Keel Transport trucks (CRV0000009).",
   has=["four Keel Transport trucks"], chk=[("novalue", 6)], note="four trucks")
KF("December 16, 2021 - Hale reports that three panels of Lot 20 arrived cracked (CRV0000009).",
   has=["two panels of Lot 20"], chk=[("novalue", 3)], note="two panels")
KF("December 16, 2021 - Tate's inspection rejects panel P-20-11 (CRV0000012).",
   chk=[("role", r"(p-20-\d\d) [^\n]*rejected", "P-20-11")], note="P-20-03 was rejected; P-20-11 repaired")
KF("December 17, 2021 - At Meeting No. 12, Okafor says the cracks happened in transit (CRV0000010).",
   chk=[("speaker", "The cracks happened in transit", "Okafor")], note="Park said it")
KF("December 22, 2021 - Lot 21 ships, twelve days late (CRV0000004).",
   chk=[("days", "12/14/2021", "12/22/2021", 12)], note="eight days")
KF("January 5, 2022 - Delmar submits Pay Application No. 4 for $276,200.00 (CRV0000006-07).",
   has=["$267,200.00"], lacks=["$276,200.00"], note="$267,200.00")
KF("March 3, 2021 - Smith tells Roe that Brightline will make the March 10 date (ACME0000003).",
   has=["We will not make the March 10 date"], note="will not make it")
KF("March 31, 2021 - Brightline ships PO 4471 with Keel Transport (BLT-000003).",
   chk=[("role", r"carrier: ([a-z ]+)", "Keel Transport")], note="Northway Freight")
KF("April 20, 2021 - Acme demands a credit of $3,600.00 (ACME0000008).", has=["$3,060.00"], lacks=["$3,600.00"],
   note="$3,060.00")
KF("April 26, 2021 - Vale recommends issuing the credit now (BLT-000010).",
   chk=[("speaker", "I recommend we issue it now", "Vale")], note="Patel recommends it")


# ---------------------------------------------------------------- checking
def fold(s):
    s = s.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    s = s.replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"[ \t\r\f\v]+", " ", s).strip().lower()


def flat(s):
    return re.sub(r"\s+", " ", fold(s))


def words(s):
    """Case, marks and punctuation away: the words of s, one space apart."""
    return " ".join(re.findall(r"[a-z0-9]+", fold(s)))


UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())}
TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if i > 1}
SCALES = {"hundred": 100, "thousand": 1000, "million": 1000000}


def numbers(text):
    """Every number in text, by value: digits (12,000 18,400.00) and words
    ("two hundred and twelve", "forty-eight", "twelve thousand")."""
    out = set()
    t = fold(text)
    for m in re.finditer(r"(?<![\w.:/-])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w:/]|-\d)", t):
        v = float(m.group(0).replace(",", ""))
        out.add(int(v) if v == int(v) else v)
    toks = re.findall(r"[a-z]+|[^a-z\s]", t.replace("-", " "))
    total = cur = 0
    run = False
    for i, w in enumerate(toks + ["."]):
        if w in UNITS:
            cur += UNITS[w]
            run = True
        elif w in TENS:
            cur += TENS[w]
            run = True
        elif w in SCALES and run:
            if w == "hundred":
                cur *= 100
            else:
                total += cur * SCALES[w]
                cur = 0
        elif w == "and" and run and i + 1 < len(toks) and (toks[i + 1] in UNITS or toks[i + 1] in TENS):
            continue
        else:
            if run:
                out.add(total + cur)
            total = cur = 0
            run = False
    return out


MON = {m.lower()[:3]: i + 1 for i, m in enumerate(MONTHS)}


def dates(text):
    """Every full date in text, any common format, as ISO strings."""
    t = fold(text)
    out = set()
    mon = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
    for m in re.finditer(r"\b" + mon + r" (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})", t):
        out.add((int(m.group(3)), MON[m.group(1)], int(m.group(2))))
    for m in re.finditer(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)? (?:of )?" + mon + r",? (\d{4})", t):
        out.add((int(m.group(3)), MON[m.group(2)], int(m.group(1))))
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b", t):
        y = int(m.group(3))
        out.add((y + 2000 if y < 100 else y, int(m.group(1)), int(m.group(2))))
    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", t):
        out.add((int(m.group(1)), int(m.group(2)), int(m.group(3))))
    return {"%04d-%02d-%02d" % d for d in out}


def to_date(s):
    d = dates(s)
    if len(d) != 1:
        raise SystemExit("not one date: %r" % s)
    return datetime.date.fromisoformat(d.pop())


def money(s):
    return float(s.replace("$", "").replace(",", ""))


class Record:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.q = self.db.execute

    def doc(self, label):
        r = self.q("SELECT doc_id FROM labels WHERE label = ?", (label,)).fetchone()
        return r[0] if r else None

    def transcript(self, doc):
        """[(page, line, text, speaker)] of a transcript, in order."""
        rows = []
        deponent = examiner = None
        speaker = None
        for (pg, ln, pid, s, e) in self.q("SELECT tr_page, line, page_id, start, end FROM transcript_lines "
                                          "WHERE doc_id = ? ORDER BY tr_page, line", (doc,)):
            t = self.q("SELECT text FROM pages WHERE id = ?", (pid,)).fetchone()[0]
            t = t.encode("utf-8")[s:e].decode("utf-8")
            m = re.search(r"DEPOSITION OF (?:[A-Z]+ )*([A-Z]+)\s*$", t)
            if m:
                deponent = m.group(1).title()
            m = re.search(r"EXAMINATION BY M[RS]S?\. ([A-Z]+)", t)
            if m:
                examiner = m.group(1).title()
            m = re.match(r"\s*(Q\.|A\.|M[RS]S?\. ([A-Z]+):)", t)
            if m:
                speaker = {"Q.": examiner, "A.": deponent}.get(m.group(1)) or (m.group(2) or "").title()
            rows.append((pg, ln, t, speaker))
        return rows

    def cited(self, cite):
        """(texts, doc_id, segments): the raw texts a cite names (a transcript
        cite: its lines, one text), the document, and (text, speaker) pieces."""
        cite = cite.replace("\u2013", "-")
        m = re.fullmatch(r"([A-Z]+-?)(\d+)(?:-(\d+))?", cite)
        if m:
            pre, num, end = m.groups()
            hi = num if end is None else num[:len(num) - len(end)] + end
            rows = self.q("SELECT text, doc_id FROM pages WHERE bates BETWEEN ? AND ? ORDER BY bates",
                          (pre + num, pre + hi)).fetchall()
            if len(rows) != int(hi) - int(num) + 1:
                return None
            return [r[0] for r in rows], rows[0][1], None
        m = re.fullmatch(r"(.+? Dep\.) (\d+):(\d+)(?:-(?:(\d+):)?(\d+))?", cite)
        if m:
            doc = self.doc(m.group(1))
            lo = (int(m.group(2)), int(m.group(3)))
            hi = (int(m.group(4) or m.group(2)), int(m.group(5) or m.group(3)))
            rows = [r for r in self.transcript(doc) if lo <= (r[0], r[1]) <= hi]
            if not rows:
                return None
            return [" ".join(r[2] for r in rows)], doc, [(r[2], r[3]) for r in rows]
        m = re.fullmatch(r"(.+?)(?: at (\d+))?", cite)
        doc = self.doc(m.group(1))
        if doc is None:
            return None
        if m.group(2):
            rows = self.q("SELECT text FROM pages WHERE doc_id = ? AND page_no = ?", (doc, int(m.group(2)))).fetchall()
        else:
            rows = self.q("SELECT text FROM pages WHERE doc_id = ? ORDER BY page_no", (doc,)).fetchall()
        return ([r[0] for r in rows], doc, None) if rows else None

    def document(self, doc):
        return "\n".join(r[0] for r in self.q("SELECT text FROM pages WHERE doc_id = ? ORDER BY page_no", (doc,)))

    def everything(self):
        return "\n".join(r[0] for r in self.q("SELECT text FROM pages"))


def speakers(texts, segments):
    """(text, speaker) pieces of pages: an e-mail's From, "Name Name:" lines."""
    if segments is not None:
        return segments
    out = []
    for page in texts:
        speaker = None
        for line in page.split("\n"):
            m = re.match(r"(?:From: )([^<]+?)\s*<", line) or re.match(r"([A-Z][a-z]+ [A-Z][a-z]+): ", line)
            if m:
                speaker = m.group(1)
            out.append((line, speaker))
    return out


def table(text, key):
    """The row of a text table (columns two spaces or pipes apart) whose first
    cell is key, as {header: cell}, and the rows before and after it."""
    rows = []
    header = None
    for line in text.split("\n"):
        if "|" in line:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
        else:
            cells = re.split(r"\s{2,}", line.strip())
        if len(cells) < 3 or all(re.fullmatch(r"-*", c) for c in cells):
            continue
        if header is None:
            header = cells
        elif len(cells) == len(header):
            rows.append(dict(zip(header, cells)))
    for i, r in enumerate(rows):
        if r[header[0]] == key:
            return r, rows[i - 1] if i else None, rows[i + 1] if i + 1 < len(rows) else None
    return None, None, None


def check_case(rec, c):
    bad = []
    texts, docs, segs = [], [], None
    for cite in c["cites"]:
        got = rec.cited(cite)
        if got is None:
            return ["cite %r names no page of the record" % cite]
        texts += got[0]
        docs.append(got[1])
        segs = got[2] if len(c["cites"]) == 1 else None
    blob = " | ".join(flat(t) for t in texts)
    wblob = " " + words(" | ".join(texts)) + " "
    sup = c["label"] == "supported"
    for h in c["has"]:
        if flat(h) not in blob:
            bad.append("%r is not on %s" % (h, "; ".join(c["cites"])))
    for l in c["lacks"]:
        if " " + words(l) + " " in wblob:
            bad.append("%r is on %s" % (l, "; ".join(c["cites"])))
    vals = numbers(" | ".join(texts))
    said = numbers(re.sub(r"\([^()]*\)", "", c["sentence"]))
    for k in c["chk"]:
        if k[0] in ("value", "novalue") and (k[1] not in said or (k[0] == "value") != sup):
            bad.append("%r: %s is not the sentence's own figure, or not a %s case's check"
                       % (k, k[1], c["label"]))
        elif k[0] == "value" and k[1] not in vals:
            bad.append("no number %s on the cited text" % k[1])
        elif k[0] == "novalue" and k[1] in vals:
            bad.append("the number %s is on the cited text" % k[1])
        elif k[0] == "date":
            said = dates(c["sentence"])
            on = dates(" | ".join(texts))
            if len(said) != 1 or (k[1] and said != {k[1]}):
                bad.append("the sentence's date is %s, not %s" % (sorted(said), k[1]))
            elif sup and not said & on:
                bad.append("%s is not a date on the cited text (%s)" % (sorted(said), sorted(on)))
            elif not sup and said & on:
                bad.append("%s is a date on the cited text" % sorted(said))
        elif k[0] == "row":
            row, before, after = table(texts[0], k[1])
            if row is None:
                bad.append("no table row %r" % k[1])
                continue
            differ = {col: v for col, v in k[2].items() if row.get(col) != v}
            if sup and differ:
                bad.append("row %r has %r" % (k[1], {col: row.get(col) for col in differ}))
            elif not sup:
                if not differ:
                    bad.append("row %r has every cell the sentence gives" % k[1])
                near = [r for r in (before, after) if r]
                if not all(any(r.get(col) == v for r in near) or
                           re.search(r"\b%s\b" % re.escape(v.lower()), fold(texts[0]))
                           for col, v in differ.items()):
                    bad.append("the wrong value of row %r is not on the page" % k[1])
        elif k[0] in ("sum", "pct", "product", "days"):
            ops = k[1] if k[0] == "sum" else list(k[1:3])
            for op in ops:
                if flat(op.split("|")[0]) not in blob:
                    bad.append("operand %r is not on the cited text" % op)
            if k[0] == "sum":
                val = sum(money(o) if "$" in o else float(o) for o in ops)
            elif k[0] == "pct":
                val = round(float(next(iter(numbers(k[1])))) * money(k[2]) / 100, 2)
            elif k[0] == "product":
                a, b = (money(o) if "$" in o else float(next(iter(numbers(o)))) for o in ops)
                val = a * b
            else:
                val = (to_date(k[2].split("|")[-1]) - to_date(k[1].split("|")[-1])).days
            if (val == k[-1]) != sup:
                bad.append("%s of %r is %s; the sentence says %s" % (k[0], ops, val, k[-1]))
        elif k[0] == "count":
            n = len(set(m.group(0) for m in re.finditer(k[1], "\n" + "\n".join(fold(t) for t in texts))))
            if (n == k[2]) != sup:
                bad.append("%d matches of %r; the sentence says %d" % (n, k[1], k[2]))
        elif k[0] == "speaker":
            pieces = speakers(texts, segs)
            joined, owner = "", []
            for text, who in pieces:
                w = words(text) + " "
                joined += w
                owner += [who] * len(w)
            at = joined.find(words(k[1]))
            if at < 0:
                bad.append("the quotation %r is not on the cited text" % k[1])
                continue
            who = owner[at] or ""
            if (k[2].lower() in who.lower()) != sup:
                bad.append("the quotation's speaker is %r, the sentence says %r" % (who, k[2]))
        elif k[0] == "role":
            m = re.search(k[1], "\n" + "\n".join(fold(t) for t in texts))
            if not m:
                bad.append("no %r on the cited text" % k[1])
                continue
            if (words(k[2]).split()[-1] == words(m.group(1)).split()[-1]) != sup:
                bad.append("the page names %r; the sentence says %r" % (m.group(1), k[2]))
            if not sup and words(k[2]) not in words(rec.everything()):
                bad.append("%r is nowhere in the record" % k[2])
        elif k[0] == "elsewhere":
            whole = flat(rec.document(docs[0]))
            if flat(k[1]) not in whole:
                bad.append("%r is not in the cited document" % k[1])
            elif flat(k[1]) in blob:
                bad.append("%r is on the cited text itself" % k[1])
        elif k[0] not in ("value", "novalue"):
            bad.append("unknown check %r" % (k,))
    return bad


def main():
    args = sys.argv[1:]
    out = db = None
    while args:
        a = args.pop(0)
        if a == "--check" and args:
            db = args.pop(0)
        elif a == "-o" and args:
            out = args.pop(0)
        else:
            raise SystemExit(__doc__)
    seen = {}
    for c in CASES:
        key = (c["class"], c["label"])
        n = seen[key] = seen.get(key, 0) + 1
        c["id"] = "%s-%s-%02d" % (c["class"], "t" if c["label"] == "supported" else "f", n)
    if db:
        rec = Record(db)
        bad = ["%s: %s" % (c["id"], b) for c in CASES for b in check_case(rec, c)]
        for b in bad:
            print("check: " + b, file=sys.stderr)
        if bad:
            return 1
    lines = []
    for c in CASES:
        note = c["note"]
        if c["label"] == "supported" and not note:
            note = "%s says %s" % ("; ".join(c["cites"]),
                                   ", ".join([repr(h) for h in c["has"]] + [repr(k) for k in c["chk"]]))
        lines.append(json.dumps({"id": c["id"], "class": c["class"], "label": c["label"], "layout": c["layout"],
                                 "sentence": c["sentence"], "cites": c["cites"], "note": note},
                                ensure_ascii=False))
    text = "\n".join(lines) + "\n"
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for cls in CLASSES:
        print("%-18s supported %3d  mismatch %3d" % (cls, seen.get((cls, "supported"), 0),
                                                      seen.get((cls, "mismatch"), 0)), file=sys.stderr)
    print("total %d" % len(CASES), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
