/*
 * verify_table_test.c - the verifier, table-driven: a small matter (a vendor
 * volume with backslash paths, a hyphenated production, an e-mail, a
 * transcript, a PDF, an Excel-saved labels CSV) and an authority table
 * (cases, codes, opinion texts with star pages) built in a scratch folder;
 * then rows of {draft, claim, expected verdicts, reason substring} read as
 * Markdown (or HTML or text) the way `sworn verify` reads them.  Every row
 * is run and every failing row is printed with its input, expected and
 * actual verdict before the test fails, so one run shows all of them.
 * The rows cover each reason the verifier gives, --lenient, and each item
 * of issue 10.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "authority/authority.h"
#include "cli/cli_draft.h"
#include "markup/markup.h"
#include "verify/verify.h"

#include "record_fixtures.h"

/* Allowed verdicts, as a mask. */
#define SUP (1u << SW_VERDICT_SUPPORTED)
#define UNS (1u << SW_VERDICT_UNSUPPORTED)
#define CON (1u << SW_VERDICT_CONTRADICTED)
#define UNV (1u << SW_VERDICT_UNVERIFIABLE)
#define BLOCKED (UNS | CON | UNV)
#define ABSENT (1u << 8) /* no claim of that kind covering `at` is allowed */
#define NONE ABSENT        /* no claim of that kind may cover `at` */

enum fmt { MD, TEXT, HTML, DOCX }; /* DOCX: *x* marks an italic run */
enum gate { GATE_ANY, PASS, BLOCKS };

enum auth_kind { AUTH_FULL, AUTH_NONE, AUTH_NOCODES };

struct row {
	const char *draft;   /* Markdown unless fmt says otherwise */
	const char *kind;    /* claim kind: case, bates, quote, date, statute, rule, journal;
			      * record (a record citation or a Bates number); * (any) */
	const char *at;      /* a text the claim covers (first occurrence in the plain text) */
	unsigned want;       /* allowed verdicts; NONE: no such claim there */
	const char *reason;  /* a substring of the reason, or NULL */
	enum auth_kind auth;
	bool lenient;
	enum gate gate;      /* what the gate decides; not checked unless set */
	enum fmt fmt;        /* MD unless set */
};

/* Unset fields are 0: Markdown, the full authority table, strict, the
 * gate not checked. */
#define R(...) { __VA_ARGS__ }

static const struct row rows[] = {
	/* --- case citations: every reason of rules_case.c ------------------------ */
	R(.draft = "*Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = SUP, .reason = "Celotex Corp. v. Catrett"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 341 (1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = CON, .reason = "past the last page (338)"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 300 (1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = CON, .reason = "comes before"),
	R(.draft = "*Martinez v. Delta Freight Sys., Inc.*, 812 F.3d 455, 461 (7th Cir. 2016).",
	  .kind = "case", .at = "812 F.3d 455", .want = UNS, .reason = "no case at 812 F.3d 455"),
	R(.draft = "*Varghese v. China Southern Airlines Co.*, 925 F.3d 1339, 1345 (11th Cir. 2019).",
	  .kind = "case", .at = "925 F.3d 1339", .want = CON, .reason = "falls inside J.D. v. Azar"),
	R(.draft = "Hollis v. Coastal Carriers, Inc., 550 U.S. 544, 560 (2007).", .kind = "case",
	  .at = "550 U.S. 544", .want = CON, .reason = "Bell Atlantic Corp. v. Twombly"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (2d Cir. 1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = CON, .reason = "not 2d Cir."),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1987).", .kind = "case",
	  .at = "477 U.S. 317", .want = CON, .reason = "decided in 1986, not 1987"),
	R(.draft = "Doe v. Roe, 101 F.4th 7, 9 (2d Cir. 2024).", .kind = "case", .at = "101 F.4th 7",
	  .want = UNV, .reason = "not its case name"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = UNV, .reason = "no authority table", .auth = AUTH_NONE),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = UNV, .auth = AUTH_NONE, .lenient = true, .gate = PASS),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = UNV, .auth = AUTH_NONE, .gate = BLOCKS),
	/* short forms */
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986). *Id.* at 323.",
	  .kind = "case", .at = "Id.", .want = SUP, .reason = "refers to"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986). *Id.* at 999.",
	  .kind = "case", .at = "Id.", .want = CON, .reason = "999"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986). _Celotex_, 477 U.S. at 345.",
	  .kind = "case", .at = "477 U.S. at 345", .want = CON, .reason = "345"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986). *Celotex*, 477 U.S. at 323.",
	  .kind = "case", .at = "477 U.S. at 323", .want = SUP, .reason = "refers to"),
	R(.draft = "Martinez v. Delta Freight, 812 F.3d 455 (7th Cir. 2016). *Id.* at 460.",
	  .kind = "case", .at = "Id.", .want = UNS, .reason = "which is unsupported"),
	R(.draft = "The rule is old. *Id.* at 5.", .kind = "case", .at = "Id.", .want = BLOCKED),
	R(.draft = "Bell Atl. Corp. v. Twombly, 550 U.S. 544 (2007). *Hollis*, 550 U.S. at 560.",
	  .kind = "case", .at = "550 U.S. at 560", .want = CON, .reason = "names Hollis"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 318 (1986).", .kind = "case",
	  .at = "477 U.S. 318", .want = CON, .reason = "falls inside Celotex"),
	/* issue 10.1: italics, underscores and HTML emphasis keep the whole name */
	R(.draft = "*Hollis v. Coastal Carriers, Inc.*, 550 U.S. 544, 560 (2007).", .kind = "case",
	  .at = "550 U.S. 544", .want = CON, .reason = "Hollis v. Coastal Carriers"),
	R(.draft = "_Hollis v. Coastal Carriers, Inc._, 550 U.S. 544, 560 (2007).", .kind = "case",
	  .at = "550 U.S. 544", .want = CON, .reason = "Bell Atlantic Corp. v. Twombly"),
	R(.draft = "_See_ *Bell Atl. Corp. v. Twombly*, 550 U.S. 544, 556 (2007).", .kind = "case",
	  .at = "550 U.S. 544", .want = SUP),
	R(.draft = "**Anderson v. Liberty Lobby, Inc.**, 477 U.S. 242, 248 (1986).", .kind = "case",
	  .at = "477 U.S. 242", .want = SUP),
	R(.draft = "<p><em>Hollis v. Coastal Carriers, Inc.</em>, 550 U.S. 544, 560 (2007).</p>",
	  .kind = "case", .at = "550 U.S. 544", .want = CON, .reason = "Twombly",
	  .fmt = HTML),
	R(.draft = "<p><i>Celotex Corp. v. Catrett</i>, 477 U.S. 317, 322 (1986).</p>", .kind = "case",
	  .at = "477 U.S. 317", .want = SUP, .fmt = HTML),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", .kind = "case",
	  .at = "477 U.S. 317", .want = SUP, .fmt = TEXT),
	R(.draft = "*Hollis v. Coastal Carriers, Inc.*, 550 U.S. 544, 560 (2007).", .kind = "case",
	  .at = "550 U.S. 544", .want = CON, .reason = "Hollis v. Coastal Carriers", .fmt = DOCX),
	R(.draft = "*Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986). *Id.* at 999.",
	  .kind = "case", .at = "Id.", .want = CON, .reason = "999", .fmt = DOCX),
	R(.draft = "<p>It must be shown &ldquo;sufficient to establish the existence of an element "
		   "essential to that party&#39;s case.&rdquo; <em>Celotex Corp. v. Catrett</em>, "
		   "477 U.S. 317, 322 (1986).</p>",
	  .kind = "quote", .at = "sufficient to establish", .want = SUP, .fmt = HTML),
	/* issue 10.2: a cite with no readable name is never supported */
	R(.draft = "The standard is settled. 550 U.S. 544, 556 (2007).", .kind = "case",
	  .at = "550 U.S. 544", .want = UNV | CON, .reason = "Twombly"),
	/* issue 10.5: a reporter is no exhibit */
	R(.draft = "*Hadley v. Baxendale*, 9 Ex. 341 (1854).", .kind = "case", .at = "9 Ex. 341",
	  .want = SUP, .reason = "Hadley"),
	R(.draft = "*Hadley v. Baxendale*, 9 Ex. 341 (1854).", .kind = "record", .at = "Ex. 341",
	  .want = NONE),
	R(.draft = "*Hadley v. Baxendale*, 9 Ex. 314 (1854).", .kind = "case", .at = "9 Ex. 314",
	  .want = UNS, .reason = "no case at"),
	/* issue 10.13: quotations from opinions, on the star page of their pin */
	R(.draft = "Only \"disputes over facts that might affect the outcome of the suit\" matter. "
		   "*Anderson v. Liberty Lobby, Inc.*, 477 U.S. 242, 248 (1986).",
	  .kind = "quote", .at = "disputes over facts", .want = SUP, .reason = "opinion"),
	R(.draft = "Only \"disputes over facts that might affect the outcome of the suit\" matter. "
		   "*Anderson v. Liberty Lobby, Inc.*, 477 U.S. 242, 252 (1986).",
	  .kind = "quote", .at = "disputes over facts", .want = UNS | CON, .reason = "248"),
	R(.draft = "A \"mere scintilla of evidence\" is not enough. "
		   "*Anderson v. Liberty Lobby, Inc.*, 477 U.S. 242, 252 (1986).",
	  .kind = "quote", .at = "mere scintilla", .want = UNS | CON,
	  .reason = "not found in the opinion"),
	R(.draft = "Summary judgment is \"mandated\" by \"the plain language of Rule 56(c).\" "
		   "*Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986).",
	  .kind = "quote", .at = "the plain language", .want = SUP),
	R(.draft = "It must \"isolate and dispose of factually unsupported claims.\" "
		   "*Bell Atl. Corp. v. Twombly*, 550 U.S. 544, 556 (2007).",
	  .kind = "quote", .at = "isolate and dispose", .want = UNV,
	  .reason = "no opinion text of"),
	R(.draft = "Courts \"enforce delivery credits as written.\" "
		   "*Martinez v. Delta Freight*, 812 F.3d 455, 461 (7th Cir. 2016).",
	  .kind = "quote", .at = "enforce delivery", .want = UNS | UNV, .reason = "attributed to"),
	/* --- statutes and rules ------------------------------------------------ */
	R(.draft = "Jurisdiction rests on 28 U.S.C. § 1332(a)(1).", .kind = "statute",
	  .at = "28 U.S.C.", .want = SUP, .reason = "in the code table"),
	R(.draft = "Venue lies under 28 U.S.C. § 1391(b).", .kind = "statute", .at = "28 U.S.C.",
	  .want = UNV, .reason = "not in the imported code table"),
	R(.draft = "Venue lies under 28 U.S.C. § 1391(b).", .kind = "statute", .at = "28 U.S.C.",
	  .want = UNV, .lenient = true, .gate = PASS),
	R(.draft = "See Fed. R. Civ. P. 56(a).", .kind = "rule", .at = "Fed. R. Civ. P.", .want = SUP),
	R(.draft = "See Fed. R. Civ. P. 56(a).", .kind = "rule", .at = "Fed. R. Civ. P.", .want = UNV,
	  .reason = "not in the imported code table", .auth = AUTH_NOCODES),
	R(.draft = "See Fed. R. Civ. P. 56(a).", .kind = "rule", .at = "Fed. R. Civ. P.", .want = UNV,
	  .reason = "no authority table", .auth = AUTH_NONE),
	R(.draft = "See Note, *Delivery Credits*, 12 Harv. L. Rev. 45 (1999).", .kind = "journal",
	  .at = "Harv. L. Rev.", .want = UNV, .reason = "journal articles"),
	/* --- Bates numbers: issue 10.7, 10.8, 10.9 ---------------------------- */
	R(.draft = "Smith wrote to Roe. (ACME0000003.)", .kind = "bates", .at = "ACME0000003",
	  .want = SUP, .reason = "is in the production"),
	R(.draft = "The term is three years. (ACME0000002.)", .kind = "bates", .at = "ACME0000002",
	  .want = SUP),
	R(.draft = "Brightline approved it. (ACME0000012.)", .kind = "bates", .at = "ACME0000012",
	  .want = UNS, .reason = "ACME0000012 is not in the production"),
	R(.draft = "Brightline approved it. (ACME0000012.)", .kind = "bates", .at = "ACME0000012",
	  .want = UNS, .lenient = true, .gate = BLOCKS),
	R(.draft = "The invoice is clear. (ACME0000007.)", .kind = "bates", .at = "ACME0000007",
	  .want = SUP),
	/* a number in a gap of the series: the reason must not name a range holding it */
	R(.draft = "The plan is clear. (ACME0000005.)", .kind = "bates", .at = "ACME0000005",
	  .want = UNS, .reason = "skips"),
	R(.draft = "See ACME0000009-ACME0000003.", .kind = "bates", .at = "ACME0000009",
	  .want = UNS | UNV),
	R(.draft = "See ACME0000003-ACME0000009.", .kind = "bates", .at = "ACME0000003",
	  .want = UNS, .reason = "are not in the production"),
	R(.draft = "See ACME0000008-ACME0000009.", .kind = "bates", .at = "ACME0000008",
	  .want = UNS, .reason = "none of the"),
	R(.draft = "The memo is clear. (BLT-000001.)", .kind = "bates", .at = "BLT-000001",
	  .want = SUP),
	R(.draft = "The memo is clear. (BLT000002.)", .kind = "bates", .at = "BLT000002", .want = SUP),
	R(.draft = "The memo is clear. (BLT 000002.)", .kind = "bates", .at = "BLT 000002",
	  .want = SUP),
	R(.draft = "The memo is clear. (BLT_000002.)", .kind = "bates", .at = "BLT_000002",
	  .want = SUP),
	R(.draft = "The log is complete. (BLT-000006\xe2\x80\x93" "BLT-000009.)", .kind = "bates",
	  .at = "BLT-000006", .want = SUP),
	R(.draft = "The log is complete. (BLT-000007-000012.)", .kind = "bates", .at = "BLT-000007",
	  .want = SUP),
	R(.draft = "The log is complete. (BLT-000009.)", .kind = "bates", .at = "BLT-000009",
	  .want = SUP),
	R(.draft = "The log is complete. (BLT-000013.)", .kind = "bates", .at = "BLT-000013",
	  .want = UNS, .reason = "BLT-000012"),
	R(.draft = "The log is complete. (BLT-000010\xe2\x80\x93" "BLT-000014.)", .kind = "bates",
	  .at = "BLT-000010", .want = UNS, .reason = "not in the production"),
	R(.draft = "The card confirms it. (GTX 1080.)", .kind = "bates", .at = "GTX 1080",
	  .want = UNS, .reason = "prefix"),
	R(.draft = "The memo is clear. (BRT-000001.)", .kind = "bates", .at = "BRT-000001",
	  .want = UNS, .reason = "prefix BRT"),
	R(.draft = "Acme billed the credit on Invoice INV-10236. (Pl. Ex. 5.)", .kind = "bates",
	  .at = "INV-10236", .want = NONE),
	R(.draft = "The credit was billed. (INV-10236.)", .kind = "bates", .at = "INV-10236",
	  .want = UNS, .reason = "prefix INV"),
	R(.draft = "Acme issued PO 4471 under NCR-2021-0147. (ACME0000001.)", .kind = "bates",
	  .at = "NCR-2021-0147", .want = NONE),
	R(.draft = "Acme issued PO 4471 under NCR-2021-0147. (ACME0000001.)", .kind = "bates",
	  .at = "PO 4471", .want = NONE),
	/* a load-file path that escapes the volume, or a link out of it, imports nothing */
	R(.draft = "The plan says \"the vault combination is 1234\".", .kind = "quote",
	  .at = "vault combination", .want = UNV, .reason = "not in the evidence"),
	R(.draft = "The plan says \"the launch codes are 0000\".", .kind = "quote",
	  .at = "launch codes", .want = UNV, .reason = "not in the evidence"),
	/* --- record citations, labels: issue 10.3, 10.12 ---------------------- */
	R(.draft = "Acme and Brightline signed the Agreement. (Pl. Ex. 1 at 1.)", .kind = "record",
	  .at = "Pl. Ex. 1", .want = SUP),
	R(.draft = "The term is three years. (Pl. Ex. 1 at 2.)", .kind = "record", .at = "Pl. Ex. 1",
	  .want = SUP),
	R(.draft = "See Pl. Ex. 1 at 7.", .kind = "record", .at = "Pl. Ex. 1", .want = UNS,
	  .reason = "not a page 7"),
	R(.draft = "See Pl. Ex. 9.", .kind = "record", .at = "Pl. Ex. 9", .want = UNS,
	  .reason = "no document of the record is labelled"),
	R(.draft = "See DX-7 at 1.", .kind = "record", .at = "DX-7", .want = SUP),
	R(.draft = "See DX 7 at 2.", .kind = "record", .at = "DX 7", .want = SUP),
	R(.draft = "The procedure is plain. (Def. Ex. 3 at 1.)", .kind = "record", .at = "Def. Ex. 3",
	  .want = SUP),
	R(.draft = "Smith said \"We will not make the March 10 date.\" (Def. Ex. 3 at 1.)",
	  .kind = "quote", .at = "We will not make", .want = UNS),
	R(.draft = "Smith said \"We will not make the March 10 date.\" (Pl. Ex. 3.)", .kind = "quote",
	  .at = "We will not make", .want = SUP),
	R(.draft = "See Def. Ex. 5.", .kind = "record", .at = "Def. Ex. 5", .want = UNS,
	  .reason = "labelled"),
	R(.draft = "Smith said so. (Ex. 3.)", .kind = "record", .at = "Ex. 3", .want = BLOCKED),
	R(.draft = "Smith said \"We will not make the March 10 date.\" (ACME0000003.) "
		   "He added \"The earliest we can ship is March 31, 2021.\" (*Id.*)",
	  .kind = "quote", .at = "The earliest", .want = SUP),
	R(.draft = "Smith said \"We will not make the March 10 date.\" (ACME0000003.) He "
		   "repeated it. (Id.)",
	  .kind = "record", .at = "Id.", .want = SUP),
	R(.draft = "The term is three years. (Pl. Ex. 1 at 1.) It renews \"for one-year "
		   "terms.\" (*Id.* at 2.)",
	  .kind = "quote", .at = "for one-year", .want = SUP),
	R(.draft = "The term is three years. (Pl. Ex. 1 at 1.) It renews. (*Id.* at 4.)",
	  .kind = "record", .at = "Id.", .want = UNS),
	R(.draft = "It renews. (*Id.* at 4.)", .kind = "*", .at = "Id.", .want = BLOCKED),
	R(.draft = "See Pl. Ex. 9. It renews. (*Id.* at 4.)", .kind = "record", .at = "Id.",
	  .want = UNS, .reason = "Pl. Ex. 9"),
	/* transcripts: issue 10.11 */
	R(.draft = "Smith conceded it. (Smith Dep. 1:11-12.)", .kind = "record", .at = "Smith Dep.",
	  .want = SUP),
	R(.draft = "Smith conceded it. (Smith Dep. 9:1-2.)", .kind = "record", .at = "Smith Dep.",
	  .want = UNS, .reason = "has no page 9"),
	R(.draft = "Smith conceded it. (Smith Dep. 1:26.)", .kind = "record", .at = "Smith Dep.",
	  .want = UNS, .reason = "line"),
	R(.draft = "Smith conceded it. (Smith Dep. 2:5-3.)", .kind = "record", .at = "Smith Dep.",
	  .want = UNS),
	R(.draft = "Smith conceded it. (Smith Dep. 1:25-2:2.)", .kind = "record", .at = "Smith Dep.",
	  .want = SUP),
	R(.draft = "He said \"the carrier had it for most of a week.\" (Smith Dep. 1:12-13.)",
	  .kind = "quote", .at = "the carrier had", .want = SUP, .reason = "Smith Dep. 1:"),
	R(.draft = "He said \"the carrier lost it for a week.\" (Smith Dep. 1:12-13.)",
	  .kind = "quote", .at = "the carrier lost", .want = UNS, .reason = "not found verbatim"),
	R(.draft = "He said \"I never saw it myself.\" (Smith Dep. 1:24-2:1.)", .kind = "quote",
	  .at = "I never saw", .want = SUP),
	R(.draft = "He said \"Not on invoice 8812, no.\" (Smith Dep. 1:3-4.)", .kind = "quote",
	  .at = "Not on invoice", .want = SUP, .reason = "Smith Dep. 1:4"),
	R(.draft = "He said \"Not on invoice 8812, no.\" (Smith Dep. 1:5-6.)", .kind = "quote",
	  .at = "Not on invoice", .want = UNS),
	R(.draft = "He said \"Not as of today.\" (Smith Dep. 1:30.)", .kind = "quote",
	  .at = "Not as of today", .want = BLOCKED),
	/* --- quotations: rules_quote.c, issue 10.4, 10.14 --------------------- */
	R(.draft = "Smith wrote that \"[t]he earliest we can ship is March 31, 2021.\" (ACME0000003.)",
	  .kind = "quote", .at = "earliest we can", .want = SUP, .reason = "on ACME0000003"),
	R(.draft = "Smith wrote that \"[t]he earliest we could ship is March 31, 2021.\" "
		   "(ACME0000003.)",
	  .kind = "quote", .at = "earliest we could", .want = UNS, .reason = "could"),
	R(.draft = "The invoice says \"\". (ACME0000003.)", .kind = "quote", .at = "\"\"",
	  .want = UNV | ABSENT,
	  .reason = "an empty quotation"),
	R(.draft = "Smith wrote \"we guarantee delivery by March 5.\"", .kind = "quote",
	  .at = "we guarantee", .want = UNV, .reason = "no citation says where"),
	R(.draft = "Smith wrote \"we guarantee delivery by March 5.\"", .kind = "quote",
	  .at = "we guarantee", .want = UNV, .lenient = true, .gate = PASS),
	R(.draft = "Smith wrote \"We will not make the March 10 date.\"", .kind = "quote",
	  .at = "We will not", .want = SUP | UNV, .reason = "no citation says where"),
	R(.draft = "Smith wrote \"We will not make the March 10 date.\" The Agreement is at "
		   "ACME0000001.",
	  .kind = "quote", .at = "We will not", .want = SUP | UNV, .reason = "citation says where"),
	R(.draft = "Smith wrote \"We will not make the March 10 date.\" See ACME0000003.",
	  .kind = "quote", .at = "We will not", .want = SUP),
	R(.draft = "Smith wrote \"We will not make the March 10 date\" (ACME0000003), and the "
		   "Agreement says \"Delaware law governs this Agreement.\" (ACME0000002.)",
	  .kind = "quote", .at = "Delaware law", .want = SUP),
	R(.draft = "> We will not make the March 10 date for PO 4471. The earliest we can ship\n"
		   "> is March 31, 2021.\n\n(ACME0000003.)",
	  .kind = "quote", .at = "We will not", .want = SUP),
	R(.draft = "> \u201cWe will not make the March 10 date for PO 4471.\u201d (ACME0000003.)\n",
	  .kind = "quote", .at = "We will not", .want = SUP),
	R(.draft = "> Q.  Did Brightline apply a late-delivery credit?\n"
		   "> A.  Not on invoice 8812, no.\n\n(Smith Dep. 1:3-4.)\n",
	  .kind = "quote", .at = "Did Brightline", .want = SUP),
	R(.draft = "<p>He wrote &ldquo;We will not make the March 10 date.&rdquo; (ACME0000003.)</p>",
	  .kind = "quote", .at = "We will not", .want = SUP, .fmt = HTML),
	R(.draft = "The memo is clear. (BLT\u2011000001.)", .kind = "bates", .at = "000001",
	  .want = SUP),
	R(.draft = "Acme \"received the order on April 6, 2021, twenty-seven days late.\" "
		   "(Pl. Ex. 6 at 1.)",
	  .kind = "quote", .at = "received the order", .want = SUP),
	R(.draft = "Acme \"reserves its right to claim a fourth week.\" (Pl. Ex. 6 at 1-2.)",
	  .kind = "quote", .at = "reserves its right", .want = SUP),
	R(.draft = "The procedure says \"No credit may be withheld because the customer has an open "
		   "balance on another invoice.\" (BLT-000004\xe2\x80\x93" "BLT-000005.)",
	  .kind = "quote", .at = "No credit may", .want = SUP),
	R(.draft = "The procedure says \"No credit may be withheld because the customer has an open "
		   "balance on another invoice.\" (BLT-000004.)",
	  .kind = "quote", .at = "No credit may", .want = SUP | UNS),
	R(.draft = "The model's note says \"a refund on June 9, 2022 in writing.\"", .kind = "quote",
	  .at = "a refund", .want = UNV, .reason = "not in the evidence"),
	/* --- dates: rules_date.c, issue 10.6, 10.10 ---------------------------- */
	R(.draft = "On March 3, 2021, Smith wrote to Roe. (ACME0000003.)", .kind = "date",
	  .at = "March 3, 2021", .want = SUP, .reason = "on the cited page"),
	R(.draft = "On March 4, 2021, Smith wrote to Roe. (ACME0000003.)", .kind = "date",
	  .at = "March 4, 2021", .want = UNS | CON, .reason = "not on the cited page"),
	R(.draft = "The Agreement is dated January 15, 2021. (ACME0000002.)", .kind = "date",
	  .at = "January 15, 2021", .want = UNS | CON, .reason = "ACME0000002"),
	R(.draft = "Brightline shipped the order on April 7, 2021. (ACME0000004.)", .kind = "date",
	  .at = "April 7, 2021", .want = CON, .reason = "2021-03-31"),
	R(.draft = "The order shipped on March 31, 2021.", .kind = "date", .at = "March 31, 2021",
	  .want = SUP | UNV, .reason = "not tied to this sentence"),
	R(.draft = "Brightline promised a refund on June 9, 2022.", .kind = "date",
	  .at = "June 9, 2022", .want = UNS, .reason = "appears nowhere in the evidence"),
	R(.draft = "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986), was decided in 1986.",
	  .kind = "date", .at = "in 1986", .want = SUP | NONE),
	R(.draft = "Brightline shipped on March 31, 2021. (Pl. Ex. 9.)", .kind = "date",
	  .at = "March 31, 2021", .want = BLOCKED, .reason = "does not resolve"),
	R(.draft = "Smith wrote on 2021-02-30. (ACME0000003.)", .kind = "date", .at = "2021-02-30",
	  .want = UNV | UNS | NONE),
	R(.draft = "Invoice INV-10236 went out on March 3, 2021. (Pl. Ex. 5.)", .kind = "date",
	  .at = "March 3, 2021", .want = SUP),
	R(.draft = "Roe wrote on March 3, 2021. (Pl. Ex. 5.)", .kind = "date", .at = "March 3, 2021",
	  .want = SUP),
	R(.draft = "Roe wrote on Mar. 3, 2021. (Pl. Ex. 5.)", .kind = "date", .at = "Mar. 3, 2021",
	  .want = SUP),
	R(.draft = "Roe wrote on 3 March 2021. (Pl. Ex. 5.)", .kind = "date", .at = "3 March 2021",
	  .want = SUP),
	R(.draft = "Roe wrote on 03/03/2021. (Pl. Ex. 5.)", .kind = "date", .at = "03/03/2021",
	  .want = SUP),
	R(.draft = "Roe wrote on 3/3/21. (Pl. Ex. 5.)", .kind = "date", .at = "3/3/21", .want = SUP),
	R(.draft = "Roe wrote on 2021-03-03. (Pl. Ex. 5.)", .kind = "date", .at = "2021-03-03",
	  .want = SUP),
	R(.draft = "Roe wrote in March 2021. (Pl. Ex. 5.)", .kind = "date", .at = "March 2021",
	  .want = SUP),
	R(.draft = "Roe wrote on March 4, 2021. (Pl. Ex. 5.)", .kind = "date", .at = "March 4, 2021",
	  .want = UNS | CON),
	R(.draft = "Smith testified on March 2, 2022. (Smith Dep. 1:1.)", .kind = "date",
	  .at = "March 2, 2022", .want = UNS | CON),
	R(.draft = "Smith said it shipped on March 31, 2021. (Smith Dep. 1:9-10.)", .kind = "date",
	  .at = "March 31, 2021", .want = SUP),
	R(.draft = "The order shipped on March 31, 2021. (ACME0000004.)", .kind = "date",
	  .at = "March 31, 2021", .want = SUP),
	/* --- the gate ---------------------------------------------------------- */
	R(.draft = "# Facts\n\n1. Smith wrote on *March 3, 2021*. (ACME0000003.)\n"
		   "2. The Agreement governs. (**Pl. Ex. 1** at 1.)[^1]\n\n"
		   "[^1]: _See_ *Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986).\n",
	  .kind = "case", .at = "477 U.S. 317", .want = SUP, .gate = PASS),
	R(.draft = "| Fact | Cite |\n|---|---|\n| Smith wrote to Roe | ACME0000003 |\n"
		   "| Brightline approved | ACME0000012 |\n",
	  .kind = "bates", .at = "ACME0000012", .want = UNS, .gate = BLOCKS),
	R(.draft = "| Fact | Cite |\n|---|---|\n| Smith wrote to Roe | ACME0000003 |\n",
	  .kind = "bates", .at = "ACME0000003", .want = SUP, .gate = PASS),
};

/* --- the matter ----------------------------------------------------------------- */

static struct fx_ws ws;
static struct sw_authority *auth_full, *auth_codeless;

static void mkdirs(const char *rel)
{
	char *cmd = sw_xasprintf("mkdir -p '%s/%s'", ws.dir, rel);
	if (system(cmd) != 0)
		abort();
	free(cmd);
}

static void put(const char *rel, const char *data)
{
	char *p = fx_path(&ws, rel);
	fx_write(p, data);
	free(p);
}

#define THORN "\xc3\xbe"
#define DC4 "\x14"
#define F(x) THORN x THORN
#define STAMP "CONFIDENTIAL                                   "

static void transcript(const char *rel)
{
	static const char *const p1[25] = {
		"Q.  Did you write to Jane Roe about PO 4471?", "A.  Yes, on March 3, 2021.",
		"Q.  Did Brightline apply a late-delivery credit?", "A.  Not on invoice 8812, no.",
		"Q.  Why?", "A.  Billing was not told about the delay.",
		"Q.  What did you tell her?", "A.  That we would miss the March 10 date.",
		"Q.  When did the order ship?", "A.  March 31, 2021.",
		"Q.  Was that within thirty days of the purchase order?",
		"A.  No, it was not. I believe Acme got it April 6; the carrier had it for",
		"    most of a week.", "Q.  Who decides on credits?", "A.  Our controller.",
		"Q.  Did operations report the delay?", "A.  I do not recall doing so.",
		"Q.  Did anyone else?", "A.  I cannot say.", "Q.  Look at Exhibit 2.",
		"A.  That is invoice 8812.", "Q.  Does it show a credit?", "A.  No.",
		"Q.  Who sent the memo?", "A.  Dana Whitaker sent it. I never saw it" };
	static const char *const p2[25] = {
		"    myself.", "Q.  Anything else?", "A.  No.", "(Recess taken.)" };
	struct sw_buf b = SW_BUF_INIT;
	const char *const *pages[2] = { p1, p2 };
	for (int p = 0; p < 2; p++) {
		sw_buf_addf(&b, "%s%60s\n", p ? "\f" : "", p ? "Page 2" : "Page 1");
		for (int l = 0; l < 25; l++)
			sw_buf_addf(&b, "%2d   %s\n", l + 1, pages[p][l] ? pages[p][l] : "");
		sw_buf_adds(&b, "\n              Lakeside Court Reporting, LLC\n");
	}
	put(rel, b.data);
	sw_buf_release(&b);
}

static void build_matter(void)
{
	mkdirs("m/VOL001/DATA");
	mkdirs("m/VOL001/TEXT/TEXT001");
	mkdirs("m/BLT001/DATA");
	mkdirs("m/BLT001/TEXT/TEXT001");
	mkdirs("m/mail");
	mkdirs("m/pdf");
	put("secret.txt", "the launch codes are 0000\n");
	put("m/VOL001/DATA/VOL001.DAT",
	    "\xef\xbb\xbf" F("BEGBATES") DC4 F("ENDBATES") DC4 F("BEGATTACH") DC4 F("ENDATTACH") DC4
	    F("CUSTODIAN") DC4 F("DATESENT") DC4 F("TEXTPATH") "\r\n"
	    F("ACME0000001") DC4 F("ACME0000002") DC4 F("ACME0000001") DC4 F("ACME0000002") DC4
	    F("Roe, Jane") DC4 F("01/15/2021") DC4 F("TEXT\\TEXT001\\ACME0000001.txt") "\r\n"
	    F("ACME0000003") DC4 F("ACME0000003") DC4 F("ACME0000003") DC4 F("ACME0000004") DC4
	    F("Roe, Jane") DC4 F("03/03/2021") DC4 F("TEXT\\TEXT001\\ACME0000003.txt") "\r\n"
	    F("ACME0000004") DC4 F("ACME0000004") DC4 F("ACME0000003") DC4 F("ACME0000004") DC4
	    F("Roe, Jane") DC4 F("") DC4 F("TEXT\\TEXT001\\ACME0000004.txt") "\r\n"
	    F("ACME0000005") DC4 F("ACME0000005") DC4 F("") DC4 F("") DC4
	    F("Roe, Jane") DC4 F("") DC4 F("..\\..\\..\\secret.txt") "\r\n"
	    F("ACME0000006") DC4 F("ACME0000006") DC4 F("") DC4 F("") DC4
	    F("Roe, Jane") DC4 F("") DC4 F("TEXT\\TEXT001\\ACME0000006.txt") "\r\n"
	    F("ACME0000007") DC4 F("ACME0000007") DC4 F("") DC4 F("") DC4
	    F("Billing") DC4 F("04/02/2021") DC4 F("TEXT\\TEXT001\\ACME0000007.txt") "\r\n");
	put("m/VOL001/TEXT/TEXT001/ACME0000001.txt",
	    "MASTER SUPPLY AGREEMENT\r\n\r\nThis Agreement is made on January 15, 2021.\r\n\r\n"
	    "1. Delivery within thirty (30) days of a written purchase order.\r\n\r\n"
	    STAMP "ACME0000001\r\n\f"
	    "3. Term. Three years; it renews for one-year terms.\r\n"
	    "4. Delaware law governs this Agreement.\r\n\r\n" STAMP "ACME0000002\r\n");
	put("m/VOL001/TEXT/TEXT001/ACME0000003.txt",
	    "From: Tom Smith\r\nTo: Jane Roe\r\nSent: Wednesday, March 3, 2021 9:14 AM\r\n\r\n"
	    "We will not make the March 10 date for PO 4471. The earliest we can ship is\r\n"
	    "March 31, 2021.\r\n\r\n" STAMP "ACME0000003\r\n");
	/* a text file that is a link out of the volume: never followed */
	put("secret2.txt", "the vault combination is 1234\n");
	char *target = fx_path(&ws, "secret2.txt");
	char *link = fx_path(&ws, "m/VOL001/TEXT/TEXT001/ACME0000006.txt");
	if (symlink(target, link) != 0)
		abort();
	free(target);
	free(link);
	put("m/VOL001/TEXT/TEXT001/ACME0000007.txt",
	    "INVOICE 8812\r\nLate delivery credit applied: none\r\n\r\n" STAMP "ACME0000007\r\n");
	put("m/VOL001/TEXT/TEXT001/ACME0000004.txt",
	    "REVISED SCHEDULE\r\nRevised ship date: March 31, 2021\r\n\r\n" STAMP "ACME0000004\r\n");
	/* the other side's production: hyphenated Bates numbers, Windows-1252 */
	struct sw_buf dat = SW_BUF_INIT;
	sw_buf_adds(&dat, "\xfe" "BEGBATES\xfe\x14\xfe" "ENDBATES\xfe\x14\xfe" "TEXTPATH\xfe\r\n");
	static const char *const blt[][3] = { { "BLT-000001", "BLT-000002", "BLT-000001" },
					      { "BLT-000003", "BLT-000005", "BLT-000003" },
					      { "BLT-000006", "BLT-000012", "BLT-000006" } };
	for (size_t k = 0; k < 3; k++)
		sw_buf_addf(&dat, "\xfe%s\xfe\x14\xfe%s\xfe\x14\xfeTEXT\\TEXT001\\%s.txt\xfe\r\n",
			    blt[k][0], blt[k][1], blt[k][2]);
	put("m/BLT001/DATA/BLT001.DAT", dat.data);
	sw_buf_release(&dat);
	put("m/BLT001/TEXT/TEXT001/BLT-000001.txt",
	    "Line 3 outage memo, March 2, 2021\n\n" STAMP "BLT-000001\n\f"
	    "Please hold any late-delivery credits.\n\n" STAMP "BLT-000002\n");
	put("m/BLT001/TEXT/TEXT001/BLT-000003.txt",
	    "CUSTOMER CREDIT PROCEDURE\n\n" STAMP "BLT-000003\n\f"
	    "3. Approval within ten business days. No credit may be withheld because the\n"
	    "customer has\n\n" STAMP "BLT-000004\n\f"
	    "an open balance on another invoice.\n\n" STAMP "BLT-000005\n");
	struct sw_buf log = SW_BUF_INIT;
	for (int p = 6; p <= 12; p++)
		sw_buf_addf(&log, "%sCredit log, page %d\n\n" STAMP "BLT-%06d\n", p > 6 ? "\f" : "",
			    p - 5, p);
	put("m/BLT001/TEXT/TEXT001/BLT-000006.txt", log.data);
	sw_buf_release(&log);
	put("m/mail/roe.eml",
	    "From: Jane Roe <jroe@acme.example>\r\nTo: Peter Vale <pvale@brightline.example>\r\n"
	    "Date: Wed, 03 Mar 2021 16:02:11 -0500\r\nSubject: PO 4471\r\n"
	    "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
	    "Peter, Smith said \"We will not make the March 10 date.\" We expect the credit.\r\n\r\n"
	    "> On Tue, Mar 2, 2021, Peter Vale wrote:\r\n> We are looking into it.\r\n\r\n"
	    "Jane Roe | General Counsel\r\nInvoice INV-10236\r\n");
	static const char *const calc[] = {
		"CREDIT CALCULATION\nThe delivery date was March 10, 2021. Acme re-\n"
		"ceived the order on April 6, 2021, twenty-seven days\nlate. Acme reserves its "
		"right to\n",
		"claim a fourth week.\nThree weeks at two percent.\n" };
	char *pdf = fx_path(&ws, "m/pdf/calc.pdf");
	fx_pdf(pdf, calc, 2, "Credit calculation");
	free(pdf);
	transcript("m/smith-dep.txt");
	put("labels.csv", "\xef\xbb\xbfLabel,Target\r\nPl. Ex. 1,ACME0000001\r\n"
			  "Pl. Ex. 3,ACME0000003\r\nPl. Ex. 5,roe.eml\r\nPl. Ex. 6,calc.pdf\r\n"
			  "Def. Ex. 3,BLT-000003\r\nDX-7,BLT-000001\r\nSmith Dep.,smith-dep.txt\r\n");
	/* what a model wrote: never evidence */
	put("note.txt", "Brightline promised a refund on June 9, 2022 in writing.\n");

	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	struct sw_ingest_summary sum;
	char *root = fx_path(&ws, "m"), *labels = fx_path(&ws, "labels.csv");
	char *note = fx_path(&ws, "note.txt");
	const char *paths[] = { root };
	struct sw_ingest_opts o = { .origin = SW_ORIGIN_EVIDENCE, .report = fx_report,
				    .user = &ws, .no_ocr = true, .labels_path = labels };
	if (sw_matter_open(&m, &ws.ws, "a", &err) != 0)
		abort();
	/* Failures (the escaping row) are reported, not fatal. */
	if (sw_ingest(&sum, m, paths, 1, &o, &err) != 0)
		fprintf(stderr, "ingest: %s\n", err.msg);
	struct sw_ingest_opts om = { .origin = SW_ORIGIN_MODEL, .report = fx_report, .user = &ws };
	const char *np[] = { note };
	if (sw_ingest(&sum, m, np, 1, &om, &err) != 0)
		fprintf(stderr, "ingest note: %s\n", err.msg);
	sw_matter_close(m);
	free(root);
	free(labels);
	free(note);
}

static struct sw_authority *build_authority(const char *name, bool codes)
{
	struct sw_authority *a = NULL;
	struct sw_err err = { 0 };
	struct sw_authority_import_summary s;
	char *db = fx_path(&ws, name);
	if (sw_authority_open(&a, db, true, &err) != 0)
		abort();
	free(db);
	const char *files[] = { "cases.csv", codes ? "codes.csv" : NULL, "opinions",
				"citations.csv" };
	for (size_t k = 0; k < 4; k++) {
		if (!files[k])
			continue;
		char *p = fx_path(&ws, files[k]);
		if (sw_authority_import(&s, a, p, false, &err) != 0) {
			fprintf(stderr, "authority import %s: %s\n", files[k], err.msg);
			abort();
		}
		free(p);
	}
	return a;
}

static int setup(void **state)
{
	(void)state;
	fx_ws_new(&ws);
	build_matter();
	put("cases.csv", "name,volume,reporter,page,last_page,court,year\n"
			 "Celotex Corp. v. Catrett,477,U.S.,317,338,U.S.,1986\n"
			 "\"Anderson v. Liberty Lobby, Inc.\",477,U.S.,242,268,U.S.,1986\n"
			 "Bell Atlantic Corp. v. Twombly,550,U.S.,544,597,U.S.,2007\n"
			 "J.D. v. Azar,925,F.3d,1291,1344,D.C. Cir.,2019\n"
			 "Hadley v. Baxendale,9,Ex.,341,,Ex. Ch.,1854\n");
	/* a CourtListener citation whose cluster (the name) was never imported */
	put("citations.csv", "id,volume,reporter,page,type,cluster_id\n1,101,F.4th,7,1,9001\n");
	put("codes.csv", "code,title,section,name\n"
			 "U.S.C.,28,1332,Diversity of citizenship\n"
			 "Fed. R. Civ. P.,,56,Summary judgment\n");
	mkdirs("opinions");
	put("opinions/477 U.S. 317.txt",
	    "*322 In our view, the plain language of Rule 56(c) mandates the entry of summary "
	    "judgment against a party who fails to make a showing sufficient to establish the "
	    "existence of an element essential to that party's case.\n");
	put("opinions/477 U.S. 242.txt",
	    "*248 Only disputes over facts that might affect the outcome of the suit under the "
	    "governing law will properly preclude the entry of summary judgment.\n\n"
	    "*252 The mere existence of a scintilla of evidence in support of the plaintiff's "
	    "position will be insufficient.\n");
	auth_full = build_authority("authorities.db", true);
	auth_codeless = build_authority("codeless.db", false);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sw_authority_close(auth_full);
	sw_authority_close(auth_codeless);
	fx_ws_free(&ws);
	return 0;
}

/* --- the rows ------------------------------------------------------------------- */

static void mask_names(struct sw_buf *b, unsigned mask)
{
	for (int v = 0; v < SW_VERDICT_COUNT; v++)
		if (mask & (1u << v))
			sw_buf_addf(b, "%s%s", b->len ? "|" : "", sw_verdict_name(v));
	if (mask & ABSENT)
		sw_buf_addf(b, "%sno claim", b->len ? "|" : "");
}

/* One paragraph of .docx body XML: runs split at '*', every other one
 * italic (as a word processor stores an italic case name). */
static char *docx_body(const char *text)
{
	struct sw_buf b = SW_BUF_INIT;
	bool italic = false;
	sw_buf_adds(&b, "<w:p>");
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "*");
		if (n) {
			sw_buf_addf(&b, "<w:r>%s<w:t xml:space=\"preserve\">",
				    italic ? "<w:rPr><w:i/></w:rPr>" : "");
			sw_buf_add(&b, p, n);
			sw_buf_adds(&b, "</w:t></w:r>");
		}
		p += n;
		if (*p == '*') {
			italic = !italic;
			p++;
		}
	}
	sw_buf_adds(&b, "</w:p>");
	return sw_buf_detach(&b, NULL);
}

static bool kind_ok(const char *want, const char *got)
{
	return strcmp(want, "*") == 0 || strcmp(want, got) == 0 ||
	       (strcmp(want, "record") == 0 && strcmp(got, "bates") == 0);
}

/* Runs one row; on failure appends what went wrong to fails. */
static void run_row(size_t k, const struct row *r, struct sw_matter *m, struct sw_buf *fails)
{
	struct sw_markup view = { 0 };
	struct sw_verify_report rep = { 0 };
	struct sw_err err = { 0 };
	struct sw_buf got = SW_BUF_INIT, want = SW_BUF_INIT;
	struct sw_authority *a = r->auth == AUTH_FULL ? auth_full
				 : r->auth == AUTH_NOCODES ? auth_codeless : NULL;
	struct sw_verify_opts o = { .lenient = r->lenient };
	bool ok = true;

	enum sw_markup_kind kind = r->fmt == TEXT ? SW_MARKUP_TEXT
				   : r->fmt == HTML ? SW_MARKUP_HTML : SW_MARKUP_MARKDOWN;
	struct cli_draft d = { 0 };
	const struct sw_markup *vp = &view;
	int rc;
	if (r->fmt == DOCX) {
		char *path = fx_path(&ws, "draft.docx"), *body = docx_body(r->draft);
		fx_docx(path, body, NULL);
		rc = cli_draft_read(&d, path, NULL, &err);
		vp = &d.view;
		free(body);
		free(path);
	} else {
		rc = sw_markup_parse(&view, kind, r->draft, strlen(r->draft), &err);
	}
	if (rc != 0 || sw_verify(&rep, m, a, vp->text, vp->len, &o, &err) != 0) {
		sw_buf_addf(fails, "row %zu: %s\n  draft: %s\n", k + 1, err.msg, r->draft);
		goto done;
	}
	const char *at = strstr(rep.text, r->at);
	size_t a0 = at ? (size_t)(at - rep.text) : 0, a1 = a0 + strlen(r->at);
	size_t hits = 0;
	bool reason_seen = false;
	for (size_t i = 0; at && i < rep.claims.n; i++) {
		const struct sw_claim *c = &rep.claims.v[i];
		if (!kind_ok(r->kind, sw_claim_kind_name(c->kind)) || c->start >= a1 || a0 >= c->end)
			continue;
		/* Every claim of the kind there must have an allowed verdict, and
		 * one of them the reason. */
		const struct sw_claim_verdict *v = &rep.verdicts[i];
		sw_buf_addf(&got, "%s%s %s: %s", hits ? "; " : "", sw_claim_kind_name(c->kind),
			    sw_verdict_name(v->verdict), v->reason);
		if (!(r->want & (1u << v->verdict)))
			ok = false;
		reason_seen |= !r->reason || strstr(v->reason, r->reason) != NULL;
		hits++;
	}
	mask_names(&want, r->want);
	if (!at) {
		ok = false;
		sw_buf_addf(&got, "'%s' is not in the plain text the scanner read: '%s'", r->at,
			    rep.text);
	} else if (hits == 0) {
		ok = (r->want & ABSENT) != 0;
		sw_buf_addf(&got, "no %s claim there (claims:", r->kind);
		for (size_t i = 0; i < rep.claims.n; i++) {
			const struct sw_claim *c = &rep.claims.v[i];
			sw_buf_addf(&got, " %s '%.*s' %s;", sw_claim_kind_name(c->kind),
				    (int)(c->end - c->start), rep.text + c->start,
				    sw_verdict_name(rep.verdicts[i].verdict));
		}
		sw_buf_adds(&got, ")");
	} else if (!reason_seen) {
		ok = false;
	}
	if (r->gate != GATE_ANY && rep.pass != (r->gate == PASS)) {
		ok = false;
		sw_buf_addf(&got, "; gate %s", rep.pass ? "pass" : "blocked");
	}
	if (!ok)
		sw_buf_addf(fails,
			    "row %zu\n  draft:    %s\n  claim:    %s at '%s'%s%s\n"
			    "  expected: %s%s%s%s%s\n  actual:   %s\n",
			    k + 1, r->draft, r->kind, r->at,
			    r->auth == AUTH_NONE ? " (no authority table)"
			    : r->auth == AUTH_NOCODES ? " (no code table)" : "",
			    r->lenient ? " --lenient" : "", want.data ? want.data : "",
			    r->reason ? ", reason has '" : "", r->reason ? r->reason : "",
			    r->reason ? "'" : "",
			    r->gate == GATE_ANY ? "" : r->gate == PASS ? "; gate pass" : "; gate blocked",
			    got.data);
done:
	sw_buf_release(&got);
	sw_buf_release(&want);
	sw_verify_release(&rep);
	sw_markup_release(&view);
	cli_draft_release(&d);
}

static void test_rows(void **state)
{
	(void)state;
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	struct sw_buf fails = SW_BUF_INIT;
	size_t n = sizeof(rows) / sizeof(rows[0]), nfail = 0;
	assert_int_equal(sw_matter_open(&m, &ws.ws, "a", &err), 0);
	for (size_t k = 0; k < n; k++) {
		size_t before = fails.len;
		run_row(k, &rows[k], m, &fails);
		nfail += fails.len != before;
	}
	sw_matter_close(m);
	if (nfail) {
		fprintf(stderr, "import events:\n%s\n%s", ws.events.data ? ws.events.data : "",
			fails.data);
	}
	fprintf(stderr, "%zu of %zu rows pass\n", n - nfail, n);
	sw_buf_release(&fails);
	assert_int_equal(nfail, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
