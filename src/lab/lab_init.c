// SPDX-License-Identifier: GPL-2.0-only
/*
 * lab_init.c: /init of the lab's guest (tools/agewalk-lab, docs/lab.md).
 *
 * The guest is a kernel and an initramfs, nothing else: this program is
 * process 1.  It prepares the machine the way a scenario expects it (the
 * pseudo filesystems, cgroup v2 with the memory and cpuset controllers,
 * zram's modules, MGLRU switched on, zram swap of the scenario's size),
 * reports what it found on the console, runs the executor, and sends the
 * executor's standard output to the host through QEMU's isa-debugcon port
 * (0xe9): a channel that needs no driver in the guest and carries exactly
 * the bytes written, apart from the console's kernel messages.
 *
 * Its inputs are files the runner puts into the initramfs:
 *   /lab/modules.order   module names, dependencies first (may be absent)
 *   /lab/modules/N.ko    the modules, uncompressed
 *   /lab/lab.conf        "swap BYTES" and "thp MODE" lines
 *   /lab/args            the executor's command line, one word a line
 * and, from QEMU, the disk /dev/vda: an ext2 file system mounted on
 * /lab/fs, where the executor's `file` mappings' files are (--file-dir)
 *
 * Run as anything but process 1 it does one thing the tests check:
 *   agewalk-lab-init --swap-header BYTES   writes the swap header page of
 *   a BYTES-long device to stdout (tests/lab_swap_header.sh).
 *
 * Every step that fails is reported as one "lab-init: ..." console line;
 * only a failure that leaves nothing to run (no executor) stops the boot
 * early.  The last line is always "lab-init: exit STATUS" before the
 * power-off, so the runner can tell a finished run from a hang.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define LAB_PAGE_SIZE 4096
#define DEBUGCON_PORT 0xe9
#define MAX_ARGS 64

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("lab-init: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/*
 * The swap header mkswap writes, from union swap_header in
 * include/linux/swap.h: the info view (version 1 at byte 1024, last_page,
 * nr_badpages, uuid, volume label) and the magic "SWAPSPACE2" in the last
 * ten bytes of the page.  last_page is the index of the device's last
 * page (the header is page 0).  The uuid and label stay zero: the guest
 * does not look swap devices up by either, and a fixed header keeps runs
 * identical.  Byte order is the machine's, as swapon() reads it.
 */
static int swap_header(unsigned char page[LAB_PAGE_SIZE], uint64_t bytes)
{
	uint64_t pages = bytes / LAB_PAGE_SIZE;
	uint32_t version = 1, last_page, nr_badpages = 0;

	if (pages < 2 || pages - 1 > UINT32_MAX)
		return -1;
	last_page = (uint32_t)(pages - 1);
	memset(page, 0, LAB_PAGE_SIZE);
	memcpy(page + 1024, &version, 4);
	memcpy(page + 1028, &last_page, 4);
	memcpy(page + 1032, &nr_badpages, 4);
	memcpy(page + LAB_PAGE_SIZE - 10, "SWAPSPACE2", 10);
	return 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The first line of PATH, without its newline; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/*
 * After the run: the /proc/vmstat lines saying whether THP faults got huge
 * pages (thp_fault_alloc) or fell back to small ones (thp_fault_fallback),
 * which decides every walk figure of a THP scenario.
 */
static void thp_facts(void)
{
	static const char *const keys[] = { "thp_fault_alloc ", "thp_fault_fallback ",
					    "thp_collapse_alloc ", "thp_split_pmd " };
	FILE *f = fopen("/proc/vmstat", "re");
	char line[128];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(line, keys[i], strlen(keys[i]))) {
				line[strcspn(line, "\n")] = 0;
				say("vmstat %s", line);
			}
	fclose(f);
}

static void mount_one(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) != 0)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

/*
 * The pseudo filesystems (the root itself is the initramfs, in memory and
 * writable, so the executor's scratch files need no tmpfs), and the
 * console: the initramfs has no device
 * nodes (cpio from an unprivileged build cannot make them), so the kernel
 * found no /dev/console for process 1 and stdin/stdout/stderr are opened
 * here, on devtmpfs's node.
 */
static void mount_all(void)
{
	int fd;

	mount_one("devtmpfs", "/dev");
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stderr, NULL, _IOLBF, 0);
	mount_one("proc", "/proc");
	mount_one("sysfs", "/sys");
	mount_one("debugfs", "/sys/kernel/debug");
	mount_one("tracefs", "/sys/kernel/tracing");
	mount_one("cgroup2", "/sys/fs/cgroup");
	if (write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory +cpuset") != 0)
		say("cgroup2: cannot enable +memory +cpuset: %s", strerror(errno));
}

/* finit_module() each module of /lab/modules.order, in its order. */
static void load_modules(void)
{
	FILE *f = fopen("/lab/modules.order", "re");
	char name[128], path[192];
	int fd;

	if (!f)
		return;
	while (fgets(name, sizeof(name), f)) {
		name[strcspn(name, "\n")] = 0;
		if (!name[0])
			continue;
		snprintf(path, sizeof(path), "/lab/modules/%s.ko", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			say("module %s: %s", name, strerror(errno));
			continue;
		}
		if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST)
			say("module %s: finit_module: %s", name, strerror(errno));
		close(fd);
	}
	fclose(f);
}

/*
 * The disk the runner attaches (virtio-blk, an ext2 file system): the
 * scenario's files are page cache of a real file system there, on the
 * file LRU with shadows, as the model's file pages are (exec_file.c).
 * virtio_blk adds the disk in its probe -- at boot when built in, inside
 * finit_module() when a module -- so the node is normally there; a short
 * bounded wait covers a probe still running.  ext2 is mounted by ext4's
 * driver on Debian's kernels (EXT4_USE_FOR_EXT2) and the lab's 6.12.
 */
static void mount_disk(void)
{
	struct stat st;

	for (int i = 0; i < 100 && stat("/dev/vda", &st) != 0; i++)
		usleep(20000);
	mkdir("/lab/fs", 0755);
	if (stat("/dev/vda", &st) != 0)
		say("disk none: /dev/vda: %s", strerror(errno));
	else if (mount("/dev/vda", "/lab/fs", "ext2", 0, NULL) != 0)
		say("disk none: mount /dev/vda ext2 on /lab/fs: %s", strerror(errno));
	else
		say("disk ext2 /dev/vda on /lab/fs");
}

/* "swap BYTES" and "thp MODE" from /lab/lab.conf */
static void read_conf(uint64_t *swap, char *thp, size_t thp_size)
{
	FILE *f = fopen("/lab/lab.conf", "re");
	char line[128], word[64];
	unsigned long long n;

	*swap = 0;
	thp[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "swap %llu", &n) == 1)
			*swap = n;
		else if (sscanf(line, "thp %63s", word) == 1)
			snprintf(thp, thp_size, "%s", word);
	}
	fclose(f);
}

/*
 * zram swap: the device's size through disksize (zram_drv.c
 * disksize_store), the header page written at offset 0, then swapon(2).
 * zram0 exists once the module is in (num_devices defaults to 1).  The
 * device is one page larger than the scenario's swap: the header takes
 * page 0, so SwapTotal comes out at the scenario's size.
 */
static void setup_swap(uint64_t swap)
{
	unsigned char page[LAB_PAGE_SIZE];
	uint64_t bytes = swap + LAB_PAGE_SIZE;
	char size[32];
	int fd;

	if (!swap)
		return;
	snprintf(size, sizeof(size), "%llu", (unsigned long long)bytes);
	if (write_file("/sys/block/zram0/disksize", size) != 0) {
		say("swap: zram0 disksize %s: %s", size, strerror(errno));
		return;
	}
	if (swap_header(page, bytes) != 0) {
		say("swap: %s bytes is not a swap device size", size);
		return;
	}
	fd = open("/dev/zram0", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, page, sizeof(page), 0) != (ssize_t)sizeof(page) || fsync(fd) != 0) {
		say("swap: writing the header to /dev/zram0: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	if (swapon("/dev/zram0", 0) != 0)
		say("swap: swapon /dev/zram0: %s", strerror(errno));
}

/* The guest's facts, one console line each, for the run's record. */
static void report(void)
{
	char buf[256];
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *e;
	int nodes = 0, fd;
	FILE *f;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9')
			nodes++;
	if (d)
		closedir(d);
	read_line("/proc/sys/kernel/osrelease", buf, sizeof(buf));
	say("release %s", buf);
	say("nodes %d", nodes);
	read_line("/sys/kernel/mm/lru_gen/enabled", buf, sizeof(buf));
	say("lru_gen enabled %s", buf[0] ? buf : "(missing)");
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	say("thp %s", buf[0] ? buf : "(missing)");
	fd = open("/sys/kernel/debug/lru_gen", O_RDONLY | O_CLOEXEC);
	say("debugfs lru_gen %s", fd >= 0 && read(fd, buf, sizeof(buf)) > 0 ? "readable" : "missing");
	if (fd >= 0)
		close(fd);
	f = fopen("/proc/swaps", "re");
	while (f && fgets(buf, sizeof(buf), f))
		if (buf[0] == '/') {
			buf[strcspn(buf, "\n")] = 0;
			say("swap %s", buf);
		}
	if (f)
		fclose(f);
}

/* Does /proc/kallsyms name SYMBOL?  The executor kprobes static vmscan.c functions. */
static int has_symbol(const char *symbol)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[256], name[200];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %199s", name) == 1 && !strcmp(name, symbol);
	if (f)
		fclose(f);
	return found;
}

/* /lab/args, one word a line, into argv (NULL-terminated). */
static int read_args(char *argv[MAX_ARGS], char *store, size_t size)
{
	FILE *f = fopen("/lab/args", "re");
	int argc = 0;
	size_t used = 0, n;

	if (!f)
		return 0;
	while (argc < MAX_ARGS - 1 && used < size && fgets(store + used, (int)(size - used), f)) {
		n = strcspn(store + used, "\n");
		store[used + n] = 0;
		argv[argc++] = store + used;
		used += n + 1;
	}
	argv[argc] = NULL;
	fclose(f);
	return argc;
}

/*
 * Run the executor with its stdout on a pipe and copy the pipe to the
 * debugcon port byte by byte (outb: one port write is one byte in the
 * host's file).  stderr stays on the console.
 */
static int run_executor(char *argv[])
{
	unsigned char buf[4096];
	int pipefd[2], status = 0;
	ssize_t n, i;
	pid_t pid;

	if (ioperm(DEBUGCON_PORT, 1, 1) != 0) {
		say("ioperm 0x%x: %s", DEBUGCON_PORT, strerror(errno));
		return 255;
	}
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return 255;
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		execv(argv[0], argv);
		say("exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		for (i = 0; i < n; i++)
			outb(buf[i], DEBUGCON_PORT);
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 255;
	if (WIFSIGNALED(status)) {
		say("%s killed by signal %d", argv[0], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

static int init_main(void)
{
	char *argv[MAX_ARGS], store[4096], thp[32];
	uint64_t swap;
	int status = 255;

	mount_all();
	load_modules();
	mount_disk();
	if (write_file("/sys/kernel/mm/lru_gen/enabled", "y") != 0)
		say("lru_gen: cannot enable: %s", strerror(errno));
	/*
	 * Debian's 6.1 has automatic NUMA balancing on by default: its hinting
	 * faults and migrations would move pages the scenario placed with
	 * mbind, which the model does not do.  The trimmed 6.12 lacks it.
	 */
	if (write_file("/proc/sys/kernel/numa_balancing", "0") != 0 && errno != ENOENT)
		say("numa_balancing: cannot disable: %s", strerror(errno));
	read_conf(&swap, thp, sizeof(thp));
	if (thp[0] && write_file("/sys/kernel/mm/transparent_hugepage/enabled", thp) != 0)
		say("thp %s: %s", thp, strerror(errno));
	setup_swap(swap);
	report();
	say("kallsyms walk_pud_range %s", has_symbol("walk_pud_range") ? "present" : "missing");
	if (read_args(argv, store, sizeof(store)) > 0)
		status = run_executor(argv);
	else
		say("no /lab/args: nothing to run");
	thp_facts();
	say("exit %d", status);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}

/* agewalk-lab-init --swap-header BYTES: the header page on stdout */
static int tool_main(int argc, char **argv)
{
	unsigned char page[LAB_PAGE_SIZE];
	char *end;
	unsigned long long bytes;

	if (argc != 3 || strcmp(argv[1], "--swap-header") != 0) {
		fprintf(stderr, "agewalk-lab-init: usage: agewalk-lab-init --swap-header BYTES (as process 1 it is the lab's /init)\n");
		return 2;
	}
	errno = 0;
	bytes = strtoull(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || swap_header(page, bytes) != 0) {
		fprintf(stderr, "agewalk-lab-init: --swap-header %s: not a swap device size (at least two pages)\n", argv[2]);
		return 2;
	}
	return fwrite(page, 1, sizeof(page), stdout) == sizeof(page) ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (getpid() == 1)
		return init_main();
	return tool_main(argc, argv);
}
