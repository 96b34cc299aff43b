#!/usr/bin/env python3
"""propositions_gen.py - writes tests/data/propositions.jsonl, the labelled
proposition cases over the example matter (examples/acme), and checks each
case's facts against the record itself.

Usage: propositions_gen.py [--check MATTER.db] [-o FILE]

Every case is one sentence as a model writes it in a brief or a declaration,
with its record cite in parentheses.  The table below was written by reading
the matter's pages (`sworn search`, the files under examples/acme); it is not
derived from any verifier.  Each entry names, besides the sentence:
  has     strings that must be on the cited page(s) as the page spells them
          (the true facts the sentence rests on),
  lacks   strings that must NOT be on the cited page(s) (the planted wrong
          amount, quantity, name or identifier, or the fact of another page),
  at      for a wrong page, another document or a merged pair: the cite where
          the fact really is (its `has` strings are checked there too).
With --check, the strings are looked up in a matter built as scripts/demo
builds it (sworn init; sworn matter new acme; sworn ingest -m acme --labels
examples/acme/labels.csv examples/acme), on the cited pages only (a transcript
cite: its cited lines), after folding case, curly quotes and whitespace; a
case whose facts do not hold there is reported and nothing is written.
"""
import json
import re
import sqlite3
import sys

CASES = []


def case(label, kind, sentence, has=(), lacks=(), at=None, note=""):
    cites = []
    for group in re.findall(r"\(([^()]+)\)", sentence):
        for c in re.split(r";\s*", group.strip().rstrip(".")):
            c = re.sub(r"^(?:[Ss]ee also|[Ss]ee|[Cc]f\.) ", "", c)
            if re.match(r"(ACME|BLT-|Pl\.(?:'s)? Ex\.|Def\. Ex\.|DX-|Smith Dep\.)", c):
                cites.append(c)
    if not cites:
        raise SystemExit("no cite in %r" % sentence)
    CASES.append({"label": label, "kind": kind, "sentence": sentence,
                  "cites": cites, "has": list(has), "lacks": list(lacks),
                  "at": at, "note": note})


def S(kind, sentence, *has, note=""):
    case("supported", kind, sentence, has=has, note=note)


def M(kind, sentence, has=(), lacks=(), at=None, note=""):
    case("mismatch", kind, sentence, has=has, lacks=lacks, at=at, note=note)


# ---------------------------------------------------------------- supported
# The Master Supply Agreement, ACME0000001-02 (Pl. Ex. 1).
S("exact", "Acme Widgets, Inc. and Brightline Logistics LLC entered into the Master Supply Agreement (ACME0000001).",
  "Acme Widgets, Inc.", "Brightline Logistics LLC", "Master Supply Agreement")
S("faithful_paraphrase", "Acme and Brightline are the parties to the Master Supply Agreement. (Pl. Ex. 1 at 1.)",
  "Acme", "Brightline")
S("faithful_paraphrase", "Under the Agreement, Brightline must deliver each order within 30 days of Acme's written purchase order (ACME0000001).",
  "thirty (30) days", "purchase order")
S("faithful_paraphrase", "Brightline promised delivery within thirty days of each purchase order (Pl. Ex. 1 at 1).",
  "thirty (30) days")
S("exact", "Section 1 requires Brightline to deliver each order \"within thirty (30) days of Acme's written purchase order.\" (ACME0000001.)",
  "within thirty (30) days")
S("faithful_paraphrase", "For each week of delay, Brightline owes Acme a credit of 2% of the order price (ACME0000001).",
  "two percent (2%)")
S("faithful_paraphrase", "The late-delivery credit is two percent per week, capped at ten percent (Pl. Ex. 1 at 1).",
  "two percent", "ten percent")
S("faithful_paraphrase", "The credit accrues at 2% a week up to a maximum of 10% of the order price (ACME0000001-02).",
  "2%", "10%")
S("faithful_paraphrase", "Section 2 caps the credit at 10 percent of the order price. (ACME0000001.)",
  "ten percent (10%)")
S("faithful_paraphrase", "The Agreement runs for three years and renews for one-year terms (ACME0000002).",
  "three years", "one-year")
S("faithful_paraphrase", "Either party may prevent renewal by giving 90 days' notice (Pl. Ex. 1 at 2).",
  "ninety days")
S("faithful_paraphrase", "Non-renewal requires ninety days' notice from either party (ACME0000002).",
  "ninety days")
S("faithful_paraphrase", "Delaware law governs the Agreement (ACME0000002).", "Delaware law governs")
S("faithful_paraphrase", "The Agreement selects Delaware law. (Pl. Ex. 1 at 2.)", "Delaware")
S("faithful_paraphrase", "Jane Roe signed the Agreement for Acme as its General Counsel (ACME0000002).",
  "Jane Roe", "General Counsel")
S("faithful_paraphrase", "Peter Vale, Brightline's Managing Member, signed for Brightline (Pl. Ex. 1 at 2).",
  "Peter Vale", "Managing Member")
S("faithful_paraphrase", "Roe and Vale signed the Master Supply Agreement for their companies (ACME0000001-02).",
  "Jane Roe", "Peter Vale")

S("exact", "The invoice lists \"12,000 widget housings at $4.25\" and \"Freight\" of $1,850.00. (Pl. Ex. 2 at 1.)",
  "12,000 widget housings at $4.25", "$1,850.00")
S("exact", "The invoice states: \"Total due ... $52,850.00.\" (ACME0000006.)", "$52,850.00")
S("exact", "Under section 2, \"Acme is owed a credit of six percent (6%) of the order price, or $3,060.00.\" (ACME0000008.)",
  "Acme is owed a credit of six percent (6%) of the order price, or $3,060.00")
S("exact", "The bill of lading describes \"24 pallets, widget housings, PO 4471\" with a \"Weight: 18,400 lb.\" (BLT-000004.)",
  "24 pallets, widget housings, PO 4471", "18,400 lb")
S("exact", "The purchase order reads \"Quantity: 12,000 Unit price: $4.25 Amount: $51,000.00.\" (Pl. Ex. 4 at 1.)",
  "Quantity: 12,000 Unit price: $4.25 Amount: $51,000.00")
S("exact", "Whitaker wrote that \"PO 4471 for Acme Widgets is the largest order affected.\" (Def. Ex. 1 at 1.)",
  "PO 4471 for Acme Widgets is the largest order affected")
S("exact", "Patel wrote: \"I recommend we issue it now rather than wait for payment of invoice 8812.\" (BLT-000010.)",
  "I recommend we issue it now rather than wait for payment of invoice 8812")
S("exact", "Roe wrote that \"[t]he credit under section 2 is $3,060.00.\" (Pl. Ex. 5.)", "credit under section 2 is $3,060.00")
S("exact", "The receiving log notes \"24 pallets received in good condition. Bill of lading NF-88213.\" (ACME0000010.)",
  "24 pallets received in good condition. Bill of lading NF-88213")
S("exact", "Asked whether Brightline applied a late-delivery credit, Smith answered, \"[n]ot on invoice 8812, no.\" (Smith Dep. 3:14-15.)",
  "late-delivery credit", "Not on invoice 8812, no")

# Smith's e-mail, ACME0000003.
S("faithful_paraphrase", "Tom Smith told Jane Roe that Brightline would not make the March 10 date for PO 4471 (ACME0000003).",
  "Tom Smith", "Jane Roe", "PO 4471", "March 10")
S("faithful_paraphrase", "Smith wrote to Roe that PO 4471 could ship no earlier than March 31, 2021 (ACME0000003).",
  "Smith", "Roe", "PO 4471", "March 31, 2021")
S("faithful_paraphrase", "Brightline's Tom Smith conceded that the new ship date was past the thirty days in the agreement (ACME0000003).",
  "past the thirty days")
S("faithful_paraphrase", "Smith acknowledged the delay went beyond the 30-day delivery period (ACME0000003).",
  "thirty days")
S("faithful_paraphrase", "Roe asked Smith to confirm that PO 4471 would arrive by March 10 (ACME0000003).",
  "confirm that PO 4471", "March 10")
S("faithful_paraphrase", "Smith attached a revised shipping schedule for P.O. 4471 to his reply (ACME0000003).",
  "Revised shipping schedule", "PO 4471")

# The revised schedule, ACME0000004.
S("faithful_paraphrase", "Brightline's revised schedule moved the ship date for PO 4471 to March 31, 2021 (ACME0000004).",
  "PO 4471", "Revised ship date: March 31, 2021")
S("faithful_paraphrase", "The revised schedule blamed a Line 3 press outage (ACME0000004).", "Line 3 press outage")
S("faithful_paraphrase", "Brightline Operations prepared the revised schedule, which gives the reason as a Line 3 press outage awaiting a replacement die (ACME0000004).",
  "Brightline Operations", "Line 3 press outage", "replacement die")

# Invoice 8812, ACME0000005-07 (Pl. Ex. 2).
S("exact", "Invoice 8812 billed 12,000 widget housings at $4.25 for $51,000.00 (ACME0000005).",
  "12,000 widget housings", "$4.25", "$51,000.00")
S("faithful_paraphrase", "Acme was invoiced for 12000 housings at $4.25 each (Pl. Ex. 2 at 1).",
  "12,000", "$4.25")
S("faithful_paraphrase", "The housings were billed at USD 51,000.00 on Invoice 8812 (ACME0000005).",
  "$51,000.00", "INVOICE 8812")
S("faithful_paraphrase", "Invoice 8812 charged $51,000 for the housings and $1,850 for freight. (Pl. Ex. 2 at 1.)",
  "$51,000.00", "$1,850.00")
S("faithful_paraphrase", "Freight on the invoice came to $1,850.00 (ACME0000005).", "$1,850.00")
S("faithful_paraphrase", "Invoice 8812 references PO 4471 (ACME0000005).", "INVOICE 8812", "PO 4471")
S("faithful_paraphrase", "The invoice for PO 4471 was issued to Acme Widgets (Pl. Ex. 2 at 1).",
  "Acme Widgets", "PO 4471")
S("faithful_paraphrase", "Acme was billed $52,850.00 in total (ACME0000006).", "$52,850.00")
S("faithful_paraphrase", "The total due on the invoice was $52,850 (Pl. Ex. 2 at 2).", "$52,850.00")
S("faithful_paraphrase", "The invoice demanded USD 52,850.00 on net 30 day terms (ACME0000006).",
  "$52,850.00", "net 30 days")
S("faithful_paraphrase", "Payment was due net 30 days (ACME0000006).", "net 30 days")
S("faithful_paraphrase", "The invoice applied no late-delivery credit (ACME0000006).", "credit applied: none")
S("faithful_paraphrase", "Invoice 8812 totals $52,850.00 and applies no credit (ACME0000005-06).",
  "$52,850.00", "none")
S("faithful_paraphrase", "Invoice 8812 billed $51,000.00 for 12,000 housings plus $1,850.00 freight, a total of $52,850.00 (ACME0000005-07).",
  "$51,000.00", "12,000", "$1,850.00", "$52,850.00")
S("faithful_paraphrase", "The remittance advice asks Acme to reference invoice 8812 with payment (ACME0000007).",
  "invoice 8812")
S("faithful_paraphrase", "Payment was to reference Invoice No. 8812 (Pl. Ex. 2 at 3).", "invoice 8812")

# The notice of breach, ACME0000008-09 (Pl. Ex. 3).
S("faithful_paraphrase", "Acme's notice of breach told Peter Vale that Acme was owed a credit of $3,060.00 (ACME0000008).",
  "Peter Vale", "$3,060.00")
S("faithful_paraphrase", "Acme claimed a credit of six percent of the order price, or $3,060 (Pl. Ex. 3 at 1).",
  "six percent (6%)", "$3,060.00")
S("faithful_paraphrase", "The notice computed a 6% credit of USD 3,060.00 (ACME0000008).", "6%", "$3,060.00")
S("faithful_paraphrase", "The notice states that Brightline shipped PO 4471 nearly four weeks late (ACME0000008).",
  "PO 4471", "nearly four weeks")
S("faithful_paraphrase", "Acme told Brightline that Invoice 8812 applies no credit (Pl. Ex. 3 at 1).",
  "Invoice 8812 applies no credit")
S("faithful_paraphrase", "Acme's notice relied on sections 1 and 2 of the Master Supply Agreement (ACME0000008).",
  "section 1", "section 2")
S("faithful_paraphrase", "Acme demanded that Brightline issue the credit within fourteen days (ACME0000009).",
  "within fourteen days")
S("faithful_paraphrase", "Acme gave Brightline 14 days to issue the credit (Pl. Ex. 3 at 2).", "fourteen days")
S("faithful_paraphrase", "Jane Roe signed the notice as General Counsel (ACME0000009).", "Jane Roe", "General Counsel")
S("faithful_paraphrase", "The notice demanded the $3,060.00 credit and gave Brightline fourteen days to pay it (ACME0000008-09).",
  "$3,060.00", "fourteen days")

# The receiving log, ACME0000010.
S("faithful_paraphrase", "Acme's receiving log shows 24 pallets received for PO 4471 (ACME0000010).",
  "24 pallets", "4471")
S("faithful_paraphrase", "Northway Freight delivered twenty-four pallets to Acme's Dock 2 (ACME0000010).",
  "Northway Freight", "24", "Dock 2")
S("faithful_paraphrase", "L. Ortiz received the shipment at Dock 2 in Newark, Delaware (ACME0000010).",
  "L. Ortiz", "Dock 2", "Newark, Delaware")
S("faithful_paraphrase", "The receiving log cites bill of lading NF-88213 (ACME0000010).", "NF-88213")
S("faithful_paraphrase", "The 24 pallets arrived in good condition under Bill of Lading No. NF-88213 (ACME0000010).",
  "24 pallets received in good condition", "NF-88213")

# The Line 3 memo, BLT-000001-02 (Def. Ex. 1).
S("faithful_paraphrase", "Dana Whitaker told Raj Patel that the Line 3 press failed (BLT-000001).",
  "Dana Whitaker", "Raj Patel", "Line 3 press failed")
S("faithful_paraphrase", "Brightline's operations manager reported that no order on Line 3 could ship (Def. Ex. 1 at 1).",
  "Operations Manager", "no order on Line 3 can ship")
S("faithful_paraphrase", "Whitaker identified PO 4471 for Acme as the largest order affected (BLT-000001).",
  "Whitaker", "PO 4471", "largest order affected")
S("faithful_paraphrase", "Whitaker's memo was addressed to Patel, Brightline's Controller (Def. Ex. 1 at 1).",
  "Raj Patel, Controller")
S("faithful_paraphrase", "Operations expected first shipments a week after the die arrived (BLT-000002).",
  "first shipments a week later")
S("faithful_paraphrase", "The memo asked that late-delivery credits be held until the final ship dates were known (Def. Ex. 1 at 2).",
  "hold any late-delivery credits")
S("faithful_paraphrase", "The memo said PO 4471 was the largest affected order and asked that credits be held (BLT-000001-02).",
  "PO 4471", "hold any late-delivery credits")

# The bill of lading, BLT-000003-05 (Def. Ex. 2).
S("faithful_paraphrase", "Bill of lading NF-88213 names Brightline as shipper and Acme as consignee (BLT-000003).",
  "NF-88213", "Shipper: Brightline", "Consignee: Acme")
S("faithful_paraphrase", "The carrier was Northway Freight (Def. Ex. 2 at 1).", "Northway Freight")
S("faithful_paraphrase", "The consignee was Acme at Dock 2, Newark, Delaware (BLT-000003).", "Dock 2, Newark, Delaware")
S("faithful_paraphrase", "The shipment consisted of 24 pallets of widget housings for PO 4471 (BLT-000004).",
  "24 pallets", "widget housings", "PO 4471")
S("faithful_paraphrase", "The load weighed 18,400 lb (Def. Ex. 2 at 2).", "18,400 lb")
S("faithful_paraphrase", "The 24 pallets weighed 18400 pounds (BLT-000004).", "24 pallets", "18,400 lb")
S("faithful_paraphrase", "Delivery was to be made to Dock 2 between 7 a.m. and 3 p.m. (BLT-000004).",
  "Dock 2", "7 a.m.", "3 p.m.")
S("faithful_paraphrase", "L. Ortiz signed the delivery receipt for Acme (BLT-000005).", "L. Ortiz", "Acme Widgets")
S("faithful_paraphrase", "Acme's L. Ortiz signed for the goods, received in good condition (Def. Ex. 2 at 3).",
  "L. Ortiz", "good condition")
S("faithful_paraphrase", "Northway Freight carried 24 pallets weighing 18,400 lb under bill of lading NF-88213 (BLT-000003-04).",
  "Northway Freight", "24 pallets", "18,400 lb", "NF-88213")
S("faithful_paraphrase", "Bill of lading NF-88213 covers 24 pallets that L. Ortiz signed for (BLT-000003-05).",
  "NF-88213", "24 pallets", "L. Ortiz")

# The credit procedure, BLT-000006-09 (Def. Ex. 3).
S("faithful_paraphrase", "Brightline's Customer Credit Procedure is Rev. 3 (BLT-000006).", "Rev. 3")
S("faithful_paraphrase", "Under the procedure, the Controller computes any credit the customer's agreement provides (Def. Ex. 3 at 1).",
  "Controller shall compute any credit")
S("faithful_paraphrase", "The Controller must approve each late-delivery credit within ten business days of the operations delay report (BLT-000007).",
  "within ten business days")
S("faithful_paraphrase", "The procedure gives the Controller 10 business days to approve a late-delivery credit (Def. Ex. 3 at 2).",
  "ten business days")
S("faithful_paraphrase", "The procedure forbids withholding a credit because the customer has an open balance on another invoice (BLT-000007-08).",
  "No credit may be withheld", "open balance on another invoice")
S("faithful_paraphrase", "Each credit decision must be recorded in the credit log (BLT-000008).", "credit log")
S("faithful_paraphrase", "Raj Patel approved Rev. 3 of the procedure (BLT-000009).", "Raj Patel", "Rev. 3")
S("faithful_paraphrase", "Rev. 3 replaced Rev. 2 (Def. Ex. 3 at 4).", "Rev. 3 replaces Rev. 2")
S("faithful_paraphrase", "Under Rev. 3, the Controller approves late-delivery credits within ten business days and may not withhold them for an open balance (BLT-000006-09).",
  "Rev. 3", "ten business days", "open balance")

# Patel's and Vale's e-mails, BLT-000010-12 (DX-7).
S("faithful_paraphrase", "Raj Patel wrote to Peter Vale that the Acme credit should have gone out in March (BLT-000010).",
  "Raj Patel", "Peter Vale", "should have gone out in March")
S("faithful_paraphrase", "Patel recommended issuing the credit now rather than waiting for payment of invoice 8812 (DX-7 at 1).",
  "issue it now rather than wait for payment of invoice 8812")
S("faithful_paraphrase", "Patel admitted having Dana's March 2 memo (BLT-000010).", "Dana's March 2 memo")
S("faithful_paraphrase", "Brightline's Controller conceded that under its own procedure the Acme credit was overdue (DX-7 at 1).",
  "Under our own procedure the Acme credit should have gone out")
S("faithful_paraphrase", "Vale told Patel that no credit would go to Acme until it paid invoice 8812 in full (BLT-000011).",
  "Peter Vale", "Raj Patel", "no credit goes to Acme until they pay invoice 8812 in full")
S("faithful_paraphrase", "Peter Vale refused the credit until Acme paid Invoice 8812 (DX-7 at 2).",
  "Peter Vale", "invoice 8812")
S("faithful_paraphrase", "Vale signed as Managing Member of Brightline Logistics LLC (BLT-000012).",
  "Peter Vale", "Managing Member", "Brightline Logistics LLC")
S("faithful_paraphrase", "Patel urged issuing the credit; Vale had said no credit would go to Acme until invoice 8812 was paid (BLT-000010-11).",
  "Raj", "Peter", "invoice 8812")

# Roe's e-mail of April 22, 2021 (Pl. Ex. 5) and the calculation (Pl. Ex. 6).
S("faithful_paraphrase", "Jane Roe told Peter Vale that the section 2 credit is $3,060.00 (Pl. Ex. 5).",
  "Jane Roe", "Peter Vale", "$3,060.00")
S("faithful_paraphrase", "Roe's reply, copied to Raj Patel, restated the $3,060 credit (Pl. Ex. 5).",
  "Raj Patel", "$3,060.00")
S("faithful_paraphrase", "Roe's e-mail of April 22 bears the reference Invoice INV-10236 (Pl. Ex. 5 at 1).", "INV-10236")
S("faithful_paraphrase", "Vale had replied that Brightline would respond after speaking with its controller (Pl. Ex. 5 at 1).",
  "after we speak with", "controller")
S("faithful_paraphrase", "Acme's calculation reports that Acme received the order twenty-seven days late (Pl. Ex. 6 at 1).",
  "twenty-seven days late")
S("faithful_paraphrase", "The order arrived 27 days late (Pl. Ex. 6 at 1).", "twenty-seven days")
S("faithful_paraphrase", "The calculation measures the delivery date as thirty days after purchase order 4471 (Pl. Ex. 6 at 1).",
  "thirty days after purchase order 4471")
S("faithful_paraphrase", "Section 2 gives a credit of 2% of the order price for each week of delay (Pl. Ex. 6 at 1).",
  "two percent")
S("faithful_paraphrase", "Three full weeks at two percent a week is six percent of the order price (Pl. Ex. 6 at 2).",
  "Three full weeks", "six percent")
S("faithful_paraphrase", "Six percent of the $51,000.00 order price is $3,060.00 (Pl. Ex. 6 at 2).",
  "six percent", "$51,000.00", "$3,060.00")
S("faithful_paraphrase", "The calculation arrives at a 6% credit, or $3,060, on an order price of $51,000 (Pl. Ex. 6 at 2).",
  "six percent", "$3,060.00", "$51,000.00")
S("faithful_paraphrase", "Acme reserved the right to claim a fourth week of delay (Pl. Ex. 6 at 1-2).", "Acme reserves its right", "fourth week")
S("faithful_paraphrase", "The calculation counts three weeks of delay at 2% per week and reserves a claim to a fourth week (Pl. Ex. 6).",
  "Three full weeks", "two percent", "fourth week")

# Purchase order 4471 (Pl. Ex. 4).
S("faithful_paraphrase", "Purchase Order 4471 ordered 12,000 widget housings from Brightline (Pl. Ex. 4).",
  "PURCHASE ORDER 4471", "12,000", "Brightline")
S("faithful_paraphrase", "Acme ordered twelve thousand WH-20 housings at $4.25 apiece (Pl. Ex. 4 at 1).",
  "12,000", "WH-20", "$4.25")
S("faithful_paraphrase", "The order's amount was $51,000.00 (Pl. Ex. 4 at 1).", "$51,000.00")
S("faithful_paraphrase", "PO 4471 was for 12,000 units, USD 51,000 in all (Pl. Ex. 4).", "12,000", "$51,000.00")
S("faithful_paraphrase", "The item ordered was widget housing WH-20 (Pl. Ex. 4).", "WH-20")
S("faithful_paraphrase", "The purchase order named Brightline Logistics as vendor and shipped to Dock 2 in Newark (Pl. Ex. 4).",
  "Vendor: Brightline Logistics LLC", "Dock 2, Newark")
S("faithful_paraphrase", "Jane Roe authorized purchase order 4471 (Pl. Ex. 4 at 1).", "Jane Roe", "4471")

# The deposition of Thomas Smith (Smith Dep.).
S("faithful_paraphrase", "Thomas Smith was deposed in C.A. No. 21-1187 (Smith Dep. 1:6-11).",
  "21-1187", "THOMAS SMITH")
S("faithful_paraphrase", "Karen Lutz reported the deposition (Smith Dep. 1:19).", "Karen Lutz")
S("faithful_paraphrase", "Maria Ellis appeared for the plaintiff (Smith Dep. 2:3-4).", "Maria Ellis")
S("faithful_paraphrase", "Owen Grant of Grant Whitfield LLP appeared for the defendant (Smith Dep. 2:7-9).",
  "Owen Grant", "Grant Whitfield LLP")
S("faithful_paraphrase", "Smith works for Brightline Logistics in operations (Smith Dep. 2:18-19).",
  "Brightline Logistics", "operations")
S("faithful_paraphrase", "Smith is Brightline's shipping supervisor (Smith Dep. 2:18-21).", "Brightline", "Shipping supervisor")
S("faithful_paraphrase", "Smith has held his job for six years (Smith Dep. 2:22-23).", "Six years")
S("faithful_paraphrase", "Smith testified that he handled the Acme account in 2021 (Smith Dep. 2:24-25).",
  "Acme account in 2021", "Yes")
S("faithful_paraphrase", "Smith admitted writing to Jane Roe about PO 4471 (Smith Dep. 3:1-2).",
  "Jane Roe", "PO 4471", "Yes")
S("faithful_paraphrase", "Smith testified that he told Roe they would miss the March 10 date (Smith Dep. 3:1-4).",
  "Jane Roe", "miss the March 10 date")
S("faithful_paraphrase", "Smith attributed the delay to the Line 3 press being down (Smith Dep. 3:5-6).",
  "Line 3 press was down")
S("faithful_paraphrase", "Smith conceded the shipment was not within thirty days of the purchase order (Smith Dep. 3:9-10).",
  "thirty days", "No, it was not")
S("faithful_paraphrase", "Smith testified that the carrier had the order for most of a week (Smith Dep. 3:11-13).",
  "most of a week")
S("faithful_paraphrase", "Smith admitted that Brightline applied no late-delivery credit on invoice 8812 (Smith Dep. 3:14-15).",
  "late-delivery credit", "Not on invoice 8812, no")
S("faithful_paraphrase", "Smith testified that billing was not told about the delay (Smith Dep. 3:16-17).",
  "Billing was not told about the delay")
S("faithful_paraphrase", "Smith testified that the controller decides whether a credit applies after operations reports a delay (Smith Dep. 3:18-20).",
  "controller", "operations reports")
S("faithful_paraphrase", "Smith did not recall reporting the delay (Smith Dep. 3:21-22).", "I do not recall doing so")
S("faithful_paraphrase", "Smith testified that Dana Whitaker may have sent something to the controller (Smith Dep. 3:23-25).",
  "Dana Whitaker")
S("faithful_paraphrase", "Smith identified the exhibit put to him as invoice 8812 (Smith Dep. 4:2-3).", "invoice 8812")
S("faithful_paraphrase", "Smith agreed that the invoice shows no credit (Smith Dep. 4:4-5).", "credit applied: none")
S("faithful_paraphrase", "Smith identified Defendant's Exhibit 3 as the customer credit procedure (Smith Dep. 4:10-11).",
  "Exhibit 3", "customer credit procedure")
S("faithful_paraphrase", "Smith testified that credits are approved within ten business days of the delay report (Smith Dep. 4:12-14).",
  "ten business days")
S("faithful_paraphrase", "Smith knew of no credit approved for Acme within 10 business days of March 2 (Smith Dep. 4:15-17).",
  "ten", "Not that I know of")
S("faithful_paraphrase", "Smith testified that nobody told Acme in writing that the credit was on hold (Smith Dep. 4:20-23).",
  "Not in writing")
S("faithful_paraphrase", "Smith told Roe by phone that the controller was holding all credits until the ship dates were final (Smith Dep. 4:24-5:2).",
  "Jane Roe", "holding all credits")
S("faithful_paraphrase", "Smith testified that Brightline has never issued the credit (Smith Dep. 5:7-8).", "Not as of today, no")
S("faithful_paraphrase", "Smith has seen Mr. Patel's e-mail of April 26 (Smith Dep. 5:9-11).", "Patel", "seen it")
S("faithful_paraphrase", "Smith testified that Patel's e-mail recommends issuing the credit rather than waiting for payment of invoice 8812 (Smith Dep. 5:9-14).",
  "Patel", "issue the credit rather than wait", "invoice 8812")
S("faithful_paraphrase", "Smith knew of no one who followed that recommendation (Smith Dep. 5:15-16).", "Not to my knowledge")
S("faithful_paraphrase", "The deposition concluded at 11:42 a.m. (Smith Dep. 5:20).", "11:42 a.m.")
S("faithful_paraphrase", "Karen Lutz, a Registered Professional Reporter, certified the transcript (Smith Dep. 6:3-6).",
  "Karen Lutz", "Registered Professional")

# Same facts, other spellings and cite forms models use.
S("faithful_paraphrase", "Brightline agreed to deliver within **thirty (30) days** of each purchase order (ACME0000001).",
  "thirty (30) days")
S("faithful_paraphrase", "Acme's order was for **12,000** housings at **$4.25** (ACME0000005).", "12,000", "$4.25")
S("faithful_paraphrase", "The invoice total was *$52,850.00* (ACME-0000006).", "$52,850.00")
S("faithful_paraphrase", "The credit Acme claims is $3,060 — six percent of the order price (ACME0000008).",
  "$3,060.00", "six percent")
S("faithful_paraphrase", "The credit is $3,060.00, that is 6% of $51,000.00 (Pl. Ex. 6 at 2).", "$3,060.00", "$51,000.00")
S("faithful_paraphrase", "The bill of lading lists a weight of 18,400 pounds for 24 pallets (Def. Ex. 2 at 2).",
  "18,400 lb", "24 pallets")
S("faithful_paraphrase", "The invoice's freight charge was $1,850 (ACME0000005).", "$1,850.00")
S("faithful_paraphrase", "The unit price was four dollars and twenty-five cents per housing (Pl. Ex. 4 at 1).", "$4.25")
S("faithful_paraphrase", "Invoice 8812 billed Acme $51,000.00 for 12,000 housings (ACME0000005-06).", "$51,000.00", "12,000")
S("faithful_paraphrase", "Acme is owed 6 percent of the order price, $3,060.00 (Pl. Ex. 3 at 1).", "6%", "$3,060.00")
S("faithful_paraphrase", "The Agreement's credit is two percent (2%) per week of delay (Pl. Ex. 1 at 1).", "two percent (2%)")
S("faithful_paraphrase", "Brightline's controller is Raj Patel (Def. Ex. 1 at 1).", "Raj Patel, Controller")
S("faithful_paraphrase", "The memo came from Dana Whitaker, Brightline's Operations Manager (BLT-000001).",
  "Dana Whitaker, Operations Manager")
S("faithful_paraphrase", "The receiving log records 24 pallets from Northway Freight received by L. Ortiz (ACME0000010).",
  "24", "Northway Freight", "L. Ortiz")
S("faithful_paraphrase", "Brightline shipped 24 pallets of widget housings under PO 4471 (Def. Ex. 2 at 1-2).",
  "Brightline", "24 pallets", "PO 4471")
S("faithful_paraphrase", "Acme's counsel, Ms. Roe, asked Mr. Smith to confirm delivery of PO 4471 by March 10 (ACME0000003).",
  "Jane Roe", "Tom Smith", "PO 4471")
S("faithful_paraphrase", "Brightline's own controller, Mr. Patel, recommended issuing the credit (BLT-000010).",
  "Raj Patel", "issue it now")
S("faithful_paraphrase", "Mr. Vale conditioned any credit on Acme paying invoice 8812 in full (BLT-000011).",
  "Peter Vale", "invoice 8812 in full")
S("faithful_paraphrase", "Ms. Whitaker identified PO 4471 as the largest affected order (Def. Ex. 1 at 1).",
  "Whitaker", "PO 4471", "largest order affected")
S("faithful_paraphrase", "Brightline delivered 24 pallets, weighing 18,400 lb, under bill of lading No. NF-88213 (BLT-000003; BLT-000004).",
  "NF-88213", "24 pallets", "18,400 lb")
S("faithful_paraphrase", "Invoice 8812 charged $51,000.00 for the housings and totalled $52,850.00 (ACME0000005; ACME0000006).",
  "$51,000.00", "$52,850.00")
S("faithful_paraphrase", "The Agreement's credit of 2% per week is capped at 10% (Pl. Ex. 1 at 1), and Delaware law governs it (Pl. Ex. 1 at 2).",
  "2%", "10%", "Delaware")

# Cite forms as models vary them: en-dash ranges, "at" after a comma, "p.",
# "Pl.'s Ex.", "Dep. at", a transcript range with an en dash.
S("faithful_paraphrase", "Invoice 8812 billed $51,000.00 for housings and came to $52,850.00 in all (ACME0000005–06).",
  "$51,000.00", "$52,850.00")
S("faithful_paraphrase", "The invoice total was $52,850.00 (Pl. Ex. 2, at 2).", "$52,850.00")
S("faithful_paraphrase", "Freight was $1,850.00 (Pl.'s Ex. 2 at 1).", "$1,850.00")
S("faithful_paraphrase", "The load weighed 18,400 lb (Def. Ex. 2, p. 2).", "18,400 lb")
S("faithful_paraphrase", "Smith testified that Brightline applied no late-delivery credit on invoice 8812 (Smith Dep. at 3:14-15).",
  "Not on invoice 8812")
S("faithful_paraphrase", "Smith conceded the order did not ship within thirty days (Smith Dep. 3:9–10).", "thirty days",
  "No, it was not")
S("faithful_paraphrase", "The procedure requires approval within ten business days and bars withholding a credit for an open balance (BLT-000007–08).",
  "ten business days", "open balance")
S("faithful_paraphrase", "Acme ordered 12,000 WH-20 housings for $51,000.00 (Pl.'s Ex. 4).", "12,000", "WH-20", "$51,000.00")

# Markdown as drafts carry it: list items, bold figures; spelled-out amounts;
# page ranges of an exhibit and full-form Bates ranges; a "see also" cite.
S("faithful_paraphrase", "- Total due: **$52,850.00** (ACME0000006).", "Total due", "$52,850.00")
S("faithful_paraphrase", "- Freight: $1,850.00; housings: $51,000.00 (Pl. Ex. 2 at 1).", "$1,850.00", "$51,000.00")
S("faithful_paraphrase", "1. Brightline shipped 24 pallets weighing 18,400 lb (Def. Ex. 2 at 1-2).", "Brightline", "24 pallets", "18,400 lb")
S("faithful_paraphrase", "* The notice demanded the credit within **fourteen days** (ACME0000009).", "fourteen days")
S("faithful_paraphrase", "The order price was fifty-one thousand dollars (Pl. Ex. 4 at 1).", "$51,000.00")
S("faithful_paraphrase", "The invoice asked for fifty-two thousand, eight hundred fifty dollars in all (ACME0000006).", "$52,850.00")
S("faithful_paraphrase", "Invoice 8812 billed $51,000.00 for housings and $52,850.00 in total (Pl. Ex. 2 at 1-2).",
  "$51,000.00", "$52,850.00")
S("faithful_paraphrase", "Northway Freight carried 24 pallets weighing 18,400 lb, and L. Ortiz signed for them (BLT-000003 - BLT-000005).",
  "Northway Freight", "24 pallets", "18,400 lb", "L. Ortiz")
S("faithful_paraphrase", "The invoice billed 12,000 housings and applied no late-delivery credit (ACME0000005 to ACME0000006).",
  "12,000", "none")
S("faithful_paraphrase", "The bill of lading lists 24 pallets of widget housings (Def. Ex. 2 at 2; see also ACME0000010).",
  "24 pallets")
S("faithful_paraphrase", "Smith has held his job as shipping supervisor for six years. (Smith Dep. 2:20-23.)",
  "Shipping supervisor", "Six years")
S("faithful_paraphrase", "The notice claimed $3,060.00 and gave Brightline fourteen days to pay (Pl. Ex. 3 at 1-2).",
  "$3,060.00", "fourteen days")

# ---------------------------------------------------------------- mismatches
# wrong_amount: a money figure the cited page gives otherwise.
M("wrong_amount", "Invoice 8812 billed $52,000.00 for the housings (ACME0000005).",
  has=["$51,000.00"], lacks=["52,000"], note="the housings line is $51,000.00")
M("wrong_amount", "Brightline billed 12,000 widget housings at $4.52 each (ACME0000005).",
  has=["$4.25"], lacks=["4.52"], note="the unit price is $4.25")
M("wrong_amount", "The freight charge was $1,580.00 (ACME0000005).", has=["$1,850.00"], lacks=["1,580"],
  note="freight is $1,850.00")
M("wrong_amount", "Freight came to $2,850 on Invoice 8812 (Pl. Ex. 2 at 1).", has=["$1,850.00"], lacks=["2,850"],
  note="freight is $1,850.00")
M("wrong_amount", "The total due on the invoice was $58,250.00 (ACME0000006).", has=["$52,850.00"], lacks=["58,250"],
  note="total due is $52,850.00")
M("wrong_amount", "Acme was billed USD 53,850.00 in total (Pl. Ex. 2 at 2).", has=["$52,850.00"], lacks=["53,850"],
  note="total due is $52,850.00")
M("wrong_amount", "Acme's notice claimed a credit of $3,600.00 (ACME0000008).", has=["$3,060.00"], lacks=["3,600"],
  note="the notice claims $3,060.00")
M("wrong_amount", "Acme demanded a credit of $4,080 (Pl. Ex. 3 at 1).", has=["$3,060.00"], lacks=["4,080"],
  note="the notice claims $3,060.00 (four weeks would be $4,080)")
M("wrong_amount", "Roe wrote that the section 2 credit is $3,160.00 (Pl. Ex. 5).", has=["$3,060.00"], lacks=["3,160"],
  note="the e-mail says $3,060.00")
M("wrong_amount", "Six percent of the $51,000.00 order price is $3,600.00 (Pl. Ex. 6 at 2).", has=["$3,060.00"],
  lacks=["3,600"], note="the calculation gives $3,060.00")
M("wrong_amount", "The calculation uses an order price of $52,850.00 (Pl. Ex. 6 at 2).", has=["$51,000.00"],
  lacks=["52,850"], note="the order price is $51,000.00; $52,850.00 is the invoice total")
M("wrong_amount", "Purchase order 4471 was for $50,100.00 (Pl. Ex. 4 at 1).", has=["$51,000.00"], lacks=["50,100"],
  note="the PO amount is $51,000.00")
M("wrong_amount", "Acme agreed to pay $4.75 per housing (Pl. Ex. 4).", has=["$4.25"], lacks=["4.75"],
  note="unit price $4.25")
M("wrong_amount", "The housings cost USD 42,500.00 (ACME0000005).", has=["$51,000.00"], lacks=["42,500"],
  note="housings $51,000.00")
M("wrong_amount", "Brightline charged **$1,950** for freight (ACME0000005).", has=["$1,850.00"], lacks=["1,950"],
  note="freight $1,850.00")
M("wrong_amount", "Invoice 8812 came to $52,580 in all (ACME0000006).", has=["$52,850.00"], lacks=["52,580"],
  note="total $52,850.00")
M("wrong_amount", "The credit Acme calculated was $3,006.00 (Pl. Ex. 6 at 2).", has=["$3,060.00"], lacks=["3,006"],
  note="$3,060.00")
M("wrong_amount", "Acme's notice demanded $30,600.00 (ACME0000008).", has=["$3,060.00"], lacks=["30,600"],
  note="$3,060.00")
M("wrong_amount", "Invoice 8812 billed $51,000.00 for housings and $1,500.00 for freight (Pl. Ex. 2 at 1).",
  has=["$51,000.00", "$1,850.00"], lacks=["1,500"], note="freight $1,850.00")
M("wrong_amount", "Roe insisted on a credit of USD 3,600 (Pl. Ex. 5 at 1).", has=["$3,060.00"], lacks=["3,600"],
  note="$3,060.00")
M("wrong_amount", "The order price on which the credit was computed was $15,000.00 (Pl. Ex. 6 at 2).", has=["$51,000.00"],
  lacks=["15,000"], note="$51,000.00")

# wrong_quantity: a count, weight, percentage or period the page gives otherwise.
M("wrong_quantity", "Brightline shipped 10,000 widget housings under Invoice 8812 (ACME0000005).", has=["12,000"],
  lacks=["10,000"], note="12,000 housings")
M("wrong_quantity", "Invoice 8812 covered 21,000 widget housings (Pl. Ex. 2 at 1).", has=["12,000"], lacks=["21,000"],
  note="12,000 housings")
M("wrong_quantity", "Acme ordered 1,200 housings on PO 4471 (Pl. Ex. 4 at 1).", has=["12,000"], lacks=["1,200 "],
  note="quantity 12,000")
M("wrong_quantity", "Purchase order 4471 called for 15,000 WH-20 housings (Pl. Ex. 4).", has=["12,000"], lacks=["15,000"],
  note="quantity 12,000")
M("wrong_quantity", "The receiving log shows 42 pallets received (ACME0000010).", has=["24"], lacks=["42"],
  note="24 pallets")
M("wrong_quantity", "Northway Freight delivered 20 pallets to Dock 2 (ACME0000010).", has=["24"], lacks=["20 pallets"],
  note="24 pallets")
M("wrong_quantity", "The shipment was 26 pallets of widget housings (BLT-000004).", has=["24 pallets"], lacks=["26"],
  note="24 pallets")
M("wrong_quantity", "The load weighed 14,800 lb (BLT-000004).", has=["18,400 lb"], lacks=["14,800"],
  note="18,400 lb")
M("wrong_quantity", "The 24 pallets weighed 18,000 pounds (Def. Ex. 2 at 2).", has=["18,400 lb"], lacks=["18,000"],
  note="18,400 lb")
M("wrong_quantity", "The Agreement requires delivery within sixty (60) days of the purchase order (ACME0000001).",
  has=["thirty (30) days"], lacks=["sixty", "60"], note="thirty (30) days")
M("wrong_quantity", "Brightline must deliver each order within 45 days (Pl. Ex. 1 at 1).", has=["thirty (30) days"],
  lacks=["45"], note="thirty (30) days")
M("wrong_quantity", "The late-delivery credit is three percent (3%) of the order price per week (ACME0000001).",
  has=["two percent (2%)"], lacks=["three percent", "3%"], note="two percent (2%)")
M("wrong_quantity", "The credit accrues at 5% per week (Pl. Ex. 1 at 1).", has=["2%"], lacks=["5%"],
  note="2% per week")
M("wrong_quantity", "Section 2 caps the credit at 20% of the order price (ACME0000001).", has=["ten percent (10%)"],
  lacks=["20%", "twenty"], note="cap 10%")
M("wrong_quantity", "The credit is capped at fifteen percent (Pl. Ex. 1 at 1).", has=["ten percent"],
  lacks=["fifteen", "15%"], note="cap ten percent")
M("wrong_quantity", "The Agreement runs for five years (ACME0000002).", has=["three years"], lacks=["five"],
  note="three years")
M("wrong_quantity", "Non-renewal requires sixty days' notice (Pl. Ex. 1 at 2).", has=["ninety days"], lacks=["sixty"],
  note="ninety days")
M("wrong_quantity", "The Agreement renews for two-year terms (ACME0000002).", has=["one-year terms"], lacks=["two-year"],
  note="one-year terms")
M("wrong_quantity", "Acme claimed a credit of eight percent (8%) of the order price (ACME0000008).",
  has=["six percent (6%)"], lacks=["eight", "8%"], note="six percent (6%)")
M("wrong_quantity", "Acme claimed a 4% credit (Pl. Ex. 3 at 1).", has=["6%"], lacks=["4%"], note="6%")
M("wrong_quantity", "Acme gave Brightline seven days to issue the credit (ACME0000009).", has=["fourteen days"],
  lacks=["seven"], note="fourteen days")
M("wrong_quantity", "Acme demanded the credit within 30 days (Pl. Ex. 3 at 2).", has=["fourteen days"],
  lacks=["30", "thirty"], note="fourteen days")
M("wrong_quantity", "The Controller approves credits within five business days of the delay report (BLT-000007).",
  has=["ten business days"], lacks=["five"], note="ten business days")
M("wrong_quantity", "The procedure allows 30 business days for approval of a credit (Def. Ex. 3 at 2).",
  has=["ten business days"], lacks=["30", "thirty"], note="ten business days")
M("wrong_quantity", "Acme's calculation says the order arrived twenty-one days late (Pl. Ex. 6 at 1).",
  has=["twenty-seven days late"], lacks=["twenty-one"], note="twenty-seven days")
M("wrong_quantity", "The order arrived 17 days late (Pl. Ex. 6 at 1).", has=["twenty-seven days"], lacks=["17", "seventeen"],
  note="twenty-seven days")
M("wrong_quantity", "Acme computed four full weeks of delay at two percent a week (Pl. Ex. 6 at 2).",
  has=["Three full weeks"], lacks=["four full weeks"], note="three full weeks; a fourth is only reserved")
M("wrong_quantity", "Payment terms were net 60 days (ACME0000006).", has=["net 30 days"], lacks=["60", "sixty"],
  note="net 30 days")
M("wrong_quantity", "Smith testified that he has held his job for ten years (Smith Dep. 2:22-23).", has=["Six years"],
  lacks=["ten"], note="six years")
M("wrong_quantity", "Smith testified that he has been shipping supervisor for 8 years (Smith Dep. 2:22-23).",
  has=["Six years"], lacks=["8", "eight"], note="six years")
M("wrong_quantity", "Smith testified that credits are approved within fifteen business days of the delay report (Smith Dep. 4:12-14).",
  has=["ten business days"], lacks=["fifteen"], note="ten business days")
M("wrong_quantity", "The notice said the shipment was nearly six weeks late (ACME0000008).", has=["nearly four weeks"],
  lacks=["six weeks"], note="nearly four weeks")
M("wrong_quantity", "The calculation puts the delay at 3 weeks at 4% a week (Pl. Ex. 6 at 2).", has=["two percent a week"],
  lacks=["4%", "four percent"], note="two percent a week")
M("wrong_quantity", "Acme's receiving log lists 240 pallets for PO 4471 (ACME0000010).", has=["24"], lacks=["240"],
  note="24 pallets")

M("wrong_amount", "Invoice 8812 totals $25,850.00 (ACME0000005–06).", has=["$52,850.00"], lacks=["25,850"],
  note="total $52,850.00")
M("wrong_quantity", "Smith testified that he had held the job for sixteen years (Smith Dep. 2:22–23).", has=["Six years"],
  lacks=["sixteen"], note="six years")
M("wrong_identifier", "The freight charge on Invoice 8821 was $1,850.00 (Pl.'s Ex. 2 at 1).", has=["INVOICE 8812"],
  lacks=["8821"], note="invoice 8812")

# wrong_party: a person or company the cited page does not name for it.
M("wrong_party", "Dana Whitaker signed the delivery receipt for Acme (BLT-000005).", has=["L. Ortiz"],
  lacks=["Whitaker"], note="L. Ortiz signed")
M("wrong_party", "Raj Patel received the shipment at Dock 2 (ACME0000010).", has=["L. Ortiz"], lacks=["Patel"],
  note="received by L. Ortiz")
M("wrong_party", "The carrier was Eastway Logistics (BLT-000003).", has=["Northway Freight"], lacks=["Eastway"],
  note="Northway Freight")
M("wrong_party", "Swift Freight delivered 24 pallets to Acme (ACME0000010).", has=["Northway Freight"], lacks=["Swift"],
  note="Northway Freight")
M("wrong_party", "Dana Whitaker wrote to Jane Roe that Brightline would miss the March 10 date (ACME0000003).",
  has=["Tom Smith"], lacks=["Whitaker"], note="Tom Smith wrote it")
M("wrong_party", "Peter Vale told Jane Roe that PO 4471 could not ship before March 31, 2021 (ACME0000003).",
  has=["Tom Smith"], lacks=["Vale"], note="Tom Smith wrote it")
M("wrong_party", "Tom Smith told Raj Patel that the Line 3 press had failed (BLT-000001).", has=["Dana Whitaker"],
  lacks=["Smith"], note="Dana Whitaker wrote the memo")
M("wrong_party", "Peter Vale's memo identified PO 4471 as the largest order affected (Def. Ex. 1 at 1).",
  has=["Dana Whitaker"], lacks=["Vale"], note="Whitaker's memo")
M("wrong_party", "The memo was addressed to Peter Vale (BLT-000001).", has=["To: Raj Patel"], lacks=["Vale"],
  note="addressed to Raj Patel")
M("wrong_party", "Tom Smith recommended that Brightline issue the credit now (BLT-000010).", has=["Raj Patel"],
  lacks=["Smith"], note="Raj Patel recommended it")
M("wrong_party", "Dana Whitaker wrote that no credit goes to Acme until it pays invoice 8812 (BLT-000011).",
  has=["Peter Vale"], lacks=["Whitaker"], note="Peter Vale wrote it")
M("wrong_party", "Tom Smith signed the Agreement for Brightline (ACME0000002).", has=["Peter Vale"], lacks=["Smith"],
  note="Peter Vale signed")
M("wrong_party", "Maria Ellis signed the Agreement for Acme (Pl. Ex. 1 at 2).", has=["Jane Roe"], lacks=["Ellis"],
  note="Jane Roe signed")
M("wrong_party", "The Master Supply Agreement is between Acme and Northway Freight (ACME0000001).",
  has=["Brightline Logistics LLC"], lacks=["Northway"], note="Acme and Brightline")
M("wrong_party", "The notice of breach was addressed to Raj Patel (ACME0000008).", has=["Peter Vale"], lacks=["Patel"],
  note="addressed to Peter Vale")
M("wrong_party", "Maria Ellis signed the notice of breach (ACME0000009).", has=["Jane Roe"], lacks=["Ellis"],
  note="Jane Roe signed")
M("wrong_party", "Tom Smith approved Rev. 3 of the credit procedure (BLT-000009).", has=["Raj Patel"], lacks=["Smith"],
  note="approved by Raj Patel")
M("wrong_party", "Dana Whitaker authorized purchase order 4471 (Pl. Ex. 4 at 1).", has=["Jane Roe"], lacks=["Whitaker"],
  note="authorized by Jane Roe")
M("wrong_party", "The purchase order named Northway Freight as vendor (Pl. Ex. 4).", has=["Vendor: Brightline"],
  lacks=["Northway"], note="vendor Brightline")
M("wrong_party", "Roe copied Dana Whitaker on her April 22 reply (Pl. Ex. 5).", has=["Cc: Raj Patel"],
  lacks=["Whitaker"], note="Cc Raj Patel")
M("wrong_party", "Owen Grant examined Smith for the plaintiff (Smith Dep. 2:15).", has=["MS. ELLIS"], lacks=["Grant"],
  note="examination by Ms. Ellis")
M("wrong_party", "Maria Ellis appeared for the defendant (Smith Dep. 2:7-9).", has=["Owen Grant"], lacks=["Ellis"],
  note="Owen Grant for the defendant")
M("wrong_party", "Laura Chen reported the deposition (Smith Dep. 1:19).", has=["Karen Lutz"], lacks=["Chen"],
  note="Karen Lutz")
M("wrong_party", "Smith testified that Raj Patel may have sent something to the controller (Smith Dep. 3:23-25).",
  has=["Dana Whitaker"], lacks=["Patel"], note="Dana Whitaker")
M("wrong_party", "Smith testified that he told Peter Vale by phone that credits were on hold (Smith Dep. 4:24-5:2).",
  has=["Jane Roe"], lacks=["Vale"], note="he told Jane Roe")
M("wrong_party", "The bill of lading names Northway Freight as shipper and Dana Whitaker as consignee (BLT-000003).",
  has=["Shipper: Brightline", "Consignee: Acme"], lacks=["Whitaker"], note="shipper Brightline, consignee Acme")

# wrong_page: the right fact, cited to a page that does not say it.
M("wrong_page", "Acme was billed $52,850.00 for PO 4471 (ACME0000005).", has=["PO 4471"], lacks=["52,850"],
  at="ACME0000006", note="the total is on ACME0000006, the next page")
M("wrong_page", "The total due on Invoice 8812 was $52,850.00 (Pl. Ex. 2 at 1).", lacks=["52,850"],
  at="Pl. Ex. 2 at 2", note="the total is on the invoice's second page")
M("wrong_page", "Invoice 8812 billed 12,000 housings at $4.25 (ACME0000006).", lacks=["12,000", "4.25"],
  at="ACME0000005", note="on ACME0000005")
M("wrong_page", "Freight was $1,850.00 (ACME0000007).", lacks=["1,850"], at="ACME0000005", note="on ACME0000005")
M("wrong_page", "Payment terms were net 30 days (ACME0000005).", lacks=["net 30"], at="ACME0000006",
  note="on ACME0000006")
M("wrong_page", "Delaware law governs the Agreement (ACME0000001).", lacks=["Delaware"], at="ACME0000002",
  note="section 4 is on ACME0000002")
M("wrong_page", "The Agreement requires delivery within thirty (30) days (ACME0000002).", lacks=["thirty"],
  at="ACME0000001", note="section 1 is on ACME0000001")
M("wrong_page", "The credit is capped at ten percent (10%) (Pl. Ex. 1 at 2).", lacks=["ten percent", "10%"],
  at="Pl. Ex. 1 at 1", note="section 2 is on the first page")
M("wrong_page", "Non-renewal requires ninety days' notice (ACME0000001).", lacks=["ninety"], at="ACME0000002",
  note="section 3 is on ACME0000002")
M("wrong_page", "Acme claimed a credit of $3,060.00 (ACME0000009).", lacks=["3,060"], at="ACME0000008",
  note="on ACME0000008")
M("wrong_page", "Acme demanded the credit within fourteen days (ACME0000008).", lacks=["fourteen"], at="ACME0000009",
  note="on ACME0000009")
M("wrong_page", "Acme claimed six percent (6%) of the order price (Pl. Ex. 3 at 2).", lacks=["six percent", "6%"],
  at="Pl. Ex. 3 at 1", note="on the notice's first page")
M("wrong_page", "The load weighed 18,400 lb (BLT-000003).", lacks=["18,400"], at="BLT-000004", note="on BLT-000004")
M("wrong_page", "The shipment was 24 pallets of widget housings (BLT-000005).", lacks=["24"], at="BLT-000004",
  note="on BLT-000004")
M("wrong_page", "L. Ortiz signed the delivery receipt (BLT-000004).", lacks=["Ortiz"], at="BLT-000005",
  note="on BLT-000005")
M("wrong_page", "The carrier was Northway Freight (Def. Ex. 2 at 2).", lacks=["Northway"], at="Def. Ex. 2 at 1",
  note="on the bill's first page")
M("wrong_page", "The Controller approves credits within ten business days (BLT-000006).", lacks=["ten business"],
  at="BLT-000007", note="on BLT-000007")
M("wrong_page", "The Controller approves credits within ten business days (Def. Ex. 3 at 3).", lacks=["ten business"],
  at="Def. Ex. 3 at 2", note="on the second page")
M("wrong_page", "Raj Patel approved Rev. 3 of the procedure (BLT-000008).", lacks=["Patel", "Rev. 3"], at="BLT-000009",
  note="on BLT-000009")
M("wrong_page", "Operations expected the die by March 24, 2021 and the first shipments a week later (BLT-000001).",
  lacks=["March 24", "a week later"], at="BLT-000002", note="on BLT-000002")
M("wrong_page", "Whitaker identified PO 4471 as the largest order affected (Def. Ex. 1 at 2).", lacks=["4471", "largest"],
  at="Def. Ex. 1 at 1", note="on the memo's first page")
M("wrong_page", "Vale wrote that no credit goes to Acme until it pays invoice 8812 in full (BLT-000012).",
  lacks=["8812"], at="BLT-000011", note="Vale's message is on BLT-000011; BLT-000012 is his signature block")
M("wrong_page", "Patel recommended issuing the credit rather than waiting for payment of invoice 8812 (DX-7 at 3).",
  lacks=["Patel", "8812"], at="DX-7 at 1", note="Patel's message is on the first page")
M("wrong_page", "Three full weeks at two percent is six percent, or $3,060.00 (Pl. Ex. 6 at 1).",
  lacks=["3,060", "Three full weeks"], at="Pl. Ex. 6 at 2", note="on the calculation's second page")
M("wrong_page", "Acme received the order twenty-seven days late (Pl. Ex. 6 at 2).", lacks=["twenty-seven"],
  at="Pl. Ex. 6 at 1", note="on the first page")
M("wrong_page", "Smith testified that the order was not shipped within thirty days (Smith Dep. 4:9-10).",
  lacks=["thirty"], at="Smith Dep. 3:9-10", note="at 3:9-10")
M("wrong_page", "Smith testified that Brightline applied no late-delivery credit on invoice 8812 (Smith Dep. 4:14-15).",
  lacks=["8812"], at="Smith Dep. 3:14-15", note="at 3:14-15")
M("wrong_page", "Smith testified that credits are approved within ten business days of the delay report (Smith Dep. 3:13-14).",
  lacks=["ten business"], at="Smith Dep. 4:13-14", note="at 4:13-14")
M("wrong_page", "Smith testified that he has held his job for six years (Smith Dep. 3:23).", lacks=["Six years"],
  at="Smith Dep. 2:23", note="at 2:23")
M("wrong_page", "Smith testified that Patel's e-mail recommends issuing the credit rather than waiting for payment of invoice 8812 (Smith Dep. 4:13-14).",
  lacks=["8812"], at="Smith Dep. 5:13-14", note="at 5:13-14")
M("wrong_page", "Smith testified that Dana Whitaker may have sent something to the controller (Smith Dep. 4:24-25).",
  lacks=["Whitaker"], at="Smith Dep. 3:24-25", note="at 3:24-25")

# other_document: a fact of another document cited to a page that lacks it.
M("other_document", "The purchase order called for 12,000 housings at $4.25 (ACME0000001).", lacks=["12,000", "4.25"],
  at="Pl. Ex. 4 at 1", note="on the purchase order, not the Agreement")
M("other_document", "Acme's order was for widget housing WH-20 (ACME0000005).", lacks=["WH-20"], at="Pl. Ex. 4",
  note="WH-20 is on the purchase order only")
M("other_document", "The shipment weighed 18,400 lb (ACME0000010).", lacks=["18,400"], at="BLT-000004",
  note="on the bill of lading")
M("other_document", "The load weighed 18,400 lb (ACME0000005).", lacks=["18,400"], at="BLT-000004",
  note="on the bill of lading")
M("other_document", "Acme claimed a credit of $3,060.00 (ACME0000006).", lacks=["3,060"], at="ACME0000008",
  note="on the notice; the invoice applies none")
M("other_document", "The credit Acme claims is $3,060.00 (BLT-000010).", lacks=["3,060"], at="Pl. Ex. 5",
  note="in Roe's e-mail and the notice, not Patel's")
M("other_document", "Brightline billed $52,850.00 in total (ACME0000008).", lacks=["52,850"], at="ACME0000006",
  note="on the invoice")
M("other_document", "The invoice total was $52,850.00 (Pl. Ex. 6 at 2).", lacks=["52,850"], at="Pl. Ex. 2 at 2",
  note="on the invoice")
M("other_document", "Freight on PO 4471 was $1,850.00 (Pl. Ex. 4).", lacks=["1,850"], at="ACME0000005",
  note="on the invoice, not the PO")
M("other_document", "The Controller must approve each credit within ten business days (BLT-000010).",
  lacks=["ten business"], at="BLT-000007", note="in the procedure")
M("other_document", "The Controller must approve each credit within ten business days (ACME0000001).",
  lacks=["ten business"], at="BLT-000007", note="in Brightline's procedure, not the Agreement")
M("other_document", "The Line 3 press failed and a replacement die was on order (ACME0000003).",
  lacks=["Line 3", "replacement die"], at="ACME0000004", note="on the revised schedule, not the e-mail")
M("other_document", "The Agreement requires delivery within thirty (30) days (ACME0000008).", lacks=["thirty", "30"],
  at="ACME0000001", note="the Agreement's words; the notice cites section 1 only")
M("other_document", "Bill of lading NF-88213 covered the shipment (ACME0000005).", lacks=["NF-88213"],
  at="BLT-000003", note="on the BOL and receiving log, not the invoice")
M("other_document", "Acme ordered 12,000 housings (ACME0000010).", lacks=["12,000"], at="Pl. Ex. 4",
  note="the receiving log counts pallets only")
M("other_document", "The receiving log records 24 pallets weighing 18,400 lb (ACME0000010).", has=["24 pallets"],
  lacks=["18,400"], at="BLT-000004", note="the weight is on the bill of lading")
M("other_document", "Roe's April 22 e-mail carries the reference INV-10236 (ACME0000008).", lacks=["INV-10236"],
  at="Pl. Ex. 5", note="in the e-mail only")
M("other_document", "Rev. 3 of the procedure replaced Rev. 2 (BLT-000001).", lacks=["Rev. 2"], at="BLT-000009",
  note="in the procedure")
M("other_document", "Acme computed the credit as three full weeks at two percent a week (ACME0000008).",
  lacks=["three", "two percent"], at="Pl. Ex. 6 at 2", note="in the calculation; the notice gives six percent, nearly four weeks")
M("other_document", "The order arrived twenty-seven days late (ACME0000010).", lacks=["twenty-seven"],
  at="Pl. Ex. 6 at 1", note="in the calculation")
M("other_document", "Smith testified that the order was for 12,000 housings (Smith Dep. 3:7-8).", lacks=["12,000"],
  at="Pl. Ex. 4", note="not in the deposition")
M("other_document", "Smith testified that the freight was $1,850.00 (Smith Dep. 4:2-3).", lacks=["1,850"],
  at="ACME0000005", note="on the invoice, not in the testimony")
M("other_document", "Smith testified that Acme claimed a credit of $3,060.00 (Smith Dep. 5:7-8).", lacks=["3,060"],
  at="ACME0000008", note="not in the deposition")
M("other_document", "Smith testified that the shipment was 24 pallets (Smith Dep. 3:11-13).", lacks=["24"],
  at="ACME0000010", note="not in the deposition")
M("other_document", "Under the procedure, the Controller approves credits within ten business days (Pl. Ex. 1 at 1).",
  lacks=["ten business"], at="Def. Ex. 3 at 2", note="in the procedure")
M("other_document", "Acme computed its credit on an order price of $51,000.00 (ACME0000008).", lacks=["51,000"],
  at="Pl. Ex. 6 at 2", note="the notice gives only the result")
M("other_document", "The purchase order required delivery to Dock 2 between 7 a.m. and 3 p.m. (Pl. Ex. 4).",
  lacks=["7 a.m."], at="BLT-000004", note="the hours are on the bill of lading")
M("other_document", "Karen Lutz reported Smith's deposition (ACME0000003).", lacks=["Lutz"], at="Smith Dep. 1:19",
  note="in the transcript")
M("other_document", "Acme's receiving clerk L. Ortiz signed the Agreement's delivery schedule (ACME0000001).",
  lacks=["Ortiz"], at="ACME0000010", note="Ortiz is on the receiving log and delivery receipt")
M("other_document", "Patel's e-mail states that 24 pallets were delivered (DX-7 at 1).", lacks=["24", "pallets"],
  at="ACME0000010", note="on the receiving log")

M("other_document", "The load weighed 18,400 lb (Pl.'s Ex. 2 at 1).", lacks=["18,400"], at="BLT-000004",
  note="the invoice gives no weight; the bill of lading does")
M("wrong_page", "The invoice total was $52,850.00 (Pl. Ex. 2, at 1).", lacks=["52,850"], at="Pl. Ex. 2 at 2",
  note="the total is on page 2")
M("wrong_page", "Smith testified that he has held his job for six years (Smith Dep. at 4:22-23).", lacks=["Six years"],
  at="Smith Dep. 2:22-23", note="at 2:22-23")
M("wrong_page", "The shipment weighed 18,400 lb (Def. Ex. 2, p. 3).", lacks=["18,400"], at="Def. Ex. 2 at 2",
  note="the weight is on page 2")
M("other_document", "The bill of lading lists 24 pallets weighing 18,400 lb (ACME0000008–09).", lacks=["18,400", "24 pallets"],
  at="BLT-000004", note="the notice of breach has neither")

M("wrong_amount", "- Total due: **$52,580.00** (ACME0000006).", has=["$52,850.00"], lacks=["52,580"],
  note="total $52,850.00")
M("wrong_amount", "The freight charge was two thousand dollars (ACME0000005).", has=["$1,850.00"], lacks=["$2,000"],
  note="freight $1,850.00")
M("wrong_amount", "The order price was fifty-two thousand dollars (Pl. Ex. 4 at 1).", has=["$51,000.00"], lacks=["52,000"],
  note="$51,000.00")
M("wrong_quantity", "1. Brightline shipped 42 pallets weighing 18,400 lb (Def. Ex. 2 at 1-2).", has=["24 pallets", "18,400 lb"],
  lacks=["42"], note="24 pallets")
M("wrong_quantity", "Northway Freight carried 30 pallets, and L. Ortiz signed for them (BLT-000003 - BLT-000005).",
  has=["Northway Freight", "L. Ortiz"], lacks=["30 pallets"], note="24 pallets")
M("wrong_page", "The bill of lading lists a weight of 18,400 lb (ACME0000005 to ACME0000007).", lacks=["18,400"],
  at="BLT-000004", note="the weight is on BLT-000004")
M("other_document", "Invoice 8812 billed 12,000 housings (Pl. Ex. 3 at 1-2).", lacks=["12,000"], at="ACME0000005",
  note="the notice gives no quantity")
M("wrong_party", "Northway Freight carried the pallets, and Raj Patel signed for them (BLT-000003 - BLT-000005).",
  has=["L. Ortiz"], lacks=["Patel"], note="L. Ortiz signed")
M("merged_pair", "The bill of lading lists 24 pallets weighing 18,400 lb (Def. Ex. 2 at 2; see also ACME0000010) and a freight charge of $1,850.00.",
  has=["24 pallets", "18,400 lb"], lacks=["1,850"], at="ACME0000005", note="freight is on the invoice")

# merged_pair: two facts, one on the cited page and one not.
M("merged_pair", "Invoice 8812 billed $51,000.00 for the housings and totalled $52,850.00 (ACME0000005).",
  has=["$51,000.00"], lacks=["52,850"], at="ACME0000006", note="the housings line is on 0005, the total on 0006")
M("merged_pair", "Invoice 8812 charged $1,850.00 for freight on net 30 day terms (ACME0000005).", has=["$1,850.00"],
  lacks=["net 30"], at="ACME0000006", note="terms are on 0006")
M("merged_pair", "The Agreement requires delivery within thirty (30) days and is governed by Delaware law (ACME0000001).",
  has=["thirty (30) days"], lacks=["Delaware"], at="ACME0000002", note="governing law on 0002")
M("merged_pair", "The credit is two percent per week, and either party may end renewal on ninety days' notice (Pl. Ex. 1 at 1).",
  has=["two percent"], lacks=["ninety"], at="Pl. Ex. 1 at 2", note="notice on page 2")
M("merged_pair", "The notice claimed $3,060.00 and gave Brightline fourteen days to pay (ACME0000008).",
  has=["$3,060.00"], lacks=["fourteen"], at="ACME0000009", note="fourteen days on 0009")
M("merged_pair", "The bill of lading names Northway Freight as carrier and lists a weight of 18,400 lb (BLT-000003).",
  has=["Northway Freight"], lacks=["18,400"], at="BLT-000004", note="weight on BLT-000004")
M("merged_pair", "The shipment was 24 pallets and was signed for by L. Ortiz (BLT-000004).", has=["24 pallets"],
  lacks=["Ortiz"], at="BLT-000005", note="Ortiz on BLT-000005")
M("merged_pair", "The procedure is Rev. 3 and requires approval within ten business days (BLT-000006).", has=["Rev. 3"],
  lacks=["ten business"], at="BLT-000007", note="approval period on 0007")
M("merged_pair", "Patel recommended issuing the credit on April 26, 2021, after Vale refused it on April 23, 2021 (BLT-000010).",
  has=["Raj Patel", "April 26, 2021"], lacks=["April 23"], at="BLT-000011", note="Vale's refusal of April 23 is on 0011")
M("merged_pair", "Whitaker said PO 4471 was the largest affected order and that the die was expected by March 24, 2021 (Def. Ex. 1 at 1).",
  has=["PO 4471"], lacks=["March 24"], at="Def. Ex. 1 at 2", note="the die date is on page 2")
M("merged_pair", "Acme ordered 12,000 WH-20 housings and paid $1,850.00 in freight (Pl. Ex. 4).", has=["12,000", "WH-20"],
  lacks=["1,850"], at="ACME0000005", note="freight only on the invoice")
M("merged_pair", "The receiving log shows 24 pallets from Northway Freight weighing 18,400 lb (ACME0000010).",
  has=["24", "Northway Freight"], lacks=["18,400"], at="BLT-000004", note="weight on the BOL")
M("merged_pair", "Acme claimed six percent, or $3,060.00, of an order price of $52,850.00 (ACME0000008).",
  has=["six percent", "$3,060.00"], lacks=["52,850"], note="the order price is $51,000.00; $52,850.00 is not on the notice")
M("merged_pair", "Invoice 8812 billed 12,000 housings at $4.25 and freight of $2,100.00 (ACME0000005).",
  has=["12,000", "$4.25"], lacks=["2,100"], note="freight $1,850.00")
M("merged_pair", "Three full weeks of delay at two percent is six percent, or $3,600.00 (Pl. Ex. 6 at 2).",
  has=["Three full weeks", "six percent"], lacks=["3,600"], note="the credit is $3,060.00")
M("merged_pair", "Delivery was due within thirty days, with a credit of three percent per week (ACME0000001).",
  has=["thirty (30) days"], lacks=["three percent"], note="the credit is two percent")
M("merged_pair", "Northway Freight carried 24 pallets weighing 14,800 lb (BLT-000003-04).",
  has=["Northway Freight", "24 pallets"], lacks=["14,800"], note="18,400 lb")
M("merged_pair", "L. Ortiz received 24 pallets from Eastway Freight (ACME0000010).", has=["L. Ortiz", "24"],
  lacks=["Eastway"], note="Northway Freight")
M("merged_pair", "Smith testified that he is shipping supervisor and has held the job for nine years (Smith Dep. 2:20-23).",
  has=["Shipping supervisor", "Six years"], lacks=["nine"], note="six years")
M("merged_pair", "Smith testified that the order shipped March 31, 2021 and that it was 24 pallets (Smith Dep. 3:7-8).",
  lacks=["24", "pallets"], at="ACME0000010", note="the pallet count is not in the testimony")
M("merged_pair", "Patel had Dana's March 2 memo and recommended a $3,060.00 credit (DX-7 at 1).",
  has=["Dana's March 2 memo"], lacks=["3,060"], at="Pl. Ex. 5", note="Patel names no amount")
M("merged_pair", "Roe wrote that the credit is $3,060.00 and copied Dana Whitaker (Pl. Ex. 5).", has=["$3,060.00"],
  lacks=["Whitaker"], note="Raj Patel was copied")
M("merged_pair", "The purchase order was for 12,000 housings at $4.25, $54,000.00 in all (Pl. Ex. 4 at 1).",
  has=["12,000", "$4.25"], lacks=["54,000"], note="$51,000.00")
M("merged_pair", "The invoice applied no credit and totalled $52,850.00, with freight of $1,850.00 (ACME0000006).",
  has=["none", "$52,850.00"], lacks=["1,850"], at="ACME0000005", note="freight on 0005")

# negation: the sentence says the opposite of the cited page.
M("negation", "Invoice 8812 applied a late-delivery credit (ACME0000006).", has=["Late delivery credit applied: none"],
  note="the invoice says credit applied: none")
M("negation", "Delaware law does not govern the Agreement (ACME0000002).", has=["Delaware law governs"],
  note="section 4: Delaware law governs")
M("negation", "Brightline's procedure allows a credit to be withheld when the customer has an open balance on another invoice (BLT-000007-08).",
  has=["No credit may be withheld"], note="no credit may be withheld")
M("negation", "The goods were not received in good condition (BLT-000005).", has=["Received in good condition"],
  note="received in good condition")
M("negation", "The 24 pallets arrived damaged (ACME0000010).", has=["24 pallets received in good condition"],
  note="received in good condition")
M("negation", "Smith testified that the order shipped within thirty days of the purchase order (Smith Dep. 3:9-10).",
  has=["No, it was not"], note="no, it was not")
M("negation", "Smith denied writing to Jane Roe about PO 4471 (Smith Dep. 3:1-2).", has=["Yes, on March 3, 2021"],
  note="he said yes")
M("negation", "Smith testified that billing was told about the delay (Smith Dep. 3:16-17).",
  has=["Billing was not told about the delay"], note="billing was not told")
M("negation", "Smith testified that Brightline applied a late-delivery credit on invoice 8812 (Smith Dep. 3:14-15).",
  has=["Not on invoice 8812, no"], note="not on invoice 8812")
M("negation", "Smith testified that Brightline has issued the credit (Smith Dep. 5:7-8).", has=["Not as of today, no"],
  note="not as of today")
M("negation", "Smith testified that someone told Acme in writing that the credit was on hold (Smith Dep. 4:20-23).",
  has=["Not in writing"], note="not in writing")
M("negation", "Smith testified that he did not handle the Acme account in 2021 (Smith Dep. 2:24-25).", has=["Yes"],
  note="he said yes")
M("negation", "Smith testified that Brightline followed Patel's recommendation (Smith Dep. 5:15-16).",
  has=["Not to my knowledge"], note="not to his knowledge")
M("negation", "Smith testified that he had not seen Patel's e-mail of April 26 (Smith Dep. 5:9-11).",
  has=["I have seen it since"], note="he has seen it")
M("negation", "Smith wrote that Brightline would make the March 10 date for PO 4471 (ACME0000003).",
  has=["We will not make the March 10 date"], note="will not make it")
M("negation", "Smith wrote that the new ship date was within the thirty days in the agreement (ACME0000003).",
  has=["past the thirty days"], note="past the thirty days")
M("negation", "Patel wrote that under Brightline's procedure the Acme credit was not yet due (BLT-000010).",
  has=["should have gone out in March"], note="should have gone out in March")
M("negation", "Patel recommended waiting for payment of invoice 8812 before issuing the credit (DX-7 at 1).",
  has=["rather than wait for payment"], note="he recommended not waiting")
M("negation", "Vale agreed to issue the credit before Acme paid invoice 8812 (BLT-000011).",
  has=["no credit goes to Acme until they pay"], note="no credit until payment")
M("negation", "Whitaker's memo said orders on Line 3 could still ship (BLT-000001).", has=["no order on Line 3 can ship"],
  note="no order on Line 3 can ship")
M("negation", "Whitaker asked that late-delivery credits be issued at once (Def. Ex. 1 at 2).",
  has=["hold any late-delivery credits"], note="she asked to hold them")
M("negation", "The notice says Invoice 8812 applies the credit (ACME0000008).", has=["Invoice 8812 applies no credit"],
  note="applies no credit")
M("negation", "Acme's calculation waives any claim to a fourth week (Pl. Ex. 6).", has=["reserves its right", "fourth week"],
  note="Acme reserves the right (page 1) to claim a fourth week (page 2)")
M("negation", "Smith testified that he recalls operations reporting the delay (Smith Dep. 3:21-22).",
  has=["I do not recall doing so"], note="he does not recall")
M("negation", "Smith testified that a credit was approved for Acme within ten business days of March 2 (Smith Dep. 4:15-17).",
  has=["Not that I know of"], note="not that he knows of")
M("negation", "The Agreement does not renew after its three-year term (ACME0000002).", has=["renews for one-year terms"],
  note="it renews")
M("negation", "Under the procedure, the Controller does not compute late-delivery credits (Def. Ex. 3 at 1).",
  has=["the Controller shall compute any credit"], note="the Controller shall compute")
M("negation", "Invoice 8812 does not reference PO 4471 (ACME0000005).", has=["Purchase order: PO 4471"],
  note="it does")

# wrong_identifier: a purchase order, invoice, bill of lading, item, revision or case number the page gives otherwise.
M("wrong_identifier", "Invoice 8812 references PO 4417 (ACME0000005).", has=["PO 4471"], lacks=["4417"], note="PO 4471")
M("wrong_identifier", "Invoice 8821 billed 12,000 widget housings (ACME0000005).", has=["INVOICE 8812"], lacks=["8821"],
  note="invoice 8812")
M("wrong_identifier", "Brightline's invoice no. 8128 applied no credit (ACME0000006).", has=["none"], lacks=["8128"],
  note="the invoice is 8812 (on ACME0000005)")
M("wrong_identifier", "The receiving log cites bill of lading NF-88231 (ACME0000010).", has=["NF-88213"],
  lacks=["NF-88231"], note="NF-88213")
M("wrong_identifier", "Bill of lading No. NF-82813 covered the shipment (BLT-000003).", has=["NF-88213"],
  lacks=["NF-82813"], note="NF-88213")
M("wrong_identifier", "Acme ordered widget housing WH-200 (Pl. Ex. 4).", has=["WH-20"], lacks=["WH-200"], note="WH-20")
M("wrong_identifier", "Acme ordered widget housing WH-21 (Pl. Ex. 4 at 1).", has=["WH-20"], lacks=["WH-21"], note="WH-20")
M("wrong_identifier", "Roe's e-mail bears the reference Invoice INV-10263 (Pl. Ex. 5).", has=["INV-10236"],
  lacks=["INV-10263"], note="INV-10236")
M("wrong_identifier", "Purchase Order 4741 ordered 12,000 housings (Pl. Ex. 4).", has=["PURCHASE ORDER 4471"],
  lacks=["4741"], note="PO 4471")
M("wrong_identifier", "Smith told Roe that Brightline would not make the March 10 date for PO 4477 (ACME0000003).",
  has=["PO 4471"], lacks=["4477"], note="PO 4471")
M("wrong_identifier", "The revised schedule for PO 4470 moved the ship date to March 31, 2021 (ACME0000004).",
  has=["PO 4471"], lacks=["4470"], note="PO 4471")
M("wrong_identifier", "The revised schedule blamed a Line 2 press outage (ACME0000004).", has=["Line 3 press outage"],
  lacks=["Line 2"], note="Line 3")
M("wrong_identifier", "The Line 4 press failed and no order on it could ship (BLT-000001).", has=["Line 3 press failed"],
  lacks=["Line 4"], note="Line 3")
M("wrong_identifier", "Brightline's Customer Credit Procedure is Rev. 4 (BLT-000006).", has=["Rev. 3"], lacks=["Rev. 4"],
  note="Rev. 3")
M("wrong_identifier", "Rev. 3 replaced Rev. 1 of the procedure (BLT-000009).", has=["Rev. 2"], lacks=["Rev. 1"],
  note="Rev. 2")
M("wrong_identifier", "The consignee was Acme at Dock 3, Newark, Delaware (BLT-000003).", has=["Dock 2"],
  lacks=["Dock 3"], note="Dock 2")
M("wrong_identifier", "Northway Freight delivered to Acme's Dock 4 (ACME0000010).", has=["Dock 2"], lacks=["Dock 4"],
  note="Dock 2")
M("wrong_identifier", "Thomas Smith was deposed in C.A. No. 21-1178 (Smith Dep. 1:6-11).", has=["21-1187"],
  lacks=["21-1178"], note="C.A. No. 21-1187")
M("wrong_identifier", "Patel recommended issuing the credit rather than waiting for payment of invoice 8813 (BLT-000010).",
  has=["invoice 8812"], lacks=["8813"], note="invoice 8812")
M("wrong_identifier", "Vale refused any credit until Acme paid invoice 8218 in full (DX-7 at 2).", has=["invoice 8812"],
  lacks=["8218"], note="invoice 8812")
M("wrong_identifier", "The notice of breach concerns PO 4417 (ACME0000008).", has=["PO 4471"], lacks=["4417"],
  note="PO 4471")
M("wrong_identifier", "Whitaker identified PO 4714 as the largest order affected (BLT-000001).", has=["PO 4471"],
  lacks=["4714"], note="PO 4471")
M("wrong_identifier", "Smith admitted that Brightline applied no credit on invoice 8821 (Smith Dep. 3:14-15).",
  has=["invoice 8812"], lacks=["8821"], note="invoice 8812")
M("wrong_identifier", "The bill of lading lists 24 pallets of widget housings for PO 4417 (BLT-000004).",
  has=["PO 4471"], lacks=["4417"], note="PO 4471")
M("wrong_identifier", "The calculation concerns purchase order 4417 (Pl. Ex. 6 at 1).", has=["purchase order 4471"],
  lacks=["4417"], note="4471")
M("wrong_identifier", "The remittance advice asks Acme to reference invoice 8821 (ACME0000007).", has=["invoice 8812"],
  lacks=["8821"], note="invoice 8812")


# ---------------------------------------------------------------- second round
# Classes added with the rules that catch them (issue 13), each with its
# supported counterparts, written as local models write: Markdown, italics,
# parentheticals.
# Transcript pins: every fact and name must be on the cited lines.
S("faithful_paraphrase", "Owen Grant (of *Grant Whitfield LLP*) appeared for the defendant (Smith Dep. 2:7-9).",
  "Owen Grant", "Grant Whitfield LLP")
S("faithful_paraphrase", "Asked about Exhibit 2, Smith identified it as invoice 8812 (Smith Dep. 4:2-3).", "invoice 8812")
S("faithful_paraphrase", "Smith testified that credits are approved **within ten business days** of the delay report (Smith Dep. 4:12-14).",
  "Within ten business days")
M("wrong_page", "Smith identified Exhibit 2 as invoice 8812 (Smith Dep. 4:10-11).", has=["customer credit procedure"],
  lacks=["8812"], at="Smith Dep. 4:2-3", note="4:10-11 is Defendant's Exhibit 3")
M("wrong_party", "*Maria Ellis, Esq.* appeared for the defendant (Smith Dep. 2:7-8).", has=["Owen Grant"],
  lacks=["Maria Ellis"], note="Owen Grant for the defendant")
M("wrong_page", "Smith testified that **ten business days** is the approval period (Smith Dep. 4:2-5).",
  has=["invoice 8812"], lacks=["ten business"], at="Smith Dep. 4:12-14", note="the approval period is at 4:13-14")

# Case numbers are identifiers.
S("faithful_paraphrase", "Smith was deposed in Acme's suit against Brightline, C.A. No. 21-1187 (Smith Dep. 1:4-11).",
  "C.A. No. 21-1187", "THOMAS SMITH")
M("wrong_identifier", "The deposition caption gives the action as Civil Action No. 21-1817 (Smith Dep. 1:6).",
  has=["C.A. No. 21-1187"], lacks=["21-1817"], note="C.A. No. 21-1187")
M("wrong_identifier", "The transcript is captioned Case No. 21-1178 (Smith Dep. 1:1-8).", has=["C.A. No. 21-1187"],
  lacks=["21-1178"], note="C.A. No. 21-1187")

# Facts written in words on the page, searched for by value.
S("faithful_paraphrase", "According to Acme's calculation, the order arrived 27 days late (Pl. Ex. 6 at 1).",
  "twenty-seven days late")
S("faithful_paraphrase", "The Agreement has a term of 3 years (ACME0000002).", "three years")
M("wrong_page", "Non-renewal takes 90 days' notice from either party (ACME0000001).", has=["MASTER SUPPLY AGREEMENT"],
  lacks=["90", "ninety"], at="ACME0000002", note="ninety days' notice is on ACME0000002")
M("wrong_page", "Acme gave Brightline 14 days to issue the credit (ACME0000008).", has=["$3,060.00"],
  lacks=["14", "fourteen"], at="ACME0000009", note="fourteen days is on the notice's second page")
M("other_document", "Acme received the order 27 days late (Pl. Ex. 3 at 1).", has=["April 6, 2021"],
  lacks=["27", "twenty-seven"], at="Pl. Ex. 6 at 1", note="the notice says nearly four weeks")

# A person the record never names.
M("wrong_party", "Kevin Marsh signed the delivery receipt for Acme (BLT-000005).", has=["L. Ortiz"],
  lacks=["Kevin Marsh"], note="L. Ortiz signed")
M("wrong_party", "Brightline's controller, Sandra Reyes, approved Rev. 3 of the procedure (BLT-000009).",
  has=["Raj Patel, Controller"], lacks=["Sandra Reyes"], note="Raj Patel approved it")
S("faithful_paraphrase", "Per Brightline's *Internal Memorandum*, the Line 3 press failed on February 26, 2021 (BLT-000001).",
  "INTERNAL MEMORANDUM", "Line 3 press failed")

# An identifier on another page of the document counts only from its heading.
S("faithful_paraphrase", "Invoice 8812's total due was **$52,850.00** (ACME0000006).", "$52,850.00")
M("wrong_page", "Whitaker's memo named PO 4471 as the largest affected order (BLT-000002).",
  has=["hold any late-delivery credits"], lacks=["4471"], at="BLT-000001", note="PO 4471 is on the memo's first page")

# A date its own claim finds wrong fails the proposition too.
M("wrong_page", "Brightline expected the replacement die by March 24, 2021 (Def. Ex. 1 at 1).", has=["replacement die"],
  lacks=["March 24"], at="Def. Ex. 1 at 2", note="the die date is on the memo's second page")
M("merged_pair", "The invoice is dated April 2, 2021, and the goods arrived on April 6, 2021 (ACME0000005).",
  has=["April 2, 2021"], lacks=["April 6"], at="BLT-000005", note="the arrival is on the delivery receipt")

# A sentence that says the page does not mention what it shows.
M("negation", "Smith's e-mail to Roe never mentions PO 4471 (ACME0000003).", has=["PO 4471"], note="it does, twice")
M("negation", "The bill of lading does not list **Dock 2** as the delivery point (BLT-000004).", has=["Dock 2"],
  note="deliver to Dock 2")

# Words of opposite sense; "rather than"; "no ... until" against "before".
M("negation", "L. Ortiz signed for the shipment as received damaged (BLT-000005).", has=["Received in good condition"],
  note="received in good condition")
M("negation", "Smith said the controller would issue credits before the ship dates were final (Smith Dep. 5:1-2).",
  has=["holding all credits until the ship dates were final"], note="holding all credits until then")
M("negation", "According to Smith, Patel's e-mail recommends waiting for payment of invoice 8812 (Smith Dep. 5:12-14).",
  has=["rather than wait"], note="it recommends not waiting")
M("negation", "Vale agreed that Acme would get its credit before it paid invoice 8812 (DX-7 at 2).",
  has=["no credit goes to Acme until they pay invoice 8812 in full"], note="no credit until payment")
S("faithful_paraphrase", "Vale refused to send Acme any credit before it paid invoice 8812 in full (BLT-000011).",
  "no credit goes to Acme until they pay invoice 8812 in full")
S("faithful_paraphrase", "Patel advised issuing the credit now, rather than waiting for payment of invoice 8812 (BLT-000010).",
  "rather than wait for payment of invoice 8812")
S("faithful_paraphrase", "Smith explained (by phone, to Roe) that the controller was holding all credits until the ship dates were final (Smith Dep. 4:25-5:2).",
  "holding all credits until the")
S("faithful_paraphrase", "The delivery receipt, signed by *L. Ortiz*, records the shipment as received in good condition (BLT-000005).",
  "Received in good condition", "L. Ortiz")
S("faithful_paraphrase", "Acme reserved its right to claim a fourth week of delay (Pl. Ex. 6 at 1-2).", "reserves its right",
  "fourth week")
S("faithful_paraphrase", "Whitaker asked Patel to hold any late-delivery credits until the final ship dates were known (Def. Ex. 1 at 2).",
  "hold any late-delivery credits until we know the final ship dates")

# ---------------------------------------------------------------- checking
def fold(s):
    s = s.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", s).strip().lower()


class Record:
    def __init__(self, path):
        self.db = sqlite3.connect(path)

    def pages(self, cite):
        """The folded texts a cite names (a transcript cite: its lines)."""
        q = self.db.execute
        cite = cite.replace("\u2013", "-").replace("Pl.'s Ex.", "Pl. Ex.")
        cite = re.sub(r", (?:at|p\.) (\d+)$", r" at \1", cite).replace("Dep. at ", "Dep. ")
        m = re.fullmatch(r"([A-Z]+-?)(\d+)(?: - | to )\1(\d+)", cite)
        if m:  # BLT-000003 - BLT-000005, ACME0000005 to ACME0000006
            out = []
            for n in range(int(m.group(2)), int(m.group(3)) + 1):
                t = self.pages("%s%0*d" % (m.group(1), len(m.group(2)), n))
                if t is None:
                    return None
                out += t
            return out
        m = re.fullmatch(r"(.+? Ex\. \d+) at (\d+)-(\d+)", cite)
        if m:  # Pl. Ex. 2 at 1-2
            out = []
            for n in range(int(m.group(2)), int(m.group(3)) + 1):
                t = self.pages("%s at %d" % (m.group(1), n))
                if t is None:
                    return None
                out += t
            return out
        m = re.fullmatch(r"([A-Z]+-?)(\d+)(?:-(\d+))?", cite.replace("ACME-", "ACME"))
        if m:
            pre, num, end = m.group(1), m.group(2), m.group(3)
            lo = int(num)
            hi = lo if end is None else int(num[:len(num) - len(end)] + end)
            rows = q("SELECT text FROM pages WHERE bates_prefix = ? AND bates_num BETWEEN ? AND ?",
                     (pre.rstrip("-"), lo, hi)).fetchall()
            if len(rows) != hi - lo + 1:
                rows = q("SELECT text FROM pages WHERE bates BETWEEN ? AND ?",
                         (pre + num, pre + num[:len(num) - len(end or num)] + (end or num))).fetchall()
            return [fold(r[0]) for r in rows] if len(rows) == hi - lo + 1 else None
        m = re.fullmatch(r"(.+? Dep\.) (\d+):(\d+)(?:-(?:(\d+):)?(\d+))?", cite)
        if m:
            doc = q("SELECT doc_id FROM labels WHERE label = ?", (m.group(1),)).fetchone()
            p0, l0 = int(m.group(2)), int(m.group(3))
            p1 = int(m.group(4) or p0)
            l1 = int(m.group(5) or l0)
            out = []
            for (pg, ln, pid, s, e) in q("SELECT tr_page, line, page_id, start, end FROM transcript_lines "
                                         "WHERE doc_id = ? ORDER BY tr_page, line", (doc[0],)):
                if (pg, ln) >= (p0, l0) and (pg, ln) <= (p1, l1):
                    t = q("SELECT text FROM pages WHERE id = ?", (pid,)).fetchone()[0]
                    out.append(t.encode("utf-8")[s:e].decode("utf-8"))
            return [fold(" ".join(out))] if out else None
        m = re.fullmatch(r"(.+?)(?: at (\d+))?", cite)
        doc = q("SELECT doc_id FROM labels WHERE label = ?", (m.group(1),)).fetchone()
        if not doc:
            return None
        if m.group(2):
            rows = q("SELECT text FROM pages WHERE doc_id = ? AND page_no = ?", (doc[0], int(m.group(2)))).fetchall()
        else:
            rows = q("SELECT text FROM pages WHERE doc_id = ?", (doc[0],)).fetchall()
        return [fold(r[0]) for r in rows] or None


def check(rec):
    bad = []
    for c in CASES:
        texts = []
        for cite in c["cites"]:
            t = rec.pages(cite)
            if t is None:
                bad.append("%s: cite %r names no page of the record" % (c["id"], cite))
            else:
                texts += t
        blob = " | ".join(texts)
        for h in c["has"]:
            if fold(h) not in blob:
                bad.append("%s: %r is not on %s" % (c["id"], h, "; ".join(c["cites"])))
        for l in c["lacks"]:
            if fold(l) in blob:
                bad.append("%s: %r is on %s" % (c["id"], l, "; ".join(c["cites"])))
        if c["at"]:
            # where the fact really is: the moved or merged fact is there
            t = rec.pages(c["at"])
            if t is None:
                bad.append("%s: %r names no page" % (c["id"], c["at"]))
            elif c["kind"] in ("wrong_page", "other_document", "merged_pair"):
                there = " | ".join(t)
                if not any(fold(l) in there for l in c["lacks"]):
                    bad.append("%s: none of %r is on %s" % (c["id"], c["lacks"], c["at"]))
    return bad


def main():
    args = sys.argv[1:]
    out = None
    db = None
    while args:
        a = args.pop(0)
        if a == "--check":
            db = args.pop(0)
        elif a == "-o":
            out = args.pop(0)
        else:
            raise SystemExit(__doc__)
    seen = {}
    for c in CASES:
        n = seen[c["kind"]] = seen.get(c["kind"], 0) + 1
        c["id"] = "%s-%03d" % (c["kind"].replace("_", "-"), n)
    if db:
        bad = check(Record(db))
        for b in bad:
            print("check: " + b, file=sys.stderr)
        if bad:
            return 1
    lines = []
    for c in CASES:
        note = c["note"]
        if c["label"] == "supported" and not note:
            note = "%s says %s" % ("; ".join(c["cites"]), ", ".join(repr(h) for h in c["has"]))
        if c["at"]:
            note = (note + "; " if note else "") + "true source: " + c["at"]
        lines.append(json.dumps({"id": c["id"], "sentence": c["sentence"], "cites": c["cites"],
                                 "label": c["label"], "kind": c["kind"], "note": note},
                                ensure_ascii=False))
    text = "\n".join(lines) + "\n"
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    counts = {}
    for c in CASES:
        counts[(c["label"], c["kind"])] = counts.get((c["label"], c["kind"]), 0) + 1
    for k in sorted(counts):
        print("%-10s %-20s %d" % (k[0], k[1], counts[k]), file=sys.stderr)
    print("total %d" % len(CASES), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
