/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What mm/workingset.c's MGLRU code (lru_gen_eviction(), lru_gen_refault(),
 * 6.12's lru_gen_test_recent(), pack_shadow()/unpack_shadow()) needs
 * around it: the shadow's field widths, the xarray value entry, memcg ids,
 * and the workingset counters, which go to the host (the model counts
 * WORKINGSET_REFAULT as workingset_refaults).
 */
#ifndef AW_KTEXT_WORKINGSET_H
#define AW_KTEXT_WORKINGSET_H

/*
 * include/linux/numa.h: CONFIG_NODES_SHIFT of Debian's x86-64 kernels (10);
 * only the shadow's layout reads it (MAX_NUMNODES is the machine's).
 */
#define NODES_SHIFT		10
/* include/linux/memcontrol.h */
#define MEM_CGROUP_ID_SHIFT	16
/* include/linux/xarray.h: a value entry is tagged with bit 0 */
#define BITS_PER_XA_VALUE	(BITS_PER_LONG - 1)
static inline void *xa_mk_value(unsigned long v) { return (void *)((v << 1) | 1); }
static inline unsigned long xa_to_value(const void *entry) { return (unsigned long)entry >> 1; }

/* include/linux/memcontrol.h: the shim's memcg ids are the host's memcg indexes */
static inline unsigned short mem_cgroup_id(struct mem_cgroup *memcg) { return memcg->id; }
static inline struct mem_cgroup *mem_cgroup_from_id(unsigned short id)
{
	struct aw_ktext *kt = aw_ktext_current();

	return id < kt->nr_memcgs ? kt->memcg[id] : NULL;
}
static inline struct lruvec *folio_lruvec(struct folio *folio)
{
	return mem_cgroup_lruvec(folio_memcg(folio), folio_pgdat(folio));
}

/* include/linux/mmzone.h: enum node_stat_item's workingset counters, as the host numbers them */
#define WORKINGSET_REFAULT_BASE		AW_KTEXT_WORKINGSET_REFAULT
#define WORKINGSET_ACTIVATE_BASE	AW_KTEXT_WORKINGSET_ACTIVATE
#define WORKINGSET_RESTORE_BASE		AW_KTEXT_WORKINGSET_RESTORE

/* mm/memcontrol.c: mod_lruvec_state(), the workingset counters to the host */
static inline void mod_lruvec_state(struct lruvec *lruvec, int idx, int val)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	if (h && h->lruvec_state)
		h->lruvec_state(h->ctx, lruvec->memcg->id, lruvec->pgdat->node_id, idx, val);
}

#endif /* AW_KTEXT_WORKINGSET_H */
