/*
 * rules_names.c - the names of a cited sentence that the record knows:
 * runs of capitalised words ("Dana Whitaker", "L. Ortiz", "Northway
 * Freight", "Acme's") outside its citations and quotations, less the
 * words of legal writing that are capitalised but name no one ("Section",
 * "Agreement", months).  A name is a fact only when some evidence page
 * holds it; then it must be on a cited page, compared by tokens: every
 * word of it a word of the page, or its last word there after a word of
 * the same initial ("Tom Smith" for "Thomas Smith").  "Brightline" for
 * "Brightline Logistics LLC" and "Smith" for "Tom Smith" are words of the
 * page; a name no page holds is no fact (a model's invention of a person
 * the record never mentions is left to the judge).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define NAME_PAGES 16 /* evidence pages read for where a name is */

/* Capitalised words that name no party: they end a name. */
static const char *const not_name[] = {
	"a", "about", "after", "all", "also", "an", "and", "any", "as", "at", "because",
	"before", "both", "but", "by", "during", "each", "either", "every", "for", "from",
	"he", "her", "his", "however", "i", "if", "in", "it", "its", "neither", "no", "nor",
	"not", "of", "on", "or", "our", "per", "she", "since", "so", "some", "that", "the",
	"their", "then", "there", "these", "they", "this", "those", "to", "under", "until",
	"upon", "we", "when", "where", "whether", "which", "while", "who", "with", "within",
	"without", "yet",
	/* legal writing's capitalised nouns */
	"section", "sections", "rev", "line", "dock", "agreement", "exhibit", "ex", "page",
	"pp", "id", "see", "cf", "pl", "def", "dep", "tr", "ecf", "dkt", "inc", "llc", "ltd",
	"co", "corp", "plaintiff", "plaintiffs", "defendant", "defendants", "court", "mr",
	"mrs", "ms", "dr", "invoice", "order", "purchase", "note", "re", "date", "total",
	"notice", "credit", "schedule", "bill", "memo", "memorandum", "letter", "email",
	"rule", "rules", "article", "clause", "paragraph", "count", "party", "parties",
	"table", "figure", "part", "appendix", "attachment", "question", "answer", "q",
	/* roles, which name a post and not who holds it */
	"controller", "manager", "counsel", "president", "director", "officer", "clerk",
	"carrier", "buyer", "seller", "vendor", "customer", "operations", "delivery",
	"payment", "shipper", "consignee", "witness", "deponent", "reporter",
	"lot", "batch", "account", "contract", "shipment", "claim", "case", "ticket",
	"civil", "action", "docket",
	"january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december", "monday", "tuesday", "wednesday",
	"thursday", "friday", "saturday", "sunday",
	NULL,
};

static bool stop_word(const char *t, size_t n)
{
	char w[24];
	if (n >= sizeof(w))
		return false;
	for (size_t i = 0; i < n; i++)
		w[i] = (char)tolower((unsigned char)t[i]);
	w[n] = '\0';
	for (const char *const *s = not_name; *s; s++)
		if (strcmp(w, *s) == 0)
			return true;
	return false;
}

static bool letter(int c) { return isalpha((unsigned char)c) != 0; }

/* The word at i: letters with inner hyphens and apostrophes, less a
 * possessive ("Acme's", "Acme’s"); its end (the possessive's end in *skip). */
static size_t word_end(const char *t, size_t i, size_t e, size_t *skip)
{
	size_t k = i;
	while (k < e && (letter(t[k]) ||
			 ((t[k] == '-' || t[k] == '\'') && k + 1 < e && letter(t[k + 1]) &&
			  !(t[k] == '\'' && t[k + 1] == 's' && (k + 2 >= e || !letter(t[k + 2]))))))
		k++;
	*skip = k;
	if (k + 1 < e && t[k] == '\'' && t[k + 1] == 's')
		*skip = k + 2;
	else if (k + 3 < e && (unsigned char)t[k] == 0xE2 && (unsigned char)t[k + 1] == 0x80 &&
		 (unsigned char)t[k + 2] == 0x99 && t[k + 3] == 's')
		*skip = k + 4;
	return k;
}

static bool in_spans(const struct sw__verify_range *sp, size_t n, size_t at)
{
	for (size_t k = 0; k < n; k++)
		if (sp[k].s <= at && at < sp[k].e)
			return true;
	return false;
}

size_t sw__verify_names(const char *t, size_t s, size_t e, const struct sw__verify_range *skip,
			size_t nskip, struct sw__verify_name *out, size_t max)
{
	size_t n = 0, i = s;
	struct sw__verify_name cur = { 0 };
	size_t last_end = 0;
	bool first = true; /* the sentence's first word */
	while (i < e && n < max) {
		if (!letter(t[i]) || (i > s && (isalnum((unsigned char)t[i - 1]) ||
						 (unsigned char)t[i - 1] >= 0x80))) {
			i++;
			continue;
		}
		size_t skp, we = word_end(t, i, e, &skp);
		bool cap = isupper((unsigned char)t[i]) != 0;
		bool initial = cap && we == i + 1 && we < e && t[we] == '.';
		bool caps = true;
		for (size_t k = i; k < we; k++)
			caps &= isupper((unsigned char)t[k]) != 0;
		bool tok = cap && !in_spans(skip, nskip, i) && !stop_word(t + i, we - i) &&
			   !(caps && we - i > 1 && we - i <= 4) && (initial || we - i >= 2);
		bool joins = cur.n && i == last_end + 1 && t[last_end] == ' ' &&
			     cur.n < SW_VERIFY_NAME_TOKENS;
		if (!tok || !joins) {
			/* the run so far is a name when a word of it is no initial */
			bool word = false;
			for (size_t k = 0; k < cur.n; k++)
				word |= cur.te[k] - cur.ts[k] >= 2;
			if (cur.n && word)
				out[n++] = cur;
			memset(&cur, 0, sizeof(cur));
		}
		if (tok && n < max) {
			if (!cur.n)
				cur.s = i;
			cur.ts[cur.n] = i;
			cur.te[cur.n] = we;
			cur.n++;
			cur.e = we;
			cur.sentence_first = cur.n == 1 ? first : cur.sentence_first;
			last_end = initial ? we + 1 : skp;
			if (skp > we)
				last_end = (size_t)-2; /* a possessive ends the name */
		}
		first = false;
		i = (initial ? we + 1 : skp) > i ? (initial ? we + 1 : skp) : i + 1;
	}
	bool word = false;
	for (size_t k = 0; k < cur.n; k++)
		word |= cur.te[k] - cur.ts[k] >= 2;
	if (cur.n && word && n < max)
		out[n++] = cur;
	/* "Approval, Smith Dep. 4:15": a list's label, not a name */
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		if (!(out[j].sentence_first && out[j].n == 1 && out[j].e < e &&
		      (t[out[j].e] == ',' || t[out[j].e] == ':')))
			out[k++] = out[j];
	return k;
}

/* Whether the word w (n bytes) is on the page, folded, as a whole word;
 * the byte of its first occurrence from *from in *at. */
static bool word_on(const char *p, size_t len, const char *w, size_t n, size_t from, size_t *at)
{
	for (size_t k = from; k + n <= len; k++) {
		if (strncasecmp(p + k, w, n) != 0)
			continue;
		if ((k > 0 && letter(p[k - 1])) || (k + n < len && letter(p[k + n])))
			continue;
		*at = k;
		return true;
	}
	return false;
}

bool sw__verify_word_on(const char *p, size_t len, const char *w, size_t n, size_t from,
			size_t *at)
{
	return word_on(p, len, w, n, from, at);
}

bool sw__verify_has_word(const char *t, size_t len, const char *w)
{
	size_t at;
	return word_on(t, len, w, strlen(w), 0, &at);
}

bool sw__verify_has_any(const char *t, size_t len, const char *const *words, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (sw__verify_has_word(t, len, words[k]))
			return true;
	return false;
}

bool sw__verify_name_on(const char *p, size_t len, const char *t,
			const struct sw__verify_name *nm, size_t *at)
{
	size_t first_at = 0;
	bool all = true, missing_first = false;
	for (size_t k = 0; k < nm->n; k++) {
		size_t n = nm->te[k] - nm->ts[k], w;
		if (n < 2)
			continue; /* an initial */
		if (!word_on(p, len, t + nm->ts[k], n, 0, &w)) {
			all = false;
			missing_first |= k == 0;
			if (k != 0)
				return false;
		} else if (k == nm->n - 1 || !first_at) {
			first_at = w;
		}
	}
	if (all) {
		*at = first_at;
		return true;
	}
	if (!missing_first || nm->n < 2)
		return false;
	/* "Tom Smith" for "Thomas Smith": the last word after a capitalised
	 * word of the same initial */
	size_t ln = nm->te[nm->n - 1] - nm->ts[nm->n - 1], w = 0;
	const char *last = t + nm->ts[nm->n - 1];
	for (size_t from = 0; word_on(p, len, last, ln, from, &w); from = w + 1) {
		size_t b = w;
		while (b > 0 && p[b - 1] == ' ')
			b--;
		if (b > 0 && p[b - 1] == '.' && b < w)
			b--; /* "T. Reyes" for "Tomas Reyes" */
		size_t a = b;
		while (a > 0 && letter(p[a - 1]))
			a--;
		if (a < b && b < w && toupper((unsigned char)p[a]) == toupper((unsigned char)t[nm->ts[0]]) &&
		    isupper((unsigned char)p[a])) {
			*at = a;
			return true;
		}
	}
	return false;
}

/* Whether the word w (n bytes) is on the page in lower case: a common
 * word, not a name ("operations", "delivery"). */
static bool lower_on(const char *p, size_t len, const char *w, size_t n)
{
	size_t at = 0;
	for (size_t from = 0; word_on(p, len, w, n, from, &at); from = at + 1)
		if (islower((unsigned char)p[at]))
			return true;
	return false;
}

/* Whether name nm's last word is on a From:, To:, Cc: or Bcc: line of p. */
static bool in_header(const char *p, size_t len, const char *t, const struct sw__verify_name *nm)
{
	static const char *const hdr[] = { "from:", "to:", "cc:", "bcc:" };
	const char *last = t + nm->ts[nm->n - 1];
	size_t ln = nm->te[nm->n - 1] - nm->ts[nm->n - 1];
	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && p[e] != '\n')
			e++;
		size_t b = i, at;
		while (b < e && p[b] == ' ')
			b++;
		for (size_t h = 0; h < SW_ARRAY_LEN(hdr); h++) {
			size_t hn = strlen(hdr[h]);
			if (e - b > hn && strncasecmp(p + b, hdr[h], hn) == 0 &&
			    word_on(p + b, e - b, last, ln, 0, &at))
				return true;
		}
		i = e + 1;
	}
	return false;
}

char *sw__verify_name_elsewhere(struct sw__verify_run *u, const char *t,
				const struct sw__verify_name *nm, const int64_t *pages,
				size_t npages, bool *same_doc)
{
	*same_doc = false;
	struct sw_buf phrase = SW_BUF_INIT;
	for (size_t k = 0; k < nm->n; k++) {
		if (nm->te[k] - nm->ts[k] < 2)
			continue;
		if (phrase.len)
			sw_buf_adds(&phrase, " ");
		for (size_t j = nm->ts[k]; j < nm->te[k]; j++)
			if (letter(t[j]))
				sw_buf_addf(&phrase, "%c", tolower((unsigned char)t[j]));
	}
	const char *ph[1] = { phrase.data };
	int64_t *hits = NULL;
	size_t nh = 0;
	char *name = NULL;
	struct sw_err e = { 0 };
	if (!phrase.len ||
	    !sw__verify_found(u, sw_record_find_pages(&hits, &nh, u->m, ph, 1, NAME_PAGES + npages,
						      &e), &e)) {
		sw_buf_release(&phrase);
		return NULL;
	}
	bool one = true;
	for (size_t k = 1; k < nm->n; k++)
		one &= nm->te[k] - nm->ts[k] < 2;
	bool common = false;
	for (size_t k = 0; k < nh && (!name || one) && !common && !u->err.code; k++) {
		bool cited = false;
		for (size_t q = 0; q < npages; q++)
			cited |= pages[q] == hits[k];
		size_t at;
		if ((cited && !one) ||
		    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, hits[k], &e), &e))
			continue;
		if (one && lower_on(u->page.data, u->page.len, t + nm->ts[0], nm->te[0] - nm->ts[0]))
			common = true;
		else if (!cited && !name && sw__verify_name_on(u->page.data, u->page.len, t, nm, &at)) {
			name = sw__verify_page_name(u, hits[k]);
			/* a memo's writer or addressee (its From:, To: or Cc: on its
			 * first page) is its second page's too */
			struct sw_record_page hp = { 0 }, cp = { 0 };
			if (in_header(u->page.data, u->page.len, t, nm) &&
			    sw__verify_found(u, sw_record_page_by_id(&hp, u->m, hits[k], &e), &e))
				for (size_t q = 0; q < npages && !*same_doc; q++) {
					if (sw__verify_found(u, sw_record_page_by_id(&cp, u->m, pages[q], &e), &e))
						*same_doc = cp.doc_id == hp.doc_id;
					sw_record_page_release(&cp);
				}
			sw_record_page_release(&hp);
		}
	}
	if (common) {
		free(name);
		name = NULL;
	}
	free(hits);
	sw_buf_release(&phrase);
	return name;
}

bool sw__verify_name_rival(const char *p, size_t len, const char *t,
			   const struct sw__verify_name *nm, size_t *rs, size_t *re)
{
	size_t words = 0;
	for (size_t k = 0; k < nm->n; k++)
		words += nm->te[k] - nm->ts[k] >= 2;
	if (words < 2)
		return false;
	size_t ln = nm->te[nm->n - 1] - nm->ts[nm->n - 1], w = 0;
	const char *last = t + nm->ts[nm->n - 1], *first = t + nm->ts[0];
	size_t fn = nm->te[0] - nm->ts[0];
	for (size_t from = 0; word_on(p, len, last, ln, from, &w); from = w + 1) {
		size_t b = w;
		if (b == 0 || p[b - 1] != ' ')
			continue;
		b--;
		size_t a = b;
		while (a > 0 && letter(p[a - 1]))
			a--;
		/* another capitalised word before the same last word, the
		 * page's own last word capitalised too */
		if (a < b && isupper((unsigned char)p[a]) && isupper((unsigned char)p[w]) &&
		    !(b - a == fn && strncasecmp(p + a, first, fn) == 0) &&
		    !stop_word(p + a, b - a)) {
			*rs = a;
			*re = w + ln;
			return true;
		}
	}
	return false;
}

/* Whether p[i, ...) starts with the words of w (n bytes, single spaces),
 * case folded, runs of blanks and line ends standing for a space: the end,
 * or 0. */
static size_t words_at(const char *p, size_t len, size_t i, const char *w, size_t n)
{
	size_t k = 0;
	while (k < n && i < len) {
		if (w[k] == ' ') {
			if (!isspace((unsigned char)p[i]))
				return 0;
			while (i < len && isspace((unsigned char)p[i]))
				i++;
			k++;
			continue;
		}
		if (tolower((unsigned char)p[i]) != tolower((unsigned char)w[k]))
			return 0;
		i++;
		k++;
	}
	return k == n ? i : 0;
}

/* The capitalised run at i of p (one to three words): its end, or i. */
static size_t cap_run(const char *p, size_t len, size_t i)
{
	size_t e = i;
	for (int n = 0; n < 3 && e < len && isupper((unsigned char)p[e]); n++) {
		while (e < len && (isalpha((unsigned char)p[e]) || p[e] == '-' || p[e] == '&'))
			e++;
		if (e + 1 < len && p[e] == ' ' && isupper((unsigned char)p[e + 1]))
			e++;
		else
			break;
	}
	return e;
}

/* Whether run [a, b) of p holds a word of name nm. */
static bool run_names(const char *p, size_t a, size_t b, const char *t,
		      const struct sw__verify_name *nm)
{
	for (size_t k = 0; k < nm->n; k++) {
		size_t n = nm->te[k] - nm->ts[k], at;
		if (n >= 2 && word_on(p + a, b - a, t + nm->ts[k], n, 0, &at))
			return true;
	}
	return false;
}

/* Whether run [a, b) of p reads as a party's name: not a heading in
 * capitals ("TESTING"), not a role a contract defines ("Subcontractor",
 * "Owner", "Fabricator": agent nouns stand for the parties the sentence
 * names), not a defined event ("Substantial Completion"). */
static bool party_like(const char *p, size_t a, size_t b)
{
	static const char *const roles[] = { "owner", "party", "parties", "company", "tenant",
					     "landlord", "lessee", "lessor", "employee", "payee",
					     "substantial", "final", "change", "notice", "section",
					     "article", "exhibit", "schedule", "project", "work" };
	size_t caps = 0, letters = 0, w = a;
	for (size_t i = a; i < b; i++)
		if (isalpha((unsigned char)p[i])) {
			letters++;
			caps += isupper((unsigned char)p[i]) != 0;
		}
	if (letters >= 2 && caps == letters)
		return false;
	while (w < b && isalpha((unsigned char)p[w]))
		w++;
	size_t n = w - a;
	if (n >= 5 && (strncmp(p + w - 2, "or", 2) == 0 || strncmp(p + w - 2, "er", 2) == 0 ||
		       strncmp(p + w - 2, "ee", 2) == 0))
		return false;
	for (size_t k = 0; k < SW_ARRAY_LEN(roles); k++)
		if (n == strlen(roles[k]) && strncasecmp(p + a, roles[k], n) == 0)
			return false;
	return true;
}

bool sw__verify_name_role_rival(const char *p, size_t len, const char *t, size_t cs,
				const struct sw__verify_name *nm, size_t *rs, size_t *re)
{
	static const char *const preps[] = { "to", "by", "from", "for", "of", "with" };
	char phrase[64];
	size_t pl = 0;
	bool after = false;
	/* "under contract to Redhawk": the two words before the name */
	size_t b = nm->s;
	while (b > cs && t[b - 1] == ' ')
		b--;
	size_t a = b;
	while (a > cs && isalpha((unsigned char)t[a - 1]))
		a--;
	bool prep = false;
	for (size_t k = 0; k < SW_ARRAY_LEN(preps) && b > a; k++)
		prep |= b - a == strlen(preps[k]) && strncmp(t + a, preps[k], b - a) == 0;
	if (prep) {
		size_t b0 = a;
		while (b0 > cs && t[b0 - 1] == ' ')
			b0--;
		size_t a0 = b0;
		while (a0 > cs && isalpha((unsigned char)t[a0 - 1]))
			a0--;
		if (b0 - a0 >= 4 && islower((unsigned char)t[a0]) && b - a0 < sizeof(phrase) - 2) {
			pl = (size_t)snprintf(phrase, sizeof(phrase), "%.*s %.*s ", (int)(b0 - a0),
					      t + a0, (int)(b - a), t + a);
		}
	} else if (t[nm->e] == '\'' && t[nm->e + 1] == 's' && t[nm->e + 2] == ' ') {
		/* "Redhawk's laborers": the word after the possessive */
		size_t w0 = nm->e + 3, w1 = w0;
		while (isalpha((unsigned char)t[w1]))
			w1++;
		if (w1 - w0 >= 4 && islower((unsigned char)t[w0]) && w1 - w0 < sizeof(phrase) - 1) {
			pl = (size_t)snprintf(phrase, sizeof(phrase), "%.*s", (int)(w1 - w0),
					      t + w0);
			after = true;
		}
	}
	if (!pl)
		return false;
	bool same = false, found = false;
	size_t fs = 0, fe = 0;
	for (size_t i = 0; i < len && !same; i++) {
		if (i > 0 && isalpha((unsigned char)p[i - 1]))
			continue;
		size_t e = words_at(p, len, i, phrase, pl);
		if (!e || (after && ((e < len && isalpha((unsigned char)p[e])) ||
				     !islower((unsigned char)p[i]))))
			continue;
		size_t ms, me;
		if (!after) {
			ms = e;
			me = cap_run(p, len, e);
		} else {
			/* "Tallgrass's laborers", "Tallgrass laborers" */
			size_t k = i;
			while (k > 0 && p[k - 1] == ' ')
				k--;
			if (k >= 2 && p[k - 1] == 's' && p[k - 2] == '\'')
				k -= 2;
			me = k;
			ms = k;
			while (ms > 0 && isalpha((unsigned char)p[ms - 1]))
				ms--;
			if (ms == me || !isupper((unsigned char)p[ms]))
				continue;
		}
		if (me == ms)
			continue;
		if (run_names(p, ms, me, t, nm)) {
			same = true;
		} else if (!found && !stop_word(p + ms, me - ms) && party_like(p, ms, me)) {
			found = true;
			fs = ms;
			fe = me;
		}
	}
	if (same || !found)
		return false;
	*rs = fs;
	*re = fe;
	return true;
}
