/*
 * gen_reporters.c - compile reporters-db (reporters.json, laws.json,
 * journals.json) into the C tables of src/claims/claims_tables.h.
 *
 * Usage: gen_reporters DATA-DIR OUT.c
 *
 * Run by the build (CMake), never by hand: the tables live only in the build
 * folder, so the data files in data/reporters-db/ stay the one source.  The
 * output depends only on the input files (sorted, no timestamps), so a
 * rebuild gives the same bytes.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "claims/claims_tables.h"

struct form {
	char *key;
	char *canonical;
	int src, shape, flags, start, end;
	uint32_t lead; /* hash of the first word as written, up to its first '.' */
};

static struct form *forms;
static size_t nforms, capforms;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "gen_reporters: out of memory\n");
		exit(1);
	}
	return p;
}

/* The lookup key: no whitespace, curly apostrophe as '. */
static char *make_key(const char *s)
{
	size_t n = strlen(s);
	char *k = xrealloc(NULL, n + 1), *o = k;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
		    (unsigned char)s[i + 2] == 0x99) {
			*o++ = '\'';
			i += 2;
			continue;
		}
		*o++ = (char)c;
	}
	*o = 0;
	return k;
}

static int year_of(json_t *v)
{
	const char *s = json_string_value(v);
	return s && strlen(s) >= 4 ? atoi(s) : 0;
}

static void add(const char *form, const char *canonical, int src, int shape,
		int flags, int start, int end)
{
	if (!*form)
		return;
	if (nforms == capforms) {
		capforms = capforms ? capforms * 2 : 1024;
		forms = xrealloc(forms, capforms * sizeof(*forms));
	}
	struct form *f = &forms[nforms++];
	f->key = make_key(form);
	f->canonical = strdup(canonical);
	f->src = src;
	f->shape = shape;
	f->flags = flags;
	f->start = start;
	f->end = end;
	/* The first word as written: up to a space or through the first '.',
	 * which is what the scanner reads at a capitalised word. */
	size_t n = 0;
	while (form[n] && form[n] != ' ' && form[n] != '.')
		n++;
	if (form[n] == '.')
		n++;
	f->lead = sw__claims_hash(form, n) | 1;
}

/* The layout of an edition's citations, read from its regex templates. */
static int case_shape(json_t *regexes)
{
	size_t i;
	json_t *r;
	int shape = SW__CLAIMS_SHAPE_STD;
	json_array_foreach(regexes, i, r) {
		const char *s = json_string_value(r);
		if (!s)
			continue;
		if (strstr(s, "format_neutral") || strstr(s, "\\s-$reporter-"))
			return SW__CLAIMS_SHAPE_DASH;
		if (strstr(s, "year_page"))
			return SW__CLAIMS_SHAPE_YEARPAGE;
		if (strstr(s, "full_cite_cch") || strstr(s, "$paragraph_marker"))
			shape = SW__CLAIMS_SHAPE_PARA;
		else if (strncmp(s, "$reporter", 9) == 0 && shape == SW__CLAIMS_SHAPE_STD &&
			 i + 1 == json_array_size(regexes))
			shape = SW__CLAIMS_SHAPE_NOVOL;
	}
	return shape;
}

static int law_shape(json_t *regexes)
{
	const char *s = json_string_value(json_array_get(regexes, 0));
	if (!s)
		return -1;
	bool first = strncmp(s, "$reporter", 9) == 0 ||
		     strncmp(s, "(?P<reporter>", 13) == 0;
	if (strstr(s, "law_section") && !first)
		return SW__CLAIMS_SHAPE_LAW_TITLE;
	if (strstr(s, "law_section") || strstr(s, "(?P<rule>") || strstr(s, "(?P<article>"))
		return SW__CLAIMS_SHAPE_LAW_SECTION;
	if (strstr(s, "$page") && !first)
		return SW__CLAIMS_SHAPE_LAW_VOLPAGE;
	return -1; /* session laws by pamphlet, dockets: not scanned */
}

static json_t *load(const char *dir, const char *name)
{
	char path[4096];
	json_error_t je;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	json_t *j = json_load_file(path, 0, &je);
	if (!j || !json_is_object(j)) {
		fprintf(stderr, "gen_reporters: cannot read '%s': %s (line %d)\n", path,
			j ? "not an object" : je.text, je.line);
		exit(1);
	}
	return j;
}

static void do_reporters(json_t *root)
{
	const char *key;
	json_t *list;
	json_object_foreach(root, key, list) {
		size_t i;
		json_t *rep;
		json_array_foreach(list, i, rep) {
			const char *type = json_string_value(json_object_get(rep, "cite_type"));
			const char *name = json_string_value(json_object_get(rep, "name"));
			int flags = 0;
			/* Only the Supreme Court's own reporters imply the court; the
			 * Lawyers' Edition and others that reprint it do not. */
			if (type && (!strcmp(type, "scotus_early") ||
				     (!strcmp(type, "federal") && name &&
				      strstr(name, "Supreme Court Report"))))
				flags |= SW__CLAIMS_REP_SCOTUS;
			json_t *eds = json_object_get(rep, "editions");
			json_t *vars = json_object_get(rep, "variations");
			const char *ed;
			json_t *edv;
			json_object_foreach(eds, ed, edv) {
				int shape = case_shape(json_object_get(edv, "regexes"));
				int start = year_of(json_object_get(edv, "start"));
				int end = year_of(json_object_get(edv, "end"));
				add(ed, ed, SW__CLAIMS_SRC_CASE, shape, flags, start, end);
				const char *v;
				json_t *to;
				json_object_foreach(vars, v, to) {
					const char *t = json_string_value(to);
					if (t && !strcmp(t, ed))
						add(v, ed, SW__CLAIMS_SRC_CASE, shape,
						    flags | SW__CLAIMS_REP_VARIATION, start, end);
				}
			}
		}
	}
}

static void do_flat(json_t *root, int src)
{
	const char *key;
	json_t *list;
	json_object_foreach(root, key, list) {
		size_t i;
		json_t *e;
		json_array_foreach(list, i, e) {
			int shape = SW__CLAIMS_SHAPE_STD;
			if (src == SW__CLAIMS_SRC_LAW) {
				shape = law_shape(json_object_get(e, "regexes"));
				if (shape < 0)
					continue;
			}
			int start = year_of(json_object_get(e, "start"));
			int end = year_of(json_object_get(e, "end"));
			add(key, key, src, shape, 0, start, end);
			size_t j;
			json_t *v;
			json_array_foreach(json_object_get(e, "variations"), j, v)
				if (json_string_value(v))
					add(json_string_value(v), key, src, shape,
					    SW__CLAIMS_REP_VARIATION, start, end);
		}
	}
}

static int cmp_form(const void *a, const void *b)
{
	const struct form *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	/* An edition's own spelling before variations, cases before laws,
	 * then by name: the first form of a key is the default reading. */
	if ((x->flags & SW__CLAIMS_REP_VARIATION) != (y->flags & SW__CLAIMS_REP_VARIATION))
		return (x->flags & SW__CLAIMS_REP_VARIATION) ? 1 : -1;
	if (x->src != y->src)
		return x->src - y->src;
	c = strcmp(x->canonical, y->canonical);
	return c ? c : x->start - y->start;
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static uint32_t table_size(size_t n)
{
	uint32_t size = 64;
	while (size < n * 3)
		size *= 2;
	return size;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_reporters DATA-DIR OUT.c\n");
		return 2;
	}
	json_t *rep = load(argv[1], "reporters.json");
	json_t *laws = load(argv[1], "laws.json");
	json_t *jour = load(argv[1], "journals.json");
	do_reporters(rep);
	do_flat(laws, SW__CLAIMS_SRC_LAW);
	do_flat(jour, SW__CLAIMS_SRC_JOURNAL);
	qsort(forms, nforms, sizeof(*forms), cmp_form);

	/* Drop exact duplicates (same key, canonical and source). */
	size_t w = 0;
	for (size_t i = 0; i < nforms; i++) {
		if (w && !strcmp(forms[w - 1].key, forms[i].key) &&
		    !strcmp(forms[w - 1].canonical, forms[i].canonical) &&
		    forms[w - 1].src == forms[i].src) {
			free(forms[i].key);
			free(forms[i].canonical);
			continue;
		}
		forms[w++] = forms[i];
	}
	nforms = w;

	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		return 1;
	}
	fprintf(f, "/* Generated by tools/gen_reporters.c from data/reporters-db/; do not edit. */\n");
	fprintf(f, "#include \"claims/claims_tables.h\"\n\n");
	fprintf(f, "const struct sw__claims_reporter sw__claims_reporters[] = {\n");
	for (size_t i = 0; i < nforms; i++) {
		fputs("\t{ ", f);
		put_str(f, forms[i].key);
		fputs(", ", f);
		put_str(f, forms[i].canonical);
		fprintf(f, ", %d, %d, %d, %d, %d },\n", forms[i].src, forms[i].shape,
			forms[i].flags, forms[i].start, forms[i].end);
	}
	fprintf(f, "};\nconst size_t sw__claims_nreporters = %zu;\n\n", nforms);

	uint32_t size = table_size(nforms);
	uint32_t *slots = calloc(size, sizeof(*slots));
	for (size_t i = 0; i < nforms; i++) {
		if (i && !strcmp(forms[i - 1].key, forms[i].key))
			continue;
		uint32_t h = sw__claims_hash(forms[i].key, strlen(forms[i].key)) & (size - 1);
		while (slots[h])
			h = (h + 1) & (size - 1);
		slots[h] = (uint32_t)i + 1;
	}
	fprintf(f, "const uint32_t sw__claims_rep_mask = %uu;\nconst uint32_t sw__claims_rep_slots[] = {", size - 1);
	for (uint32_t i = 0; i < size; i++)
		fprintf(f, "%s%u,", i % 16 ? " " : "\n\t", slots[i]);
	fprintf(f, "\n};\n\n");

	/* Lead words: first word of forms that start a citation. */
	uint32_t *lead = calloc(size, sizeof(*lead));
	for (size_t i = 0; i < nforms; i++) {
		int s = forms[i].shape;
		if (s == SW__CLAIMS_SHAPE_STD || s == SW__CLAIMS_SHAPE_DASH ||
		    s == SW__CLAIMS_SHAPE_LAW_TITLE || s == SW__CLAIMS_SHAPE_LAW_VOLPAGE)
			continue;
		uint32_t h = forms[i].lead;
		uint32_t p = h & (size - 1);
		while (lead[p] && lead[p] != h)
			p = (p + 1) & (size - 1);
		lead[p] = h;
	}
	fprintf(f, "const uint32_t sw__claims_lead_mask = %uu;\nconst uint32_t sw__claims_lead_hashes[] = {", size - 1);
	for (uint32_t i = 0; i < size; i++)
		fprintf(f, "%s%uu,", i % 8 ? " " : "\n\t", lead[i]);
	fprintf(f, "\n};\n");
	if (fclose(f) != 0 || rename(tmp, argv[2]) != 0) {
		perror(argv[2]);
		return 1;
	}
	/* freed, not left to exit: the sanitizer build runs this tool too */
	for (size_t i = 0; i < w; i++) {
		free(forms[i].key);
		free(forms[i].canonical);
	}
	free(forms);
	free(slots);
	free(lead);
	json_decref(rep);
	json_decref(laws);
	json_decref(jour);
	return 0;
}
