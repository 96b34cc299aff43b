/* provenance.c - the provenance firewall: the workspace's registry of model
 * outputs (provenance.db), the check every imported document passes, the
 * human override, and the audit of a matter.
 *
 * provenance.db holds, for every model output of every matter, its matter,
 * document name and identity and its fingerprints: hashes, never text.  It
 * is the one file the matters share, and what it shares cannot be read back
 * into anyone's words.  The prints of all outputs are loaded into one sorted
 * array per open matter and reloaded only when another connection changed
 * the file (PRAGMA data_version), so checking a document costs a binary
 * search per print, not a query. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record_int.h"

#define PROV_NAME "provenance.db"

static const char *const prov_migrations[] = {
	/* 0 -> 1: the outputs and their prints. */
	"CREATE TABLE outputs ("
	"  id INTEGER PRIMARY KEY,"
	"  matter TEXT NOT NULL,"
	"  sha256 TEXT NOT NULL,"
	"  beg_bates TEXT NOT NULL DEFAULT '',"
	"  name TEXT NOT NULL,"
	"  doc_id INTEGER,"
	"  words INTEGER NOT NULL,"
	"  text_hash INTEGER NOT NULL,"
	"  nprints INTEGER NOT NULL,"
	"  created_at TEXT NOT NULL,"
	"  UNIQUE (matter, sha256, beg_bates));"
	"CREATE TABLE prints ("
	"  hash INTEGER NOT NULL,"
	"  output_id INTEGER NOT NULL REFERENCES outputs (id) ON DELETE CASCADE,"
	"  PRIMARY KEY (hash, output_id)) WITHOUT ROWID;",
};

static const struct sw_db_schema prov_schema = { SW_DB_MIGRATIONS(prov_migrations) };

struct prov_print {
	uint64_t hash;
	uint32_t out; /* index into outs */
};

struct prov_output {
	int64_t id;
	char *matter;
	char *name;
	uint64_t text_hash;
	size_t nprints;
	size_t words;
};

struct sw__record_prov_index {
	struct prov_print *prints;
	size_t nprints;
	struct prov_output *outs;
	size_t nouts;
	int64_t data_version;
};

static void index_free(struct sw__record_prov_index *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nouts; i++) {
		free(x->outs[i].matter);
		free(x->outs[i].name);
	}
	free(x->outs);
	free(x->prints);
	free(x);
}

void sw__record_prov_close(struct sw_matter *m)
{
	index_free(m->prov_index);
	m->prov_index = NULL;
	sqlite3_close(m->prov);
	m->prov = NULL;
}

void sw_provenance_match_release(struct sw_provenance_match *p)
{
	if (!p)
		return;
	free(p->matter);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

static int prov_open(struct sw_matter *m, struct sw_err *err)
{
	if (m->prov)
		return 0;
	char *path = sw_path_join(m->ws_root, PROV_NAME);
	/* Created (or tightened) 0600 before SQLite opens it: it holds the
	 * fingerprints of every matter's model outputs, and its -wal and
	 * -shm files take its mode. */
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		struct stat st;
		if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 077))
			(void)fchmod(fd, 0600);
		close(fd);
	}
	int rc = sw_db_open(&m->prov, path, &prov_schema, SW_DB_CREATE, err);
	free(path);
	return rc;
}

static int64_t data_version(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int cmp_print(const void *a, const void *b)
{
	const struct prov_print *x = a, *y = b;
	return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static int find_out(const struct sw__record_prov_index *x, int64_t id)
{
	size_t lo = 0, hi = x->nouts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->outs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nouts && x->outs[lo].id == id ? (int)lo : -1;
}

/* Load every output's prints, unless what is loaded is still current. */
static int index_load(struct sw_matter *m, struct sw_err *err)
{
	struct sw__record_prov_index *x = NULL;
	sqlite3_stmt *st = NULL;
	size_t capouts = 0, capprints = 0;
	int rc = 0, step;

	int64_t v = data_version(m->prov);
	if (m->prov_index && m->prov_index->data_version == v)
		return 0;
	index_free(m->prov_index);
	m->prov_index = NULL;
	x = sw_xcalloc(1, sizeof(*x));
	x->data_version = v;
	if (sqlite3_prepare_v2(m->prov,
			       "SELECT id, matter, name, text_hash, nprints, words FROM outputs"
			       " ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->prov, "cannot read model outputs");
		goto cleanup;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		x->outs = sw_xgrow(x->outs, &capouts, x->nouts + 1, sizeof(*x->outs));
		struct prov_output *o = &x->outs[x->nouts++];
		o->id = sqlite3_column_int64(st, 0);
		o->matter = sw_db_col_dup(st, 1);
		o->name = sw_db_col_dup(st, 2);
		o->text_hash = (uint64_t)sqlite3_column_int64(st, 3);
		o->nprints = (size_t)sqlite3_column_int64(st, 4);
		o->words = (size_t)sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->prov, "cannot read model outputs");
		goto cleanup;
	}
	if (sqlite3_prepare_v2(m->prov, "SELECT hash, output_id FROM prints", -1, &st, NULL) !=
	    SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->prov, "cannot read fingerprints");
		goto cleanup;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int k = find_out(x, sqlite3_column_int64(st, 1));
		if (k < 0)
			continue;
		x->prints = sw_xgrow(x->prints, &capprints, x->nprints + 1, sizeof(*x->prints));
		x->prints[x->nprints].hash = (uint64_t)sqlite3_column_int64(st, 0);
		x->prints[x->nprints].out = (uint32_t)k;
		x->nprints++;
	}
	if (step != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->prov, "cannot read fingerprints");
		goto cleanup;
	}
	if (x->nprints)
		qsort(x->prints, x->nprints, sizeof(*x->prints), cmp_print);
	m->prov_index = x;
	x = NULL;
cleanup:
	sqlite3_finalize(st);
	index_free(x);
	return rc;
}

/* A score is better when it matches, then by overlap, then by shared. */
static bool better(const struct sw_fp_score *a, const struct sw_fp_score *b)
{
	if (a->match != b->match)
		return a->match;
	if (a->overlap != b->overlap)
		return a->overlap > b->overlap;
	return a->shared > b->shared;
}

int sw__record_prov_outputs(size_t *out, struct sw_matter *m, struct sw_err *err)
{
	int rc;
	*out = 0;
	if (!m->ws_root)
		return 0;
	if (!m->prov) {
		/* No provenance.db yet: no model output in the workspace to
		 * count.  It is not created only to be found empty (that cost
		 * a workspace's first import seven syncs). */
		char *path = sw_path_join(m->ws_root, PROV_NAME);
		bool absent = access(path, F_OK) != 0 && errno == ENOENT;
		free(path);
		if (absent)
			return 0;
	}
	if ((rc = prov_open(m, err)) != 0 || (rc = index_load(m, err)) != 0)
		return rc;
	*out = m->prov_index->nouts;
	return 0;
}

/* Count one of a document's prints against every output holding it. */
struct shared_count {
	const struct sw__record_prov_index *x;
	size_t *shared; /* by output */
};

static void count_print(void *ctx, uint64_t hash)
{
	struct shared_count *c = ctx;
	const struct sw__record_prov_index *x = c->x;
	size_t lo = 0, hi = x->nprints;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->prints[mid].hash < hash)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < x->nprints && x->prints[lo].hash == hash; lo++)
		c->shared[x->prints[lo].out]++;
}

static void prov_decide(struct sw_provenance_match *out, const struct sw__record_prov_index *x,
			const size_t *shared, const struct sw_fp *doc);

int sw__record_prov_check_stream(struct sw_provenance_match *out, struct sw_matter *m,
				 struct sw_fp_stream *s, struct sw_err *err)
{
	struct sw_fp info = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	if (!m->ws_root || s->nwords == 0) {
		sw__record_fp_stream_release(s);
		return 0;
	}
	if ((rc = prov_open(m, err)) != 0 || (rc = index_load(m, err)) != 0) {
		sw__record_fp_stream_release(s);
		return rc;
	}
	const struct sw__record_prov_index *x = m->prov_index;
	if (x->nouts == 0) {
		sw__record_fp_stream_release(s);
		return 0;
	}
	struct shared_count c = { .x = x, .shared = sw_xcalloc(x->nouts, sizeof(size_t)) };
	if ((rc = sw__record_fp_stream_each(s, count_print, &c, &info, err)) == 0)
		prov_decide(out, x, c.shared, &info);
	free(c.shared);
	return rc;
}

int sw__record_prov_check(struct sw_provenance_match *out, struct sw_matter *m,
		   const struct sw_fp *doc, struct sw_err *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!m->ws_root || doc->words == 0)
		return 0;
	if ((rc = prov_open(m, err)) != 0 || (rc = index_load(m, err)) != 0)
		return rc;
	const struct sw__record_prov_index *x = m->prov_index;
	if (x->nouts == 0)
		return 0;
	struct shared_count c = { .x = x, .shared = sw_xcalloc(x->nouts, sizeof(size_t)) };
	for (size_t i = 0; i < doc->n; i++)
		count_print(&c, doc->hashes[i]);
	prov_decide(out, x, c.shared, doc);
	free(c.shared);
	return 0;
}

/* The best-scoring output, and whether the document is quarantined. */
static void prov_decide(struct sw_provenance_match *out, const struct sw__record_prov_index *x,
			const size_t *shared, const struct sw_fp *doc)
{
	struct sw_fp_score best = { 0 };
	int besti = -1;
	for (size_t k = 0; k < x->nouts; k++) {
		struct sw_fp_score s;
		sw__record_fp_score(&s, shared[k], doc, x->outs[k].nprints, x->outs[k].text_hash);
		if ((s.shared || s.match) && (besti < 0 || better(&s, &best))) {
			best = s;
			besti = (int)k;
		}
	}
	if (besti >= 0) {
		const struct prov_output *o = &x->outs[besti];
		out->quarantine = best.match;
		out->overlap = best.overlap;
		out->contained = best.contained;
		out->shared = best.shared;
		out->output_id = o->id;
		out->matter = sw_xstrdup(o->matter ? o->matter : "");
		out->name = sw_xstrdup(o->name ? o->name : "");
	}
}

int sw__record_prov_register(struct sw_matter *m, const char *sha256,
		      const char *beg_bates, const char *name,
		      const struct sw_fp *fp, struct sw_err *err)
{
	sqlite3_stmt *ins = NULL, *pr = NULL;
	bool in_tx = false;
	char now[21];
	int rc;

	if (!m->ws_root)
		return 0;
	if ((rc = prov_open(m, err)) != 0)
		return rc;
	sw_utc_now(now);
	if (sqlite3_prepare_v2(m->prov,
			       "INSERT OR IGNORE INTO outputs (matter, sha256, beg_bates, name,"
			       " words, text_hash, nprints, created_at)"
			       " VALUES (?1, ?2, ifnull(?3, ''), ?4, ?5, ?6, ?7, ?8)",
			       -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(m->prov,
			       "INSERT OR IGNORE INTO prints (hash, output_id) VALUES (?1, ?2)",
			       -1, &pr, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->prov, "cannot register a model output");
		goto cleanup;
	}
	if ((rc = sw__record_exec(m->prov, "BEGIN IMMEDIATE", err)) != 0)
		goto cleanup;
	in_tx = true;
	sqlite3_bind_text(ins, 1, m->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins, 2, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins, 3, beg_bates, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins, 4, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ins, 5, (sqlite3_int64)fp->words);
	sqlite3_bind_int64(ins, 6, (sqlite3_int64)fp->text_hash);
	sqlite3_bind_int64(ins, 7, (sqlite3_int64)fp->n);
	sqlite3_bind_text(ins, 8, now, -1, SQLITE_STATIC);
	if (sqlite3_step(ins) != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->prov, "cannot register a model output");
		goto cleanup;
	}
	if (sqlite3_changes(m->prov) == 1) {
		int64_t id = sqlite3_last_insert_rowid(m->prov);
		for (size_t i = 0; i < fp->n; i++) {
			sqlite3_bind_int64(pr, 1, (sqlite3_int64)fp->hashes[i]);
			sqlite3_bind_int64(pr, 2, id);
			if (sqlite3_step(pr) != SQLITE_DONE) {
				rc = sw__record_sqlerr(err, m->prov, "cannot store fingerprints");
				goto cleanup;
			}
			sqlite3_reset(pr);
		}
	}
	if ((rc = sw__record_exec(m->prov, "COMMIT", err)) != 0)
		goto cleanup;
	in_tx = false;
	/* PRAGMA data_version moves only for other connections' writes: drop
	 * the loaded index, or this process would compare later imports with
	 * a list that lacks the output just registered */
	index_free(m->prov_index);
	m->prov_index = NULL;
cleanup:
	if (in_tx)
		sqlite3_exec(m->prov, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(ins);
	sqlite3_finalize(pr);
	return rc;
}

void sw__record_prov_set_doc(struct sw_matter *m, const char *sha256,
		      const char *beg_bates, int64_t doc_id)
{
	sqlite3_stmt *st = NULL;
	if (!m->prov)
		return;
	if (sqlite3_prepare_v2(m->prov,
			       "UPDATE outputs SET doc_id = ?1 WHERE matter = ?2 AND sha256 = ?3"
			       " AND beg_bates = ifnull(?4, '')",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, doc_id);
		sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, sha256, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, beg_bates, -1, SQLITE_STATIC);
		(void)sqlite3_step(st);
	}
	sqlite3_finalize(st);
}

int sw_record_check_provenance(struct sw_provenance_match *out,
			       struct sw_matter *m, const char *text, size_t len,
			       struct sw_err *err)
{
	struct sw_fp fp;
	sw__record_fp_compute(&fp, text, len);
	int rc = sw__record_prov_check(out, m, &fp, err);
	sw__record_fp_release(&fp);
	return rc;
}

/* The one document doc names: an id, a name or a BEGBATES. */
static int find_named(int64_t *out, char **status, sqlite3 *db, const char *doc,
		      struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, n = 0, step;
	uint64_t id = 0;
	bool numeric = sw_parse_u64(doc, strlen(doc), &id);

	if (sqlite3_prepare_v2(db,
			       "SELECT id, status FROM documents WHERE id = ?1 OR name = ?2"
			       " OR beg_bates = ?2 ORDER BY id = ?1 DESC",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot look up a document");
	sqlite3_bind_int64(st, 1, numeric ? (sqlite3_int64)id : -1);
	sqlite3_bind_text(st, 2, doc, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == 0 || sqlite3_column_int64(st, 0) == (sqlite3_int64)id) {
			*out = sqlite3_column_int64(st, 0);
			free(*status);
			*status = sw_db_col_dup(st, 1);
		}
		n++;
	}
	if (step != SQLITE_DONE)
		rc = sw__record_sqlerr(err, db, "cannot look up a document");
	else if (n == 0)
		rc = sw_err_set(err, SW_ENOTFOUND, "no document '%s' in this matter", doc);
	else if (n > 1 && !(numeric && *out == (int64_t)id))
		rc = sw_err_set(err, SW_EUSAGE,
				"%d documents are called '%s': name one by its id", n, doc);
	sqlite3_finalize(st);
	return rc;
}

int sw_record_accept_quarantined(int64_t *out_id, struct sw_matter *m,
				 const char *doc, const char *reason,
				 struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	char *status = NULL;
	char now[21];
	bool in_tx = false;
	int rc;

	if (!reason || !*reason)
		return sw_err_set(err, SW_EUSAGE,
				  "accepting a quarantined document needs --reason \"...\"");
	if (strchr(reason, '\n') || strlen(reason) > 2000 || !sw_utf8_valid(reason, strlen(reason)))
		return sw_err_set(err, SW_EUSAGE, "the reason must be one line of text");
	if ((rc = sw__record_begin(m, err)) != 0)
		return rc;
	in_tx = true;
	if ((rc = find_named(out_id, &status, m->db, doc, err)) != 0)
		goto cleanup;
	if (!status || strcmp(status, "quarantined") != 0) {
		rc = sw_err_set(err, SW_EUSAGE, "document %lld ('%s') is not quarantined",
				(long long)*out_id, doc);
		goto cleanup;
	}
	sw_utc_now(now);
	/* The acceptance repeats the match it overrides, so the audit reads
	 * each decision on its own. */
	if (sqlite3_prepare_v2(m->db,
			       "INSERT INTO quarantine (doc_id, decision, overlap, contained, shared,"
			       " output_matter, output_name, output_id, reason, decided_at)"
			       " SELECT doc_id, 'accepted', overlap, contained, shared, output_matter,"
			       " output_name, output_id, ?2, ?3 FROM quarantine WHERE doc_id = ?1"
			       " ORDER BY id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->db, "cannot record the decision");
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, *out_id);
	sqlite3_bind_text(st, 2, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE || sqlite3_changes(m->db) != 1) {
		rc = sw__record_sqlerr(err, m->db, "cannot record the decision");
		goto cleanup;
	}
	char *upd = sw_xasprintf("UPDATE documents SET status = 'active' WHERE id = %lld",
				 (long long)*out_id);
	rc = sw__record_exec(m->db, upd, err);
	free(upd);
	if (rc || (rc = sw__record_exec(m->db, "COMMIT", err)) != 0)
		goto cleanup;
	in_tx = false;
cleanup:
	if (in_tx)
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(st);
	free(status);
	return rc;
}

int sw_matter_audit(struct sw_audit *out, struct sw_matter *m, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc = 0, step;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(m->db,
			       "SELECT origin, status, count(*), sum(page_count) FROM documents"
			       " GROUP BY origin, status ORDER BY origin, status",
			       -1, &st, NULL) != SQLITE_OK)
		goto sqlfail;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		out->origins = sw_xgrow(out->origins, &cap, out->norigins + 1, sizeof(*out->origins));
		struct sw_audit_origin *o = &out->origins[out->norigins++];
		o->origin = sw_db_col_dup(st, 0);
		o->status = sw_db_col_dup(st, 1);
		o->documents = (uint64_t)sqlite3_column_int64(st, 2);
		o->pages = (uint64_t)sqlite3_column_int64(st, 3);
	}
	if (step != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	cap = 0;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT id, name, kind, origin, status FROM documents"
			       " WHERE origin <> 'evidence' OR status <> 'active' ORDER BY origin, id",
			       -1, &st, NULL) != SQLITE_OK)
		goto sqlfail;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		out->docs = sw_xgrow(out->docs, &cap, out->ndocs + 1, sizeof(*out->docs));
		struct sw_audit_doc *d = &out->docs[out->ndocs++];
		d->id = sqlite3_column_int64(st, 0);
		d->name = sw_db_col_dup(st, 1);
		d->kind = sw_db_col_dup(st, 2);
		d->origin = sw_db_col_dup(st, 3);
		d->status = sw_db_col_dup(st, 4);
	}
	if (step != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	cap = 0;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT q.doc_id, d.name, q.decision, q.overlap, q.contained,"
			       " q.output_matter, q.output_name, q.reason, q.decided_at"
			       " FROM quarantine AS q JOIN documents AS d ON d.id = q.doc_id"
			       " ORDER BY q.id",
			       -1, &st, NULL) != SQLITE_OK)
		goto sqlfail;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		out->decisions = sw_xgrow(out->decisions, &cap, out->ndecisions + 1,
					  sizeof(*out->decisions));
		struct sw_audit_decision *d = &out->decisions[out->ndecisions++];
		d->doc_id = sqlite3_column_int64(st, 0);
		d->document = sw_db_col_dup(st, 1);
		d->decision = sw_db_col_dup(st, 2);
		d->overlap = sqlite3_column_double(st, 3);
		d->contained = sqlite3_column_double(st, 4);
		d->output_matter = sw_db_col_dup(st, 5);
		d->output_name = sw_db_col_dup(st, 6);
		d->reason = sw_db_col_dup(st, 7);
		d->decided_at = sw_db_col_dup(st, 8);
	}
	if (step != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	if ((rc = sw__record_audit_removals(out, m, err)) != 0 ||
	    (rc = sw__record_audit_reclasses(out, m, err)) != 0)
		sw_audit_release(out);
	return rc;
sqlfail:
	rc = sw__record_sqlerr(err, m->db, "cannot audit the matter");
	sqlite3_finalize(st);
	sw_audit_release(out);
	return rc;
}

void sw_audit_release(struct sw_audit *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->norigins; i++) {
		free(a->origins[i].origin);
		free(a->origins[i].status);
	}
	for (size_t i = 0; i < a->ndecisions; i++) {
		struct sw_audit_decision *d = &a->decisions[i];
		free(d->document);
		free(d->decision);
		free(d->output_matter);
		free(d->output_name);
		free(d->reason);
		free(d->decided_at);
	}
	for (size_t i = 0; i < a->ndocs; i++) {
		free(a->docs[i].name);
		free(a->docs[i].kind);
		free(a->docs[i].origin);
		free(a->docs[i].status);
	}
	sw__record_audit_removals_release(a);
	sw__record_audit_reclasses_release(a);
	free(a->docs);
	free(a->origins);
	free(a->decisions);
	memset(a, 0, sizeof(*a));
}
