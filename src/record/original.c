/* original.c - where a document's original file is kept (files/xx/<sha256>),
 * for those who show it as it was: sworn serve's page images. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

/* A stored hash is only ever 64 lower-case hex digits; anything else in
 * the column must not become part of a path. */
static bool sha_valid(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == SW_SHA256_HEX_LEN;
}

int sw_record_doc_original(char **path, struct sw_matter *m, int64_t doc_id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	char *p = NULL;
	int rc = 0, step;

	*path = NULL;
	if (sqlite3_prepare_v2(m->db, "SELECT original FROM documents WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot look up a document's original");
	sqlite3_bind_int64(st, 1, doc_id);
	step = sqlite3_step(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->db, "cannot look up a document's original");
		goto cleanup;
	}
	const char *sha = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (!sha || !sha_valid(sha)) {
		rc = sw_err_set(err, SW_ENOTFOUND, "document %lld has no original kept",
				(long long)doc_id);
		goto cleanup;
	}
	char sub[3] = { sha[0], sha[1], '\0' };
	char *dir = sw_path_join(m->files_dir, sub);
	p = sw_path_join(dir, sha);
	free(dir);
	if (!sw_path_is_file(p)) {
		rc = sw_err_set(err, SW_ENOTFOUND, "the original of document %lld is missing from files/",
				(long long)doc_id);
		goto cleanup;
	}
	*path = p;
	p = NULL;
cleanup:
	free(p);
	sqlite3_finalize(st);
	return rc;
}
