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
	/* kind "uncited": an uncited sentence covers `at`, its facts hold
	 * reason (want NONE: none covers it); kind "missing": the report's
	 * missing elements hold reason, or it cites no record ("no record") */
	int uncited;         /* 0 warn (the default), 1 block, 2 off */
	const char *element; /* "NAME=phrase|phrase": an element to require */
	bool need_record;
};

/* Unset fields are 0: Markdown, the full authority table, strict, the
 * gate not checked. */
#define R(...) { __VA_ARGS__ }

#include "verify_table_rows.h"

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
		"    myself.", "Q.  Anything else?", "A.  No.", "(Recess taken.)",
		"Q.  Did you tell the controller about it?", "A.  I didn't. Dana handles that.",
		"Q.  Who placed the order?", "A.  Dana did." };
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
	/* turns of a call: whose words are whose */
	put("m/mail/call-notes.txt",
	    "ACME WIDGETS, INC.\nCALL NOTES\nPresent: Jane Roe (Acme), Peter Vale (Brightline)\n\n"
	    "Jane Roe: Acme needs the gasket kits before the spring audit.\n"
	    "Peter Vale: The gasket kits will follow the housings by a fortnight.\n"
	    "Jane Roe: Our Dover plant takes them.\n");
	/* counts a page gives by listing: charges, signatures, a list */
	put("m/mail/invoice-9001.txt",
	    "INVOICE 9001\nPacking Slip No. 17\nCarrier: Northway Freight\n"
	    "Purchase order: PO 9001\nInvoice date: May 3, 2021\nShipped: April 28, 2021\n"
	    "Ship to: Dock 2, Newark, Delaware\nApproved: Peter Vale\n"
	    "Late credit: two percent (2%) a week.\n"
	    "Rework added at $38.00 a housing.\nAdded fee: $1,824.00 (rework)\n"
	    "No credit applies unless the buyer gives written notice.\n"
	    "The seller will not ship the spare housings until the deposit clears.\n\n"
	    "Widget housings ........ $1,000.00\nFreight ........ $50.00\n"
	    "Total due ........ $1,050.00\n\nExceptions:\nHousing 7 cracked\nHousing 9 "
	    "scratched\n\nIN WITNESS WHEREOF the parties sign below.\n\n"
	    "Jane Roe, General Counsel, Acme Widgets, Inc.\n"
	    "Peter Vale, Managing Member, Brightline Logistics LLC\n\n"
	    "NCR-7  Housing H-20-11  cracked at a boss    Rejected\n"
	    "NCR-8  Housing H-20-12  scuffed finish       Accepted as is\n");
	put("labels.csv", "\xef\xbb\xbfLabel,Target\r\nPl. Ex. 1,ACME0000001\r\n"
			  "Pl. Ex. 3,ACME0000003\r\nPl. Ex. 5,roe.eml\r\nPl. Ex. 6,calc.pdf\r\n"
			  "Def. Ex. 3,BLT-000003\r\nDX-7,BLT-000001\r\nSmith Dep.,smith-dep.txt\r\n"
			  "Pl. Ex. 12,call-notes.txt\r\nPl. Ex. 13,invoice-9001.txt\r\n");
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
	struct sw_verify_opts o = { .lenient = r->lenient, .need_record = r->need_record };
	o.uncited = r->uncited == 1 ? SW_UNCITED_BLOCK : r->uncited == 2 ? SW_UNCITED_OFF
									 : SW_UNCITED_WARN;
	char ename[64] = "";
	struct sw_verify_element el = { ename, NULL };
	if (r->element) {
		const char *eq = strchr(r->element, '=');
		snprintf(ename, sizeof(ename), "%.*s", eq ? (int)(eq - r->element) : 0, r->element);
		el.match = eq ? eq + 1 : r->element;
		o.elements = &el;
		o.nelements = 1;
	}
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
	if (!strcmp(r->kind, "uncited") || !strcmp(r->kind, "missing")) {
		/* what the report says beside the claims */
		bool seen = false;
		const char *at2 = strstr(rep.text, r->at);
		for (size_t q = 0; !strcmp(r->kind, "uncited") && at2 && q < rep.nuncited; q++) {
			const struct sw_verify_uncited *x = &rep.uncited[q];
			size_t o2 = (size_t)(at2 - rep.text);
			sw_buf_addf(&got, "%suncited '%.*s' (%s)", got.len ? "; " : "",
				    (int)(x->end - x->start), rep.text + x->start, x->facts);
			seen |= x->start <= o2 && o2 < x->end &&
				(!r->reason || strstr(x->facts, r->reason));
		}
		for (size_t q = 0; !strcmp(r->kind, "missing") && q < rep.nmissing; q++) {
			sw_buf_addf(&got, "%smissing %s", got.len ? "; " : "", rep.missing[q]);
			seen |= r->reason && strstr(rep.missing[q], r->reason) != NULL;
		}
		if (!strcmp(r->kind, "missing") && rep.no_record) {
			sw_buf_addf(&got, "%sno record", got.len ? "; " : "");
			seen |= r->reason && !strcmp(r->reason, "no record");
		}
		ok = (r->want & ABSENT) ? !seen : seen;
		if (r->gate != GATE_ANY && rep.pass != (r->gate == PASS)) {
			ok = false;
			sw_buf_addf(&got, "; gate %s", rep.pass ? "pass" : "blocked");
		}
		if (!ok)
			sw_buf_addf(fails, "row %zu\n  draft:    %s\n  %s at '%s', reason '%s'%s\n"
				    "  actual:   %s\n", k + 1, r->draft, r->kind, r->at,
				    r->reason ? r->reason : "", (r->want & ABSENT) ? " (none)" : "",
				    got.data ? got.data : "(nothing)");
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
