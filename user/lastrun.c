// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The marker a run keeps in the state directory (see lastrun.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "diag.h"
#include "lastrun.h"

#define LASTRUN_TMP "." LASTRUN_FILE ".tmp"
#define LASTRUN_MAX 256 /* a marker's bytes: one short line */
/* a marker renewed within this long belongs to a run that is alive */
#define LASTRUN_LIVE_NS (3 * LASTRUN_BEAT_NS)
#define LASTRUN_COMM "agent-sentinel" /* the name a running owner has */

void lastrun_time(char buf[LASTRUN_TIME_MAX], uint64_t wall_ns)
{
	time_t secs = (time_t)(wall_ns / 1000000000ull);
	struct tm utc;

	if (!gmtime_r(&secs, &utc) || !strftime(buf, LASTRUN_TIME_MAX, "%Y-%m-%dT%H:%M:%SZ", &utc))
		snprintf(buf, LASTRUN_TIME_MAX, "?");
}

static void lastrun_read(int dirfd, struct lastrun_prev *prev)
{
	char buf[LASTRUN_MAX];
	int fd = openat(dirfd, LASTRUN_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n;

	memset(prev, 0, sizeof(*prev));
	if (fd < 0)
		return; /* ENOENT: the last run stopped cleanly, or there was none */
	prev->found = 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	prev->readable = sscanf(buf, "pid=%" SCNu32 " started=%" SCNu64 " alive=%" SCNu64,
				&prev->pid, &prev->started_ns, &prev->alive_ns) == 3;
}

/* Is the marker's run alive and still keeping it: its pid a live (not
 * zombie) agent-sentinel other than us, and the marker renewed lately? (A
 * pid reused after a SIGKILL, a container's restart with the same pid: not
 * the owner.) */
static int lastrun_owned(const struct lastrun_prev *prev)
{
	char path[64], stat[LASTRUN_MAX] = "";
	const char *open_p, *close_p;
	uint64_t now = clock_wall_now();
	size_t n;
	FILE *f;

	if (!prev->readable || prev->pid == (uint32_t)getpid())
		return 0;
	if (prev->alive_ns + LASTRUN_LIVE_NS < now)
		return 0;
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/stat", prev->pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[n] = 0;
	/* "PID (COMM) STATE ...": COMM may hold ')' itself, the last one ends it */
	open_p = strchr(stat, '(');
	close_p = strrchr(stat, ')');
	if (!open_p || !close_p || close_p < open_p || close_p[1] != ' ')
		return 0;
	return close_p - open_p - 1 == (long)strlen(LASTRUN_COMM) &&
	       !strncmp(open_p + 1, LASTRUN_COMM, strlen(LASTRUN_COMM)) && close_p[2] != 'Z' &&
	       close_p[2] != 'X';
}

/* The marker, replaced whole (a rename): never a half-written one. */
static int lastrun_write(struct lastrun *r, uint64_t alive_ns, int sync)
{
	char buf[LASTRUN_MAX];
	int n = snprintf(buf, sizeof(buf), "pid=%" PRIu32 " started=%" PRIu64 " alive=%" PRIu64 "\n",
			 r->pid, r->started_ns, alive_ns);
	int fd = openat(r->dirfd, LASTRUN_TMP, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			0600);
	int err = 0;

	if (fd < 0)
		return -errno;
	errno = 0;
	if (write(fd, buf, (size_t)n) != n || (sync && fdatasync(fd)))
		err = errno ? -errno : -EIO;
	close(fd);
	if (!err && renameat(r->dirfd, LASTRUN_TMP, r->dirfd, LASTRUN_FILE))
		err = -errno;
	return err;
}

int lastrun_open(struct lastrun *r, const char *dir, struct lastrun_prev *prev)
{
	int err;

	memset(prev, 0, sizeof(*prev));
	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	if (!dir || !*dir)
		return 0;
	r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->dirfd < 0) {
		err = -errno;
		diag_err("state_directory %s: %s", dir, strerror(-err));
		return err;
	}
	if (faccessat(r->dirfd, ".", W_OK, AT_EACCESS)) {
		err = -errno;
		diag_err("state_directory %s: not writable: %s", dir, strerror(-err));
		goto fail;
	}
	lastrun_read(r->dirfd, prev);
	if (lastrun_owned(prev)) {
		diag_err("state_directory %s: agent-sentinel pid %" PRIu32
			 " is running and keeps its marker there; give each instance its own",
			 dir, prev->pid);
		err = -EBUSY;
		goto fail;
	}
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->active = 1;
	return 0;
fail:
	close(r->dirfd);
	r->dirfd = -1;
	return err;
}

int lastrun_mark(struct lastrun *r)
{
	int err;

	if (!r->active)
		return 0;
	r->pid = (uint32_t)getpid();
	r->started_ns = clock_wall_now();
	r->next_beat = clock_mono_now() + LASTRUN_BEAT_NS;
	err = lastrun_write(r, r->started_ns, 1);
	if (err)
		diag_err("state_directory %s: cannot write %s: %s", r->dir, LASTRUN_FILE,
			 strerror(-err));
	return err;
}

void lastrun_beat(struct lastrun *r, uint64_t mono_now)
{
	int err;

	if (!r->active || !r->started_ns || mono_now < r->next_beat)
		return;
	r->next_beat = mono_now + LASTRUN_BEAT_NS;
	/* a failed beat only ages the marker: said when it starts failing
	 * (a full disk, a file size limit set on us) and when it recovers */
	err = lastrun_write(r, clock_wall_now(), 0);
	if (err && !r->beat_failed)
		diag_warn("state_directory %s: cannot renew %s: %s", r->dir, LASTRUN_FILE,
			  strerror(-err));
	else if (!err && r->beat_failed)
		diag_warn("state_directory %s: %s renewed again", r->dir, LASTRUN_FILE);
	r->beat_failed = !!err;
}

void lastrun_end(struct lastrun *r)
{
	if (!r->active)
		return;
	if (r->started_ns)
		unlinkat(r->dirfd, LASTRUN_FILE, 0);
	close(r->dirfd);
	r->active = 0;
}

void lastrun_close(struct lastrun *r)
{
	if (!r->active)
		return;
	close(r->dirfd);
	r->active = 0;
}
