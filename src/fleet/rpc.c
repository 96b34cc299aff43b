/*
 * rpc.c - a model too large for any group, spanned across two hosts with
 * llama.cpp's own RPC: rpc-server processes on the helper host's GPUs and
 * llama-server --rpc on the main host.  sworn plans it and predicts what
 * the network costs; it never carries a tensor itself.
 *
 * The speed model: the split is fitted and timed as if the GPUs of both
 * groups sat in one PCIe box, then each token pays the link.  Per token
 * (decode) and per prompt batch of PROMPT_BATCH tokens, llama.cpp's RPC
 * backend makes about RPC_TRIPS round trips per remote GPU (the graph, the
 * activations in, the activations out), sends the activations (n_embd
 * float32 values a token) across the link and back, and sends the
 * compute graph (about GRAPH_BYTES_PER_LAYER a layer held remotely).
 * These are estimates, not measurements: docs/PERFORMANCE.md says so.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define RPC_TRIPS 3
#define GRAPH_BYTES_PER_LAYER 8192.0
#define PROMPT_BATCH 512.0
#define RPC_BASE_PORT 50052

static bool group_free(const struct sw_fleet_plan *p, int g)
{
	for (size_t i = 0; i < p->nmodels; i++)
		if (p->placed[i].group == g || p->placed[i].rpc_group == g)
			return false;
	return true;
}

/* Seconds the link adds to one step of ntok tokens. */
static double link_seconds(const struct sw_fleet_model *m, const struct sw_fleet_link *l,
			   size_t nremote, uint32_t remote_layers, double ntok)
{
	double lat = l->latency_us * 1e-6, bw = l->bandwidth_gbs * 1e9;
	double act = (double)m->n_embd * 4.0 * ntok;
	return (double)nremote * RPC_TRIPS * 2.0 * lat + 2.0 * act / bw +
	       (double)remote_layers * GRAPH_BYTES_PER_LAYER / bw;
}

static double slowed(double tps, double per_token_s)
{
	return tps > 0 ? 1.0 / (1.0 / tps + per_token_s) : 0;
}

/* The rpc-server beside the llama-server the plan names. */
static char *rpc_server_path(const char *server)
{
	const char *base = sw_path_base(server);
	if (strcmp(base, "llama-server") == 0 && base != server)
		return sw_xasprintf("%.*srpc-server", (int)(base - server), server);
	return sw_xstrdup("rpc-server");
}

/* The next rpc-server port on host h: above every one already planned
 * there. */
static uint16_t next_rpc_port(const struct sw_fleet_plan *p, int h)
{
	unsigned port = RPC_BASE_PORT;
	for (size_t i = 0; i < p->nmodels; i++) {
		const struct sw_fleet_placement *pl = &p->placed[i];
		if (pl->rpc_group >= 0 && p->hw->groups[pl->rpc_group].host == h) {
			unsigned end = pl->rpc_port + (unsigned)p->hw->groups[pl->rpc_group].n;
			if (end > port)
				port = end;
		}
	}
	return (uint16_t)port;
}

void sw__fleet_rpc_flag(struct sw_buf *b, const struct sw_fleet_plan *p, size_t i)
{
	const struct sw_fleet_placement *pl = &p->placed[i];
	const struct sw_fleet_group *help = &p->hw->groups[pl->rpc_group];
	const char *addr = sw_fleet_host_address(p->hw, help->host);
	sw_buf_adds(b, " --rpc ");
	for (size_t d = 0; d < help->n; d++)
		sw_buf_addf(b, "%s%s:%u", d ? "," : "", addr, (unsigned)(pl->rpc_port + d));
}

struct span {
	int main, help;
	struct sw_fleet_fit fit;
	double base_decode, base_prompt;
	const struct sw_fleet_link *link;
};

/* Fit model m over groups a (main) and b (helper) as one group of both. */
static void try_span(struct span *best, struct sw_fleet_plan *p, size_t m, int a, int b,
		     const struct sw_fleet_link *link, const struct sw_fleet_calib *cal)
{
	const struct sw_fleet_hw *hw = p->hw;
	const struct sw_fleet_group *ga = &hw->groups[a], *gb = &hw->groups[b];
	if (ga->n + gb->n > SW_FLEET_MAX_GPUS || hw->ngroups >= SW_FLEET_MAX_GROUPS)
		return;
	struct sw_fleet_hw tmp = *hw;
	tmp.groups = sw_xcalloc(hw->ngroups + 1, sizeof(*tmp.groups));
	memcpy(tmp.groups, hw->groups, hw->ngroups * sizeof(*hw->groups));
	struct sw_fleet_group *both = &tmp.groups[hw->ngroups];
	both->name = ga->name;
	both->nvlink = false;
	both->host = ga->host;
	for (size_t d = 0; d < ga->n; d++)
		both->gpu[both->n++] = ga->gpu[d];
	for (size_t d = 0; d < gb->n; d++)
		both->gpu[both->n++] = gb->gpu[d];
	tmp.ngroups++;
	struct sw_fleet_fit f;
	sw_fleet_fit(&f, &p->models[m], &tmp, (int)hw->ngroups, &p->reqs[m], cal);
	free(tmp.groups);
	if (!f.fits)
		return;
	uint32_t remote_layers = 0;
	for (size_t d = ga->n; d < f.ndev; d++)
		remote_layers += f.layers[d];
	const struct sw_fleet_model *mod = &p->models[m];
	double tok = link_seconds(mod, link, gb->n, remote_layers, 1.0);
	double batch = link_seconds(mod, link, gb->n, remote_layers, PROMPT_BATCH);
	double base_decode = f.decode_tps, base_prompt = f.prompt_tps;
	f.decode_tps = slowed(f.decode_tps, tok);
	for (int k = 0; k < SW_FLEET_DEPTHS; k++)
		f.decode_at[k] = f.decode_at[k] > 0 ? slowed(f.decode_at[k], tok) : 0;
	f.prompt_tps = f.prompt_tps > 0 ? PROMPT_BATCH / (PROMPT_BATCH / f.prompt_tps + batch) : 0;
	if (best->main >= 0 && f.decode_tps <= best->fit.decode_tps)
		return;
	best->main = a;
	best->help = b;
	best->fit = f;
	best->base_decode = base_decode;
	best->base_prompt = base_prompt;
	best->link = link;
}

static void place_span(struct sw_fleet_plan *p, size_t m, const struct span *s, uint16_t *port)
{
	struct sw_fleet_placement *pl = &p->placed[m];
	const struct sw_fleet_hw *hw = p->hw;
	const struct sw_fleet_group *ga = &hw->groups[s->main], *gb = &hw->groups[s->help];
	const char *ha = hw->hosts[ga->host].name, *hb = hw->hosts[gb->host].name;
	pl->group = s->main;
	pl->rpc_group = s->help;
	pl->rpc_port = next_rpc_port(p, gb->host);
	pl->fit = s->fit;
	pl->rpc_base_decode_tps = s->base_decode;
	pl->rpc_base_prompt_tps = s->base_prompt;
	pl->below_floor = pl->fit.decode_tps < p->opts.floor_tps;
	pl->port = p->reqs[m].port ? p->reqs[m].port : (*port)++;
	snprintf(pl->reason, sizeof(pl->reason),
		 "fits no single group; spans %s on %s and %s on %s through llama.cpp's RPC "
		 "(--allow-rpc) over the %s link (%.2f GB/s, %.0f us): every token crosses the "
		 "network, so it answers at about %.2f tok/s where the same GPUs in one box would "
		 "give %.2f, and reads prompts at %.0f tok/s instead of %.0f",
		 ga->name, ha, gb->name, hb, s->link->name, s->link->bandwidth_gbs, s->link->latency_us,
		 pl->fit.decode_tps, s->base_decode, pl->fit.prompt_tps, s->base_prompt);
	snprintf(pl->fit.warn, sizeof(pl->fit.warn),
		 "rpc-server has no authentication: it must listen on the private link only "
		 "(%s), never on a public address; start the rpc-servers on %s before llama-server; "
		 "-ts gives the local GPUs first, then the RPC servers: check the order with "
		 "llama-server --list-devices",
		 sw_fleet_host_address(hw, gb->host), hb);
	char *rpc = rpc_server_path(p->opts.server);
	struct sw_buf b = SW_BUF_INIT;
	for (size_t d = 0; d < gb->n; d++)
		sw_buf_addf(&b, "%sCUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=%d %s -H %s -p %u",
			    d ? "\n" : "", hw->gpus[gb->gpu[d]].index, rpc,
			    sw_fleet_host_address(hw, gb->host), (unsigned)(pl->rpc_port + d));
	free(rpc);
	pl->rpc_commands = sw_buf_detach(&b, NULL);
}

/* Without --allow-rpc the search runs too, only to say what it would
 * give. */
void sw__fleet_plan_rpc(struct sw_fleet_plan *p, const struct sw_fleet_calib *cal, uint16_t *port)
{
	const struct sw_fleet_hw *hw = p->hw;
	if (hw->nhosts < 2)
		return;
	for (size_t m = 0; m < p->nmodels; m++) {
		struct sw_fleet_placement *pl = &p->placed[m];
		if (pl->group >= 0 || pl->fit.fits)
			continue; /* placed, or it fits a group another model holds */
		struct span best = { .main = -1, .help = -1 };
		bool unlinked = false;
		for (size_t a = 0; a < hw->ngroups; a++) {
			if (!group_free(p, (int)a))
				continue;
			if (p->reqs[m].group && strcmp(hw->groups[a].name, p->reqs[m].group) != 0)
				continue;
			for (size_t b = 0; b < hw->ngroups; b++) {
				if (hw->groups[b].host == hw->groups[a].host || !group_free(p, (int)b))
					continue;
				const struct sw_fleet_link *l =
					sw_fleet_hw_link(hw, hw->groups[a].host, hw->groups[b].host);
				if (!l) {
					unlinked = true;
					continue;
				}
				try_span(&best, p, m, (int)a, (int)b, l, cal);
			}
		}
		if (best.main >= 0 && p->opts.allow_rpc) {
			place_span(p, m, &best, port);
		} else if (best.main >= 0) {
			size_t n = strlen(pl->reason);
			snprintf(pl->reason + n, sizeof(pl->reason) - n,
				 "; with --allow-rpc it could span %s on %s and %s on %s over llama.cpp's "
				 "RPC, at about %.1f tok/s",
				 hw->groups[best.main].name, hw->hosts[hw->groups[best.main].host].name,
				 hw->groups[best.help].name, hw->hosts[hw->groups[best.help].host].name,
				 best.fit.decode_tps);
		} else {
			size_t n = strlen(pl->reason);
			snprintf(pl->reason + n, sizeof(pl->reason) - n,
				 unlinked ? "; nor across two hosts over RPC: no [link \"A-B\"] in the "
					    "inventories gives the network between them"
					  : "; nor across two free groups of two hosts over RPC");
		}
	}
}
