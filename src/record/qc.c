/* qc.c - production QC: what an import found wrong with a load-file
 * volume, kept in qc_volumes and qc_findings, and read back for `sworn
 * matter qc`.
 *
 * The import knows every defect while it reads the volume (it resolves
 * each path, parses each Bates number and date, hashes each text); keeping
 * its findings is cheaper than reading a production of a million pages
 * again for a report, and the report stays what the import saw. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "record/record_int.h"

static const struct {
	const char *name, *title, *fix;
} kinds[SW_QC_KINDS] = {
	[SW_QC_GAP] = { "gap", "Bates gaps",
		"produce the missing pages, or confirm in writing that the numbers were skipped"
		" and nothing was withheld (or log what was withheld)" },
	[SW_QC_OVERLAP] = { "overlap", "Bates overlaps",
		"re-number the documents so that no page carries two numbers, and re-produce"
		" the load file" },
	[SW_QC_DUPLICATE] = { "duplicate", "Duplicates (same content)",
		"confirm the duplicates are intended (e.g. per custodian) or de-duplicate and"
		" re-produce" },
	[SW_QC_DAT_OPT] = { "dat_opt", "DAT and OPT disagree",
		"correct the .OPT (page breaks, image keys) or ENDBATES in the .DAT so that both"
		" give each document the same pages" },
	[SW_QC_NO_TEXT] = { "no_text", "Missing text",
		"produce the extracted or OCR text named by TEXTPATH for each document" },
	[SW_QC_NO_IMAGE] = { "no_image", "Missing images",
		"produce the page images the .OPT names, at the paths it gives" },
	[SW_QC_NO_NATIVE] = { "no_native", "Missing natives",
		"produce the native files NATIVEPATH names, or blank the column" },
	[SW_QC_PAGE_COUNT] = { "page_count", "Page counts that do not match",
		"re-produce the text with a form feed between pages, or correct ENDBATES" },
	[SW_QC_BAD_DATE] = { "bad_date", "Dates that are not dates",
		"correct the date fields to one format (MM/DD/YYYY or YYYY-MM-DD)" },
	[SW_QC_ENCODING] = { "encoding", "Text that needed a fallback encoding",
		"re-export the load file and texts as UTF-8 (or UTF-16 with a byte-order mark)" },
	[SW_QC_FAMILY] = { "family", "Broken families",
		"correct BEGATTACH/ATTACHRANGE/PARENT_DOCID so each attachment names a document"
		" of the production, or produce the missing parent" },
	[SW_QC_BAD_ROW] = { "bad_row", "Rows that could not be read",
		"correct the rows (a Bates number in BEGBATES, the right number of fields) and"
		" re-produce the load file" },
};

const char *sw_qc_kind_name(enum sw_qc_kind k)
{
	return (unsigned)k < SW_QC_KINDS ? kinds[k].name : "";
}

const char *sw_qc_kind_title(enum sw_qc_kind k)
{
	return (unsigned)k < SW_QC_KINDS ? kinds[k].title : "";
}

const char *sw_qc_kind_fix(enum sw_qc_kind k)
{
	return (unsigned)k < SW_QC_KINDS ? kinds[k].fix : "";
}

static int kind_find(const char *name)
{
	for (int k = 0; k < SW_QC_KINDS; k++)
		if (strcmp(kinds[k].name, name) == 0)
			return k;
	return -1;
}

void sw_qc_add(struct sw_qc_volume *v, enum sw_qc_kind k, int line, const char *bates,
	       const char *fmt, ...)
{
	if (v->nfindings >= SW_QC_MAX_FINDINGS) {
		v->unlisted++;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	v->findings = sw_xgrow(v->findings, &v->cap, v->nfindings + 1, sizeof(*v->findings));
	v->findings[v->nfindings++] = (struct sw_qc_finding){
		.kind = k, .line = line, .bates = bates && bates[0] ? sw_xstrdup(bates) : NULL,
		.detail = sw_buf_detach(&b, NULL),
	};
}

void sw_qc_volume_release(struct sw_qc_volume *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nfindings; i++) {
		free(v->findings[i].bates);
		free(v->findings[i].detail);
	}
	free(v->findings);
	free(v->name);
	free(v->dat);
	free(v->opt);
	free(v->imported_at);
	memset(v, 0, sizeof(*v));
}

void sw_qc_volumes_free(struct sw_qc_volume *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		sw_qc_volume_release(&v[i]);
	free(v);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int sw_record_qc_save(struct sw_matter *m, const struct sw_qc_volume *v, struct sw_err *err)
{
	sqlite3 *db = m->db;
	sqlite3_stmt *del = NULL, *vol = NULL, *fnd = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "DELETE FROM qc_volumes WHERE dat_sha256 = ?1", -1, &del,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO qc_volumes (name, dat, opt, dat_sha256,"
				   " imported_at, documents, pages, natives, images, texts,"
				   " unlisted)"
				   " VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),"
				   " ?5, ?6, ?7, ?8, ?9, ?10)", -1, &vol, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO qc_findings (volume_id, seq, kind, line, bates,"
				   " detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1, &fnd,
			       NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, db, "cannot keep the production's QC report");
		goto cleanup;
	}
	if ((rc = sw__record_begin(m, err)) != 0)
		goto cleanup;
	sqlite3_bind_text(del, 1, v->sha256, -1, SQLITE_STATIC);
	bind_text(vol, 1, v->name);
	bind_text(vol, 2, v->dat);
	bind_text(vol, 3, v->opt);
	sqlite3_bind_text(vol, 4, v->sha256, -1, SQLITE_STATIC);
	const uint64_t n[] = { v->documents, v->pages, v->natives, v->images, v->texts,
			       v->unlisted };
	for (int i = 0; i < 6; i++)
		sqlite3_bind_int64(vol, 5 + i, (sqlite3_int64)n[i]);
	bool ok = sqlite3_step(del) == SQLITE_DONE && sqlite3_step(vol) == SQLITE_DONE;
	sqlite3_int64 id = sqlite3_last_insert_rowid(db);
	for (size_t i = 0; ok && i < v->nfindings; i++) {
		const struct sw_qc_finding *f = &v->findings[i];
		sqlite3_reset(fnd);
		sqlite3_bind_int64(fnd, 1, id);
		sqlite3_bind_int64(fnd, 2, (sqlite3_int64)i);
		sqlite3_bind_text(fnd, 3, sw_qc_kind_name(f->kind), -1, SQLITE_STATIC);
		if (f->line)
			sqlite3_bind_int(fnd, 4, f->line);
		else
			sqlite3_bind_null(fnd, 4);
		bind_text(fnd, 5, f->bates);
		bind_text(fnd, 6, f->detail);
		ok = sqlite3_step(fnd) == SQLITE_DONE;
	}
	if (!ok) {
		rc = sw__record_sqlerr(err, db, "cannot keep the production's QC report");
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto cleanup;
	}
	if ((rc = sw__record_exec(db, "COMMIT", err)) != 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
cleanup:
	sqlite3_finalize(del);
	sqlite3_finalize(vol);
	sqlite3_finalize(fnd);
	return rc;
}

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? sw_xstrdup((const char *)s) : NULL;
}

/* Whether the volume is one of names (its folder or its .DAT's name). */
static bool named(const struct sw_qc_volume *v, const char *const *names, size_t n, bool *hit)
{
	bool any = n == 0;
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(names[i], v->name) == 0 ||
		    strcasecmp(names[i], sw_path_base(v->dat)) == 0)
			any = hit[i] = true;
	return any;
}

static int load_findings(struct sw_qc_volume *v, sqlite3_stmt *st, sqlite3_int64 id)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		int k = kind_find((const char *)sqlite3_column_text(st, 0));
		if (k < 0)
			continue; /* a kind of a later build */
		v->findings =
			sw_xgrow(v->findings, &v->cap, v->nfindings + 1, sizeof(*v->findings));
		v->findings[v->nfindings++] = (struct sw_qc_finding){
			.kind = (enum sw_qc_kind)k, .line = sqlite3_column_int(st, 1),
			.bates = col(st, 2), .detail = col(st, 3),
		};
	}
	return s == SQLITE_DONE ? 0 : -1;
}

int sw_record_qc_load(struct sw_qc_volume **out, size_t *n, struct sw_matter *m,
		      const char *const *names, size_t nnames, struct sw_err *err)
{
	sqlite3 *db = m->db;
	sqlite3_stmt *vs = NULL, *fs = NULL;
	struct sw_qc_volume *vols = NULL;
	size_t nv = 0, cap = 0;
	bool *hit = sw_xcalloc(nnames + 1, sizeof(*hit));
	struct sw_buf all = SW_BUF_INIT;
	int rc = 0, s;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT id, name, dat, opt, dat_sha256, imported_at, documents,"
			       " pages, natives, images, texts, unlisted FROM qc_volumes"
			       " ORDER BY imported_at, id",
			       -1, &vs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       "SELECT kind, line, bates, detail FROM qc_findings"
			       " WHERE volume_id = ?1 ORDER BY seq",
			       -1, &fs, NULL) != SQLITE_OK)
		goto sqlerr;
	while ((s = sqlite3_step(vs)) == SQLITE_ROW) {
		struct sw_qc_volume v = { .name = col(vs, 1), .dat = col(vs, 2), .opt = col(vs, 3),
					  .imported_at = col(vs, 5) };
		const char *sha = (const char *)sqlite3_column_text(vs, 4);
		snprintf(v.sha256, sizeof(v.sha256), "%s", sha ? sha : "");
		uint64_t *nums[] = { &v.documents, &v.pages, &v.natives, &v.images, &v.texts,
				     &v.unlisted };
		for (int i = 0; i < 6; i++)
			*nums[i] = (uint64_t)sqlite3_column_int64(vs, 6 + i);
		sw_buf_addf(&all, "%s%s", all.len ? ", " : "", v.name ? v.name : "?");
		if (!v.name || !v.dat || !named(&v, names, nnames, hit)) {
			sw_qc_volume_release(&v);
			continue;
		}
		if (load_findings(&v, fs, sqlite3_column_int64(vs, 0)) != 0) {
			sw_qc_volume_release(&v);
			goto sqlerr;
		}
		vols = sw_xgrow(vols, &cap, nv + 1, sizeof(*vols));
		vols[nv++] = v;
	}
	if (s != SQLITE_DONE)
		goto sqlerr;
	for (size_t i = 0; i < nnames; i++)
		if (!hit[i]) {
			rc = all.len ? sw_err_set(err, SW_ENOTFOUND,
						  "no volume '%s' in matter '%s'; its volumes: %s",
						  names[i], m->name, all.data)
				     : sw_err_set(err, SW_ENOTFOUND,
						  "no volume '%s' in matter '%s': no load file "
						  "imported"
						  " yet (sworn ingest -m %s VOLUME)",
						  names[i], m->name, m->name);
			goto cleanup;
		}
	*out = vols;
	*n = nv;
	vols = NULL;
	nv = 0;
	goto cleanup;
sqlerr:
	rc = sw__record_sqlerr(err, db, "cannot read the production QC report");
cleanup:
	sqlite3_finalize(vs);
	sqlite3_finalize(fs);
	sw_qc_volumes_free(vols, nv);
	sw_buf_release(&all);
	free(hit);
	return rc;
}
