/* db.c - opening sworn's SQLite databases: one set of pragmas, one busy
 * timeout, one error text, forward migrations by user_version, and the
 * fault seams that make the Nth statement fail.
 *
 * Migrations only ever move forward: migrations[i] takes a database from
 * user_version i to i + 1 in its own transaction, so an interrupted upgrade
 * leaves the last complete version behind.  Each step re-reads the version
 * inside its write transaction, so two processes opening an old file at
 * once migrate it once. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/base.h"

#define BUSY_TIMEOUT_MS 10000

int sw_db_error(struct sw_err *err, sqlite3 *db, const char *what)
{
	return sw_err_set(err, SW_EDB, "%s: %s", what,
			  db ? sqlite3_errmsg(db) : "cannot allocate a database handle");
}

int sw_db_exec(sqlite3 *db, const char *sql, struct sw_err *err)
{
	char *msg = NULL;
	if (sw_fault("sql"))
		return sw_err_set(err, SW_EFAULT, "database: injected fault");
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int rc = sw_err_set(err, SW_EDB, "database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return rc;
	}
	return 0;
}

/* ------------------------------------------------------------ fault seams */

/* SWORN_FAULT="db-step:N" interrupts the Nth statement run on a connection
 * this file opened (SQLITE_INTERRUPT from its first step), and
 * "db-prepare:N" refuses the Nth statement compiled (SQLITE_AUTH).  Both
 * count every statement, the ones other files prepare and SQLite's own
 * (FTS5's) included, so a test reaches every query of an operation.  They
 * are installed only when the variable names them. */
static atomic_bool interrupt_pending;

/* Whether the seam fires now.  A loop over N needs to know when N has gone
 * past the operation's last statement (a statement whose failure is
 * tolerated passes too): SWORN_FAULT_MARK=FILE makes the firing create
 * FILE. */
static bool fault_fires(const char *site)
{
	if (!sw_fault(site))
		return false;
	const char *mark = getenv("SWORN_FAULT_MARK");
	if (mark) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	}
	return true;
}

static int fault_trace(unsigned type, void *ctx, void *p, void *x)
{
	(void)ctx;
	(void)p;
	(void)x;
	if (type == SQLITE_TRACE_STMT && fault_fires("db-step"))
		atomic_store(&interrupt_pending, true);
	return 0;
}

static int fault_progress(void *ctx)
{
	(void)ctx;
	return atomic_exchange(&interrupt_pending, false) ? 1 : 0;
}

static int fault_authorize(void *ctx, int action, const char *a, const char *b,
			   const char *c, const char *d)
{
	(void)ctx;
	(void)a;
	(void)b;
	(void)c;
	(void)d;
	/* One action per statement: the column reads and the functions a
	 * statement also asks about are not counted. */
	switch (action) {
	case SQLITE_SELECT: case SQLITE_INSERT: case SQLITE_DELETE:
	case SQLITE_PRAGMA: case SQLITE_TRANSACTION: case SQLITE_SAVEPOINT:
	case SQLITE_CREATE_TABLE: case SQLITE_CREATE_INDEX:
	case SQLITE_CREATE_VTABLE: case SQLITE_ALTER_TABLE:
		return fault_fires("db-prepare") ? SQLITE_DENY : SQLITE_OK;
	default:
		return SQLITE_OK;
	}
}

static void install_faults(sqlite3 *db)
{
	const char *f = getenv("SWORN_FAULT");
	if (!f)
		return;
	if (strncmp(f, "db-step:", 8) == 0) {
		sqlite3_trace_v2(db, SQLITE_TRACE_STMT, fault_trace, NULL);
		sqlite3_progress_handler(db, 1, fault_progress, NULL);
	} else if (strncmp(f, "db-prepare:", 11) == 0) {
		sqlite3_set_authorizer(db, fault_authorize, NULL);
	}
}

/* ------------------------------------------------------------- migration */

static int user_version(sqlite3 *db, int *out, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		rc = sw_db_error(err, db, "cannot read the schema version");
	else
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc;
}

static int too_new(struct sw_err *err, const char *path, int version, int target)
{
	return sw_err_set(err, SW_EINPUT,
			  "'%s' has schema version %d, newer than this sworn (%d): upgrade sworn",
			  path, version, target);
}

static int migrate(sqlite3 *db, const char *path, const struct sw_db_schema *s,
		   struct sw_err *err)
{
	int version = 0, rc;
	/* The common case, a current file, takes no write lock. */
	if ((rc = user_version(db, &version, err)) != 0)
		return sw_err_wrap(err, rc, "cannot open '%s'", path);
	if (version > s->version)
		return too_new(err, path, version, s->version);
	while (version < s->version) {
		char set[48];
		if ((rc = sw_db_exec(db, "BEGIN IMMEDIATE", err)) != 0)
			return sw_err_wrap(err, rc, "cannot migrate '%s'", path);
		if ((rc = user_version(db, &version, err)) != 0)
			goto rollback;
		if (version >= s->version) {
			if (version > s->version)
				rc = too_new(err, path, version, s->version);
			else
				rc = sw_db_exec(db, "COMMIT", err);
			if (rc)
				goto rollback;
			break;
		}
		snprintf(set, sizeof(set), "PRAGMA user_version = %d;", version + 1);
		if ((rc = sw_db_exec(db, s->migrations[version], err)) != 0 ||
		    (rc = sw_db_exec(db, set, err)) != 0 ||
		    (rc = sw_db_exec(db, "COMMIT", err)) != 0)
			goto rollback;
		version++;
	}
	return 0;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	if (rc == SW_EINPUT)
		return rc;
	return sw_err_wrap(err, rc, "cannot migrate '%s' to version %d", path, version + 1);
}

/* ------------------------------------------------------------------ owners */

static int owner_version(sqlite3 *db, const char *owner, int *out, bool *found,
			 struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, s;
	*out = 0;
	*found = false;
	if ((rc = sw_db_prepare(&st, db, "SELECT version FROM schema_versions WHERE owner = ?",
				"cannot read the schema version", err)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, owner, -1, SQLITE_STATIC);
	s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		*found = true;
	} else if (s != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the schema version");
	}
	sqlite3_finalize(st);
	return rc;
}

static int owner_set(sqlite3 *db, const char *owner, int version, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	if ((rc = sw_db_prepare(&st, db,
				"INSERT INTO schema_versions (owner, version) VALUES (?, ?)"
				" ON CONFLICT (owner) DO UPDATE SET version = excluded.version",
				"cannot write the schema version", err)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, owner, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, version);
	rc = sw_db_step_done(st, "cannot write the schema version", err);
	sqlite3_finalize(st);
	return rc;
}

static bool owner_table(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	bool yes = false;
	if (sqlite3_prepare_v2(db,
			       "SELECT 1 FROM sqlite_schema WHERE type = 'table'"
			       " AND name = 'schema_versions'",
			       -1, &st, NULL) == SQLITE_OK)
		yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

int sw_db_migrate_owner(sqlite3 *db, const struct sw_db_owner *o, struct sw_err *err)
{
	int version = 0, rc;
	bool found = false;

	/* The common case, a current owner, takes no write lock. */
	if (owner_table(db)) {
		if ((rc = owner_version(db, o->owner, &version, &found, err)) != 0)
			return rc;
		if (found && version == o->version)
			return 0;
	}
	for (;;) {
		if ((rc = sw_db_exec(db, "BEGIN IMMEDIATE", err)) != 0)
			return sw_err_wrap(err, rc, "cannot migrate the %s tables", o->owner);
		if ((rc = sw_db_exec(db,
				     "CREATE TABLE IF NOT EXISTS schema_versions ("
				     "  owner TEXT PRIMARY KEY,"
				     "  version INTEGER NOT NULL CHECK (version >= 0))",
				     err)) != 0 ||
		    (rc = owner_version(db, o->owner, &version, &found, err)) != 0)
			goto rollback;
		if (!found && o->adopt) {
			if ((rc = o->adopt(db, &version, err)) != 0)
				goto rollback;
			if (version > o->version)
				version = o->version;
		}
		if (version > o->version) {
			const char *path = sqlite3_db_filename(db, "main");
			rc = sw_err_set(err, SW_EINPUT,
					"'%s': its %s tables have schema version %d, newer than "
					"this sworn (%d): upgrade sworn",
					path && *path ? path : "the database", o->owner, version,
					o->version);
			goto rollback;
		}
		if (version < o->version &&
		    (rc = sw_db_exec(db, o->migrations[version], err)) != 0)
			goto rollback;
		if (version < o->version)
			version++;
		if ((rc = owner_set(db, o->owner, version, err)) != 0 ||
		    (rc = sw_db_exec(db, "COMMIT", err)) != 0)
			goto rollback;
		if (version >= o->version)
			return 0;
	}
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	if (rc == SW_EINPUT)
		return rc;
	return sw_err_wrap(err, rc, "cannot migrate the %s tables to version %d", o->owner,
			   version + 1);
}

/* ------------------------------------------------------------- statements */

int sw_db_prepare(sqlite3_stmt **st, sqlite3 *db, const char *sql, const char *what,
		  struct sw_err *err)
{
	*st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return sw_db_error(err, db, what);
	}
	return 0;
}

int sw_db_step_done(sqlite3_stmt *st, const char *what, struct sw_err *err)
{
	int s = sqlite3_step(st);
	int rc = s == SQLITE_DONE ? 0 : sw_db_error(err, sqlite3_db_handle(st), what);
	sqlite3_reset(st);
	return rc;
}

char *sw_db_col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? sw_xstrdup((const char *)t) : NULL;
}

void sw_db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* ------------------------------------------------------------------- open */

int sw_db_open(sqlite3 **out, const char *path, const struct sw_db_schema *s,
	       unsigned flags, struct sw_err *err)
{
	sqlite3 *db = NULL;
	int rc = 0;
	int oflags = SQLITE_OPEN_READWRITE | (flags & SW_DB_CREATE ? SQLITE_OPEN_CREATE : 0);

	*out = NULL;
	if (sqlite3_open_v2(path, &db, oflags, NULL) != SQLITE_OK) {
		rc = sw_err_set(err, SW_EDB, "cannot open '%s': %s", path,
				db ? sqlite3_errmsg(db) : "out of memory");
		goto cleanup;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	install_faults(db);
	/* WAL lets readers read while an import writes; synchronous=NORMAL
	 * keeps every commit atomic and consistent after a crash (a power cut
	 * may lose the last commits, never corrupt the file).  A file that is
	 * not a database fails here, on the first read. */
	rc = sw_db_exec(db,
			"PRAGMA journal_mode = WAL;"
			"PRAGMA synchronous = NORMAL;"
			"PRAGMA foreign_keys = ON;",
			err);
	if (rc == 0 && s->pragmas)
		rc = sw_db_exec(db, s->pragmas, err);
	if (rc) {
		sw_err_wrap(err, rc, "cannot open '%s'", path);
		goto cleanup;
	}
	if (s->setup && (rc = s->setup(db, err)) != 0)
		goto cleanup;
	if ((rc = migrate(db, path, s, err)) != 0)
		goto cleanup;
	*out = db;
	db = NULL;
cleanup:
	sqlite3_close(db);
	return rc;
}
