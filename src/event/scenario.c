/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The in-memory scenario every input format decodes into: configuration
 * defaults, the growable event array and the THP mode names.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

/*
 * The defaults describe the smallest machine on which a scenario means
 * something (one node, two CPUs so that "the CPU it last ran on" can differ
 * from CPU 0) and match what a .aws file gets without header lines, so that
 * a file written by aw_aws_write() for a default config parses back equal.
 * memset first: the struct is compared byte for byte in round-trip tests,
 * so the padding must be zero too.
 */
void aw_config_default(struct aw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nr_nodes = 1;
	cfg->node[0].mem_bytes = 16ull << 30;
	cfg->node[0].cpu_mask = 0x3;
	cfg->nr_memcgs = 1;
	cfg->thp = AW_THP_NEVER;
	cfg->thp_modes = 1u << AW_THP_NEVER;
	cfg->swap_bytes = 0;
	cfg->mmap_base = 0x7f0000000000ull;
	cfg->skip_empty = 4;
	cfg->empty = AW_EMPTY_CONTRACT_DEFAULT;
}

void aw_scenario_init(struct aw_scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	aw_config_default(&sc->cfg);
}

/*
 * Leaves the scenario initialised (not just freed) so that callers may free
 * unconditionally after a failed parse, and a second free is harmless.
 */
void aw_scenario_free(struct aw_scenario *sc)
{
	free(sc->path);
	free(sc->region_name);
	free(sc->proc_name);
	free(sc->events);
	free(sc->event_line);
	free(sc->expects);
	aw_scenario_init(sc);
}

static int aw_scenario_grow(struct aw_scenario *sc)
{
	size_t cap = sc->cap_events ? sc->cap_events * 2 : 256;
	struct aw_event *ev;
	uint32_t *line;

	if (cap > SIZE_MAX / sizeof(*ev))
		return -1;
	ev = realloc(sc->events, cap * sizeof(*ev));
	if (!ev)
		return -1;
	sc->events = ev;
	/* cap_events only moves once both arrays are big enough. */
	line = realloc(sc->event_line, cap * sizeof(*line));
	if (!line)
		return -1;
	sc->event_line = line;
	sc->cap_events = cap;
	return 0;
}

/*
 * memcpy rather than struct assignment: assignment may skip the padding
 * after `repeat`, and events are compared with memcmp.
 */
int aw_scenario_push(struct aw_scenario *sc, const struct aw_event *ev, uint32_t line)
{
	if (sc->nr_events == sc->cap_events && aw_scenario_grow(sc))
		return -1;
	memcpy(&sc->events[sc->nr_events], ev, sizeof(*ev));
	sc->event_line[sc->nr_events] = line;
	sc->nr_events++;
	return 0;
}

static const char *const aw_thp_mode_names[AW_THP_NR_MODES] = {
	[AW_THP_NEVER]		= "never",
	[AW_THP_ALWAYS]		= "always",
	[AW_THP_MADVISE]	= "madvise",
};

const char *aw_thp_mode_name(enum aw_thp_mode mode)
{
	if ((unsigned int)mode >= AW_THP_NR_MODES)
		return "unknown";
	return aw_thp_mode_names[mode];
}

const char *const aw_kernel_profile_names[AW_KERNEL_NR] = {
	[AW_KERNEL_MAINLINE]	= "mainline",
	[AW_KERNEL_6_12]	= "6.12",
	[AW_KERNEL_6_1]		= "6.1",
};

const char *aw_kernel_profile_name(enum aw_kernel_profile profile)
{
	if ((unsigned int)profile >= AW_KERNEL_NR)
		return "unknown";
	return aw_kernel_profile_names[profile];
}

const enum aw_kernel_profile aw_kernel_releases[AW_KERNEL_NR] = {
	AW_KERNEL_6_1,
	AW_KERNEL_6_12,
	AW_KERNEL_MAINLINE,
};

bool aw_kernel_profile_numbered(enum aw_kernel_profile profile)
{
	return (unsigned int)profile < AW_KERNEL_NR && profile != AW_KERNEL_MAINLINE;
}

int aw_kernel_release_profile(const char *release)
{
	for (int i = 0; release && i < AW_KERNEL_NR; i++) {
		const char *name = aw_kernel_profile_names[aw_kernel_releases[i]];
		size_t n = strlen(name);

		if (aw_kernel_profile_numbered(aw_kernel_releases[i]) && !strncmp(release, name, n) &&
		    (!release[n] || strchr(".-+", release[n])))
			return (int)aw_kernel_releases[i];
	}
	return -1;
}

const char *aw_kernel_release_list(char *buf, size_t len, bool numbered_only, const char *sep,
				   const char *last)
{
	int nr = 0, done = 0;
	size_t at = 0;

	for (int i = 0; i < AW_KERNEL_NR; i++)
		nr += !numbered_only || aw_kernel_profile_numbered(aw_kernel_releases[i]);
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < AW_KERNEL_NR && at < len; i++) {
		if (numbered_only && !aw_kernel_profile_numbered(aw_kernel_releases[i]))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", !done ? "" : done + 1 == nr ? last : sep,
				       aw_kernel_profile_names[aw_kernel_releases[i]]);
		done++;
	}
	return buf;
}

int aw_kernel_profile_parse(const char *s)
{
	if (!s)
		return -1;
	for (int i = 0; i < AW_KERNEL_NR; i++)
		if (!strcmp(s, aw_kernel_profile_names[i]))
			return i;
	return -1;
}

int aw_thp_mode_parse(const char *s)
{
	int i;

	if (!s)
		return -1;
	for (i = 0; i < AW_THP_NR_MODES; i++)
		if (!strcmp(s, aw_thp_mode_names[i]))
			return i;
	return -1;
}
