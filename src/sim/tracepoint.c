// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe registration (kernel/tracepoint.c: tracepoint_probe_register and
 * tracepoint_probe_unregister, without RCU: the model is single-threaded,
 * and probes are never added while their tracepoint fires).
 */
#include <errno.h>

#include "tracepoint.h"

int aw_tracepoint_probe_register(struct aw_tracepoint *tp, aw_probe_fn func, void *data)
{
	for (int i = 0; i < tp->nr; i++)
		if (tp->funcs[i].func == func && tp->funcs[i].data == data)
			return -EEXIST;
	if (tp->nr == AW_TRACEPOINT_MAX_PROBES)
		return -ENOSPC;
	tp->funcs[tp->nr++] = (struct aw_tracepoint_func){ .func = func, .data = data };
	return 0;
}

int aw_tracepoint_probe_unregister(struct aw_tracepoint *tp, aw_probe_fn func, void *data)
{
	for (int i = 0; i < tp->nr; i++) {
		if (tp->funcs[i].func != func || tp->funcs[i].data != data)
			continue;
		for (int j = i + 1; j < tp->nr; j++)
			tp->funcs[j - 1] = tp->funcs[j];
		tp->nr--;
		return 0;
	}
	return -ENOENT;
}
