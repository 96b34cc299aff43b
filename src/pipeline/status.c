/* status.c - names of a run's states. */
#include "pipeline/pipeline.h"

const char *sw_run_status_name(enum sw_run_status s)
{
	switch (s) {
	case SW_RUN_RUNNING: return "running";
	case SW_RUN_PAUSED: return "paused";
	case SW_RUN_CANCELLED: return "cancelled";
	case SW_RUN_VERIFIED: return "verified";
	case SW_RUN_BLOCKED: return "blocked";
	case SW_RUN_APPROVED: return "approved";
	}
	return "unknown";
}
