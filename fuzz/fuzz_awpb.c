// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the .awpb decoder.  Any byte string must either decode to a
 * scenario whose events all passed validation, or be rejected with a
 * message; never crash, leak, or allocate from an unchecked length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "awpb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aw_scenario sc;
	struct aw_awpb_reader r;
	struct aw_event ev;
	uint32_t line;
	char err[256];
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	aw_scenario_init(&sc);
	if (!aw_awpb_open(&r, f, "fuzz", &sc, err, sizeof(err))) {
		/* bounded: the target must stay fast on any input */
		for (int n = 0; n < 100000 && aw_awpb_next(&r, &ev, &line, err, sizeof(err)) > 0; n++) {
			if (ev.kind == AW_EV_NONE || ev.kind >= AW_EV_NR || ev.addr >= (1ULL << 47))
				abort();	/* validation let a bad event through */
		}
	}
	aw_awpb_close(&r);
	fclose(f);
	aw_scenario_free(&sc);
	return 0;
}
