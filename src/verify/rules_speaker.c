/*
 * rules_speaker.c - who said a quotation.  A sentence that gives a
 * quotation to a speaker ("Hale told the meeting that "[t]he cracks ..."",
 * "Pryor testified that "...""), whose words the cited page holds, is
 * checked against the speaker the page gives those words to: a
 * transcript's answer is the witness's (the deponent of "Ortega Dep."), a
 * question the examiner's ("BY MR. DUNN:"), "MR. DUNN: Objection" and
 * "Nina Park: The panels ..." their speakers', an e-mail's body its From:
 * line's and a quoted reply the writer of its "... wrote:" line.  Another
 * speaker is contradicted; a speaker the page does not make plain is left
 * alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define SPEAKER_LINES 40 /* lines walked back from the words to their speaker */
#define SPEAKER_WORDS 6  /* words of the quotation looked for */
#define EXAMINER "the examining lawyer"

static const char *const verbs[] = {
	"said", "says", "testified", "wrote", "writes", "asked", "asks", "told", "tells",
	"reported", "reports", "objected", "stated", "states", "explained", "answered",
	"admitted", "conceded", "responded", "replied", "added", "noted", "declared",
	"confirmed", "warned", "promised", "acknowledged", "insisted", "recommended",
	"recommends", "proposed", "proposes", "suggested", "suggests", "claimed", "claims",
	"argued", "argues", "complained", "requested", "requests", "demanded", "demands",
	"announced", "announces", "assured", "assures", "instructed", "instructs", "directed",
	"directs", "ordered", "orders", "advised", "advises", "urged", "urges",
};

static bool is_verb(const char *t, size_t s, size_t e)
{
	for (size_t k = 0; k < SW_ARRAY_LEN(verbs); k++)
		if (e - s == strlen(verbs[k]) && strncasecmp(t + s, verbs[k], e - s) == 0)
			return true;
	return false;
}

/* The speaker the sentence [s, q) names before a speech verb: its last
 * capitalised word ("Hale" of "Ruth Hale told"), into out; false when
 * none. */
static bool sentence_speaker(const char *t, size_t s, size_t q, char *out, size_t cap)
{
	bool found = false;
	for (size_t i = s; i < q; i++) {
		if (!isalpha((unsigned char)t[i]) || (i > s && isalpha((unsigned char)t[i - 1])))
			continue;
		size_t e = i;
		while (e < q && isalpha((unsigned char)t[e]))
			e++;
		if (!is_verb(t, i, e)) {
			i = e;
			continue;
		}
		/* the word before the verb, past "Mr." and possessives */
		size_t b = i;
		while (b > s && t[b - 1] == ' ')
			b--;
		size_t a = b;
		while (a > s && isalpha((unsigned char)t[a - 1]))
			a--;
		if (a < b && isupper((unsigned char)t[a]) && b - a >= 2 && b - a < cap) {
			static const char *const not_names[] = { "He", "She", "They", "It", "We",
								 "I", "The", "This", "That" };
			bool no = false;
			for (size_t k = 0; k < SW_ARRAY_LEN(not_names) && !no; k++)
				no = b - a == strlen(not_names[k]) &&
				     strncmp(t + a, not_names[k], b - a) == 0;
			if (!no) {
				memcpy(out, t + a, b - a);
				out[b - a] = '\0';
				found = true;
			}
		}
		i = e;
	}
	return found;
}

/* Up to SPEAKER_WORDS words of the quotation that stand together: letters
 * folded, Bluebook alterations ("[t]he") undone, stopping at an ellipsis. */
static size_t quote_words(const char *q, char w[][24], size_t max)
{
	size_t n = 0, k = 0;
	for (size_t i = 0;; i++) {
		int c = (unsigned char)q[i];
		bool letter = isalnum(c) || c == '\'';
		if (c == '[' || c == ']')
			continue;
		if (letter && k < 23) {
			w[n][k++] = (char)tolower(c);
			continue;
		}
		if (letter)
			continue;
		if (k) {
			w[n][k] = '\0';
			n++;
			k = 0;
			if (n == max)
				break;
		}
		if (c == '\0')
			break;
		if ((c == '.' && q[i + 1] == ' ' && q[i + 2] == '.') || c == 0xE2) {
			if (n >= 3)
				break;
			n = 0; /* an ellipsis: start after it */
		}
	}
	return n;
}

/* Where the words w[0..n) stand in p, in order, with anything but letters
 * between them (line numbers of a transcript too): the offset, or -1. */
static long find_words(const char *p, size_t len, char w[][24], size_t n)
{
	for (size_t i = 0; i < len; i++) {
		if (!isalnum((unsigned char)p[i]) || (i > 0 && isalnum((unsigned char)p[i - 1])))
			continue;
		size_t at = i, k = 0;
		while (k < n && at < len) {
			size_t e = at;
			while (e < len && (isalnum((unsigned char)p[e]) || p[e] == '\''))
				e++;
			bool digits = true;
			for (size_t d = at; d < e; d++)
				digits &= isdigit((unsigned char)p[d]) != 0;
			size_t wl = strlen(w[k]);
			if (e - at == wl && strncasecmp(p + at, w[k], wl) == 0)
				k++;
			else if (!(digits && k > 0))
				break;
			at = e;
			while (at < len && !isalnum((unsigned char)p[at]))
				at++;
		}
		if (k == n)
			return (long)i;
	}
	return -1;
}

/* The line of p starting at ls, past blanks and a transcript's number. */
static size_t past_number(const char *p, size_t ls, size_t le)
{
	size_t i = ls;
	while (i < le && p[i] == ' ')
		i++;
	size_t d = i;
	while (d < le && isdigit((unsigned char)p[d]))
		d++;
	if (d > i && d - i <= 2 && d < le && p[d] == ' ')
		for (i = d; i < le && p[i] == ' ';)
			i++;
	return i;
}

/* A "MR. DUNN:" or "Nina Park:" turn at i: the name into out. */
static bool turn(const char *p, size_t i, size_t le, char *out, size_t cap)
{
	static const char *const labels[] = {
		"date", "subject", "re", "from", "to", "cc", "bcc", "sent", "attendees", "present",
		"note", "notes", "page", "item", "action", "by", "time", "place", "attachments",
		"attachment", "enclosure", "enclosures", "signed", "title", "name", "phone",
		"email", "fax", "location", "project", "period", "total", "status", "reference",
		"ref", "regarding", "minutes", "prepared", "approved", "distribution", "absent",
		"next", "agenda"
	};
	size_t k = i, words = 0;
	if (le - i > 4 && (strncmp(p + i, "MR. ", 4) == 0 || strncmp(p + i, "MS. ", 4) == 0))
		k = i + 4;
	else if (le - i > 5 && (strncmp(p + i, "MRS. ", 5) == 0))
		k = i + 5;
	size_t ns = k;
	while (k < le && words < 3) {
		if (!isupper((unsigned char)p[k]))
			return false;
		while (k < le && isalpha((unsigned char)p[k]))
			k++;
		words++;
		if (k < le && p[k] == ':')
			break;
		if (k < le && p[k] == ' ')
			k++;
		else
			return false;
	}
	if (k >= le || p[k] != ':' || k + 1 >= le || k - ns >= cap)
		return false;
	for (size_t q = 0; q < SW_ARRAY_LEN(labels); q++)
		if (k - i == strlen(labels[q]) && strncasecmp(p + i, labels[q], k - i) == 0)
			return false;
	memcpy(out, p + ns, k - ns);
	out[k - ns] = '\0';
	return true;
}

/* The speaker of the words at offset at of page p ("" when the page does
 * not make it plain), into out; witness is the transcript's deponent. */
static void page_speaker(const char *p, size_t len, size_t at, const char *witness, char *out,
			 size_t cap)
{
	out[0] = '\0';
	size_t le = at;
	while (le < len && p[le] != '\n')
		le++;
	size_t ls = at;
	while (ls > 0 && p[ls - 1] != '\n')
		ls--;
	bool question = false, quoted = ls < len && p[ls] == '>';
	for (int n = 0; n < SPEAKER_LINES; n++) {
		size_t i = past_number(p, ls, le);
		if (quoted) {
			/* "On May 3, Raj Patel wrote:" */
			size_t w = le >= 6 && le - ls >= 6 ? le : 0;
			while (w > ls && (p[w - 1] == ' ' || p[w - 1] == '\r'))
				w--;
			if (w >= ls + 6 && strncmp(p + w - 6, "wrote:", 6) == 0) {
				size_t b = w - 6;
				while (b > ls && p[b - 1] == ' ')
					b--;
				size_t a = b;
				while (a > ls &&
				       (isalpha((unsigned char)p[a - 1]) || p[a - 1] == ' ') &&
				       b - a < cap - 1)
					a--;
				while (a < b && !isupper((unsigned char)p[a]))
					a++;
				snprintf(out, cap, "%.*s", (int)(b - a), p + a);
				return;
			}
		} else if (!question && le - i >= 2 && p[i] == 'A' &&
			   (p[i + 1] == '.' || p[i + 1] == ' ')) {
			snprintf(out, cap, "%s", witness ? witness : "");
			return;
		} else if (le - i >= 2 && p[i] == 'Q' && (p[i + 1] == '.' || p[i + 1] == ' ')) {
			question = true; /* the examiner: the BY line above names */
		} else if (le - i > 4 && strncmp(p + i, "BY ", 3) == 0 && question) {
			char who[64];
			if (turn(p, i + 3, le, who, sizeof(who)))
				snprintf(out, cap, "%s", who);
			else
				snprintf(out, cap, "%s", EXAMINER);
			return;
		} else if (le - i > 12 && strncmp(p + i, "THE WITNESS:", 12) == 0) {
			snprintf(out, cap, "%s", witness ? witness : "");
			return;
		} else if (le - i > 5 && strncasecmp(p + i, "From:", 5) == 0) {
			size_t a = i + 5;
			while (a < le && p[a] == ' ')
				a++;
			size_t b = a;
			while (b < le && p[b] != '<' && p[b] != '\r')
				b++;
			while (b > a && p[b - 1] == ' ')
				b--;
			snprintf(out, cap, "%.*s", (int)(b - a), p + a);
			return;
		} else if (!question) {
			char who[64];
			if (turn(p, i, le, who, sizeof(who))) {
				snprintf(out, cap, "%s", who);
				return;
			}
		}
		if (ls == 0)
			break;
		le = ls - 1;
		ls = le;
		while (ls > 0 && p[ls - 1] != '\n')
			ls--;
		quoted = quoted && p[ls] == '>';
	}
	if (question) {
		/* a question whose BY line is on an earlier page: the examiner,
		 * whoever that is, and never the witness */
		snprintf(out, cap, "%s", EXAMINER);
		return;
	}
	/* no turn on the page: an e-mail's writer is on its From: line */
	for (size_t i = 0; i + 5 < len; i++)
		if ((i == 0 || p[i - 1] == '\n') && strncasecmp(p + i, "From:", 5) == 0 &&
		    !quoted) {
			size_t a = i + 5, b;
			while (a < len && p[a] == ' ')
				a++;
			for (b = a; b < len && p[b] != '<' && p[b] != '\n' && p[b] != '\r';)
				b++;
			while (b > a && p[b - 1] == ' ')
				b--;
			snprintf(out, cap, "%.*s", (int)(b - a), p + a);
			return;
		}
}

/* Whether name (one word) is a word of speaker, case folded. */
static bool names(const char *speaker, const char *name)
{
	size_t n = strlen(name);
	for (const char *s = speaker; *s; s++)
		if (strncasecmp(s, name, n) == 0 &&
		    (s == speaker || !isalpha((unsigned char)s[-1])) &&
		    !isalpha((unsigned char)s[n]))
			return true;
	return false;
}

/* The deponent of page pg's document ("Ortega" of "Ortega Dep."), else
 * the first word of the file's name, into out: whether it is a
 * transcript. */
static bool deponent(struct sw__verify_run *u, const struct sw_record_page *pg, char *out,
		     size_t cap)
{
	const char *label = sw__verify_doc_label(u, pg->doc_id);
	const char *src = label && strstr(label, "Dep") ? label : pg->document;
	size_t k = 0;
	while (src && src[k] && isalpha((unsigned char)src[k]) && k + 1 < cap) {
		out[k] = src[k];
		k++;
	}
	out[k] = '\0';
	return label && strstr(label, "Dep") != NULL;
}

bool sw__verify_witness(struct sw__verify_run *u, int64_t page, char *out, size_t cap)
{
	struct sw_record_page pg = { 0 };
	struct sw_err e = { 0 };
	out[0] = '\0';
	if (!sw__verify_found(u, sw_record_page_by_id(&pg, u->m, page, &e), &e))
		return false;
	bool transcript = deponent(u, &pg, out, cap);
	sw_record_page_release(&pg);
	return transcript && out[0];
}

void sw__verify_speakers(struct sw__verify_run *u)
{
	const struct sw_claims *cl = &u->r->claims;
	const char *t = u->r->text;
	for (size_t i = 0; i < cl->n && !u->err.code; i++) {
		const struct sw_claim *c = &cl->v[i];
		const char *quoted = c->kind == SW_CLAIM_QUOTE ? sw_claim_get(c, "quoted") : NULL;
		if (!quoted || u->r->verdicts[i].verdict != SW_VERDICT_SUPPORTED ||
		    c->attributed_to < 0 || (size_t)c->attributed_to >= cl->n)
			continue;
		size_t a = (size_t)c->attributed_to;
		if (cl->v[a].kind != SW_CLAIM_RECORD && cl->v[a].kind != SW_CLAIM_BATES)
			continue;
		const struct sw_sentence *se = c->sentence < cl->nsentences ?
						       &cl->sentences[c->sentence] : NULL;
		char said[48];
		if (!se || !sentence_speaker(t, se->start, c->start, said, sizeof(said)))
			continue;
		char w[SPEAKER_WORDS][24];
		size_t nw = quote_words(quoted, w, SPEAKER_WORDS);
		if (nw < 2)
			continue;
		const struct sw__verify_resolved *res = &u->res[a];
		for (size_t q = 0; q < res->npages && !u->err.code; q++) {
			struct sw_err e = { 0 };
			struct sw_record_page pg = { 0 };
			if (!sw__verify_found(u, sw_record_page_by_id(&pg, u->m, res->pages[q], &e),
					      &e))
				continue;
			char witness[48];
			bool transcript = deponent(u, &pg, witness, sizeof(witness));
			sw_record_page_release(&pg);
			if (!sw__verify_found(
				    u, sw_record_page_text(&u->page, u->m, res->pages[q], &e), &e))
				continue;
			long at = find_words(u->page.data, u->page.len, w, nw);
			if (at < 0)
				continue;
			char who[96];
			page_speaker(u->page.data, u->page.len, (size_t)at,
				     transcript ? witness : NULL, who, sizeof(who));
			/* a question is the examiner's: wrong only when given
			 * to the witness */
			bool wrong = strcmp(who, EXAMINER) == 0 ? transcript && names(witness, said)
								: who[0] && !names(who, said);
			if (wrong) {
				char *pn = sw__verify_page_name(u, res->pages[q]);
				sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
					       "%s gives these words to %s, not %s", pn, who, said);
				free(pn);
			}
			break;
		}
	}
}

/* ------------------------------------------------------ the witness's party */

bool sw__verify_witness_party(struct sw__verify_run *u, int64_t page, char *out, size_t cap)
{
	static const char *const asks[] = { "employer", "employed", "work for", "where do you work",
					     "who do you work" };
	struct sw_record_page pg = { 0 };
	struct sw_err e = { 0 };
	out[0] = '\0';
	if (!sw__verify_found(u, sw_record_page_by_id(&pg, u->m, page, &e), &e))
		return false;
	int64_t doc = pg.doc_id;
	uint32_t count = pg.page_count;
	sw_record_page_release(&pg);
	bool asked = false;
	/* "Q. Who is your employer?  A. Tallgrass Builders. I have been ..." */
	for (uint32_t n = 1; n <= count && n <= 4 && !out[0] && !u->err.code; n++) {
		struct sw_record_page q = { 0 };
		if (!sw__verify_found(u, sw_record_doc_page(&q, u->m, doc, n, &e), &e)) {
			sw_record_page_release(&q);
			continue;
		}
		bool ok = sw__verify_found(u, sw_record_page_text(&u->page, u->m, q.id, &e), &e);
		sw_record_page_release(&q);
		if (!ok)
			continue;
		const char *p = u->page.data;
		size_t len = u->page.len;
		for (size_t i = 0; i < len && !out[0];) {
			size_t le = i;
			while (le < len && p[le] != '\n')
				le++;
			size_t a = past_number(p, i, le);
			if (le - a > 2 && p[a] == 'Q' && p[a + 1] == '.') {
				asked = false;
				for (size_t k = 0; k < SW_ARRAY_LEN(asks) && !asked; k++) {
					size_t kl = strlen(asks[k]);
					for (size_t x = a; x + kl <= le && !asked; x++)
						asked = strncasecmp(p + x, asks[k], kl) == 0;
				}
			} else if (asked && le - a > 2 && p[a] == 'A' && p[a + 1] == '.') {
				size_t s = a + 2;
				while (s < le && p[s] == ' ')
					s++;
				size_t z = s;
				/* the answer's leading capitalised words */
				while (z < le && (isupper((unsigned char)p[z]) ||
						  (z > s && p[z - 1] == ' ' &&
						   isupper((unsigned char)p[z])))) {
					while (z < le &&
					       (isalpha((unsigned char)p[z]) || p[z] == '&'))
						z++;
					if (z + 1 < le && p[z] == ' ' &&
					    isupper((unsigned char)p[z + 1]))
						z++;
					else
						break;
				}
				if (z > s && z - s < cap)
					snprintf(out, cap, "%.*s", (int)(z - s), p + s);
				asked = false;
			}
			i = le < len ? le + 1 : len;
		}
	}
	return out[0] != '\0';
}

/* ------------------------------------------------ words given, not quoted */

/* The first speech verb of t[s, e) after a capitalised speaker ("Okafor
 * says", "Ruth Hale wrote"): the speaker's last word into who, the verb's
 * start into *verb; false when none. */
static bool speech_at(const char *t, size_t s, size_t e, char *who, size_t cap, size_t *verb)
{
	for (size_t i = s; i < e; i++) {
		if (!isalpha((unsigned char)t[i]) || (i > s && isalpha((unsigned char)t[i - 1])))
			continue;
		size_t we = i;
		while (we < e && isalpha((unsigned char)t[we]))
			we++;
		if (is_verb(t, i, we) && sentence_speaker(t, s, we, who, cap)) {
			*verb = i;
			return true;
		}
		i = we;
	}
	return false;
}

/* Whether a word of speaker (three letters or more) is a word of t[s, e):
 * the sentence names the passage's speaker ("Hale wrote that Park told
 * her ..."), and gives the words second hand. */
static bool names_in(const char *t, size_t s, size_t e, const char *speaker)
{
	for (const char *w = speaker; *w;) {
		while (*w && !isalpha((unsigned char)*w))
			w++;
		size_t n = 0;
		while (isalpha((unsigned char)w[n]))
			n++;
		if (n >= 3)
			for (size_t i = s; i + n <= e; i++)
				if ((i == s || !isalpha((unsigned char)t[i - 1])) &&
				    strncasecmp(t + i, w, n) == 0 && !isalpha((unsigned char)t[i + n]))
					return true;
		w += n;
	}
	return false;
}

/* Whether the page ties speaker who to party said: next to a line's
 * mention of the name ("Ruth Hale (Carver)", "Nina Park
 * <npark@delmarprecast.example>") or on the two lines under a name that
 * stands alone (a signature: "Peter Vale / Managing Member / Brightline
 * Logistics LLC").  A company speaks through its people. */
static bool affiliated(const char *p, size_t len, const char *who, const char *said)
{
	size_t wn = strlen(who), sn = strlen(said);
	if (wn < 3 || sn < 3)
		return false;
	for (size_t i = 0; i + wn <= len; i++) {
		if (strncasecmp(p + i, who, wn) != 0 || (i > 0 && isalpha((unsigned char)p[i - 1])))
			continue;
		size_t e = i + wn, stop = e, ls = i;
		while (ls > 0 && p[ls - 1] == ' ')
			ls--;
		/* a name that begins its line may head a signature */
		bool alone = ls == 0 || p[ls - 1] == '\n';
		while (stop < len && p[stop] != '\n' && p[stop] != ',' && p[stop] != ';' &&
		       stop - e < 60)
			alone &= p[stop++] == ' ';
		if (alone && stop < len && p[stop] == '\n')
			for (int l = 0; l < 2 && stop < len; l++) {
				stop++;
				while (stop < len && p[stop] != '\n')
					stop++;
			}
		for (size_t k = e; k + sn <= stop; k++)
			if (strncasecmp(p + k, said, sn) == 0)
				return true;
	}
	return false;
}

/* Whether page 1 of page's document ties who to said (affiliated()). */
static bool first_page_ties(struct sw__verify_run *u, int64_t page, const char *who,
			    const char *said)
{
	struct sw_record_page pg = { 0 }, first = { 0 };
	struct sw_err e = { 0 };
	bool ties = false;
	if (sw__verify_found(u, sw_record_page_by_id(&pg, u->m, page, &e), &e) &&
	    pg.page_no > 1 &&
	    sw__verify_found(u, sw_record_doc_page(&first, u->m, pg.doc_id, 1, &e), &e) &&
	    sw__verify_found(u, sw_record_page_text(&u->page, u->m, first.id, &e), &e))
		ties = affiliated(u->page.data, u->page.len, who, said);
	sw_record_page_release(&pg);
	sw_record_page_release(&first);
	return ties;
}

char *sw__verify_said_by(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
			 size_t np, const struct sw__verify_sentence *sn)
{
	const char *t = u->r->text;
	char said[48], witness[48];
	size_t verb;
	if (!speech_at(t, c->start, c->end, said, sizeof(said), &verb))
		return NULL;
	/* a quotation's speaker is sw__verify_speakers' to judge */
	const struct sw_claims *cl = &u->r->claims;
	size_t k0, k1;
	sw__verify_claims_near(u, c, &k0, &k1);
	for (size_t k = k0; k < k1; k++)
		if (cl->v[k].kind == SW_CLAIM_QUOTE && cl->v[k].start < c->end &&
		    c->start < cl->v[k].end)
			return NULL;
	/* the verb is content when it says more than that words were
	 * given ("recommends", "proposed"); "told" and "wrote" are not */
	static const char *const content[] = { "recommend", "propose", "suggest", "claim",
						"argue", "complain", "request", "demand",
						"announce", "assure", "warn", "promise", "instruct",
						"direct", "order", "advise", "urge" };
	size_t ve = verb;
	while (ve < c->end && isalpha((unsigned char)t[ve]))
		ve++;
	for (size_t k = 0; k < SW_ARRAY_LEN(content); k++)
		if (strncasecmp(t + verb, content[k], strlen(content[k])) == 0)
			ve = verb;
	struct sw__verify_reading *rd = sw_xcalloc(2, sizeof(*rd)), *sent = rd + 1;
	sw__verify_read_words(t, ve, c->end, sn->sp, sn->nsp, sent, NULL, 0);
	char *why = NULL;
	for (size_t q = 0; q < np && !why && sent->st.n >= 2 && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (sw__verify_witness(u, pages[q], witness, sizeof(witness)) ||
		    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue; /* a transcript's words: its witness's or examiner's */
		const char *p = u->page.data;
		size_t len = u->page.len, best = 0, own = 0, at = 0;
		char who[96] = "", cur[96];
		for (size_t i = 0; i < len;) {
			/* a passage: to a stop, a blank line or a line that is a
			 * header ("From: ...") or a turn ("Nina Park: ...") */
			size_t j = i;
			while (j < len && !((p[j] == '.' || p[j] == '?' || p[j] == '!') &&
					    (j + 1 == len || p[j + 1] == ' ' || p[j + 1] == '\n')) &&
			       !(p[j] == '\n' && (j + 1 == len || p[j + 1] == '\n' ||
						   memchr(p + j + 1, ':', len - j - 1 < 24 ? len - j - 1 : 24))))
				j++;
			size_t n = sw__verify_shared(&sent->st, p, i, j, rd);
			if (n >= 2) {
				size_t a = i;
				while (a < j && isspace((unsigned char)p[a]))
					a++;
				page_speaker(p, len, a, NULL, cur, sizeof(cur));
				if (cur[0] && names(cur, said)) {
					if (n > own)
						own = n;
				} else if (n > best) {
					best = n;
					at = a;
					snprintf(who, sizeof(who), "%s", cur);
				}
			}
			i = j + 1;
		}
		/* clearly another's words: three shared, or two that are most
		 * of the sentence's, more than any words of the speaker named */
		bool clear = best >= 3 || (best >= 2 && best * 2 >= sent->st.n);
		if (!clear || own >= best || !who[0] || !strcmp(who, EXAMINER) ||
		    names_in(t, c->start, c->end, who) || affiliated(p, len, who, said))
			continue;
		size_t le = at;
		while (le < len && p[le] != '\n' && le - at < 120)
			le++;
		char *ex = sw_xstrndup(p + at, le - at);
		/* the document's first page ties them ("Present: Ruth Hale
		 * (Carver)" above the minutes' second page) */
		if (!first_page_ties(u, pages[q], who, said)) {
			char *pn = sw__verify_page_name(u, pages[q]);
			why = sw_xasprintf("%s gives these words to %s, not %s: \"%s\"", pn, who,
					   said, ex);
			free(pn);
		}
		free(ex);
	}
	free(rd);
	return why;
}
