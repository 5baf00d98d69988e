// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records in replay order from trace.dat files (source.h).  The merge is
 * the one tracecmd_iterate_events() does, written out so that it can
 * stop (the callback's return value does not stop libtracecmd 1.3's
 * iteration), span several files and buffers, and reopen a file midway:
 * the earliest pending record across the CPUs wins, the lower CPU (then
 * buffer, then file) on a tie.
 */
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>

#include "source.h"
#include "tev.h"

/*
 * libtracecmd trusts the file's headers: some corruptions there make
 * tracecmd_open() crash in its own error path (tracecmd_close() on a half
 * built handle) or ask for absurd allocations, before any agewalk code can
 * check anything.  So the headers are opened once in a child first; if the
 * child dies of a signal (or a sanitizer stops it), the file is reported as
 * corrupt instead of taking the replay (and whatever it was writing) down
 * with it.  Returns the signal, -1 for a sanitizer's exit, 0 if it survived.
 */
int aw_tsource_probe(const char *path)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;	/* no probe: open directly */
	if (pid == 0) {
		struct tracecmd_input *h;
		int devnull = open("/dev/null", O_WRONLY);

		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);	/* the crash's own report is noise here */
		tracecmd_set_loglevel(TEP_LOG_NONE);
		h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (h)
			tracecmd_close(h);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFSIGNALED(status))
		return WTERMSIG(status);
	/* a sanitizer that caught the library exits with its own status */
	return WIFEXITED(status) && WEXITSTATUS(status) ? -1 : 0;
}

/*
 * libtracecmd parses the kernel symbols a file carries (the whole kallsyms
 * of the recording machine in a file written by trace-cmd extract) into
 * its tep on every open: a quarter of an open's CPU time and several MiB
 * that live as long as the handle.  agewalk reads fields by name and never
 * prints a kernel address, so it has no use for them: this definition in
 * the executable takes the place of libtraceevent's for libtracecmd's call
 * (ELF symbol interposition; ld exports it because libtracecmd refers to
 * it), and the symbols are never parsed.
 */
__attribute__((used)) int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	(void)tep;
	(void)kallsyms;
	return 0;
}

/* Whether agewalk's event table (tev.h) reads system:name. */
static bool in_table(const char *sys, const char *name, size_t len)
{
	for (int t = 0; t < AW_TEV_NR; t++)
		if (!strcmp(aw_tev_table[t].system, sys) && strlen(aw_tev_table[t].event) == len &&
		    !memcmp(aw_tev_table[t].event, name, len))
			return true;
	return false;
}

/*
 * libtracecmd also parses the format of every event the file describes --
 * a file written by trace-cmd extract describes every event of the
 * recording kernel, two thousand and more, where agewalk reads some
 * thirty -- fields and print fmt, on every open: half an open's CPU time,
 * and as much memory as the records' cache holds at its first reopen.
 * This definition takes the place of libtraceevent's (as above) and
 * passes the formats of agewalk's events (and of the ftrace system's)
 * on whole; any other event keeps its name and id (the name a record of
 * it is counted under) and loses its fields and print fmt, which nothing
 * in agewalk reads.  Its common fields go too when the file's byte order
 * is the host's: agewalk then reads every record's type and pid itself
 * (reader.c, from an event of its table); a foreign file keeps them, for
 * libtraceevent reads type and pid from the file's first event.  A
 * format not laid out as the kernel writes it is passed on whole.
 */
__attribute__((used)) enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
						     const char *sys)
{
	static const char tail[] = "print fmt: \"\"\n";
	enum tep_errno (*real)(struct tep_handle *, const char *, unsigned long, const char *) =
		(enum tep_errno (*)(struct tep_handle *, const char *, unsigned long, const char *))
		dlsym(RTLD_NEXT, "tep_parse_event");
	const char *name, *end, *fields, *common_end;
	size_t keep;
	char *lite;
	enum tep_errno ret;

	if (!real)
		return TEP_ERRNO__MEM_ALLOC_FAILED;
	name = size > 6 && !strncmp(buf, "name: ", 6) ? buf + 6 : NULL;
	end = name ? memchr(name, '\n', size - 6) : NULL;
	/* the fields start after the line "format:"; the common ones end at the first empty line */
	fields = end ? memmem(end, size - (size_t)(end - buf), "\nformat:\n", 9) : NULL;
	common_end = fields ? memmem(fields, size - (size_t)(fields - buf), "\n\n", 2) : NULL;
	if (!sys || !strcmp(sys, "ftrace") || !common_end || in_table(sys, name, (size_t)(end - name)))
		return real(tep, buf, size, sys);
	keep = tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep) ? (size_t)(fields - buf) + 9 :
	       (size_t)(common_end - buf) + 1;
	lite = malloc(keep + 1 + sizeof(tail));
	if (!lite)
		return real(tep, buf, size, sys);
	memcpy(lite, buf, keep);
	lite[keep] = '\n';	/* the empty line that ends the (common) fields */
	memcpy(lite + keep + 1, tail, sizeof(tail));
	ret = real(tep, lite, keep + sizeof(tail), sys);
	free(lite);
	return ret;
}

/*
 * A version 7 file names its compression in the header: magic, "tracing",
 * the version string, endianness, long size, page size, then the
 * algorithm and its version.  Read only to say why a file did not open.
 */
static bool compression_of(const char *path, char *name, size_t len)
{
	unsigned char h[128];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(h, 1, sizeof(h) - 1, f) : 0;
	size_t v, c;

	if (f)
		fclose(f);
	h[n] = 0;
	if (n < 12 || memcmp(h, "\x17\x08\x44tracing", 10))
		return false;
	v = 10 + strlen((char *)h + 10) + 1;		/* past the version string */
	if (atoi((char *)h + 10) < 7 || v + 6 >= n)
		return false;
	c = v + 6;					/* endian, long size, page size */
	if (!h[c] || !strcmp((char *)h + c, "none"))
		return false;
	snprintf(name, len, "%s", (char *)h + c);
	return true;
}

static void close_bufs(struct aw_tfile *f)
{
	for (int b = f->nr_bufs - 1; b >= 0; b--) {
		struct aw_tbuf *buf = &f->bufs[b];

		for (int c = 0; buf->next && c < buf->ncpu; c++)
			if (buf->next[c])
				tracecmd_free_record(buf->next[c]);
		free(buf->next);
		buf->next = NULL;
		if (b > 0 && buf->h)
			tracecmd_close(buf->h);
		buf->h = NULL;
	}
	if (f->h)
		tracecmd_close(f->h);
	f->h = NULL;
}

/* The handle's buffers: the top one and each instance, their CPU cursors at the start. */
static int open_bufs(struct aw_tsource *s, struct aw_tfile *f, int file)
{
	int n;

	f->h = tracecmd_open(f->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!f->h)
		return -1;
	n = tracecmd_buffer_instances(f->h);
	n = n < 0 ? 0 : n;
	f->nr_bufs = 1 + (n < AW_TSRC_MAX_BUFS - 1 ? n : AW_TSRC_MAX_BUFS - 1);
	for (int b = 0; b < f->nr_bufs; b++) {
		struct aw_tbuf *buf = &f->bufs[b];
		void *user = buf->user;		/* the reader's state survives a reopen */

		memset(buf, 0, sizeof(*buf));
		buf->user = user;
		buf->file = file;
		buf->index = b;
		buf->h = b ? tracecmd_buffer_instance_handle(f->h, b - 1) : f->h;
		if (!buf->h)
			return -1;
		buf->tep = tracecmd_get_tep(buf->h);
		buf->generation = ++s->generations;
		buf->ncpu = buf->tep && tep_get_cpus(buf->tep) > 0 ? tep_get_cpus(buf->tep) : 0;
		buf->next = calloc(buf->ncpu ? buf->ncpu : 1, sizeof(*buf->next));
		if (!buf->next)
			return -1;
	}
	f->since_open = 0;
	return 0;
}

static void load_heads(struct aw_tfile *f)
{
	bool first = true;

	for (int b = 0; b < f->nr_bufs; b++)
		for (int c = 0; c < f->bufs[b].ncpu; c++) {
			struct tep_record *r = tracecmd_read_data(f->bufs[b].h, c);

			f->bufs[b].next[c] = r;
			if (r && (first || r->ts < f->first_ts))
				f->first_ts = r->ts;
			first = first && !r;
		}
}

/* CPU time, ns: of the calling thread (an open) or of the whole process (the replay since). */
static uint64_t cpu_ns(clockid_t clock)
{
	struct timespec t;

	if (clock_gettime(clock, &t))
		return 0;
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

int aw_tsource_open(struct aw_tsource *s, const char *const *paths, int n, bool merge, struct aw_tguard *guard,
		    char *err, size_t errlen)
{
	uint64_t t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);

	memset(s, 0, sizeof(*s));
	s->merge = merge;
	if (n < 1 || n > AW_TSRC_MAX_FILES) {
		snprintf(err, errlen, "between 1 and %d trace files", AW_TSRC_MAX_FILES);
		return -1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	for (int i = 0; i < n; i++) {
		struct aw_tfile *f = &s->files[i];
		struct stat sb;
		int sig, bad;

		f->path = paths[i];
		s->nr_files = i + 1;
		if (stat(f->path, &sb) || !S_ISREG(sb.st_mode)) {
			snprintf(err, errlen, "%s: cannot read: %s", f->path,
				 S_ISREG(sb.st_mode) ? strerror(errno) : "not a regular file");
			return -1;
		}
		f->size = (uint64_t)sb.st_size;
		sig = aw_tguard_active(guard) ? 0 : aw_tsource_probe(f->path);
		if (sig) {
			aw_tguard_corrupt(err, errlen, f->path, sig);
			return -1;
		}
		aw_tguard_enter(guard, f->path);
		bad = open_bufs(s, f, i);
		aw_tguard_leave(guard);
		if (bad) {
			char comp[32];

			if (compression_of(f->path, comp, sizeof(comp)))
				snprintf(err, errlen, "%s: compressed with %s, which this libtracecmd cannot read "
					 "(trace-cmd list -c names those it can), or corrupt", f->path, comp);
			else
				snprintf(err, errlen, "%s: not a readable trace.dat (bad magic, unsupported "
					 "version, or truncated headers)", f->path);
			return -1;
		}
		load_heads(f);
	}
	s->open_ns = cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	s->opened_cpu_ns = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	return 0;
}

/* Close and reopen f, every buffer's CPUs resuming at their pending records. */
static int reopen(struct aw_tsource *s, struct aw_tfile *f)
{
	uint64_t *off[AW_TSRC_MAX_BUFS] = { NULL };
	int ncpu[AW_TSRC_MAX_BUFS], nr_bufs = f->nr_bufs, ret = -1;

	for (int b = 0; b < nr_bufs; b++) {
		ncpu[b] = f->bufs[b].ncpu;
		off[b] = calloc(ncpu[b] ? ncpu[b] : 1, sizeof(uint64_t));
		if (!off[b])
			goto out;
		for (int c = 0; c < ncpu[b]; c++)
			off[b][c] = f->bufs[b].next[c] ? f->bufs[b].next[c]->offset : 0;
	}
	close_bufs(f);
	if (open_bufs(s, f, (int)(f - s->files)) || f->nr_bufs != nr_bufs)
		goto out;
	for (int b = 0; b < nr_bufs; b++) {
		if (f->bufs[b].ncpu != ncpu[b])
			goto out;
		for (int c = 0; c < ncpu[b]; c++) {
			int cpu = -1;

			if (!off[b][c])
				continue;
			f->bufs[b].next[c] = tracecmd_read_at(f->bufs[b].h, off[b][c], &cpu);
			if (!f->bufs[b].next[c] || cpu != c)
				goto out;
		}
	}
	s->reopens++;
	ret = 0;
out:
	for (int b = 0; b < nr_bufs; b++)
		free(off[b]);
	return ret;
}

/*
 * What the reader's caches hold: the heap in use, every thread's arena
 * and the mmapped chunks (mallinfo2(), which locks each arena), where a
 * compressed file's chunks go, plus the resident file-backed pages
 * (statm's third field), where an uncompressed file's mapped pages go.
 */
static uint64_t in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	unsigned long long size = 0, rss = 0, file = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%llu %llu %llu", &size, &rss, &file) != 3)
			rss = file = 0;
		fclose(f);
	}
	/*
	 * Under a sanitizer's allocator (ASan's) glibc's arenas hold nothing
	 * and mallinfo2() reads empty: the resident size stands in, as it
	 * did for every build before.
	 */
	if (!mi.arena && !mi.hblkhd)
		return (uint64_t)rss * (uint64_t)sysconf(_SC_PAGESIZE);
	return mi.uordblks + mi.hblkhd + (uint64_t)file * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Reopen every file still being read; why ends the error message. */
static int reopen_all(struct aw_tsource *s, const char *why, char *err, size_t errlen)
{
	for (int i = 0; i < s->nr_files; i++) {
		struct aw_tfile *f = &s->files[i];

		if (f->done || !f->since_open)
			continue;
		if (reopen(s, f)) {
			snprintf(err, errlen, "%s: cannot reopen it to continue%s", f->path, why);
			return -1;
		}
	}
	return 0;
}

/*
 * The library's caches have grown past the budget (source.h): reopen
 * every file being read, if the replay has worked long enough since the
 * last (re)open to pay for one more.
 */
static int check_memory(struct aw_tsource *s, char *err, size_t errlen)
{
	uint64_t used, grown, t0;

	s->check_at = s->records + AW_TSRC_CHECK;
	used = in_use();
	if (!s->heap_base || used < s->heap_base) {
		s->heap_base = used;
		return 0;
	}
	grown = used - s->heap_base;
	if (grown < AW_TSRC_BUDGET_MIN)
		return 0;
	if (grown < AW_TSRC_BUDGET_MAX &&
	    cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - s->opened_cpu_ns < AW_TSRC_REOPEN_SHARE * s->open_ns)
		return 0;
	t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	if (reopen_all(s, " (bounded memory)", err, errlen))
		return -1;
	/* what the closed handles held is free now, and kept for the next chunks (source.h) */
	s->heap_base = in_use();
	s->open_ns = cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	s->opened_cpu_ns = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	return 0;
}

int aw_tsource_next(struct aw_tsource *s, struct tep_record **rec, struct aw_tbuf **buf, uint64_t *ts,
		    char *err, size_t errlen)
{
	if (s->records >= s->check_at && check_memory(s, err, errlen))
		return -1;
	if (s->reopen_every && s->records && s->records % s->reopen_every == 0 && s->records != s->reopened_at) {
		s->reopened_at = s->records;
		if (reopen_all(s, "", err, errlen))
			return -1;
	}
	for (;;) {
		int lo = s->merge ? 0 : s->cur, hi = s->merge ? s->nr_files : s->cur + 1;
		struct aw_tbuf *best = NULL;
		int best_cpu = -1;
		int64_t best_ts = 0;

		for (int i = lo; i < hi; i++) {
			struct aw_tfile *f = &s->files[i];

			for (int b = 0; b < f->nr_bufs; b++)
				for (int c = 0; c < f->bufs[b].ncpu; c++) {
					const struct tep_record *r = f->bufs[b].next[c];
					int64_t t;

					if (!r)
						continue;
					t = (int64_t)r->ts + f->shift;
					if (!best || t < best_ts) {
						best = &f->bufs[b];
						best_cpu = c;
						best_ts = t;
					}
				}
		}
		if (best) {
			struct aw_tfile *f = &s->files[best->file];

			*rec = best->next[best_cpu];
			best->next[best_cpu] = tracecmd_read_data(best->h, best_cpu);
			f->since_open++;
			s->records++;
			f->last_ts = (*rec)->ts;
			*buf = best;
			*ts = (uint64_t)best_ts;
			s->last_out = *ts;
			return 1;
		}
		if (s->merge || s->cur + 1 >= s->nr_files)
			return 0;
		/* the next file's first record comes right where this one ended */
		s->files[s->cur].done = true;
		s->cur++;
		s->files[s->cur].shift = (int64_t)s->last_out - (int64_t)s->files[s->cur].first_ts;
	}
}

void aw_tsource_put(struct aw_tsource *s, struct tep_record *rec)
{
	(void)s;
	tracecmd_free_record(rec);
}

double aw_tsource_progress(const struct aw_tsource *s, const struct tep_record *rec, const struct aw_tbuf *buf)
{
	uint64_t total = 0, done = 0;

	for (int i = 0; i < s->nr_files; i++) {
		total += s->files[i].size;
		if (s->files[i].done || (!s->merge && i < buf->file))
			done += s->files[i].size;
	}
	done += rec->offset < s->files[buf->file].size ? rec->offset : 0;
	return total ? (double)done / (double)total : 0;
}

void aw_tsource_close(struct aw_tsource *s)
{
	for (int i = 0; i < s->nr_files; i++)
		close_bufs(&s->files[i]);
}
