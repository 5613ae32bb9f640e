/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libcurl, loaded with dlopen() when an HTTP output is configured. Linked
 * at start, libcurl and what it pulls in (OpenSSL, GnuTLS, Kerberos, ...)
 * cost some 4 MB of resident memory on every host, which the default
 * outputs never use. Include this instead of <curl/curl.h>: the curl_*
 * names below then call through the loaded library.
 */
#ifndef AS_CURL_DL_H
#define AS_CURL_DL_H

#define CURL_DISABLE_TYPECHECK /* curl_easy_setopt stays a plain call */
#include <curl/curl.h>

#define CURL_DL_SONAME "libcurl.so.4"

/* X(name, return type, parameters) for every libcurl function we call */
#define CURL_DL_FUNCS(X)                                                              \
	X(curl_global_init, CURLcode, (long flags))                                   \
	X(curl_global_cleanup, void, (void))                                          \
	X(curl_easy_init, CURL *, (void))                                             \
	X(curl_easy_setopt, CURLcode, (CURL * curl, CURLoption option, ...))          \
	X(curl_easy_perform, CURLcode, (CURL * curl))                                 \
	X(curl_easy_getinfo, CURLcode, (CURL * curl, CURLINFO info, ...))             \
	X(curl_easy_cleanup, void, (CURL * curl))                                     \
	X(curl_easy_strerror, const char *, (CURLcode code))                          \
	X(curl_slist_append, struct curl_slist *, (struct curl_slist * l, const char *s)) \
	X(curl_slist_free_all, void, (struct curl_slist * l))                         \
	X(curl_url, CURLU *, (void))                                                  \
	X(curl_url_cleanup, void, (CURLU * u))                                        \
	X(curl_url_set, CURLUcode, (CURLU * u, CURLUPart part, const char *s, unsigned flags)) \
	X(curl_url_get, CURLUcode, (const CURLU *u, CURLUPart part, char **s, unsigned flags)) \
	X(curl_url_strerror, const char *, (CURLUcode code))                          \
	X(curl_free, void, (void *p))

#define CURL_DL_PTR(name, ret, params) ret(*name) params;
struct curl_dl {
	CURL_DL_FUNCS(CURL_DL_PTR)
};
#undef CURL_DL_PTR

extern struct curl_dl curl_dl;

/* Load libcurl (once; later calls return the first result). 0, or -1 with a
 * one-line reason in err. */
int curl_dl_load(char *err, size_t cap);

#ifndef CURL_DL_IMPL
#undef curl_easy_setopt /* curl.h's three-argument check macros */
#undef curl_easy_getinfo
#define curl_global_init curl_dl.curl_global_init
#define curl_global_cleanup curl_dl.curl_global_cleanup
#define curl_easy_init curl_dl.curl_easy_init
#define curl_easy_setopt curl_dl.curl_easy_setopt
#define curl_easy_perform curl_dl.curl_easy_perform
#define curl_easy_getinfo curl_dl.curl_easy_getinfo
#define curl_easy_cleanup curl_dl.curl_easy_cleanup
#define curl_easy_strerror curl_dl.curl_easy_strerror
#define curl_slist_append curl_dl.curl_slist_append
#define curl_slist_free_all curl_dl.curl_slist_free_all
#define curl_url curl_dl.curl_url
#define curl_url_cleanup curl_dl.curl_url_cleanup
#define curl_url_set curl_dl.curl_url_set
#define curl_url_get curl_dl.curl_url_get
#define curl_url_strerror curl_dl.curl_url_strerror
#define curl_free curl_dl.curl_free
#endif

#endif /* AS_CURL_DL_H */
