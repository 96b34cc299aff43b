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
#include <strings.h>

#include <jansson.h>

#include "authority/authority_int.h"

struct abbrev {
	char *word; /* lower case, no final period */
	char *as;   /* the canonical word: the abbreviation's, lower case */
};

static struct abbrev *abbrevs;
static size_t nabbrevs;
static pthread_once_t abbrev_once = PTHREAD_ONCE_INIT;

/* The words of the table, hashed (open addressing, at most half full):
 * each word's canonical form as the sorted table's binary search finds
 * it, so that a word listed twice ("county" as "cnty" and "cty") reads as
 * it always did.  One hash and about one comparison a word, where the
 * search took nine. */
static const struct abbrev **slots;
static size_t nslots;

/* Lower-case s[0..n) without periods into dst[cap] (cut to fit): its
 * length. */
static size_t word_key_to(char *dst, size_t cap, const char *s, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < cap; i++)
		if (s[i] != '.')
			dst[o++] = (char)tolower((unsigned char)s[i]);
	dst[o] = '\0';
	return o;
}

/* Lower-case s without periods into a new string. */
static char *word_key(const char *s)
{
	size_t n = strlen(s);
	char *k = sw_xmalloc(n + 1);
	word_key_to(k, n + 1, s, n);
	return k;
}

static int cmp_abbrev(const void *a, const void *b)
{
	return strcmp(((const struct abbrev *)a)->word, ((const struct abbrev *)b)->word);
}

/* FNV-1a. */
static size_t hash_word(const char *w)
{
	uint32_t h = 2166136261u;
	for (; *w; w++)
		h = (h ^ (unsigned char)*w) * 16777619u;
	return h;
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
	json_t *root = json_loadb((const char *)sw__authority_abbrev_json, sw__authority_abbrev_json_len,
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
	for (nslots = 16; nslots < 2 * nabbrevs + 1;)
		nslots *= 2;
	slots = sw_xcalloc(nslots, sizeof(*slots));
	for (size_t i = 0; i < nabbrevs; i++) {
		const struct abbrev *hit =
			bsearch(&abbrevs[i], abbrevs, nabbrevs, sizeof(*abbrevs), cmp_abbrev);
		size_t h = hash_word(hit->word) & (nslots - 1);
		while (slots[h] && strcmp(slots[h]->word, hit->word) != 0)
			h = (h + 1) & (nslots - 1);
		slots[h] = hit;
	}
}

const char *sw__authority_abbrev(const char *w)
{
	pthread_once(&abbrev_once, load_abbrevs);
	for (size_t h = hash_word(w) & (nslots - 1); slots[h]; h = (h + 1) & (nslots - 1))
		if (strcmp(slots[h]->word, w) == 0)
			return slots[h]->as;
	return NULL;
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
		if (w[0] == words[i][0] && strcmp(w, words[i]) == 0)
			return true;
	return false;
}

static bool is_versus(const char *w)
{
	return strcmp(w, "v") == 0 || strcmp(w, "vs") == 0 || strcmp(w, "versus") == 0;
}

/* ------------------------------------------------------- a cited name */

/* Signals and connectives that may open a cited name ("See also", "Cf.",
 * "But see", "e.g.,"), longest first: never part of the name. */
static const char *const signals[] = {
	"see generally", "see also", "see, e.g.,", "see e.g.,", "see, e.g.", "but see",
	"but cf.", "see", "cf.", "compare", "accord", "contra", "e.g.,", "e.g.", "and",
	"with", "also", "but", "citing", "quoting",
};

/* Lower-case words that may sit inside a party's name. */
static bool connective(const char *w, size_t n)
{
	static const char *const words[] = {
		"of", "the", "de", "del", "della", "la", "le", "van", "von", "da", "du", "des",
		"di", "ex", "rel.", "rel", "and", "&", "for", "on", "a", "an", "et", "al.", "y",
		"e", "in", "re", "to", "at", "by", "d'", "l'",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(words); i++)
		if (strlen(words[i]) == n && strncmp(w, words[i], n) == 0)
			return true;
	return false;
}

static bool word_has_upper(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isupper((unsigned char)w[i]) || isdigit((unsigned char)w[i]) ||
		    (unsigned char)w[i] >= 0x80)
			return true;
	return false;
}

/* Strip the signals at the start of s[*i..n). */
static void skip_signals(const char *s, size_t n, size_t *i)
{
	for (bool again = true; again;) {
		again = false;
		while (*i < n && (isspace((unsigned char)s[*i]) || s[*i] == ','))
			(*i)++;
		for (size_t k = 0; k < SW_ARRAY_LEN(signals); k++) {
			size_t l = strlen(signals[k]);
			if (*i + l <= n && strncasecmp(s + *i, signals[k], l) == 0 &&
			    (*i + l == n || isspace((unsigned char)s[*i + l]) || s[*i + l] == ',' ||
			     signals[k][l - 1] == ',')) {
				*i += l;
				again = true;
				break;
			}
		}
	}
}

char *sw_authority_name_clean(const char *name)
{
	size_t n = strnlen(name, SW_AUTHORITY_MAX_NAME), i = 0;
	skip_signals(name, n, &i);
	/* The first party ends at the first " v. ". */
	size_t v = n;
	for (size_t k = i; k + 3 <= n; k++) {
		if ((k == 0 || isspace((unsigned char)name[k - 1])) &&
		    (name[k] == 'v' || name[k] == 'V') &&
		    (k + 1 == n || name[k + 1] == '.' || isspace((unsigned char)name[k + 1]) ||
		     (name[k + 1] == 's' && k + 2 < n && name[k + 2] == '.'))) {
			v = k;
			break;
		}
	}
	/* Words of a sentence before the name ("As the Supreme Court held
	 * in", "the Court in"), and a leading "In" that is not "In re": the
	 * name starts after the last of them. */
	size_t start = i;
	for (size_t k = i; k < v;) {
		while (k < v && isspace((unsigned char)name[k]))
			k++;
		size_t e = k;
		while (e < v && !isspace((unsigned char)name[e]))
			e++;
		if (e == k)
			break;
		size_t wl = e - k;
		const char *w = name + k;
		size_t next = e;
		while (next < v && isspace((unsigned char)name[next]))
			next++;
		bool next_re = next + 2 <= n && strncasecmp(name + next, "re", 2) == 0 &&
			       (next + 2 == n || !isalpha((unsigned char)name[next + 2]));
		bool next_matter = next + 6 <= n && strncasecmp(name + next, "matter", 6) == 0;
		bool next_the_matter = next + 10 <= n && strncasecmp(name + next, "the matter", 10) == 0;
		if (wl == 2 && (w[0] == 'I' || w[0] == 'i') && w[1] == 'n' && !next_re &&
		    !next_matter && !next_the_matter)
			start = e; /* "In Celotex", "held in Iqbal" */
		else if (!word_has_upper(w, wl) && !connective(w, wl))
			start = e; /* "held", "court" */
		k = e;
	}
	skip_signals(name, n, &start);
	while (n > start && (isspace((unsigned char)name[n - 1]) || name[n - 1] == ','))
		n--;
	return sw_xstrndup(name + start, n - start);
}

bool sw_authority_name_readable(const char *name)
{
	if (!name)
		return false;
	for (const char *p = name; *p; p++)
		if (strchr("*_`#[]<>|~", *p))
			return false; /* markup left in it: the name was cut */
	char *c = sw_authority_name_clean(name);
	char *k = sw_authority_name_key(c);
	bool ok = k[0] != '\0' && k[0] != '|';
	size_t kl = strlen(k);
	if (ok && kl >= 1 && k[kl - 1] == '|')
		ok = false; /* "Smith v." */
	free(k);
	free(c);
	return ok;
}

/* States and places written out or abbreviated (Bluebook T10), as one
 * word each: "Pa." and "Pennsylvania", "N.Y." and "New York". */
static const char *const places[][2] = {
	{ "ala", "alabama" }, { "ariz", "arizona" }, { "ark", "arkansas" },
	{ "cal", "california" }, { "calif", "california" }, { "colo", "colorado" },
	{ "conn", "connecticut" }, { "del", "delaware" }, { "fla", "florida" },
	{ "ga", "georgia" }, { "haw", "hawaii" }, { "ill", "illinois" }, { "ind", "indiana" },
	{ "kan", "kansas" }, { "ky", "kentucky" }, { "md", "maryland" },
	{ "mass", "massachusetts" }, { "mich", "michigan" }, { "minn", "minnesota" },
	{ "miss", "mississippi" }, { "mo", "missouri" }, { "mont", "montana" },
	{ "neb", "nebraska" }, { "nev", "nevada" }, { "okla", "oklahoma" },
	{ "pa", "pennsylvania" }, { "tenn", "tennessee" }, { "tex", "texas" },
	{ "vt", "vermont" }, { "va", "virginia" }, { "wash", "washington" },
	{ "wis", "wisconsin" }, { "wyo", "wyoming" }, { "austl", "australia" },
	{ "us", "united states" }, { "usa", "united states of america" },
	{ "ny", "new york" }, { "nj", "new jersey" }, { "nh", "new hampshire" },
	{ "nm", "new mexico" }, { "nc", "north carolina" }, { "nd", "north dakota" },
	{ "sc", "south carolina" }, { "sd", "south dakota" }, { "ri", "rhode island" },
	{ "wva", "west virginia" }, { "wva", "w va" }, { "dc", "district of columbia" },
};

/* The places either of whose spellings starts with a letter, in the
 * table's order (the first that matches wins): a word tries only those. */
static unsigned char place_by_letter[26][SW_ARRAY_LEN(places)];
static size_t nplace_by_letter[26];
static pthread_once_t places_once = PTHREAD_ONCE_INIT;

static void index_places(void)
{
	for (size_t p = 0; p < SW_ARRAY_LEN(places); p++)
		for (int s = 0; s < 2; s++) {
			unsigned char c = (unsigned char)places[p][s][0];
			if (c < 'a' || c > 'z')
				SW_BUG("the place '%s' does not start with a small letter", places[p][s]);
			size_t l = (size_t)(c - 'a');
			if (s == 1 && places[p][0][0] == places[p][1][0])
				continue;
			place_by_letter[l][nplace_by_letter[l]++] = (unsigned char)p;
		}
}

#define KEY_WORDS 64
#define KEY_WORD 64

struct kwords {
	char w[KEY_WORDS][KEY_WORD];
	size_t n;
};

/* Words i.. of k spell phrase (space-separated): the number of words. */
static size_t spells(const struct kwords *k, size_t i, const char *phrase)
{
	size_t n = 0;
	while (*phrase) {
		const char *e = strchr(phrase, ' ');
		size_t l = e ? (size_t)(e - phrase) : strlen(phrase);
		if (i + n >= k->n || strlen(k->w[i + n]) != l || strncmp(k->w[i + n], phrase, l) != 0)
			return 0;
		n++;
		phrase += l;
		if (*phrase == ' ')
			phrase++;
	}
	return n;
}

static void put_word(struct kwords *k, const char *w, size_t n)
{
	if (k->n == KEY_WORDS)
		return;
	if (n >= KEY_WORD)
		n = KEY_WORD - 1;
	memcpy(k->w[k->n], w, n);
	k->w[k->n][n] = '\0';
	k->n++;
}

/* The words of a folded name, each made canonical: abbreviations, an
 * apostrophe's "Ass'n", plurals.  Only the first KEY_WORDS are kept, so
 * reading stops there (a long text was read to its end, each word copied
 * and looked up, and dropped). */
static void read_words(struct kwords *out, const char *p, const char *end)
{
	out->n = 0;
	while (p < end && out->n < KEY_WORDS) {
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
		/* The word's first 127 bytes, as a key in a buffer of the stack
		 * (a string a word, allocated and freed, was most of the time
		 * a name took). */
		size_t n = (size_t)(p - w) < 127 ? (size_t)(p - w) : 127;
		char k[128];
		word_key_to(k, sizeof(k), w, n);
		/* Apostrophes: "Ass'n" is an abbreviation, "Smith's" a name. */
		const char *as = sw__authority_abbrev(k);
		if (!as) {
			char *q = k, *o = k;
			for (; *q; q++)
				if (*q != '\'')
					*o++ = *q;
			*o = '\0';
			size_t kl = strlen(k);
			if (kl > 1 && k[kl - 1] == 's' && memchr(w, '\'', n))
				k[kl - 1] = '\0';
			as = sw__authority_abbrev(k);
			/* Plurals: "Mfrs." and "Manufacturers" are "Mfr." made plural. */
			kl = strlen(k);
			if (!as && kl > 3 && k[kl - 1] == 's') {
				k[kl - 1] = '\0';
				as = sw__authority_abbrev(k);
				if (!as)
					k[kl - 1] = 's';
			}
		}
		const char *word = as ? as : k;
		put_word(out, word, strlen(word));
	}
}

/* A single letter that is not "v". */
static bool letter(const char *w)
{
	return w[0] && !w[1] && isalpha((unsigned char)w[0]) && w[0] != 'v';
}

/* The words of k into o: runs of single letters are one word ("P. A." is
 * "P.A.", "U. S." is "U.S."), "AT & T" is "AT&T", and places are one word
 * each. */
static void join_words(struct kwords *o, const struct kwords *k)
{
	o->n = 0;
	for (size_t i = 0; i < k->n;) {
		size_t l = strlen(k->w[i]);
		if (letter(k->w[i]) && i + 1 < k->n && letter(k->w[i + 1])) {
			char buf[KEY_WORD];
			size_t n = 0;
			while (i < k->n && letter(k->w[i]) && n + 1 < sizeof(buf))
				buf[n++] = k->w[i++][0];
			put_word(o, buf, n);
			continue;
		}
		if (i + 2 < k->n && strcmp(k->w[i + 1], "&") == 0 && l <= 2 && strlen(k->w[i + 2]) <= 2) {
			char buf[KEY_WORD];
			int n = snprintf(buf, sizeof(buf), "%s&%s", k->w[i], k->w[i + 2]);
			put_word(o, buf, (size_t)n);
			i += 3;
			continue;
		}
		size_t used = 0;
		const char *as = NULL;
		unsigned char c = (unsigned char)k->w[i][0];
		/* Neither spelling can match a word of another first letter. */
		size_t nc = c >= 'a' && c <= 'z' ? nplace_by_letter[c - 'a'] : 0;
		for (size_t j = 0; j < nc && !used; j++) {
			size_t p = place_by_letter[c - 'a'][j];
			size_t u = spells(k, i, places[p][1]);
			if (u) {
				used = u;
				as = places[p][0];
			} else if (strcmp(k->w[i], places[p][0]) == 0) {
				used = 1;
				as = places[p][0];
			}
		}
		if (used) {
			put_word(o, as, strlen(as));
			i += used;
			continue;
		}
		put_word(o, k->w[i], l);
		i++;
	}
}

char *sw_authority_name_key(const char *name)
{
	struct sw_buf out = SW_BUF_INIT;
	struct sw_fold f;
	sw_fold(&f, name, strnlen(name, SW_AUTHORITY_MAX_NAME),
		SW_FOLD_CASE | SW_FOLD_MARKS | SW_FOLD_SPACE);
	/* Both word lists on the stack: 8 KB, no allocation. */
	pthread_once(&places_once, index_places);
	struct kwords words, joined;
	read_words(&words, f.text, f.text + f.len);
	join_words(&joined, &words);
	const struct kwords *k = &joined;
	bool party_open = false, prev_in = false, versus = false;
	for (size_t i = 0; i < k->n; i++) {
		const char *word = k->w[i];
		if (is_versus(word) && !versus) {
			/* The first "v." splits the parties, even after an empty
			 * first party ("Corp. v. Catrett"). */
			sw_buf_adds(&out, out.len ? " |" : "|");
			party_open = false;
			prev_in = false;
			versus = true;
		} else if (strcmp(word, "in") == 0 && !party_open && out.len == 0) {
			prev_in = true; /* "In re": a marker, not noise */
		} else if (prev_in && (strcmp(word, "re") == 0 || strcmp(word, "matter") == 0)) {
			sw_buf_adds(&out, "in-re");
			party_open = true;
			prev_in = false;
		} else if (!noise(word) && word[0] && !is_versus(word)) {
			if (out.len)
				sw_buf_addc(&out, ' ');
			sw_buf_adds(&out, word);
			party_open = true;
			prev_in = false;
		}
	}
	sw_fold_release(&f);
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
			if (pi == 0) {
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

/* "NAACP" for "National Association for the Advancement of Colored
 * People", "NRDC" for "Natural Resources Defense Council": a one-word
 * party that spells the initials of three or more words of the other. */
static bool acronym(const struct party *a, const struct party *b)
{
	if (a->n != 1 || b->n < 3)
		return false;
	const char *w = a->w[0];
	size_t n = strlen(w);
	if (n != b->n || n > 8)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalpha((unsigned char)w[i]) || b->w[i][0] != w[i])
			return false;
	return true;
}

static bool party_match(const struct party *a, const struct party *b)
{
	return subset(a, b) || acronym(a, b) || acronym(b, a);
}

bool sw_authority_names_match(const char *cited, const char *stored)
{
	char *clean = sw_authority_name_clean(cited);
	char *ck = sw_authority_name_key(clean);
	free(clean);
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
		ok = party_match(&cp[0], &sp[0]) || (sn == 2 && party_match(&cp[0], &sp[1]));
	} else {
		ok = party_match(&cp[0], &sp[0]) || subset(&sp[0], &cp[0]);
		if (ok && cn == 2 && sn == 2)
			ok = share(&cp[1], &sp[1]) || acronym(&cp[1], &sp[1]) ||
			     acronym(&sp[1], &cp[1]);
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
