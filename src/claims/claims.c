/* claims.c - the public API, byte helpers, claim storage and JSON. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "claims/claims_int.h"

/* ------------------------------------------------------------------ bytes */

size_t sw__claims_space_len(const struct sw__claims_scan *sc, size_t i)
{
	int c = sw__claims_at(sc, i);
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
		return 1;
	if (c == 0xC2 && sw__claims_at(sc, i + 1) == 0xA0)
		return 2; /* no-break space */
	if (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80) {
		int d = sw__claims_at(sc, i + 2);
		/* thin, hair, narrow no-break and zero-width spaces: word
		 * processors put them inside citations */
		if (d == 0x89 || d == 0x8A || d == 0x8B || d == 0xAF)
			return 3;
	}
	return 0;
}

size_t sw__claims_ws(const struct sw__claims_scan *sc, size_t i)
{
	size_t k;
	while (i < sc->n && (k = sw__claims_space_len(sc, i)) > 0)
		i += k;
	return i;
}

size_t sw__claims_ws_back(const struct sw__claims_scan *sc, size_t i, size_t floor)
{
	while (i > floor) {
		int c = sw__claims_at(sc, i - 1);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
			i--;
		else if (i - floor >= 2 && c == 0xA0 && sw__claims_at(sc, i - 2) == 0xC2)
			i -= 2;
		else if (i - floor >= 3 && sw__claims_at(sc, i - 3) == 0xE2 && sw__claims_at(sc, i - 2) == 0x80 &&
			 (c == 0x89 || c == 0x8A || c == 0x8B || c == 0xAF))
			i -= 3;
		else
			break;
	}
	return i;
}

size_t sw__claims_blanks(const struct sw__claims_scan *sc, size_t i)
{
	while (i < sc->n && (sc->t[i] == ' ' || sc->t[i] == '\t'))
		i++;
	return i;
}

size_t sw__claims_digits(const struct sw__claims_scan *sc, size_t i)
{
	while (i < sc->n && sw__claims_digit((unsigned char)sc->t[i]))
		i++;
	return i;
}

size_t sw__claims_lit(const struct sw__claims_scan *sc, size_t i, const char *lit)
{
	size_t n = strlen(lit);
	if (i > sc->n || sc->n - i < n || memcmp(sc->t + i, lit, n) != 0)
		return 0;
	return i + n;
}

size_t sw__claims_word(const struct sw__claims_scan *sc, size_t i, const char *lit)
{
	size_t e = sw__claims_lit(sc, i, lit);
	if (!e || sw__claims_alnum(sw__claims_at(sc, e)))
		return 0;
	return e;
}

bool sw__claims_boundary_before(const struct sw__claims_scan *sc, size_t i)
{
	return i == 0 || !sw__claims_alnum((unsigned char)sc->t[i - 1]);
}

size_t sw__claims_dash(const struct sw__claims_scan *sc, size_t i)
{
	int c = sw__claims_at(sc, i);
	if (c == '-')
		return i + 1;
	if (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 &&
	    (sw__claims_at(sc, i + 2) == 0x93 || sw__claims_at(sc, i + 2) == 0x94 || sw__claims_at(sc, i + 2) == 0x91))
		return i + 3;
	return 0;
}

long sw__claims_num(const struct sw__claims_scan *sc, size_t i, size_t e)
{
	long v = 0;
	/* Nine digits at most: every number a claim holds is smaller, and the
	 * value never overflows. */
	for (size_t k = i; k < e && k < i + 9; k++)
		v = v * 10 + (sc->t[k] - '0');
	return v;
}

int sw__claims_year(const struct sw__claims_scan *sc, size_t i, size_t *end)
{
	size_t e = sw__claims_digits(sc, i);
	if (e - i != 4)
		return 0;
	int y = (int)sw__claims_num(sc, i, e);
	if (y < 1600 || y > 2099)
		return 0;
	if (end)
		*end = e;
	return y;
}

/* ----------------------------------------------------------------- tables */

/* English reports that American briefs cite and reporters-db (American
 * reporters only) lacks.  Without them "Hadley v. Baxendale, 9 Ex. 341
 * (1854)" read as exhibit 341 of the record: a volume before one of these
 * makes a case cite.  Keys are written as the generated table writes them
 * (no spaces); looked up only when the table has no such key. */
static const struct sw__claims_reporter extra_reporters[] = {
	{ "A.C.", "A.C.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1891, 0 },
	{ "App.Cas.", "App. Cas.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1890 },
	{ "Ch.D.", "Ch. D.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1890 },
	{ "E.R.", "Eng. Rep.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, SW__CLAIMS_REP_VARIATION, 0, 0 },
	{ "Eng.Rep.", "Eng. Rep.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 0, 0 },
	{ "Ex.", "Ex.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1847, 1856 },
	{ "Ex.D.", "Ex. D.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1880 },
	{ "Exch.", "Ex.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, SW__CLAIMS_REP_VARIATION, 1847, 1856 },
	{ "H.&N.", "H. & N.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1856, 1862 },
	{ "H.L.Cas.", "H.L. Cas.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1847, 1866 },
	{ "K.B.", "K.B.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1901, 1952 },
	{ "L.R.Ex.", "L.R. Ex.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1865, 1875 },
	{ "M.&W.", "M. & W.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1836, 1847 },
	{ "Q.B.", "Q.B.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1841, 0 },
	{ "Q.B.D.", "Q.B.D.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1890 },
};

const struct sw__claims_reporter *sw__claims_rep(size_t i)
{
	if (i < sw__claims_nreporters)
		return &sw__claims_reporters[i];
	i -= sw__claims_nreporters;
	if (i >= SW_ARRAY_LEN(extra_reporters))
		SW_BUG("reporter form %zu out of range", i);
	return &extra_reporters[i];
}

/* The first two bytes of every reporter form's key (a bit each), and the
 * bytes of one-byte keys: most numbers are followed by words no reporter
 * starts with, and skip the lookup.  Made once per process (each scan made
 * them again: 15% of a fuzzed draft's time). */
static uint8_t rep_pair[65536 / 8];
static bool rep_single[256];
static pthread_once_t rep_once = PTHREAD_ONCE_INIT;

static void rep_pair_add(const char *key)
{
	unsigned a = (unsigned char)key[0], b = (unsigned char)key[1];
	if (!b)
		rep_single[a] = true;
	else
		rep_pair[(a << 8 | b) >> 3] |= (uint8_t)(1u << (b & 7));
}

static void rep_make(void)
{
	for (size_t i = 0; i < sw__claims_nreporters; i++)
		rep_pair_add(sw__claims_reporters[i].key);
	for (size_t i = 0; i < SW_ARRAY_LEN(extra_reporters); i++)
		rep_pair_add(extra_reporters[i].key);
}

void sw__claims_rep_first(void)
{
	pthread_once(&rep_once, rep_make);
}

bool sw__claims_rep_maybe(const struct sw__claims_scan *sc, size_t i)
{
	unsigned a = (unsigned)sw__claims_at(sc, i), b;
	if (rep_single[a])
		return true;
	size_t k = i + 1;
	if (sw__claims_space_len(sc, k))
		k = sw__claims_ws(sc, k);
	b = (unsigned)sw__claims_at(sc, k);
	if (b == 0xE2 && sw__claims_at(sc, k + 1) == 0x80 && sw__claims_at(sc, k + 2) == 0x99)
		b = '\'';
	return (rep_pair[(a << 8 | b) >> 3] >> (b & 7)) & 1;
}

bool sw__claims_reporter_lookup(const char *key, size_t len, size_t *first, size_t *count)
{
	uint32_t h = sw__claims_hash(key, len) & sw__claims_rep_mask;
	for (;;) {
		uint32_t s = sw__claims_rep_slots[h];
		if (!s)
			break;
		const char *k = sw__claims_reporters[s - 1].key;
		if (strlen(k) == len && memcmp(k, key, len) == 0) {
			size_t i = s - 1, c = 0;
			while (i + c < sw__claims_nreporters &&
			       strcmp(sw__claims_reporters[i + c].key, k) == 0)
				c++;
			*first = i;
			*count = c;
			return true;
		}
		h = (h + 1) & sw__claims_rep_mask;
	}
	/* every key of the extra table is 3 to 8 bytes and ends with '.' */
	if (len < 3 || len > 8 || key[len - 1] != '.')
		return false;
	for (size_t i = 0; i < SW_ARRAY_LEN(extra_reporters); i++) {
		const char *k = extra_reporters[i].key;
		if (k[0] == key[0] && strlen(k) == len && memcmp(k, key, len) == 0) {
			*first = sw__claims_nreporters + i;
			*count = 1;
			return true;
		}
	}
	return false;
}

/* ----------------------------------------------------------------- claims */

void sw__claims_begin(struct sw__claims_builder *b, enum sw_claim_kind kind,
	      enum sw_claim_form form, size_t start, size_t end)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->form = form;
	b->start = b->cite_start = start;
	b->end = b->cite_end = end;
	b->parallel_to = -1;
}

void sw__claims_field(struct sw__claims_builder *b, const char *name, const char *v, size_t len)
{
	/* names are literals: the first byte rules most out without a call */
	for (size_t i = 0; i < b->nf; i++)
		if (b->f[i].name == name ||
		    (b->f[i].name[0] == name[0] && strcmp(b->f[i].name, name) == 0)) {
			b->f[i].v = v;
			b->f[i].len = len;
			return;
		}
	if (b->nf == SW_CLAIM_MAX_FIELDS)
		SW_BUG("claim has more than %d fields", SW_CLAIM_MAX_FIELDS);
	b->f[b->nf].name = name;
	b->f[b->nf].v = v;
	b->f[b->nf].len = len;
	b->nf++;
}

void sw__claims_fieldz(struct sw__claims_builder *b, const char *name, const char *v)
{
	sw__claims_field(b, name, v, strlen(v));
}

void sw__claims_fieldi(struct sw__claims_builder *b, const char *name, long v)
{
	char *at = b->scratch + b->nscratch;
	int n = snprintf(at, sizeof(b->scratch) - b->nscratch, "%ld", v);
	if (n < 0 || (size_t)n >= sizeof(b->scratch) - b->nscratch)
		SW_BUG("claim scratch space exhausted");
	b->nscratch += (size_t)n + 1;
	sw__claims_field(b, name, at, (size_t)n);
}

long sw__claims_push(struct sw__claims_scan *sc, const struct sw__claims_builder *b)
{
	struct sw_claims *o = sc->out;
	if (o->n >= SW_CLAIMS_MAX) {
		sc->failed = SW_ELIMIT;
		return -1;
	}
	if (b->start >= b->end || b->end > sc->n)
		SW_BUG("claim [%zu, %zu) outside text of %zu bytes", b->start, b->end, sc->n);
	o->v = sw_xgrow(o->v, &o->cap, o->n + 1, sizeof(*o->v));
	struct sw_claim *c = &o->v[o->n];
	memset(c, 0, sizeof(*c));
	c->kind = b->kind;
	c->form = b->form;
	c->start = b->start;
	c->end = b->end;
	c->cite_start = b->cite_start;
	c->cite_end = b->cite_end;
	c->resolves_to = -1;
	c->parallel_to = b->parallel_to;
	c->attributed_to = -1;
	if (b->nf) {
		/* one allocation: the fields, then their values end to end */
		size_t bytes = b->nf * sizeof(struct sw_claim_field);
		for (size_t i = 0; i < b->nf; i++)
			bytes += b->f[i].len + 1;
		char *mem = sw_arena_alloc(&o->arena, bytes);
		struct sw_claim_field *f = (struct sw_claim_field *)(void *)mem;
		char *v = mem + b->nf * sizeof(*f);
		for (size_t i = 0; i < b->nf; i++) {
			f[i].name = b->f[i].name; /* static strings */
			memcpy(v, b->f[i].v, b->f[i].len);
			v[b->f[i].len] = '\0';
			f[i].value = v;
			v += b->f[i].len + 1;
		}
		c->fields = f;
		c->nfields = b->nf;
	}
	return (long)o->n++;
}

void sw__claims_note_at(struct sw__claims_scan *sc, size_t name_end, size_t at)
{
	if (sc->nats >= SW_CLAIMS_MAX)
		return;
	sc->ats = sw_xgrow(sc->ats, &sc->capats, sc->nats + 1, sizeof(*sc->ats));
	sc->ats[sc->nats].name_end = name_end;
	sc->ats[sc->nats].at = at;
	sc->nats++;
}

const char *sw_claim_get(const struct sw_claim *c, const char *name)
{
	for (size_t i = 0; i < c->nfields; i++)
		if (c->fields[i].name == name ||
		    (c->fields[i].name[0] == name[0] && strcmp(c->fields[i].name, name) == 0))
			return c->fields[i].value;
	return NULL;
}

const char *sw_claim_kind_name(enum sw_claim_kind kind)
{
	static const char *const names[] = { "case", "journal", "statute", "rule",
					     "record", "bates", "date", "quote",
					     "proposition" };
	return (size_t)kind < SW_ARRAY_LEN(names) ? names[kind] : "unknown";
}

const char *sw_claim_form_name(enum sw_claim_form form)
{
	static const char *const names[] = { "full", "short", "id", "supra",
					     "reference", "bare" };
	return (size_t)form < SW_ARRAY_LEN(names) ? names[form] : "unknown";
}

/* ------------------------------------------------------------------- scan */

static int scan(struct sw_claims *out, const char *text, size_t len, bool terminated,
		struct sw_err *err)
{
	struct sw__claims_scan sc = { 0 };
	char *copy = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	sw_arena_init(&out->arena, 256 * 1024);
	if (len > SW_CLAIMS_MAX_TEXT) {
		rc = sw_err_set(err, SW_ELIMIT, "text of %zu bytes is over the %zu-byte limit of a scan",
				len, SW_CLAIMS_MAX_TEXT);
		goto cleanup;
	}
	/* The DFA needs a sentinel after the last byte (the scan never
	 * writes to the text) */
	if (!terminated) {
		copy = sw_xmalloc(len + 1);
		if (len)
			memcpy(copy, text, len);
		copy[len] = 0;
		text = copy;
	}
	/* about one claim per 120 bytes in court opinions: growing the array
	 * from nothing cost more than the scan itself */
	out->cap = len / 120 + 16;
	out->v = sw_xmalloc(out->cap * sizeof(*out->v));
	sw__claims_rep_first();
	sc.t = text;
	sc.n = len;
	sc.out = out;
	sw__claims_run(&sc);
	if (!sc.failed)
		sw__claims_finish(&sc);
	if (sc.failed) {
		rc = sw_err_set(err, SW_ELIMIT, "text has more than %zu claims", SW_CLAIMS_MAX);
		goto cleanup;
	}
cleanup:
	if (rc != 0)
		sw_claims_release(out);
	free(sc.ats);
	free(copy);
	return rc;
}

int sw_claims_scan(struct sw_claims *out, const char *text, size_t len,
		   struct sw_err *err)
{
	return scan(out, text, len, false, err);
}

int sw_claims_scan_terminated(struct sw_claims *out, const char *text, size_t len,
			      struct sw_err *err)
{
	if (text[len] != '\0')
		SW_BUG("sw_claims_scan_terminated: no NUL after the %zu bytes of text", len);
	return scan(out, text, len, true, err);
}

void sw_claims_release(struct sw_claims *c)
{
	if (!c)
		return;
	free(c->v);
	free(c->sentences);
	sw_arena_release(&c->arena);
	memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------------------- JSON */

json_t *sw_claims_json(const struct sw_claims *c, const char *text, const char *draft)
{
	json_t *arr = json_array();
	size_t counts[SW_CLAIM_PROPOSITION + 1] = { 0 };
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *cl = &c->v[i];
		json_t *fields = json_object();
		for (size_t k = 0; k < cl->nfields; k++)
			json_object_set_new(fields, cl->fields[k].name,
					    sw_json_str(cl->fields[k].value));
		json_t *o = json_pack("{s:I, s:s, s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:o}",
			"id", (json_int_t)i + 1,
			"kind", sw_claim_kind_name(cl->kind),
			"form", sw_claim_form_name(cl->form),
			"text", sw_json_strn(text + cl->start, cl->end - cl->start),
			"start", (json_int_t)cl->start, "end", (json_int_t)cl->end,
			"cite_start", (json_int_t)cl->cite_start,
			"cite_end", (json_int_t)cl->cite_end,
			"sentence", (json_int_t)cl->sentence,
			"fields", fields);
		if (cl->kind == SW_CLAIM_PROPOSITION)
			json_object_set_new(o, "facts", sw_claims_facts_json(cl, text));
		if (cl->resolves_to >= 0)
			json_object_set_new(o, "resolves_to", json_integer(cl->resolves_to + 1));
		if (cl->parallel_to >= 0)
			json_object_set_new(o, "parallel_to", json_integer(cl->parallel_to + 1));
		if (cl->attributed_to >= 0)
			json_object_set_new(o, "attributed_to", json_integer(cl->attributed_to + 1));
		json_array_append_new(arr, o);
		if ((size_t)cl->kind < SW_ARRAY_LEN(counts))
			counts[cl->kind]++;
	}
	json_t *summary = json_pack("{s:I}", "claims", (json_int_t)c->n);
	for (size_t k = 0; k < SW_ARRAY_LEN(counts); k++)
		json_object_set_new(summary, sw_claim_kind_name(k), json_integer((json_int_t)counts[k]));
	json_object_set_new(summary, "sentences", json_integer((json_int_t)c->nsentences));
	return json_pack("{s:o, s:o, s:o}", "draft", sw_json_str(draft), "claims", arr,
			 "summary", summary);
}

void sw_claims_fact_value(char out[32], int64_t v)
{
	if (v % 100)
		snprintf(out, 32, "%lld.%02lld", (long long)(v / 100), (long long)(v % 100));
	else
		snprintf(out, 32, "%lld", (long long)(v / 100));
}

json_t *sw_claims_facts_json(const struct sw_claim *cl, const char *text)
{
	json_t *arr = json_array();
	for (size_t n = 0; n < cl->nfacts; n++) {
		const struct sw_claim_fact *f = &cl->facts[n];
		json_t *o = json_pack("{s:s, s:o}", "kind", sw_fact_kind_name(f->kind), "text",
				      sw_json_strn(text + f->start, f->end - f->start));
		char v[32];
		if (f->kind != SW_FACT_DATE && f->kind != SW_FACT_IDENTIFIER) {
			sw_claims_fact_value(v, f->value);
			json_object_set_new(o, "value", json_string(v));
		}
		if (f->unit && f->unit[0])
			json_object_set_new(o, "unit", json_string(f->unit));
		if (f->id && f->id[0])
			json_object_set_new(o, "id", json_string(f->id));
		json_array_append_new(arr, o);
	}
	return arr;
}
