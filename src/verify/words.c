/*
 * words.c - a passage read as words for the meaning rules: content words
 * cut to stems ("told" meets "tell", "panels" meets "panel"), the words a
 * negation bears on, whether it sets a condition or a bound, and how many
 * stems two passages share.  rules_polarity.c and rules_qa.c read with it.
 */
#include <ctype.h>
#include <string.h>

#include "verify/rules_int.h"

/* Words that carry no content of their own: they are not compared. */
static const char *const plain[] = {
	"that",	    "this",	 "with",      "from",	   "have",   "been",   "were",
	"about",    "testified", "wrote",     "said",	   "says",   "states", "stated",
	"which",    "would",	 "could",     "should",	   "their",  "there",  "under",
	"after",    "before",	 "into",      "than",	   "then",   "them",   "they",
	"what",	    "when",	 "where",     "while",	   "will",   "shall",  "also",
	"only",	    "each",	 "such",      "does",	   "did",    "doing",  "done",
	"admitted", "conceded",	 "confirmed", "explained", "agreed", "page",   "line",
	"lines",    "those",	 "these",     "upon",	   "over",   "very",   "because",
	"whether",  "his",	 "her",	      "its",	   "has",    "had",    "the",
	"and",	    NULL,
};

static bool plain_word(const char *w)
{
	for (const char *const *p = plain; *p; p++)
		if (strcmp(w, *p) == 0)
			return true;
	return false;
}

/* Words that say the other's opposite, by stem: a sentence with one where
 * its passage has the other says the page the other way ("within" the
 * thirty days, the page's "past" them). */
static const char *const opposite[][2] = {
	{ "within", "past" },
	{ "within", "beyond" },
	{ "issu", "hold" },
	{ "waiv", "reserv" },
	{ "damag", "good" },
	{ "accept", "reject" },
	{ "approv", "reject" },
	{ "grant", "deni" },
	{ "paid", "unpaid" },
	{ "early", "late" },
	/* a change that adds against one that deletes or deducts */
	{ "adds", "delet" },
	{ "add", "delet" },
	{ "adds", "deduct" },
	{ "add", "deduct" },
	{ "increas", "decreas" },
	{ "increas", "deduct" },
	{ "fail", "pass" },
	{ "failed", "passed" },
	/* a thing kept back against one let go */
	{ "releas", "hold" },
	{ "withh", "issu" },
	{ "withh", "releas" },
};

/* The stem opposite to w's, or NULL. */
static const char *opposite_of(const char *w)
{
	for (size_t k = 0; k < SW_ARRAY_LEN(opposite); k++)
		for (int a = 0; a < 2; a++)
			if (strncmp(w, opposite[k][a], strlen(opposite[k][a])) == 0)
				return opposite[k][!a];
	return NULL;
}

/* A negating word: "not", "no" (not "No. 8812"), "never", "none",
 * "nothing", "neither", "nor", "without", "cannot", "denied", "n't". */
bool sw__verify_negation(const char *t, size_t e, size_t end, const char *w)
{
	static const char *const neg[] = { "not",	"never",    "none",	  "nothing",
					   "neither",	"nor",	    "without",	  "cannot",
					   "denied",	"denies",   "deny",	  "nobody",
					   "refused",	"refuses",  "refuse",	  "declined",
					   "declines",	"forbids",  "forbid",	  "forbidden",
					   "prohibits", "prohibit", "prohibited", NULL };
	for (const char *const *p = neg; *p; p++)
		if (strcmp(w, *p) == 0)
			return true;
	if (strcmp(w, "no") == 0)
		return !(
			e + 3 < end && t[e] == '.' && t[e + 1] == ' ' &&
			(isdigit((unsigned char)t[e + 2]) ||
			 (isupper((unsigned char)t[e + 2]) &&
			  (isupper((unsigned char)t[e + 3]) || isdigit((unsigned char)t[e + 3])))));
	size_t n = strlen(w);
	return n > 3 && w[n - 1] == 't' && w[n - 2] == '\'' && w[n - 3] == 'n';
}

/* Cut a word to its stem: lower case, a plural or tense ending off, at
 * most SW__VERIFY_STEM bytes. */
void sw__verify_stem(char *w)
{
	/* irregular past tenses, so that "told" meets "tell" */
	static const char *const irregular[][2] = {
		{ "wrote", "write" },	{ "written", "write" },
		{ "told", "tell" },	{ "sent", "send" },
		{ "paid", "pay" },	{ "made", "make" },
		{ "took", "take" },	{ "taken", "take" },
		{ "gave", "give" },	{ "given", "give" },
		{ "said", "say" },	{ "knew", "know" },
		{ "known", "know" },	{ "drove", "drive" },
		{ "driven", "drive" },	{ "began", "begin" },
		{ "begun", "begin" },	{ "kept", "keep" },
		{ "left", "leave" },	{ "held", "hold" },
		{ "brought", "bring" }, { "bought", "buy" },
		{ "sold", "sell" },	{ "signed", "sign" },
		{ "chose", "choose" },	{ "chosen", "choose" },
		{ "found", "find" },	{ "saw", "see" },
		{ "seen", "see" },	{ "came", "come" },
		{ "went", "go" },	{ "gone", "go" },
		{ "heard", "hear" },	{ "met", "meet" },
		{ "spoke", "speak" },	{ "spoken", "speak" },
		{ "built", "build" },	{ "caught", "catch" },
		{ "broke", "break" },	{ "broken", "break" },
		{ "fell", "fall" },	{ "fallen", "fall" },
		{ "drew", "draw" },	{ "drawn", "draw" },
		{ "shown", "show" },	{ "understood", "understand" },
		{ "thought", "think" },
	};
	for (size_t k = 0; k < SW_ARRAY_LEN(irregular); k++)
		if (strcmp(w, irregular[k][0]) == 0) {
			memcpy(w, irregular[k][1], strlen(irregular[k][1]) + 1);
			break;
		}
	size_t n = strlen(w);
	if (n > 5 && strcmp(w + n - 3, "ing") == 0)
		n -= 3;
	else if (n > 4 && strcmp(w + n - 2, "ed") == 0)
		n -= 2;
	/* "boxes", "matches": the "es" goes; "dates", "issues": the "s" */
	else if (n > 4 && strcmp(w + n - 2, "es") == 0)
		n -= strchr("sxzh", w[n - 3]) ? 2 : 1;
	else if (n > 4 && w[n - 1] == 's')
		n -= 1;
	/* "contractor" is a party, not a contract: an agent noun keeps a
	 * mark of its own past the stem's bytes */
	bool agent = n > SW__VERIFY_STEM && n >= 7 &&
		     (strncmp(w + n - 2, "or", 2) == 0 || strncmp(w + n - 2, "er", 2) == 0);
	if (n > SW__VERIFY_STEM)
		n = SW__VERIFY_STEM;
	if (agent)
		w[n - 1] = '@';
	w[n] = '\0';
}

static void add_stem(struct sw__verify_stems *st, const char *w)
{
	for (size_t k = 0; k < st->n; k++)
		if (strcmp(st->w[k], w) == 0)
			return;
	if (st->n < SW__VERIFY_STEMS)
		memcpy(st->w[st->n++], w, strlen(w) + 1);
}

/* Whether the words after a ", not" at i run to the next comma within
 * three words ("Tallgrass, not Redhawk, was"). */
static bool contrast(const char *t, size_t i, size_t e)
{
	size_t words = 0;
	for (size_t k = i; k < e; k++) {
		if (t[k] == ',')
			return words >= 1 && words <= 3;
		if (t[k] == '.' || t[k] == ';')
			return false;
		if (isalpha((unsigned char)t[k]) && (k == i || !isalpha((unsigned char)t[k - 1])))
			words++;
	}
	return false;
}

/* The words of t[s, e) outside the spans sp; a sentence's words inside
 * its names nm are also kept in named: they add to what a passage shares
 * but not to how much of the sentence it must. */
void sw__verify_read_words(const char *t, size_t s, size_t e, const struct sw__verify_range *sp,
			   size_t nsp, struct sw__verify_reading *rd,
			   const struct sw__verify_name *nm, size_t nnm)
{
	size_t i = s;
	int pending = 0; /* words left for a negation's target */
	int target_words = 0;
	bool bound_next = false;
	memset(rd, 0, sizeof(*rd));
	while (i < e) {
		if (!isalpha((unsigned char)t[i])) {
			i++;
			continue;
		}
		size_t b = i;
		while (i < e && (isalpha((unsigned char)t[i]) ||
				 (t[i] == '\'' && i + 1 < e && t[i + 1] == 't')))
			i++;
		bool skip = false;
		for (size_t k = 0; k < nsp && !skip; k++)
			skip = sp[k].s <= b && b < sp[k].e;
		if (skip)
			continue;
		char w[24];
		size_t n = i - b < sizeof(w) - 1 ? i - b : sizeof(w) - 1;
		for (size_t k = 0; k < n; k++)
			w[k] = (char)tolower((unsigned char)t[b + k]);
		w[n] = '\0';
		if (rd->neg &&
		    (!strcmp(w, "until") || !strcmp(w, "unless") || !strcmp(w, "except")))
			rd->cond = true; /* "no credit until they pay" */
		if (rd->neg && !strcmp(w, "until"))
			rd->until = true;
		/* "Options: (a) tell Redhawk to release the crane": a choice
		 * laid out, not a thing said to be so */
		if (!strcmp(w, "options") || !strcmp(w, "option") || !strcmp(w, "alternatively") ||
		    (!strcmp(w, "whether") && !rd->neg))
			rd->cond = true;
		if (!strcmp(w, "before") && !pending)
			rd->before = true;
		if (!strcmp(w, "already"))
			rd->already = true;
		if (bound_next &&
		    (!strcmp(w, "earlier") || !strcmp(w, "later") || !strcmp(w, "more") ||
		     !strcmp(w, "less") || !strcmp(w, "fewer") || !strcmp(w, "longer")))
			rd->cond = true;
		bound_next = false;
		/* "rather than wait": what follows is not done */
		bool rather = !strcmp(w, "than") && b >= s + 7 && !strncmp(t + b - 7, "rather ", 7);
		if (rather || sw__verify_negation(t, i, e, w)) {
			/* "Credit applied: none" and a witness's "A.  No." bear on
			 * all the passage says */
			size_t k = b;
			while (k > s && t[k - 1] == ' ')
				k--;
			bool answer = k >= s + 2 && t[k - 1] == '.' && t[k - 2] == 'A' &&
				      (k == s + 2 || !isalpha((unsigned char)t[k - 3]));
			/* "Tallgrass, not Redhawk, was to furnish": a correction
			 * of who, no denial of what */
			if (!strcmp(w, "not") && k > s && t[k - 1] == ',' && contrast(t, i, e))
				continue;
			if ((!strcmp(w, "none") && k > s && t[k - 1] == ':') || answer)
				rd->all = true;
			rd->neg = true;
			pending = nm ? 5 : 3;
			target_words = 0;
			bound_next = true;
			continue;
		}
		if (pending)
			pending--;
		if (n < 4 || plain_word(w))
			continue;
		sw__verify_stem(w);
		for (size_t k = 0; k < nnm; k++)
			if (nm[k].s <= b && b < nm[k].e)
				add_stem(&rd->named, w);
		add_stem(&rd->st, w);
		/* what a negation bears on: the next content words, up to three
		 * ("does not require Tallgrass to identify") */
		if (pending) {
			add_stem(&rd->targets, w);
			if (++target_words >= (nm ? 3 : 1)) {
				pending = 0;
				target_words = 0;
			}
		}
	}
}

/* Whether stems a and b are one word: equal, or one the other's start of
 * four bytes or more ("writ" and "write"). */
bool sw__verify_same_stem(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), n = na < nb ? na : nb;
	return n >= 4 && strncmp(a, b, n) == 0;
}

size_t sw__verify_shared_stems(const struct sw__verify_stems *x, const struct sw__verify_stems *y)
{
	size_t n = 0;
	for (size_t a = 0; a < x->n; a++)
		for (size_t b = 0; b < y->n; b++)
			if (sw__verify_same_stem(x->w[a], y->w[b])) {
				n++;
				break;
			}
	return n;
}

/* How many of x's stems have their opposite among y's (and are not in y
 * themselves). */
size_t sw__verify_opposed(const struct sw__verify_stems *x, const struct sw__verify_stems *y)
{
	size_t n = 0;
	for (size_t a = 0; a < x->n; a++) {
		const char *o = opposite_of(x->w[a]);
		if (!o)
			continue;
		bool self = false, other = false;
		for (size_t b = 0; b < y->n; b++) {
			self |= sw__verify_same_stem(x->w[a], y->w[b]);
			other |= strncmp(y->w[b], o, strlen(o)) == 0;
		}
		if (other && !self)
			n++;
	}
	return n;
}

/* How many of the sentence's stems the passage p[s, e) holds; its reading in *rd. */
size_t sw__verify_shared(const struct sw__verify_stems *sent, const char *p, size_t s, size_t e,
			 struct sw__verify_reading *rd)
{
	sw__verify_read_words(p, s, e, NULL, 0, rd, NULL, 0);
	return sw__verify_shared_stems(sent, &rd->st) + sw__verify_opposed(sent, &rd->st);
}

bool sw__verify_has_stem(const struct sw__verify_stems *st, const char *w)
{
	for (size_t k = 0; k < st->n; k++)
		if (sw__verify_same_stem(st->w[k], w))
			return true;
	return false;
}

size_t sw__verify_stems_of(const char *t, size_t s, size_t e, size_t max,
			   struct sw__verify_stems *st)
{
	if (max > SW__VERIFY_STEMS)
		max = SW__VERIFY_STEMS;
	for (size_t i = s; i < e && st->n < max;) {
		while (i < e && !isalpha((unsigned char)t[i]))
			i++;
		size_t b = i;
		while (i < e && isalpha((unsigned char)t[i]))
			i++;
		char w[24];
		size_t n = i - b < sizeof(w) - 1 ? i - b : sizeof(w) - 1;
		if (n < 4)
			continue;
		for (size_t k = 0; k < n; k++)
			w[k] = (char)tolower((unsigned char)t[b + k]);
		w[n] = '\0';
		sw__verify_stem(w);
		memcpy(st->w[st->n++], w, strlen(w) + 1);
	}
	return st->n;
}
