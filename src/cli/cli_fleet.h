/* cli_fleet.h - what the CLI adds to a fleet of several hosts; the hosts
 * themselves, their exec and their gathered states are fleet/'s
 * (struct sw_fleet_office, office.c). */
#ifndef SW_CLI_FLEET_H
#define SW_CLI_FLEET_H

#include "fleet/fleet.h"

/* Host h's `sworn version --json` against this build: SW_EINPUT naming both
 * on a mismatch of version or commit, SW_EIO when it does not answer. */
int cli_fleet_check_version(struct sw_fleet_office *f, size_t h, struct sw_err *err) SW_MUST_USE;

#endif /* SW_CLI_FLEET_H */
