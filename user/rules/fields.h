/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The field table: one X-macro line per field generates the enum, the
 * name/type/doc table and the count. */
#ifndef AS_FIELDS_H
#define AS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

enum ftype { T_STR, T_NUM, T_BOOL };

/* field flags */
#define FA_IDX 1u /* takes [N] */
#define FA_ANY 2u /* with no [N], matches any ancestor (proc.aname, proc.apid) */
#define FA_ARG 4u /* takes a name: evt.arg.NAME or evt.arg[NAME] */
#define FF_TIME 8u /* number of ns printed as a time of day */
#define FF_BUF 16u /* value is built into the slot's buffer */
#define FF_IP 32u /* an IP address (a string to us, Falco's PT_IPADDR): =, !=, in, intersects */

/* FIELD(id, name, type, flags, doc) */
#define FIELD_LIST(FIELD)                                                                        \
	FIELD(EVT_TYPE, "evt.type", T_STR, 0, "Event type: the syscall name (execve, openat, connect, setuid, clone, procexit, ...)") \
	FIELD(EVT_DIR, "evt.dir", T_STR, 0, "Event direction; always '<' (every event is a syscall exit)") \
	FIELD(EVT_TIME, "evt.time", T_NUM, FF_TIME | FF_BUF, "Event time; in outputs HH:MM:SS.nnnnnnnnn (local time), in output_fields integer ns") \
	FIELD(EVT_TIME_ISO, "evt.time.iso8601", T_STR, FF_BUF, "Event time as RFC 3339 UTC with nanoseconds") \
	FIELD(EVT_RAWTIME, "evt.rawtime", T_NUM, 0, "Event time in ns since the epoch") \
	FIELD(EVT_NUM, "evt.num", T_NUM, 0, "Event number in this stream, from 1") \
	FIELD(EVT_RES, "evt.res", T_STR, FF_BUF, "Result: SUCCESS or the errno name (ENOENT, ...)") \
	FIELD(EVT_RAWRES, "evt.rawres", T_NUM, 0, "Result as a number (fd, 0, or -errno)") \
	FIELD(EVT_FAILED, "evt.failed", T_BOOL, 0, "true when the syscall returned an error") \
	FIELD(EVT_IS_OPEN_READ, "evt.is_open_read", T_BOOL, 0, "Open event with O_RDONLY or O_RDWR") \
	FIELD(EVT_IS_OPEN_WRITE, "evt.is_open_write", T_BOOL, 0, "Open event with O_WRONLY or O_RDWR") \
	FIELD(EVT_ARG, "evt.arg", T_STR, FA_ARG | FF_BUF, "Event argument by name: evt.arg.name/path/filename/flags/mode/fd/dirfd/res/uid/gid/tuple/addr") \
	FIELD(PROC_NAME, "proc.name", T_STR, 0, "Process name (comm, up to 15 chars)") \
	FIELD(PROC_PID, "proc.pid", T_NUM, 0, "Process id (tgid)") \
	FIELD(PROC_TID, "proc.tid", T_NUM, 0, "Thread id") \
	FIELD(PROC_PPID, "proc.ppid", T_NUM, 0, "Parent process id") \
	FIELD(PROC_PNAME, "proc.pname", T_STR, 0, "Parent process name") \
	FIELD(PROC_EXE, "proc.exe", T_STR, 0, "First command-line argument (argv[0]) as given") \
	FIELD(PROC_EXEPATH, "proc.exepath", T_STR, 0, "Full path of the executable, from the kernel") \
	FIELD(PROC_CMDLINE, "proc.cmdline", T_STR, FF_BUF, "Process name and arguments from argv[1], space separated") \
	FIELD(PROC_ARGS, "proc.args", T_STR, FF_BUF, "Arguments from argv[1], space separated") \
	FIELD(PROC_CWD, "proc.cwd", T_STR, 0, "Current working directory at exec") \
	FIELD(PROC_ANAME, "proc.aname", T_STR, FA_IDX | FA_ANY, "Ancestor name: [0] the process, [1] parent, [2] grandparent...; no index: any ancestor") \
	FIELD(PROC_APID, "proc.apid", T_NUM, FA_IDX | FA_ANY, "Ancestor pid: [0] the process, [1] parent...; no index: any ancestor") \
	FIELD(PROC_SID, "proc.sid", T_NUM, 0, "Session id") \
	FIELD(PROC_VPID, "proc.vpid", T_NUM, 0, "Process id in its own pid namespace") \
	FIELD(PROC_TTY, "proc.tty", T_NUM, 0, "Controlling terminal (major << 20 | minor), 0 if none") \
	FIELD(PROC_CGROUP, "proc.cgroup", T_STR, FF_BUF, "Not in Falco: cgroup v2 path, followed by the v1 hierarchies on a v1/hybrid host") \
	FIELD(THREAD_TID, "thread.tid", T_NUM, 0, "Thread id") \
	FIELD(THREAD_CGROUPS, "thread.cgroups", T_STR, 0, "Every cgroup hierarchy as name=path, space separated") \
	FIELD(CONTAINER_ID, "container.id", T_STR, 0, "12-hex-char container id from docker/containerd/cri-o cgroups, else 'host'") \
	FIELD(USER_UID, "user.uid", T_NUM, 0, "Effective user id") \
	FIELD(USER_NAME, "user.name", T_STR, 0, "Effective user name") \
	FIELD(USER_LOGINUID, "user.loginuid", T_NUM, 0, "Audit login uid, -1 when unset") \
	FIELD(GROUP_GID, "group.gid", T_NUM, 0, "Effective group id") \
	FIELD(GROUP_NAME, "group.name", T_STR, 0, "Effective group name") \
	FIELD(FD_NAME, "fd.name", T_STR, FF_BUF, "File: absolute path; IP socket: cip:cport->sip:sport; unix socket: its path") \
	FIELD(FD_NUM, "fd.num", T_NUM, 0, "File descriptor, -1 when the open failed") \
	FIELD(FD_TYPECHAR, "fd.typechar", T_STR, 0, "f file, 4 IPv4, 6 IPv6, u unix") \
	FIELD(FD_TYPE, "fd.type", T_STR, 0, "file, ipv4, ipv6, unix") \
	FIELD(FD_DIRECTORY, "fd.directory", T_STR, FF_BUF, "Directory of a file path") \
	FIELD(FD_FILENAME, "fd.filename", T_STR, 0, "Last component of a file path") \
	FIELD(FD_SIP, "fd.sip", T_STR, FF_BUF | FF_IP, "Server IP address") \
	FIELD(FD_SPORT, "fd.sport", T_NUM, 0, "Server port") \
	FIELD(FD_CIP, "fd.cip", T_STR, FF_BUF | FF_IP, "Client IP address") \
	FIELD(FD_CPORT, "fd.cport", T_NUM, 0, "Client port") \
	FIELD(FD_RIP, "fd.rip", T_STR, FF_BUF | FF_IP, "Remote IP address") \
	FIELD(FD_RPORT, "fd.rport", T_NUM, 0, "Remote port") \
	FIELD(FD_L4PROTO, "fd.l4proto", T_STR, 0, "tcp, udp, icmp, raw") \
	FIELD(FD_SOCKFAMILY, "fd.sockfamily", T_STR, 0, "ip or unix") \
	FIELD(AGENT_SESSION, "agent.session", T_STR, 0, "Not in Falco: the agent session id (AGENT_SESSION_ID) of the process")

#define FIELD_ENUM(id, name, type, flags, doc) F_##id,
enum field_id { FIELD_LIST(FIELD_ENUM) F_MAX };
#undef FIELD_ENUM

struct field_info {
	const char *name;
	int type;
	unsigned flags;
	const char *doc;
};

extern const struct field_info fields_table[F_MAX];

/* Find a field by its name (without [arg]); -1 if unknown. */
int fields_lookup(const char *name);
/* A Falco field (or field class) we do not implement. */
int fields_falco_known(const char *name);
const char *fields_type_name(int type);
/* Is evt.arg.NAME supported? */
int fields_arg_known(const char *arg);

#endif /* AS_FIELDS_H */
