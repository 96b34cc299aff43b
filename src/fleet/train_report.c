/*
 * train_report.c - what `sworn plan --train` prints: one verdict with its
 * reasons, the model x board table of --compare, and JSON.
 */
#include <jansson.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static void target_names(char *out, size_t n, unsigned t)
{
	static const char *const names[] = { "q", "k", "v", "o", "gate", "up", "down", "experts" };
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < SW_ARRAY_LEN(names); i++)
		if (t & (1u << i) && len < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "," : "",
						names[i]);
}

static const char *gpu_name(const struct sw_fleet_hw *hw, int group)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	return g->n ? hw->gpus[g->gpu[0]].name : "?";
}

static void duration(char *out, size_t n, double hours)
{
	if (hours <= 0)
		snprintf(out, n, "-");
	else if (hours < 1)
		snprintf(out, n, "%.0f min", hours * 60);
	else if (hours < 48)
		snprintf(out, n, "%.1f h", hours);
	else
		snprintf(out, n, "%.1f days", hours / 24);
}

void sw_fleet_train_fit_text(struct sw_buf *out, const struct sw_fleet_train_shape *s,
			     const struct sw_fleet_hw *hw, int group,
			     const struct sw_fleet_train_request *r,
			     const struct sw_fleet_train_fit *f)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	char tg[96], dur[32];
	target_names(tg, sizeof(tg), r->targets ? r->targets : SW_FLEET_TRAIN_ALL_LINEAR);
	duration(dur, sizeof(dur), f->hours_per_epoch);
	sw_buf_addf(out, "\n%s on %s (%zu x %s%s)\n", s->name, g->name, g->n, gpu_name(hw, group),
		    g->nvlink ? ", NVLink" : "");
	sw_buf_addf(out, "  model    %s from %s: %.1fB params, %.1fB active%s, %u layers (%u full "
		    "attention), vocab %llu\n", s->arch, s->source, (double)s->params_total / 1e9,
		    (double)s->params_active / 1e9, s->n_expert ? " (MoE)" : "", s->n_layer,
		    s->n_attn_layers, (unsigned long long)s->n_vocab);
	sw_buf_addf(out, "  verdict  %s: peak %.1f of %.1f GiB per GPU; %.0f tokens/s",
		    f->fits ? "FITS" : "DOES NOT FIT", f->peak / GIB, f->capacity / GIB,
		    f->tokens_per_s);
	if (f->hours_per_epoch > 0)
		sw_buf_addf(out, "; %s per epoch of %zu corrections (%llu tokens)", dur,
			    r->data.examples, (unsigned long long)r->data.tokens);
	sw_buf_adds(out, "\n");
	sw_buf_addf(out,
		    "  request  %s, rank %u on %s, seq %u (%s), micro-batch %u x %u "
		    "accumulation, checkpointing %s%s\n",
		    sw_fleet_train_method_name(r->method), r->rank ? r->rank : 16, tg, f->seq,
		    f->seq_from, r->micro_batch ? r->micro_batch : 1,
		    r->grad_accum ? r->grad_accum : 8, r->no_checkpointing ? "off" : "on",
		    r->chunked_loss ? ", chunked loss" : "");
	if (r->data.examples)
		sw_buf_addf(out,
			    "  data     %zu corrections, %llu tokens; longest %u, 95th percentile"
			    " %u\n", r->data.examples, (unsigned long long)r->data.tokens,
			    r->data.longest, r->data.p95);
	sw_buf_addf(out, "  memory   base %.1f + adapters %.2f + optimizer %.2f + activations %.1f"
		    " + logits %.1f + overhead %.1f GiB (%s)\n", f->base / GIB, f->adapters / GIB,
		    f->optimizer / GIB, f->activations / GIB, f->logits / GIB, f->overhead / GIB,
		    f->layer_split ? "the last GPU of a layer split"
		    : r->method == SW_FLEET_TRAIN_FULL ? "each GPU, sharded"
						       : "each GPU, data parallel");
	sw_buf_addf(out, "  time     %.1f GFLOP/token (%s) on %.0f TFLOPS GPUs; %s, %s\n",
		    f->flops_per_token / 1e9, f->terms, f->gpu_tflops, f->attention, f->precision);
	sw_buf_addf(out, "  trains   %.1fM parameters%s\n", (double)f->trainable / 1e6,
		    r->method == SW_FLEET_TRAIN_FULL ? " (all)" : " of adapters");
	if (!f->fits)
		sw_buf_addf(out, "  why      %s\n", f->why);
	for (const char *w = f->warn; *w;) {
		const char *e = strstr(w, "; ");
		size_t len = e ? (size_t)(e - w) : strlen(w);
		sw_buf_addf(out, "  warning  %.*s\n", (int)len, w);
		w += len + (e ? 2 : 0);
	}
}

void sw_fleet_train_compare_text(struct sw_buf *out, const struct sw_fleet_train_shape *shapes,
				 size_t nshapes, const struct sw_fleet_hw *hw, const int *groups,
				 size_t ngroups, const struct sw_fleet_train_fit *fits)
{
	sw_buf_addf(out, "%-28s %-16s %-5s %-14s %8s %9s %10s  %s\n", "model", "board", "fits",
		    "peak/GPU GiB", "seq", "tok/s", "per epoch", "notes");
	for (size_t i = 0; i < nshapes; i++)
		for (size_t j = 0; j < ngroups; j++) {
			const struct sw_fleet_train_fit *f = &fits[i * ngroups + j];
			char peak[32], dur[32];
			snprintf(peak, sizeof(peak), "%.1f/%.1f", f->peak / GIB, f->capacity / GIB);
			duration(dur, sizeof(dur), f->hours_per_epoch);
			sw_buf_addf(out, "%-28.28s %-16.16s %-5s %-14s %8u %9.0f %10s  %s%s%s\n",
				    shapes[i].name, hw->groups[groups[j]].name,
				    f->fits ? "yes" : "NO", peak, f->seq, f->tokens_per_s, dur,
				    f->precision, f->layer_split ? ", layer split" : "",
				    shapes[i].n_expert ? ", MoE" : "");
		}
	/* The answer per model: where it trains fastest, or why nowhere. */
	sw_buf_adds(out, "\n");
	for (size_t i = 0; i < nshapes; i++) {
		const struct sw_fleet_train_fit *row = &fits[i * ngroups];
		size_t best = ngroups;
		for (size_t j = 0; j < ngroups; j++)
			if (row[j].fits &&
			    (best == ngroups || row[j].tokens_per_s > row[best].tokens_per_s))
				best = j;
		if (best == ngroups) {
			sw_buf_addf(out, "%s fits no board: %s\n", shapes[i].name,
				    ngroups ? row[0].why : "no board given");
			continue;
		}
		char dur[32];
		duration(dur, sizeof(dur), row[best].hours_per_epoch);
		sw_buf_addf(out, "%s trains fastest on %s: %.0f tokens/s%s%s, %s%s\n",
			    shapes[i].name, hw->groups[groups[best]].name, row[best].tokens_per_s,
			    row[best].hours_per_epoch > 0 ? ", " : "",
			    row[best].hours_per_epoch > 0 ? dur : "", row[best].precision,
			    row[best].layer_split ? ", base split layer-wise (one GPU at a time)"
						  : ", data parallel");
	}
}

json_t *sw_fleet_train_fit_json(const struct sw_fleet_train_shape *s, const struct sw_fleet_hw *hw,
				int group, const struct sw_fleet_train_request *r,
				const struct sw_fleet_train_fit *f)
{
	char tg[96];
	target_names(tg, sizeof(tg), r->targets ? r->targets : SW_FLEET_TRAIN_ALL_LINEAR);
	json_t *mem = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
		"base_gib", f->base / GIB, "adapters_gib", f->adapters / GIB,
		"optimizer_gib", f->optimizer / GIB, "activations_gib", f->activations / GIB,
		"logits_gib", f->logits / GIB, "overhead_gib", f->overhead / GIB,
		"peak_gib", f->peak / GIB, "capacity_gib", f->capacity / GIB);
	json_t *o = json_pack("{s:o, s:o, s:s, s:o, s:i, s:b, s:s, s:o, s:f, s:f, s:f}",
		"model", sw_json_str(s->path), "name", sw_json_str(s->name), "source", s->source,
		"board", sw_json_str(hw->groups[group].name), "gpus", (int)f->ngpus,
		"fits", f->fits, "parallel", f->layer_split ? "layer split"
			: r->method == SW_FLEET_TRAIN_FULL ? "sharded" : "data parallel",
		"memory_per_gpu", mem, "tokens_per_s", f->tokens_per_s,
		"flops_per_token", f->flops_per_token, "gpu_tflops", f->gpu_tflops);
	json_object_set_new(o, "request",
			    json_pack("{s:s, s:i, s:s, s:i, s:s, s:i, s:i, s:b, s:b}", "method",
				      sw_fleet_train_method_name(r->method), "rank",
				      (int)(r->rank ? r->rank : 16), "targets", tg, "seq",
				      (int)f->seq, "seq_from", f->seq_from, "micro_batch",
				      (int)(r->micro_batch ? r->micro_batch : 1), "grad_accum",
				      (int)(r->grad_accum ? r->grad_accum : 8), "checkpointing",
				      !r->no_checkpointing, "chunked_loss", r->chunked_loss));
	json_object_set_new(o, "params", json_pack("{s:I, s:I, s:I}",
		"total", (json_int_t)s->params_total, "active", (json_int_t)s->params_active,
		"trainable", (json_int_t)f->trainable));
	json_object_set_new(o, "attention", sw_json_str(f->attention));
	json_object_set_new(o, "precision", sw_json_str(f->precision));
	json_object_set_new(o, "hours_per_epoch",
			    f->hours_per_epoch > 0 ? json_real(f->hours_per_epoch) : json_null());
	if (r->data.examples)
		json_object_set_new(o, "data",
				    json_pack("{s:I, s:I, s:i, s:i}", "examples",
					      (json_int_t)r->data.examples, "tokens",
					      (json_int_t)r->data.tokens, "longest",
					      (int)r->data.longest, "p95", (int)r->data.p95));
	json_object_set_new(o, "why", f->fits ? json_null() : sw_json_str(f->why));
	json_t *w = json_array();
	for (const char *p = f->warn; *p;) {
		const char *e = strstr(p, "; ");
		size_t len = e ? (size_t)(e - p) : strlen(p);
		json_array_append_new(w, sw_json_strn(p, len));
		p += len + (e ? 2 : 0);
	}
	json_object_set_new(o, "warnings", w);
	return o;
}
