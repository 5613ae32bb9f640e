// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* as-interp-static: a fixed-address (ET_EXEC) program with no libc and no
 * loader of its own, linked static and not position-independent
 * (tests/CMakeLists.txt). As another program's ELF interpreter (as-acts
 * interp-fd LOADER as-interp-fd) the kernel maps it where its headers say
 * and the auxiliary vector's AT_BASE is 0: the interpreter of an attacker
 * who wants no loader's help. It only says it ran. x86_64. */

static long interpstatic_sys3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

void _start(void);

void _start(void)
{
	static const char said[] = "static interp ran\n";

	interpstatic_sys3(1 /* write */, 1, (long)said, sizeof(said) - 1);
	interpstatic_sys3(231 /* exit_group */, 0, 0, 0);
	for (;;)
		;
}
