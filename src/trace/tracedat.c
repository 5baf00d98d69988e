// SPDX-License-Identifier: GPL-2.0-only
/*
 * One trace ingestion: the inputs opened (source.c), the machine set up
 * from the side files and options (topology, swap, THP, khugepaged knobs,
 * the --start/--end window), the records read and converted (reader.c and
 * the event table, tev.h), and the end of the stream (the open recorded
 * passes closed, a final synthesized pass).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader.h"

void aw_trace_opts_default(struct aw_trace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->age_every_ns = 500000000ULL;
	o->swap_bytes = UINT64_MAX;
	o->access = AW_ACCESS_FAULTS_ONLY;
	o->window_ns = 2000000000ULL;
	o->thp = -1;
	o->kh_gap_ns = 1000000000ULL;
	o->kh_pid = -1;
	o->start_pct = o->end_pct = -1;
}

void aw_trace_stats_free(struct aw_trace_stats *st)
{
	free(st->kh.wakeup_progress);
	st->kh.wakeup_progress = NULL;
	st->kh.nr_wakeup_log = 0;
	free(st->recorded);
	st->recorded = NULL;
	st->nr_recorded = st->cap_recorded = 0;
}

const char *aw_access_policy_name(enum aw_access_policy p)
{
	static const char *const names[] = { "faults-only", "recent-faults", "all-resident" };

	return (unsigned int)p < 3 ? names[p] : "unknown";
}

/*
 * --start/--end as trace time from the first event.  A share of the
 * duration needs the duration: one pass over the records first, on a
 * source of its own.
 */
static int resolve_window(struct aw_reader *r, char *err, size_t errlen)
{
	const struct aw_trace_opts *o = r->in.o;
	struct aw_trace_stats *st = r->in.st;
	uint64_t first = 0, last = 0, ts, dur;
	bool seen = false;

	st->window_start_ns = o->start_ns;
	st->window_end_ns = o->end_ns;
	if (o->start_pct >= 0 || o->end_pct >= 0) {
		struct aw_tsource *span = calloc(1, sizeof(*span));
		struct tep_record *rec;
		struct aw_tbuf *buf;
		int got;

		if (!span || aw_tsource_open(span, o->paths, o->nr_paths, o->merge, o->guard, err, errlen)) {
			if (!span)
				snprintf(err, errlen, "%s: out of memory", o->path);
			free(span);
			return -1;
		}
		while ((got = aw_tsource_next(span, &rec, &buf, &ts, err, errlen)) > 0) {
			first = seen ? first : ts;
			last = ts > last ? ts : last;
			seen = true;
			aw_tsource_put(span, rec);
		}
		aw_tsource_close(span);
		free(span);
		if (got < 0)
			return -1;
		dur = last - first;
		if (o->start_pct >= 0)
			st->window_start_ns = (uint64_t)(dur * (o->start_pct / 100.0));
		/* the last record itself is inside a 100% window */
		if (o->end_pct >= 0)
			st->window_end_ns = o->end_pct >= 100 ? dur + 1 : (uint64_t)(dur * (o->end_pct / 100.0));
	}
	if (st->window_end_ns && st->window_end_ns <= st->window_start_ns) {
		snprintf(err, errlen, "%s: the window is empty: --end (%.6f s) is not after --start (%.6f s)",
			 o->path, st->window_end_ns / 1e9, st->window_start_ns / 1e9);
		return -1;
	}
	return 0;
}

static char *side_path(const char *trace, const char *suffix)
{
	size_t n = strlen(trace);
	char *p = malloc(n + strlen(suffix) + 1);

	if (!p)
		return NULL;
	memcpy(p, trace, n + 1);
	if (n > 4 && !strcmp(p + n - 4, ".dat"))
		p[n - 4] = 0;
	strcat(p, suffix);
	return p;
}

static int setup_topology(struct aw_reader *r, char *err, size_t errlen)
{
	struct aw_ingest *in = &r->in;
	const struct aw_trace_opts *o = in->o;
	struct aw_config *cfg = &in->sc->cfg;
	char *path = o->topology ? strdup(o->topology) : side_path(o->path, ".topology");
	int ret = 1;

	if (path && !o->nr_nodes)
		ret = aw_side_topology(in, path, err, errlen);
	if (ret < 0) {
		free(path);
		return -1;
	}
	if (ret == 0) {
		in->st->had_topology = true;
		snprintf(in->st->topology_source, sizeof(in->st->topology_source), "%s",
			 o->topology ? "--topology" : "side file");
	} else {
		/* --nodes N, or one node: CPUs spread evenly */
		int n = o->nr_nodes ? o->nr_nodes : 1;
		struct tep_handle *tep = r->src.files[0].bufs[0].tep;
		int cpus = tep && tep_get_cpus(tep) > 0 ? tep_get_cpus(tep) : 1;

		cfg->nr_nodes = n;
		for (int i = 0; i < n; i++) {
			cfg->node[i].mem_bytes = 16ULL << 30;
			cfg->node[i].cpu_mask = 0;
		}
		for (int c = 0; c < cpus && c < AW_MAX_CPUS; c++)
			cfg->node[c * n / cpus].cpu_mask |= 1ULL << c;
		snprintf(in->st->topology_source, sizeof(in->st->topology_source), "%s",
			 o->nr_nodes ? "--nodes" : "assumed: one node");
	}
	free(path);
	for (int c = 0; c < AW_MAX_CPUS; c++)
		for (int n = 0; n < cfg->nr_nodes; n++)
			if (cfg->node[n].cpu_mask >> c & 1)
				in->cpu_node[c] = n;
	/*
	 * Without swap the walk skips every anonymous VMA (swappiness 0), so a
	 * recording from a swapless machine would show only file pages; the
	 * default assumes 8 GiB and the report says so (--swap 0 for the
	 * machine's own behaviour).
	 */
	if (o->swap_bytes != UINT64_MAX) {
		cfg->swap_bytes = o->swap_bytes;
		snprintf(in->st->swap_source, sizeof(in->st->swap_source), "--swap");
	} else if (!in->st->had_topology || !cfg->swap_bytes) {
		cfg->swap_bytes = 8ULL << 30;
		snprintf(in->st->swap_source, sizeof(in->st->swap_source), "assumed%s",
			 in->st->had_topology ? "; the recording machine had none" : "");
	} else {
		snprintf(in->st->swap_source, sizeof(in->st->swap_source), "side file");
	}
	return 0;
}

/* The side files beside the first input: saved_tgids, damon_targets, procs/ (sidefiles.c). */
static void setup_side_files(struct aw_ingest *in)
{
	const char *path = in->o->path;
	char *tg, *snap;
	struct stat sb;

	tg = side_path(path, ".saved_tgids");
	if (tg)
		aw_side_tgids(in, tg);
	free(tg);
	tg = side_path(path, ".damon_targets");
	if (tg)
		aw_side_damon_targets(in, tg);
	free(tg);
	snap = side_path(path, ".procs");
	if (snap && !stat(snap, &sb) && S_ISDIR(sb.st_mode))
		in->snap_dir = snap;
	else
		free(snap);
}

int aw_trace_ingest(const struct aw_trace_opts *o, struct aw_scenario *sc, struct aw_trace_stats *st,
		    const struct aw_trace_sink *sink, int (*ready)(void *ctx, const struct aw_scenario *sc),
		    char *err, size_t errlen)
{
	struct aw_reader *r = calloc(1, sizeof(*r));
	int ret = -1;

	if (!r) {
		snprintf(err, errlen, "%s: out of memory", o->path);
		return -1;
	}
	memset(st, 0, sizeof(*st));
	r->in.o = o;
	r->in.sc = sc;
	r->in.st = st;
	aw_ing_emit_init(&r->in, sink);
	r->in.recorded_thp = -1;
	for (int k = 0; k < AW_KH_KNOB_NR; k++)
		r->in.kh_knob[k] = -1;
	st->kh.pid = o->kh_pid;
	r->err = err;
	r->errlen = errlen;
	if (aw_tsource_open(&r->src, o->paths, o->nr_paths, o->merge, o->guard, err, errlen))
		goto out;
	r->src.reopen_every = o->reopen_every;
	r->in.comm_of = aw_reader_comm;
	r->in.comm_ctx = r;
	/* every buffer's format now: what the files know decides the stream's header */
	for (int i = 0; i < r->src.nr_files; i++)
		for (int b = 0; b < r->src.files[i].nr_bufs; b++)
			if (aw_reader_resolve_buf(r, &r->src.files[i].bufs[b])) {
				snprintf(err, errlen, "%s: out of memory", o->path);
				goto out;
			}
	r->res = r->src.files[0].bufs[0].user;
	st->long_size = tep_get_long_size(r->res->tep);
	sc->path = strdup(o->path);
	aw_config_default(&sc->cfg);
	if (setup_topology(r, err, errlen))
		goto out;
	/* THP: --thp, else the recording machine's mode, else always */
	st->thp = o->thp >= 0 ? o->thp : r->in.recorded_thp >= 0 ? r->in.recorded_thp : AW_THP_ALWAYS;
	snprintf(st->thp_source, sizeof(st->thp_source), "%s",
		 o->thp >= 0 ? "--thp" : r->in.recorded_thp >= 0 ? "side file" : "assumed");
	sc->cfg.thp = (enum aw_thp_mode)st->thp;
	sc->cfg.thp_modes = 1U << st->thp;
	if (o->memory_limit) {
		sc->cfg.nr_memcgs = 2;
		sc->cfg.memcg_limit[1] = o->memory_limit;
	}
	setup_side_files(&r->in);
	/* the machine is known: the consumer can start before the first event */
	if (ready && ready(sink ? sink->ctx : NULL, sc)) {
		snprintf(err, errlen, "%s: cannot start the run", o->path);
		goto out;
	}
	/* the recording machine's khugepaged knobs (side file), before anything runs */
	for (int k = 1; k < AW_KH_KNOB_NR; k++)
		if (r->in.kh_knob[k] >= 0 && aw_ing_khugepaged_set(&r->in, k, (uint64_t)r->in.kh_knob[k])) {
			snprintf(err, errlen, "%s: out of memory", o->path);
			goto out;
		}
	if (resolve_window(r, err, errlen))
		goto out;
	/* synthesized aging and khugepaged start their clocks at the window */
	r->in.next_age = o->age_every_ns ? st->window_start_ns + o->age_every_ns : UINT64_MAX;
	r->in.next_kh = o->kh_every_ns ? st->window_start_ns + o->kh_every_ns : UINT64_MAX;
	/* a truncated data section simply ends the iteration early */
	if (aw_reader_read(r)) {
		if (o->progress)
			fputc('\n', stderr);
		goto out;
	}
	if (o->progress)
		fputc('\n', stderr);
	for (int n = 0; n < AW_MAX_NODES; n++)
		if (aw_lru_gen_close_group(&r->in, n))
			goto oom;
	/* a final pass after the last event, so the tail of the trace is aged too */
	if (!st->had_aging_events && st->events_used && aw_ing_aging(&r->in, -1, false) == 0)
		st->synthesized_passes++;
	if (aw_ing_emit_finish(&r->in))
		goto oom;
	ret = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s: the converted stream is too large or out of memory", o->path);
out:
	free((void *)r->in.snap_dir);
	aw_reader_free(r);
	st->reopens = r->src.reopens;
	aw_tsource_close(&r->src);
	aw_ing_free(&r->in);
	aw_ing_emit_free(&r->in);
	free(r);
	return ret;
}
