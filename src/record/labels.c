/* labels.c - record-citation labels: "Ex. 12", "ECF No. 45", "Smith Dep."
 * tied to the documents they name, from a CSV of label,target (parsed by
 * extract/labels.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

/* Words that name the same kind of record or the same party, folded to one
 * word so that the verifier can match a cite however the draft spells it.
 * Party words are kept (as one spelling): "Def. Ex. 3" and "Pl. Ex. 3" are
 * two exhibits, and neither is "Ex. 3". */
static const struct {
	const char *word;
	const char *as;
} aliases[] = {
	{ "exhibit", "ex" }, { "exhibits", "ex" }, { "exh", "ex" }, { "exs", "ex" },
	{ "ex", "ex" },
	{ "ecf", "ecf" }, { "dkt", "ecf" }, { "docket", "ecf" }, { "doc", "ecf" },
	{ "deposition", "dep" }, { "depo", "dep" }, { "dep", "dep" },
	{ "transcript", "tr" }, { "tr", "tr" },
	{ "declaration", "decl" }, { "decl", "decl" },
	{ "affidavit", "aff" }, { "aff", "aff" },
	{ "plaintiff", "pl" }, { "plaintiffs", "pl" }, { "pl", "pl" }, { "pls", "pl" },
	{ "pltf", "pl" }, { "pltfs", "pl" }, { "plf", "pl" }, { "plfs", "pl" },
	{ "defendant", "def" }, { "defendants", "def" }, { "def", "def" }, { "defs", "def" },
	{ "deft", "def" }, { "defts", "def" }, { "dft", "def" }, { "dfts", "def" },
	{ "respondent", "resp" }, { "respondents", "resp" }, { "resp", "resp" },
	{ "resps", "resp" },
	{ "petitioner", "pet" }, { "petitioners", "pet" }, { "pet", "pet" }, { "pets", "pet" },
	{ "government", "gov" }, { "govt", "gov" }, { "gov", "gov" },
	{ "joint", "joint" }, { "jt", "joint" },
	/* Trial exhibit lists: PX 3 is the plaintiff's exhibit 3. */
	{ "px", "pl ex" }, { "dx", "def ex" }, { "jx", "joint ex" }, { "gx", "gov ex" },
};

static bool label_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static bool label_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* An apostrophe: ASCII, or the right single quotation mark Word types. */
static size_t apostrophe(const char *p)
{
	if (*p == '\'')
		return 1;
	if (!strncmp(p, "\xe2\x80\x99", 3))
		return 3;
	return 0;
}

/* Punctuation outside ASCII that separates words: the General Punctuation
 * block (dashes, curly quotes, the ellipsis; the apostrophe is taken
 * first), the minus sign, the no-break space and guillemets. */
static bool is_dash(const char *p, size_t *n)
{
	const unsigned char *u = (const unsigned char *)p;
	if (u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x80 && u[2] <= 0xbf) {
		*n = 3;
		return true;
	}
	if (u[0] == 0xe2 && u[1] == 0x88 && u[2] == 0x92) {
		*n = 3;
		return true;
	}
	if (u[0] == 0xc2 && (u[1] == 0xa0 || u[1] == 0xab || u[1] == 0xbb || u[1] == 0xb7)) {
		*n = 2;
		return true;
	}
	return false;
}

char *sw_label_normalize(const char *label)
{
	struct sw_buf out = SW_BUF_INIT, conv = SW_BUF_INIT;
	const char *p = label;
	/* Read bytes that are not UTF-8 as Windows-1252, so that every byte
	 * from 0x80 on below belongs to a whole character. */
	if (!sw_utf8_valid(label, strlen(label))) {
		sw_latin1_to_utf8(&conv, label, strlen(label));
		p = conv.data;
	}
	const char *prev = "";
	while (*p) {
		/* One word: a run of letters (apostrophes inside dropped, a
		 * possessive "'s" dropped whole) or a run of digits. */
		char word[64];
		size_t n = 0, skip;
		if ((skip = apostrophe(p)) != 0) {
			/* "Def.'s", "Defendants'": the possessive says nothing. */
			if ((p[skip] == 's' || p[skip] == 'S') && !label_alpha((unsigned char)p[skip + 1]) &&
			    !label_digit((unsigned char)p[skip + 1]))
				skip++;
			p += skip;
			continue;
		}
		if (is_dash(p, &skip)) {
			p += skip;
			continue;
		}
		if (label_digit((unsigned char)*p)) {
			while (*p == '0' && label_digit((unsigned char)p[1]))
				p++; /* "Ex. 03" is Ex. 3 */
			while (label_digit((unsigned char)*p)) {
				if (n < sizeof(word) - 1)
					word[n++] = *p;
				p++;
			}
		} else if (label_alpha((unsigned char)*p)) {
			while (*p) {
				unsigned char c = (unsigned char)*p;
				if ((skip = apostrophe(p)) == 0 && label_alpha(c) && !is_dash(p, &skip)) {
					if (n < sizeof(word) - 1)
						word[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
					p++;
				} else if ((skip = apostrophe(p)) != 0) {
					const char *q = p + skip;
					if ((*q == 's' || *q == 'S') && !label_alpha((unsigned char)q[1]) &&
					    !label_digit((unsigned char)q[1]))
						p = q + 1; /* "Plaintiff's" */
					else
						p = q; /* "Gov't" */
				} else {
					break;
				}
			}
		} else {
			/* A separator: blanks, periods, commas, hyphens, dashes,
			 * '#', parentheses, a trailing apostrophe ("Plaintiffs'"). */
			p++;
			continue;
		}
		/* A word cut at the limit ends on a whole character. */
		if (n == sizeof(word) - 1) {
			while (n > 0 && ((unsigned char)word[n - 1] & 0xc0) == 0x80)
				n--;
			if (n > 0 && (unsigned char)word[n - 1] >= 0xc0)
				n--;
		}
		word[n] = '\0';
		if (n == 0)
			continue;
		/* "ECF No. 45", "Exhibit No. 3": the "No." says nothing the
		 * number does not. */
		if ((!strcmp(prev, "ecf") || !strcmp(prev, "ex")) &&
		    (!strcmp(word, "no") || !strcmp(word, "nos") || !strcmp(word, "number")))
			continue;
		const char *as = word;
		for (size_t i = 0; i < SW_ARRAY_LEN(aliases); i++)
			if (strcmp(word, aliases[i].word) == 0)
				as = aliases[i].as;
		if (out.len)
			sw_buf_addc(&out, ' ');
		sw_buf_adds(&out, as);
		const char *last = strrchr(out.data, ' ');
		prev = last ? last + 1 : out.data;
	}
	sw_buf_release(&conv);
	return sw_buf_detach(&out, NULL);
}

int sw_record_label_target(int64_t *out, struct sw_matter *m, const char *target,
			    struct sw_err *err)
{
	sqlite3 *db = m->db;
	static const char *const sql[] = {
		"SELECT id FROM documents WHERE beg_bates = ?1 ORDER BY id LIMIT 1",
		"SELECT doc_id FROM pages WHERE bates = ?1 AND page_no = 1 LIMIT 1",
		"SELECT id FROM documents WHERE name = ?1 ORDER BY id LIMIT 1",
		/* The target's Bates number in another spelling
		 * ("ACME-0000004" for ACME0000004): the document it starts. */
		("SELECT doc_id FROM pages WHERE bates_prefix = ?2 AND bates_num = ?3"
		 " ORDER BY page_no, id LIMIT 1"),
	};
	struct sw_bates_ref ref;
	bool canon = sw_bates_ref_parse(&ref, target, strlen(target)) == 0 &&
		     ref.first == ref.last && ref.first <= INT64_MAX;
	for (size_t i = 0; i < SW_ARRAY_LEN(sql) - !canon; i++) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) != SQLITE_OK)
			return sw__record_sqlerr(err, db, "cannot look up a label target");
		sqlite3_bind_text(st, 1, target, -1, SQLITE_STATIC);
		if (i == SW_ARRAY_LEN(sql) - 1) {
			sqlite3_bind_text(st, 2, ref.prefix, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 3, (sqlite3_int64)ref.first);
		}
		int s = sqlite3_step(st);
		if (s == SQLITE_ROW)
			*out = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (s == SQLITE_ROW)
			return 0;
		if (s != SQLITE_DONE)
			return sw__record_sqlerr(err, db, "cannot look up a label target");
	}
	return SW_ENOTFOUND;
}

int sw_record_labels_open(struct sw_record_label_writer *w, struct sw_matter *m,
			   struct sw_err *err)
{
	memset(w, 0, sizeof(*w));
	w->m = m;
	sw_utc_now(w->now);
	/* Labels are stored one by one, never in an import's batch. */
	int rc = sw_record_batch_commit(m, err);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(m->db,
			       "INSERT INTO labels (norm, label, target, doc_id, created_at)"
			       " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (norm) DO UPDATE SET"
			       " label = excluded.label, target = excluded.target,"
			       " doc_id = excluded.doc_id, created_at = excluded.created_at",
			       -1, &w->ins, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot store labels");
	return 0;
}

int sw_record_label_put(struct sw_record_label_writer *w, const char *label, const char *target,
			 int64_t doc, struct sw_err *err)
{
	char *norm = sw_label_normalize(label);
	sqlite3_bind_text(w->ins, 1, norm, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(w->ins, 2, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(w->ins, 3, target, -1, SQLITE_STATIC);
	sqlite3_bind_int64(w->ins, 4, doc);
	sqlite3_bind_text(w->ins, 5, w->now, -1, SQLITE_STATIC);
	free(norm);
	int s = sqlite3_step(w->ins);
	sqlite3_reset(w->ins);
	if (s != SQLITE_DONE)
		return sw__record_sqlerr(err, w->m->db, "cannot store a label");
	return 0;
}

void sw_record_labels_close(struct sw_record_label_writer *w)
{
	sqlite3_finalize(w->ins);
	w->ins = NULL;
}
