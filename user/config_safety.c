// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Refusing a configuration or rules file another user could have written:
 * the agent runs as root and would load it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"

/* ---- file safety ---- */

static int config_refuse(FILE *diag, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int config_refuse(FILE *diag, const char *path, const char *fmt, ...)
{
	va_list ap;

	if (diag) {
		fprintf(diag, "%s: refused: ", path);
		va_start(ap, fmt);
		vfprintf(diag, fmt, ap);
		va_end(ap);
		fprintf(diag, "; the agent runs as root and would load what another user "
			      "wrote\n");
	}
	return -EPERM;
}

/*
 * One inode: owned by root or us, not writable by group or others (a
 * directory above the file may be writable when sticky). what: "file",
 * "directory", "parent directory /x of".
 */
static int config_check_inode(const char *shown, const char *what, const struct stat *st,
			      int allow_sticky, FILE *diag)
{
	uid_t me = geteuid();
	mode_t m = st->st_mode;

	if (st->st_uid != 0 && st->st_uid != me)
		return config_refuse(diag, shown, "%s owned by uid %u, not root", what,
				     (unsigned)st->st_uid);
	if ((m & (S_IWGRP | S_IWOTH)) && !(allow_sticky && S_ISDIR(m) && (m & S_ISVTX)))
		return config_refuse(diag, shown, "%s writable by %s (mode %04o)", what,
				     (m & S_IWGRP) && (m & S_IWOTH) ? "group and others"
				     : (m & S_IWGRP)		    ? "group"
								    : "others",
				     (unsigned)(m & 07777));
	return 0;
}

/* Every directory above abs (an absolute path) up to /. */
static int config_check_parents(const char *shown, const char *abs, FILE *diag)
{
	char dir[PATH_MAX], what[PATH_MAX + 32];
	struct stat st;
	char *slash;
	int err;

	if (strlen(abs) >= sizeof(dir))
		return -ENAMETOOLONG;
	strcpy(dir, abs);
	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash)
			return 0;
		if (slash == dir)
			slash[1] = 0; /* "/" */
		else
			*slash = 0;
		if (stat(dir, &st)) {
			err = -errno;
			if (diag)
				fprintf(diag, "%s: cannot stat %s: %s\n", shown, dir,
					strerror(-err));
			return err;
		}
		snprintf(what, sizeof(what), "directory %s above it is", dir);
		err = config_check_inode(shown, what, &st, 1, diag);
		if (err || !strcmp(dir, "/"))
			return err;
	}
}

static int config_check_one(const char *path, FILE *diag, int top);

/* A rules directory: its *.yaml and *.yml files, as the engine loads them. */
static int config_check_dir_entries(const char *path, FILE *diag)
{
	char child[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(path);
	int err = 0;

	if (!d) {
		err = -errno;
		if (diag)
			fprintf(diag, "%s: cannot open directory: %s\n", path, strerror(-err));
		return err;
	}
	while (!err && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || !((l > 5 && !strcmp(de->d_name + l - 5, ".yaml")) ||
					      (l > 4 && !strcmp(de->d_name + l - 4, ".yml"))))
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", path, de->d_name) >=
		    sizeof(child))
			continue;
		err = config_check_one(child, diag, 0);
	}
	closedir(d);
	return err;
}

static int config_check_one(const char *path, FILE *diag, int top)
{
	char abs[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int err;

	if (stat(path, &st)) {
		err = -errno;
		if (diag)
			fprintf(diag, "%s: cannot stat: %s\n", path, strerror(-err));
		return err;
	}
	if (!S_ISREG(st.st_mode) && !(top && S_ISDIR(st.st_mode))) {
		if (diag)
			fprintf(diag, "%s: refused: not a regular file%s\n", path,
				top ? " or directory" : "");
		return -EPERM;
	}
	err = config_check_inode(path, S_ISDIR(st.st_mode) ? "directory" : "file", &st, 0, diag);
	if (err)
		return err;
	/* the directories above the path as given (a symlink's own directory
	 * decides where it points) and above the file it resolves to */
	if (path[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", path);
	} else {
		if (!getcwd(abs, sizeof(abs)))
			return -errno;
		if (strlen(abs) + 1 + strlen(path) >= sizeof(abs))
			return -ENAMETOOLONG;
		strcat(abs, "/");
		strcat(abs, path);
	}
	err = config_check_parents(path, abs, diag);
	if (err)
		return err;
	if (!realpath(path, real))
		return -errno;
	if (strcmp(real, abs)) {
		err = config_check_parents(path, real, diag);
		if (err)
			return err;
	}
	if (S_ISDIR(st.st_mode))
		return config_check_dir_entries(path, diag);
	return 0;
}

int config_check_file_safety(const char *path, FILE *diag)
{
	return config_check_one(path, diag, 1);
}
