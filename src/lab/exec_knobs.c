// SPDX-License-Identifier: GPL-2.0-only
/*
 * Small files of sysfs, procfs, debugfs and cgroupfs: whole reads, whole
 * writes (one write() each, as the kernel's store functions expect a
 * command in one call, so an error such as lru_gen_seq_write()'s -ERANGE
 * comes back as that write's errno), and "key value" lookups.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"

int aw_read_file(const char *path, char **text)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		int e = fd < 0 ? errno : ENOMEM;

		free(buf);
		if (fd >= 0)
			close(fd);
		return -e;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*text = buf;
	return 0;
}

int aw_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	e = n < 0 ? errno : 0;
	close(fd);
	return -e;
}

/* Value of the line "KEY VALUE" (memory.stat, /proc/vmstat, memory.events). */
int64_t aw_read_key(const char *path, const char *key)
{
	char *text, *p;
	size_t kl = strlen(key);
	int64_t v = -1;

	if (aw_read_file(path, &text))
		return -1;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t')) {
			v = strtoll(p + kl + 1, NULL, 10);
			break;
		}
	free(text);
	return v;
}
