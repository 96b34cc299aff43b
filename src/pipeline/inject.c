/*
 * inject.c - text in evidence that reads as instructions to a model.
 *
 * Evidence is data, and the prompt says so; but a page that tells a model
 * to ignore its instructions, carries chat-role tags or a fake system
 * message, asks for the prompt, or asks for a citation or a verdict is
 * worth showing the lawyer, whoever wrote it.  The scan is a small table of
 * word patterns over the folded page, plus literal chat-template tags.  The
 * fold undoes the disguises an attacker reaches for: NFKC, case and marks
 * ("ＩＧＮＯＲＥ"), zero-width characters and soft hyphens ("ig\u200bnore"),
 * Cyrillic and Greek look-alikes ("Ignоre" with a Cyrillic o), a word
 * hyphenated across a line end, letters spaced out ("i g n o r e"), and
 * markup comments (their text is read; an empty one inside a word joins
 * it).  Flags keep the page's own offsets, so excerpts show what was
 * written.
 *
 * Ordinary legal text must not trip it: "the instructions of the buyer", "I
 * was instructed", "you are now in breach", "the jury returned a verdict",
 * "please cite the PO number" all pass.  So every pattern wants words that
 * address a model (previous instructions, system prompt, a role tag) rather
 * than a single telling word, and "assistant:" at a line start counts only
 * on a page that also has a user or system turn.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

#define EXCERPT_MAX 160
#define FLAGS_PER_PAGE 32 /* a hostile page cannot flood the record */
#define SEP_MAX 8         /* bytes between two words of a pattern */

enum { AT_ANY, AT_LINE_START };

struct pattern {
	const char *kind;
	int where;
	/* Slots separated by blanks.  A slot is words separated by '|', each
	 * matched whole or, ending in '*', as a prefix; "?" before a slot
	 * makes it optional, "!" makes it a word that must not come next
	 * (consuming nothing); a slot that starts with punctuation is
	 * literal text that must come next, after blanks or quotes. */
	const char *spec;
};

#define VERB_IGNORE "ignore|disregard|forget|override|bypass"
#define QUALIFIER "previous|prior|above|earlier|preceding|foregoing|former|original|initial|system"
#define ORDERS "instruction*|direction*|prompt*|rules|guideline*|directive*|command*|context|constraints"
#define MODEL "model|assistant|ai|llm|chatbot|bot|drafter|reviewer|verifier|agent"
#define CLAIM "claim*|citation*|quot*|assertion*|statement*"
#define SUPPORTED "supported|verified|valid|correct|true|accurate"
#define REVEAL "reveal|show|print|repeat|output|display|disclose|leak|dump|recite|tell|share"

static const struct pattern patterns[] = {
	/* requests for the prompt come before "system prompt" alone */
	{ "exfiltrate", AT_ANY, REVEAL " ?me|us ?your|the ?full|entire|complete|exact|whole "
	  "system|developer|hidden|secret prompt*|instruction*|message*|rules" },
	{ "exfiltrate", AT_ANY, REVEAL " ?me|us ?your|the ?full|entire|complete|exact|whole "
	  "original|initial prompt*" },
	{ "exfiltrate", AT_ANY, REVEAL " ?me|us your prompt*|system" },
	{ "exfiltrate", AT_ANY, REVEAL "|reproduce ?all|everything ?of ?the text|words|everything above" },
	{ "override", AT_ANY, VERB_IGNORE "|skip ?all|any ?of ?the|your|my|these|those|any "
	  QUALIFIER " " ORDERS },
	{ "override", AT_ANY, VERB_IGNORE " all|your " ORDERS },
	{ "override", AT_ANY, "disregard|ignore|forget ?all ?of the|everything above|foregoing "
	  "!email|e|mail|message*|note|letter|figure*|number*|amount*|calculation*|paragraph*|"
	  "address*|date*|price*|invoice*|attachment*|version*|draft*|comment*|request*|"
	  "statement*|line*|entry|entries|sentence*|typo*|order*|schedule*|quote*|table*" },
	{ "override", AT_ANY, "new|real|actual|true|hidden|secret|updated instruction*|directive*|task|prompt :" },
	{ "override", AT_ANY, "you are now a|an ?helpful|unrestricted|uncensored|different|new|"
	  "expert|evil|unfiltered ai|assistant|model|chatbot|bot|llm|agent|language|system" },
	{ "override", AT_ANY, "you are now in developer|dan|jailbreak|god|admin|debug|"
	  "unrestricted|unfiltered|test mode" },
	{ "override", AT_ANY, "you are now dan|unrestricted|jailbroken|uncensored|unfiltered" },
	{ "override", AT_ANY, "you are now the|my|our " MODEL "|judge|grader|gate" },
	{ "override", AT_ANY, "from now on you will|must|shall|are act|respond|answer|ignore|only|"
	  "pretend|behave|say|output|reply|write" },
	{ "fake-system", AT_ANY, "system prompt* !the|a|an|user*|for|to|you|him|her|them|operator*|"
	  "driver*|staff|employee*|me|us|customer*|clerk*|agent*|warehouse|carrier*" },
	{ "fake-system", AT_ANY, "system|developer|administrator|admin message|override|"
	  "instruction*|prompt :" },
	{ "fake-system", AT_ANY, "system override" },
	{ "fake-system", AT_ANY, "[ system|developer ?message|prompt ]" },
	{ "fake-system", AT_ANY, "< system|developer|sys >" },
	{ "fake-system", AT_ANY, "</ system|developer|sys >" },
	{ "fake-system", AT_LINE_START, "system|developer : you|ignore|the|as|your|from|do|always|never" },
	{ "role-tag", AT_LINE_START, "### system|instruction*|user|assistant|response|human|input :" },
	{ "cite", AT_ANY, "you|" MODEL " must|should|shall|will ?always|only cite|quote" },
	{ "cite", AT_ANY, "cite this|these|the ?following document*|page*|text|passage*|evidence|fact* as|to" },
	{ "verdict", AT_ANY, "say|output|respond|answer|reply|report|return|print|mark|label|"
	  "classify|rate|score ?with|that ?the|this|every|each|all|any ?of ?the " CLAIM
	  " is|are|as ?fully|well|properly|adequately supported|verified" },
	{ "verdict", AT_ANY, "mark|classify|rate|label|score every|each|all|this|these|the|any "
	  "?of ?the " CLAIM " as " SUPPORTED },
	{ "verdict", AT_ANY, "output|print|emit|respond ?with ?a|the|your|this verdict*" },
	{ "verdict", AT_ANY, "verdict|verdicts : supported|verified|pass|passed" },
};

/* Literal tags, matched anywhere in the folded text. */
static const struct {
	const char *kind, *text;
} tags[] = {
	{ "role-tag", "[inst]" },
	{ "role-tag", "[/inst]" },
	{ "role-tag", "<<sys>>" },
	{ "role-tag", "<</sys>>" },
	{ "role-tag", "<start_of_turn>" },
	{ "role-tag", "<end_of_turn>" },
	{ "frame", "<<<" },
};

static bool is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80;
}

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* The page folded for matching, with each byte's offset in the page. */
struct folded {
	char *t;
	size_t len;
	size_t *map;
};

static void folded_put(struct folded *f, char c, size_t at)
{
	f->t[f->len] = c;
	f->map[f->len++] = at;
}

/* Zero-width characters dropped before matching (U+200B-U+200D, U+2060,
 * U+FEFF) and the soft hyphen (U+00AD), as UTF-8 lengths at s; 0 when s
 * holds none. */
static size_t invisible(const unsigned char *s, size_t left)
{
	if (left >= 2 && s[0] == 0xC2 && s[1] == 0xAD)
		return 2;
	if (left >= 3 && s[0] == 0xE2 && s[1] == 0x80 && s[2] >= 0x8B && s[2] <= 0x8D)
		return 3;
	if (left >= 3 && s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0xA0)
		return 3;
	if (left >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
		return 3;
	return 0;
}

/* Cyrillic and Greek letters that look like Latin ones, after case folding
 * (so "О" and "о" both arrive as U+043E), and the Latin letters of other
 * shapes a spoofer uses: "Ignоre" with a Cyrillic o reads as "ignore". */
static const struct {
	uint16_t cp;
	char latin;
} confusables[] = {
	{ 0x0261, 'g' }, { 0x0269, 'i' }, { 0x026a, 'i' }, { 0x03b1, 'a' }, { 0x03b2, 'b' },
	{ 0x03b5, 'e' }, { 0x03b7, 'h' }, { 0x03b9, 'i' }, { 0x03ba, 'k' }, { 0x03bc, 'm' },
	{ 0x03bd, 'v' }, { 0x03bf, 'o' }, { 0x03c1, 'p' }, { 0x03c4, 't' }, { 0x03c5, 'u' },
	{ 0x03c7, 'x' }, { 0x03f2, 'c' }, { 0x03f3, 'j' }, { 0x0430, 'a' }, { 0x0432, 'b' },
	{ 0x0435, 'e' }, { 0x043a, 'k' }, { 0x043c, 'm' }, { 0x043d, 'h' }, { 0x043e, 'o' },
	{ 0x0440, 'p' }, { 0x0441, 'c' }, { 0x0442, 't' }, { 0x0443, 'y' }, { 0x0445, 'x' },
	{ 0x0455, 's' }, { 0x0456, 'i' }, { 0x0458, 'j' }, { 0x045b, 'h' }, { 0x0475, 'v' },
	{ 0x04bb, 'h' }, { 0x04cf, 'l' }, { 0x0501, 'd' }, { 0x051b, 'q' }, { 0x051d, 'w' },
};

/* The Latin letter a two-byte character at s stands for, or 0. */
static char confusable(const unsigned char *s, size_t left)
{
	if (left < 2 || (s[0] & 0xE0) != 0xC0 || (s[1] & 0xC0) != 0x80)
		return 0;
	unsigned cp = ((unsigned)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
	size_t lo = 0, hi = SW_ARRAY_LEN(confusables);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (confusables[mid].cp == cp)
			return confusables[mid].latin;
		if (confusables[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* A hyphen ('-', U+2010, U+2011 or a soft one) that ends a line inside a word
 * ("instruc-\ntions"): its length up to the next line's first letter, or
 * 0.  prev is the byte before it; soft says that the page has a soft
 * hyphen just before t (the fold drops those). */
static size_t line_end_hyphen(const char *t, size_t left, char prev, bool soft)
{
	size_t p = 0;
	if (soft)
		p = 0; /* sw_fold dropped the soft hyphen: the break follows */
	else if (left >= 1 && t[0] == '-')
		p = 1;
	else if (left >= 2 && !memcmp(t, "\xc2\xad", 2))
		p = 2; /* a soft hyphen where the line broke */
	else if (left >= 3 && !memcmp(t, "\xe2\x80", 2) && (t[2] == '\x90' || t[2] == '\x91'))
		p = 3;
	if ((p == 0 && !soft) || !(prev >= 'a' && prev <= 'z'))
		return 0;
	while (p < left && is_blank((unsigned char)t[p]))
		p++;
	if (p < left && t[p] == '\r')
		p++;
	if (p >= left || t[p] != '\n')
		return 0;
	p++;
	while (p < left && is_blank((unsigned char)t[p]))
		p++;
	return p < left && t[p] >= 'a' && t[p] <= 'z' ? p : 0;
}

/* A markup comment's opening or closing at t, its length, with *stand
 * the byte that stands for it: "<!--" a line break (the comment's text is
 * read as a page's line of its own: "<!-- System: ..." is a system turn),
 * "-->" a blank, and a comment with nothing in it ("ig<!---->nore") no
 * byte at all: it joins the word around it. */
static size_t comment_mark(const char *t, size_t left, char *stand)
{
	*stand = 0;
	if (left >= 7 && !memcmp(t, "<!---->", 7))
		return 7;
	*stand = '\n';
	if (left >= 4 && !memcmp(t, "<!--", 4))
		return 4;
	*stand = ' ';
	if (left >= 3 && !memcmp(t, "-->", 3))
		return 3;
	return 0;
}

/* Runs of single letters with one blank between them ("i g n o r e"):
 * at least this many are read as one word, and then, up to SPACED_GAP
 * bytes after it, a run of two or three as well ("a l l"). */
#define SPACED_MIN 4
#define SPACED_GAP 4

/* How many single letters, one blank apart, start at t[i] (a word start). */
static size_t spaced_run(const struct folded *a, size_t i)
{
	size_t n = 0;
	while (i < a->len && a->t[i] >= 'a' && a->t[i] <= 'z' &&
	       (i + 1 == a->len || !is_word((unsigned char)a->t[i + 1]))) {
		n++;
		if (i + 2 >= a->len || !is_blank((unsigned char)a->t[i + 1]) ||
		    !is_word((unsigned char)a->t[i + 2]))
			break;
		i += 2;
	}
	return n;
}

/* The folded page: NFKC, case and marks folded (sw_fold), then invisible
 * characters and soft hyphens dropped, look-alike letters mapped to Latin,
 * markup comments opened, hyphens at line ends joined, and runs of spaced
 * single letters joined; every byte keeps the offset of the page byte it
 * came from, so a flag's excerpt is the page as written. */
static void fold_page(struct folded *out, const char *text, size_t len)
{
	struct sw_fold f;
	struct folded a;
	sw_fold(&f, text, len, SW_FOLD_CASE | SW_FOLD_MARKS);
	a.t = sw_xmalloc(f.len + 1);
	a.map = sw_xmalloc((f.len + 1) * sizeof(*a.map));
	a.len = 0;
	const unsigned char *u = (const unsigned char *)f.text;
	for (size_t i = 0; i < f.len;) {
		bool soft = f.map[i] >= 2 && !memcmp(text + f.map[i] - 2, "\xc2\xad", 2);
		size_t skip = line_end_hyphen(f.text + i, f.len - i, a.len ? a.t[a.len - 1] : 0,
					      soft);
		char stand;
		if (!skip)
			skip = invisible(u + i, f.len - i);
		if (skip) {
			i += skip;
			continue;
		}
		if ((skip = comment_mark(f.text + i, f.len - i, &stand)) != 0) {
			if (stand)
				folded_put(&a, stand, f.map[i]);
			i += skip;
			continue;
		}
		char c = confusable(u + i, f.len - i);
		if (c) {
			folded_put(&a, c, f.map[i]);
			i += 2;
			continue;
		}
		c = f.text[i];
		folded_put(&a, (c == '\r' || c == '\f' || c == '\v') ? '\n' : c, f.map[i]);
		i++;
	}
	a.map[a.len] = f.map[f.len];

	out->t = sw_xmalloc(a.len + 1);
	out->map = sw_xmalloc((a.len + 1) * sizeof(*out->map));
	out->len = 0;
	size_t joined_end = SIZE_MAX; /* where the last joined run ended in a */
	for (size_t i = 0; i < a.len;) {
		size_t run =
			(i == 0 || !is_word((unsigned char)a.t[i - 1])) ? spaced_run(&a, i) : 0;
		bool near = joined_end != SIZE_MAX && i - joined_end <= SPACED_GAP;
		if (run >= SPACED_MIN || (run >= 2 && near)) {
			for (size_t k = 0; k < run; k++)
				folded_put(out, a.t[i + 2 * k], a.map[i + 2 * k]);
			i += 2 * run - 1;
			joined_end = i;
			continue;
		}
		folded_put(out, a.t[i], a.map[i]);
		i++;
	}
	out->t[out->len] = '\0';
	out->map[out->len] = a.map[a.len];
	free(a.t);
	free(a.map);
	sw_fold_release(&f);
}

/* Whether the word at t[pos..wend) is one of alts ("a|b*|c"). */
static bool word_in(const char *t, size_t pos, size_t wend, const char *alts, size_t alen)
{
	size_t wl = wend - pos;
	const char *a = alts, *end = alts + alen;
	while (a < end) {
		const char *bar = memchr(a, '|', (size_t)(end - a));
		size_t l = bar ? (size_t)(bar - a) : (size_t)(end - a);
		bool prefix = l && a[l - 1] == '*';
		size_t n = prefix ? l - 1 : l;
		if (prefix ? (wl >= n && !memcmp(t + pos, a, n)) : (wl == n && !memcmp(t + pos, a, n)))
			return true;
		a += l + 1;
	}
	return false;
}

/* Skip what may stand between two words of a pattern: a few blanks and
 * light punctuation, one line break at most, no sentence end. */
static bool skip_sep(const struct folded *f, size_t *pos)
{
	size_t p = *pos, breaks = 0;
	while (p < f->len && !is_word((unsigned char)f->t[p])) {
		char c = f->t[p];
		if (c == '.' || c == '!' || c == '?' || c == ';' || p - *pos >= SEP_MAX)
			return false;
		if (c == '\n' && ++breaks > 1)
			return false;
		p++;
	}
	*pos = p;
	return p < f->len;
}

/* Match slots spec[0..) at pos; *end gets where the match ends. */
static bool match_slots(const struct folded *f, size_t pos, const char *spec, size_t *end,
			bool first)
{
	while (*spec == ' ')
		spec++;
	if (!*spec) {
		*end = pos;
		return true;
	}
	const char *sp = strchr(spec, ' ');
	size_t slen = sp ? (size_t)(sp - spec) : strlen(spec);
	const char *rest = spec + slen;
	char mode = 0;
	const char *alts = spec;
	if (*alts == '?' || *alts == '!') {
		mode = *alts++;
		slen--;
	}
	if (mode == '?' && match_slots(f, pos, rest, end, first))
		return true;

	if (!is_word((unsigned char)*alts)) { /* literal punctuation */
		size_t p = pos;
		while (p < f->len && (is_blank((unsigned char)f->t[p]) || f->t[p] == '"' ||
				      f->t[p] == '\''))
			p++;
		if (f->len - p < slen || memcmp(f->t + p, alts, slen))
			return false;
		return match_slots(f, p + slen, rest, end, false);
	}
	size_t p = pos;
	bool at_word = first || skip_sep(f, &p);
	size_t wend = p;
	while (at_word && wend < f->len && is_word((unsigned char)f->t[wend]))
		wend++;
	bool in = at_word && wend > p && word_in(f->t, p, wend, alts, slen);
	if (mode == '!')
		return !in && match_slots(f, pos, rest, end, first);
	return in && match_slots(f, wend, rest, end, false);
}

/* Whether pos starts a line (after blanks and list or quote marks). */
static size_t line_body(const struct folded *f, size_t line)
{
	size_t p = line;
	while (p < f->len && (is_blank((unsigned char)f->t[p]) || f->t[p] == '>' ||
			      f->t[p] == '*' || f->t[p] == '-'))
		p++;
	return p;
}

/* A chat turn marker "user:", "human:" or "system:" at the start of some
 * line: the page is a dialogue, so an "assistant:" line is a role tag. */
static bool has_turns(const struct folded *f)
{
	for (size_t i = 0; i < f->len; i++) {
		if (i && f->t[i - 1] != '\n')
			continue;
		size_t p = line_body(f, i), end;
		if (match_slots(f, p, "user|human|system :", &end, true))
			return true;
	}
	return false;
}

/* "<|name|>": the special tokens of chat templates (ChatML, Llama 3, ...). */
static size_t special_token(const struct folded *f, size_t p)
{
	if (f->len - p < 5 || f->t[p] != '<' || f->t[p + 1] != '|')
		return 0;
	size_t q = p + 2;
	while (q < f->len && q - p < 40 && ((f->t[q] >= 'a' && f->t[q] <= 'z') || f->t[q] == '_' ||
					    (f->t[q] >= '0' && f->t[q] <= '9')))
		q++;
	if (q == p + 2 || f->len - q < 2 || f->t[q] != '|' || f->t[q + 1] != '>')
		return 0;
	return q + 2;
}

/* The page's words from byte start on one line: control characters as
 * blanks, runs of blanks as one, at most EXCERPT_MAX bytes of whole
 * characters. */
static char *excerpt(const char *text, size_t len, size_t start, size_t end)
{
	struct sw_buf b = SW_BUF_INIT;
	size_t stop = end > start + EXCERPT_MAX ? end : start + EXCERPT_MAX;
	if (stop > len)
		stop = len;
	/* Whole characters only: a stop inside one would leave its first
	 * bytes, and a page of spaces run together never fills the excerpt. */
	while (stop < len && ((unsigned char)text[stop] & 0xC0) == 0x80)
		stop++;
	while (start < stop && ((unsigned char)text[start] & 0xC0) == 0x80)
		start++;
	for (size_t i = start; i < stop && b.len < EXCERPT_MAX; i++) {
		unsigned char c = (unsigned char)text[i];
		/* a character that does not fit whole ends the excerpt before it */
		size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
		if (b.len + need > EXCERPT_MAX)
			break;
		if (c < 0x20 || c == 0x7f) {
			if (i >= end && (c == '\n' || c == '\r'))
				break; /* the line ends after the words found */
			c = ' ';
		}
		if (c == ' ' && (b.len == 0 || b.data[b.len - 1] == ' '))
			continue;
		sw_buf_addc(&b, (char)c);
	}
	while (b.len && b.data[b.len - 1] == ' ')
		sw_buf_truncate(&b, b.len - 1);
	return sw_buf_detach(&b, NULL);
}

static void add_flag(struct sw_inject_flag **flags, size_t *n, const char *kind,
		     const char *text, size_t len, size_t start, size_t end, int64_t doc_id,
		     const char *document, const char *bates, uint32_t page_no)
{
	*flags = sw_xrealloc(*flags, (*n + 1) * sizeof(**flags));
	struct sw_inject_flag *fl = &(*flags)[(*n)++];
	fl->doc_id = doc_id;
	fl->document = sw_xstrdup(document ? document : "");
	fl->bates = bates ? sw_xstrdup(bates) : NULL;
	fl->page_no = page_no;
	fl->kind = sw_xstrdup(kind);
	fl->excerpt = excerpt(text, len, start, end);
}

/* The bytes a match of spec can start with, as a bit set: at most places
 * of a page no pattern can begin, and trying each one there was most of
 * the scan's time.  A first slot that is optional or "!" allows any byte;
 * a literal one allows the blanks and quotes it skips and its first
 * character; words allow their first letters (any word byte when one is
 * a bare '*'). */
struct byteset {
	uint8_t bit[32];
};

static void byteset_add(struct byteset *s, unsigned char c)
{
	s->bit[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static bool byteset_has(const struct byteset *s, unsigned char c)
{
	return s->bit[c >> 3] & (1u << (c & 7));
}

static void first_bytes(struct byteset *s, const char *spec)
{
	memset(s, 0, sizeof(*s));
	while (*spec == ' ')
		spec++;
	size_t slen = strcspn(spec, " ");
	bool any = slen == 0 || *spec == '?' || *spec == '!';
	if (!any && !is_word((unsigned char)*spec)) {
		byteset_add(s, ' ');
		byteset_add(s, '\t');
		byteset_add(s, '"');
		byteset_add(s, '\'');
		byteset_add(s, (unsigned char)*spec);
		return;
	}
	for (const char *a = spec, *end = spec + slen; !any && a < end;) {
		size_t l = strcspn(a, "| ");
		if (l > (size_t)(end - a))
			l = (size_t)(end - a);
		if (l == 0 || a[0] == '*')
			any = true;
		else
			byteset_add(s, (unsigned char)a[0]);
		a += l + 1;
	}
	if (any)
		memset(s, 0xff, sizeof(*s));
}

void sw_inject_scan(struct sw_inject_flag **flags, size_t *n, const char *text, size_t len,
		    int64_t doc_id, const char *document, const char *bates, uint32_t page_no)
{
	struct folded f;
	struct byteset starts[SW_ARRAY_LEN(patterns)], tag_starts;
	size_t found = 0;
	int turns = -1; /* not yet known */

	if (!text || !len)
		return;
	for (size_t k = 0; k < SW_ARRAY_LEN(patterns); k++)
		first_bytes(&starts[k], patterns[k].spec);
	memset(&tag_starts, 0, sizeof(tag_starts));
	for (size_t k = 0; k < SW_ARRAY_LEN(tags); k++)
		byteset_add(&tag_starts, (unsigned char)tags[k].text[0]);
	fold_page(&f, text, len);
	for (size_t i = 0; i < f.len && found < FLAGS_PER_PAGE;) {
		const char *kind = NULL;
		size_t end = 0;
		bool line_start = i == 0 || f.t[i - 1] == '\n';
		bool word_start = is_word((unsigned char)f.t[i]) &&
				  (i == 0 || !is_word((unsigned char)f.t[i - 1]));

		if ((end = special_token(&f, i)) != 0)
			kind = "role-tag";
		bool tag_start = byteset_has(&tag_starts, (unsigned char)f.t[i]);
		for (size_t k = 0; !kind && tag_start && k < SW_ARRAY_LEN(tags); k++) {
			size_t tl = strlen(tags[k].text);
			if (f.len - i >= tl && !memcmp(f.t + i, tags[k].text, tl)) {
				kind = tags[k].kind;
				end = i + tl;
			}
		}
		size_t body = line_start ? line_body(&f, i) : i;
		for (size_t k = 0; !kind && k < SW_ARRAY_LEN(patterns); k++) {
			const struct pattern *p = &patterns[k];
			size_t at = p->where == AT_LINE_START ? body : i;
			if (!byteset_has(&starts[k], (unsigned char)f.t[at]))
				continue;
			if (p->where == AT_LINE_START ? !line_start
			    : !(word_start || !is_word((unsigned char)*p->spec)))
				continue;
			if (match_slots(&f, at, p->spec, &end, true)) {
				kind = p->kind;
				i = at;
			}
		}
		if (!kind && line_start && match_slots(&f, body, "assistant|ai :", &end, true)) {
			if (turns < 0)
				turns = has_turns(&f);
			if (turns) {
				kind = "role-tag";
				i = body;
			}
		}
		if (!kind) {
			i++;
			continue;
		}
		add_flag(flags, n, kind, text, len, f.map[i], f.map[end], doc_id, document, bates,
			 page_no);
		found++;
		i = end > i ? end : i + 1;
	}
	free(f.t);
	free(f.map);
}

void sw_inject_flags_free(struct sw_inject_flag *f, size_t n)
{
	if (!f)
		return;
	for (size_t i = 0; i < n; i++) {
		free(f[i].document);
		free(f[i].bates);
		free(f[i].kind);
		free(f[i].excerpt);
	}
	free(f);
}
