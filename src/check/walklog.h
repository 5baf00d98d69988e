/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walk log (--walk-log FILE): one line per mm an aging pass looked at,
 * written by an observer of lru_gen_get_next_mm and mm_vmscan_lru_gen_walk.
 *
 *   walk variant=V pass=P node=N memcg=M seq=S mm=ID mm_addr=0xKADDR skipped why=bitmap|exiting|empty|small|trylock|seq
 *   walk variant=V pass=P ... walked|forced T=.. Y=.. A=.. P=.. S=..
 *
 * Every variant of a run logs, each line naming its own, so that base's
 * walk and a patched variant's of the same pass sit side by side: the
 * lines come in the order one thread runs the variants (per event, base
 * first), which is why a walk log keeps a replay's variants on one thread
 * (aw_lockstep_can_split()).  Only walks that belong to a counted aging
 * pass are logged.
 */
#ifndef AW_WALKLOG_H
#define AW_WALKLOG_H

#include <stdio.h>

struct aw_kernel;

/* 0, or -1 (out of memory, or probes full); the log lets go with the kernel */
int aw_walk_log_attach(struct aw_kernel *k, FILE *out, const char *variant);
void aw_walk_log_detach(struct aw_kernel *k);

#endif /* AW_WALKLOG_H */
