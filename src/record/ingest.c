/* ingest.c - sw_ingest: walking the inputs, dispatching each file to its
 * importer, and the Bates gap and duplicate report at the end.
 *
 * Load files go first, because they name the text files they use: those
 * are imported as part of their load-file document and must not come in a
 * second time as stand-alone text files. */
#define _GNU_SOURCE /* syncfs */
#include <dirent.h>
#include <fcntl.h>
#include <strings.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record_int.h"

struct input {
	char *path; /* as the user named it (joined with folder entries) */
	char *real; /* resolved, to know what a load file already used */
	const struct sw_format *fmt; /* by its extension; NULL: none sworn reads */
	size_t from; /* the index of the path given that holds it */
};

struct walk {
	struct input *items;
	size_t n, cap;
};

/* Whether it's the format called name. */
static bool is(const struct input *it, const char *name)
{
	return it->fmt && !strcmp(it->fmt->name, name);
}

static void add_input(struct walk *w, const char *path, size_t from)
{
	w->items = sw_xgrow(w->items, &w->cap, w->n + 1, sizeof(*w->items));
	char *real = realpath(path, NULL);
	w->items[w->n].path = sw_xstrdup(path);
	w->items[w->n].real = real ? real : sw_xstrdup(path);
	w->items[w->n].fmt = sw_format_by_ext(path);
	w->items[w->n].from = from;
	w->n++;
}

static int cmp_input(const void *a, const void *b)
{
	const struct input *x = a, *y = b;
	return strcmp(x->path, y->path);
}

/* Collect regular files under path; hidden entries are passed over.
 * Symbolic links inside a folder are not followed at all (lstat below), so
 * a loop cannot trap us and a production's link cannot pull in the rest of
 * the machine; only a path the user names may be a link. */
static void walk_path(struct sw__ingest *in, struct walk *w, const char *path,
		      size_t from, int depth)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "cannot read: %s", strerror(errno));
		return;
	}
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "broken symbolic link");
		return;
	}
	if (S_ISREG(st.st_mode)) {
		add_input(w, path, from);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		sw__ingest_event(in, SW_INGEST_SKIPPED, path, "not a regular file");
		return;
	}
	if (depth > 64) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "folders nested too deep");
		return;
	}
	DIR *d = opendir(path);
	if (!d) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "cannot open folder: %s",
				 strerror(errno));
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *child = sw_path_join(path, e->d_name);
		struct stat cst;
		if (lstat(child, &cst) == 0 && (S_ISREG(cst.st_mode) || S_ISDIR(cst.st_mode)))
			walk_path(in, w, child, from, depth + 1);
		free(child);
	}
	closedir(d);
}

void sw__ingest_event(struct sw__ingest *in, enum sw_ingest_event ev,
		      const char *what, const char *fmt, ...)
{
	struct sw_buf msg = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	switch (ev) {
	case SW_INGEST_IMPORTED: in->sum->imported++; break;
	case SW_INGEST_SKIPPED: in->sum->skipped++; break;
	case SW_INGEST_FAILED: in->sum->failed++; break;
	case SW_INGEST_WARNING: in->sum->warnings++; break;
	case SW_INGEST_QUARANTINED: in->sum->quarantined++; break;
	}
	if (in->opts->report) {
		/* The progress line shares the terminal: clear it first. */
		if (in->progress.enabled && ev != SW_INGEST_IMPORTED)
			fputs("\r\x1b[K", stderr);
		in->opts->report(in->opts->user, ev, what, msg.data);
	}
	sw_buf_release(&msg);
}

void sw__ingest_stored(struct sw__ingest *in, const char *name, struct sw__stored *s)
{
	const struct sw_provenance_match *pm = &s->quarantine;
	if (pm->quarantine)
		sw__ingest_event(in, SW_INGEST_QUARANTINED, name,
				 "matches model output '%s' of matter '%s' (overlap %.0f%%: %llu of its"
				 " fingerprints are the output's; %.0f%% of the output is in it);"
				 " kept out of evidence",
				 pm->name, pm->matter, pm->overlap * 100.0,
				 (unsigned long long)pm->shared, pm->contained * 100.0);
	sw__record_stored_release(s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sw__ingest_consume(struct sw__ingest *in, const char *path)
{
	char *real = realpath(path, NULL);
	in->consumed = sw_xgrow(in->consumed, &in->capconsumed, in->nconsumed + 1,
				sizeof(*in->consumed));
	in->consumed[in->nconsumed++] = real ? real : sw_xstrdup(path);
}

void sw__ingest_consume_real(struct sw__ingest *in, const char *real)
{
	in->consumed = sw_xgrow(in->consumed, &in->capconsumed, in->nconsumed + 1,
				sizeof(*in->consumed));
	in->consumed[in->nconsumed++] = sw_xstrdup(real);
}

static bool is_consumed(const struct sw__ingest *in, const char *path)
{
	return in->nconsumed &&
	       bsearch(&path, in->consumed, in->nconsumed, sizeof(char *), cmp_str) != NULL;
}

void sw__ingest_touch_prefix(struct sw__ingest *in, const char *written)
{
	char prefix[SW_BATES_CANON_MAX];
	sw_bates_canon_prefix(prefix, written, strlen(written));
	for (size_t i = 0; i < in->nprefixes; i++)
		if (strcmp(in->prefixes[i], prefix) == 0)
			return;
	in->prefixes = sw_xgrow(in->prefixes, &in->capprefixes, in->nprefixes + 1,
				sizeof(*in->prefixes));
	in->prefixes[in->nprefixes++] = sw_xstrdup(prefix);
}

void sw__ingest_tick(struct sw__ingest *in)
{
	sw_progress_update(&in->progress, ++in->done);
}

bool sw__ingest_fatal(const struct sw_err *err)
{
	return err->code == SW_EDB || err->code == SW_EIO;
}

/* The .OPT for a .DAT: the one with the same base name, else the only .OPT
 * in the same folder. */
static const char *find_opt(const struct walk *w, const char *dat)
{
	char *dir = sw_path_dir(dat);
	const char *base = sw_path_base(dat);
	size_t stem = strlen(base) - 4;
	const char *same = NULL, *only = NULL;
	int in_dir = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (!is(&w->items[i], "opt"))
			continue;
		char *odir = sw_path_dir(w->items[i].path);
		bool here = strcmp(odir, dir) == 0;
		free(odir);
		if (!here)
			continue;
		in_dir++;
		only = w->items[i].path;
		const char *ob = sw_path_base(w->items[i].path);
		if (strlen(ob) == stem + 4 && strncasecmp(ob, base, stem) == 0)
			same = w->items[i].path;
	}
	free(dir);
	return same ? same : in_dir == 1 ? only : NULL;
}

/* Report missing and repeated numbers of one Bates prefix over the whole
 * matter, as ranges; a handful are named, the rest counted. */
static int report_bates(struct sw__ingest *in, const char *prefix, struct sw_err *err)
{
	sqlite3 *db = in->m->db;
	sqlite3_stmt *st = NULL;
	uint64_t prev = 0, gaps = 0, dups = 0;
	bool first = true;
	int named = 0, step;
	struct sw_buf gap_list = SW_BUF_INIT, dup_list = SW_BUF_INIT;
	struct sw_bates fmt = { 0 };

	if (sqlite3_prepare_v2(db,
			       "SELECT bates_num, bates FROM pages WHERE bates_prefix = ?1"
			       " AND bates_num IS NOT NULL ORDER BY bates_num",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot check Bates numbers");
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t num = (uint64_t)sqlite3_column_int64(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);
		if (first) {
			if (text)
				(void)sw_bates_parse(&fmt, text, strlen(text));
			first = false;
		} else if (num == prev) {
			if (dups++ < 5)
				sw_buf_addf(&dup_list, "%s%s", dup_list.len ? ", " : "", text ? text : "?");
		} else if (num > prev + 1) {
			gaps += num - prev - 1;
			if (named++ < 5) {
				char a[96], b[96];
				sw_bates_format(a, sizeof(a), &fmt, prev + 1);
				sw_bates_format(b, sizeof(b), &fmt, num - 1);
				if (num - 1 == prev + 1)
					sw_buf_addf(&gap_list, "%s%s", gap_list.len ? ", " : "", a);
				else
					sw_buf_addf(&gap_list, "%s%s-%s", gap_list.len ? ", " : "", a, b);
			}
		}
		prev = num;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		sw_buf_release(&gap_list);
		sw_buf_release(&dup_list);
		return sw__record_sqlerr(err, db, "cannot check Bates numbers");
	}
	const char *label = prefix[0] ? prefix : "(no prefix)";
	if (gaps)
		sw__ingest_event(in, SW_INGEST_WARNING, label,
				 "Bates gap: %llu number(s) missing: %s%s", (unsigned long long)gaps,
				 gap_list.data, named > 5 ? ", ..." : "");
	if (dups)
		sw__ingest_event(in, SW_INGEST_WARNING, label,
				 "duplicate Bates: %llu page(s) reuse a number: %s%s",
				 (unsigned long long)dups, dup_list.data, dups > 5 ? ", ..." : "");
	sw_buf_release(&gap_list);
	sw_buf_release(&dup_list);
	return 0;
}

/* FTS5 writes a new index segment at every commit, and by default merges
 * segments a little at every commit too: with one commit per document that
 * merging was half of an import's work.  During an import, automatic
 * merging is off; at the end the segments are merged in one pass and the
 * default comes back.  A crash in between leaves more segments than usual,
 * which only slows searches until the next import finishes. */
static int fts_automerge(sqlite3 *db, int level, struct sw_err *err)
{
	char sql[96];
	snprintf(sql, sizeof(sql),
		 "INSERT INTO pages_fts (pages_fts, rank) VALUES ('automerge', %d)", level);
	return sw__record_exec(db, sql, err);
}

static int fts_merge(sqlite3 *db, struct sw_err *err)
{
	for (;;) {
		int before = sqlite3_total_changes(db);
		int rc = sw__record_exec(db,
					 "INSERT INTO pages_fts (pages_fts, rank) VALUES ('merge', 1000)",
					 err);
		if (rc)
			return rc;
		/* FTS5 reports work done through the change count. */
		if (sqlite3_total_changes(db) - before < 2)
			return 0;
	}
}

/* Matters written before Bates prefixes were stored canonical hold "BLT-"
 * where lookups now ask for "BLT".  The same rule as sw_bates_canon_prefix
 * (ASCII upper case, '-', '_', ' ' and '.' dropped), in SQL; the check reads
 * only the Bates index, so a matter already canonical pays next to nothing. */
#define CANON_SQL(col) \
	"upper(replace(replace(replace(replace(" col ", '-', ''), '_', ''), ' ', ''), '.', ''))"

static int canon_old_prefixes(sqlite3 *db, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT 1 FROM pages INDEXED BY pages_bates WHERE bates_num IS NOT NULL"
			       " AND bates_prefix <> " CANON_SQL("bates_prefix") " LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot check Bates prefixes");
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	if (s == SQLITE_DONE)
		return 0;
	if (s != SQLITE_ROW)
		return sw__record_sqlerr(err, db, "cannot check Bates prefixes");
	return sw__record_exec(db,
			       "UPDATE pages SET bates_prefix = " CANON_SQL("bates_prefix")
			       " WHERE bates_num IS NOT NULL AND bates_prefix <> "
			       CANON_SQL("bates_prefix"), err);
}

int sw_ingest(struct sw_ingest_summary *out, struct sw_matter *m,
	      const char *const *paths, size_t npaths,
	      const struct sw_ingest_opts *opts, struct sw_err *err)
{
	struct sw__ingest in = { .m = m, .opts = opts, .sum = out };
	struct walk w = { 0 };
	double start = sw_now();
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (opts->labels_path)
		sw__ingest_consume(&in, opts->labels_path);
	for (size_t i = 0; i < npaths; i++)
		walk_path(&in, &w, paths[i], i, 0);
	if (w.n)
		qsort(w.items, w.n, sizeof(*w.items), cmp_input);

	uint64_t total = 0;
	for (size_t i = 0; i < w.n; i++)
		total += !is(&w.items[i], "opt");
	if (opts->progress)
		sw_progress_start(&in.progress, "importing", total);
	if ((rc = canon_old_prefixes(m->db, &in.fatal)) != 0 ||
	    (rc = fts_automerge(m->db, 0, &in.fatal)) != 0)
		goto done;

	for (size_t i = 0; i < w.n && rc == 0; i++) {
		if (!is(&w.items[i], "loadfile"))
			continue;
		const char *opt = find_opt(&w, w.items[i].path);
		if (opt)
			sw__ingest_consume(&in, opt);
		/* Paths in the load file are resolved up to the folder the
		 * user named (a DAT named by itself: its volume). */
		const char *given = paths[w.items[i].from];
		char *root = sw_path_is_dir(given) ? sw_xstrdup(given)
						   : sw__volume_root_for(w.items[i].path);
		rc = sw__ingest_loadfile(&in, w.items[i].path, opt, root);
		free(root);
	}
	if (in.nconsumed)
		qsort(in.consumed, in.nconsumed, sizeof(char *), cmp_str);
	for (size_t i = 0; i < w.n && rc == 0; i++) {
		const struct input *it = &w.items[i];
		if (is(it, "loadfile") || is_consumed(&in, it->real))
			continue;
		if (is(it, "text") || is(it, "markdown")) {
			rc = sw__ingest_text(&in, it->path, it->fmt->name);
		} else if (it->fmt && it->fmt->native) {
			rc = sw__ingest_native(&in, it->path, it->fmt->name);
		} else if (is(it, "opt")) {
			sw__ingest_event(&in, SW_INGEST_SKIPPED, it->path,
					 "an .OPT without a .DAT beside it has no text to import");
		} else {
			sw__ingest_event(&in, SW_INGEST_SKIPPED, it->path,
					 "not a kind of file sworn reads yet (text, Markdown, PDF, .eml, .docx, .DAT)");
			sw__ingest_tick(&in);
		}
	}
	if (rc == 0 && opts->labels_path)
		rc = sw__ingest_labels(&in, opts->labels_path);
	sw_progress_finish(&in.progress);
	if (rc == 0)
		rc = fts_merge(m->db, &in.fatal);
	if (rc == 0)
		rc = fts_automerge(m->db, 4, &in.fatal);
done:
	for (size_t i = 0; i < in.nprefixes && rc == 0; i++)
		rc = report_bates(&in, in.prefixes[i], err);
	if (rc < 0 && in.fatal.code)
		sw_err_set(err, in.fatal.code, "import stopped: %s", in.fatal.msg);

	/* Originals were written without one fsync each; one sync of their
	 * filesystem makes the whole import durable at a fraction of the cost. */
	int fd = open(m->files_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
	out->seconds = sw_now() - start;
	for (size_t i = 0; i < w.n; i++) {
		free(w.items[i].path);
		free(w.items[i].real);
	}
	free(w.items);
	for (size_t i = 0; i < in.nconsumed; i++)
		free(in.consumed[i]);
	free(in.consumed);
	for (size_t i = 0; i < in.nprefixes; i++)
		free(in.prefixes[i]);
	free(in.prefixes);
	return rc;
}
