// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guarded worker (guard.h): the command runs in a child, the parent
 * waits for it and speaks for it only when libtracecmd killed it opening
 * a file.
 *
 * The watcher waits with sigwaitinfo() on SIGCHLD and the signals it
 * passes on, all blocked before the fork so that none is lost between the
 * fork and the wait (a SIGCHLD delivered to a default disposition is
 * discarded); the worker gets the caller's mask back.  No handler, so no
 * state outside the shared page.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guard.h"

struct aw_tguard_page {
	volatile int opening;		/* 1 while libtracecmd opens path */
	int saved_stderr;		/* the worker's stderr while it is silenced */
	char path[4000];
};

static const int passed_on[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

/* The worker has ended: exit the way it did, or report the file that killed it. */
static void finish(const struct aw_tguard_page *pg, int status, int error_status)
{
	if (pg->opening) {
		char msg[sizeof(pg->path) + 96];

		aw_tguard_corrupt(msg, sizeof(msg), pg->path, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
		fprintf(stderr, "agewalk: %s\n", msg);
		_exit(error_status);
	}
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	if (WIFSIGNALED(status)) {
		sigset_t all;

		signal(WTERMSIG(status), SIG_DFL);
		sigfillset(&all);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		raise(WTERMSIG(status));
		_exit(128 + WTERMSIG(status));
	}
	_exit(error_status);
}

static void watch(pid_t worker, const struct aw_tguard_page *pg, const sigset_t *set, int error_status)
{
	for (;;) {
		siginfo_t si;
		int status, sig = sigwaitinfo(set, &si);

		if (sig < 0 && errno != EINTR)
			break;
		if (sig > 0 && sig != SIGCHLD) {
			kill(worker, sig);
			continue;
		}
		if (waitpid(worker, &status, WNOHANG) == worker && (WIFEXITED(status) || WIFSIGNALED(status)))
			finish(pg, status, error_status);
	}
	/* sigwaitinfo() failed: wait plainly */
	for (;;) {
		int status;

		if (waitpid(worker, &status, 0) == worker)
			finish(pg, status, error_status);
		else if (errno != EINTR)
			_exit(error_status);
	}
}

int aw_tguard_start(struct aw_tguard *g, int error_status)
{
	struct aw_tguard_page *pg;
	sigset_t set, old;
	pid_t pid;

	g->page = NULL;
	pg = mmap(NULL, sizeof(*pg), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED)
		return -1;
	pg->opening = 0;
	pg->saved_stderr = -1;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (size_t i = 0; i < sizeof(passed_on) / sizeof(passed_on[0]); i++)
		sigaddset(&set, passed_on[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(NULL);	/* or both would write what stdio holds */
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		munmap(pg, sizeof(*pg));
		return -1;
	}
	if (pid > 0)
		watch(pid, pg, &set, error_status);	/* does not return */
	/* a watcher killed outright (SIGKILL) takes the worker with it */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		_exit(error_status);
	sigprocmask(SIG_SETMASK, &old, NULL);
	g->page = pg;
	return 0;
}

void aw_tguard_corrupt(char *buf, size_t len, const char *path, int sig)
{
	snprintf(buf, len, "%s: corrupt trace.dat headers (libtracecmd %s reading them)", path,
		 sig > 0 ? strsignal(sig) : "failed a memory check");
}

bool aw_tguard_active(const struct aw_tguard *g)
{
	return g && g->page;
}

void aw_tguard_enter(struct aw_tguard *g, const char *path)
{
	struct aw_tguard_page *pg;
	int devnull;

	if (!aw_tguard_active(g))
		return;
	pg = g->page;
	snprintf(pg->path, sizeof(pg->path), "%s", path);
	/* a sanitizer's report of the library's crash is noise: the watcher says it in one line */
	fflush(stderr);
	pg->saved_stderr = dup(STDERR_FILENO);
	devnull = open("/dev/null", O_WRONLY);
	if (devnull >= 0) {
		dup2(devnull, STDERR_FILENO);
		close(devnull);
	}
	pg->opening = 1;
}

void aw_tguard_leave(struct aw_tguard *g)
{
	struct aw_tguard_page *pg;

	if (!aw_tguard_active(g))
		return;
	pg = g->page;
	pg->opening = 0;
	if (pg->saved_stderr >= 0) {
		dup2(pg->saved_stderr, STDERR_FILENO);
		close(pg->saved_stderr);
		pg->saved_stderr = -1;
	}
}
