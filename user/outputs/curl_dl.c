// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#define CURL_DL_IMPL
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "curl_dl.h"

struct curl_dl curl_dl;

static pthread_once_t curl_dl_once = PTHREAD_ONCE_INIT;
static char curl_dl_err[256];
static int curl_dl_rc = -1;

static void curl_dl_init(void)
{
	void *h = dlopen(CURL_DL_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(curl_dl_err, sizeof(curl_dl_err), "cannot load %s: %s", CURL_DL_SONAME,
			 dlerror());
		return;
	}
#define CURL_DL_SYM(name, ret, params)                                                  \
	*(void **)&curl_dl.name = dlsym(h, #name);                                       \
	if (!curl_dl.name) {                                                             \
		snprintf(curl_dl_err, sizeof(curl_dl_err), "%s lacks %s (libcurl older than 7.80?)", \
			 CURL_DL_SONAME, #name);                                         \
		return;                                                                  \
	}
	CURL_DL_FUNCS(CURL_DL_SYM)
#undef CURL_DL_SYM
	curl_dl_rc = 0; /* the handle stays open for the life of the process */
}

int curl_dl_load(char *err, size_t cap)
{
	pthread_once(&curl_dl_once, curl_dl_init);
	if (curl_dl_rc && err && cap)
		snprintf(err, cap, "%s", curl_dl_err);
	return curl_dl_rc;
}
