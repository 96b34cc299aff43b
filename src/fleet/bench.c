/* bench.c - measured prompt and decode speed of a running server at several
 * context depths, the prediction beside it, a plot, and calibration
 * constants scaled to the measurement. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet/fleet_int.h"
#include "llm/llm.h"

/* ---------------------------------------------------------- legal prose */

static const char *const subjects[] = {
	"Plaintiff", "Defendant", "The Court", "The moving party", "Counsel for Defendant",
	"The Magistrate Judge", "The Receiver", "Each of the Guarantors", "The Trustee",
	"The arbitral tribunal", "The Ninth Circuit", "The record",
};
static const char *const verbs[] = {
	"contends that", "does not dispute that", "has shown that", "concedes that",
	"argues, without citing authority, that", "correctly observes that",
	"has failed to establish that", "acknowledged at deposition that",
};
static const char *const claims[] = {
	"the notice of termination was served on March 3, 2019",
	"the limitation period under Section 4.2 of the Agreement had not yet run",
	"the indemnity in Article 9 covers losses caused by the supplier's own negligence",
	"no genuine dispute of material fact remains for trial under Rule 56(a)",
	"the purported waiver was never signed by an authorised officer",
	"the invoices at Exhibit 12 were paid in full before the default was declared",
	"the forum selection clause is mandatory rather than permissive",
	"the deposition testimony at 84:3-86:17 contradicts the declaration",
	"the damages claimed are consequential and therefore excluded",
	"the amendment of June 2020 superseded the original payment schedule",
	"the e-mail of November 14 constitutes an acceptance of the counteroffer",
	"the statutory notice required by the Act was defective on its face",
};
static const char *const tails[] = {
	"", "", " (Compl. ¶ 41)", " (Ex. 7 at 3)", " (Decl. of J. Moreno ¶ 12)",
	" (Tr. 112:4-19)", ", as the parties' course of dealing confirms",
	", although the correspondence suggests otherwise",
};

static uint64_t next_rand(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

void sw_fleet_legal_text(struct sw_buf *out, size_t words, uint64_t seed)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
	size_t n = 0, in_par = 0;
	while (n < words) {
		const char *parts[4] = {
			subjects[next_rand(&s) % SW_ARRAY_LEN(subjects)],
			verbs[next_rand(&s) % SW_ARRAY_LEN(verbs)],
			claims[next_rand(&s) % SW_ARRAY_LEN(claims)],
			tails[next_rand(&s) % SW_ARRAY_LEN(tails)],
		};
		sw_buf_addf(out, "%s %s %s%s. ", parts[0], parts[1], parts[2], parts[3]);
		for (size_t i = 0; i < 4; i++)
			for (const char *p = parts[i]; *p; p++)
				if (*p == ' ')
					n++;
		n += 2;
		if (++in_par == 6) {
			sw_buf_adds(out, "\n\n");
			in_par = 0;
		}
	}
}

/* -------------------------------------------------------------- running */

static int one(struct sw_llm_result *res, struct sw_llm_client *c, const char *text, long gen,
	       unsigned timeout_s, struct sw_err *err)
{
	struct sw_llm_message msgs[2] = {
		{ "system", "You are a careful litigation assistant." },
		{ "user", text },
	};
	struct sw_llm_request req;
	sw_llm_request_init(&req);
	req.messages = msgs;
	req.n_messages = 2;
	req.max_tokens = gen;
	req.temperature = 0;
	req.stream = true; /* as sworn's pipelines call it; timings come last */
	req.retries = 3;
	req.deadlines.connect_ms = 5000;
	req.deadlines.total_ms = timeout_s * 1000;
	return sw_llm_chat(res, c, &req, err);
}

static void predict(struct sw_fleet_bench *b, const struct sw_fleet_bench_opts *o)
{
	struct sw_fleet_fit fit;
	const struct sw_fleet_hw *hw = o->hw;
	sw_fleet_fit(&fit, o->model, hw, o->group, o->req, o->cal);
	b->predicted = true;
	b->predicted_for = sw_xasprintf("%s on %s", sw_path_base(o->model->path),
					hw->groups[o->group].name);
	for (size_t i = 0; i < b->n; i++) {
		b->pt[i].pred_decode_tps = sw_fleet_decode_tps(o->model, hw, o->group, &fit, o->req->kv,
							       b->pt[i].depth, o->cal);
		/* The prompt the server read, from an empty cache: attention's
		 * share grows with its length. */
		long n = b->pt[i].prompt_n > 0 ? b->pt[i].prompt_n + b->pt[i].cache_n
					       : b->pt[i].depth;
		b->pt[i].pred_prompt_tps = sw_fleet_prompt_tps(o->model, hw, o->group, &fit,
							       (uint32_t)n, o->cal);
	}
	struct sw__fleet_consts k;
	const struct sw_fleet_gpu *gpu = &hw->gpus[hw->groups[o->group].gpu[0]];
	sw__fleet_consts(&k, o->cal, o->model, gpu);
	b->eta = k.eta;
	b->c_layer_ms = k.c_layer_ms;
	b->pp_tflops = k.pp_tflops;
	b->pp_scale = k.pp_scale;
	b->cc_major = gpu->cc_major;
	b->cc_minor = gpu->cc_minor;
	b->arch = sw_xstrdup(o->model->arch);
	b->moe = o->model->n_expert > 0;
	double dr = 0, pr = 0;
	size_t nd = 0, np = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct sw_fleet_bench_point *p = &b->pt[i];
		if (p->pred_decode_tps > 0 && p->decode_tps > 0) {
			dr += p->decode_tps / p->pred_decode_tps;
			nd++;
		}
		if (p->pred_prompt_tps > 0 && p->prompt_tps > 0) {
			pr += p->prompt_tps / p->pred_prompt_tps;
			np++;
		}
	}
	b->decode_ratio = nd ? dr / (double)nd : 0;
	b->prompt_ratio = np ? pr / (double)np : 0;
	/* Far slower than any calibration error: the model is not where the
	 * plan put it (a CPU build, layers left on the CPU, another GPU). */
	b->slow = b->prompt_ratio > 0 && b->prompt_ratio < 1.0 / SW_FLEET_BENCH_SLOW;
}

int sw_fleet_bench_run(struct sw_fleet_bench *out, struct sw_llm_client *c, const char *endpoint,
		       const struct sw_fleet_bench_opts *o, struct sw_err *err)
{
	struct sw_llm_server_info info = { 0 };
	struct sw_llm_result res = { 0 };
	struct sw_buf text = SW_BUF_INIT, sample = SW_BUF_INIT;
	unsigned timeout = o->timeout_s ? o->timeout_s : 600;
	long gen = o->gen_tokens ? (long)o->gen_tokens : 64;
	int rc;

	memset(out, 0, sizeof(*out));
	out->endpoint = sw_xstrdup(endpoint);
	out->gen = (unsigned)gen;
	if ((rc = sw_llm_server_info(&info, c, 10000, err)) != 0)
		goto done;
	out->build = info.build ? sw_xstrdup(info.build) : NULL;
	out->model = info.model ? sw_xstrdup(info.model) : NULL;
	out->n_ctx = info.n_ctx;
	/* Tokens per word of this model's vocabulary, from a sample. */
	size_t sample_tokens = 0;
	sw_fleet_legal_text(&sample, 1000, 1);
	if ((rc = sw_llm_tokenize(&sample_tokens, c, sample.data, 30000, err)) != 0)
		goto done;
	double per_word = sample_tokens > 0 ? (double)sample_tokens / 1000.0 : 1.3;
	/* Warm-up: the first request of a fresh server pays for graph set-up. */
	if ((rc = one(&res, c, "Say ready.", 1, timeout, err)) != 0)
		goto done;
	sw_llm_result_release(&res);
	for (size_t i = 0; i < SW_FLEET_DEPTHS; i++) {
		uint32_t depth = sw_fleet_depths[i];
		if (o->max_depth && depth > o->max_depth)
			break;
		/* Room for the template, the answer and a margin. */
		if (out->n_ctx > 0 && (long)depth + gen + 256 > out->n_ctx)
			break;
		sw_buf_reset(&text);
		/* A first line of its own keeps the server's prompt cache from
		 * serving a previous depth's prefix. */
		sw_buf_addf(&text, "Matter %zu-%u, statement of facts.\n\n", i, depth);
		sw_fleet_legal_text(&text, (size_t)((double)(depth - 64) / per_word), 100 + i);
		sw_buf_adds(&text, "\n\nSummarise the facts above in one paragraph.");
		if ((rc = one(&res, c, text.data, gen, timeout, err)) != 0) {
			sw_err_wrap(err, rc, "at depth %u", depth);
			goto done;
		}
		struct sw_fleet_bench_point *p = &out->pt[out->n++];
		p->depth = depth;
		if (res.timings.have) {
			p->prompt_n = res.timings.prompt_n;
			p->cache_n = res.timings.cache_n;
			p->predicted_n = res.timings.predicted_n;
			p->prompt_tps = res.timings.prompt_per_second;
			p->decode_tps = res.timings.predicted_per_second;
		}
		sw_llm_result_release(&res);
	}
	if (out->n == 0) {
		rc = sw_err_set(err, SW_EINPUT, "the server's context (%ld tokens per slot) is too small "
						"for the smallest depth (%u)", out->n_ctx, sw_fleet_depths[0]);
		goto done;
	}
	bool timed = false;
	for (size_t i = 0; i < out->n; i++)
		timed |= out->pt[i].decode_tps > 0;
	if (!timed) {
		rc = sw_err_set(err, SW_EINPUT, "%s sends no timings: it is not llama-server's API", endpoint);
		goto done;
	}
	if (o->model && o->hw && o->req && o->cal && o->group >= 0)
		predict(out, o);
done:
	sw_llm_result_release(&res);
	sw_llm_server_info_release(&info);
	sw_buf_release(&text);
	sw_buf_release(&sample);
	if (rc != 0)
		sw_fleet_bench_release(out);
	return rc;
}

void sw_fleet_bench_release(struct sw_fleet_bench *b)
{
	if (!b)
		return;
	free(b->endpoint);
	free(b->build);
	free(b->model);
	free(b->predicted_for);
	free(b->arch);
	memset(b, 0, sizeof(*b));
}

/* -------------------------------------------------------------- reports */

static double err_pct(double meas, double pred)
{
	return pred > 0 && meas > 0 ? (meas - pred) / pred * 100.0 : 0;
}

void sw_fleet_bench_text(struct sw_buf *out, const struct sw_fleet_bench *b)
{
	sw_buf_addf(out, "endpoint %s  model %s  build %s  context %ld/slot\n", b->endpoint,
		    b->model ? b->model : "?", b->build ? b->build : "?", b->n_ctx);
	if (b->predicted)
		sw_buf_addf(out, "predicted for %s\n", b->predicted_for);
	sw_buf_addf(out, "%8s %9s %12s %12s", "depth", "prompt_n", "prompt t/s", "decode t/s");
	if (b->predicted)
		sw_buf_addf(out, " %12s %12s %8s", "pred prompt", "pred decode", "decode Δ");
	sw_buf_addc(out, '\n');
	for (size_t i = 0; i < b->n; i++) {
		const struct sw_fleet_bench_point *p = &b->pt[i];
		sw_buf_addf(out, "%8u %9ld %12.1f %12.1f", p->depth, p->prompt_n, p->prompt_tps,
			    p->decode_tps);
		if (b->predicted)
			sw_buf_addf(out, " %12.1f %12.1f %+7.0f%%", p->pred_prompt_tps, p->pred_decode_tps,
				    err_pct(p->decode_tps, p->pred_decode_tps));
		sw_buf_addc(out, '\n');
	}
	if (b->predicted)
		sw_buf_addf(out, "measured / predicted: decode %.2f, prompt %.2f\n", b->decode_ratio,
			    b->prompt_ratio);
	if (b->slow)
		sw_buf_addf(
			out,
			"warning: prompts read %.1fx slower than predicted for %s: is the model "
			"on those GPUs? nvidia-smi should show the server's memory on each; a CPU "
			"build or layers left on the CPU read prompts at CPU speed\n",
			1.0 / b->prompt_ratio, b->predicted_for);
	if (b->predicted && b->eta * b->decode_ratio > 1.0)
		sw_buf_adds(out, "note: faster than the GPUs' memory bandwidth allows for this model: "
				 "is the server running the model and group given?\n");
}

json_t *sw_fleet_bench_json(const struct sw_fleet_bench *b)
{
	json_t *pts = json_array();
	for (size_t i = 0; i < b->n; i++) {
		const struct sw_fleet_bench_point *p = &b->pt[i];
		json_t *o = json_pack("{s:i, s:I, s:I, s:I, s:f, s:f}", "depth", (int)p->depth, "prompt_n",
				      (json_int_t)p->prompt_n, "cache_n", (json_int_t)p->cache_n,
				      "predicted_n", (json_int_t)p->predicted_n, "prompt_tps",
				      p->prompt_tps, "decode_tps", p->decode_tps);
		if (b->predicted) {
			json_object_set_new(o, "predicted_prompt_tps", json_real(p->pred_prompt_tps));
			json_object_set_new(o, "predicted_decode_tps", json_real(p->pred_decode_tps));
		}
		json_array_append_new(pts, o);
	}
	json_t *j = json_pack("{s:s, s:I, s:i, s:o}", "endpoint", b->endpoint, "n_ctx",
			      (json_int_t)b->n_ctx, "gen_tokens", (int)b->gen, "points", pts);
	json_object_set_new(j, "build", b->build ? json_string(b->build) : json_null());
	json_object_set_new(j, "model", b->model ? sw_json_str(b->model) : json_null());
	if (b->predicted) {
		json_object_set_new(j, "predicted_for", sw_json_str(b->predicted_for));
		json_object_set_new(j, "decode_ratio", json_real(b->decode_ratio));
		json_object_set_new(j, "prompt_ratio", json_real(b->prompt_ratio));
		json_object_set_new(j, "slow", json_boolean(b->slow));
	}
	return j;
}

/* log2, exact at powers of two and linear between them (no libm here). */
static double lg2(double v)
{
	double n = 0;
	while (v >= 2) {
		v /= 2;
		n++;
	}
	return n + (v - 1);
}

void sw_fleet_bench_svg(struct sw_buf *out, const struct sw_fleet_bench *b)
{
	const double W = 640, H = 400, L = 70, R = 20, T = 40, B = 50;
	double ymax = 1;
	for (size_t i = 0; i < b->n; i++) {
		const struct sw_fleet_bench_point *p = &b->pt[i];
		double v[] = { p->decode_tps, p->pred_decode_tps };
		for (size_t k = 0; k < SW_ARRAY_LEN(v); k++)
			if (v[k] > ymax && isfinite(v[k]))
				ymax = v[k];
	}
	ymax *= 1.15;
	/* x: log2 of the depth, from 512 to 65536. */
	double x0 = lg2(512.0), x1 = lg2(65536.0);
#define XPOS(d) (L + (lg2((double)(d)) - x0) / (x1 - x0) * (W - L - R))
#define YPOS(v) (T + (1.0 - (v) / ymax) * (H - T - B))
	sw_buf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			 "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
	sw_buf_addf(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", W, H);
	sw_buf_adds(out, "<text x=\"70\" y=\"22\" font-size=\"14\">decode tok/s against context depth: ");
	for (const char *c = b->endpoint; *c; c++) {
		if (*c == '<')
			sw_buf_adds(out, "&lt;");
		else if (*c == '&')
			sw_buf_adds(out, "&amp;");
		else
			sw_buf_addc(out, *c);
	}
	sw_buf_adds(out, "</text>\n");
	sw_buf_addf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L,
		    H - B, W - R, H - B);
	sw_buf_addf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T,
		    L, H - B);
	for (size_t i = 0; i < SW_FLEET_DEPTHS; i++)
		sw_buf_addf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%uk</text>\n",
			    XPOS(sw_fleet_depths[i]), H - B + 18, sw_fleet_depths[i] / 1024);
	sw_buf_addf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">context depth (tokens)</text>\n",
		    (L + W - R) / 2, H - 12);
	for (int k = 0; k <= 4; k++) {
		double v = ymax * k / 4;
		sw_buf_addf(out, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", L - 6,
			    YPOS(v) + 4, v);
	}
	const char *colour[2] = { "#1f5fa8", "#c0392b" };
	const char *label[2] = { "measured", "predicted" };
	for (int series = 0; series < 2; series++) {
		if (series == 1 && !b->predicted)
			continue;
		sw_buf_addf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			    colour[series], series ? " stroke-dasharray=\"6 4\"" : "");
		for (size_t i = 0; i < b->n; i++) {
			double v = series ? b->pt[i].pred_decode_tps : b->pt[i].decode_tps;
			sw_buf_addf(out, "%s%.1f,%.1f", i ? " " : "", XPOS(b->pt[i].depth), YPOS(v));
		}
		sw_buf_adds(out, "\"/>\n");
		for (size_t i = 0; i < b->n; i++) {
			double v = series ? b->pt[i].pred_decode_tps : b->pt[i].decode_tps;
			sw_buf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s "
					 "%.1f tok/s at %u</title></circle>\n",
				    XPOS(b->pt[i].depth), YPOS(v), colour[series], label[series], v,
				    b->pt[i].depth);
		}
		sw_buf_addf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">%s</text>\n", W - R - 90,
			    T + 16.0 * series + 10, colour[series], label[series]);
	}
#undef XPOS
#undef YPOS
	sw_buf_adds(out, "</svg>\n");
}

int sw_fleet_bench_calibration(struct sw_buf *out, const struct sw_fleet_bench *b,
			       const char *base_text, struct sw_err *err)
{
	if (!b->predicted || !(b->decode_ratio > 0) || !(b->prompt_ratio > 0))
		return sw_err_set(err, SW_EUSAGE, "no prediction to calibrate: give the model, the "
						  "inventory and the group (or bench a fleet server)");
	const char *base = base_text ? base_text : (const char *)sw__fleet_calibration_ini;
	const char *gpu_at = strstr(base, "\n[gpu ");
	const char *class_at = strstr(base, "\n[class ");
	if (!gpu_at || !class_at || class_at < gpu_at)
		return sw_err_set(err, SW_EINPUT, "the calibration to start from has no [gpu] and "
						  "[class] sections in that order");
	/* Decode time scales as a whole by 1/decode_ratio: the bandwidth term
	 * through eta, the per-layer term through c_layer_ms. */
	double eta = b->eta * b->decode_ratio;
	double c_layer = b->c_layer_ms / b->decode_ratio;
	double pp_scale = b->pp_scale * b->prompt_ratio;
	/* Before the comment lines that introduce the first [gpu]. */
	const char *cut = gpu_at + 1;
	for (;;) {
		const char *prev = cut - 1; /* the '\n' ending the line before */
		const char *ls = prev;
		while (ls > base && ls[-1] != '\n')
			ls--;
		if (ls == prev || *ls != ';')
			break;
		cut = ls;
	}
	sw_buf_add(out, base, (size_t)(cut - base));
	sw_buf_addf(out, "; Measured by `sworn bench` on %s (%s, build %s): decode %.2fx, prompt %.2fx\n"
			 "; the previous prediction.  Applies to compute %d.%d GPUs and %s %s models.\n"
			 "[gpu \"measured\"]\ncompute = %d.%d\neta = %.4f\npp_tflops = %.3f\n"
			 "overhead_scale = 1.0\n\n",
		    b->endpoint, b->predicted_for, b->build ? b->build : "unknown", b->decode_ratio,
		    b->prompt_ratio, b->cc_major, b->cc_minor, b->arch, b->moe ? "MoE" : "dense",
		    b->cc_major, b->cc_minor, eta, b->pp_tflops);
	sw_buf_add(out, cut, (size_t)(class_at + 1 - cut));
	sw_buf_addf(out, "[class \"measured\"]\narch = %s\nmoe = %s\nc_layer_ms = %.4f\npp_scale = %.4f\n\n",
		    b->arch, b->moe ? "yes" : "no", c_layer, pp_scale);
	sw_buf_adds(out, class_at + 1);
	return 0;
}
