/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_<name>(), register_trace_<name>(), unregister_trace_<name>() and
 * trace_<name>_enabled() for every event of trace_events.h (see
 * tracepoint.h).  Needs struct aw_kernel; kernel.h includes it last.
 */
#ifndef AW_TRACE_H
#define AW_TRACE_H

#include "tracepoint.h"

#define AW_TP_FIRST_(k, ...) (k)
#define AW_TP_KERNEL(...) AW_TP_FIRST_(__VA_ARGS__, 0)

#define AW_TRACE_EVENT(name, proto, args)						\
typedef void (*aw_probe_##name##_t)(void *__data, proto);				\
static inline bool trace_##name##_enabled(const struct aw_kernel *__k)		\
{											\
	return __k->tracepoints.tp[AW_TP_##name].nr != 0;				\
}											\
static inline void trace_##name(proto)							\
{											\
	const struct aw_tracepoint *__tp = &AW_TP_KERNEL(args)->tracepoints.tp[AW_TP_##name]; \
											\
	for (int __i = 0; __i < __tp->nr; __i++)					\
		((aw_probe_##name##_t)__tp->funcs[__i].func)(__tp->funcs[__i].data, args); \
}											\
static inline int register_trace_##name(struct aw_kernel *__k, aw_probe_##name##_t __f, void *__d) \
{											\
	return aw_tracepoint_probe_register(&__k->tracepoints.tp[AW_TP_##name],		\
					    (aw_probe_fn)__f, __d);			\
}											\
static inline int unregister_trace_##name(struct aw_kernel *__k, aw_probe_##name##_t __f, void *__d) \
{											\
	return aw_tracepoint_probe_unregister(&__k->tracepoints.tp[AW_TP_##name],	\
					      (aw_probe_fn)__f, __d);			\
}
#include "trace_events.h"
#undef AW_TRACE_EVENT

#endif /* AW_TRACE_H */
