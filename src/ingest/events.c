/* events.c - what one run of sw_ingest keeps while it imports: its
 * events (counted and reported), the paths load files have used, the Bates
 * prefixes written, the progress line.  A leaf: the importers and the walk
 * (ingest.c) call it, it calls none of them. */
#define _GNU_SOURCE /* realpath */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest_int.h"

/* Give one event to opts->report. */
static void emit(struct sw__ingest *in, enum sw_ingest_event ev, const char *what,
		 const char *msg)
{
	if (!in->opts->report)
		return;
	/* The progress line shares the terminal: clear it first. */
	if (in->progress.enabled && ev != SW_INGEST_IMPORTED)
		fputs("\r\x1b[K", stderr);
	in->opts->report(in->opts->user, ev, what, msg);
}

static void count(struct sw__ingest *in, enum sw_ingest_event ev, int by)
{
	uint64_t *n = NULL;
	switch (ev) {
	case SW_INGEST_IMPORTED: n = &in->sum->imported; break;
	case SW_INGEST_SKIPPED: n = &in->sum->skipped; break;
	case SW_INGEST_FAILED: n = &in->sum->failed; break;
	case SW_INGEST_WARNING: n = &in->sum->warnings; break;
	case SW_INGEST_QUARANTINED: n = &in->sum->quarantined; break;
	case SW_INGEST_REPLACED: break; /* counted by the documents removed */
	case SW_INGEST_NOTE: break;
	case SW_INGEST_RECLASSIFIED: n = &in->sum->reclassified; break;
	}
	if (n)
		*n += (uint64_t)by;
}

/* Whether a held event says something was stored: a batch rolled back
 * takes it back. */
static bool stores(enum sw_ingest_event ev)
{
	return ev == SW_INGEST_IMPORTED || ev == SW_INGEST_QUARANTINED;
}

static void hold(struct sw__ingest *in, enum sw_ingest_event ev, const char *what,
		 const char *msg, uint64_t pages)
{
	in->held = sw_xgrow(in->held, &in->capheld, in->nheld + 1, sizeof(*in->held));
	in->held[in->nheld++] = (struct sw__ingest_held){
		.ev = ev,
		.what = what ? sw_xstrdup(what) : NULL,
		.msg = msg ? sw_xstrdup(msg) : NULL,
		.pages = pages,
		.batch = sw_record_batch_seq(in->m),
	};
}

void sw__ingest_settle(struct sw__ingest *in)
{
	size_t done = 0, lost = 0;
	if (!in->nheld)
		return;
	for (; done < in->nheld; done++) {
		struct sw__ingest_held *h = &in->held[done];
		enum sw_record_batch_state st = sw_record_batch_state(in->m, h->batch);
		if (st == SW_BATCH_OPEN)
			break;
		if (st == SW_BATCH_LOST && (h->pages || stores(h->ev))) {
			/* Rolled back with its batch. */
			in->sum->pages -= h->pages;
			if (!h->pages) {
				count(in, h->ev, -1);
				lost += h->ev == SW_INGEST_IMPORTED;
			}
		} else if (!h->pages) {
			emit(in, h->ev, h->what, h->msg);
		}
		free(h->what);
		free(h->msg);
	}
	memmove(in->held, in->held + done, (in->nheld - done) * sizeof(*in->held));
	in->nheld -= done;
	in->rolled_back += lost;
}

void sw__ingest_event(struct sw__ingest *in, enum sw_ingest_event ev,
		      const char *what, const char *fmt, ...)
{
	struct sw_buf msg = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	count(in, ev, 1);
	if (in->nheld)
		sw__ingest_settle(in);
	if (in->nheld || sw_record_batch_open(in->m))
		hold(in, ev, what, msg.data, 0);
	else
		emit(in, ev, what, msg.data);
	sw_buf_release(&msg);
}

void sw__ingest_pages(struct sw__ingest *in, uint64_t npages)
{
	in->sum->pages += npages;
	if (npages && (in->nheld || sw_record_batch_open(in->m)))
		hold(in, SW_INGEST_NOTE, NULL, NULL, npages);
}

int sw__ingest_commit(struct sw__ingest *in, bool force)
{
	struct sw_err err = { 0 };
	int rc = 0;
	if (force || sw_record_batch_due(in->m)) {
		if ((rc = sw_record_batch_commit(in->m, &err)) != 0) {
			in->fatal = err;
			rc = err.code ? err.code : SW_EDB;
		}
	}
	if (in->nheld)
		sw__ingest_settle(in);
	return rc;
}

int sw__ingest_store(struct sw__ingest *in, const struct sw_doc_in *doc, const char *what,
		     int64_t *id, bool *transcript)
{
	struct sw_record_stored s;
	struct sw_err err = { 0 };
	if (sw_record_store_doc(&s, in->m, doc, &err) != 0) {
		if (sw__ingest_fatal(&err)) {
			in->fatal = err;
			return err.code ? err.code : SW_EIO;
		}
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
		return 1;
	}
	*id = s.id;
	*transcript = s.transcript;
	return sw__ingest_stored(in, doc, &s);
}

int sw__ingest_stored(struct sw__ingest *in, const struct sw_doc_in *doc,
		      struct sw_record_stored *stored)
{
	struct sw_record_stored s = *stored;
	struct sw_err err = { 0 };
	memset(stored, 0, sizeof(*stored));
	if (in->opts->replace && doc->parent_id <= 0) {
		uint64_t n = 0;
		char *names = NULL;
		if (sw_record_replace_older(&n, &names, in->m, s.id, &err) != 0) {
			sw_record_stored_release(&s);
			in->fatal = err;
			return err.code ? err.code : SW_EDB;
		}
		if (n) {
			in->sum->replaced += n;
			sw__ingest_event(in, SW_INGEST_REPLACED, doc->name,
					 "replaces %s (kept as removed, with an audit entry)", names);
		}
		free(names);
	}
	const struct sw_provenance_match *pm = &s.quarantine;
	if (pm->quarantine)
		sw__ingest_event(in, SW_INGEST_QUARANTINED, doc->name,
				 "matches model output '%s' of matter '%s' (overlap %.0f%%: %llu of its"
				 " fingerprints are the output's; %.0f%% of the output is in it);"
				 " kept out of evidence",
				 pm->name, pm->matter, pm->overlap * 100.0,
				 (unsigned long long)pm->shared, pm->contained * 100.0);
	sw_record_stored_release(&s);
	return 0;
}

int sw__ingest_found(struct sw__ingest *in, int64_t id, const char *what)
{
	struct sw_record_reclass rc;
	struct sw_err err = { 0 };
	enum sw_origin to = in->opts->origin;
	if (sw_record_reclassify(&rc, in->m, id, to, &err) != 0) {
		if (sw__ingest_fatal(&err)) {
			in->fatal = err;
			return err.code ? err.code : SW_EIO;
		}
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
		return 1;
	}
	if (!rc.changed)
		return 0;
	char kids[64] = "";
	if (rc.children)
		snprintf(kids, sizeof(kids), " with the %zu document(s) that came in it", rc.children);
	sw__ingest_event(in, SW_INGEST_RECLASSIFIED, what,
			 "already imported as document %lld of origin %s: now origin %s%s%s"
			 " (recorded in sworn matter audit)", (long long)id,
			 sw_origin_name(rc.from), sw_origin_name(to), kids,
			 to == SW_ORIGIN_MODEL ? ", its fingerprints registered for the workspace" : "");
	return 1;
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
