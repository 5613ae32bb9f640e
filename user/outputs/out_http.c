// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * http_output: one POST per alert with libcurl, the body the alert line as
 * Falco sends it to Falcosidekick (Content-Type: application/json, or
 * text/plain when json_output is off). TLS peers are verified unless
 * insecure; ca_cert/ca_path choose the trust anchors, client_cert/client_key
 * present a client certificate (mTLS). One handle per output, so the
 * connection is reused between alerts.
 *
 * Outcomes: a 2xx answer delivers; a server that cannot be reached (refused,
 * no route, unresolvable) is "unavailable" and the alerts wait; a timeout, a
 * 5xx/408/429 answer or a TLS failure is retried max_retries times; any other
 * answer (4xx) fails that alert.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curl_dl.h"
#include "out.h"

struct out_http {
	CURL *curl;
	struct curl_slist *headers;
	char *url, *user_agent, *ca_cert, *ca_path, *client_cert, *client_key;
	int insecure;
	long timeout_ms;
	char errbuf[CURL_ERROR_SIZE];
};

int out_http_global_init(void)
{
	char err[256];

	if (curl_dl_load(err, sizeof(err))) {
		fprintf(stderr, "agent-sentinel: error: output http: %s\n", err);
		return -ENOENT;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "agent-sentinel: error: output http: libcurl init failed\n");
		return -ENOMEM;
	}
	return 0;
}

void out_http_global_cleanup(void)
{
	curl_global_cleanup();
}

static size_t out_http_discard(char *data, size_t size, size_t n, void *arg)
{
	(void)data;
	(void)arg;
	return size * n;
}

/* Called by libcurl at least once a second: abandon the transfer on abort. */
static int out_http_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return out_worker_stopping(arg) ? 1 : 0;
}

static int out_http_classify(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return -EAGAIN;
	case CURLE_ABORTED_BY_CALLBACK:
		return -ECANCELED;
	case CURLE_OUT_OF_MEMORY:
		return -ENOMEM;
	case CURLE_URL_MALFORMAT:
	case CURLE_UNSUPPORTED_PROTOCOL:
		return -EINVAL;
	default: /* timeouts, resets, TLS: worth another try */
		return -ETIMEDOUT;
	}
}

static int out_http_setup(struct out *o)
{
	struct out_http *h = o->be;
	CURL *c = h->curl;
	CURLcode rc = CURLE_OK;

#define OUT_HTTP_OPT(opt, val)                                                                     \
	do {                                                                                       \
		if (rc == CURLE_OK)                                                                \
			rc = curl_easy_setopt(c, (opt), (val));                                    \
	} while (0)
	OUT_HTTP_OPT(CURLOPT_URL, h->url);
#if LIBCURL_VERSION_NUM >= 0x075500 /* 7.85 */
	OUT_HTTP_OPT(CURLOPT_PROTOCOLS_STR, "http,https");
#endif
	OUT_HTTP_OPT(CURLOPT_HTTPHEADER, h->headers);
	OUT_HTTP_OPT(CURLOPT_USERAGENT, h->user_agent);
	OUT_HTTP_OPT(CURLOPT_POST, 1L);
	OUT_HTTP_OPT(CURLOPT_NOSIGNAL, 1L); /* we are a thread: no SIGALRM for DNS timeouts */
	OUT_HTTP_OPT(CURLOPT_TIMEOUT_MS, h->timeout_ms);
	OUT_HTTP_OPT(CURLOPT_CONNECTTIMEOUT_MS, h->timeout_ms);
	OUT_HTTP_OPT(CURLOPT_FOLLOWLOCATION, 0L);
	OUT_HTTP_OPT(CURLOPT_WRITEFUNCTION, out_http_discard);
	OUT_HTTP_OPT(CURLOPT_ERRORBUFFER, h->errbuf);
	OUT_HTTP_OPT(CURLOPT_NOPROGRESS, 0L);
	OUT_HTTP_OPT(CURLOPT_XFERINFOFUNCTION, out_http_progress);
	OUT_HTTP_OPT(CURLOPT_XFERINFODATA, o);
	OUT_HTTP_OPT(CURLOPT_SSL_VERIFYPEER, h->insecure ? 0L : 1L);
	OUT_HTTP_OPT(CURLOPT_SSL_VERIFYHOST, h->insecure ? 0L : 2L);
	if (h->ca_cert)
		OUT_HTTP_OPT(CURLOPT_CAINFO, h->ca_cert);
	if (h->ca_path)
		OUT_HTTP_OPT(CURLOPT_CAPATH, h->ca_path);
	if (h->client_cert) {
		OUT_HTTP_OPT(CURLOPT_SSLCERT, h->client_cert);
		OUT_HTTP_OPT(CURLOPT_SSLKEY, h->client_key);
	}
#undef OUT_HTTP_OPT
	if (rc != CURLE_OK) {
		out_log_err(o, "error", "libcurl: %s", curl_easy_strerror(rc));
		return rc == CURLE_OUT_OF_MEMORY ? -ENOMEM : -EINVAL;
	}
	return 0;
}

static int out_http_write(struct out *o, const struct outmsg *m)
{
	struct out_http *h = o->be;
	const char *body = m->line;
	CURLcode rc;
	long status = 0;

	h->errbuf[0] = '\0';
	rc = curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)m->len);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body);
	if (rc == CURLE_OK)
		rc = curl_easy_perform(h->curl);
	if (rc != CURLE_OK) {
		out_why(o, "POST %s: %s", h->url,
			h->errbuf[0] ? h->errbuf : curl_easy_strerror(rc));
		return out_http_classify(rc);
	}
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status < 300)
		return 0;
	out_why(o, "POST %s: HTTP status %ld", h->url, status);
	if (status >= 500 || status == 408 || status == 429)
		return -ETIMEDOUT;
	return -EBADMSG;
}

static void out_http_close(struct out *o)
{
	struct out_http *h = o->be;

	if (h->curl)
		curl_easy_cleanup(h->curl);
	curl_slist_free_all(h->headers);
	free(h->url);
	free(h->user_agent);
	free(h->ca_cert);
	free(h->ca_path);
	free(h->client_cert);
	free(h->client_key);
	free(h);
	o->be = NULL;
}

static const struct out_ops out_http_ops = {
    .name = "http",
    .write = out_http_write,
    .close = out_http_close,
};

/* Copy s (NULL or "" stays NULL); -ENOMEM if it cannot. */
static int out_http_dup(char **dst, const char *s)
{
	*dst = NULL;
	if (!s || !s[0])
		return 0;
	*dst = strdup(s);
	return *dst ? 0 : -ENOMEM;
}

/* The checks that make a configuration one that can never work. */
static int out_http_check(struct out *o, const struct outputs_config *cfg)
{
	const char *url = cfg->http_output.url;
	const char *files[] = {cfg->http_output.ca_cert, cfg->http_output.client_cert,
			       cfg->http_output.client_key};
	const char *keys[] = {"ca_cert", "client_cert", "client_key"};
	CURLU *u;
	CURLUcode uc;
	char *scheme = NULL;
	size_t i;
	int err = 0;

	if (!url || !url[0]) {
		out_log_err(o, "error", "http_output.url is not set");
		return -EINVAL;
	}
	u = curl_url();
	if (!u)
		return -ENOMEM;
	uc = curl_url_set(u, CURLUPART_URL, url, 0);
	if (uc == CURLUE_OK)
		uc = curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
	if (uc != CURLUE_OK) {
		out_log_err(o, "error", "http_output.url '%s': %s", url, curl_url_strerror(uc));
		err = -EINVAL;
	} else if (strcmp(scheme, "http") && strcmp(scheme, "https")) {
		out_log_err(o, "error", "http_output.url '%s': scheme must be http or https", url);
		err = -EINVAL;
	}
	curl_free(scheme);
	curl_url_cleanup(u);
	if (err)
		return err;
	if (!cfg->http_output.client_cert != !cfg->http_output.client_key) {
		out_log_err(o, "error", "http_output.client_cert and client_key go together");
		return -EINVAL;
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (files[i] && files[i][0] && access(files[i], R_OK)) {
			err = -errno;
			out_log_err(o, "error", "http_output.%s '%s': %s", keys[i], files[i],
				    strerror(-err));
			return err;
		}
	}
	if (cfg->http_output.timeout_ms < 0) {
		out_log_err(o, "error", "http_output.timeout_ms must not be negative");
		return -EINVAL;
	}
	return 0;
}

int out_http_open(struct out *o, const struct outputs_config *cfg)
{
	struct out_http *h;
	int err;

	o->ops = &out_http_ops;
	err = out_http_check(o, cfg);
	if (err)
		return err;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	o->be = h;
	err = out_http_dup(&h->url, cfg->http_output.url);
	if (!err)
		err = out_http_dup(&h->user_agent, cfg->http_output.user_agent
						       ? cfg->http_output.user_agent
						       : OUTPUTS_HTTP_USER_AGENT);
	if (!err)
		err = out_http_dup(&h->ca_cert, cfg->http_output.ca_cert);
	if (!err)
		err = out_http_dup(&h->ca_path, cfg->http_output.ca_path);
	if (!err)
		err = out_http_dup(&h->client_cert, cfg->http_output.client_cert);
	if (!err)
		err = out_http_dup(&h->client_key, cfg->http_output.client_key);
	h->insecure = cfg->http_output.insecure;
	h->timeout_ms =
	    cfg->http_output.timeout_ms ? cfg->http_output.timeout_ms : OUTPUTS_HTTP_TIMEOUT_MS;
	o->max_retries = cfg->http_output.max_retries;
	if (!err) {
		struct curl_slist *l;

		h->headers = curl_slist_append(NULL, cfg->json ? "Content-Type: application/json"
							       : "Content-Type: text/plain");
		/* no "Expect: 100-continue" round trip for larger alerts */
		l = h->headers ? curl_slist_append(h->headers, "Expect:") : NULL;
		if (!l) {
			curl_slist_free_all(h->headers);
			h->headers = NULL;
		}
		h->curl = curl_easy_init();
		if (!h->headers || !h->curl)
			err = -ENOMEM;
	}
	if (!err)
		err = out_http_setup(o);
	if (err) {
		out_http_close(o);
		return err;
	}
	return 0;
}
