/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the reclaim loop of mm/vmscan.c (lru_gen_shrink_lruvec(),
 * try_to_shrink_lruvec(), get_nr_to_scan(), should_abort_scan(),
 * get_swappiness()) reads outside MGLRU, as the model's machine has it
 * (included by ktext_objects.h; the glue is ktext_reclaim.inc.c):
 *
 *   zones		one per node and no watermarks the text can read: the
 *			watermark tests of should_abort_scan() are kswapd's and
 *			global reclaim's, never memcg reclaim's, so they are
 *			compiled and never reached (a hit is a warning)
 *   memcg protection	none: the model has no memory.min/low (below_min and
 *			below_low are false), and no memcg is ever offlined
 *   plugging, drains	no block layer, no per-CPU LRU batches (the model adds
 *			folios to their lists at once, docs/model-notes.md)
 *   the memcg LRU	6.12's per-node LRU of memcgs orders root reclaim
 *			(shrink_many()), which the model has not: the text's
 *			lru_gen_rotate_memcg() records what it was asked to do,
 *			for the agreement oracle (ktext_reclaim.inc.c)
 */
#ifndef AW_KTEXT_RECLAIM_H
#define AW_KTEXT_RECLAIM_H

/* include/linux/mmzone.h */
enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, WMARK_PROMO, NR_WMARK };
enum aw_zone_stat { NR_FREE_PAGES };
struct zone {
	unsigned long _watermark[NR_WMARK];
	unsigned long watermark_boost;
};
/* memcg reclaim never reads a watermark: a hit is a warning */
#define aw_zone_unreached()		((void)WARN_ON_ONCE(1), 0UL)
#define wmark_pages(z, i)		((void)(z), (void)(i), aw_zone_unreached())
#define low_wmark_pages(z)		((void)(z), aw_zone_unreached())
#define high_wmark_pages(z)		((void)(z), aw_zone_unreached())
#define managed_zone(z)			((void)(z), aw_zone_unreached() != 0)
#define zone_page_state(z, item)	((void)(z), (void)(item), aw_zone_unreached())
#define zone_watermark_ok(z, order, mark, idx, flags)	((void)(z), aw_zone_unreached() != 0)
/* include/linux/sched/sysctl.h */
#define sysctl_numa_balancing_mode	0
#define NUMA_BALANCING_MEMORY_TIERING	0x2
/* mm/internal.h */
#define compact_gap(order)		(2UL << (order))

/* include/linux/memcontrol.h: no protection, no offlined memcg (6.12 passes the target too) */
#define mem_cgroup_below_min(...)	false
#define mem_cgroup_below_low(...)	false
#define mem_cgroup_online(memcg)	((void)(memcg), true)
#define mem_cgroup_swappiness(memcg)	((void)(memcg), aw_ktext_current()->aw_swappiness)
/* mm/vmscan.c (6.12): sc_swappiness(): the proactive swappiness= of memory.reclaim, else the memcg's */
#define sc_swappiness(sc, memcg)	((void)(sc), mem_cgroup_swappiness(memcg))
/* mm/vmscan.c: demotion needs memory tiers, which the model has not */
#define can_demote(nid, sc)		((void)(nid), (void)(sc), false)
/* mm/vmscan.c: root_reclaim(): the model's reclaim is memcg reclaim or debugfs (a NULL target) */
#define root_reclaim(sc)		(!(sc)->target_mem_cgroup)
#define writeback_throttling_sane(sc)	((void)(sc), true)

/* mm/swap.c, block/blk-core.c, mm/page-writeback.c: nothing to drain, plug or throttle */
struct blk_plug { int unused; };
#define lru_add_drain()			do { } while (0)
#define blk_start_plug(plug)		((void)(plug))
#define blk_finish_plug(plug)		((void)(plug))
#define wakeup_flusher_threads(reason)	do { } while (0)
#define reclaim_throttle(pgdat, reason)	((void)(pgdat))
#define fatal_signal_pending(task)	((void)(task), false)

/* ktext_reclaim.inc.c: 6.12's memcg LRU, recorded (see above) */
static void lru_gen_rotate_memcg(struct lruvec *lruvec, int op);

#endif /* AW_KTEXT_RECLAIM_H */
