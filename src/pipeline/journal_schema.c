/* journal_schema.c - the run journal's tables, owned by pipeline/: their
 * migrations (owner "journal" in schema_versions), and the one way the
 * journal's files reach the matter's database.
 *
 * Older builds made these tables through record/'s migrations (user_version
 * 4, 6 and 7); adopt() reads what such a file already has, so it joins this
 * list where it stands.  Migrations only ever move forward: never edit one
 * that has shipped, add the next. */
#include <string.h>

#include "pipeline/pipeline_int.h"

static const char *const migrations[] = {
	/* 0 -> 1: runs, their steps, what went into each step's window, what
	 * the evidence carried that reads as instructions to a model, and the
	 * lawyer's corrections. */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  task TEXT NOT NULL,"
	"  task_sha256 TEXT NOT NULL,"
	"  task_source TEXT NOT NULL,"
	"  brief_name TEXT NOT NULL,"
	"  brief TEXT NOT NULL,"
	"  brief_doc_id INTEGER,"
	"  rounds INTEGER NOT NULL,"
	"  status TEXT NOT NULL CHECK (status IN ('running', 'paused',"
	"    'cancelled', 'verified', 'blocked', 'approved')),"
	"  reason TEXT,"
	"  pid INTEGER,"
	"  draft_doc_id INTEGER,"
	"  final_doc_id INTEGER,"
	"  final_path TEXT,"
	"  created_at TEXT NOT NULL,"
	"  updated_at TEXT NOT NULL,"
	"  wall_s REAL NOT NULL DEFAULT 0);"
	"CREATE TABLE run_steps ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  step TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  item INTEGER,"
	"  round INTEGER NOT NULL DEFAULT 0,"
	"  role TEXT,"
	"  endpoint TEXT,"
	"  model TEXT,"
	"  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done',"
	"    'failed', 'cancelled')),"
	"  prompt_sha256 TEXT,"
	"  messages TEXT,"
	"  output TEXT,"
	"  output_doc_id INTEGER,"
	"  error TEXT,"
	"  prompt_tokens INTEGER,"
	"  completion_tokens INTEGER,"
	"  prompt_per_s REAL,"
	"  predicted_per_s REAL,"
	"  started_at TEXT,"
	"  finished_at TEXT,"
	"  wall_s REAL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  detail TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail)),"
	"  UNIQUE (run_id, key));"
	"CREATE TABLE run_sections ("
	"  step_id INTEGER NOT NULL REFERENCES run_steps (id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  origin TEXT NOT NULL,"
	"  doc_id INTEGER,"
	"  document TEXT,"
	"  page_no INTEGER,"
	"  bates TEXT,"
	"  tokens INTEGER NOT NULL,"
	"  estimated INTEGER NOT NULL,"
	"  PRIMARY KEY (step_id, seq)) WITHOUT ROWID;"
	"CREATE TABLE run_flags ("
	"  id INTEGER PRIMARY KEY,"
	"  step_id INTEGER NOT NULL REFERENCES run_steps (id) ON DELETE CASCADE,"
	"  doc_id INTEGER,"
	"  document TEXT,"
	"  bates TEXT,"
	"  kind TEXT NOT NULL,"
	"  excerpt TEXT NOT NULL);"
	"CREATE TABLE corrections ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	"  step_key TEXT NOT NULL,"
	"  messages TEXT NOT NULL,"
	"  draft TEXT NOT NULL,"
	"  final TEXT NOT NULL,"
	"  draft_doc_id INTEGER,"
	"  final_doc_id INTEGER,"
	"  diff TEXT NOT NULL CHECK (json_valid(diff)),"
	"  words_kept INTEGER NOT NULL,"
	"  words_changed INTEGER NOT NULL,"
	"  words_added INTEGER NOT NULL,"
	"  words_removed INTEGER NOT NULL,"
	"  override TEXT,"
	"  overridden TEXT,"
	"  created_at TEXT NOT NULL);",
	/* 1 -> 2: sworn serve's saved edits of a run's draft: the lawyer's
	 * current text of each run, one row per run, with a version raised by
	 * each save so that two tabs cannot overwrite each other. */
	"CREATE TABLE draft_edits ("
	"  run_id INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,"
	"  version INTEGER NOT NULL CHECK (version > 0),"
	"  text TEXT NOT NULL,"
	"  saved_at TEXT NOT NULL);",
	/* 2 -> 3: the host of each step's endpoint, when the fleet runs it on
	 * one of several boxes: [host] name, else NULL. */
	"ALTER TABLE run_steps ADD COLUMN host TEXT;",
	/* 3 -> 4: sign-off.  The lawyer's waivers of single claims, each
	 * naming its claim by fingerprint (journal_waivers.c), and the
	 * person who approved or overrode (with the correction, which has
	 * the time). */
	"CREATE TABLE waivers ("
	"  id INTEGER PRIMARY KEY,"
	"  fingerprint TEXT NOT NULL,"
	"  run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,"
	"  kind TEXT NOT NULL,"
	"  claim TEXT NOT NULL,"
	"  verdict TEXT NOT NULL,"
	"  reason TEXT NOT NULL,"
	"  by_name TEXT NOT NULL,"
	"  by_email TEXT,"
	"  by_bar TEXT,"
	"  created_at TEXT NOT NULL);"
	"CREATE INDEX waivers_fingerprint ON waivers (fingerprint);"
	"ALTER TABLE corrections ADD COLUMN by_name TEXT;"
	"ALTER TABLE corrections ADD COLUMN by_email TEXT;"
	"ALTER TABLE corrections ADD COLUMN by_bar TEXT;",
	/* 4 -> 5: the waivers that let claims of the final pass on approval,
	 * as a JSON array of their ids. */
	"ALTER TABLE corrections ADD COLUMN waivers TEXT;",
	/* 5 -> 6: each correction that left in an export, when, in which kind
	 * and format, and where to, so that a document removed afterwards can
	 * be traced to what already left (corrections export --audit). */
	"CREATE TABLE correction_exports ("
	"  id INTEGER PRIMARY KEY,"
	"  correction_id INTEGER NOT NULL REFERENCES corrections (id) ON DELETE CASCADE,"
	"  kind TEXT NOT NULL,"
	"  format TEXT NOT NULL,"
	"  dest TEXT NOT NULL,"
	"  exported_at TEXT NOT NULL);"
	"CREATE INDEX correction_exports_correction ON correction_exports (correction_id);",
	/* 6 -> 7: a run that is a new version of an approved one (whose draft
	 * is that run's final): the approved run's id. */
	"ALTER TABLE runs ADD COLUMN parent_run_id INTEGER REFERENCES runs (id);",
};

static bool has(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	bool yes = false;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
		yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* What record/'s migrations of an older build made of these tables. */
static int adopt(sqlite3 *db, int *version, struct sw_err *err)
{
	(void)err;
	*version = 0;
	if (!has(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'runs'"))
		return 0;
	*version = 1;
	if (has(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'draft_edits'"))
		*version = 2;
	if (*version == 2 &&
	    has(db, "SELECT 1 FROM pragma_table_info('run_steps') WHERE name = 'host'"))
		*version = 3;
	return 0;
}

static const struct sw_db_owner journal_owner = {
	.owner = "journal",
	SW_DB_MIGRATIONS(migrations),
	.adopt = adopt,
};

sqlite3 *sw__journal_db(struct sw_matter *m, struct sw_err *err)
{
	sqlite3 *db = sw_matter_db(m);
	if (sw_db_migrate_owner(db, &journal_owner, err) != 0)
		return NULL;
	return db;
}

int sw_run_journal_open(struct sw_matter *m, struct sw_err *err)
{
	return sw__journal_db(m, err) ? 0 : SW_EDB;
}
