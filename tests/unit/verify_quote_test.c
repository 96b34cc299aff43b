/*
 * verify_quote_test.c - quotation matching as texts break lines and as
 * lawyers alter quotations (quote.c), with ranges that are not words, and
 * the closest passage with the words that differ (closest.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "verify/verify_int.h"

/* Every comparison of a word with an item of a quotation that the search
 * (quote_find.c) and the closest passage (closest.c) make: the linker
 * sends their calls of sw__verify_item_is here (tests/CMakeLists.txt
 * wraps it for this test alone), so that a bound on their work is proved
 * by a count, where this test once bounded the CPU time. */
struct sw__verify_item;
struct sw__words;
bool __real_sw__verify_item_is(const struct sw__verify_item *it, const struct sw__words *w,
			       size_t k, size_t *used);
bool __wrap_sw__verify_item_is(const struct sw__verify_item *it, const struct sw__words *w,
			       size_t k, size_t *used);
static size_t compared;

bool __wrap_sw__verify_item_is(const struct sw__verify_item *it, const struct sw__words *w,
			       size_t k, size_t *used)
{
	compared++;
	return __real_sw__verify_item_is(it, w, k, used);
}

/* The words of text, as the search counts them: runs of letters and
 * digits (an apostrophe inside one). */
static size_t words_of(const char *text, size_t len)
{
	size_t n = 0;
	bool in = false;
	for (size_t i = 0; i < len; i++) {
		bool w = (text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') ||
			 (text[i] >= '0' && text[i] <= '9') || (in && text[i] == '\'');
		n += w && !in;
		in = w;
	}
	return n;
}

struct row {
	const char *quote;
	const char *text;
	bool found;
	const char *match; /* the bytes of text the match covers, when found */
};

#define LQ "\xe2\x80\x9c" /* “ */
#define RQ "\xe2\x80\x9d" /* ” */
#define RS "\xe2\x80\x99" /* ’ */
#define EM "\xe2\x80\x94" /* — */
#define EL "\xe2\x80\xa6" /* … */

static const struct row rows[] = {
	/* Line breaks: PDF text, e-mails wrapped at 72 columns. */
	{ "the earliest we can ship is March 31", "The earliest we can\nship is March 31, 2021.", true,
	  "The earliest we can\nship is March 31" },
	{ "late delivery credit", "applied the late\r\ndelivery credit", true, "late\r\ndelivery credit" },
	{ "late delivery credit", "the late\n\n\fdelivery credit", true, NULL },
	{ "the parties agree that time is of the essence",
	  "> the parties agree\n> that time is of the\n> essence of this contract", true, NULL },
	/* Hyphenated at a line end: whole or with its hyphen. */
	{ "the delivery date", "the deliv-\nery date", true, "the deliv-\nery date" },
	{ "the delivery date", "the deliv-  \n   ery date", true, NULL },
	{ "the late-delivery credit", "the late-\ndelivery credit", true, NULL },
	{ "the latedelivery credit", "the late-delivery credit", false, NULL },
	{ "the deliv ery date", "the deliv-\nery date", true, NULL },
	{ "the delivery date", "the deliv- ery date", false, NULL }, /* no line break */
	{ "the delivery date", "the deliv\xc2\xad" "ery date", true, NULL }, /* soft hyphen */
	/* Quote marks, apostrophes, dashes, case and diacritics. */
	{ "the " LQ "agreement" RQ " says", "the \"agreement\" says", true, NULL },
	{ "the 'agreement' says", "the " LQ "agreement" RQ " says", true, NULL },
	{ "the carrier" RS "s promise", "the carrier's promise", true, NULL },
	{ "none " EM " billing", "none -- Billing", true, NULL },
	{ "THE CAF\xc3\x89 OPENED", "the cafe opened", true, NULL },
	{ "the cafe opened", "the cafe\xcc\x81 opened", true, NULL },
	/* Bluebook alterations. */
	{ "[t]he earliest we can ship", "The earliest we can ship", true, "The earliest we can ship" },
	{ "[T]he earliest", "the earliest", true, NULL },
	{ "[Brightline] will not make the date", "We will not make the date", true, NULL },
	{ "[the carrier] will not make the date", "it will not make the date", true, NULL },
	{ "the [late] delivery", "the delivery", true, NULL },
	{ "the judgment[] of the court", "the judgments of the court", true, NULL },
	{ "the court appl[ied] the rule", "the court applying the rule", true, NULL },
	{ "the court appl[ied] the rule", "the court denied the rule", false, NULL },
	{ "recieved [sic] the goods", "recieved the goods", true, NULL },
	/* Bracketed endings: letters added or a suffix replaced. */
	{ "we expect[s] it by May 4, 2021.", "and we expect it by May 4, 2021. I attach", true,
	  "we expect it by May 4, 2021" },
	{ "I believe[d] it arrived", "A. I believe it arrived April 6.", true, NULL },
	{ "the delay was [un]reasonable", "the delay was reasonable", true, NULL },
	{ "the delay was [un]reasonable", "the delay was unreasonable", true, NULL },
	{ "the court appl[ied] the rule", "the court applies the rule", true, NULL },
	{ "expect[s] it by May 4", "respect it by May 4", false, NULL },
	{ "[T]he Controller approves", "Approval. The Controller approves each", true, NULL },
	/* A bracket stands for at most three words, and only for words it
	 * may stand for: a pronoun, a description it names, its stem. */
	{ "[t]he Controller [denies] each late-delivery credit",
	  "The Controller approves each late-delivery credit", false, NULL },
	{ "[t]he Controller [approved] each late-delivery credit",
	  "The Controller approves each late-delivery credit", true, NULL },
	{ "then [Acme] rejected the goods", "then the buyer rejected the goods", true, NULL },
	{ "then [Acme] rejected the goods",
	  "then the buyer of the machine press rejected the goods", false, NULL },
	{ "[t]he Controller [never] approves", "The Controller approves", false, NULL },
	{ "[t]he Controller [does] approve", "The Controller does not approve", false, NULL },
	{ "[he] will pay", "it will pay", true, NULL },
	{ "I know this [was] past the thirty days", "I know this is past the thirty days", true,
	  NULL },
	{ "the earliest we [could] ship", "The earliest we can ship", true, NULL },
	/* An ellipsis never stands for a negation. */
	{ "We will . . . make the March 10 date",
	  "We will not be able to make the March 10 date", false, NULL },
	{ "We will . . . make the March 10 date", "We will never make the March 10 date", false,
	  NULL },
	{ "We . . . make the March 10 date", "We can" RS "t make the March 10 date", false, NULL },
	{ "We will . . . make the March 10 date",
	  "We will, with the new press, make the March 10 date", true, NULL },
	{ "the buyer may . . . cancel", "the buyer may, on written notice, cancel", true, NULL },
	/* Speaker and list markers of a block quote are layout. */
	{ "A.  The carrier had it for most of a week.",
	  "A. I believe April 6. The carrier had it for most of a week.", true, NULL },
	{ "Q.  Was that late?\nA.  Yes.", "Q. Was that late? A. Yes.", true, NULL },
	{ "Q.  Was that late?\nA.  Yes.", "Was that late? Yes.", false, NULL },
	{ "1. The Controller approves", "3. Approval. The Controller approves", true, NULL },
	{ "12 pallets arrived", "13 pallets arrived", false, NULL },
	{ "the goods (emphasis added)", "the goods", true, NULL },
	{ "the goods (alteration in original)", "the goods", true, NULL },
	{ "the goods (internal quotation marks omitted)", "the goods", true, NULL },
	{ "the goods (citations omitted)", "the goods", true, NULL },
	{ "the goods (cleaned up)", "the goods", true, NULL },
	{ "the goods (and more)", "the goods", false, NULL },
	/* Ellipses in every spelling. */
	{ "We will not make the date . . . . The earliest we can ship",
	  "We will not make the date for PO 4471. The earliest we can ship", true, NULL },
	{ "We will not make . . . the earliest", "We will not make it. Sorry. The earliest", true, NULL },
	{ "We will not make ... the earliest", "We will not make it. Sorry. The earliest", true, NULL },
	{ "We will not make " EL " the earliest", "We will not make it. Sorry. The earliest", true, NULL },
	{ "We will not make [. . .] the earliest", "We will not make it. Sorry. The earliest", true, NULL },
	{ ". . . the earliest we can ship", "The earliest we can ship", true, NULL },
	{ "the earliest we can ship . . . .", "The earliest we can ship", true, NULL },
	{ "the earliest ... We will not", "We will not make it. The earliest", false, NULL },
	/* Internal quotations change their marks. */
	{ "it says 'late delivery credit applied: none.'",
	  "It says " LQ "Late delivery credit applied: none." RQ, true, NULL },
	/* Words changed, added or dropped are not found. */
	{ "The earliest we could ship", "The earliest we can ship", false, NULL },
	{ "The earliest we can ever ship", "The earliest we can ship", false, NULL },
	{ "The earliest can ship", "The earliest we can ship", false, NULL },
	{ "credit applied: full.", "credit applied: none.", false, NULL },
	{ "", "anything", false, NULL },
	{ ". . .", "anything", false, NULL },
	{ "anything", "", false, NULL },
	/* Bytes that were not UTF-8 never cut a word. */
	{ "that party's case", "that party'\xff\xfe" "s case", true, NULL },
	{ "that party'\xef\xbf\xbd\xef\xbf\xbds case", "that party\xe2\x80\x99s case", true, NULL },
	{ "the delivery date", "the deliv\xff" "ery date", true, NULL },
	{ "the deliv ery date", "the deliv\xff" "ery date", false, NULL },
	/* One character that folds into several words (NFKC: "\u248B" is "4.",
	 * "\u33C2" "a.m.") is matched whole, never as an empty span. */
	{ "4", "item \xe2\x92\x8b only", true, "\xe2\x92\x8b" },
	{ "at 9 a", "at 9 \xe3\x8f\x82 sharp", true, "at 9 \xe3\x8f\x82" },
	{ "9 a.m. sharp", "at 9 \xe3\x8f\x82 sharp", true, "9 \xe3\x8f\x82 sharp" },
	/* Numbers stay numbers. */
	{ "$1,000,000 in damages", "of $1,000,000 in damages", true, NULL },
	{ "$1,000,000 in damages", "of $1,000,001 in damages", false, NULL },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		const struct row *r = &rows[k];
		size_t s = 0, e = 0;
		bool got = sw_verify_quote_in(r->quote, strlen(r->quote), r->text, strlen(r->text), &s,
					      &e);
		if (got != r->found)
			fail_msg("row %zu: \"%s\" in \"%s\": got %d, want %d", k, r->quote, r->text,
				 got, r->found);
		if (got && r->match) {
			if (e - s != strlen(r->match) || memcmp(r->text + s, r->match, e - s) != 0)
				fail_msg("row %zu: matched \"%.*s\", want \"%s\"", k, (int)(e - s),
					 r->text + s, r->match);
		}
	}
}

/* A deposition page: line numbers and a page header are not words, and a
 * quotation runs over lines and over the page break. */
static void test_skips(void **state)
{
	(void)state;
	const char *t = "Page 12\n"
			" 24   Q.  And what did they say about the late\n"
			" 25   delivery credit?\n"
			"\f"
			"Page 13\n"
			"  1   A.  That it would be applied in\n"
			"  2   full.\n";
	const char *q = "what did they say about the late delivery credit";
	const char *q2 = "the late delivery credit? A. That it would be applied in full";
	assert_false(sw_verify_quote_in(q, strlen(q), t, strlen(t), NULL, NULL));
	struct sw__verify_skip sk[8];
	size_t n = 0;
	const char *marks[] = { "Page 12", " 24", " 25", "Page 13", "  1", "  2" };
	for (size_t k = 0; k < 6; k++) {
		const char *p = strstr(t, marks[k]);
		assert_non_null(p);
		sk[n].start = (size_t)(p - t);
		sk[n].end = sk[n].start + strlen(marks[k]);
		sk[n].join = false;
		n++;
	}
	size_t s, e;
	assert_true(sw__verify_quote_find(q, strlen(q), t, strlen(t), sk, n, &s, &e));
	assert_memory_equal(t + s, "what", 4);
	assert_true(sw__verify_quote_find(q2, strlen(q2), t, strlen(t), sk, n, &s, &e));
	assert_memory_equal(t + e - 4, "full", 4);
	/* Skips as the complement of a transcript's line ranges (what
	 * sw_record_page_lines gives): a word hyphenated over two lines still
	 * rejoins, whole or with its hyphen. */
	const char *d = "Page 4\n  7   Q.  Was the deliv-\n  8   ery late?\n";
	const char *lines[] = { "Q.  Was the deliv-", "ery late?" };
	struct sw__verify_skip gaps[3];
	size_t prev = 0, ng = 0;
	for (size_t k = 0; k < 2; k++) {
		const char *p = strstr(d, lines[k]);
		gaps[ng++] = (struct sw__verify_skip){ prev, (size_t)(p - d), false };
		prev = (size_t)(p - d) + strlen(lines[k]);
	}
	gaps[ng++] = (struct sw__verify_skip){ prev, strlen(d), false };
	const char *q4 = "Was the delivery late?", *q5 = "Was the deliv-ery late?",
		   *q6 = "Page 4 Was the delivery", *q7 = "the delivery 8 late";
	assert_true(sw__verify_quote_find(q4, strlen(q4), d, strlen(d), gaps, ng, NULL, NULL));
	assert_true(sw__verify_quote_find(q5, strlen(q5), d, strlen(d), gaps, ng, NULL, NULL));
	assert_false(sw__verify_quote_find(q6, strlen(q6), d, strlen(d), gaps, ng, NULL, NULL));
	assert_false(sw__verify_quote_find(q7, strlen(q7), d, strlen(d), gaps, ng, NULL, NULL));
	/* A skipped range inside a word, joined. */
	const char *h = "the court&#8217;s order";
	struct sw__verify_skip ent = { 9, 16, true };
	const char *q3 = "the court's order";
	assert_true(sw__verify_quote_find(q3, strlen(q3), h, strlen(h), &ent, 1, NULL, NULL));
	ent.join = false;
	assert_false(sw__verify_quote_find(q3, strlen(q3), h, strlen(h), &ent, 1, NULL, NULL));
}

struct crow {
	const char *quote;
	const char *text;
	const char *want; /* a substring of the description, or NULL: none close */
};

static const struct crow crows[] = {
	{ "The earliest we could ship is March 31, 2021.",
	  "We will not make the March 10 date for PO 4471. The earliest we can ship is\n"
	  "March 31, 2021. I know this is past the thirty days.",
	  "\"could\" in the draft, \"can\" on the page" },
	{ "The earliest we could ship is March 31, 2021.",
	  "We will not make the March 10 date for PO 4471. The earliest we can ship is\n"
	  "March 31, 2021. I know this is past the thirty days.",
	  "The earliest we can ship is March 31, 2021" },
	{ "we guarantee delivery by March 5",
	  "We cannot guarantee delivery by March 5 or any date.",
	  "\"cannot\" on the page is not in the draft" },
	{ "we will always guarantee delivery by March 5",
	  "we guarantee delivery by March 5.",
	  "\"will always\" in the draft is not on the page" },
	{ "late delivery credit applied: full",
	  "Invoice 10236. Late delivery credit applied: none. Billing",
	  "\"full\" in the draft, \"none\" on the page" },
	{ "the buyer may . . . cancel the order at once",
	  "the buyer may, on written notice, cancel the order within ten days",
	  "\"at once\" in the draft, \"within ten" },
	{ "the seller shall pay all freight charges",
	  "Nothing on this page is about that subject at all.", NULL },
	{ "We will . . . make the March 10 date for PO 4471.",
	  "Jane, We will not be able to make the March 10 date for PO 4471. The earliest",
	  "the ellipsis omits \"not be able to\" " EM " the omission reverses the sentence" },
	{ "[t]he Controller [denies] each late-delivery credit within ten business days.",
	  "3. Approval. The Controller approves each late-delivery credit within ten business days.",
	  "\"[denies]\" in the draft, \"approves\" on the page" },
	/* A block quote's speaker marker against a number on the page. */
	{ "A.  The carrier lost it for most of a week.",
	  "A.  I believe April 6. The carrier had it for\nmost of a week.",
	  "\"lost\" in the draft, \"had\" on the page" },
};

/* Descriptions that must not appear. */
static const struct crow cnot[] = {
	{ "A.  The carrier lost it for most of a week.",
	  "A.  I believe April 6. The carrier had it for\nmost of a week.", "\"6\"" },
	{ "A.  The carrier lost it for most of a week.",
	  "A.  I believe April 6. The carrier had it for\nmost of a week.", "\"A\"" },
	{ "the buyer may . . . [and] cancel the order at once",
	  "the buyer may, on written notice, cancel the order within ten days", "[and]" },
};

static void test_closest_not(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(cnot) / sizeof(cnot[0]); k++) {
		const struct crow *r = &cnot[k];
		char *d = sw__verify_closest_text(r->quote, strlen(r->quote), r->text,
						  strlen(r->text), NULL, 0);
		if (!d)
			fail_msg("row %zu: no closest passage", k);
		if (strstr(d, r->want))
			fail_msg("row %zu: \"%s\" has \"%s\"", k, d, r->want);
		free(d);
	}
}

/* An alteration that reverses the original is named (for a contradicted
 * verdict); a substitution that stands is named for the reason. */
static void test_alterations(void **state)
{
	(void)state;
	const char *t = "Jane, We will not be able to make the March 10 date for PO 4471.";
	const char *q = "We will . . . make the March 10 date";
	size_t s = 0, e = 0;
	char *why = sw__verify_quote_reversed(q, strlen(q), t, strlen(t), NULL, 0, &s, &e);
	assert_non_null(why);
	assert_string_equal(why, "the ellipsis omits \"not be able to\" " EM
			    " the omission reverses the sentence");
	assert_int_equal(s, (size_t)(strstr(t, "We") - t));
	free(why);
	const char *q2 = "We will . . . the March 10 date";
	assert_null(sw__verify_quote_reversed(q2, strlen(q2), "We will, yes, meet the March 10 date",
					      36, NULL, 0, NULL, NULL));
	const char *t3 = "The Controller does not approve each credit.";
	const char *q3 = "The Controller [approves] each credit";
	why = sw__verify_quote_reversed(q3, strlen(q3), t3, strlen(t3), NULL, 0, NULL, NULL);
	assert_non_null(why);
	assert_non_null(strstr(why, "[approves] stands for \"does not approve\""));
	assert_non_null(strstr(why, "drops a negation"));
	free(why);
	const char *t4 = "and it will not make the date";
	const char *q4 = "and [the carrier] will not make the date";
	char *note = sw__verify_quote_note(q4, strlen(q4), t4, strlen(t4), NULL, 0);
	assert_non_null(note);
	assert_string_equal(note, "[the carrier] stands for \"it\"");
	free(note);
	assert_null(sw__verify_quote_note("will not make", 13, t4, strlen(t4), NULL, 0));
}

static void test_closest(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(crows) / sizeof(crows[0]); k++) {
		const struct crow *r = &crows[k];
		struct sw__verify_closest c;
		bool ok = sw__verify_closest(&c, r->quote, strlen(r->quote), r->text, strlen(r->text),
					     NULL, 0);
		if (!r->want) {
			if (ok)
				fail_msg("row %zu: found a closest passage where none is close", k);
			continue;
		}
		if (!ok)
			fail_msg("row %zu: no closest passage for \"%s\"", k, r->quote);
		char *d = sw__verify_closest_describe(&c, r->text, strlen(r->text));
		if (!strstr(d, r->want))
			fail_msg("row %zu: \"%s\" lacks \"%s\"", k, d, r->want);
		char *d2 = sw__verify_closest_text(r->quote, strlen(r->quote), r->text,
						   strlen(r->text), NULL, 0);
		assert_non_null(d2);
		assert_string_equal(d, d2);
		free(d2);
		free(d);
		sw__verify_closest_release(&c);
	}
}

/* A few-megabyte page with the passage near its end, and a hostile page of
 * one word repeated: both bounded, by their words.  The search tries each
 * word as a start, and a start the quotation's words at most once each;
 * the closest passage aligns the quotation only where its rarest words
 * fall, never over the whole page (which is the quotation's words times
 * the page's). */
static void test_bounded(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	const char *filler = "the parties exchanged letters about the shipment and the invoice ";
	while (b.len < (3u << 20))
		sw_buf_adds(&b, filler);
	sw_buf_adds(&b, "The earliest we can ship is March 31, 2021.");
	const char *q = "The earliest we could ship is March 31, 2021.";
	size_t n = words_of(b.data, b.len);
	compared = 0;
	assert_false(sw_verify_quote_in(q, strlen(q), b.data, b.len, NULL, NULL));
	fprintf(stderr, "search: %zu words, %zu compared\n", n, compared);
	assert_true(compared <= 2 * n);
	compared = 0;
	struct sw__verify_closest c;
	assert_true(sw__verify_closest(&c, q, strlen(q), b.data, b.len, NULL, 0));
	fprintf(stderr, "closest: %zu words, %zu compared\n", n, compared);
	assert_true(compared <= n);
	char *d = sw__verify_closest_describe(&c, b.data, b.len);
	assert_non_null(strstr(d, "\"could\" in the draft, \"can\" on the page"));
	free(d);
	sw__verify_closest_release(&c);
	sw_buf_reset(&b);
	while (b.len < (1u << 20))
		sw_buf_adds(&b, "the ");
	n = words_of(b.data, b.len);
	const char *q2 = "the the the the the the the the the the the the the the the the end";
	compared = 0;
	assert_false(sw_verify_quote_in(q2, strlen(q2), b.data, b.len, NULL, NULL));
	fprintf(stderr, "hostile search: %zu words, %zu compared\n", n, compared);
	assert_true(compared <= 17 * n);
	compared = 0;
	assert_false(sw__verify_closest(&c, "the end of the", 14, b.data, b.len, NULL, 0) &&
		     c.same == 0);
	fprintf(stderr, "hostile closest: %zu words, %zu compared\n", n, compared);
	assert_true(compared <= n);
	sw__verify_closest_release(&c);
	sw_buf_release(&b);
}

/* A true quotation of four ellipses on a page where it starts at many
 * places but matches only at the last: each earlier start fails only after
 * trying every way of spreading its words over the gaps (an ellipsis may
 * not omit the "not"), and the ways multiply.  The search must still find
 * it, well inside its step budget, not give up and call it unsupported,
 * comparing each word a few times, not once per try (without the
 * remembered windows of quote_find.c: 314,867 comparisons for 316 words
 * here, and the long page's passage not found within the budget). */
static void test_many_ellipses(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	for (int i = 0; i < 300; i++)
		sw_buf_adds(&b, "delivery ");
	sw_buf_adds(&b, "was not made. The delivery of the delivery to the delivery for the delivery was late.");
	const char *q = "delivery . . . delivery . . . delivery . . . delivery . . . was late";
	size_t s = 0, e = 0;
	compared = 0;
	assert_true(sw_verify_quote_in(q, strlen(q), b.data, b.len, &s, &e));
	fprintf(stderr, "ellipses: %zu words, %zu compared\n", words_of(b.data, b.len), compared);
	assert_true(compared <= 16 * words_of(b.data, b.len));
	assert_int_equal(s, strstr(b.data, "delivery of the") - b.data);
	assert_int_equal(e, b.len - 1);
	/* A native document is one long page: 17,000 words, the passage at
	 * the end, an ellipsis after a word of every sentence.  Each "the"
	 * starts a try that looks 4,000 words ahead; the tries must not each
	 * look at the same words again. */
	sw_buf_reset(&b);
	for (int i = 0; i < 1000; i++)
		sw_buf_adds(&b, "the parties exchanged letters about the shipment and the invoice "
				"of the buyer and the court ");
	sw_buf_adds(&b, "The court held that the seller of the goods must bear the loss.");
	const char *q2 = "the . . . court . . . the . . . loss";
	compared = 0;
	assert_true(sw_verify_quote_in(q2, strlen(q2), b.data, b.len, &s, &e));
	fprintf(stderr, "ellipses, long page: %zu words, %zu compared\n", words_of(b.data, b.len),
		compared);
	assert_true(compared <= 4 * words_of(b.data, b.len));
	assert_int_equal(e, b.len - 1);
	sw_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_closest),
		cmocka_unit_test(test_closest_not),
		cmocka_unit_test(test_alterations),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_many_ellipses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
