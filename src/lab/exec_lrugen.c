// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MGLRU debugfs files: the command lines lru_gen_seq_write() reads and
 * the text lru_gen_seq_show() / lru_gen_seq_show_full() print (6.1 and
 * 6.12 print the same layout; only the mm stats line differs).
 *
 * The text is classified by column, because the kernel prints fixed-width
 * fields: a generation line is " %10lu %10u ..." (its first number ends at
 * column 11), a tier line "            %10d ..." (ends at 22), the mm stats
 * line 22 blanks then " %10lu%c" (ends at 33).  Letters glued to numbers
 * say what a figure is: 'x' marks a generation below min_seq of that type;
 * the stats letters are upper case (LOYNFA in 6.1, TYFA in 6.12) on the
 * max_seq line when the kernel keeps one cumulative set per lruvec
 * (NR_HIST_GENS == 1, CONFIG_LRU_GEN_STATS off) and lower case on the
 * other generations' lines when it keeps one set per generation.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

/* 6.1 LOYNFA / 6.12 TYFA column i -> enum aw_lg_stat */
static const int stats61[6] = { AW_LG_LEAF_TOTAL, AW_LG_LEAF_OLD, AW_LG_LEAF_YOUNG,
				AW_LG_NONLEAF_TOTAL, AW_LG_NONLEAF_FOUND, AW_LG_NONLEAF_ADDED };
static const int stats612[4] = { AW_LG_LEAF_TOTAL, AW_LG_LEAF_YOUNG, AW_LG_NONLEAF_FOUND,
				 AW_LG_NONLEAF_ADDED };
/*
 * 6.12 with the project's port of the PUD series: patch 1 appends LWEE
 * (MM_LEAF_ASSOCIATED, MM_WALK_TOTAL, MM_WALK_EMPTY, MM_LEAF_EMPTY_WALKS),
 * patch 4 S (MM_PUD_EMPTY_SKIPPED): "TYFALWEE", then "TYFALWEES".
 */
static const int stats_series[9] = { AW_LG_LEAF_TOTAL, AW_LG_LEAF_YOUNG, AW_LG_NONLEAF_FOUND,
				     AW_LG_NONLEAF_ADDED, AW_LG_LEAF_ASSOCIATED, AW_LG_WALK_TOTAL,
				     AW_LG_WALK_EMPTY, AW_LG_LEAF_EMPTY_WALKS, AW_LG_PUD_SKIPPED };

struct lg_tok { uint64_t n; char mark; int end; };

/* Numbers of one line, each with the character glued after it (or ' '). */
static int tokens(const char *s, struct lg_tok *t, int max)
{
	int nr = 0;
	const char *p = s;

	while (*p && nr < max) {
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			return -1;
		t[nr].n = strtoull(p, &end, 10);
		t[nr].end = (int)(end - s);
		t[nr].mark = (*end && *end != ' ') ? *end++ : ' ';
		p = end;
		nr++;
	}
	return nr;
}

static void lruvec_init(struct aw_lg_lruvec *v, unsigned int id, const char *path, int node)
{
	memset(v, 0, sizeof(*v));
	v->memcg_id = id;
	snprintf(v->path, sizeof(v->path), "%s", path);
	v->node = node;
	v->min_seq[0] = v->min_seq[1] = UINT64_MAX;
	for (int i = 0; i < AW_LG_NR; i++)
		v->stats[i] = -1;
}

/* " %10lu %10u %10lu%c %10lu%c": seq, age, anon and file sizes, 'x' below min_seq. */
static void gen_line(struct aw_lg_lruvec *v, const struct lg_tok *t)
{
	v->max_seq = t[0].n;	/* the generations come in increasing order */
	if (v->nr_sizes < AW_LG_MAX_GENS) {
		v->size_seq[v->nr_sizes] = t[0].n;
		v->size[v->nr_sizes][0] = t[2].n;
		v->size[v->nr_sizes++][1] = t[3].n;
	}
	for (int type = 0; type < 2; type++)
		if (t[2 + type].mark != 'x' && v->min_seq[type] == UINT64_MAX)
			v->min_seq[type] = t[0].n;
}

static void stats_line(struct aw_lg_lruvec *v, const struct lg_tok *t, int nr)
{
	const int *map = nr == 6 ? stats61 : nr == 4 ? stats612 : stats_series;
	char c = t[0].mark;

	v->nr_stats = nr;
	if (isupper((unsigned char)c)) {
		v->cumulative = true;
		for (int i = 0; i < nr; i++)
			v->stats[map[i]] = (int64_t)t[i].n;
	} else if (islower((unsigned char)c) && c != 'x' && v->nr_gens < AW_LG_MAX_GENS) {
		int g = v->nr_gens++;

		v->gen_seq[g] = v->max_seq;
		for (int i = 0; i < AW_LG_NR; i++)
			v->gen_stats[g][i] = -1;
		for (int i = 0; i < nr; i++)
			v->gen_stats[g][map[i]] = (int64_t)t[i].n;
	}
}

static int parse_line(const char *line, struct aw_lg_snapshot *snap, unsigned int *id,
		      char *path, size_t pathlen)
{
	struct lg_tok t[AW_LG_MAX_STATS + 1];
	struct aw_lg_lruvec *v = snap->nr ? &snap->v[snap->nr - 1] : NULL;
	int nr;

	if (!strncmp(line, "memcg ", 6)) {
		char *end;

		*id = (unsigned int)strtoul(line + 6, &end, 10);
		while (*end == ' ')
			end++;
		snprintf(path, pathlen, "%s", end);
		return 0;
	}
	if (!strncmp(line, " node ", 6)) {
		if (snap->nr == AW_LG_MAX_LRUVECS)
			return -1;
		lruvec_init(&snap->v[snap->nr++], *id, path, atoi(line + 6));
		return 0;
	}
	nr = tokens(line, t, AW_LG_MAX_STATS + 1);
	if (nr <= 0)
		return nr;
	if (!v)
		return -1;
	if (nr == 4 && t[0].end == 11)
		gen_line(v, t);
	else if ((nr == 4 || nr == 6 || nr == 8 || nr == 9) && t[0].end == 33)
		stats_line(v, t, nr);
	else if (nr == 7 && t[0].end == 22)
		;	/* tier line: refaults, not needed */
	else
		return -1;
	return 0;
}

int aw_lg_parse(const char *text, struct aw_lg_snapshot *snap, char *err, size_t errlen)
{
	unsigned int id = 0;
	char path[256] = "";
	int lineno = 0;

	snap->nr = 0;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		char line[512];

		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), text);
		if (parse_line(line, snap, &id, path, sizeof(path))) {
			snprintf(err, errlen, "lru_gen line %d: unexpected text '%.40s'", lineno, line);
			return -1;
		}
		text += n + (nl ? 1 : 0);
	}
	return 0;
}

const struct aw_lg_lruvec *aw_lg_find(const struct aw_lg_snapshot *snap, unsigned int memcg_id, int node)
{
	for (int i = 0; i < snap->nr; i++)
		if (snap->v[i].memcg_id == memcg_id && snap->v[i].node == node)
			return &snap->v[i];
	return NULL;
}

int aw_lg_find_memcg(const struct aw_lg_snapshot *snap, const char *path)
{
	for (int i = 0; i < snap->nr; i++)
		if (!strcmp(snap->v[i].path, path))
			return (int)snap->v[i].memcg_id;
	return -1;
}

static const int64_t *gen_stats_of(const struct aw_lg_lruvec *v, uint64_t seq)
{
	for (int g = 0; g < v->nr_gens; g++)
		if (v->gen_seq[g] == seq)
			return v->gen_stats[g];
	return NULL;
}

/*
 * The walk figures of one aging pass.  Cumulative counters (NR_HIST_GENS
 * == 1): reset_mm_stats() adds each walk's mm_stats to stats[0], which
 * nothing ever clears, so the pass's figures are after - before.  Per
 * generation counters: the walk for max_seq S adds to stats[hist(S)],
 * cleared when the previous walk finished, so the figures are the line of
 * generation S in the read after the pass.  Anything else: no figure.
 */
void aw_lg_walk_delta(const struct aw_lg_lruvec *before, const struct aw_lg_lruvec *after,
		      int64_t out[AW_LG_NR])
{
	const int64_t *g;

	for (int i = 0; i < AW_LG_NR; i++)
		out[i] = -1;
	if (before->cumulative && after->cumulative) {
		for (int i = 0; i < AW_LG_NR; i++)
			if (before->stats[i] >= 0 && after->stats[i] >= before->stats[i])
				out[i] = after->stats[i] - before->stats[i];
		return;
	}
	if (after->max_seq == before->max_seq + 1 && (g = gen_stats_of(after, before->max_seq)))
		memcpy(out, g, sizeof(int64_t) * AW_LG_NR);
}

/*
 * Aging: run_aging(lruvec, seq, ..., can_swap/swappiness, force_scan).
 * Every field is written: with fewer, lru_gen_seq_write()'s sscanf leaves
 * swappiness at -1 and opt (force_scan) at -1, i.e. forced.  6.1's fourth
 * field is can_swap (a bool, after run_cmd() checked it as a swappiness);
 * 6.12's is the swappiness.  The own-swappiness value 4294967295 is the %u
 * the kernel reads as -1 and replaces by get_swappiness() in both.
 */
int aw_lg_age_cmd(char *buf, size_t len, enum aw_kver kv, unsigned int memcg_id, int node,
		  uint64_t max_seq, unsigned int swappiness, bool force)
{
	unsigned int sw = swappiness;

	if (kv == AW_KV_6_1 && swappiness != AW_LG_OWN_SWAPPINESS && swappiness <= 200)
		sw = swappiness != 0;
	return snprintf(buf, len, "+ %u %d %llu %u %d\n", memcg_id, node, (unsigned long long)max_seq,
			sw, force ? 1 : 0);
}

/*
 * Eviction: run_eviction(lruvec, seq, sc, swappiness, nr_to_reclaim)
 * evicts until min_seq[!swappiness] passes seq or nr_to_reclaim pages are
 * reclaimed, the same in 6.1 and 6.12.
 */
int aw_lg_evict_cmd(char *buf, size_t len, unsigned int memcg_id, int node, uint64_t seq,
		    unsigned int swappiness, uint64_t nr)
{
	return snprintf(buf, len, "- %u %d %llu %u %llu\n", memcg_id, node, (unsigned long long)seq,
			swappiness, (unsigned long long)nr);
}
