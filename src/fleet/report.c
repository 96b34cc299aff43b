/*
 * report.c - what a plan says: the human report, sworn.conf sections, JSON
 * and an SVG of the boards.
 */
#include <jansson.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define MIB (1024.0 * 1024.0)
#define GIB (MIB * 1024.0)

static double used_bytes(const struct sw_fleet_fit *f, size_t d)
{
	return (double)(f->weights[d] + f->kv[d] + f->compute[d] + f->reserve[d]);
}

/* A GPU this full may not survive a longer prompt's compute buffers, a
 * driver that takes more for itself, or the estimate's own error. */
#define RISK_FILL 0.97

static const char *count_word(size_t n)
{
	static const char *const w[] = { "no", "one", "two", "three", "four", "five", "six",
					 "seven", "eight", "nine", "ten", "eleven", "twelve" };
	return n < SW_ARRAY_LEN(w) ? w[n] : NULL;
}

/* The first line of a model's report: what it does, where, at what cost,
 * in words a reader who has never seen llama-server can follow. */
static void plain_sentence(struct sw_buf *out, const struct sw_fleet_plan *p, size_t i)
{
	const struct sw_fleet_placement *pl = &p->placed[i];
	const struct sw_fleet_model *m = &p->models[i];
	const struct sw_fleet_fit *f = &pl->fit;
	if (pl->group < 0) {
		sw_buf_addf(out, "  %s is not placed: it would not run on this hardware as asked, so "
			    "no speed is predicted (see why below).\n", m->name);
		return;
	}
	const struct sw_fleet_group *g = &p->hw->groups[pl->group];
	double used = 0, cap = 0;
	for (size_t d = 0; d < f->ndev; d++) {
		used += (double)(f->weights[d] + f->kv[d] + f->compute[d] + f->reserve[d]);
		cap += (double)f->capacity[d];
	}
	double tps = f->decode_at[0] > 0 ? f->decode_at[0] : f->decode_tps;
	char gpus[48];
	const char *word = count_word(g->n);
	if (g->n == 1)
		snprintf(gpus, sizeof(gpus), "its GPU's");
	else if (word)
		snprintf(gpus, sizeof(gpus), "its %s GPUs'", word);
	else
		snprintf(gpus, sizeof(gpus), "its %zu GPUs'", g->n);
	sw_buf_addf(out, "  %s answers at about %.0f tokens/s on %s, using %.0f%% of %s memory",
		    m->name, tps, g->name, cap > 0 ? 100.0 * used / cap : 0, gpus);
	if (pl->below_floor)
		sw_buf_addf(out, ", below the %.0f tokens/s floor", p->opts.floor_tps);
	sw_buf_adds(out, ".\n");
}

/* "GPU3 is 98% full" lines for each GPU of a placed model past RISK_FILL;
 * how many. */
static size_t risks(struct sw_buf *out, const struct sw_fleet_plan *p, size_t i, bool text)
{
	const struct sw_fleet_placement *pl = &p->placed[i];
	const struct sw_fleet_fit *f = &pl->fit;
	size_t n = 0;
	if (pl->group < 0)
		return 0;
	for (size_t d = 0; d < f->ndev; d++) {
		int gi = sw_fleet_placement_gpu(p, i, d);
		double used = (double)(f->weights[d] + f->kv[d] + f->compute[d] + f->reserve[d]);
		double fill = f->capacity[d] ? used / (double)f->capacity[d] : 0;
		if (gi < 0 || fill <= RISK_FILL)
			continue;
		if (text)
			sw_buf_addf(out, "  risk     GPU%d is %.0f%% full: a long prompt or a driver that "
				    "keeps more memory may not fit; lower ctx, use kv=q4_0 or fewer slots\n",
				    p->hw->gpus[gi].index, 100.0 * fill);
		n++;
	}
	return n;
}

static void gpu_list(struct sw_buf *b, const struct sw_fleet_hw *hw, int group)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	for (size_t d = 0; d < g->n; d++)
		sw_buf_addf(b, "%s%d", d ? "," : "", hw->gpus[g->gpu[d]].index);
}

static int placement_group(const struct sw_fleet_plan *p, size_t i)
{
	const struct sw_fleet_placement *pl = &p->placed[i];
	if (pl->group >= 0)
		return pl->group;
	if (p->reqs[i].group)
		return sw_fleet_hw_find_group(p->hw, p->reqs[i].group);
	int big = 0;
	for (size_t g = 0; g < p->hw->ngroups; g++)
		if (p->hw->groups[g].n > p->hw->groups[big].n)
			big = (int)g;
	return big;
}

/* The hosts of a fleet of several, each with its address and how the
 * policy classes it. */
static void hosts_text(struct sw_buf *out, const struct sw_fleet_hw *hw)
{
	for (size_t h = 0; h < hw->nhosts; h++) {
		const struct sw_fleet_host *x = &hw->hosts[h];
		size_t ngpus = 0;
		for (size_t i = 0; i < hw->ngpus; i++)
			ngpus += hw->gpus[i].host == (int)h;
		sw_buf_addf(out, "host %s: %zu GPUs, %s", x->name, ngpus,
			    x->address ? x->address : "this machine");
		bool local = true;
		const char *cls = x->address ? sw_llm_address_class(x->address, &local) : NULL;
		if (cls)
			sw_buf_addf(out, " (%s: %s under the local-only policy)", cls,
				    local ? "local" : "refused unless mode = allow-remote");
		else if (x->address)
			sw_buf_adds(out, " (a name: the policy classes the address it resolves to)");
		sw_buf_adds(out, "\n");
	}
}

void sw_fleet_plan_text(struct sw_buf *out, const struct sw_fleet_plan *p)
{
	const struct sw_fleet_hw *hw = p->hw;
	sw_buf_addf(out, "hardware: %s (%zu GPUs, %zu groups); decode floor %.0f tok/s%s\n",
		    hw->source, hw->ngpus, hw->ngroups, p->opts.floor_tps,
		    p->opts.strict_floor ? " (strict)" : "");
	if (hw->notes)
		sw_buf_addf(out, "note: %s\n", hw->notes);
	if (hw->nhosts > 1)
		hosts_text(out, hw);
	sw_fleet_server_caps_note(out, p->opts.caps, p->opts.server);
	for (size_t i = 0; i < p->nmodels; i++) {
		const struct sw_fleet_placement *pl = &p->placed[i];
		const struct sw_fleet_model *m = &p->models[i];
		const struct sw_fleet_request *r = &p->reqs[i];
		const struct sw_fleet_fit *f = &pl->fit;
		int g = placement_group(p, i);
		sw_buf_addf(out, "\n%s  (%s, %s, %.1fB params, %.1fB active, %.1f GiB)\n", m->name,
			    m->arch, m->file_type, (double)m->params_total / 1e9,
			    (double)m->params_active / 1e9, (double)m->weight_bytes / GIB);
		plain_sentence(out, p, i);
		sw_buf_addf(out, "  request  ctx %u, kv %s, slots %u%s%s\n", f->ctx, sw_fleet_kv_name(r->kv),
			    r->slots ? r->slots : 1, r->role ? ", role " : "", r->role ? r->role : "");
		if (pl->group >= 0) {
			sw_buf_addf(out, "  group    %s (GPUs ", hw->groups[g].name);
			gpu_list(out, hw, g);
			sw_buf_addf(out, ", %s)", hw->groups[g].nvlink ? "nvlink" : "pcie");
			if (pl->rpc_group >= 0) {
				sw_buf_addf(out, " + %s over RPC (GPUs ", hw->groups[pl->rpc_group].name);
				gpu_list(out, hw, pl->rpc_group);
				sw_buf_addf(out, " on %s)", hw->hosts[hw->groups[pl->rpc_group].host].name);
			}
			sw_buf_addf(out, "%s\n", pl->below_floor ? "  BELOW FLOOR" : "");
			if (hw->nhosts > 1)
				sw_buf_addf(out, "  host     %s (%s)\n", hw->hosts[hw->groups[g].host].name,
					    hw->hosts[hw->groups[g].host].address ?
					    hw->hosts[hw->groups[g].host].address : "this machine");
		} else {
			sw_buf_adds(out, "  group    NOT PLACED\n");
		}
		sw_buf_addf(out, "  memory   %s", pl->group >= 0 ? "" : "(on ");
		if (pl->group < 0)
			sw_buf_addf(out, "%s) ", hw->groups[g].name);
		for (size_t d = 0; d < f->ndev; d++) {
			int gi = pl->group >= 0 ? sw_fleet_placement_gpu(p, i, d)
					       : (d < hw->groups[g].n ? hw->groups[g].gpu[d] : -1);
			if (gi < 0)
				break;
			bool away = hw->gpus[gi].host != hw->groups[g].host;
			sw_buf_addf(out, "%s%s%sGPU%d %.1f/%.1f GiB", d ? "  " : "",
				    away ? hw->hosts[hw->gpus[gi].host].name : "", away ? "/" : "",
				    hw->gpus[gi].index, used_bytes(f, d) / GIB, (double)f->capacity[d] / GIB);
		}
		sw_buf_addf(out, "  (+%.1f GiB host)\n", (double)f->host_bytes / GIB);
		risks(out, p, i, true);
		if (pl->group < 0) {
			sw_buf_addf(out, "  why      %s\n", pl->reason);
			continue;
		}
		sw_buf_adds(out, "  speed    decode");
		bool any = false;
		for (int k = 0; k < SW_FLEET_DEPTHS; k++)
			if (f->decode_at[k] > 0) {
				sw_buf_addf(out, "%s %.1f tok/s @%uk", any ? "," : "", f->decode_at[k],
					    sw_fleet_depths[k] / 1024);
				any = true;
			}
		uint32_t per_slot = f->ctx / (r->slots ? r->slots : 1);
		bool listed = false;
		for (int k = 0; k < SW_FLEET_DEPTHS; k++)
			listed = listed || sw_fleet_depths[k] == per_slot;
		if (!listed)
			sw_buf_addf(out, "%s %.1f tok/s @%u", any ? "," : "", f->decode_tps, per_slot);
		sw_buf_addf(out, "; prompt %.0f tok/s\n", f->prompt_tps);
		sw_buf_adds(out, "  prefill ");
		for (int k = 0; k < SW_FLEET_PROMPT_DEPTHS; k++)
			if (f->prompt_at[k] > 0)
				sw_buf_addf(out, " %.0f tok/s @%uk,", f->prompt_at[k],
					    sw_fleet_prompt_depths[k] / 1024);
		sw_buf_addf(out, " %.0f tok/s @%u (full: %.0f s to read)\n", f->prompt_full,
			    per_slot, f->prompt_full > 0 ? per_slot / f->prompt_full : 0);
		sw_buf_addf(out, "  why      %s\n", pl->reason);
		if (f->warn[0])
			sw_buf_addf(out, "  warning  %s\n", f->warn);
		if (pl->rpc_commands) {
			const struct sw_fleet_host *h = &hw->hosts[hw->groups[pl->rpc_group].host];
			sw_buf_addf(out, "  on %s%s%s first:\n", h->name, h->exec ? ", through " : "",
				    h->exec ? h->exec : "");
			for (const char *c = pl->rpc_commands; *c;) {
				const char *nl = strchr(c, '\n');
				size_t len = nl ? (size_t)(nl - c) : strlen(c);
				sw_buf_addf(out, "  rpc      %.*s\n", (int)len, c);
				c += len + (nl ? 1 : 0);
			}
		}
		if (pl->command) {
			const struct sw_fleet_host *h = hw->nhosts > 1 ? &hw->hosts[hw->groups[g].host] : NULL;
			if (h && h->exec)
				sw_buf_addf(out, "  on %s, through %s:\n", h->name, h->exec);
			sw_buf_addf(out, "  command  %s\n", pl->command);
		}
	}
	sw_buf_addf(out, "\nplanned %zu of %zu models in %.1f ms\n", p->nmodels - sw_fleet_plan_unplaced(p),
		    p->nmodels, p->elapsed_ms);
}

void sw_fleet_plan_conf(struct sw_buf *out, const struct sw_fleet_plan *p)
{
	for (size_t i = 0; i < p->nmodels; i++) {
		const struct sw_fleet_placement *pl = &p->placed[i];
		if (pl->group < 0)
			continue;
		char *name = sw_fleet_endpoint_name(p, i);
		const struct sw_fleet_request *r = &p->reqs[i];
		uint32_t slots = r->slots ? r->slots : 1;
		sw_buf_addf(out, "; %s on %s: predicted %.0f tok/s decode, %.0f tok/s prompt\n",
			    sw_path_base(p->models[i].path), p->hw->groups[pl->group].name,
			    pl->fit.decode_tps, pl->fit.prompt_tps);
		int h = p->hw->groups[pl->group].host;
		const char *addr = p->hw->hosts && p->hw->hosts[h].address ? p->hw->hosts[h].address
		      : strcmp(p->opts.host, "0.0.0.0") == 0 ? "127.0.0.1" : p->opts.host;
		bool v6 = strchr(addr, ':') != NULL;
		sw_buf_addf(out, "[endpoint \"%s\"]\nurl = http://%s%s%s:%u\ngpus = ", name,
			    v6 ? "[" : "", addr, v6 ? "]" : "", pl->port);
		gpu_list(out, p->hw, pl->group);
		sw_buf_addf(out, "\nslots = %u\n\n", slots);
		if (r->role)
			sw_buf_addf(out, "[role \"%s\"]\nendpoint = %s\ncontext = %u\n\n", r->role, name,
				    pl->fit.ctx / slots);
		free(name);
	}
}

json_t *sw_fleet_plan_json(const struct sw_fleet_plan *p)
{
	const struct sw_fleet_hw *hw = p->hw;
	json_t *models = json_array();
	for (size_t i = 0; i < p->nmodels; i++) {
		const struct sw_fleet_placement *pl = &p->placed[i];
		const struct sw_fleet_model *m = &p->models[i];
		const struct sw_fleet_fit *f = &pl->fit;
		int g = placement_group(p, i);
		json_t *gpus = json_array(), *mem = json_array(), *depth = json_object();
		for (size_t d = 0; d < f->ndev; d++) {
			int gi = pl->group >= 0 ? sw_fleet_placement_gpu(p, i, d)
					       : (d < hw->groups[g].n ? hw->groups[g].gpu[d] : -1);
			if (gi < 0)
				break;
			int idx = hw->gpus[gi].index;
			if (pl->group >= 0)
				json_array_append_new(gpus, json_integer(idx));
			json_array_append_new(mem, json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
				"gpu", idx, "layers", (json_int_t)f->layers[d],
				"weights_mib", (json_int_t)(f->weights[d] / MIB),
				"kv_mib", (json_int_t)(f->kv[d] / MIB),
				"compute_mib", (json_int_t)(f->compute[d] / MIB),
				"reserve_mib", (json_int_t)(f->reserve[d] / MIB),
				"used_mib", (json_int_t)(used_bytes(f, d) / MIB),
				"capacity_mib", (json_int_t)(f->capacity[d] / MIB)));
		}
		for (int k = 0; k < SW_FLEET_DEPTHS; k++)
			if (f->decode_at[k] > 0) {
				char key[16];
				snprintf(key, sizeof(key), "%u", sw_fleet_depths[k]);
				json_object_set_new(depth, key, json_real(f->decode_at[k]));
			}
		json_t *pdepth = json_object();
		for (int k = 0; k < SW_FLEET_PROMPT_DEPTHS; k++)
			if (f->prompt_at[k] > 0) {
				char key[16];
				snprintf(key, sizeof(key), "%u", sw_fleet_prompt_depths[k]);
				json_object_set_new(pdepth, key, json_real(f->prompt_at[k]));
			}
		uint32_t full = f->ctx / (p->reqs[i].slots ? p->reqs[i].slots : 1);
		if (full) {
			char key[16];
			snprintf(key, sizeof(key), "%u", full);
			json_object_set_new(pdepth, key, json_real(f->prompt_full));
		}
		json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:b, s:o, s:{s:f, s:f, s:o}, s:I, s:s, s:i}",
			"model", sw_json_str(m->path),
			"name", sw_json_str(m->name),
			"group", pl->group >= 0 ? sw_json_str(hw->groups[pl->group].name) : json_null(),
			"gpus", gpus,
			"fits", f->fits,
			"memory", mem,
			"predicted", "decode_tps", f->decode_tps, "prompt_tps", f->prompt_tps,
			"decode_tps_at", depth,
			"ctx", (json_int_t)f->ctx,
			"kv", sw_fleet_kv_name(p->reqs[i].kv),
			"slots", (int)(p->reqs[i].slots ? p->reqs[i].slots : 1));
		json_object_set_new(o, "command", pl->command ? sw_json_str(pl->command) : json_null());
		json_object_set_new(o, "port", pl->group >= 0 ? json_integer(pl->port) : json_null());
		json_object_set_new(o, "below_floor", json_boolean(pl->below_floor));
		if (pl->group < 0 || pl->below_floor)
			json_object_set_new(o, "reason", sw_json_str(pl->reason));
		else
			json_object_set_new(o, "why", sw_json_str(pl->reason));
		if (p->reqs[i].role)
			json_object_set_new(o, "role", sw_json_str(p->reqs[i].role));
		if (pl->group >= 0 && hw->nhosts)
			json_object_set_new(o, "host", sw_json_str(hw->hosts[hw->groups[pl->group].host].name));
		if (pl->rpc_group >= 0)
			json_object_set_new(o, "rpc", json_pack("{s:o, s:o, s:o, s:f, s:f}",
				"group", sw_json_str(hw->groups[pl->rpc_group].name),
				"host", sw_json_str(hw->hosts[hw->groups[pl->rpc_group].host].name),
				"commands", sw_json_str(pl->rpc_commands),
				"decode_tps_without_network", pl->rpc_base_decode_tps,
				"prompt_tps_without_network", pl->rpc_base_prompt_tps));
		if (f->warn[0])
			json_object_set_new(o, "warning", sw_json_str(f->warn));
		if (pl->group >= 0)
			json_object_set_new(json_object_get(o, "predicted"), "prompt_tps_at",
					    pdepth);
		else
			json_decref(pdepth);
		json_object_set_new(o, "risk", json_boolean(risks(NULL, p, i, false) > 0));
		if (pl->group < 0)
			json_object_set_new(o, "predicted", json_null());
		if (!f->fits && f->max_ctx)
			json_object_set_new(o, "max_ctx", json_integer(f->max_ctx));
		json_array_append_new(models, o);
	}
	const struct sw_fleet_server_caps *caps = p->opts.caps;
	bool known = caps && caps->known;
	json_t *server = json_pack("{s:o, s:b, s:s, s:b}", "path", sw_json_str(p->opts.server),
				   "read", known, "flash_attn", !known || caps->fa_value ? "-fa on" : "-fa",
				   "fit_off", !known || caps->fit);
	json_object_set_new(server, "version", known && caps->version[0] ?
					       sw_json_str(caps->version) : json_null());
	json_object_set_new(server, "build", known && caps->build >= 0 ?
					     json_integer(caps->build) : json_null());
	if (!known)
		json_object_set_new(server, "needs", sw_json_str(sw_fleet_server_min_build));
	return json_pack("{s:o, s:f, s:b, s:f, s:o, s:o}", "hardware", sw_json_str(hw->source),
			 "floor_tps", p->opts.floor_tps, "strict_floor", p->opts.strict_floor,
			 "elapsed_ms", p->elapsed_ms, "server", server, "models", models);
}
