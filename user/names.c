// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include "names.h"
#include "abi.h"

#define NAMES_SC_NAME(id, name, type) [AS_SC_##id] = name,
static const char *const syscall_names[AS_SC_MAX] = { AS_SYSCALL_LIST(NAMES_SC_NAME) };
#undef NAMES_SC_NAME

/* The event type each syscall belongs to. */
#define NAMES_SC_TYPE(id, name, type) [AS_SC_##id] = type,
static const unsigned char syscall_type[AS_SC_MAX] = { AS_SYSCALL_LIST(NAMES_SC_TYPE) };
#undef NAMES_SC_TYPE

const char *names_evt_type(unsigned type, unsigned syscall)
{
	if (type == AS_EV_PROC)
		return "procinfo";
	if (syscall > AS_SC_NONE && syscall < AS_SC_MAX && syscall_type[syscall] == type)
		return syscall_names[syscall];
	return "unknown";
}

const char *names_event_kind(unsigned type)
{
	static const char *const kinds[AS_EV_MAX] = {
		[AS_EV_NONE] = "none",	     [AS_EV_EXEC] = "exec",	  [AS_EV_FORK] = "fork",
		[AS_EV_EXIT] = "exit",	     [AS_EV_OPEN] = "open",	  [AS_EV_CONNECT] = "connect",
		[AS_EV_SETID] = "setid",     [AS_EV_CAPSET] = "capset",	  [AS_EV_PROC] = "proc",
		[AS_EV_FILE] = "file",	     [AS_EV_SYS] = "sys",	  [AS_EV_URING] = "uring",
	};

	return type < AS_EV_MAX ? kinds[type] : "unknown";
}

unsigned names_syscall_type(unsigned syscall)
{
	return syscall < AS_SC_MAX ? syscall_type[syscall] : AS_EV_NONE;
}

int names_evt_type_parse(const char *name, unsigned *type, unsigned *syscall)
{
	for (unsigned i = AS_SC_NONE + 1; i < AS_SC_MAX; i++) {
		if (strcmp(syscall_names[i], name) == 0) {
			*type = syscall_type[i];
			*syscall = i;
			return 0;
		}
	}
	return -1;
}

#define ERRNO_NAME(e) [e] = #e
static const char *const errno_names[] = {
	ERRNO_NAME(EPERM),   ERRNO_NAME(ENOENT),	 ERRNO_NAME(ESRCH),	   ERRNO_NAME(EINTR),
	ERRNO_NAME(EIO),     ERRNO_NAME(ENXIO),	 ERRNO_NAME(E2BIG),	   ERRNO_NAME(ENOEXEC),
	ERRNO_NAME(EBADF),   ERRNO_NAME(ECHILD),	 ERRNO_NAME(EAGAIN),	   ERRNO_NAME(ENOMEM),
	ERRNO_NAME(EACCES),  ERRNO_NAME(EFAULT),	 ERRNO_NAME(EBUSY),	   ERRNO_NAME(EEXIST),
	ERRNO_NAME(EXDEV),   ERRNO_NAME(ENODEV),	 ERRNO_NAME(ENOTDIR),	   ERRNO_NAME(EISDIR),
	ERRNO_NAME(EINVAL),  ERRNO_NAME(ENFILE),	 ERRNO_NAME(EMFILE),	   ERRNO_NAME(ENOTTY),
	ERRNO_NAME(ETXTBSY), ERRNO_NAME(EFBIG),	 ERRNO_NAME(ENOSPC),	   ERRNO_NAME(ESPIPE),
	ERRNO_NAME(EROFS),   ERRNO_NAME(EMLINK),	 ERRNO_NAME(EPIPE),	   ERRNO_NAME(ERANGE),
	ERRNO_NAME(ENAMETOOLONG), ERRNO_NAME(ENOSYS),	 ERRNO_NAME(ELOOP),	   ERRNO_NAME(ENOTSOCK),
	ERRNO_NAME(EAFNOSUPPORT), ERRNO_NAME(EADDRINUSE), ERRNO_NAME(EADDRNOTAVAIL),
	ERRNO_NAME(ENETUNREACH), ERRNO_NAME(ECONNRESET), ERRNO_NAME(EISCONN), ERRNO_NAME(ETIMEDOUT),
	ERRNO_NAME(ECONNREFUSED), ERRNO_NAME(EHOSTUNREACH), ERRNO_NAME(EALREADY),
	ERRNO_NAME(EINPROGRESS), ERRNO_NAME(EPROTOTYPE), ERRNO_NAME(EOPNOTSUPP), ERRNO_NAME(EDQUOT),
	ERRNO_NAME(ENETDOWN), ERRNO_NAME(EDESTADDRREQ), ERRNO_NAME(EPROTONOSUPPORT),
	ERRNO_NAME(ENOTBLK), ERRNO_NAME(EDEADLK), ERRNO_NAME(ENOLCK), ERRNO_NAME(ENOTEMPTY),
	ERRNO_NAME(ENOMSG), ERRNO_NAME(EIDRM), ERRNO_NAME(ENODATA), ERRNO_NAME(ETIME),
	ERRNO_NAME(ENOLINK), ERRNO_NAME(EPROTO), ERRNO_NAME(EBADMSG), ERRNO_NAME(EOVERFLOW),
	ERRNO_NAME(EBADFD), ERRNO_NAME(EILSEQ), ERRNO_NAME(EUSERS), ERRNO_NAME(EMSGSIZE),
	ERRNO_NAME(ENOPROTOOPT), ERRNO_NAME(ESOCKTNOSUPPORT), ERRNO_NAME(EPFNOSUPPORT),
	ERRNO_NAME(ENETRESET), ERRNO_NAME(ECONNABORTED), ERRNO_NAME(ENOBUFS), ERRNO_NAME(ENOTCONN),
	ERRNO_NAME(ESHUTDOWN), ERRNO_NAME(ETOOMANYREFS), ERRNO_NAME(EHOSTDOWN), ERRNO_NAME(ESTALE),
	ERRNO_NAME(EREMOTEIO), ERRNO_NAME(ENOMEDIUM), ERRNO_NAME(EMEDIUMTYPE), ERRNO_NAME(ECANCELED),
	ERRNO_NAME(ENOKEY), ERRNO_NAME(EKEYEXPIRED), ERRNO_NAME(EKEYREVOKED),
	ERRNO_NAME(EKEYREJECTED), ERRNO_NAME(EOWNERDEAD), ERRNO_NAME(ENOTRECOVERABLE),
	ERRNO_NAME(ERFKILL), ERRNO_NAME(EHWPOISON), ERRNO_NAME(ECHRNG), ERRNO_NAME(ENOSTR),
	ERRNO_NAME(ENOSR), ERRNO_NAME(ENOTNAM), ERRNO_NAME(EISNAM),
};

const char *names_res(int64_t res, char buf[16])
{
	uint64_t e = res < 0 ? -(uint64_t)res : 0; /* INT64_MIN has no int64_t negation */

	if (res >= 0)
		return "SUCCESS";
	if (e < sizeof(errno_names) / sizeof(errno_names[0]) && errno_names[e])
		return errno_names[e];
	snprintf(buf, 16, "E%u", (unsigned)(e > 999999 ? 999999 : e));
	return buf;
}

const char *names_sockfamily(unsigned family)
{
	switch (family) {
	case AF_INET:
	case AF_INET6:
		return "ip";
	case AF_UNIX:
		return "unix";
	default:
		return NULL;
	}
}

const char *names_l4proto(unsigned family, unsigned proto, unsigned sock_type)
{
	if (family != AF_INET && family != AF_INET6)
		return NULL;
	switch (proto) {
	case IPPROTO_TCP:
		return "tcp";
	case IPPROTO_UDP:
		return "udp";
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return "icmp";
	default:
		break;
	}
	if (sock_type == SOCK_RAW)
		return "raw";
	return NULL;
}
