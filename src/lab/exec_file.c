// SPDX-License-Identifier: GPL-2.0-only
/*
 * exec_file.c: the file behind a scenario's `file` mapping (docs/lab.md).
 *
 * The model's file pages are page cache of a file system: on the file
 * LRU type, dropped by reclaim with a shadow entry (__remove_mapping()
 * -> workingset_eviction()) and counted as refaults when read again
 * (filemap_add_folio() -> workingset_refault()).  A tmpfs file (memfd)
 * is none of that: shmem is swap-backed, on the anon LRU, and a clean
 * hole page is dropped without a shadow.  So with --file-dir the file is
 * an unnamed file (O_TMPFILE) on the file system mounted there -- the
 * lab's ext2 disk -- and a directory on tmpfs or ramfs is refused, since
 * its "file" would silently be shmem again.  Without --file-dir (the
 * executor run outside the lab, on a host) the file is a memfd, and the
 * run says so once.
 *
 * The controller makes the file and passes it to the worker with the
 * mmap request (SCM_RIGHTS): the worker maps it and closes it, so it
 * lives as long as the mapping, as a memfd would.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "exec.h"

#define AW_TMPFS_MAGIC	0x01021994	/* include/uapi/linux/magic.h */
#define AW_RAMFS_MAGIC	0x858458f6

/* A file of len bytes (a hole) on opt.file_dir, or a memfd; -1 with errno set. */
int aw_exec_file(struct aw_exec *x, uint64_t len)
{
	struct statfs sf;
	int fd, err;

	if (!x->opt.file_dir) {
		if (!x->file_memfd_noted)
			aw_note(x, AW_NOTE_SETUP, "file mappings are memfds (shmem: the anon LRU, no shadows): no --file-dir");
		x->file_memfd_noted = true;
		fd = memfd_create("aw-file", MFD_CLOEXEC);
	} else {
		fd = open(x->opt.file_dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0 && !fstatfs(fd, &sf) &&
		    (sf.f_type == AW_TMPFS_MAGIC || sf.f_type == AW_RAMFS_MAGIC)) {
			close(fd);
			errno = EXDEV;	/* reported by the caller as "not a disk file system" */
			return -1;
		}
	}
	if (fd >= 0 && ftruncate(fd, (off_t)len)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}
