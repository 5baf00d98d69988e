// SPDX-License-Identifier: GPL-2.0-only
/*
 * Outputs that never destroy or lie (output.h has the rules).
 *
 * Why each step is there:
 *  - The bytes go through a fopencookie() stream whose write function
 *    remembers the first errno.  stdio reports a failed write only as
 *    ferror(), and by the time the caller looks errno has been clobbered,
 *    so "No space left on device" would become "write error".
 *  - A regular file is replaced by rename(), never truncated first: until
 *    the rename the old contents are what a reader (or a crash) sees.
 *  - The temporary file is O_TMPFILE where the filesystem has it: it has
 *    no name until commit links it in, so SIGKILL or a power cut leaves
 *    nothing behind.  The name it is linked under for the rename lives
 *    for two system calls.
 *  - rename() over a device or FIFO would replace the node itself (it
 *    broke /dev/null for a whole machine once), so anything that is not a
 *    regular file is opened and written where it is.
 *  - rename() over a symbolic link replaces the link, so the link is
 *    followed to the file it names, which may not exist yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio_ext.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

static void set_err(char *err, size_t errlen, const char *name, int e)
{
	snprintf(err, errlen, "%s: %s", name, strerror(e ? e : EIO));
}

/* fopencookie: every write goes to the descriptor; the first failure is kept */
static ssize_t cookie_write(void *c, const char *buf, size_t len)
{
	struct aw_output *o = c;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(o->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->error)
				o->error = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static FILE *cookie_stream(struct aw_output *o)
{
	cookie_io_functions_t io = { .write = cookie_write };

	return fopencookie(o, "w", io);
}

/* "-", /dev/stdout, /dev/fd/N, /proc/self/fd/N: the descriptor it names, or -1 */
static int descriptor_of(const char *path)
{
	static const char *const prefix[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long fd;

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
		size_t n = strlen(prefix[i]);

		if (strncmp(path, prefix[i], n) || !path[n])
			continue;
		fd = strtol(path + n, &end, 10);
		if (!*end && fd >= 0 && fd < 1 << 20)
			return (int)fd;
	}
	return -1;
}

/*
 * Follow PATH's symbolic links, one at a time, to the name they end at
 * (which need not exist: a dangling link is written through, as open()
 * would).  Relative targets are relative to the link's own directory.
 * 0, or an errno (ELOOP after 40 links, as the kernel's MAXSYMLINKS).
 */
static int resolve(const char *path, char *out, size_t outlen)
{
	char link[4096];
	struct stat st;

	if (snprintf(out, outlen, "%s", path) >= (int)outlen)
		return ENAMETOOLONG;
	for (int hops = 0; hops < 40; hops++) {
		ssize_t n;

		if (lstat(out, &st) || !S_ISLNK(st.st_mode))
			return 0;
		n = readlink(out, link, sizeof(link) - 1);
		if (n < 0)
			return errno;
		link[n] = '\0';
		if (link[0] == '/') {
			if ((size_t)n >= outlen)
				return ENAMETOOLONG;
			memcpy(out, link, (size_t)n + 1);
		} else {
			char *slash = strrchr(out, '/');
			size_t dirlen = slash ? (size_t)(slash - out) + 1 : 0;

			if (dirlen + (size_t)n >= outlen)
				return ENAMETOOLONG;
			memmove(out + dirlen, link, (size_t)n + 1);
		}
	}
	return ELOOP;
}

/* target split into its directory (opened) and last component */
static int open_dir(struct aw_output *o)
{
	char dir[4096];
	const char *slash = strrchr(o->target, '/'), *base = slash ? slash + 1 : o->target;
	size_t len = slash == o->target ? 1 : slash ? (size_t)(slash - o->target) : 0;

	/* a name longer than any filesystem's NAME_MAX (255) */
	if (strlen(base) >= sizeof(o->base))
		return ENAMETOOLONG;
	memcpy(o->base, base, strlen(base) + 1);
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)len, o->target);
	else
		snprintf(dir, sizeof(dir), ".");
	if (!o->base[0] || !strcmp(o->base, ".") || !strcmp(o->base, ".."))
		return EISDIR;
	o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return o->dirfd < 0 ? errno : 0;
}

/* o->tmp := the i-th candidate name of a temporary file beside o->base */
static void tmp_name(struct aw_output *o, int i)
{
	snprintf(o->tmp, sizeof(o->tmp), ".%.1000s.agewalk-%ld-%d", o->base, (long)getpid(), i);
}

/*
 * The temporary file, opened with access (O_WRONLY, O_RDWR): unnamed if
 * the filesystem can (O_TMPFILE), else ".NAME.agewalk-PID-N", created
 * exclusively and left in o->tmp.  mode less the umask, as open(O_CREAT)
 * gives a new file; commit copies an old file's mode.
 */
static int open_temporary(struct aw_output *o, int access, mode_t mode)
{
	o->fd = openat(o->dirfd, ".", O_TMPFILE | access | O_CLOEXEC, mode);
	if (o->fd >= 0) {
		o->tmpfile = true;
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return errno;
	for (int i = 0; i < 100; i++) {
		tmp_name(o, i);
		o->fd = openat(o->dirfd, o->tmp, O_CREAT | O_EXCL | access | O_CLOEXEC, mode);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	o->tmp[0] = '\0';
	return errno;
}

static int open_replace(struct aw_output *o, const struct stat *st)
{
	int e;

	o->how = AW_OUT_REPLACE;
	if (st) {
		o->had_old = true;
		o->old_mode = st->st_mode & 07777;
		o->old_uid = st->st_uid;
		o->old_gid = st->st_gid;
	}
	e = open_dir(o);
	if (!e)
		e = open_temporary(o, O_WRONLY, 0666);
	return e;
}

/* close what is open, remove the temporary file */
static void release(struct aw_output *o)
{
	o->active = false;
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0] && o->dirfd >= 0)
		unlinkat(o->dirfd, o->tmp, 0);
	o->tmp[0] = '\0';
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->dirfd = -1;
}

int aw_output_open(struct aw_output *o, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->fd = o->dirfd = -1;
	snprintf(o->name, sizeof(o->name), "%s", path);
	fd = descriptor_of(path);
	if (fd >= 0) {
		o->how = AW_OUT_DESCRIPTOR;
		if (fd == 1) {	/* stdout is written through stdio's own stream */
			o->f = stdout;
			o->active = true;
			return 0;
		}
		o->fd = dup(fd);
		e = o->fd < 0 ? errno : 0;
	} else if (!(e = resolve(path, o->target, sizeof(o->target)))) {
		if (stat(o->target, &st)) {
			e = errno == ENOENT ? open_replace(o, NULL) : errno;
		} else if (S_ISDIR(st.st_mode)) {
			e = EISDIR;
		} else if (S_ISREG(st.st_mode)) {
			e = open_replace(o, &st);
		} else {
			/* a device or FIFO: O_TRUNC means nothing to either */
			o->how = AW_OUT_IN_PLACE;
			o->fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			e = o->fd < 0 ? errno : 0;
		}
	}
	if (!e && !(o->f = cookie_stream(o)))
		e = errno;
	if (e) {
		set_err(err, errlen, path, e);
		release(o);
		return -1;
	}
	o->active = true;
	return 0;
}

/* give the temporary file the old file's mode and owner (a new one keeps 0666 & ~umask) */
static int keep_mode(struct aw_output *o)
{
	if (!o->had_old)
		return 0;
	/* the owner only where we may set it; root may, a user keeps their own */
	if (fchown(o->fd, o->old_uid, o->old_gid) && errno != EPERM)
		return errno;
	return fchmod(o->fd, o->old_mode) ? errno : 0;
}

/* put the finished temporary file at the target's name */
static int link_into_place(struct aw_output *o)
{
	if (o->tmpfile) {
		char proc[64];

		for (int i = 0;; i++) {
			tmp_name(o, i);
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
			if (!linkat(AT_FDCWD, proc, o->dirfd, o->tmp, AT_SYMLINK_FOLLOW))
				break;
			/* no /proc: the descriptor itself (CAP_DAC_READ_SEARCH) */
			if (errno == ENOENT && !linkat(o->fd, "", o->dirfd, o->tmp, AT_EMPTY_PATH))
				break;
			if (errno != EEXIST || i == 100) {
				int e = errno;

				o->tmp[0] = '\0';
				return e;
			}
		}
	}
	if (renameat(o->dirfd, o->tmp, o->dirfd, o->base))
		return errno;
	o->tmp[0] = '\0';
	/* the rename itself to disk; a directory that cannot be synced (EINVAL) is fine */
	if (fsync(o->dirfd) && errno != EINVAL && errno != EROFS)
		return errno;
	return 0;
}

int aw_output_commit(struct aw_output *o, char *err, size_t errlen)
{
	int e = 0;

	if (!o->active) {
		set_err(err, errlen, o->name, EBADF);
		return -1;
	}
	if (o->f == stdout) {
		o->active = false;
		/* errno of a failed stdio write is lost by now; EIO then */
		if (fflush(stdout))
			e = errno;
		else if (ferror(stdout))
			e = EIO;
		o->f = NULL;
		if (e) {
			set_err(err, errlen, "standard output", e);
			clearerr(stdout);	/* reported here, not again by aw_close_stdout() */
		}
		return e ? -1 : 0;
	}
	if (fflush(o->f) || ferror(o->f))
		e = o->error ? o->error : (errno ? errno : EIO);
	if (!e && o->how == AW_OUT_REPLACE) {
		if (fsync(o->fd))
			e = errno;
		else
			e = keep_mode(o);
	}
	fclose(o->f);		/* the cookie's close does nothing: fd is ours */
	o->f = NULL;
	if (!e && o->how == AW_OUT_REPLACE)
		e = link_into_place(o);
	if (close(o->fd) && !e && errno != EINTR)
		e = errno;
	o->fd = -1;
	if (e)
		set_err(err, errlen, o->name, e);
	release(o);
	return e ? -1 : 0;
}

void aw_output_abort(struct aw_output *o)
{
	if (o->active)
		release(o);
}

int aw_output_write(const char *path, int (*fn)(FILE *f, void *arg), void *arg, char *err, size_t errlen)
{
	struct aw_output o;

	if (aw_output_open(&o, path, err, errlen))
		return -1;
	errno = 0;
	if (fn(o.f, arg)) {
		/* a stream error is the disk's (stdout's errno is fresh now); anything else the writer's own */
		int e = errno;

		fflush(o.f);
		set_err(err, errlen, o.f == stdout ? "standard output" : path,
			o.error ? o.error : !ferror(o.f) ? ENOMEM : e ? e : EIO);
		if (o.f == stdout)
			clearerr(stdout);	/* reported here, not again at exit */
		aw_output_abort(&o);
		return -1;
	}
	return aw_output_commit(&o, err, errlen);
}

FILE *aw_output_scratch(const char *path, char *err, size_t errlen)
{
	struct aw_output o;
	FILE *f = NULL;
	int e = 0;

	memset(&o, 0, sizeof(o));
	o.fd = o.dirfd = -1;
	/* beside the file the output will replace, so it fills the same disk */
	if (descriptor_of(path) >= 0)
		snprintf(o.target, sizeof(o.target), "./scratch");
	else
		e = resolve(path, o.target, sizeof(o.target));
	if (!e)
		e = open_dir(&o);
	if (!e)
		e = open_temporary(&o, O_RDWR, 0600);
	/* a named one (no O_TMPFILE here) is unlinked at once: it vanishes with its descriptor */
	if (!e && o.tmp[0])
		unlinkat(o.dirfd, o.tmp, 0);
	o.tmp[0] = '\0';
	if (!e && !(f = fdopen(o.fd, "w+b")))
		e = errno;
	else if (f)
		o.fd = -1;	/* the stream's now */
	release(&o);
	if (e) {
		set_err(err, errlen, path, e);
		return NULL;
	}
	return f;
}

void aw_close_stdout(void)
{
	bool pending = __fpending(stdout) != 0, failed = ferror(stdout);
	int e = 0;

	/* a write that failed before left its bytes pending: fclose meets the same errno */
	if (fclose(stdout) && (failed || pending || errno != EBADF))
		e = errno;	/* EBADF with nothing to write: stdout was closed on purpose */
	else if (failed)
		e = EIO;
	if (e) {
		fprintf(stderr, "%s: standard output: %s\n", program_invocation_short_name, strerror(e));
		_exit(AW_EXIT_OUTPUT);
	}
}
