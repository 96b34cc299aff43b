/* schema.c - a matter database's schema: its migrations, and its pragmas
 * beyond base's (sw_db_open, which opens and migrates it).
 *
 * Migrations only ever move forward: migrations[i] takes a database from
 * user_version i to i + 1; never edit one that has shipped, add the next. */
#include "record/record_int.h"

/* sw_bates_canon_prefix in SQL, for the 2 -> 3 migration.  SQLite's upper()
 * changes ASCII letters only, as that function does. */
#define CANON_PREFIX \
	"upper(replace(replace(replace(replace(bates_prefix, '-', ''), '_', ''), ' ', ''), '.', ''))"

static const char *const migrations[] = {
	/* 0 -> 1: documents, pages, full-text index, transcripts, labels. */
	"CREATE TABLE documents ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  origin TEXT NOT NULL DEFAULT 'evidence'"
	"    CHECK (origin IN ('evidence', 'model', 'human', 'template')),"
	"  status TEXT NOT NULL DEFAULT 'active'"
	"    CHECK (status IN ('active', 'quarantined')),"
	"  sha256 TEXT NOT NULL,"
	"  original TEXT,"
	"  beg_bates TEXT,"
	"  end_bates TEXT,"
	"  source_path TEXT NOT NULL,"
	"  imported_at TEXT NOT NULL,"
	"  bytes INTEGER NOT NULL,"
	"  page_count INTEGER NOT NULL,"
	"  meta TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(meta)),"
	"  parent_id INTEGER REFERENCES documents (id));"
	"CREATE UNIQUE INDEX documents_identity"
	"  ON documents (sha256, ifnull(beg_bates, ''));"
	"CREATE INDEX documents_name ON documents (name);"
	"CREATE TABLE pages ("
	"  id INTEGER PRIMARY KEY,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  page_no INTEGER NOT NULL,"
	"  bates TEXT,"
	"  bates_prefix TEXT,"
	"  bates_num INTEGER,"
	"  bates_source TEXT,"
	"  text TEXT NOT NULL,"
	"  UNIQUE (doc_id, page_no));"
	"CREATE INDEX pages_bates ON pages (bates_prefix, bates_num)"
	"  WHERE bates_num IS NOT NULL;"
	"CREATE VIRTUAL TABLE pages_fts USING fts5 ("
	"  text, content = 'pages', content_rowid = 'id', tokenize = 'sworn');"
	"CREATE TABLE transcript_lines ("
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  tr_page INTEGER NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,"
	"  start INTEGER NOT NULL,"
	"  end INTEGER NOT NULL,"
	"  PRIMARY KEY (doc_id, tr_page, line)) WITHOUT ROWID;"
	"CREATE TABLE labels ("
	"  norm TEXT PRIMARY KEY,"
	"  label TEXT NOT NULL,"
	"  target TEXT NOT NULL,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  created_at TEXT NOT NULL);",
	/* 1 -> 2: OCR text and its confidence per page; quarantine decisions
	 * of the provenance firewall (the match found, or a human's override
	 * with the reason). */
	"ALTER TABLE pages ADD COLUMN text_source TEXT NOT NULL DEFAULT 'text'"
	"  CHECK (text_source IN ('text', 'ocr', 'none'));"
	"ALTER TABLE pages ADD COLUMN ocr_confidence REAL;"
	"CREATE INDEX documents_parent ON documents (parent_id)"
	"  WHERE parent_id IS NOT NULL;"
	"CREATE TABLE quarantine ("
	"  id INTEGER PRIMARY KEY,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  decision TEXT NOT NULL CHECK (decision IN ('quarantined', 'accepted')),"
	"  overlap REAL NOT NULL,"
	"  contained REAL NOT NULL,"
	"  shared INTEGER NOT NULL,"
	"  output_matter TEXT,"
	"  output_name TEXT,"
	"  output_id INTEGER,"
	"  reason TEXT,"
	"  decided_at TEXT NOT NULL);"
	"CREATE INDEX quarantine_doc ON quarantine (doc_id);",
	/* 2 -> 3: pages.bates_prefix canonical, as sw_bates_canon_prefix makes
	 * it (ASCII upper case; '-', '_', ' ' and '.' dropped: "BLT-" becomes
	 * "BLT"), so that a matter an older build wrote answers lookups by
	 * canonical prefix without a re-import.  The numbers as written
	 * (pages.bates, documents.beg_bates) are left alone. */
	"UPDATE pages SET bates_prefix = " CANON_PREFIX
	"  WHERE bates_prefix IS NOT NULL AND bates_prefix <> " CANON_PREFIX ";",
	/* 3 -> 4: the matter's settings.  Older builds made the run journal's
	 * tables here too; pipeline/ owns them now and migrates them itself
	 * (journal_schema.c, owner "journal" in schema_versions). */
	"CREATE TABLE settings ("
	"  key TEXT PRIMARY KEY,"
	"  value TEXT NOT NULL,"
	"  set_at TEXT NOT NULL);",
	/* 4 -> 5: documents taken out of the record (sworn matter rm, or
	 * replaced by a corrected re-production): status 'removed', and the
	 * decision with its reason in removals.  SQLite cannot widen a CHECK
	 * in place, so status is added again with the wider one, copied, and
	 * the old column dropped (its own CHECK goes with it). */
	"ALTER TABLE documents RENAME COLUMN status TO status_v4;"
	"ALTER TABLE documents ADD COLUMN status TEXT NOT NULL DEFAULT 'active'"
	"  CHECK (status IN ('active', 'quarantined', 'removed'));"
	"UPDATE documents SET status = status_v4;"
	"ALTER TABLE documents DROP COLUMN status_v4;"
	"CREATE TABLE removals ("
	"  id INTEGER PRIMARY KEY,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  prior_status TEXT NOT NULL,"
	"  reason TEXT NOT NULL,"
	"  replaced_by INTEGER REFERENCES documents (id),"
	"  removed_at TEXT NOT NULL);"
	"CREATE INDEX removals_doc ON removals (doc_id);",
	/* 5 -> 6 and 6 -> 7: the run journal's draft edits and step hosts in
	 * older builds; pipeline/'s own migrations now (journal_schema.c). */
	"/* moved to the journal */",
	"/* moved to the journal */",
	/* 7 -> 8: load-file metadata as fields (fields.c): the value of each
	 * known field as written, a date's day as YYYY-MM-DD (doc_fields),
	 * and the folded words of the text fields (doc_terms), so that a
	 * search by custodian, sender or date is an index look-up; filled
	 * here from the meta an older build stored. */
	"CREATE TABLE doc_fields ("
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  field TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  day TEXT,"
	"  PRIMARY KEY (doc_id, field)) WITHOUT ROWID;"
	"CREATE INDEX doc_fields_day ON doc_fields (day, field) WHERE day IS NOT NULL;"
	"CREATE TABLE doc_terms ("
	"  field TEXT NOT NULL,"
	"  term TEXT NOT NULL,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  PRIMARY KEY (field, term, doc_id)) WITHOUT ROWID;"
	"CREATE INDEX doc_terms_doc ON doc_terms (doc_id);"
	SW__RECORD_FIELDS_INSERT ";"
	SW__RECORD_TERMS_INSERT ";",
	/* 8 -> 9: what the run journal (pipeline/) may read of the documents,
	 * as a view record/ keeps stable whatever documents becomes: the
	 * journal joins this, never the table. */
	"CREATE VIEW record_docs AS SELECT id, origin, status, name,"
	"  beg_bates AS bates FROM documents;",
	/* 9 -> 10: production QC (qc.c): per load-file volume (its .DAT by
	 * SHA-256) the totals and the defects the import found, so that
	 * `sworn matter qc` reports them without reading the volume again. */
	"CREATE TABLE qc_volumes ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  dat TEXT NOT NULL,"
	"  opt TEXT,"
	"  dat_sha256 TEXT NOT NULL UNIQUE,"
	"  imported_at TEXT NOT NULL,"
	"  documents INTEGER NOT NULL,"
	"  pages INTEGER NOT NULL,"
	"  natives INTEGER NOT NULL,"
	"  images INTEGER NOT NULL,"
	"  texts INTEGER NOT NULL,"
	"  unlisted INTEGER NOT NULL);"
	"CREATE TABLE qc_findings ("
	"  volume_id INTEGER NOT NULL REFERENCES qc_volumes (id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  line INTEGER,"
	"  bates TEXT,"
	"  detail TEXT NOT NULL,"
	"  PRIMARY KEY (volume_id, seq)) WITHOUT ROWID;",
	/* 10 -> 11: a page's transcript lines by the page, in order: the
	 * verifier reads them for every cited transcript page, and without
	 * this each read scanned every line of every transcript. */
	"CREATE INDEX IF NOT EXISTS transcript_lines_page"
	"  ON transcript_lines (page_id, tr_page, line);",
};

/* The search tokenizer and the metadata functions, on every connection
 * before any migration runs (7 -> 8 uses the latter). */
static int matter_setup(sqlite3 *db, struct sw_err *err)
{
	int rc = sw__record_fts_register(db, err);
	return rc ? rc : sw__record_fields_register(db, err);
}

/* Fewer, larger checkpoints: an import writes a lot. */
const struct sw_db_schema sw__record_schema = {
	SW_DB_MIGRATIONS(migrations),
	.pragmas = "PRAGMA wal_autocheckpoint = 8192;"
		   "PRAGMA journal_size_limit = 67108864;"
		   "PRAGMA temp_store = MEMORY;",
	.setup = matter_setup,
};

int sw__record_db_open(sqlite3 **out, const char *path, bool create,
		       struct sw_err *err)
{
	return sw_db_open(out, path, &sw__record_schema, create ? SW_DB_CREATE : 0, err);
}
