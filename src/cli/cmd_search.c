/* cmd_search.c - `sworn search -m MATTER QUERY`. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"

struct search_opts {
	const char *matter;
	long long limit;
	bool fts, all, json;
};

#define AT(f) offsetof(struct search_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter to search", CLI_STRING, AT(matter) },
	{ "limit", 'n', "N", "show at most N hits (default 20)", CLI_INT, AT(limit), 1, 100000 },
	{ "fts", 0, NULL, "the query is SQLite FTS5 syntax (AND, OR, NOT, NEAR, \"phrases\", prefix*)",
	  CLI_FLAG, AT(fts) },
	{ "all", 0, NULL, "include quarantined and non-evidence texts", CLI_FLAG, AT(all) },
	{ "json", 0, NULL, "print the hits as JSON", CLI_FLAG, AT(json) },
};

/* The snippet marks matches with \x01 ... \x02: bold and underlined in
 * colour, else between the white square brackets U+27E6 and U+27E7, which
 * no Bluebook alteration ("[t]he", "[sic]") or record text uses, as plain
 * [brackets] would be; in JSON the snippet is plain, with "marks" giving
 * each match's byte range in it. */
#define MARK_OPEN "\xe2\x9f\xa6"  /* ⟦ */
#define MARK_CLOSE "\xe2\x9f\xa7" /* ⟧ */
static void put_snippet(FILE *f, const char *s, bool colour)
{
	/* The text between the marks is the production's: it goes out
	 * cleaned of control sequences, the marks' own colour around it. */
	struct sw_buf run = SW_BUF_INIT;
	bool space = false;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t' || *s == '\f') {
			space = true; /* one space for a run: page layout is noise here */
			continue;
		}
		if (space)
			sw_buf_addc(&run, ' ');
		space = false;
		if (*s == '\x01' || *s == '\x02') {
			sw_term_write(f, run.data, run.len);
			sw_buf_reset(&run);
			if (*s == '\x01')
				fputs(colour ? "\x1b[1;4m" : MARK_OPEN, f);
			else
				fputs(colour ? "\x1b[0m" : MARK_CLOSE, f);
		} else {
			sw_buf_addc(&run, *s);
		}
	}
	sw_term_write(f, run.data, run.len);
	sw_buf_release(&run);
}

/* The snippet without its marks; *marks gets [start, end) byte offsets of
 * each match in it. */
static char *plain_snippet(const char *s, json_t **marks)
{
	struct sw_buf b = SW_BUF_INIT;
	size_t start = 0;
	bool open = false;
	*marks = json_array();
	for (; *s; s++) {
		if (*s == '\x01') {
			start = b.len;
			open = true;
		} else if (*s == '\x02') {
			if (open)
				json_array_append_new(*marks, json_pack("[I, I]", (json_int_t)start,
									(json_int_t)b.len));
			open = false;
		} else {
			sw_buf_addc(&b, *s);
		}
	}
	return sw_buf_detach(&b, NULL);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd,
	       const struct cli_args *a)
{
	(void)cmd;
	const struct search_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_search_hit *hits = NULL;
	size_t n = 0;
	struct sw_search_opts so = {
		.raw = o->fts,
		.include_all = o->all,
		.limit = (size_t)o->limit, /* 0: the default */
	};
	struct sw_buf query = SW_BUF_INIT;
	json_t *doc = NULL;
	int rc = CLI_OK;

	for (int i = 0; i < a->npos; i++) {
		if (i)
			sw_buf_addc(&query, ' ');
		sw_buf_adds(&query, a->pos[i]);
	}
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0 ||
	    sw_search(&hits, &n, m, query.data, &so, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	if (o->json) {
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++) {
			json_t *marks;
			char *snip = plain_snippet(hits[i].snippet, &marks);
			json_t *h = json_pack("{s:I, s:o, s:I, s:o, s:o, s:o, s:f, s:o, s:o}",
				"doc_id", (json_int_t)hits[i].doc_id,
				"document", sw_json_str(hits[i].document),
				"page", (json_int_t)hits[i].page,
				"bates", hits[i].bates ? sw_json_str(hits[i].bates) : json_null(),
				"cite", hits[i].cite ? sw_json_str(hits[i].cite) : json_null(),
				"origin", sw_json_str(hits[i].origin),
				"score", hits[i].score, "snippet", sw_json_str(snip), "marks", marks);
			free(snip);
			json_array_append_new(arr, h);
		}
		doc = json_pack("{s:o, s:o, s:o}", "matter", sw_json_str(sw_matter_name(m)),
				"query", sw_json_str(query.data), "hits", arr);
	} else {
		bool colour = cli_colour();
		for (size_t i = 0; i < n; i++) {
			/* A transcript hit is cited as the transcript is
			 * ("Whitaker Dep. 12:8"), not by its stored page. */
			if (hits[i].cite)
				sw_term_printf(stdout, "%3zu  %-16s %s", i + 1,
					       hits[i].bates ? hits[i].bates : "-", hits[i].cite);
			else
				sw_term_printf(stdout, "%3zu  %-16s %s p.%u", i + 1,
					       hits[i].bates ? hits[i].bates : "-", hits[i].document,
					       hits[i].page);
			printf("%s%s\n     ", strcmp(hits[i].origin, "evidence") ? "  origin: " : "",
			       strcmp(hits[i].origin, "evidence") ? hits[i].origin : "");
			put_snippet(stdout, hits[i].snippet, colour);
			putchar('\n');
		}
		if (n == 0 && !cli_globals.quiet)
			sw_term_printf(stderr, "no hits for '%s'\n", query.data);
	}
	rc = cli_emit(o->json, doc, NULL, NULL, n == 0 ? CLI_NO : CLI_OK);
cleanup:
	sw_search_hits_free(hits, n);
	sw_matter_close(m);
	sw_buf_release(&query);
	return rc;
}

const struct cli_command cli_cmd_search = {
	.name = "search",
	.usage = "[-m MATTER] [--fts] [--limit N] [--json] QUERY...",
	.summary = "full-text search of a matter's pages, ranked, with Bates and snippet",
	.description =
		"Every word of the query must be on the page.  Words may be Bates numbers\n"
		"in any spelling (ACME-0000123, ACME0000123), section signs (§ 1983), or\n"
		"plain words (accents and case do not matter).  \"Words in double quotes\"\n"
		"must stand together in that order; 'carrier NEAR weather' (or NEAR/5)\n"
		"finds the two within 10 (or 5) words of each other.  Hits are ranked by\n"
		"bm25, the best -n/--limit of them shown.\n"
		"Only evidence is searched unless --all is given.\n\n"
		"A production's load-file metadata is searched by field:\n"
		"custodian:whitfield, from:harlow, to:, cc:, title:\"board minutes\",\n"
		"doctype:email, confidentiality:aeo (every word in that field; whit* a\n"
		"prefix), and date:2021-03..2021-06 (sent, received or the document's\n"
		"date; sent: and received: for one; YYYY, YYYY-MM or YYYY-MM-DD, an end\n"
		"left open with 2021-03.. or ..2021-06).  With words, the words are\n"
		"searched in those documents' pages; alone, each document's first page is\n"
		"listed, earliest first.  --fts queries have no field terms.\n\n"
		"Matches are marked between white square brackets (U+27E6, U+27E7), or\n"
		"bold and underlined in colour, never with [brackets], which a\n"
		"quotation's alterations use (\"[t]he\").  Without -m the\n"
		"default matter is searched (SWORN_MATTER, or 'sworn matter use NAME').\n\n"
		"Exit status: 0 with hits, 1 with none, 2 on a bad query or a matter\n"
		"that does not exist.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct search_opts),
	.min_pos = 1,
	.max_pos = -1,
	.flags = CLI_NEEDS_WORKSPACE | CLI_NO_SERVER, /* no libcurl: start-up is most of a search */
	.run = run,
};
