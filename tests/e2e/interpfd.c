// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* as-interp-fd: a program linked with --dynamic-linker=/proc/self/fd/9
 * (tests/CMakeLists.txt). Whatever descriptor 9 holds at its exec is the
 * ELF interpreter the kernel maps and runs first; as-acts interp-fd puts a
 * memfd holding the system's loader there. It only says it ran. */
#include <stdio.h>

int main(void)
{
	puts("interp-fd ran");
	return 0;
}
