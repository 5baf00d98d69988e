// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrink_folio_list()'s reference check on each configured tree's text:
 * the tree's own folio_check_references() (mm/vmscan.c), with the
 * machine's folio_referenced() calling the tree's lru_gen_look_around(),
 * beside the model's rule on its pair's machine.  Each verdict and each
 * flag below is worked out from 6.1's and 6.12's folio_check_references()
 * (the same text in both): PG_referenced is tested and cleared first; a
 * young mapping sets it again and keeps the folio once, activates it if it
 * was referenced before or at once for an executable file mapping; a
 * folio found in a VM_LOCKED VMA is activated; with no young mapping a
 * file folio referenced before is FOLIOREF_RECLAIM_CLEAN, anything else
 * FOLIOREF_RECLAIM.
 *
 * The machine: one node, one memcg, one process with three one-page VMAs
 * (so that look-around has no window: lru_gen_look_around() clears the
 * target's young bit and returns), an anonymous one, an executable file
 * one, a locked one, a VM_SEQ_READ and a VM_RAND_READ one (where 6.1 and
 * 6.12 differ: folio_referenced() is mm/rmap.c's, the machine's, with the
 * release's rule); a second memcg, whose reclaim does not count the
 * process's mappings.  The check is called as shrink_folio_list() calls
 * it, on a folio off its LRU (PG_lru clear, as isolate_folio() leaves it).
 */
#include <stdio.h>
#include <string.h>

#include "aw_test.h"
#include "kbind.h"
#include "ktext_variants.h"

#define ANON	0x40000000UL
#define FILE_X	0x40200000UL
#define LOCKED	0x40400000UL
#define SEQREAD	0x40600000UL
#define RANDREAD	0x40800000UL

static const char machine[] =
	"swap 8G\nthp never\nmodes never\nmemcg 1\n"
	"proc P cpu 0 nolayout\n"			/* 0 */
	"mmap P A 4K at 0x40000000\n"			/* 1 */
	"write P A off 0 len 4K\n"			/* 2: anon folio, PTE young */
	"mmap P F 4K at 0x40200000 file prot rx\n"	/* 3 */
	"read P F off 0 len 4K\n"			/* 4: file folio, PTE young, VM_EXEC */
	"mmap P L 4K at 0x40400000 locked\n"		/* 5 */
	"write P L off 0 len 4K\n"			/* 6: a folio in a VM_LOCKED VMA */
	"read P A off 0 len 4K\n"			/* 7: anon young again */
	"read P A off 0 len 4K\n"			/* 8: ... and again */
	"mmap P S 4K at 0x40600000 seqread\n"		/* 9: MADV_SEQUENTIAL: VM_SEQ_READ */
	"write P S off 0 len 4K\n"			/* 10 */
	"mmap P R 4K at 0x40800000 randread\n"		/* 11: MADV_RANDOM: VM_RAND_READ */
	"write P R off 0 len 4K\n";			/* 12 */

struct pair {
	struct aw_scenario sc;
	struct aw_lockstep ls;
	const char *names[2];
	size_t next;
};

static bool pair_begin(struct pair *p, const struct aw_ktext_ops *ops)
{
	struct aw_variant buf;
	const struct aw_variant *v = aw_kbind_find(ops->name, &buf);
	struct aw_lockstep_opts lo = { .variants = p->names, .nr_variants = 2, .oracles = true };
	char err[256];

	memset(p, 0, sizeof(*p));
	aw_scenario_init(&p->sc);
	CHECK(v != NULL);
	if (!v || aw_aws_parse_string("references", machine, &p->sc, err, sizeof(err))) {
		CHECK(!"the scenario parses");
		return false;
	}
	p->names[0] = v->pair;
	p->names[1] = v->name;
	lo.kernel = v->kernel;
	aw_kbind_opts(&lo);
	CHECK_EQ(aw_lockstep_begin(&p->ls, &p->sc, &lo), 0);
	return p->ls.k[0] && p->ls.k[1];
}

static int pair_step_to(struct pair *p, size_t n)
{
	for (; p->next <= n && p->next < p->sc.nr_events; p->next++)
		aw_lockstep_step(&p->ls, &p->sc.events[p->next], p->sc.event_line[p->next]);
	return p->ls.nr_findings;
}

static pte_t *pte_at(struct aw_kernel *k, uint64_t addr)
{
	struct aw_task *t = aw_task_get(k, 1);
	struct mm_struct *mm = t && t->alive ? aw_mm(k, t->mm) : NULL;

	return mm ? aw_pte_lookup(k, mm, addr, false, NULL) : NULL;
}

/*
 * folio_check_references() on the folio mapped at addr, on both machines
 * (i 0: the model, 1: the tree's text), for cgroup reclaim of target_memcg:
 * the verdict, PG_referenced after it, and the PTE's young bit after it.
 */
static void check_memcg(struct pair *p, uint64_t addr, int target_memcg, enum folio_references want,
			bool referenced_after, bool young_after, const char *what)
{
	for (int i = 0; i < 2; i++) {
		struct aw_kernel *k = p->ls.k[i];
		pte_t *pte = pte_at(k, addr);
		struct folio *f = pte && pte_present(*pte) ? pfn_folio(&k->mem, pte_pfn(*pte)) : NULL;
		bool lru;
		enum folio_references ref;

		CHECK(f != NULL);
		if (!f)
			return;
		lru = folio_test(f, PG_lru);
		folio_clear(f, PG_lru);		/* isolated */
		ref = k->mglru->folio_check_references(k, f, NULL, target_memcg);
		if (lru)
			folio_set(f, PG_lru);
		if (ref != want || !!folio_test(f, PG_referenced) != referenced_after ||
		    !!pte_young(*pte) != young_after)
			printf("%s on %s: %s: verdict %d (want %d), PG_referenced %d (want %d), young %d\n",
			       p->names[i], p->names[1], what, ref, want, !!folio_test(f, PG_referenced),
			       referenced_after, !!pte_young(*pte));
		CHECK_EQ(ref, want);
		CHECK_EQ(!!folio_test(f, PG_referenced), referenced_after);
		CHECK_EQ(!!pte_young(*pte), young_after);
	}
}

#define check(p, addr, want, referenced_after, young_after, what) \
	check_memcg(p, addr, 0, want, referenced_after, young_after, what)

static void test_references(const struct aw_ktext_ops *ops)
{
	bool v61 = ops->version >> 8 == 0x0601;
	unsigned long ran[AW_KTEXT_NR_RAN];
	struct aw_ktext *kt;
	unsigned long calls, *checked;
	struct pair p;

	if (!pair_begin(&p, ops))
		return;
	CHECK_EQ(pair_step_to(&p, 6), 0);
	/* the write's fault left the PTE young; PG_referenced clear: one young mapping, kept once */
	check(&p, ANON, FOLIOREF_KEEP, true, false, "anon, young once");
	/* not young since; PG_referenced was set (and is cleared): an anon folio is not file LRU */
	check(&p, ANON, FOLIOREF_RECLAIM, false, false, "anon, not young, referenced before");
	/* a young executable file mapping: activated after its first use, PG_referenced set */
	check(&p, FILE_X, FOLIOREF_ACTIVATE, true, false, "file, VM_EXEC, young once");
	/* not young since, referenced before, file LRU: reclaim if clean */
	check(&p, FILE_X, FOLIOREF_RECLAIM_CLEAN, false, false, "file, not young, referenced before");
	check(&p, FILE_X, FOLIOREF_RECLAIM, false, false, "file, not young, not referenced");
	/*
	 * VM_LOCKED: activated (to the unevictable list); PG_referenced tested
	 * and cleared first; folio_referenced_one() stops at the VM_LOCKED VMA
	 * before the young test, so the write's young bit stays
	 */
	check(&p, LOCKED, FOLIOREF_ACTIVATE, false, true, "VM_LOCKED");
	CHECK_EQ(pair_step_to(&p, 7), 0);
	/*
	 * cgroup reclaim of memcg 1, which the process (memcg 0) is not in:
	 * invalid_folio_referenced_vma() skips its mapping, so nothing was
	 * young, the young bit stays, and the anon folio is FOLIOREF_RECLAIM
	 */
	check_memcg(&p, ANON, 1, FOLIOREF_RECLAIM, false, true, "anon, young, another memcg's reclaim");
	check(&p, ANON, FOLIOREF_KEEP, true, false, "anon, young, not referenced before");
	CHECK_EQ(pair_step_to(&p, 8), 0);
	/* young again with PG_referenced from the last check: referenced twice, activated */
	check(&p, ANON, FOLIOREF_ACTIVATE, true, false, "anon, young, referenced before");
	CHECK_EQ(pair_step_to(&p, 12), 0);
	if (v61) {
		/*
		 * 6.1's folio_referenced_one(): no look-around in a VMA
		 * without recency; the young bit is cleared, and counts
		 * unless VM_SEQ_READ
		 */
		check(&p, SEQREAD, FOLIOREF_RECLAIM, false, false, "VM_SEQ_READ, young (6.1)");
		check(&p, RANDREAD, FOLIOREF_KEEP, true, false, "VM_RAND_READ, young (6.1)");
	} else {
		/*
		 * 6.12's invalid_folio_referenced_vma(): !vma_has_recency(),
		 * the mapping is skipped: not young, the young bit stays
		 */
		check(&p, SEQREAD, FOLIOREF_RECLAIM, false, true, "VM_SEQ_READ, young (6.12)");
		check(&p, RANDREAD, FOLIOREF_RECLAIM, false, true, "VM_RAND_READ, young (6.12)");
	}
	/* the text counted each of its eleven checks */
	CHECK(aw_kbind_ops(p.ls.k[1], &kt, &calls, &checked) == ops);
	ops->ran(kt, ran);
	CHECK_EQ(ran[AW_KTEXT_RAN_REFERENCE_CHECKS], 11);
	aw_lockstep_end(&p.ls);
	aw_lockstep_free(&p.ls);
	aw_scenario_free(&p.sc);
}

int main(void)
{
	int n = 0;

	for (const struct aw_ktext_ops *const *v = aw_ktext_variants; *v; v++, n++) {
		if ((*v)->version >> 8 != 0x0601 && (*v)->version >> 8 != 0x060c)
			continue;	/* the rule above is 6.1's and 6.12's */
		test_references(*v);
	}
	if (!n) {
		printf("no kernel-text variants built (configure with -DAGEWALK_KERNEL_TREES)\n");
		return 77;
	}
	return aw_test_report("test_ktext_references");
}
