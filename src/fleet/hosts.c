/*
 * hosts.c - the machines of a fleet: each inventory names its host, several
 * inventories merge into one (groups never span two hosts: each comes from
 * one file), the links between hosts, and the inventory that
 * `sworn plan --detect --write-inventory` writes.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

int sw_fleet_hw_merge(struct sw_fleet_hw *into, struct sw_fleet_hw *from, struct sw_err *err)
{
	for (size_t i = 0; i < from->nhosts; i++)
		for (size_t j = 0; j < into->nhosts; j++)
			if (strcmp(from->hosts[i].name, into->hosts[j].name) == 0)
				return sw_err_set(err, SW_EINPUT,
						  "%s and %s both describe host '%s': give each [host] its own name",
						  into->hosts[j].source, from->hosts[i].source, from->hosts[i].name);
	if (into->ngpus + from->ngpus > SW_FLEET_MAX_GPUS)
		return sw_err_set(err, SW_ELIMIT, "more than %u GPUs in all", SW_FLEET_MAX_GPUS);
	if (into->ngroups + from->ngroups > SW_FLEET_MAX_GROUPS)
		return sw_err_set(err, SW_ELIMIT, "more than %u groups in all", SW_FLEET_MAX_GROUPS);
	if (into->nhosts + from->nhosts > SW_FLEET_MAX_HOSTS)
		return sw_err_set(err, SW_ELIMIT, "more than %u hosts", SW_FLEET_MAX_HOSTS);
	int gpu0 = (int)into->ngpus, group0 = (int)into->ngroups, host0 = (int)into->nhosts;

	into->gpus = sw_xrealloc(into->gpus, (into->ngpus + from->ngpus) * sizeof(*into->gpus));
	for (size_t i = 0; i < from->ngpus; i++) {
		struct sw_fleet_gpu *g = &into->gpus[into->ngpus++];
		*g = from->gpus[i];
		g->group = g->group >= 0 ? g->group + group0 : -1;
		g->host += host0;
	}
	into->groups = sw_xrealloc(into->groups,
				   (into->ngroups + from->ngroups) * sizeof(*into->groups));
	for (size_t i = 0; i < from->ngroups; i++) {
		struct sw_fleet_group *g = &into->groups[into->ngroups];
		*g = from->groups[i];
		for (size_t d = 0; d < g->n; d++)
			g->gpu[d] += gpu0;
		g->host += host0;
		if (sw_fleet_hw_find_group(into, g->name) >= 0) {
			char *q = sw_xasprintf("%s.%s", from->hosts[from->groups[i].host].name, g->name);
			free(g->name);
			g->name = q;
		}
		into->ngroups++;
	}
	into->hosts = sw_xrealloc(into->hosts, (into->nhosts + from->nhosts) * sizeof(*into->hosts));
	memcpy(into->hosts + into->nhosts, from->hosts, from->nhosts * sizeof(*from->hosts));
	into->nhosts += from->nhosts;
	if (from->nlinks) {
		into->links = sw_xrealloc(into->links,
					  (into->nlinks + from->nlinks) * sizeof(*into->links));
		memcpy(into->links + into->nlinks, from->links, from->nlinks * sizeof(*from->links));
		into->nlinks += from->nlinks;
	}
	char *src = sw_xasprintf("%s + %s", into->source, from->source);
	free(into->source);
	into->source = src;
	if (from->notes) {
		char *n = into->notes ? sw_xasprintf("%s; %s", into->notes, from->notes)
				      : sw_xstrdup(from->notes);
		free(into->notes);
		into->notes = n;
	}
	/* Everything moved: from keeps only what was copied out of it. */
	free(from->gpus);
	free(from->groups);
	free(from->hosts);
	free(from->links);
	free(from->source);
	free(from->notes);
	memset(from, 0, sizeof(*from));
	return 0;
}

int sw_fleet_hw_load_all(struct sw_fleet_hw *out, const char *const *paths, size_t n,
			 struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return sw_err_set(err, SW_EUSAGE, "no inventory file");
	int rc = sw_fleet_hw_load(out, paths[0], err);
	for (size_t i = 1; rc == 0 && i < n; i++) {
		struct sw_fleet_hw more;
		if ((rc = sw_fleet_hw_load(&more, paths[i], err)) != 0)
			break;
		rc = sw_fleet_hw_merge(out, &more, err);
		sw_fleet_hw_release(&more);
	}
	if (rc)
		sw_fleet_hw_release(out);
	return rc;
}

/* name is "A-B" with A and B the two hosts' names (either order); a name
 * may itself hold '-', so compare whole names rather than split. */
static bool link_names(const char *link, const char *a, const char *b)
{
	size_t la = strlen(a);
	return strncmp(link, a, la) == 0 && link[la] == '-' && strcmp(link + la + 1, b) == 0;
}

const struct sw_fleet_link *sw_fleet_hw_link(const struct sw_fleet_hw *hw, int a, int b)
{
	if (a < 0 || b < 0 || (size_t)a >= hw->nhosts || (size_t)b >= hw->nhosts)
		return NULL;
	const char *na = hw->hosts[a].name, *nb = hw->hosts[b].name;
	for (size_t i = 0; i < hw->nlinks; i++)
		if (link_names(hw->links[i].name, na, nb) || link_names(hw->links[i].name, nb, na))
			return &hw->links[i];
	return NULL;
}

const char *sw_fleet_host_address(const struct sw_fleet_hw *hw, int h)
{
	if (h < 0 || (size_t)h >= hw->nhosts || !hw->hosts[h].address)
		return "127.0.0.1";
	return hw->hosts[h].address;
}

void sw_fleet_hw_inventory_text(struct sw_buf *out, const struct sw_fleet_hw *hw)
{
	sw_buf_addf(out, "; written by sworn plan --detect --write-inventory from %s\n"
		    "; set address (how the other hosts reach this one) and, if not ssh, exec\n\n",
		    hw->source);
	sw_buf_addf(out, "[host]\nname = %s\n", hw->nhosts ? hw->hosts[0].name : "local");
	if (hw->nhosts && hw->hosts[0].address)
		sw_buf_addf(out, "address = %s\n", hw->hosts[0].address);
	for (size_t i = 0; i < hw->ngpus; i++) {
		const struct sw_fleet_gpu *g = &hw->gpus[i];
		if (g->host != 0)
			continue;
		sw_buf_addf(out, "\n[gpu \"%d\"]\nname = %s\nmemory_gib = %.2f\nbandwidth_gbs = %.0f\n"
			    "compute = %d.%d\n", g->index, g->name, (double)g->memory_mib / 1024.0,
			    g->bandwidth_gbs, g->cc_major, g->cc_minor);
		if (g->pci)
			sw_buf_addf(out, "pci = %s\n", g->pci);
	}
	for (size_t i = 0; i < hw->ngroups; i++) {
		const struct sw_fleet_group *g = &hw->groups[i];
		if (g->host != 0 || g->n < 2)
			continue; /* single GPUs become groups of their own again */
		sw_buf_addf(out, "\n[group \"%s\"]\ngpus = ", g->name);
		for (size_t d = 0; d < g->n; d++)
			sw_buf_addf(out, "%s%d", d ? "," : "", hw->gpus[g->gpu[d]].index);
		sw_buf_addf(out, "\nlink = %s\n", g->nvlink ? "nvlink" : "pcie");
	}
}
