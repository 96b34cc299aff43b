/* settings.c - a matter's settings (the settings table of matter.db) and
 * the database handle the pipeline's journal uses. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

#define SETTING_MAX_KEY 64
#define SETTING_MAX_VALUE 4096

struct sqlite3 *sw_matter_db(struct sw_matter *m)
{
	return m->db;
}

const char *sw_matter_dir(const struct sw_matter *m)
{
	return m->dir;
}

static int check_key(const char *key, struct sw_err *err)
{
	size_t n = key ? strlen(key) : 0;
	if (n == 0 || n > SETTING_MAX_KEY)
		return sw_err_set(err, SW_EUSAGE, "a setting's name is 1 to %d characters",
				  SETTING_MAX_KEY);
	for (size_t i = 0; i < n; i++) {
		char c = key[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return sw_err_set(err, SW_EUSAGE,
					  "setting '%s': names use a-z, 0-9, '.', '_' and '-'", key);
	}
	return 0;
}

int sw_matter_setting_get_at(char **out, char **set_at, struct sw_matter *m, const char *key,
			     struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (set_at)
		*set_at = NULL;
	if ((rc = check_key(key, err)) != 0)
		return rc;
	if (sqlite3_prepare_v2(m->db, "SELECT value, set_at FROM settings WHERE key = ?", -1,
			       &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "reading a setting");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sw_xstrdup((const char *)sqlite3_column_text(st, 0));
		if (set_at)
			*set_at = sw_xstrdup((const char *)sqlite3_column_text(st, 1));
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = sw__record_sqlerr(err, m->db, "reading a setting");
	}
	sqlite3_finalize(st);
	return rc;
}

int sw_matter_setting_get(char **out, struct sw_matter *m, const char *key,
			  struct sw_err *err)
{
	return sw_matter_setting_get_at(out, NULL, m, key, err);
}

int sw_matter_setting_set(struct sw_matter *m, const char *key, const char *value,
			  struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	char now[21];
	int rc;

	if ((rc = check_key(key, err)) != 0)
		return rc;
	if (!value || strlen(value) > SETTING_MAX_VALUE || strpbrk(value, "\r\n"))
		return sw_err_set(err, SW_EUSAGE, "setting '%s': the value is one line of at most %d bytes",
				  key, SETTING_MAX_VALUE);
	sw_utc_now(now);
	if (sqlite3_prepare_v2(m->db,
			       "INSERT INTO settings (key, value, set_at) VALUES (?, ?, ?)"
			       " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
			       " set_at = excluded.set_at",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "storing a setting");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : sw__record_sqlerr(err, m->db, "storing a setting");
	sqlite3_finalize(st);
	return rc;
}
