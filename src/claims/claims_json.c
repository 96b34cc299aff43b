/*
 * claims_json.c - the claims as JSON written straight to a stream: the
 * same document, byte for byte, that sw_claims_json() printed with
 * sw_json_print() gives (two-space indent, keys in order), without building
 * a jansson tree of every claim first (which took three quarters of the
 * time of `sworn claims --json` and about 25 bytes of memory per byte of
 * draft).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "claims/claims_int.h"

struct jw {
	FILE *f;
	char buf[1 << 16];
	size_t n;
	bool failed;
};

static void jw_flush(struct jw *w)
{
	if (w->n && fwrite(w->buf, 1, w->n, w->f) != w->n)
		w->failed = true;
	w->n = 0;
}

static void jw_put(struct jw *w, const char *s, size_t n)
{
	if (n > sizeof(w->buf) - w->n) {
		jw_flush(w);
		if (n > sizeof(w->buf)) {
			if (fwrite(s, 1, n, w->f) != n)
				w->failed = true;
			return;
		}
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}

static void jw_puts(struct jw *w, const char *s)
{
	jw_put(w, s, strlen(s));
}

static void jw_int(struct jw *w, long long v)
{
	char b[24];
	size_t i = sizeof(b);
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do {
		b[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		b[--i] = '-';
	jw_put(w, b + i, sizeof(b) - i);
}

/* What jw_str() does with a byte: 0 copied as is, 1 a byte of a UTF-8
 * sequence (the string is validated), 2 escaped. */
static const unsigned char jw_class[256] = {
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* A string that is not UTF-8: U+FFFD for its bad bytes, as sw_json_strn()
 * makes them, through jansson. */
static void jw_str_bad(struct jw *w, const char *s, size_t n)
{
	json_t *j = sw_json_strn(s, n);
	char *d = json_dumps(j, JSON_ENCODE_ANY);
	if (d)
		jw_puts(w, d);
	else
		w->failed = true;
	free(d);
	json_decref(j);
}

/* A JSON string as jansson writes it: \" \\ \b \f \n \r \t, other
 * control characters as \u00XX, everything else (UTF-8, /, DEL) as is;
 * bytes that are not UTF-8 become U+FFFD as sw_json_strn() makes them.
 * One pass copies the string into the buffer, escaping as it goes; the
 * first byte past ASCII validates the rest once. */
static void jw_str(struct jw *w, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	/* at most 6 bytes out for one in, and the two quotes */
	if (n > (sizeof(w->buf) - 2) / 6) {
		/* a long string: in pieces, through jw_put */
		bool high = false;
		for (size_t i = 0; i < n; i++)
			high |= jw_class[(unsigned char)s[i]] == 1;
		if (high && !sw_utf8_valid(s, n)) {
			jw_str_bad(w, s, n);
			return;
		}
		jw_put(w, "\"", 1);
		size_t run = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];
			if (jw_class[c] != 2)
				continue;
			jw_put(w, s + run, i - run);
			run = i + 1;
			char e[6] = { '\\', 0 };
			size_t k = 2;
			switch (c) {
			case '"': e[1] = '"'; break;
			case '\\': e[1] = '\\'; break;
			case '\b': e[1] = 'b'; break;
			case '\f': e[1] = 'f'; break;
			case '\n': e[1] = 'n'; break;
			case '\r': e[1] = 'r'; break;
			case '\t': e[1] = 't'; break;
			default:
				memcpy(e + 1, "u00", 3);
				e[4] = hex[c >> 4];
				e[5] = hex[c & 15];
				k = 6;
				break;
			}
			jw_put(w, e, k);
		}
		jw_put(w, s + run, n - run);
		jw_put(w, "\"", 1);
		return;
	}
	if (n * 6 + 2 > sizeof(w->buf) - w->n)
		jw_flush(w);
	size_t from = w->n;
	char *o = w->buf + w->n;
	bool checked = false;
	*o++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!jw_class[c]) {
			*o++ = (char)c;
			continue;
		}
		if (jw_class[c] == 1) {
			if (!checked && !sw_utf8_valid(s + i, n - i)) {
				w->n = from;
				jw_str_bad(w, s, n);
				return;
			}
			checked = true;
			*o++ = (char)c;
			continue;
		}
		*o++ = '\\';
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '\b': *o++ = 'b'; break;
		case '\f': *o++ = 'f'; break;
		case '\n': *o++ = 'n'; break;
		case '\r': *o++ = 'r'; break;
		case '\t': *o++ = 't'; break;
		default:
			memcpy(o, "u00", 3);
			o[3] = hex[c >> 4];
			o[4] = hex[c & 15];
			o += 5;
			break;
		}
	}
	*o++ = '"';
	w->n = (size_t)(o - w->buf);
}

/* key is written as is: a literal with its quotes, colon and indent */
static void jw_key_str(struct jw *w, const char *key, const char *v, size_t n)
{
	jw_puts(w, key);
	jw_str(w, v, n);
}

static void jw_key_int(struct jw *w, const char *key, long long v)
{
	jw_puts(w, key);
	jw_int(w, v);
}

/* Any jansson value at the given depth, as JSON_INDENT(2) lays it out. */
static void jw_value(struct jw *w, const json_t *v, int depth)
{
	static const char spaces[] = "\n                                ";
	size_t ind = (size_t)(depth + 1) * 2;
	if (ind > sizeof(spaces) - 2)
		ind = sizeof(spaces) - 2;
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *x;
		size_t n = 0;
		jw_put(w, "{", 1);
		json_object_foreach((json_t *)v, key, x) {
			jw_puts(w, n++ ? "," : "");
			jw_put(w, spaces, ind + 1);
			jw_str(w, key, strlen(key));
			jw_put(w, ": ", 2);
			jw_value(w, x, depth + 1);
		}
		if (n)
			jw_put(w, spaces, ind - 1);
		jw_put(w, "}", 1);
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *x;
		jw_put(w, "[", 1);
		json_array_foreach((json_t *)v, i, x) {
			jw_puts(w, i ? "," : "");
			jw_put(w, spaces, ind + 1);
			jw_value(w, x, depth + 1);
		}
		if (json_array_size(v))
			jw_put(w, spaces, ind - 1);
		jw_put(w, "]", 1);
		break;
	}
	case JSON_STRING:
		jw_str(w, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		jw_int(w, (long long)json_integer_value(v));
		break;
	case JSON_TRUE:
		jw_puts(w, "true");
		break;
	case JSON_FALSE:
		jw_puts(w, "false");
		break;
	case JSON_NULL:
		jw_puts(w, "null");
		break;
	default: {
		char *d = json_dumps(v, JSON_ENCODE_ANY);
		if (d)
			jw_puts(w, d);
		else
			w->failed = true;
		free(d);
		break;
	}
	}
}

int sw_claims_json_value_write(FILE *f, const json_t *v, int depth, struct sw_err *err)
{
	struct jw *w = sw_xmalloc(sizeof(*w));
	w->f = f;
	w->n = 0;
	w->failed = false;
	jw_value(w, v, depth);
	jw_flush(w);
	bool failed = w->failed;
	free(w);
	errno = 0;
	if (failed || ferror(f))
		return sw_err_set(err, SW_EIO, "cannot write JSON output: %s",
				  errno ? strerror(errno) : "write failed");
	return 0;
}

static void claim(struct jw *w, const struct sw_claims *c, size_t i, const char *text,
		  const struct sw_claims_json_opts *o)
{
	const struct sw_claim *cl = &c->v[i];
	size_t at[4] = { cl->start, cl->end, cl->cite_start, cl->cite_end }, line = 0, col = 0;
	if (o && o->place)
		o->place(o->ctx, cl, at, &line, &col);
	jw_put(w, "    {", 5);
	jw_key_int(w, "\n      \"id\": ", (long long)i + 1);
	const char *k = sw_claim_kind_name(cl->kind), *f = sw_claim_form_name(cl->form);
	jw_key_str(w, ",\n      \"kind\": ", k, strlen(k));
	jw_key_str(w, ",\n      \"form\": ", f, strlen(f));
	jw_key_str(w, ",\n      \"text\": ", text + cl->start, cl->end - cl->start);
	jw_key_int(w, ",\n      \"start\": ", (long long)at[0]);
	jw_key_int(w, ",\n      \"end\": ", (long long)at[1]);
	jw_key_int(w, ",\n      \"cite_start\": ", (long long)at[2]);
	jw_key_int(w, ",\n      \"cite_end\": ", (long long)at[3]);
	jw_key_int(w, ",\n      \"sentence\": ", (long long)cl->sentence);
	jw_puts(w, ",\n      \"fields\": {");
	for (size_t n = 0; n < cl->nfields; n++) {
		jw_puts(w, n ? ",\n        " : "\n        ");
		jw_str(w, cl->fields[n].name, strlen(cl->fields[n].name));
		jw_put(w, ": ", 2);
		jw_str(w, cl->fields[n].value, strlen(cl->fields[n].value));
	}
	jw_puts(w, cl->nfields ? "\n      }" : "}");
	if (cl->kind == SW_CLAIM_PROPOSITION) {
		jw_puts(w, ",\n      \"facts\": [");
		for (size_t n = 0; n < cl->nfacts; n++) {
			const struct sw_claim_fact *ft = &cl->facts[n];
			char v[32];
			const char *fk = sw_fact_kind_name(ft->kind);
			jw_puts(w, n ? ",\n        {" : "\n        {");
			jw_key_str(w, "\n          \"kind\": ", fk, strlen(fk));
			jw_key_str(w, ",\n          \"text\": ", text + ft->start, ft->end - ft->start);
			if (ft->kind != SW_FACT_DATE && ft->kind != SW_FACT_IDENTIFIER) {
				sw_claims_fact_value(v, ft->value);
				jw_key_str(w, ",\n          \"value\": ", v, strlen(v));
			}
			if (ft->unit && ft->unit[0])
				jw_key_str(w, ",\n          \"unit\": ", ft->unit, strlen(ft->unit));
			if (ft->id && ft->id[0])
				jw_key_str(w, ",\n          \"id\": ", ft->id, strlen(ft->id));
			jw_puts(w, "\n        }");
		}
		jw_puts(w, cl->nfacts ? "\n      ]" : "]");
	}
	if (cl->resolves_to >= 0) {
		jw_key_int(w, ",\n      \"resolves_to\": ", cl->resolves_to + 1);
	}
	if (cl->parallel_to >= 0) {
		jw_key_int(w, ",\n      \"parallel_to\": ", cl->parallel_to + 1);
	}
	if (cl->attributed_to >= 0) {
		jw_key_int(w, ",\n      \"attributed_to\": ", cl->attributed_to + 1);
	}
	if (o && o->place) {
		jw_key_int(w, ",\n      \"line\": ", (long long)line);
		jw_key_int(w, ",\n      \"column\": ", (long long)col);
	}
	jw_puts(w, "\n    }");
}

int sw_claims_json_write(FILE *f, const struct sw_claims *c, const char *text, const char *draft,
			 const struct sw_claims_json_opts *o, struct sw_err *err)
{
	const char *kind = o ? o->kind : NULL;
	struct jw *w = sw_xmalloc(sizeof(*w));
	w->f = f;
	w->n = 0;
	w->failed = false;
	size_t counts[SW_CLAIM_PROPOSITION + 1] = { 0 }, shown = 0;

	jw_puts(w, "{\n  \"draft\": ");
	jw_str(w, draft, strlen(draft));
	jw_puts(w, ",\n  \"claims\": [");
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *cl = &c->v[i];
		if ((size_t)cl->kind < SW_ARRAY_LEN(counts))
			counts[cl->kind]++;
		if (kind && strcmp(kind, sw_claim_kind_name(cl->kind)) != 0)
			continue;
		jw_puts(w, shown++ ? ",\n" : "\n");
		claim(w, c, i, text, o);
	}
	jw_puts(w, shown ? "\n  ],\n  \"summary\": {\n    \"claims\": " : "],\n  \"summary\": {\n    \"claims\": ");
	jw_int(w, (long long)c->n);
	for (size_t k = 0; k < SW_ARRAY_LEN(counts); k++) {
		jw_puts(w, ",\n    ");
		const char *name = sw_claim_kind_name((enum sw_claim_kind)k);
		jw_str(w, name, strlen(name));
		jw_put(w, ": ", 2);
		jw_int(w, (long long)counts[k]);
	}
	jw_puts(w, ",\n    \"sentences\": ");
	jw_int(w, (long long)c->nsentences);
	jw_puts(w, "\n  }");
	if (o && o->after && json_is_object(o->after)) {
		const char *key;
		json_t *x;
		json_object_foreach((json_t *)o->after, key, x) {
			jw_puts(w, ",\n  ");
			jw_str(w, key, strlen(key));
			jw_put(w, ": ", 2);
			jw_value(w, x, 1);
		}
	}
	jw_puts(w, "\n}\n");
	jw_flush(w);
	bool failed = w->failed;
	free(w);
	errno = 0;
	if (failed || fflush(f) != 0 || ferror(f))
		return sw_err_set(err, SW_EIO, "cannot write JSON output: %s",
				  errno ? strerror(errno) : "write failed");
	return 0;
}
