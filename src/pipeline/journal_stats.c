/* journal_stats.c - which model is worth its boards: the firm's own runs grouped
 * by model, role or task.
 *
 * A run counts under every group it touched (a run that drafted on one
 * model and reviewed on another counts under both); its steps' speeds
 * count under the group of the step (the step's own model or role).  A
 * figure with no data behind it is null, never 0. */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

/* Which runs belong to which group (mem), and which steps' speeds count
 * for a group. */
struct grouping {
	const char *name;
	const char *members;
	const char *step_in_group;
};

static const struct grouping groupings[] = {
	[SW_STATS_MODEL] = { "model",
			     "SELECT DISTINCT model, run_id FROM run_steps WHERE model IS NOT NULL"
			     " AND model <> '' AND kind NOT IN ('join', 'verify')",
			     "s.model = g.grp" },
	[SW_STATS_ROLE] = { "role",
			    "SELECT DISTINCT role, run_id FROM run_steps WHERE role IS NOT NULL"
			    " AND role <> ''",
			    "s.role = g.grp" },
	[SW_STATS_TASK] = { "task", "SELECT task, id FROM runs", "1" },
};

static char *stats_sql(const struct grouping *g)
{
	return sw_xasprintf(
		"WITH mem(grp, run_id) AS (%s),"
		" groups AS (SELECT DISTINCT grp FROM mem)"
		" SELECT g.grp,"
		"  (SELECT count(*) FROM mem WHERE mem.grp = g.grp),"
		"  (SELECT sum(json_extract(s.detail, '$.claims')) FROM run_steps s JOIN mem"
		"    ON mem.run_id = s.run_id AND mem.grp = g.grp WHERE s.key = 'verify#0'"
		"    AND s.status = 'done'),"
		"  (SELECT sum(json_extract(s.detail, '$.blocked')) FROM run_steps s JOIN mem"
		"    ON mem.run_id = s.run_id AND mem.grp = g.grp WHERE s.key = 'verify#0'"
		"    AND s.status = 'done'),"
		"  (SELECT avg(json_extract(s.detail, '$.findings')) FROM run_steps s JOIN mem"
		"    ON mem.run_id = s.run_id AND mem.grp = g.grp WHERE s.kind = 'review'"
		"    AND s.status = 'done' AND json_extract(s.detail, '$.findings') IS NOT NULL),"
		"  (SELECT avg(n) FROM (SELECT (SELECT count(*) FROM run_steps s"
		"      WHERE s.run_id = r.id AND s.kind = 'revise' AND s.status = 'done') AS n"
		"    FROM mem JOIN runs r ON r.id = mem.run_id WHERE mem.grp = g.grp"
		"    AND (r.status = 'verified' OR (r.status = 'approved' AND NOT EXISTS"
		"      (SELECT 1 FROM corrections c WHERE c.run_id = r.id"
		"       AND c.override IS NOT NULL))))),"
		"  (SELECT avg(CASE WHEN r.status = 'blocked' OR EXISTS (SELECT 1 FROM"
		"      corrections c WHERE c.run_id = r.id AND c.override IS NOT NULL)"
		"      THEN 1.0 ELSE 0.0 END)"
		"    FROM mem JOIN runs r ON r.id = mem.run_id WHERE mem.grp = g.grp"
		"    AND r.status IN ('verified', 'blocked', 'approved')),"
		"  (SELECT sum(c.words_changed + c.words_added + c.words_removed)"
		"    FROM corrections c JOIN mem ON mem.run_id = c.run_id AND mem.grp = g.grp),"
		"  (SELECT sum(c.words_kept + c.words_changed + c.words_removed)"
		"    FROM corrections c JOIN mem ON mem.run_id = c.run_id AND mem.grp = g.grp),"
		"  (SELECT count(*) FROM corrections c JOIN mem ON mem.run_id = c.run_id"
		"    AND mem.grp = g.grp),"
		"  (SELECT avg(s.predicted_per_s) FROM run_steps s JOIN mem ON mem.run_id = s.run_id"
		"    AND mem.grp = g.grp WHERE s.predicted_per_s > 0 AND %s),"
		"  (SELECT avg(s.prompt_per_s) FROM run_steps s JOIN mem ON mem.run_id = s.run_id"
		"    AND mem.grp = g.grp WHERE s.prompt_per_s > 0 AND %s),"
		"  (SELECT avg(r.wall_s) FROM mem JOIN runs r ON r.id = mem.run_id"
		"    WHERE mem.grp = g.grp AND r.wall_s > 0)"
		" FROM groups g ORDER BY g.grp",
		g->members, g->step_in_group, g->step_in_group);
}

static double real_or_none(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_double(st, i);
}

int sw_run_stats(struct sw_run_stats *out, struct sw_matter *m, enum sw_stats_by by,
		 struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	out->by = by;
	if ((unsigned)by >= SW_ARRAY_LEN(groupings))
		return sw_err_set(err, SW_EUSAGE, "run stats are grouped by model, role or task");
	const struct grouping *g = &groupings[by];
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	char *sql;
	int rc, s;

	if (!db)
		return SW_EDB;
	sql = stats_sql(g);
	rc = sw_db_prepare(&st, db, sql, "cannot read the runs", err);
	free(sql);
	if (rc)
		return rc;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		out->v = sw_xgrow(out->v, &cap, out->n + 1, sizeof(*out->v));
		struct sw_run_stats_row *r = &out->v[out->n++];
		memset(r, 0, sizeof(*r));
		r->group = sw_db_col_dup(st, 0);
		r->runs = sqlite3_column_int64(st, 1);
		/* first-draft claims blocked per 100 claims */
		double claims = sqlite3_column_double(st, 2), blocked = sqlite3_column_double(st, 3);
		r->first_draft_claims = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1
									: (int64_t)claims;
		r->blocked_per_100_claims = claims > 0 ? 100.0 * blocked / claims : -1;
		r->findings_per_draft = real_or_none(st, 4);
		r->rounds_to_verified = real_or_none(st, 5);
		r->blocked_share = real_or_none(st, 6);
		double edited = sqlite3_column_double(st, 7), base = sqlite3_column_double(st, 8);
		r->corrections = sqlite3_column_int64(st, 9);
		r->edit_ratio =
			sqlite3_column_type(st, 7) != SQLITE_NULL && base > 0 ? edited / base : -1;
		r->decode_tok_s = real_or_none(st, 10);
		r->prompt_tok_s = real_or_none(st, 11);
		r->wall_s = real_or_none(st, 12);
	}
	if (s != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the runs");
		sw_run_stats_release(out);
	}
	sqlite3_finalize(st);
	return rc;
}

void sw_run_stats_release(struct sw_run_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].group);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

const char *sw__run_stats_by_name(enum sw_stats_by by)
{
	return (unsigned)by < SW_ARRAY_LEN(groupings) ? groupings[by].name : "model";
}
