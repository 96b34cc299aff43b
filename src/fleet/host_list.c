/*
 * host_list.c - the lists of hosts and links an inventory fills: adding to
 * them and freeing them.  A leaf: hw.c (reading one inventory) and hosts.c
 * (merging several) both call it.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

int sw__fleet_host_add(struct sw_fleet_hw *hw, const char *name, const char *address,
		       const char *exec, const char *source, struct sw_err *err)
{
	if (hw->nhosts >= SW_FLEET_MAX_HOSTS)
		return sw_err_set(err, SW_ELIMIT, "more than %u hosts", SW_FLEET_MAX_HOSTS);
	hw->hosts = sw_xrealloc(hw->hosts, (hw->nhosts + 1) * sizeof(*hw->hosts));
	struct sw_fleet_host *h = &hw->hosts[hw->nhosts++];
	h->name = sw_xstrdup(name);
	h->address = address ? sw_xstrdup(address) : NULL;
	h->exec = exec ? sw_xstrdup(exec) : NULL;
	h->source = sw_xstrdup(source);
	return 0;
}

int sw__fleet_link_add(struct sw_fleet_hw *hw, const char *name, double bandwidth_gbs,
		       double latency_us, struct sw_err *err)
{
	if (hw->nlinks >= 2 * SW_FLEET_MAX_HOSTS * SW_FLEET_MAX_HOSTS)
		return sw_err_set(err, SW_ELIMIT, "too many links");
	hw->links = sw_xrealloc(hw->links, (hw->nlinks + 1) * sizeof(*hw->links));
	struct sw_fleet_link *l = &hw->links[hw->nlinks++];
	l->name = sw_xstrdup(name);
	l->bandwidth_gbs = bandwidth_gbs;
	l->latency_us = latency_us;
	return 0;
}

void sw__fleet_hosts_release(struct sw_fleet_hw *hw)
{
	for (size_t i = 0; i < hw->nhosts; i++) {
		free(hw->hosts[i].name);
		free(hw->hosts[i].address);
		free(hw->hosts[i].exec);
		free(hw->hosts[i].source);
	}
	for (size_t i = 0; i < hw->nlinks; i++)
		free(hw->links[i].name);
	free(hw->hosts);
	free(hw->links);
	hw->hosts = NULL;
	hw->links = NULL;
	hw->nhosts = hw->nlinks = 0;
}
