// SPDX-License-Identifier: GPL-2.0-only
/* Shared by the lockstep fuzz targets (common.h). */
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "common.h"
#include "grow.h"
#include "known.h"
#include "lf_defaults.h"
#include "mutator.h"
#include "output.h"
#include "state_features.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
				 uint8_t *out, size_t max_out, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

unsigned int aw_fuzz_bugs_from_env(void)
{
	const char *env = getenv("AGEWALK_BUG");
	char buf[256], *save = NULL, *tok;
	unsigned int bugs = 0;

	if (!env || !*env)
		return 0;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int b = aw_bug_parse(tok);

		if (b < 0) {
			fprintf(stderr, "AGEWALK_BUG: unknown planted bug '%s'\n", tok);
			abort();
		}
		bugs |= 1U << b;
	}
	return bugs;
}

/*
 * Every input builds and tears down two simulated machines: folio blocks,
 * page tables and Bloom filters, a few MiB in all.  With glibc's defaults
 * the frees hand that memory back to the kernel (brk trim, munmap of large
 * chunks) and the next input faults it in again, which cost more than the
 * simulation itself.  Keep it in the heap instead.  (Process-wide, but
 * this is a fuzzer's own process; the agewalk tool does not do this.)
 */
void aw_fuzz_keep_heap(void)
{
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
}

/*
 * corpus/known-findings as the target was built with it, and the known
 * signatures met so far with their hit counts, kept for the process:
 * libFuzzer's and AFL++'s entry points have no context to hang them off,
 * so they are the harness's one piece of process state.
 */
struct known_hit {
	char signature[1024];
	unsigned long hits;
};

static struct {
	struct aw_known list;
	bool parsed;
	struct known_hit *hit;
	int nr, cap;
} known;

static struct aw_known *known_findings(void)
{
	char err[256];

	if (!known.parsed) {
		if (aw_known_parse(&known.list, aw_known_findings_text, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			abort();
		}
		known.parsed = true;
	}
	return &known.list;
}

/*
 * AGEWALK_KNOWN_COUNTS=DIR: DIR/known-PID.tsv, "HITS<TAB>SIGNATURE" per
 * known signature this process met, rewritten whole (temporary file and
 * rename, so a reader never sees half of it) on every power-of-two hit and
 * at exit.  A campaign sums the files; a process killed between two
 * rewrites leaves its last, so the sum is a lower bound.
 */
static int write_counts(FILE *f, void *arg)
{
	(void)arg;
	for (int i = 0; i < known.nr; i++)
		fprintf(f, "%lu\t%s\n", known.hit[i].hits, known.hit[i].signature);
	return 0;
}

/* a failed rewrite keeps the last one: the campaign's sum stays a lower bound */
static void write_known_counts(void)
{
	const char *dir = getenv("AGEWALK_KNOWN_COUNTS");
	char path[4096], err[512];

	if (!dir || !*dir || !known.nr)
		return;
	snprintf(path, sizeof(path), "%s/known-%ld.tsv", dir, (long)getpid());
	if (aw_output_write(path, write_counts, NULL, err, sizeof(err)))
		fprintf(stderr, "agewalk fuzz: %s\n", err);
}

/* one more hit of a known signature: its count now, 0 out of memory */
static unsigned long count_known(const char *sig)
{
	struct known_hit *h = NULL;

	for (int i = 0; i < known.nr && !h; i++)
		if (!strcmp(known.hit[i].signature, sig))
			h = &known.hit[i];
	if (!h) {
		struct known_hit *a = aw_grow(known.hit, &known.cap, known.nr, sizeof(*a), 16);

		if (!a)
			return 0;
		if (!known.nr)
			atexit(write_known_counts);
		known.hit = a;
		h = &known.hit[known.nr++];
		snprintf(h->signature, sizeof(h->signature), "%s", sig);
		h->hits = 0;
	}
	return ++h->hits;
}

/*
 * A finding whose signature is known is counted, and reported on its 1st,
 * 2nd, 4th, 8th ... hit; any other finding (of AGEWALK_ORACLE's oracle,
 * when set) stops the fuzzer with all the input's findings.
 */
void aw_fuzz_check_findings(struct aw_lockstep *ls)
{
	const char *only = getenv("AGEWALK_ORACLE");
	bool stop = false;

	for (int i = 0; i < ls->nr_findings; i++) {
		const struct aw_lockstep_finding *f = &ls->findings[i];
		unsigned long hits;

		if (only && *only && strcmp(aw_oracle_name(f->oracle), only))
			continue;
		if (!aw_known_find(known_findings(), f->signature)) {
			stop = true;
			continue;
		}
		hits = count_known(f->signature);
		if (hits && !(hits & (hits - 1))) {
			fprintf(stderr, "known finding, hit %lu: %s\n", hits, f->signature);
			write_known_counts();
		}
	}
	if (stop) {
		aw_report_findings(stderr, ls);
		abort();
	}
}

void aw_fuzz_run(const uint8_t *data, size_t size, enum aw_fuzz_target target,
		 const char *const variants[2], const char *name)
{
	struct aw_lockstep_opts o = { .variants = variants, .nr_variants = 2 };

	aw_fuzz_run_opts(data, size, target, &o, name);
}

void aw_fuzz_run_opts(const uint8_t *data, size_t size, enum aw_fuzz_target target,
		      const struct aw_lockstep_opts *opts, const char *name)
{
	struct aw_scenario sc;
	struct aw_lockstep ls;
	struct aw_lockstep_opts o = *opts;

	o.bugs = aw_fuzz_bugs_from_env();
	o.oracles = true;
	o.findings_only = true;
	/* a broken model invariant is a crash the fuzzer keeps, like a finding */
	o.warn_abort = true;
	if (aw_fuzz_decode_target(data, size, &sc, target)) {
		aw_scenario_free(&sc);
		aw_fuzz_end_input();
		return;
	}
	o.thp = sc.cfg.thp;
	if (aw_lockstep_run(&ls, &sc, &o)) {
		/* the decoder only makes valid events: a rejected one is a decoder bug */
		fprintf(stderr, "%s: decoder produced a bad event: %s\n", name, ls.err);
		abort();
	}
	aw_fuzz_check_findings(&ls);
	aw_fuzz_state_features(&ls);
	aw_lockstep_free(&ls);
	aw_scenario_free(&sc);
	aw_fuzz_end_input();
}

/*
 * The mutation weights (AGEWALK_MUTATOR_WEIGHTS), read once by
 * LLVMFuzzerInitialize(): libFuzzer's hooks take no context pointer, so
 * this is the one value the mutator hook cannot be handed, and it is set
 * before the first input and never again.
 */
static struct aw_mut_weights aw_fuzz_weights;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
#ifdef AW_FUZZ_LIBFUZZER
	aw_lf_add_defaults(argc, argv);
#else
	(void)argc;
	(void)argv;
#endif
	aw_fuzz_keep_heap();
	aw_mut_weights_from_env(&aw_fuzz_weights);
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	/* one call in eight goes to libFuzzer's own (CMP-guided, dictionary) mutations */
	if (LLVMFuzzerMutate && seed % 8 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	return aw_mutate_weighted(&aw_fuzz_weights, data, size, max_size, seed);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
				 uint8_t *out, size_t max_out, unsigned int seed)
{
	return aw_crossover(d1, s1, d2, s2, out, max_out, seed);
}
