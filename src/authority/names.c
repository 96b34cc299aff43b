/* names.c - comparing case names as lawyers write them.
 *
 * "Bell Atl. Corp. v. Twombly" and "Bell Atlantic Corporation v. Twombly"
 * are one case; "Varghese v. China Southern Airlines" and "J.D. v. Azar" are
 * not.  Names are reduced to keys (words made canonical through reporters-db's
 * case-name abbreviations, noise words dropped, parties split) and compared
 * party by party.  The abbreviation table is read once from the embedded
 * JSON, under pthread_once, so matching is thread-safe. */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "authority/authority_int.h"

struct abbrev {
	char *word; /* lower case, no final period */
	char *as;   /* the canonical word: the abbreviation's, lower case */
};

static struct abbrev *abbrevs;
static size_t nabbrevs;
static pthread_once_t abbrev_once = PTHREAD_ONCE_INIT;

/* Lower-case s without periods into a new string. */
static char *word_key(const char *s)
{
	struct sw_buf b = SW_BUF_INIT;
	for (; *s; s++)
		if (*s != '.')
			sw_buf_addc(&b, (char)tolower((unsigned char)*s));
	return sw_buf_detach(&b, NULL);
}

static int cmp_abbrev(const void *a, const void *b)
{
	return strcmp(((const struct abbrev *)a)->word, ((const struct abbrev *)b)->word);
}

static void add_abbrev(size_t *cap, const char *word, const char *as)
{
	if (strchr(word, ' '))
		return; /* one word for one word only */
	abbrevs = sw_xgrow(abbrevs, cap, nabbrevs + 1, sizeof(*abbrevs));
	abbrevs[nabbrevs].word = word_key(word);
	abbrevs[nabbrevs].as = word_key(as);
	nabbrevs++;
}

static void load_abbrevs(void)
{
	size_t cap = 0;
	json_error_t jerr;
	json_t *root = json_loadb((const char *)sw__auth_abbrev_json, sw__auth_abbrev_json_len,
				  0, &jerr);
	if (!json_is_object(root))
		SW_BUG("the embedded case-name abbreviations are not a JSON object: %s", jerr.text);
	const char *key;
	json_t *v;
	json_object_foreach(root, key, v) {
		add_abbrev(&cap, key, key);
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e)
			if (json_is_string(e))
				add_abbrev(&cap, json_string_value(e), key);
	}
	json_decref(root);
	qsort(abbrevs, nabbrevs, sizeof(*abbrevs), cmp_abbrev);
}

const char *sw__auth_abbrev(const char *w)
{
	pthread_once(&abbrev_once, load_abbrevs);
	struct abbrev k = { (char *)(uintptr_t)w, NULL };
	const struct abbrev *hit = bsearch(&k, abbrevs, nabbrevs, sizeof(*abbrevs), cmp_abbrev);
	return hit ? hit->as : NULL;
}

/* Words that say nothing about which case it is. */
static bool noise(const char *w)
{
	static const char *const words[] = {
		"the", "of", "a", "an", "and", "&", "for", "in", "on", "at", "to",
		"inc", "incorporated", "corp", "corporation", "co", "company", "llc",
		"ltd", "limited", "lp", "llp", "plc", "na", "sa", "et", "al", "etc",
		"cos", "cas",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(words); i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

static bool is_versus(const char *w)
{
	return strcmp(w, "v") == 0 || strcmp(w, "vs") == 0 || strcmp(w, "versus") == 0;
}

char *sw_authority_name_key(const char *name)
{
	struct sw_buf out = SW_BUF_INIT;
	const char *p = name;
	size_t len = strnlen(name, SW_AUTHORITY_MAX_NAME);
	const char *end = name + len;
	bool party_open = false, prev_in = false;
	while (p < end) {
		while (p < end && !(isalnum((unsigned char)*p) || *p == '&' ||
				    (unsigned char)*p >= 0x80))
			p++;
		const char *w = p;
		while (p < end && (isalnum((unsigned char)*p) || *p == '.' || *p == '\'' ||
				   *p == '&' || (unsigned char)*p >= 0x80)) {
			if (*p == '.' && p + 1 < end && isalpha((unsigned char)p[1]) &&
			    !(p + 2 < end && p[2] == '.'))
				break; /* "Corp.v." runs on; "J.D." is one word */
			p++;
		}
		if (p < end && *p == '.')
			p++;
		if (p == w)
			continue;
		char raw[128];
		size_t n = (size_t)(p - w) < sizeof(raw) - 1 ? (size_t)(p - w) : sizeof(raw) - 1;
		memcpy(raw, w, n);
		raw[n] = '\0';
		char *k = word_key(raw);
		/* Apostrophes: "Ass'n" is an abbreviation, "Smith's" a name. */
		const char *as = sw__auth_abbrev(k);
		if (!as) {
			char *q = k, *o = k;
			for (; *q; q++)
				if (*q != '\'')
					*o++ = *q;
			*o = '\0';
			size_t kl = strlen(k);
			if (kl > 1 && k[kl - 1] == 's' && strchr(raw, '\''))
				k[kl - 1] = '\0';
			as = sw__auth_abbrev(k);
			/* Plurals: "Mfrs." and "Manufacturers" are "Mfr." made plural. */
			kl = strlen(k);
			if (!as && kl > 3 && k[kl - 1] == 's') {
				k[kl - 1] = '\0';
				as = sw__auth_abbrev(k);
				if (!as)
					k[kl - 1] = 's';
			}
		}
		const char *word = as ? as : k;
		if (is_versus(word)) {
			if (party_open || out.len)
				sw_buf_adds(&out, " |");
			party_open = false;
			prev_in = false;
		} else if (strcmp(word, "in") == 0 && !party_open && out.len == 0) {
			prev_in = true; /* "In re": a marker, not noise */
		} else if (prev_in && (strcmp(word, "re") == 0 || strcmp(word, "matter") == 0)) {
			sw_buf_adds(&out, "in-re");
			party_open = true;
			prev_in = false;
		} else if (!noise(word) && word[0]) {
			if (out.len)
				sw_buf_addc(&out, ' ');
			sw_buf_adds(&out, word);
			party_open = true;
			prev_in = false;
		}
		free(k);
	}
	return sw_buf_detach(&out, NULL);
}

/* The words of one party, split in place. */
struct party {
	char *w[32];
	size_t n;
};

static void split_parties(struct party parties[2], size_t *nparties, char *key)
{
	memset(parties, 0, 2 * sizeof(parties[0]));
	*nparties = 1;
	size_t pi = 0;
	char *p = key;
	while (*p) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		if (*p == '|') {
			*p++ = '\0';
			if (pi == 0 && parties[0].n > 0) {
				pi = 1;
				*nparties = 2;
			}
			continue;
		}
		char *w = p;
		while (*p && *p != ' ' && *p != '|')
			p++;
		if (*p == ' ')
			*p++ = '\0';
		if (parties[pi].n < SW_ARRAY_LEN(parties[pi].w))
			parties[pi].w[parties[pi].n++] = w;
	}
	if (*nparties == 2 && parties[1].n == 0)
		*nparties = 1;
}

static bool in_party(const struct party *p, const char *w)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->w[i], w) == 0)
			return true;
	return false;
}

/* Every word of a is in b. */
static bool subset(const struct party *a, const struct party *b)
{
	if (a->n == 0)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!in_party(b, a->w[i]))
			return false;
	return true;
}

static bool share(const struct party *a, const struct party *b)
{
	for (size_t i = 0; i < a->n; i++)
		if (in_party(b, a->w[i]))
			return true;
	return false;
}

static bool generic(const struct party *p)
{
	static const char *const words[] = {
		"united", "states", "us", "usa", "state", "people", "commonwealth",
		"in-re", "government", "city", "county", "commissioner", "secretary",
	};
	for (size_t i = 0; i < p->n; i++) {
		bool g = false;
		for (size_t j = 0; j < SW_ARRAY_LEN(words); j++)
			if (strcmp(p->w[i], words[j]) == 0)
				g = true;
		if (!g)
			return false;
	}
	return true;
}

bool sw_authority_names_match(const char *cited, const char *stored)
{
	char *ck = sw_authority_name_key(cited);
	char *sk = sw_authority_name_key(stored);
	struct party cp[2], sp[2];
	size_t cn, sn;
	bool one_party = !strchr(ck, '|');
	split_parties(cp, &cn, ck);
	split_parties(sp, &sn, sk);
	bool ok;
	if (cp[0].n == 0 || sp[0].n == 0) {
		ok = false;
	} else if (one_party) {
		/* One party named: a short form's "Twombly". */
		ok = subset(&cp[0], &sp[0]) || (sn == 2 && subset(&cp[0], &sp[1]));
	} else {
		ok = subset(&cp[0], &sp[0]) || subset(&sp[0], &cp[0]);
		if (ok && cn == 2 && sn == 2)
			ok = share(&cp[1], &sp[1]);
		if (ok && generic(&cp[0]) && !(cn == 2 && sn == 2))
			ok = cn == sn;
	}
	free(ck);
	free(sk);
	return ok;
}

/* A court reduced for comparison: lower case, no periods or spaces, the
 * federal appellate courts and the Supreme Court as CourtListener's ids. */
static void court_key(char *out, size_t outsz, const char *court)
{
	char k[64];
	size_t n = 0;
	for (const char *p = court; *p && n + 1 < sizeof(k); p++)
		if (*p != '.' && !isspace((unsigned char)*p))
			k[n++] = (char)tolower((unsigned char)*p);
	k[n] = '\0';
	static const char *const ord[] = { "1st", "2d", "3d", "4th", "5th", "6th", "7th",
					   "8th", "9th", "10th", "11th" };
	static const char *const ord2[] = { "first", "2nd", "3rd" };
	for (size_t i = 0; i < SW_ARRAY_LEN(ord); i++) {
		char want[16];
		snprintf(want, sizeof(want), "%scir", ord[i]);
		if (strcmp(k, want) == 0) {
			snprintf(out, outsz, "ca%zu", i + 1);
			return;
		}
		if (i < SW_ARRAY_LEN(ord2)) {
			snprintf(want, sizeof(want), "%scir", ord2[i]);
			if (strcmp(k, want) == 0) {
				snprintf(out, outsz, "ca%zu", i + 1);
				return;
			}
		}
	}
	if (strcmp(k, "dccir") == 0)
		snprintf(out, outsz, "cadc");
	else if (strcmp(k, "fedcir") == 0)
		snprintf(out, outsz, "cafc");
	else if (strcmp(k, "us") == 0 || strcmp(k, "scotus") == 0 || strcmp(k, "ussupct") == 0 ||
		 strcmp(k, "supremecourt") == 0)
		snprintf(out, outsz, "scotus");
	else
		snprintf(out, outsz, "%s", k);
}

static bool known_court(const char *k)
{
	if (strcmp(k, "scotus") == 0 || strcmp(k, "cadc") == 0 || strcmp(k, "cafc") == 0)
		return true;
	if (k[0] == 'c' && k[1] == 'a' && isdigit((unsigned char)k[2]))
		return true;
	return false;
}

bool sw_authority_courts_match(const char *cited, const char *stored)
{
	if (!cited || !stored || !*cited || !*stored)
		return true;
	char a[64], b[64];
	court_key(a, sizeof(a), cited);
	court_key(b, sizeof(b), stored);
	if (strcmp(a, b) == 0)
		return true;
	if (known_court(a) && known_court(b))
		return false;
	/* Two Bluebook abbreviations ("S.D.N.Y.", "N.D. Cal.") can be compared;
	 * one of them and a CourtListener id ("nysd") cannot without a table of
	 * every court, so that is no contradiction. */
	bool a_bluebook = strchr(cited, '.') != NULL, b_bluebook = strchr(stored, '.') != NULL;
	return a_bluebook != b_bluebook;
}
