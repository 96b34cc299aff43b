/*
 * record.h - the evidence record of a matter (contract being written; see
 * record_int.h for the parsers).
 */
#ifndef SW_RECORD_H
#define SW_RECORD_H

#include "base/base.h"

#endif /* SW_RECORD_H */
