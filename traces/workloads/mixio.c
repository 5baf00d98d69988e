// SPDX-License-Identifier: GPL-2.0-only
/*
 * A mixed multi-process workload to record (traces/README.md): each round
 * forks four workers that share the CPUs; each worker
 *   - maps its own file MAP_SHARED, writes every page through the mapping,
 *     then pwrite()s and pread()s random pages of it through the descriptor
 *     the mapping was made from (replay reads them as accesses to the
 *     mapped pages) and maps part of it again MAP_PRIVATE to write (CoW);
 *   - churns anonymous mappings: mmap 4 KiB-256 KiB, touch, sometimes
 *     MADV_DONTNEED and touch again, munmap;
 *   - forks short-lived children that read and write part of its heap
 *     (CoW faults) and exit.
 * About 1.2 M traced events with the defaults (ROUNDS 16).
 *
 *   mixio [ROUNDS [DIR]]    (DIR holds the four 8 MiB files: default $TMPDIR, else .)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096UL
#define MB (1UL << 20)
#define FILE_LEN (8 * MB)
#define HEAP_LEN (4 * MB)
#define WORKERS 4

/* a small xorshift so every run does the same thing */
static unsigned long next_rand(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void touch(char *p, size_t len)
{
	for (size_t i = 0; i < len; i += PAGE)
		p[i]++;
}

static void file_io(const char *path, unsigned long *seed)
{
	int fd = open(path, O_RDWR);
	char buf[4 * PAGE];
	char *m, *priv;

	if (fd < 0)
		return;
	m = mmap(NULL, FILE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return;
	}
	touch(m, FILE_LEN);
	memset(buf, 'w', sizeof(buf));
	for (int i = 0; i < 256; i++) {
		off_t off = (off_t)(next_rand(seed) % (FILE_LEN / PAGE - 4)) * PAGE;

		if (i & 1)
			(void)!pwrite(fd, buf, sizeof(buf), off);
		else
			(void)!pread(fd, buf, sizeof(buf), off);
	}
	priv = mmap(NULL, FILE_LEN / 4, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (priv != MAP_FAILED) {
		touch(priv, FILE_LEN / 4);
		munmap(priv, FILE_LEN / 4);
	}
	munmap(m, FILE_LEN);
	close(fd);
}

static void churn(unsigned long *seed, int n)
{
	for (int i = 0; i < n; i++) {
		size_t len = (1 + next_rand(seed) % 64) * PAGE;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			continue;
		touch(p, len);
		if (i % 4 == 0) {
			madvise(p, len / 2, MADV_DONTNEED);
			touch(p, len);
		}
		munmap(p, len);
	}
}

static void forks(char *heap, int n)
{
	for (int i = 0; i < n; i++) {
		pid_t c = fork();

		if (c == 0) {
			size_t quarter = HEAP_LEN / 4;
			unsigned long sum = 0;

			for (size_t k = 0; k < HEAP_LEN; k += PAGE)
				sum += (unsigned char)heap[k];
			touch(heap + (size_t)(i % 4) * quarter, quarter);
			_exit(sum == 1);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
	}
}

static void worker(const char *path, int round, int w)
{
	unsigned long seed = 0x9e3779b97f4a7c15UL ^ (unsigned long)(round * WORKERS + w + 1);
	char *heap = mmap(NULL, HEAP_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (heap == MAP_FAILED)
		_exit(1);
	madvise(heap, HEAP_LEN, MADV_NOHUGEPAGE);
	touch(heap, HEAP_LEN);
	file_io(path, &seed);
	churn(&seed, 400);
	forks(heap, 6);
	_exit(0);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 16;
	const char *dir = argc > 2 ? argv[2] : getenv("TMPDIR") ? getenv("TMPDIR") : ".";
	char path[WORKERS][512];

	for (int w = 0; w < WORKERS; w++) {
		int fd;

		snprintf(path[w], sizeof(path[w]), "%s/mixio.%d.%d", dir, (int)getpid(), w);
		fd = open(path[w], O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || ftruncate(fd, FILE_LEN) != 0) {
			perror(path[w]);
			return 1;
		}
		close(fd);
	}
	for (int r = 0; r < rounds; r++) {
		for (int w = 0; w < WORKERS; w++)
			if (fork() == 0)
				worker(path[w], r, w);
		while (wait(NULL) > 0)
			;
	}
	for (int w = 0; w < WORKERS; w++)
		unlink(path[w]);
	return 0;
}
