/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A scenario: the machine it runs on (struct aw_config), the event stream,
 * the names people gave to processes and regions, and the expectations that
 * `agewalk run --check` verifies.  Every input format (.aws text, .awpb,
 * fuzz input, replayed trace.dat) produces one of these.
 */
#ifndef AW_SCENARIO_H
#define AW_SCENARIO_H

#include "contract.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"

#define AW_MAX_NODES		8
#define AW_MAX_CPUS		64
#define AW_MAX_MEMCGS		16
#define AW_MAX_NAME		32

enum aw_thp_mode {
	AW_THP_NEVER = 0,
	AW_THP_ALWAYS,
	AW_THP_MADVISE,
	AW_THP_NR_MODES
};

/*
 * How much of a new process's text/heap/library/stack layout is resident
 * (aw_setup_layout()): standard 8 + 16 + 32 + 8 pages, small 2 + 4 + 8 + 2
 * (the fuzz machine's, for speed).  The VMAs are the same.
 */
enum aw_layout {
	AW_LAYOUT_STANDARD = 0,
	AW_LAYOUT_SMALL,
	AW_LAYOUT_NR
};

/*
 * Which kernel's MGLRU rules the simulated kernel follows where 6.1, 6.12
 * and mainline differ (docs/model-notes.md, "Kernel profiles"; the rules
 * themselves are src/sim/profile.h).  Mainline is the default and zero, so
 * a zeroed config is a mainline one.  The values are wire values (.awpb,
 * the fuzz header, lockstep's kernel + 1) and keep their order; the
 * version order is aw_kernel_releases[].
 */
enum aw_kernel_profile {
	AW_KERNEL_MAINLINE = 0,
	AW_KERNEL_6_12,
	AW_KERNEL_6_1,
	AW_KERNEL_NR
};

struct aw_node_cfg {
	uint64_t mem_bytes;	/* memory of the node; its pfn range follows */
	uint64_t cpu_mask;	/* CPUs on the node (bit n = CPU n) */
};

struct aw_config {
	int nr_nodes;
	struct aw_node_cfg node[AW_MAX_NODES];
	int nr_memcgs;				/* memcg ids 0..nr_memcgs-1; 0 is the root */
	uint64_t memcg_limit[AW_MAX_MEMCGS];	/* bytes, 0 = unlimited */
	enum aw_thp_mode thp;
	unsigned int thp_modes;			/* bit per aw_thp_mode the scenario supports */
	uint64_t swap_bytes;			/* 0 = no swap: swappiness 0 */
	uint64_t mmap_base;			/* top-down mmap starts below this */
	int skip_empty;				/* emptymap re-scan period (later variants) */
	struct aw_empty_contract empty;		/* the RFC's open choices (contract.h) */
	enum aw_layout layout;			/* resident pages of a new process's layout */
	enum aw_kernel_profile kernel;		/* whose MGLRU rules (`kernel 6.12`) */
	uint8_t khugepaged_rev;			/* enum aw_kh_rev: the series' revision (`khugepaged_rev v8`) */
	bool khugepaged_prctl_enter;		/* prctl enabling THP registers the mm */
};

/* One comparison of an expectation: KEY OP VALUE. */
enum aw_cmp { AW_CMP_EQ, AW_CMP_NE, AW_CMP_LE, AW_CMP_GE, AW_CMP_LT, AW_CMP_GT };

#define AW_EXPECT_MAX_CONDS	8

struct aw_expect_cond {
	char key[AW_MAX_NAME];		/* metric name, e.g. "young", "pud_skipped" */
	enum aw_cmp op;
	double value;
	int col;			/* column of the key, for messages */
};

/*
 * `expect [thp=MODE] [pass=N|N..M|N..] [var=NAME] [node=N] [region=NAME] KEY OP VALUE ...`
 * Selectors left out match everything: no thp= means every mode, no pass=
 * means the totals, no var= means every variant that runs, no node= means
 * every node, no region= means the node's figures.
 */
struct aw_expect {
	int line;			/* source line */
	int thp;			/* enum aw_thp_mode, or -1 for any */
	int pass_lo, pass_hi;		/* 0,0 = totals; pass_hi = -1 open ended */
	char var[AW_MAX_NAME];		/* "" = any variant */
	int node;			/* -1 = every node */
	int region;			/* region id (1-based), 0 = none */
	int nr_conds;
	struct aw_expect_cond cond[AW_EXPECT_MAX_CONDS];
};

struct aw_scenario {
	char *path;			/* where it came from, for messages */
	struct aw_config cfg;

	/* names: index i holds the name of id i+1 */
	int nr_regions;
	char (*region_name)[AW_MAX_NAME];
	int nr_procs;
	char (*proc_name)[AW_MAX_NAME];

	size_t nr_events, cap_events;
	struct aw_event *events;
	uint32_t *event_line;		/* source line of each event (0 if none) */

	int nr_expects, cap_expects;
	struct aw_expect *expects;
};

void aw_config_default(struct aw_config *cfg);
void aw_scenario_init(struct aw_scenario *sc);
void aw_scenario_free(struct aw_scenario *sc);
/* Append one event; returns 0, or -1 when out of memory. */
int aw_scenario_push(struct aw_scenario *sc, const struct aw_event *ev, uint32_t line);

/*
 * .aws text scenarios (src/event/aws_*.c).  Parse errors are reported as
 * "FILE:LINE:COL: message" into err (one line) and return -1.  A path of
 * "-" reads standard input.
 */
int aw_aws_parse_file(const char *path, struct aw_scenario *sc, char *err, size_t errlen);
int aw_aws_parse_string(const char *name, const char *text, struct aw_scenario *sc,
			char *err, size_t errlen);
/* Render a scenario as .aws text that parses back to the same events. */
int aw_aws_write(FILE *out, const struct aw_scenario *sc);

const char *aw_thp_mode_name(enum aw_thp_mode mode);
int aw_thp_mode_parse(const char *s);	/* -1 if unknown */
extern const char *const aw_kernel_profile_names[AW_KERNEL_NR];	/* the parser's and writer's words */
const char *aw_kernel_profile_name(enum aw_kernel_profile profile);	/* "6.1", "6.12", "mainline" */
int aw_kernel_profile_parse(const char *s);	/* -1 if unknown */
/*
 * The releases in version order, oldest first: the numbered ones, then
 * mainline (the tip, with no number of its own).  Whoever lists the
 * releases (usage texts, --version, compare, the lab) reads this table.
 */
extern const enum aw_kernel_profile aw_kernel_releases[AW_KERNEL_NR];
/* A numbered release (6.1, 6.12): one a running kernel can be. */
bool aw_kernel_profile_numbered(enum aw_kernel_profile profile);
/* The numbered release a kernel release string is ("6.1.0-57-cloud-amd64", "6.12"); -1 if none */
int aw_kernel_release_profile(const char *release);
/*
 * The release names in version order (only the numbered ones if asked),
 * joined by sep, the last two by last ("6.1|6.12|mainline", "6.1 and 6.12").
 */
const char *aw_kernel_release_list(char *buf, size_t len, bool numbered_only, const char *sep,
				   const char *last);
/*
 * The same list as a constant, for the places that need one at compile
 * time (an option table's value name, the .aws parser's expected word);
 * unit.test_profile_rules checks it equals aw_kernel_release_list().
 */
#define AW_KERNEL_RELEASE_WORDS	"6.1|6.12|mainline"

#endif /* AW_SCENARIO_H */
