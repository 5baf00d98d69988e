// SPDX-License-Identifier: GPL-2.0-only
/*
 * --mem-stats (memstats.h).  glibc gives every thread that allocates its
 * own arena and malloc_info() reports each arena's peak ("system max"),
 * so with two threads (pipeline.h) the main arena holds what the reader
 * allocates -- libtracecmd's handles and chunk caches, the converter's
 * process table, the hold-back window -- and the consumer's arena what
 * the model allocates as it runs (folios, page tables, mms, VMAs).  The
 * machines themselves are created on the reader's thread, before the
 * first event, and are counted with the reader; they are small next to
 * what the run allocates.  Blocks above malloc's mmap threshold (the
 * queue, the hold-back window) belong to no arena and are reported apart.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "memstats.h"

static uint64_t status_kb(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	uint64_t kb = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			kb = strtoull(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/* The value of attribute size="N" on a line, 0 if none. */
static uint64_t size_attr(const char *line)
{
	const char *p = strstr(line, "size=\"");

	return p ? strtoull(p + 6, NULL, 10) : 0;
}

int aw_memstats_read(struct aw_memstats *m)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int heap = -1;

	memset(m, 0, sizeof(*m));
	m->peak_rss = status_kb("VmHWM") * 1024;
	if (!f)
		return -1;
	if (malloc_info(0, f)) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "<heap nr=\"", 10)) {
			heap = atoi(line + 10);
			m->nr_heaps++;
		} else if (!strcmp(line, "</heap>")) {
			heap = -1;
		} else if (heap >= 0 && strstr(line, "<system type=\"max\"")) {
			if (heap == 0)
				m->reader_heap = size_attr(line);
			else
				m->model_heap += size_attr(line);
		} else if (heap < 0 && strstr(line, "<total type=\"mmap\"")) {
			m->mmapped = size_attr(line);
		}
	}
	free(buf);
	return 0;
}

void aw_memstats_print(FILE *f, const struct aw_memstats *m, int threads, uint64_t reopens)
{
	const double mib = 1024.0 * 1024.0;

	if (threads < 2) {
		fprintf(f, "memory: peak RSS %.1f MiB; heap peak %.1f MiB (model and reader: one thread, "
			"one arena); mmapped blocks %.1f MiB; %llu reopens\n", m->peak_rss / mib,
			(m->reader_heap + m->model_heap) / mib, m->mmapped / mib, (unsigned long long)reopens);
		return;
	}
	fprintf(f, "memory: peak RSS %.1f MiB; model heap peak %.1f MiB; reader heap peak %.1f MiB "
		"(libtracecmd, process table, machines' fixed state); mmapped blocks %.1f MiB (queue, "
		"hold-back window); %llu reopens\n", m->peak_rss / mib, m->model_heap / mib,
		m->reader_heap / mib, m->mmapped / mib, (unsigned long long)reopens);
}
