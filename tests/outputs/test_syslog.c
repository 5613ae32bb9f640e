// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The syslog framing: Falco's priority mapping, facilities, the datagram. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <cmocka.h>

#include "out.h"

static void test_levels(void **state)
{
	(void)state;
	/* enum engine_priority order: Emergency=1 .. Debug=8 */
	assert_int_equal(out_syslog_level(1), LOG_EMERG);
	assert_int_equal(out_syslog_level(2), LOG_ALERT);
	assert_int_equal(out_syslog_level(3), LOG_CRIT);
	assert_int_equal(out_syslog_level(4), LOG_ERR);
	assert_int_equal(out_syslog_level(5), LOG_WARNING);
	assert_int_equal(out_syslog_level(6), LOG_NOTICE);
	assert_int_equal(out_syslog_level(7), LOG_INFO);
	assert_int_equal(out_syslog_level(8), LOG_DEBUG);
	assert_int_equal(out_syslog_level(0), LOG_INFO);
	assert_int_equal(out_syslog_level(9), LOG_INFO);
}

static void test_facilities(void **state)
{
	(void)state;
	assert_int_equal(outputs_syslog_facility_parse("user"), LOG_USER);
	assert_int_equal(outputs_syslog_facility_parse("LOCAL0"), LOG_LOCAL0);
	assert_int_equal(outputs_syslog_facility_parse("LOG_DAEMON"), LOG_DAEMON);
	assert_int_equal(outputs_syslog_facility_parse("local7"), LOG_LOCAL7);
	assert_int_equal(outputs_syslog_facility_parse("authpriv"), LOG_AUTHPRIV);
	assert_int_equal(outputs_syslog_facility_parse("local8"), -EINVAL);
	assert_int_equal(outputs_syslog_facility_parse(""), -EINVAL);
	assert_int_equal(outputs_syslog_facility_parse(NULL), -EINVAL);
}

static void test_format(void **state)
{
	char buf[256];
	/* 2024-03-05 07:08:09 UTC; TZ forced to UTC below */
	time_t t = 1709622489;
	int n;

	(void)state;
	n = out_syslog_format(buf, sizeof(buf), LOG_LOCAL3, LOG_WARNING, "sentinel", 4242, t,
			      "{\"rule\":\"x\"}", 12);
	assert_string_equal(buf, "<156>Mar  5 07:08:09 sentinel[4242]: {\"rule\":\"x\"}");
	assert_int_equal(n, (int)strlen(buf));
	n = out_syslog_format(buf, sizeof(buf), LOG_USER, LOG_EMERG, "t", 1, t, "m", 1);
	assert_string_equal(buf, "<8>Mar  5 07:08:09 t[1]: m");
	/* a message that does not fit is cut; the header must fit */
	n = out_syslog_format(buf, 30, LOG_USER, LOG_EMERG, "t", 1, t, "0123456789", 10);
	assert_int_equal(n, 29);
	assert_string_equal(buf, "<8>Mar  5 07:08:09 t[1]: 0123");
	assert_int_equal(out_syslog_format(buf, 10, LOG_USER, LOG_EMERG, "t", 1, t, "m", 1),
			 -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_levels),
	    cmocka_unit_test(test_facilities),
	    cmocka_unit_test(test_format),
	};

	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
