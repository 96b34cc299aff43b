/* certify.c - the verification certificate of an approved run (pipeline.h,
 * "the certificate"): what the journal says of its sign-off, the final
 * verified again now, the policy verdict of every step's endpoint and the
 * context audit, as one JSON document the renderers (certify_render.c) and
 * the check read.
 *
 * The stamp ties a certificate to the journal: the final's SHA-256 and the
 * SHA-256 of the journal's facts it certifies (the run, its approval, the
 * models and endpoints of its steps, the waivers it lists, by id), so a
 * check reads the journal again and needs no second verification, which the
 * record's later imports could change. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "markup/markup.h"
#include "pipeline/pipeline_int.h"

static json_t *str_or_null(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

/* How the local-only policy of llm sees endpoint name, as sworn.conf says
 * now: {"endpoint", "url", "verdict": local|allowed|refused|unknown, "why"}. */
static json_t *policy_of(const struct sw_llm_config *llm, const char *name)
{
	const struct sw_llm_endpoint *e = llm && name ? sw_llm_endpoint_find(llm, name) : NULL;
	const char *verdict = "unknown", *why = "the endpoint is no longer in sworn.conf";
	char *owned = NULL;
	if (!name) {
		why = "no model: a step sworn does itself";
		verdict = "local";
	} else if (e && e->unix_path) {
		verdict = "local";
		why = "a Unix socket on this machine";
	} else if (e) {
		bool local = false;
		const char *cls = sw_llm_address_class(e->host, &local);
		bool allowed = false;
		for (size_t i = 0; i < llm->policy.n_allow; i++)
			allowed = allowed || strcmp(llm->policy.allow_hosts[i], e->host) == 0;
		if (strcmp(e->host, "localhost") == 0) {
			verdict = "local";
			why = "localhost: loopback";
		} else if (cls && local) {
			verdict = "local";
			why = owned = sw_xasprintf("%s is %s", e->host, cls);
		} else if (allowed) {
			verdict = "allowed";
			why = owned = sw_xasprintf("%s is allowed by [policy] allow_hosts of %s "
						   "(mode %s)",
						   e->host, llm->path ? llm->path : "sworn.conf",
						   sw_llm_mode_name(llm->policy.mode));
		} else if (cls) {
			verdict = llm->policy.mode == SW_LLM_ALLOW_REMOTE ? "allowed" : "refused";
			why = owned = sw_xasprintf("%s is %s (mode %s)", e->host, cls,
						   sw_llm_mode_name(llm->policy.mode));
		} else {
			verdict = "local";
			why = owned = sw_xasprintf("%s: a host name the local-only policy resolves "
						   "and refuses unless its address is local",
						   e->host);
		}
	}
	json_t *o = json_pack("{s:o, s:o, s:s, s:s}", "endpoint", str_or_null(name), "url",
			      str_or_null(e ? e->url : NULL), "verdict", verdict, "why", why);
	free(owned);
	return o;
}

/* The journal's facts the stamp covers; waivers: the certificate's, by id. */
static json_t *journal_facts(const struct sw_signoff *s, const char *matter, const char *sha,
			     const json_t *waivers)
{
	json_t *steps = json_array();
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct sw_signoff_step *t = &s->steps[i];
		json_array_append_new(steps, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "key",
						       t->key ? t->key : "", "role",
						       str_or_null(t->role), "endpoint",
						       str_or_null(t->endpoint), "model",
						       str_or_null(t->model), "host",
						       str_or_null(t->host), "status",
						       str_or_null(t->status)));
	}
	json_t *w = json_array();
	size_t k;
	json_t *x;
	json_array_foreach(waivers, k, x)
	{
		json_array_append_new(
			w, json_pack("{s:O, s:O, s:O, s:O, s:O}", "id", json_object_get(x, "id"),
				     "fingerprint", json_object_get(x, "fingerprint"), "reason",
				     json_object_get(x, "reason"), "by", json_object_get(x, "by"),
				     "at", json_object_get(x, "at")));
	}
	return json_pack("{s:s, s:I, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "matter", matter, "run", (json_int_t)s->run_id, "task",
			 str_or_null(s->task), "status", str_or_null(s->status), "final_sha256",
			 sha, "approved_at", str_or_null(s->approved_at), "by", str_or_null(s->by),
			 "by_email", str_or_null(s->by_email), "by_bar", str_or_null(s->by_bar),
			 "override", str_or_null(s->override), "overridden",
			 str_or_null(s->overridden), "created_at", str_or_null(s->created_at),
			 "steps", steps, "waivers", w);
}

static void digest(char out[SW_SHA256_HEX_LEN + 1], json_t *facts)
{
	char *t = json_dumps(facts, JSON_COMPACT | JSON_SORT_KEYS);
	sw_sha256_hex(out, t, strlen(t));
	free(t);
}

/* The waivers of the matter with the ids listed, in that order, as the
 * certificate lists them. */
static json_t *waivers_by_id(const struct sw_waivers *w, const int64_t *ids, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < w->n; k++) {
			const struct sw_waiver *x = &w->v[k];
			if (x->id != ids[i])
				continue;
			json_array_append_new(
				a, json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "id",
					     (json_int_t)x->id, "fingerprint", x->fingerprint,
					     "kind", x->kind, "claim", x->claim, "verdict",
					     x->verdict, "reason", x->reason, "by", x->by,
					     "by_email", str_or_null(x->by_email), "at",
					     str_or_null(x->at)));
		}
	}
	return a;
}

static int not_approved(struct sw_err *err, const struct sw_signoff *s)
{
	return sw_err_set(err, SW_EUSAGE,
			  "run %lld is %s, not approved: a certificate is for an approved final "
			  "(sworn run approve %lld FINAL)",
			  (long long)s->run_id, s->status ? s->status : "?", (long long)s->run_id);
}

/* Claims by kind and verdict ("waived" for a waived one). */
static json_t *claims_table(const struct sw_verify_report *r)
{
	json_t *t = json_object();
	for (size_t i = 0; i < r->claims.n; i++) {
		const char *kind = sw_claim_kind_name(r->claims.v[i].kind);
		const char *v = sw_claim_verdict_name(&r->verdicts[i]);
		json_t *row = json_object_get(t, kind);
		if (!row) {
			row = json_object();
			json_object_set_new(t, kind, row);
		}
		json_int_t n = json_integer_value(json_object_get(row, v));
		json_object_set_new(row, v, json_integer(n + 1));
	}
	return t;
}

int sw_certify(struct json_t **out, struct sw_matter *m, int64_t run_id,
	       const struct sw_certify_opts *o, struct sw_err *err)
{
	struct sw_signoff s;
	struct sw_waivers w = { 0 };
	struct sw_verify_report rep = { 0 };
	struct sw_markup view = { 0 };
	struct sw_run_context ctxa = { 0 };
	json_t *doc = NULL;
	char *last_import = NULL;
	uint64_t docs = 0;
	int rc;

	*out = NULL;
	if ((rc = sw_signoff_get(&s, m, run_id, err)) != 0)
		return rc;
	if (!s.status || strcmp(s.status, "approved") != 0 || !s.final) {
		rc = not_approved(err, &s);
		goto cleanup;
	}
	char sha[SW_SHA256_HEX_LEN + 1], now[21];
	sw_sha256_hex(sha, s.final, s.final_len);
	sw_utc_now(now);
	enum sw_markup_kind kind = sw_markup_kind_for(s.final_path, s.final, s.final_len);
	if (kind != SW_MARKUP_HTML)
		kind = SW_MARKUP_MARKDOWN;
	if ((rc = sw_markup_parse(&view, kind, s.final, s.final_len, err)) != 0)
		goto cleanup;
	struct sw_verify_opts vo = { .lenient = false };
	if ((rc = sw_verify(&rep, m, o->auth, view.text, view.len, &vo, err)) != 0 ||
	    (rc = sw_waivers_load(&w, m, err)) != 0 ||
	    (rc = sw_record_import_stamp(&docs, &last_import, m, err)) != 0)
		goto cleanup;
	sw_waivers_apply(&rep, &w);
	if ((rc = sw_run_context(&ctxa, m, run_id, NULL, err)) != 0)
		goto cleanup;

	int64_t *ids = sw_xcalloc(rep.nwaived + 1, sizeof(*ids));
	size_t nids = 0;
	for (size_t i = 0; i < rep.claims.n; i++) {
		const struct sw_verify_waiver *x = rep.verdicts[i].waiver;
		bool seen = false;
		for (size_t k = 0; x && k < nids; k++)
			seen = seen || ids[k] == x->id;
		if (x && !seen)
			ids[nids++] = x->id;
	}
	json_t *waivers = waivers_by_id(&w, ids, nids);
	free(ids);
	json_t *facts = journal_facts(&s, sw_matter_name(m), sha, waivers);
	char jsha[SW_SHA256_HEX_LEN + 1];
	digest(jsha, facts);
	json_decref(facts);

	json_t *steps = json_array();
	for (size_t i = 0; i < s.nsteps; i++) {
		const struct sw_signoff_step *t = &s.steps[i];
		json_t *p = policy_of(o->llm, t->endpoint);
		json_object_set_new(p, "key", sw_json_str(t->key ? t->key : ""));
		json_object_set_new(p, "role", str_or_null(t->role));
		json_object_set_new(p, "model", str_or_null(t->model));
		json_object_set_new(p, "host", str_or_null(t->host));
		json_array_append_new(steps, p);
	}
	json_t *viol = json_array();
	size_t sections = 0;
	for (size_t i = 0; i < ctxa.nsteps; i++)
		sections += ctxa.steps[i].nsections;
	for (size_t i = 0; i < ctxa.nviolations; i++) {
		const struct sw_context_violation *v = &ctxa.violations[i];
		json_array_append_new(viol, json_pack("{s:o, s:o, s:o, s:o}", "step",
						      str_or_null(v->step), "document",
						      str_or_null(v->document), "bates",
						      str_or_null(v->bates), "reason",
						      str_or_null(v->reason)));
	}
	doc = json_pack("{s:s, s:I, s:o, s:o}", "matter", sw_matter_name(m), "run",
			(json_int_t)run_id, "task", str_or_null(s.task), "final_path",
			str_or_null(s.final_path));
	json_object_set_new(doc, "final", json_pack("{s:s, s:I}", "sha256", sha, "size",
						    (json_int_t)s.final_len));
	json_t *overridden = s.overridden ? json_loads(s.overridden, 0, NULL) : json_null();
	json_object_set_new(doc, "approval",
			    json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "at",
				      str_or_null(s.approved_at), "by", str_or_null(s.by),
				      "email", str_or_null(s.by_email), "bar_number",
				      str_or_null(s.by_bar), "override", str_or_null(s.override),
				      "overridden", overridden));
	json_object_set_new(
		doc, "verification",
		json_pack("{s:s, s:s, s:s, s:o, s:b, s:I, s:o, s:s, s:I, s:I, s:o}", "at", now,
			  "version", o->version ? o->version : SW_VERSION, "commit",
			  o->commit ? o->commit : "unknown", "authorities_updated",
			  str_or_null(o->authorities_updated), "authorities", o->auth != NULL,
			  "record_documents",
			  (json_int_t)docs, "record_last_import", str_or_null(last_import), "gate",
			  rep.pass ? "pass" : "blocked", "claims", (json_int_t)rep.claims.n,
			  "waived", (json_int_t)rep.nwaived, "by_kind", claims_table(&rep)));
	json_object_set_new(doc, "waivers", waivers);
	json_object_set_new(doc, "steps", steps);
	json_object_set_new(doc, "context_audit",
			    json_pack("{s:I, s:I, s:I, s:o}", "violations",
				      (json_int_t)ctxa.nviolations, "steps",
				      (json_int_t)ctxa.nsteps, "sections", (json_int_t)sections,
				      "details", viol));
	json_object_set_new(doc, "stamp", json_pack("{s:s, s:s}", "final_sha256", sha,
						    "journal_sha256", jsha));
	*out = doc;
	doc = NULL;
cleanup:
	json_decref(doc);
	sw_run_context_release(&ctxa);
	sw_verify_release(&rep);
	sw_markup_release(&view);
	sw_waivers_release(&w);
	sw_signoff_release(&s);
	free(last_import);
	return rc;
}

int sw_certify_check(struct sw_certify_check *out, struct sw_matter *m,
		     const struct sw_certify_stamp *st, const void *final, size_t final_len,
		     struct sw_err *err)
{
	struct sw_signoff s;
	struct sw_waivers w = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	sw_sha256_hex(out->file_sha256, final, final_len);
	out->file_matches = strcmp(out->file_sha256, st->final_sha256) == 0;
	if ((rc = sw_signoff_get(&s, m, st->run, err)) != 0)
		return rc;
	if ((rc = sw_waivers_load(&w, m, err)) != 0)
		goto cleanup;
	out->approved = s.status && strcmp(s.status, "approved") == 0 && s.final;
	if (out->approved) {
		char sha[SW_SHA256_HEX_LEN + 1], jsha[SW_SHA256_HEX_LEN + 1];
		sw_sha256_hex(sha, s.final, s.final_len);
		out->journal_final_matches = strcmp(sha, st->final_sha256) == 0;
		json_t *waivers = waivers_by_id(&w, st->waivers, st->nwaivers);
		out->waivers_found = json_array_size(waivers) == st->nwaivers;
		json_t *facts = journal_facts(&s, sw_matter_name(m), sha, waivers);
		json_decref(waivers);
		digest(jsha, facts);
		json_decref(facts);
		out->journal_matches = strcmp(jsha, st->journal_sha256) == 0;
	}
	out->ok = out->file_matches && out->approved && out->journal_final_matches &&
		  out->waivers_found && out->journal_matches;
cleanup:
	sw_waivers_release(&w);
	sw_signoff_release(&s);
	return rc;
}

/* The value after "key=" in text, of at most max bytes of chars. */
static bool stamp_field(char *out, size_t outsz, const char *text, const char *key,
			const char *chars)
{
	const char *p = strstr(text, key);
	if (!p)
		return false;
	p += strlen(key);
	size_t n = strspn(p, chars);
	if (n == 0 || n >= outsz)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

int sw_certify_stamp_parse(struct sw_certify_stamp *out, const char *text, struct sw_err *err)
{
	static const char hex[] = "0123456789abcdef";
	static const char name[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	char run[24], list[SW_CERTIFY_MAX_WAIVERS * 21];
	memset(out, 0, sizeof(*out));
	const char *at = strstr(text, SW_CERTIFY_STAMP);
	if (!at)
		return sw_err_set(err, SW_EINPUT, "no '%s' stamp in it: is it a certificate "
				  "sworn certify wrote?", SW_CERTIFY_STAMP);
	if (!stamp_field(out->matter, sizeof(out->matter), at, "matter=", name) ||
	    !stamp_field(run, sizeof(run), at, "run=", "0123456789") ||
	    !stamp_field(out->final_sha256, sizeof(out->final_sha256), at, "final-sha256=", hex) ||
	    !stamp_field(out->journal_sha256, sizeof(out->journal_sha256), at,
			 "journal-sha256=", hex) ||
	    strlen(out->final_sha256) != SW_SHA256_HEX_LEN ||
	    strlen(out->journal_sha256) != SW_SHA256_HEX_LEN)
		return sw_err_set(err, SW_EINPUT, "its stamp is damaged: it needs matter=, run=, "
				  "final-sha256= and journal-sha256=");
	out->run = strtoll(run, NULL, 10);
	if (stamp_field(list, sizeof(list), at, "waivers=", "0123456789,")) {
		for (char *p = list; *p;) {
			if (out->nwaivers == SW_CERTIFY_MAX_WAIVERS)
				return sw_err_set(err, SW_ELIMIT, "its stamp lists more than %d "
						  "waivers", SW_CERTIFY_MAX_WAIVERS);
			char *end = NULL;
			long long v = strtoll(p, &end, 10);
			if (end == p)
				break;
			out->waivers[out->nwaivers++] = v;
			p = *end == ',' ? end + 1 : end;
		}
	}
	return 0;
}
