// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Alerts, per event: Falco's JSON line (or the human line) written from
 * fixed buffers, with the pieces output.c prepared at load.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rules.h"
#include "json.h"

static void time_of_day(uint64_t ts, char *buf, size_t cap)
{
	time_t secs = (time_t)(ts / 1000000000ull);
	struct tm tm;

	localtime_r(&secs, &tm);
	snprintf(buf, cap, "%02d:%02d:%02d.%09llu", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (unsigned long long)(ts % 1000000000ull));
}

void output_value_text(const struct fval *v, int field, char *buf, size_t cap)
{
	if (!v->present) {
		snprintf(buf, cap, "<NA>");
	} else if (v->type == T_STR) {
		snprintf(buf, cap, "%.*s", (int)v->len, v->s);
	} else if (v->type == T_BOOL) {
		snprintf(buf, cap, "%s", v->n ? "true" : "false");
	} else if (field >= 0 && (fields_table[field].flags & FF_TIME)) {
		time_of_day((uint64_t)v->n, buf, cap);
	} else if (cap >= JW_NUM_MAX) {
		jw_fmt_i64(buf, v->n);
	} else {
		snprintf(buf, cap, "%lld", (long long)v->n);
	}
}

struct sbuf {
	char *b;
	size_t cap, len;
};

static void sb_put(struct sbuf *s, const char *p, size_t n)
{
	if (s->len + n >= s->cap)
		n = s->cap - 1 - s->len;
	memcpy(s->b + s->len, p, n);
	s->len += n;
	s->b[s->len] = 0;
}

/* One alert line (without newline): to the caller's emit hook when set, else to out. */
static void output_write(struct engine *e, const struct rule *r, const char *line, size_t len,
			 FILE *out)
{
	if (e->opts.emit) {
		e->opts.emit(e->opts.emit_ctx, line, len, r->prio, r->name);
		return;
	}
	fwrite(line, 1, len, out);
	fputc('\n', out);
}

/* Keys every line may carry, as jw_key writes them */
#define OUTPUT_KEY_SESSION ",\"agent.session\":"
#define OUTPUT_KEY_SEQ ",\"agent.seq\":"

/* A value after its key: a string, a number, true/false or null. */
void output_json_value(struct jw *w, const struct fval *v)
{
	char num[JW_NUM_MAX];

	if (!v->present) {
		jw_raw(w, "null", 4);
	} else if (v->type == T_STR) {
		jw_raw(w, "\"", 1);
		jw_escape(w, v->s, v->len);
		jw_raw(w, "\"", 1);
	} else if (v->type == T_BOOL) {
		if (v->n)
			jw_raw(w, "true", 4);
		else
			jw_raw(w, "false", 5);
	} else {
		jw_raw(w, num, jw_fmt_i64(num, v->n));
	}
}

/* A key of output_fields from its ,"key": form (n bytes), without the
 * comma when it is the first; quote: with the '"' that follows it. */
static void output_key(struct jw *w, const char *json, size_t n, int quote)
{
	size_t skip = !w->need_comma;

	w->need_comma = 1;
	jw_raw(w, json + skip, n - skip + (quote ? 1 : 0));
}

/* Every alert of an agent session carries agent.session in output_fields,
 * whether or not the rule's output names it: it is what ties an alert to the
 * agent-bwrap launch that started the tree. */
static void output_session(struct evctx *c, const struct rule *r, struct jw *w)
{
	struct fval v = { 0 };
	char buf[AS_SESSION_MAX];

	if (r->has_session_key)
		return;
	fields_extract(c, F_AGENT_SESSION, -1, NULL, &v, buf, sizeof(buf));
	if (v.present) {
		output_key(w, OUTPUT_KEY_SESSION, sizeof(OUTPUT_KEY_SESSION) - 1, 0);
		output_json_value(w, &v);
	}
}

static void output_seq(struct engine *e, struct jw *w)
{
	char num[JW_NUM_MAX];

	output_key(w, OUTPUT_KEY_SEQ, sizeof(OUTPUT_KEY_SEQ) - 1, 0);
	jw_raw(w, num, jw_fmt_u64(num, ++e->seq));
}

/* The human text of a value into s; in text mode control bytes are shown as
 * \xNN so one alert stays one line. */
static void sb_value(struct sbuf *s, const struct fval *v, int field, int width, int text_mode)
{
	char num[64];
	const char *p;
	size_t n, start = s->len;

	if (v->present && v->type == T_STR) {
		p = v->s;
		n = v->len;
	} else {
		output_value_text(v, field, num, sizeof(num));
		p = num;
		n = strlen(num);
	}
	if (!text_mode) {
		sb_put(s, p, n);
	} else {
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)p[i];

			if (c < 0x20 || c == 0x7f) {
				char esc[5];

				snprintf(esc, sizeof(esc), "\\x%02x", c);
				sb_put(s, esc, 4);
			} else {
				sb_put(s, p + i, 1);
			}
		}
	}
	while ((int)(s->len - start) < width && s->len + 1 < s->cap)
		sb_put(s, " ", 1);
}

/* ".nnnnnnnnn" of ns < 10^9: two digits a step, from the right */
static void output_frac(char frac[OUTPUT_FRAC_LEN], unsigned long long ns)
{
	static const char pairs[201] = "0001020304050607080910111213141516171819"
				       "2021222324252627282930313233343536373839"
				       "4041424344454647484950515253545556575859"
				       "6061626364656667686970717273747576777879"
				       "8081828384858687888990919293949596979899";
	unsigned v = (unsigned)(ns % 1000000000ull);

	frac[0] = '.';
	for (int i = OUTPUT_FRAC_LEN - 2; i >= 2; i -= 2) {
		unsigned d = (v % 100) * 2;

		frac[i] = pairs[d];
		frac[i + 1] = pairs[d + 1];
		v /= 100;
	}
	frac[1] = (char)('0' + v);
}

/* The cached formatting of second secs. */
static void output_second(struct engine *e, time_t secs)
{
	struct tm tm;

	if (e->second.secs == (int64_t)secs)
		return;
	localtime_r(&secs, &tm);
	snprintf(e->second.tod, sizeof(e->second.tod) - OUTPUT_FRAC_LEN, "%02d:%02d:%02d",
		 tm.tm_hour % 100, tm.tm_min % 100, tm.tm_sec % 100);
	gmtime_r(&secs, &tm);
	if (!strftime(e->second.iso, sizeof(e->second.iso) - OUTPUT_FRAC_LEN - 3,
		      "%Y-%m-%dT%H:%M:%S", &tm))
		e->second.iso[0] = 0;
	e->second.todlen = strlen(e->second.tod);
	e->second.isolen = strlen(e->second.iso);
	e->second.secs = (int64_t)secs;
}

/* The alert's stamps after the cached second: "HH:MM:SS.nnnnnnnnn" and
 * "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ" (lengths in *todlen, *isolen), the
 * latter followed by the line's closing "} (not counted). */
static void output_stamps(struct engine *e, uint64_t ts, size_t *todlen, size_t *isolen)
{
	char *frac;

	output_second(e, (time_t)(ts / 1000000000ull));
	frac = e->second.tod + e->second.todlen;
	output_frac(frac, ts % 1000000000ull);
	memcpy(e->second.iso + e->second.isolen, frac, OUTPUT_FRAC_LEN);
	memcpy(e->second.iso + e->second.isolen + OUTPUT_FRAC_LEN, "Z\"}", 3);
	*todlen = e->second.todlen + OUTPUT_FRAC_LEN;
	*isolen = e->second.isolen + OUTPUT_FRAC_LEN + 1;
}

/* The rule's output text with its fields' values (text_mode: control bytes
 * as \xNN), appended to s. */
static void output_segs(struct evctx *c, const struct rule *r, struct sbuf *s, int text_mode)
{
	struct engine *e = c->e;
	static const struct fval missing = { 0 };

	for (size_t i = 0; i < r->nsegs; i++) {
		const struct outseg *g = &r->segs[i];

		if (g->lit) {
			sb_put(s, g->lit, g->litlen);
		} else if (g->slot >= 0) {
			const struct slot *sl = &e->slots[g->slot];

			sb_value(s, eval_slot(c, g->slot), sl->xform ? -1 : sl->field, g->width,
				 text_mode);
		} else {
			sb_value(s, &missing, -1, g->width, text_mode);
		}
	}
}

/* The output text, as it is shown (text_mode: control bytes as \xNN), into s. */
static void output_text(struct evctx *c, const struct rule *r, struct sbuf *s, const char *tod,
			size_t todlen, int text_mode)
{
	s->b[0] = 0;
	sb_put(s, tod, todlen);
	sb_put(s, ": ", 2);
	sb_put(s, engine_priority_name(r->prio), strlen(engine_priority_name(r->prio)));
	sb_put(s, " ", 1);
	output_segs(c, r, s, text_mode);
}

size_t output_format(struct evctx *c, const struct rule *r, char *buf, size_t cap)
{
	struct sbuf s = { .b = buf, .cap = cap };

	buf[0] = 0;
	output_segs(c, r, &s, 1);
	return s.len;
}

/* What output_fields may copy of a value the output text showed: its
 * escaped bytes in the line, quoted (a string) or as they are. */
enum output_reuse_kind { OUTPUT_REUSE_NONE, OUTPUT_REUSE_STR, OUTPUT_REUSE_RAW };

struct output_reuse {
	size_t off, len;
	int kind;
};

#define OUTPUT_SPACES "                                " /* a width's padding, in runs */

static void output_pad(struct jw *w, size_t n)
{
	const size_t run = sizeof(OUTPUT_SPACES) - 1;

	for (; n > run && !w->overflow; n -= run)
		jw_raw(w, OUTPUT_SPACES, run);
	jw_raw(w, OUTPUT_SPACES, n);
}

/* One value of the output text, escaped into w as sb_value shows it (JSON
 * mode); returns its length before escaping (what a width pads), or -1 for a
 * string with a byte above 0x7f. */
static long output_text_json_value(struct jw *w, const struct fval *v, int field,
				   struct output_reuse *u)
{
	char num[64];
	size_t n;

	u->off = w->len;
	u->kind = OUTPUT_REUSE_RAW; /* what output_json_value writes too */
	if (!v->present) {
		n = 4;
		jw_raw(w, "<NA>", n);
		u->kind = OUTPUT_REUSE_NONE; /* null there */
	} else if (v->type == T_STR) {
		if (jw_escape_ascii(w, v->s, v->len))
			return -1;
		n = v->len;
		u->kind = OUTPUT_REUSE_STR;
	} else if (v->type == T_BOOL) {
		n = v->n ? 4 : 5;
		jw_raw(w, v->n ? "true" : "false", n);
	} else if (field >= 0 && (fields_table[field].flags & FF_TIME)) {
		output_value_text(v, field, num, sizeof(num));
		n = strlen(num);
		jw_escape(w, num, n); /* digits, ':' and '.' */
		u->kind = OUTPUT_REUSE_NONE; /* a number there */
	} else {
		n = jw_fmt_i64(num, v->n);
		jw_raw(w, num, n);
	}
	u->len = w->len - u->off;
	return (long)n;
}

/*
 * The output text escaped straight into w, as jw_escape of output_text would
 * write it: a rule whose literals are ASCII, while every value is ASCII too
 * (an ASCII byte escapes alone, wherever it is). 0; -1 when it cannot be (a
 * value above ASCII, or the line is full: a cut line is cut where the whole
 * text's escape would cut it), w->len then to be rewound. u[i]: where
 * segment i's value went, for the first OUTPUT_REUSE_MAX segments.
 */
static int output_text_json(struct evctx *c, const struct rule *r, struct jw *w,
			    const char *tod, size_t todlen, struct output_reuse *u)
{
	struct engine *e = c->e;
	static const struct fval missing = { 0 };

	jw_raw(w, tod, todlen);
	jw_raw(w, r->json_prio, r->json_prio_len);
	for (size_t i = 0; i < r->nsegs; i++) {
		const struct outseg *g = &r->segs[i];
		struct output_reuse spare, *ui = i < OUTPUT_REUSE_MAX ? &u[i] : &spare;
		long n;

		if (g->lit) {
			jw_raw(w, g->json, g->jsonlen);
			continue;
		}
		if (g->slot >= 0) {
			const struct slot *sl = &e->slots[g->slot];

			n = output_text_json_value(w, eval_slot(c, g->slot),
						   sl->xform ? -1 : sl->field, ui);
		} else {
			n = output_text_json_value(w, &missing, -1, ui);
		}
		if (n < 0)
			return -1;
		if (n < g->width)
			output_pad(w, (size_t)(g->width - n));
	}
	return w->overflow ? -1 : 0;
}

void output_alert(struct evctx *c, const struct rule *r, FILE *out)
{
	struct engine *e = c->e;
	struct sbuf s = { .b = e->textbuf, .cap = OUTPUT_LINE_MAX };
	static const struct fval missing = { 0 };
	struct output_reuse reuse[OUTPUT_REUSE_MAX];
	const char *tod = e->second.tod, *iso = e->second.iso;
	size_t todlen, isolen, mark;
	int direct;
	struct jw w;

	output_stamps(e, c->ev->ts, &todlen, &isolen);
	if (!e->opts.json) {
		output_text(c, r, &s, tod, todlen, 1);
		output_write(e, r, s.b, s.len, out);
		return;
	}
	/* the constant pieces were written once (output_init, output_prepare) */
	jw_init(&w, e->line, OUTPUT_LINE_MAX);
	jw_raw(&w, e->json_head, e->json_head_len);
	mark = w.len;
	direct = r->json_direct && output_text_json(c, r, &w, tod, todlen, reuse) == 0;
	if (!direct) { /* the text whole, then escaped whole */
		w.len = mark;
		w.overflow = 0;
		output_text(c, r, &s, tod, todlen, 0);
		jw_escape(&w, s.b, s.len);
	}
	if (!direct || !r->nsegs || !r->segs[r->nsegs - 1].lit) /* else with the last literal */
		jw_raw(&w, OUTPUT_FIELDS_OPEN, sizeof(OUTPUT_FIELDS_OPEN) - 1);
	for (size_t i = 0; i <= r->nkeys; i++) {
		const struct outkey *k;
		const struct output_reuse *u;

		if (i == r->seq_at && e->opts.seq)
			output_seq(e, &w);
		if (i == r->session_at)
			output_session(c, r, &w);
		if (i == r->nkeys)
			break;
		k = &r->keys[i]; /* not before: keys is NULL when there are none */
		u = direct && k->seg >= 0 ? &reuse[k->seg] : NULL;
		if (u && u->kind == OUTPUT_REUSE_STR) { /* escaped once, in the text */
			output_key(&w, k->json, k->jsonlen, 1);
			jw_raw(&w, w.buf + u->off, u->len);
			jw_raw(&w, "\"", 1);
		} else if (u && u->kind == OUTPUT_REUSE_RAW) {
			output_key(&w, k->json, k->jsonlen, 0);
			jw_raw(&w, w.buf + u->off, u->len);
		} else {
			output_key(&w, k->json, k->jsonlen, 0);
			output_json_value(&w, k->slot >= 0 ? eval_slot(c, k->slot) : &missing);
		}
	}
	jw_raw(&w, r->json_tail, r->json_tail_len);
	/* digits, '-', ':', 'T', '.', 'Z': nothing to escape; then "} */
	jw_raw(&w, iso, isolen + 2);
	if (jw_finish(&w) >= 0)
		w.len--; /* the newline: output_write adds its own */
	output_write(e, r, w.buf, w.len, out); /* cut short or not: one line */
}
