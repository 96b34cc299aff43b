/* cmd_claims.c - `sworn claims [FILE|-]`: the claims a text makes. */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE), sbrk */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "claims/claims.h"
#include "cli/cli.h"
#include "cli/cli_draft.h"

struct claims_opts {
	bool json;
	const char *kind, *format;
};

#define AT(f) offsetof(struct claims_opts, f)
static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the claims as JSON (DESIGN.md's shape)", CLI_FLAG, AT(json) },
	{ "kind", 'k', "KIND",
	  "list only claims of KIND (case, journal, statute, rule, record, bates, date, quote, proposition)",
	  CLI_STRING, AT(kind),
	  .values = "case journal statute rule record bates date quote proposition" },
	{ "format", 0, "FORMAT", CLI_DRAFT_FORMAT_HELP, CLI_STRING, AT(format),
	  .values = CLI_DRAFT_FORMATS },
};

/* The table is written through a buffer of its own: one fwrite per 64 KiB
 * rather than a locked stdio call per byte and a printf per column. */
struct tw {
	FILE *f;
	size_t n;
	struct sw_buf flat, clean; /* put_flat's, for text with controls or not ASCII */
	char buf[1 << 16];
};

static void tw_flush(struct tw *w)
{
	if (w->n)
		(void)fwrite(w->buf, 1, w->n, w->f);
	w->n = 0;
}

static char *tw_room(struct tw *w, size_t n)
{
	if (n > sizeof(w->buf) - w->n)
		tw_flush(w);
	return w->buf + w->n;
}

static void tw_put(struct tw *w, const char *s, size_t n)
{
	while (n) {
		size_t k = n < sizeof(w->buf) ? n : sizeof(w->buf);
		memcpy(tw_room(w, k), s, k);
		w->n += k;
		s += k;
		n -= k;
	}
}

/* s left-aligned in width columns, as printf's %-Ns */
static void tw_left(struct tw *w, const char *s, size_t width)
{
	size_t n = strlen(s);
	tw_put(w, s, n);
	for (; n < width; n++)
		tw_put(w, " ", 1);
}

/* v right-aligned in width columns, as printf's %Nzu */
static void tw_num(struct tw *w, size_t v, size_t width)
{
	char b[24];
	size_t i = sizeof(b);
	do {
		b[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t n = sizeof(b) - i; n < width; n++)
		tw_put(w, " ", 1);
	tw_put(w, b + i, sizeof(b) - i);
}

/* "line:column" in at, as snprintf's "%zu:%zu" */
static const char *line_col(char at[48], size_t line, size_t col)
{
	char *o = at + 47;
	*o = 0;
	do {
		*--o = (char)('0' + col % 10);
		col /= 10;
	} while (col);
	*--o = ':';
	do {
		*--o = (char)('0' + line % 10);
		line /= 10;
	} while (line);
	return o;
}

/* One line of text for the table: newlines and tabs as spaces, cut at max
 * bytes on a character boundary.  The draft's text is outside text: its
 * controls and bytes that are not UTF-8 go through sw_term_clean (base.h,
 * "terminal"); plain ASCII, the common case, is copied as it is. */
static void put_flat(struct tw *w, const char *s, size_t n, size_t max)
{
	size_t k = n < max ? n : max, j = k;
	while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80)
		j++; /* finish a cut UTF-8 sequence */
	bool plain = true;
	for (size_t i = 0; i < j && plain; i++) {
		unsigned char c = (unsigned char)s[i];
		plain = (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' || c == '\r';
	}
	if (!plain) {
		sw_buf_reset(&w->flat);
		sw_buf_add(&w->flat, s, j);
		for (size_t i = 0; i < j; i++)
			if (w->flat.data[i] == '\r')
				w->flat.data[i] = ' ';
		sw_buf_reset(&w->clean);
		sw_term_clean(&w->clean, w->flat.data, j);
		s = w->clean.data;
		j = w->clean.len;
	}
	if (j > sizeof(w->buf) / 2)
		SW_BUG("put_flat: %zu bytes for a column", j); /* max is a column's width */
	char *o = tw_room(w, j);
	for (size_t i = 0; i < j; i++) {
		unsigned char c = (unsigned char)s[i];
		o[i] = (char)(c == '\n' || c == '\t' || c == '\r' ? ' ' : c);
	}
	w->n += j;
	if (k < n)
		tw_put(w, "...", 3);
}

/* A draft of n bytes becomes about ten times n of arrays (the text three
 * times over, the Markdown map, the claims and their fields) that are
 * written once and freed at exit; taking them one page fault per 4 KiB
 * cost more than the JSON.  So: every allocation from the one heap (none
 * mapped and unmapped on its own), grown in one step by a pad for the
 * whole draft, and that heap in transparent huge pages where the kernel
 * gives them (madvise mode).  Only the memory's layout changes. */
static void draft_heap(const char *path)
{
	struct stat st;
	size_t n = strcmp(path, "-") != 0 && stat(path, &st) == 0 && st.st_size > 0
		? (size_t)st.st_size : 0;
	if (n > ((size_t)32 << 20))
		return; /* a huge draft: glibc's own choices */
	size_t pad = ((size_t)16 << 20) + n * 12; /* at most 400 MiB */
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, (int)(pad * 2 > INT32_MAX ? INT32_MAX : pad * 2));
	(void)mallopt(M_TOP_PAD, (int)pad);
	/* one allocation past what the heap holds makes it grow by the pad */
	void *p = malloc((size_t)1 << 20);
	if (!p)
		return;
	uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t to = (uintptr_t)sbrk(0);
	/* only when the block came from that heap, just below its break (not
	 * from a sanitizer's allocator, which maps its own) */
	if ((uintptr_t)p < to && to - (uintptr_t)p <= pad + ((size_t)4 << 20) && to > from)
		(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
	free(p);
}

static bool kind_ok(const char *want, const struct sw_claim *c)
{
	return !want || !strcmp(want, sw_claim_kind_name(c->kind));
}

/* --json: a claim's offsets in the draft's own bytes, its line and column. */
struct json_place {
	const struct sw_markup *m;
	struct sw_markup_cursor cur;
	size_t starts, ends; /* hints: the claims' starts and ends each increase */
};

static void json_place(void *ctx, const struct sw_claim *c, size_t at[4], size_t *line,
		       size_t *col)
{
	struct json_place *p = ctx;
	at[0] = sw_markup_src_at(p->m, &p->starts, c->start);
	at[2] = sw_markup_src_at(p->m, &p->starts, c->cite_start);
	at[3] = sw_markup_src_end_at(p->m, &p->ends, c->cite_end);
	at[1] = sw_markup_src_end_at(p->m, &p->ends, c->end);
	sw_markup_line_col(p->m, &p->cur, at[0], line, col);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)ctx;
	struct sw_err err = { 0 };
	struct cli_draft d = { 0 };
	struct sw_claims claims = { 0 };
	const char *path = a->npos ? a->pos[0] : "-";
	const struct claims_opts *o = a->opts;
	const char *kind = o->kind;
	int rc = CLI_OK;

	(void)cmd;

	if (kind) {
		bool known = false;
		for (int k = SW_CLAIM_CASE; k <= SW_CLAIM_PROPOSITION; k++)
			known |= !strcmp(kind, sw_claim_kind_name(k));
		if (!known) {
			cli_error("unknown --kind '%s': give case, journal, statute, rule, record, bates, date, quote or proposition", kind);
			return CLI_USAGE;
		}
	}
	draft_heap(path);
	if (cli_draft_read(&d, path, o->format, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE; /* a draft that cannot be read is an input error */
		goto cleanup;
	}
	const struct sw_markup *view = &d.view;
	if (sw_claims_scan_terminated(&claims, view->text, view->len, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	if (o->json) {
		/* streamed, not built as a tree: the same document (claims.h) */
		char now[21];
		sw_utc_now(now);
		json_t *audit = json_pack("{s:{s:s, s:s, s:s, s:s, s:s}}", "audit",
			"time", now, "sworn_version", SW_VERSION, "commit", cli_build_commit,
			"draft_sha256", d.sha256, "format", sw_markup_kind_name(view->kind));
		/* The stamp of every --json document (cli.h); the streamed
		 * document's extra members come last. */
		json_t *stamp = cli_json_stamp();
		json_object_update(audit, stamp);
		json_decref(stamp);
		struct json_place pl = { view, { 0 }, 0, 0 };
		struct sw_claims_json_opts jo = { .kind = kind, .place = json_place, .ctx = &pl,
						  .after = audit };
		if (sw_claims_json_write(stdout, &claims, view->text, path, &jo, &err) != 0)
			rc = cli_fail(&err);
		json_decref(audit);
	} else {
		size_t shown = 0, hint = 0;
		struct sw_markup_cursor cur = { 0 };
		struct tw *w = sw_xmalloc(sizeof(*w));
		w->f = stdout;
		w->n = 0;
		sw_buf_init(&w->flat);
		sw_buf_init(&w->clean);
		for (size_t i = 0; i < claims.n; i++) {
			const struct sw_claim *c = &claims.v[i];
			if (!kind_ok(kind, c))
				continue;
			size_t line, col;
			char at[48];
			sw_markup_line_col(view, &cur, sw_markup_src_at(view, &hint, c->start), &line,
					   &col);
			tw_num(w, i + 1, 4);
			tw_put(w, "  ", 2);
			tw_left(w, sw_claim_kind_name(c->kind), 11); /* "proposition" */
			tw_put(w, " ", 1);
			tw_left(w, sw_claim_form_name(c->form), 9);
			tw_put(w, " ", 1);
			tw_left(w, line_col(at, line, col), 9);
			tw_put(w, "  ", 2);
			put_flat(w, view->text + c->start, c->end - c->start, 70);
			tw_put(w, "\n      ", 7);
			for (size_t k = 0; k < c->nfields; k++) {
				const char *name = c->fields[k].name;
				if (!strcmp(name, "quoted"))
					continue;
				tw_put(w, " ", 1);
				tw_put(w, name, strlen(name));
				tw_put(w, "=", 1);
				put_flat(w, c->fields[k].value, strlen(c->fields[k].value), 40);
			}
			if (c->resolves_to >= 0) {
				tw_put(w, " -> #", 5);
				tw_num(w, (size_t)c->resolves_to + 1, 0);
			}
			if (c->attributed_to >= 0) {
				tw_put(w, " -> #", 5);
				tw_num(w, (size_t)c->attributed_to + 1, 0);
			}
			tw_put(w, "  (sentence ", 12);
			tw_num(w, c->sentence + 1, 0);
			tw_put(w, ")\n", 2);
			shown++;
		}
		tw_flush(w);
		sw_buf_release(&w->flat);
		sw_buf_release(&w->clean);
		free(w);
		/* The table is the data; the count is chatter. */
		if (!shown && !cli_globals.quiet)
			fprintf(stderr, "no claims found in '%s'\n", path);
		else if (!cli_globals.quiet)
			fprintf(stderr, "%zu claims in %zu sentences\n", shown, claims.nsentences);
	}
cleanup:
	sw_claims_release(&claims);
	cli_draft_release(&d);
	return rc;
}

const struct cli_command cli_cmd_claims = {
	.name = "claims",
	.usage = "[--json] [--kind KIND] [--format FORMAT] [FILE|-]",
	.summary = "list the claims a draft makes: citations, record cites, dates, quotations",
	.description =
		"Reads a draft (Markdown, HTML, text, .docx, PDF or .eml) from FILE, or\n"
		"from standard input when FILE is - or absent, and lists every case\n"
		"citation (full, short, id., supra), statute, rule, record citation, Bates\n"
		"number, date and quotation in it, with its line:column in the draft, the\n"
		"fields of each and what short forms refer to.  Markdown and HTML are\n"
		"read as the text they show (emphasis, links and footnote markers are\n"
		"not part of a name; footnotes are read where they are defined); the\n"
		"kind comes from the extension, else from the first bytes, or from\n"
		"--format.  --json gives each claim's text as read and its byte offsets\n"
		"into the file (for .docx, PDF and .eml into the text read from it: PDF\n"
		"pages joined by form feeds, no OCR).  Nothing is checked: `sworn\n"
		"verify` does that.\n\n"
		"Exit status: 0 on success (with or without claims), 2 when the input\n"
		"cannot be read.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct claims_opts),
	.min_pos = 0,
	.max_pos = 1,
	.flags = CLI_NO_SERVER,
	.run = run,
};
