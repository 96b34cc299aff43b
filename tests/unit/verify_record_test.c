/*
 * verify_record_test.c - the record rules of the gate on a small matter as
 * the world makes one: a production with a gap, a second series stamped
 * with hyphens, an e-mail with an RFC 5322 Date header, a deposition
 * transcript whose answers run across lines and pages, and labels for two
 * parties' exhibits.  Each row is a draft, the claim to look at, its
 * verdict and a piece of its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <malloc.h>

#include "record_fixtures.h"
#include "verify/verify.h"

static struct fx_ws w;
static struct sw_matter *m;

/* A transcript page: "Page N" and 25 numbered lines, lines[k] on line k+1
 * (NULL: an empty numbered line). */
static void tr_page(struct sw_buf *b, unsigned page, const char *const *lines, size_t n)
{
	sw_buf_addf(b, "%s                                                      Page %u\n",
		    b->len ? "\f" : "", page);
	for (size_t k = 0; k < 25; k++)
		sw_buf_addf(b, "%2zu   %s\n", k + 1, k < n && lines[k] ? lines[k] : "");
}

static int setup(void **state)
{
	(void)state;
	fx_ws_new(&w);
	char *dir = fx_path(&w, "vol");
	if (mkdir(dir, 0777) != 0)
		return -1;
	char *p;
	/* ACME0000001-3 (one agreement, an e-mail thread across two pages),
	 * ACME0000005 alone: ACME0000004 is a gap. */
	p = sw_path_join(dir, "acme.txt");
	fx_write(p, "MASTER SUPPLY AGREEMENT\n"
		    "This agreement is made on January 15, 2021 between Acme Widgets, Inc.\n"
		    "and Brightline Logistics LLC.\n\nACME0000001\n"
		    "\fFrom: Tom Smith\nTo: Jane Roe\nSent: March 3, 2021\n\n"
		    "We will not make the March 10 date for PO 4471. The earliest we can ship\n"
		    "is March 31, 2021. The delay is regrettable and we\n\n"
		    "CONFIDENTIAL                                    ACME0000002\n"
		    "\fask for your patience while the carrier recovers.\n"
		    "Invoice 8812: Late delivery credit applied: none.\n\nACME0000003\n");
	free(p);
	p = sw_path_join(dir, "acme5.txt");
	fx_write(p, "NOTICE\nThe notice of breach is dated April 7, 2021.\n\nACME0000005\n");
	free(p);
	/* A series stamped with hyphens. */
	p = sw_path_join(dir, "blt.txt");
	fx_write(p, "BILL OF LADING\nShipped on 3/31/21 from Dayton.\n\nBLT-000001\n"
		    "\fDelivery receipt: received in good order.\n\nBLT-000002\n");
	free(p);
	/* A carrier's scan log: ISO date-times, as systems write them. */
	p = sw_path_join(dir, "scan-log.txt");
	fx_write(p, "event,time\nscanned at Dayton,2021-03-31T18:40:00-04:00\n"
		    "delivered at Newark,2021-04-06T09:12:44Z\n");
	free(p);
	/* An e-mail. */
	p = sw_path_join(dir, "notice.eml");
	fx_write(p, "From: Jane Roe <jane@acme.example>\r\n"
		    "To: Tom Smith <tom@brightline.example>\r\n"
		    "Subject: Notice of breach\r\n"
		    "Date: Wed, 7 Apr 2021 16:02:11 -0500\r\n"
		    "Message-ID: <1@acme.example>\r\n"
		    "MIME-Version: 1.0\r\n"
		    "Content-Type: text/plain; charset=utf-8\r\n\r\n"
		    "Please treat this as notice of breach. Invoice INV-10236 is disputed.\r\n");
	free(p);
	/* A deposition: an answer across lines 24-25 and across pages 12-13. */
	struct sw_buf t = SW_BUF_INIT;
	const char *p12[25] = { "Q.  Please state your name.", "A.  Dana Whitaker." };
	p12[21] = "Q.  What did you tell Acme?";
	p12[22] = "A.  That the invoice stood. We told them the late";
	p12[23] = "delivery credit would not apply.";
	p12[24] = "A.  The credit was never";
	const char *p13[25] = { "applied to invoice 8812.", "Q.  When did you say so?",
				"A.  On March 5, 2021, by telephone.", "Q.  Thank you." };
	tr_page(&t, 12, p12, 25);
	tr_page(&t, 13, p13, 4);
	p = sw_path_join(dir, "whitaker-dep.txt");
	fx_write(p, t.data);
	free(p);
	sw_buf_release(&t);
	char *labels = fx_path(&w, "labels.csv");
	fx_write(labels, "label,target\n"
			 "Ex. 1,ACME0000001\n"
			 "Def. Ex. 3,BLT-000001\n"
			 "Ex. 4,notice.eml\n"
			 "Whitaker Dep.,whitaker-dep.txt\n"
			 "Ex. 6,scan-log.txt\n");
	struct sw_err err = { 0 };
	struct sw_ingest_summary sum;
	struct sw_ingest_opts o = { .origin = SW_ORIGIN_EVIDENCE, .report = fx_report, .user = &w,
				    .labels_path = labels };
	const char *paths[] = { dir };
	if (sw_matter_open(&m, &w.ws, "a", &err) != 0 ||
	    sw_ingest(&sum, m, paths, 1, &o, &err) != 0) {
		fprintf(stderr, "import: %s\n", err.msg);
		return -1;
	}
	if (sum.failed || sum.labels != 5) {
		fprintf(stderr, "import events:\n%s", w.events.data ? w.events.data : "");
		return -1;
	}
	free(labels);
	free(dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sw_matter_close(m);
	fx_ws_free(&w);
	return 0;
}

#define ABSENT (-1)

struct row {
	const char *draft;
	enum sw_claim_kind kind;
	const char *needle;  /* a piece of the claim's text */
	int verdict;         /* enum sw_verdict, or ABSENT: no such claim */
	const char *reason;  /* a piece of the reason (NULL: not checked) */
	const char *cite;    /* a piece of an evidence's cite (NULL: not checked) */
};

static int check(const struct row *rw)
{
	struct sw_verify_report r;
	struct sw_err err = { 0 };
	int bad = 0;
	if (sw_verify(&r, m, NULL, rw->draft, strlen(rw->draft), NULL, &err) != 0) {
		fprintf(stderr, "verify failed: %s\n", err.msg);
		return 1;
	}
	size_t i = 0;
	for (; i < r.claims.n; i++) {
		const struct sw_claim *c = &r.claims.v[i];
		char *t = sw_xstrndup(r.text + c->start, c->end - c->start);
		bool hit = c->kind == rw->kind && strstr(t, rw->needle);
		free(t);
		if (hit)
			break;
	}
	if (rw->verdict == ABSENT) {
		if (i < r.claims.n) {
			fprintf(stderr, "%s\n  '%s' should be no claim; it is %s: %s\n", rw->draft,
				rw->needle, sw_verdict_name(r.verdicts[i].verdict),
				r.verdicts[i].reason);
			bad = 1;
		}
		goto done;
	}
	if (i == r.claims.n) {
		fprintf(stderr, "%s\n  no %s claim holds '%s'\n", rw->draft,
			sw_claim_kind_name(rw->kind), rw->needle);
		bad = 1;
		goto done;
	}
	const struct sw_claim_verdict *v = &r.verdicts[i];
	if ((int)v->verdict != rw->verdict || (rw->reason && !strstr(v->reason, rw->reason))) {
		fprintf(stderr, "%s\n  '%s': %s: %s\n  wanted %s: %s\n", rw->draft, rw->needle,
			sw_verdict_name(v->verdict), v->reason,
			sw_verdict_name((enum sw_verdict)rw->verdict), rw->reason ? rw->reason : "-");
		bad = 1;
	}
	if (rw->cite) {
		bool found = false;
		for (size_t k = 0; k < v->nevidence; k++)
			found |= v->evidence[k].cite && strstr(v->evidence[k].cite, rw->cite);
		if (!found) {
			fprintf(stderr, "%s\n  '%s': no evidence cites '%s' (%zu evidence)\n",
				rw->draft, rw->needle, rw->cite, v->nevidence);
			bad = 1;
		}
	}
done:
	sw_verify_release(&r);
	return bad;
}

static void run_rows(const struct row *rows, size_t n)
{
	int bad = 0;
	for (size_t k = 0; k < n; k++)
		bad += check(&rows[k]);
	assert_int_equal(bad, 0);
}

#define S SW_VERDICT_SUPPORTED
#define U SW_VERDICT_UNSUPPORTED
#define C SW_VERDICT_CONTRADICTED
#define V SW_VERDICT_UNVERIFIABLE
#define B SW_CLAIM_BATES
#define R SW_CLAIM_RECORD
#define D SW_CLAIM_DATE
#define Q SW_CLAIM_QUOTE

/* Items 8 and 9: any spelling of a Bates number; identifiers are not. */
static void test_bates(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "See ACME0000002.", B, "ACME0000002", S, "is in the production", NULL },
		{ "See ACME-0000002.", B, "ACME-0000002", S, "is in the production", NULL },
		{ "See ACME_0000003.", B, "ACME_0000003", S, "is in the production", NULL },
		{ "See ACME 0000003.", B, "ACME 0000003", S, "is in the production", NULL },
		{ "See ACME000003.", B, "ACME000003", S, "is in the production", NULL },
		{ "See BLT-000002.", B, "BLT-000002", S, "is in the production", NULL },
		{ "See BLT000002.", B, "BLT000002", S, "is in the production", NULL },
		{ "See BLT_000001.", B, "BLT_000001", S, "is in the production", NULL },
		{ "See BLT-000001\xe2\x80\x93" "BLT-000002.", B, "BLT-000001", S,
		  "is in the production", NULL },
		{ "See BLT-000001-000002.", B, "BLT-000001", S, "is in the production", NULL },
		{ "(ACME0000001-ACME0000003.)", B, "ACME0000001", S, "is in the production", NULL },
		{ "See ACME0000005.", B, "ACME0000005", S, "is in the production", NULL },
		/* past the end, before the start, in the gap */
		{ "See ACME0000009.", B, "ACME0000009", U,
		  "ACME0000009 is not in the production (ACME0000001–ACME0000005)", NULL },
		{ "See BLT-000007.", B, "BLT-000007", U,
		  "BLT-000007 is not in the production (BLT-000001–BLT-000002)", NULL },
		{ "See ACME0000004.", B, "ACME0000004", U,
		  "the series ACME0000001–ACME0000005 skips it", NULL },
		{ "See ACME0000001-ACME0000005.", B, "ACME0000001", U,
		  "1 of the 5 pages of ACME0000001-ACME0000005 is not in the production, the "
		  "first ACME0000004 (the series runs ACME0000001–ACME0000005)",
		  NULL },
		{ "See ACME0000007-ACME0000009.", B, "ACME0000007", U,
		  "none of the 3 pages of ACME0000007-ACME0000009 is in the production", NULL },
		/* names in the text */
		{ "Invoice INV-10236 is disputed.", B, "INV-10236", ABSENT, NULL, NULL },
		{ "Acme paid invoice INV-10236 in full on time.", B, "INV", ABSENT, NULL, NULL },
		{ "The part number is RTX309000 and it shipped.", B, "RTX", ABSENT, NULL, NULL },
		/* the same tokens where a citation goes */
		{ "The card failed (RTX309000).", B, "RTX309000", U,
		  "RTX309000 is cited as a Bates number, but no production of this matter uses "
		  "the prefix RTX (productions: ACME0000001–ACME0000005, BLT-000001–BLT-000002)",
		  NULL },
		{ "Acme disputed it. See INV-10236.", B, "INV-10236", U,
		  "no production of this matter uses the prefix INV", NULL },
		{ "Acme disputed it. INV-10236.", B, "INV-10236", U,
		  "no production of this matter uses the prefix INV", NULL },
		/* a production's prefix in the text is still a claim */
		{ "The letter ACME0000009 says so.", B, "ACME0000009", U, "is not in the production",
		  NULL },
	};
	run_rows(rows, SW_ARRAY_LEN(rows));
}

/* Items 3 and 12: record id. and labels with parties. */
static void test_labels_and_id(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "The agreement was signed. Ex. 1 at 1.", R, "Ex. 1", S, "Ex. 1 is acme.txt", NULL },
		{ "The agreement was signed. Ex. 1 at 9.", R, "Ex. 1", U,
		  "Ex. 1 (acme.txt) has 3 pages, not a page 9", NULL },
		{ "The agreement was signed. Ex. 1 at 2-3.", R, "Ex. 1", S, "Ex. 1 is acme.txt",
		  NULL },
		{ "The agreement was signed. Ex. 1 at 2-4.", R, "Ex. 1", U, "not a page 4", NULL },
		{ "It shipped. Def. Ex. 3 at 2.", R, "Ex. 3", S, "is blt.txt", NULL },
		{ "It shipped. Pl. Ex. 3.", R, "Ex. 3", U,
		  "no document of the record is labelled 'Pl. Ex. 3'; the record has Def. Ex. 3",
		  NULL },
		{ "It shipped. Ex. 3.", R, "Ex. 3", U,
		  "no document of the record is labelled 'Ex. 3'; the record has Def. Ex. 3", NULL },
		{ "It shipped. Ex. 7.", R, "Ex. 7", U,
		  "no document of the record is labelled 'Ex. 7' (labels: ", NULL },
		/* id. */
		{ "The agreement was signed (Ex. 1 at 1). It set terms (Id.).", R, "Id.", S,
		  "Id. (Ex. 1) is acme.txt", NULL },
		{ "The agreement was signed (Ex. 1). It set terms (Id.).", R, "Id.", S,
		  "Id. is Ex. 1, cited just before", NULL },
		{ "The agreement was signed (Ex. 1 at 1). It set terms. Id. at 2.", R, "Id. at 2", S,
		  "is acme.txt", NULL },
		{ "The agreement was signed (Ex. 1 at 1). It set terms. Id. at 9.", R, "Id. at 9", U,
		  "has 3 pages, not a page 9", NULL },
		{ "The notice was sent (Ex. 7 at 1). It was late. (Id. at 2.)", R, "Id. at 2", U,
		  "which is unsupported", NULL },
		{ "Whitaker testified (Whitaker Dep. 12:2). He explained. (Id. at 13:1-3.)", R,
		  "Id. at 13", S, "is whitaker-dep.txt", "Whitaker Dep. 13:1-3" },
		{ "Whitaker testified (Whitaker Dep. 12:2). He explained. (Id. at 13:30.)", R,
		  "Id. at 13", U, "has no line 30 on page 13", NULL },
		{ "See ACME0000002. It said so. Id.", B, "Id.", S, "cited just before", NULL },
		/* a quotation and a date attributed to id. are checked there */
		{ "Smith wrote to Roe (Ex. 1 at 1). He wrote \"The earliest we can ship is March 31, "
		  "2021.\" (Id. at 2.)",
		  Q, "earliest", S, "on Id. at 2", NULL },
		{ "Smith wrote to Roe (Ex. 1 at 1). He wrote \"The earliest we could ship is March "
		  "31, 2021.\" (Id. at 2.)",
		  Q, "earliest", U, "not found verbatim on Id. at 2", NULL },
		{ "The agreement was signed (Ex. 1 at 1). Smith wrote on March 3, 2021. Id. at 2.", D,
		  "March 3", S, "on the cited page", NULL },
		{ "The agreement was signed (Ex. 1 at 1). Smith wrote on March 4, 2021. Id. at 2.", D,
		  "March 4", U, "is not on the cited page", NULL },
	};
	run_rows(rows, SW_ARRAY_LEN(rows));
}

/* Item 11: transcripts. */
static void test_transcripts(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "He refused. Whitaker Dep. 12:23-24.", R, "Whitaker", S, "is whitaker-dep.txt",
		  "Whitaker Dep. 12:23-24" },
		{ "He refused. Whitaker Dep. 12:25-13:2.", R, "Whitaker", S, "is whitaker-dep.txt",
		  "Whitaker Dep. 12:25-13:2" },
		{ "He refused. Whitaker Dep. 12:24-13:30.", R, "Whitaker", U,
		  "has no line 30 on page 13", NULL },
		{ "He refused. Whitaker Dep. 12:30.", R, "Whitaker", U, "has no line 30 on page 12",
		  NULL },
		{ "He refused. Whitaker Dep. 14:1.", R, "Whitaker", U, "has no page 14", NULL },
		{ "He refused. Whitaker Dep. 13:2-1.", R, "Whitaker", U,
		  "the cited range ends before it starts, so it names no lines of whitaker-dep.txt",
		  NULL },
		{ "He refused. Whitaker Dep. 12.", R, "Whitaker", S, "is whitaker-dep.txt", NULL },
		/* a quotation over two lines, and over a page break */
		{ "He said \"we told them the late delivery credit would not apply.\" Whitaker Dep. "
		  "12:23-24.",
		  Q, "late delivery", S, "Whitaker Dep. 12:23-24", "Whitaker Dep. 12:23-24" },
		{ "He said \"the credit was never applied to invoice 8812.\" Whitaker Dep. 12:25-13:1.",
		  Q, "never applied", S, "Whitaker Dep. 12:25-13:1", "Whitaker Dep. 12:25-13:1" },
		{ "He said \"the credit was always applied to invoice 8812.\" Whitaker Dep. "
		  "12:25-13:1.",
		  Q, "always applied", U,
		  "not found verbatim in the cited lines, Whitaker Dep. 12:25-13:1; closest on "
		  "Whitaker Dep. 12:25-13:1",
		  NULL },
		/* a quotation may run on a line or two past the cited line, never
		 * start after it */
		{ "He said \"the credit was never applied to invoice 8812.\" Whitaker Dep. 12:25.",
		  Q, "never applied", S, "Whitaker Dep. 12:25-13:1", NULL },
		{ "He said \"the credit was never applied to invoice 8812.\" Whitaker Dep. 12:24.",
		  Q, "never applied", U, "not found verbatim in the cited lines, Whitaker Dep. 12:24",
		  NULL },
		/* on the page, but not in the cited lines */
		{ "He said \"the late delivery credit would not apply.\" Whitaker Dep. 12:1-2.", Q,
		  "late delivery", U, "not found verbatim in the cited lines, Whitaker Dep. 12:1-2",
		  NULL },
		{ "He called on March 5, 2021. Whitaker Dep. 13:1-2.", D, "March 5", U,
		  "is not on the cited page", NULL },
		/* no citation: found in the evidence, shown by page:line */
		{ "Whitaker said \"we told them the late delivery credit would not apply.\"", Q,
		  "late delivery", S, "found in the evidence (Whitaker Dep. 12:23-24)",
		  "Whitaker Dep. 12:23-24" },
		{ "He called on March 5, 2021. Whitaker Dep. 13:3.", D, "March 5", S,
		  "on the cited page (Whitaker Dep. 13:3)", "Whitaker Dep. 13:3" },
		{ "He called on March 6, 2021. Whitaker Dep. 13:3.", D, "March 6", C,
		  "the cited page (Whitaker Dep. 13:3) gives \"March 5, 2021\" (2021-03-05), not "
		  "March 6, 2021",
		  NULL },
		/* the line numbers are not words */
		{ "He said \"the late 24 delivery credit\". Whitaker Dep. 12:23-24.", Q, "late 24", U,
		  "not found verbatim", NULL },
	};
	run_rows(rows, SW_ARRAY_LEN(rows));
}

/* Items 6 and 10: dates as dates, where cited. */
static void test_dates(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "Smith wrote on March 3, 2021. ACME0000002.", D, "March 3", S,
		  "is on the cited page (ACME0000002)", NULL },
		{ "Smith wrote on Mar. 3, 2021. ACME0000002.", D, "Mar. 3", S, "on the cited page",
		  NULL },
		{ "Smith wrote on 3 March 2021. ACME0000002.", D, "3 March", S, "on the cited page",
		  NULL },
		{ "Smith wrote on 03/03/2021. ACME0000002.", D, "03/03", S, "on the cited page",
		  NULL },
		{ "Smith wrote on 3/3/21. ACME0000002.", D, "3/3/21", S, "on the cited page", NULL },
		{ "Smith wrote on 2021-03-03. ACME0000002.", D, "2021-03-03", S, "on the cited page",
		  NULL },
		{ "Smith wrote in March 2021. ACME0000002.", D, "March 2021", S, "on the cited page",
		  NULL },
		{ "Smith wrote in April 2021. ACME0000005.", D, "April 2021", S, "on the cited page",
		  NULL },
		/* a wrong day, a wrong month */
		{ "The notice is dated April 8, 2021. ACME0000005.", D, "April 8", C,
		  "the cited page (ACME0000005) gives \"April 7, 2021\" (2021-04-07), not April 8, 2021",
		  NULL },
		{ "The notice is dated May 2021. ACME0000005.", D, "May 2021", C,
		  "gives \"April 7, 2021\" (2021-04-07), not May 2021", NULL },
		{ "Smith wrote on March 4, 2021. ACME0000002.", D, "March 4", U,
		  "is not on the cited page (ACME0000002), which gives", NULL },
		/* the shipping date on the bill of lading, 3/31/21 */
		{ "It shipped on March 31, 2021. BLT-000001.", D, "March 31", S,
		  "on the cited page (BLT-000001)", NULL },
		{ "It shipped on March 31, 2021 (Def. Ex. 3 at 1).", D, "March 31", S,
		  "on the cited page", NULL },
		/* an e-mail's Date header */
		{ "Roe sent the notice on April 7, 2021. Ex. 4.", D, "April 7", S, "on the cited page",
		  NULL },
		{ "Roe sent the notice on 4/7/2021. Ex. 4.", D, "4/7/2021", S, "on the cited page",
		  NULL },
		{ "Roe sent the notice on April 6, 2021. Ex. 4.", D, "April 6", C, "not April 6, 2021",
		  NULL },
		/* a range: both of its ends on the cited page */
		{ "It moved March 31 to April 6, 2021. Ex. 6.", D, "March 31", S,
		  "on the cited page (scan-log.txt p. 1)", NULL },
		{ "It moved March 31 to April 9, 2021. Ex. 6.", D, "March 31", U,
		  "is not on the cited page (scan-log.txt p. 1)", NULL },
		/* ISO date-times */
		{ "It was delivered on April 6, 2021. Ex. 6.", D, "April 6", S,
		  "on the cited page (scan-log.txt p. 1)", NULL },
		{ "It was scanned in Dayton on 3/31/2021 (Ex. 6).", D, "3/31/2021", S,
		  "on the cited page", NULL },
		{ "It was delivered in April 2021. Ex. 6.", D, "April 2021", S, "on the cited page",
		  NULL },
		{ "It was delivered on April 5, 2021. Ex. 6.", D, "April 5", C,
		  "gives \"2021-04-06T09:12:44Z\" (2021-04-06), not April 5, 2021", NULL },
		/* an identifier in the text does not capture the date */
		{ "Invoice INV-10236 was disputed on April 7, 2021. Ex. 4.", D, "April 7", S,
		  "on the cited page", NULL },
		/* no citation */
		{ "The parties signed on January 15, 2021.", D, "January 15", S,
		  "found elsewhere in the record, not tied to this sentence (ACME0000001)", NULL },
		{ "The notice went out on April 7, 2021.", D, "April 7", S,
		  "found elsewhere in the record, not tied to this sentence", NULL },
		{ "The shipment was scanned in Dayton on March 31, 2021.", D, "March 31", S,
		  "found elsewhere in the record, not tied to this sentence", NULL },
		{ "The shipment was delivered on April 6, 2021.", D, "April 6", S,
		  "found elsewhere in the record, not tied to this sentence (scan-log.txt p. 1)",
		  NULL },
		{ "Nothing happened on June 9, 2022.", D, "June 9", U,
		  "June 9, 2022 appears nowhere in the evidence", NULL },
		/* a citation that does not resolve */
		{ "It shipped on March 31, 2021. Ex. 9.", D, "March 31", V,
		  "cannot be checked where it is cited: Ex. 9 does not resolve", NULL },
	};
	run_rows(rows, SW_ARRAY_LEN(rows));
}

/* Item 11: a quotation that runs onto the next page of a document. */
static void test_quotes_across_pages(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "Smith wrote that \"[t]he delay is regrettable and we ask for your patience while "
		  "the carrier recovers.\" ACME0000002.",
		  Q, "regrettable", S, "on ACME0000002", NULL },
		{ "Smith wrote that \"[t]he delay is regrettable and we ask for your patience.\" "
		  "ACME0000003.",
		  Q, "regrettable", U, "not found verbatim on ACME0000003", NULL },
		{ "Smith wrote \"the earliest we could ship is March 31, 2021.\" ACME0000002.", Q,
		  "could", U, "not found verbatim on ACME0000002", NULL },
		{ "Smith wrote \"The earliest we can ship is March 31, 2021.\" ACME0000002.", Q,
		  "earliest", S, "on ACME0000002", NULL },
		{ "The bill says \"received in good order.\" BLT-000002.", Q, "good order", S,
		  "on BLT-000002", NULL },
		/* a quotation between two citations of its sentence: the one after it
		 * is its own (issue 10.4), the one before belongs to other words */
		{ "The bill of lading (BLT-000001) says \"received in good order.\" (BLT-000002.)", Q,
		  "good order", S, "on BLT-000002", NULL },
		{ "The bill of lading (BLT-000001) says \"received in poor order.\" (BLT-000002.)", Q,
		  "poor order", U, "not found verbatim on BLT-000002; closest", NULL },
		{ "The bill of lading (BLT-000002) says \"received in good order.\" (BLT-000001.)", Q,
		  "good order", U, "not found verbatim on BLT-000001", NULL },
		/* a block quotation of one inline quotation and its cite is one claim */
		{ "> \xe2\x80\x9cThe earliest we can ship is March 31, 2021.\xe2\x80\x9d (ACME0000002.)\n",
		  Q, "earliest", S, "on ACME0000002", NULL },
		/* a word in quotation marks with no citation is a term, not a quotation */
		{ "Brightline called the delay \"regrettable\" and moved on.", Q, "regrettable",
		  ABSENT, NULL, NULL },
		{ "Brightline called the delay \"regrettable and unavoidable\" and moved on.", Q,
		  "regrettable", V, "no citation says where this is from, and it is not in the "
		  "evidence", NULL },
		{ "Brightline called the delay \"regrettable\". ACME0000002.", Q, "regrettable", S,
		  "on ACME0000002", NULL },
	};
	run_rows(rows, SW_ARRAY_LEN(rows));
}

/* A matter with nothing in it: no productions, no labels. */
static void test_empty_matter(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "The card failed (ACME0000001).", B, "ACME0000001", U,
		  "ACME0000001 is cited as a Bates number, but no production of this matter uses "
		  "the prefix ACME (productions: no page of the matter is Bates-numbered)",
		  NULL },
		{ "Letter ACME0000001 was lost in the mail.", B, "ACME", ABSENT, NULL, NULL },
		{ "It was signed. Ex. 1.", R, "Ex. 1", U,
		  "no document of the record is labelled 'Ex. 1' (the matter has no labels)", NULL },
		{ "It was signed on January 15, 2021.", D, "January 15", U,
		  "January 15, 2021 appears nowhere in the evidence", NULL },
		{ "It was signed on January 15, 2021. Ex. 1.", D, "January 15", V,
		  "cannot be checked where it is cited: Ex. 1 does not resolve", NULL },
	};
	struct sw_matter *keep = m;
	struct sw_err err = { 0 };
	assert_int_equal(sw_matter_open(&m, &w.ws, "b", &err), 0);
	run_rows(rows, SW_ARRAY_LEN(rows));
	sw_matter_close(m);
	m = keep;
}

/* The whole document and the one sw_verify_json_write() writes a claim at
 * a time, between the caller's members, as a string each. */
static void both_ways(char **whole, char **streamed, const struct sw_verify_report *r,
		      const json_t *before, const json_t *after)
{
	struct sw_err err = { 0 };
	size_t len;
	json_t *doc = json_deep_copy(before), *rep = sw_verify_json(r, "d.md");
	json_object_update_missing(doc, rep);
	json_object_update_missing(doc, (json_t *)after);
	FILE *f = open_memstream(whole, &len);
	assert_int_equal(sw_json_print(f, doc, &err), 0);
	assert_int_equal(fclose(f), 0);
	f = open_memstream(streamed, &len);
	assert_int_equal(sw_verify_json_write(f, r, "d.md", before, after, &err), 0);
	assert_int_equal(fclose(f), 0);
	json_decref(rep);
	json_decref(doc);
}

/* The report streamed a claim at a time is, byte for byte, the document
 * sw_json_print() lays out from the whole tree; and each fact of a
 * proposition that is its own claim has the verdict of the first claim of
 * its sentence that covers it (found by halves, no longer by a scan). */
static void test_json_stream(void **state)
{
	(void)state;
	static const char draft[] =
		"# Facts\n\n"
		"1. On March 3, 2021 Smith wrote that \"the earliest we can ship is March 31, "
		"2021\" (ACME0000002). Invoice 8812 applied no late delivery credit (ACME0000003).\n"
		"2. Whitaker testified the credit was never applied to invoice 8812. Whitaker Dep. "
		"12:25-13:1.\n"
		"3. The notice of breach is dated April 7, 2021 (ACME0000005). It went out on "
		"April 9, 2021 (ACME0000005).\n"
		"4. Acme paid $41,250.00 on June 6, 2022.\n"
		"5. The bill of lading (BLT-000002) says \"received in poor order.\" (BLT-000002.)\n"
		"6. Shipped on March 31, 2021 (Def. Ex. 3); see ACME0000004 and Ex. 4.\n";
	struct sw_verify_report r;
	struct sw_err err = { 0 };
	struct sw_verify_opts o = { .uncited = SW_UNCITED_BLOCK };
	assert_int_equal(sw_verify(&r, m, NULL, draft, strlen(draft), &o, &err), 0);
	struct sw_verify_audit audit = { .matter = "a", .time = "2026-12-07T00:00:00Z" };
	r.audit = &audit;
	json_t *before = json_pack("{s:{s:s}, s:i}", "sworn", "version", "0", "schema", 1);
	json_t *after = json_pack("{s:{s:f}}", "timing", "claims_s", 0.25);
	char *whole = NULL, *streamed = NULL;
	both_ways(&whole, &streamed, &r, before, after);
	assert_true(r.claims.n > 12);
	assert_true(r.nuncited > 0);
	assert_string_equal(streamed, whole);

	json_t *doc = json_loads(whole, 0, NULL), *claims = json_object_get(doc, "claims");
	size_t own = 0;
	for (size_t i = 0; i < r.claims.n; i++) {
		const struct sw_claim *c = &r.claims.v[i];
		json_t *facts = json_object_get(json_array_get(claims, i), "facts");
		size_t nf = c->kind == SW_CLAIM_PROPOSITION ? r.verdicts[i].nfacts : 0;
		for (size_t k = 0; k < nf; k++) {
			const struct sw_fact_verdict *f = &r.verdicts[i].facts[k];
			if (!f->own_claim)
				continue;
			enum sw_verdict want = SW_VERDICT_UNVERIFIABLE;
			for (size_t j = 0; j < r.claims.n; j++) {
				const struct sw_claim *x = &r.claims.v[j];
				if (x->kind != SW_CLAIM_PROPOSITION && x->sentence == c->sentence &&
				    x->start <= f->start && f->end <= x->end) {
					want = r.verdicts[j].verdict;
					break;
				}
			}
			const char *got = json_string_value(
				json_object_get(json_array_get(facts, k), "verdict"));
			assert_non_null(got);
			assert_string_equal(got, sw_verdict_name(want));
			own++;
		}
	}
	assert_true(own >= 3);
	json_decref(doc);
	free(whole);
	free(streamed);
	sw_verify_release(&r);

	/* a draft with no claims: "claims" is [] either way */
	assert_int_equal(sw_verify(&r, m, NULL, "Nothing here.", 13, NULL, &err), 0);
	both_ways(&whole, &streamed, &r, before, after);
	assert_int_equal(r.claims.n, 0);
	assert_non_null(strstr(streamed, "\"claims\": []"));
	assert_string_equal(streamed, whole);
	free(whole);
	free(streamed);
	sw_verify_release(&r);
	json_decref(before);
	json_decref(after);
}

/* jansson's allocations, counted while a test sets them: the bytes it
 * holds and their peak.  By the blocks' usable size, so that a string of
 * json_dumps() that its caller frees with free() does no harm (it is
 * then counted as held to the end). */
static long js_live, js_peak;

static void *js_malloc(size_t n)
{
	void *p = malloc(n);
	if (p)
		js_live += (long)malloc_usable_size(p);
	if (js_live > js_peak)
		js_peak = js_live;
	return p;
}

static void js_free(void *p)
{
	if (p)
		js_live -= (long)malloc_usable_size(p);
	free(p);
}

/* The most JSON memory held at once writing the report of a draft of n
 * paragraphs (4 claims each, no uncited sentence: the "uncited" list is
 * the draft's own and grows with it): streamed, or as the whole tree. */
static long json_peak(size_t n, bool streamed)
{
	struct sw_buf d = SW_BUF_INIT;
	for (size_t k = 1; k <= n; k++)
		sw_buf_addf(&d, "The credit was never applied on March 5, 2021 (ACME0000003). "
				"See also ACME0000005.\n");
	struct sw_verify_report r;
	struct sw_err err = { 0 };
	assert_int_equal(sw_verify(&r, m, NULL, d.data, d.len, NULL, &err), 0);
	assert_true(r.claims.n >= 4 * n);
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	js_live = js_peak = 0;
	json_set_alloc_funcs(js_malloc, js_free);
	if (streamed) {
		assert_int_equal(sw_verify_json_write(f, &r, "d.md", NULL, NULL, &err), 0);
	} else {
		json_t *j = sw_verify_json(&r, "d.md");
		assert_int_equal(sw_json_print(f, j, &err), 0);
		json_decref(j);
	}
	json_set_alloc_funcs(malloc, free);
	fclose(f);
	sw_verify_release(&r);
	sw_buf_release(&d);
	return js_peak;
}

/* The streamed report holds one claim's JSON at a time: twenty times the
 * claims take no more of it (counted bytes, not time), where the whole
 * tree takes twenty times as much. */
static void test_json_stream_memory(void **state)
{
	(void)state;
	long small = json_peak(10, true), big = json_peak(200, true);
	assert_true(small > 0);
	assert_true(big <= small + small / 4);
	assert_true(json_peak(200, false) > 10 * json_peak(10, false));
}

/* Whether r lists an uncited sentence that names fact (one of its facts,
 * which are joined by ", "). */
static bool uncited_names(const struct sw_verify_report *r, const char *fact)
{
	size_t n = strlen(fact);
	for (size_t k = 0; k < r->nuncited; k++)
		for (const char *f = r->uncited[k].facts; f; f = strstr(f, ", ")) {
			f += *f == ',' ? 2 : 0;
			if (strncmp(f, fact, n) == 0 && (f[n] == '\0' || f[n] == ','))
				return true;
		}
	return false;
}

/* An identifier of an uncited sentence named elsewhere is a thing the
 * draft discusses, not listed: found from the draft's identifiers when
 * another is the same, else by an exact search of the text while a budget
 * of bytes lasts (128 MiB and 16 a byte of the draft), which bounds a
 * draft of thousands of them.  Past it, only the identifiers answer:
 * "XY-7" inside "XY-77" is then not seen.  Counted outcomes, not time. */
static void test_uncited_identifiers(void **state)
{
	(void)state;
	struct sw_buf d = SW_BUF_INIT;
	sw_buf_addf(&d, "Part XY-9 failed the test. Part XY-99 was replaced. Part QZ-5 "
			"failed twice. Then QZ-5 was replaced.\n");
	for (size_t k = 1; k <= 3000; k++)
		sw_buf_addf(&d, "Part BC-%zu failed the test run.\n", k);
	sw_buf_addf(&d, "Part XY-7 failed the test. Part QZ-6 failed too. QZ-6 was "
			"replaced. Part XY-77 was replaced.\n");
	struct sw_verify_report r;
	struct sw_err err = { 0 };
	assert_int_equal(sw_verify(&r, m, NULL, d.data, d.len, NULL, &err), 0);
	assert_true(r.nuncited > 2000);
	assert_true(uncited_names(&r, "BC-3000"));
	assert_false(uncited_names(&r, "XY-9"));  /* searched: inside "XY-99" */
	assert_true(uncited_names(&r, "XY-99"));
	assert_false(uncited_names(&r, "QZ-5"));  /* the same identifier again */
	assert_false(uncited_names(&r, "QZ-6"));  /* so, past the budget too */
	assert_true(uncited_names(&r, "XY-7"));   /* past the budget: not searched */
	sw_verify_release(&r);
	sw_buf_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bates),
		cmocka_unit_test(test_labels_and_id),
		cmocka_unit_test(test_transcripts),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_quotes_across_pages),
		cmocka_unit_test(test_empty_matter),
		cmocka_unit_test(test_json_stream),
		cmocka_unit_test(test_json_stream_memory),
		cmocka_unit_test(test_uncited_identifiers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
