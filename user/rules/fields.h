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
#define FF_HOST 64u /* the host name an address resolved to: compared names are resolved (dnsres.h) */
#define FF_NET 128u /* an address compared with networks (Falco's PT_IPNET): =, !=, in, intersects
		    * hold when it is inside a.b.c.d/len (a bare address: that one only) */
#define FA_BOTH 256u /* the client's value ([0]) and the server's ([1]): a comparison holds
		      * when it holds for either, as libsinsp's fd.net and fd.port; outputs print
		      * the server's */

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
	FIELD(EVT_IS_OPEN_EXEC, "evt.is_open_exec", T_BOOL, 0, "Open event that creates a file (O_CREAT, O_TMPFILE, creat) with an execute bit in its mode") \
	FIELD(EVT_IS_COMPAT, "evt.is_compat", T_BOOL, 0, "Not in Falco: true when the syscall came through the 32-bit ABI (int $0x80, or a 32-bit program); evt.type and the arguments are those of the x86_64 call") \
	FIELD(EVT_IS_SENTINEL_TARGET, "evt.is_sentinel_target", T_BOOL, 0, "Not in Falco: the call names this agent-sentinel as its target: a signal to its pid, its process group, one of its threads (any thread id names its process: while it runs, not in a replay) or, with root's uid or CAP_KILL, to every process (kill -1); a pidfd of it (pidfd_open, pidfd_send_signal through /proc/<pid> or /proc/<tid>); ptrace, process_vm_readv/writev of it; a new resource limit (prlimit), priority, scheduling policy or I/O priority for it (setpriority, sched_setscheduler, sched_setattr, ioprio_set: its pid, a thread, its process group); an open of an entry of its /proc/<pid> directory; it made the owner the kernel signals on a file's I/O (fcntl F_SETOWN, F_SETOWN_EX; ioctl FIOSETOWN, SIOCSPGRP: its pid, a thread, its process group). A process agent-sentinel started (an output program, its shell's children; up to four generations) counts as agent-sentinel: stopping it holds back every alert. Only for callers in the host's pid namespace, where its pid is the one they name") \
	FIELD(EVT_ARG, "evt.arg", T_STR, FA_ARG | FF_BUF, "Event argument by name: evt.arg.name/path/filename/exe/args/flags/mode/fd/dirfd/dev/ino/res/status/uid/gid/tuple/addr") \
	FIELD(PROC_NAME, "proc.name", T_STR, 0, "Process name (comm, up to 15 chars)") \
	FIELD(PROC_PID, "proc.pid", T_NUM, 0, "Process id (tgid)") \
	FIELD(PROC_TID, "proc.tid", T_NUM, 0, "Thread id") \
	FIELD(PROC_PPID, "proc.ppid", T_NUM, 0, "Parent process id") \
	FIELD(PROC_PNAME, "proc.pname", T_STR, 0, "Parent process name") \
	FIELD(PROC_EXE, "proc.exe", T_STR, 0, "First command-line argument (argv[0]) as given") \
	FIELD(PROC_EXEPATH, "proc.exepath", T_STR, 0, "Full path of the executable, from the kernel") \
	FIELD(PROC_CMDLINE, "proc.cmdline", T_STR, FF_BUF, "Process name and arguments from argv[1], space separated") \
	FIELD(PROC_ARGS, "proc.args", T_STR, FF_BUF, "Arguments from argv[1], space separated") \
	FIELD(PROC_CWD, "proc.cwd", T_STR, 0, "Current working directory (the exec's, then kept across chdir/fchdir)") \
	FIELD(PROC_ANAME, "proc.aname", T_STR, FA_IDX | FA_ANY, "Ancestor name: [0] the process, [1] parent, [2] grandparent...; no index: any ancestor") \
	FIELD(PROC_APID, "proc.apid", T_NUM, FA_IDX | FA_ANY, "Ancestor pid: [0] the process, [1] parent...; no index: any ancestor") \
	FIELD(PROC_AEXE, "proc.aexe", T_STR, FA_IDX | FA_ANY, "Ancestor argv[0]: [0] the process (proc.exe), [1] parent (proc.pexe)...; no index: any ancestor") \
	FIELD(PROC_SID, "proc.sid", T_NUM, 0, "Session id") \
	FIELD(PROC_VPID, "proc.vpid", T_NUM, 0, "Process id in its own pid namespace") \
	FIELD(PROC_TTY, "proc.tty", T_NUM, 0, "Controlling terminal (major << 20 | minor), 0 if none") \
	FIELD(PROC_CGROUP, "proc.cgroup", T_STR, FF_BUF, "Not in Falco: cgroup v2 path, followed by the v1 hierarchies on a v1/hybrid host") \
	FIELD(THREAD_TID, "thread.tid", T_NUM, 0, "Thread id") \
	FIELD(THREAD_CGROUPS, "thread.cgroups", T_STR, 0, "Every cgroup hierarchy as name=path, space separated") \
	FIELD(CONTAINER_ID, "container.id", T_STR, 0, "12-hex-char container id from the cgroup path (docker, containerd, cri-o, podman, runc; innermost when nested), else 'host'") \
	FIELD(CONTAINER_FULL_ID, "container.full_id", T_STR, 0, "The 64-hex-char container id, else 'host'") \
	FIELD(CONTAINER_TYPE, "container.type", T_STR, 0, "docker, containerd, cri-o, cri, podman, runc (not in Falco: an OCI id no runtime claimed), or host") \
	FIELD(CONTAINER_NAME, "container.name", T_STR, 0, "Container name from its runtime (a CRI container: io.kubernetes.container.name); 'host' on the host") \
	FIELD(CONTAINER_IMAGE, "container.image", T_STR, 0, "Image the container was created from, as the runtime names it") \
	FIELD(CONTAINER_IMAGE_REPOSITORY, "container.image.repository", T_STR, 0, "Repository of container.image (without tag or digest)") \
	FIELD(CONTAINER_IMAGE_TAG, "container.image.tag", T_STR, 0, "Tag of container.image") \
	FIELD(CONTAINER_IMAGE_DIGEST, "container.image.digest", T_STR, 0, "Digest of the image (sha256:...), from the runtime's image store") \
	FIELD(CONTAINER_PRIVILEGED, "container.privileged", T_BOOL, 0, "true for a privileged container (containerd: CAP_SYS_ADMIN and no masked paths)") \
	FIELD(CONTAINER_MOUNTS, "container.mounts", T_STR, 0, "Bind mounts, comma separated, each source:dest:mode:rdwr:propagation") \
	FIELD(CONTAINER_MOUNT_DEST, "container.mount.dest", T_STR, FA_ARG, "Destination of a mount: container.mount.dest[N] the Nth (from 0), container.mount.dest[GLOB] the first whose source matches") \
	FIELD(CONTAINER_LABELS, "container.labels", T_STR, 0, "Container labels as 'key:value, key:value', sorted") \
	FIELD(CONTAINER_LABEL, "container.label", T_STR, FA_ARG, "One container label: container.label[KEY] or container.label.KEY") \
	FIELD(K8S_POD_NAME, "k8s.pod.name", T_STR, 0, "Kubernetes pod name (the io.kubernetes.pod.name label or the CRI's annotation)") \
	FIELD(K8S_NS_NAME, "k8s.ns.name", T_STR, 0, "Kubernetes namespace of the pod") \
	FIELD(K8S_POD_UID, "k8s.pod.uid", T_STR, 0, "Kubernetes pod UID") \
	FIELD(K8S_POD_SANDBOX_ID, "k8s.pod.sandbox_id", T_STR, 0, "Pod sandbox id, first 12 characters") \
	FIELD(K8S_POD_FULL_SANDBOX_ID, "k8s.pod.full_sandbox_id", T_STR, 0, "Pod sandbox id") \
	FIELD(K8S_POD_LABELS, "k8s.pod.labels", T_STR, 0, "Pod labels as 'key:value, key:value', sorted (the sandbox's, else the container's own but io.kubernetes.*)") \
	FIELD(K8S_POD_LABEL, "k8s.pod.label", T_STR, FA_ARG, "One pod label: k8s.pod.label[KEY] or k8s.pod.label.KEY") \
	FIELD(USER_UID, "user.uid", T_NUM, 0, "Effective user id") \
	FIELD(USER_NAME, "user.name", T_STR, 0, "Effective user name") \
	FIELD(USER_LOGINUID, "user.loginuid", T_NUM, 0, "Audit login uid, -1 when unset") \
	FIELD(USER_RUID, "user.ruid", T_NUM, 0, "Not in Falco: real user id (user.uid is the effective one; a setuid exec splits them)") \
	FIELD(GROUP_GID, "group.gid", T_NUM, 0, "Effective group id") \
	FIELD(GROUP_NAME, "group.name", T_STR, 0, "Effective group name") \
	FIELD(GROUP_RGID, "group.rgid", T_NUM, 0, "Not in Falco: real group id") \
	FIELD(USER_SUID, "user.suid", T_NUM, 0, "Not in Falco: saved user id after a setuid, setreuid or setresuid (a process keeping 0 there can take root back); none on other events") \
	FIELD(GROUP_SGID, "group.sgid", T_NUM, 0, "Not in Falco: saved group id after a setgid, setregid or setresgid; none on other events") \
	FIELD(FD_NAME, "fd.name", T_STR, FF_BUF, "File: absolute path; IP socket: cip:cport->sip:sport; unix socket: its path") \
	FIELD(FD_NUM, "fd.num", T_NUM, 0, "File descriptor, -1 when the open failed") \
	FIELD(FD_TYPECHAR, "fd.typechar", T_STR, 0, "f file, p pipe, 4 IPv4, 6 IPv6, u unix") \
	FIELD(FD_TYPE, "fd.type", T_STR, 0, "file, pipe, ipv4, ipv6, unix") \
	FIELD(FD_DIRECTORY, "fd.directory", T_STR, FF_BUF, "Directory of a file path") \
	FIELD(FD_FILENAME, "fd.filename", T_STR, 0, "Last component of a file path") \
	FIELD(FD_IS_DELETED, "fd.is_deleted", T_BOOL, 0, "Not in Falco: an opened file with no link left (a memfd, a deleted file, an O_TMPFILE); fd.name then ends with \" (deleted)\", as /proc shows it") \
	FIELD(FD_IS_FOREIGN_PIPE, "fd.is_foreign_pipe", T_BOOL, 0, "Not in Falco: an anonymous pipe opened through a path (a /proc/PID/fd/N link) that none of the opener's other descriptors holds: another process's pipe (fd.name pipe:[INODE])") \
	FIELD(FD_IS_RAWDEV, "fd.is_rawdev", T_BOOL, 0, "Not in Falco: an opened device that reads storage or memory raw, past every path and permission of the files on it: a block device, /dev/mem, /dev/kmem, /dev/port, a SCSI generic /dev/sg*") \
	FIELD(FD_IS_SETID, "fd.is_setid", T_BOOL, 0, "Not in Falco: an open that writes, truncates or made its file, and the file's mode after it has the setuid bit, or the setgid bit with group execute (false on other opens: the kernel looks only there)") \
	FIELD(FD_IS_TRACEE, "fd.is_tracee", T_BOOL, 0, "Not in Falco: an opened /proc/PID entry (mem, environ, ...) of a process the opener traces with ptrace: a debugger's debuggee") \
	FIELD(FD_IS_DESCENDANT, "fd.is_descendant", T_BOOL, 0, "Not in Falco: a /proc/PID entry opened for writing (oom_score_adj, ...) of a process that descends from the opener (its child, grandchild, ..., 8 generations)") \
	FIELD(FD_PROCPID, "fd.procpid", T_NUM, 0, "Not in Falco: an opened file under /proc/<N>/ (fd.name; /proc/self and /proc/thread-self resolve to it): N, the process whose entry it is, in the pid namespace of that /proc") \
	FIELD(FD_SIP, "fd.sip", T_STR, FF_BUF | FF_IP, "Server IP address") \
	FIELD(FD_SPORT, "fd.sport", T_NUM, 0, "Server port") \
	FIELD(FD_CIP, "fd.cip", T_STR, FF_BUF | FF_IP, "Client IP address") \
	FIELD(FD_CPORT, "fd.cport", T_NUM, 0, "Client port") \
	FIELD(FD_RIP, "fd.rip", T_STR, FF_BUF | FF_IP, "Remote IP address") \
	FIELD(FD_RPORT, "fd.rport", T_NUM, 0, "Remote port") \
	FIELD(FD_SIP_NAME, "fd.sip.name", T_STR, FF_HOST, "Host name the server IP address resolved to: the first of the rules' host names (compared with =, !=, in) that resolves to it, refreshed in the background every 10 s") \
	FIELD(FD_CIP_NAME, "fd.cip.name", T_STR, FF_HOST, "Host name the client IP address resolved to (as fd.sip.name)") \
	FIELD(FD_RIP_NAME, "fd.rip.name", T_STR, FF_HOST, "Host name the remote IP address resolved to (as fd.sip.name)") \
	FIELD(FD_L4PROTO, "fd.l4proto", T_STR, 0, "tcp, udp, icmp, raw") \
	FIELD(FD_LIP, "fd.lip", T_STR, FF_BUF | FF_IP, "Local IP address: this end's: the client's of a connect or send, the server's of a listen, bind or accepted socket") \
	FIELD(FD_LPORT, "fd.lport", T_NUM, 0, "Local port (as fd.lip)") \
	FIELD(FD_IP, "fd.ip", T_STR, FF_BUF | FF_IP | FA_BOTH, "Either IP address: a comparison holds when it holds for fd.cip or fd.sip (Falco's filter-only fd.ip)") \
	FIELD(FD_PORT, "fd.port", T_NUM, FA_BOTH, "Either port: a comparison holds when it holds for fd.cport or fd.sport") \
	FIELD(FD_NET, "fd.net", T_STR, FF_BUF | FF_NET | FA_BOTH, "Either address compared with networks (a.b.c.d/len): holds when it holds for fd.cip or fd.sip") \
	FIELD(FD_CNET, "fd.cnet", T_STR, FF_BUF | FF_NET, "fd.cip compared with networks (a.b.c.d/len)") \
	FIELD(FD_SNET, "fd.snet", T_STR, FF_BUF | FF_NET, "fd.sip compared with networks (a.b.c.d/len)") \
	FIELD(FD_RNET, "fd.rnet", T_STR, FF_BUF | FF_NET, "fd.rip compared with networks (a.b.c.d/len)") \
	FIELD(FD_LNET, "fd.lnet", T_STR, FF_BUF | FF_NET, "fd.lip compared with networks (a.b.c.d/len)") \
	FIELD(FD_SOCKFAMILY, "fd.sockfamily", T_STR, 0, "ip or unix") \
	FIELD(FD_NETNS, "fd.netns", T_NUM, 0, "Not in Falco: inode of the socket's network namespace, as /proc/PID/ns/net shows it (net:[N]); absent when the socket was not read") \
	FIELD(FD_IS_HOST_NETNS, "fd.is_host_netns", T_BOOL, 0, "Not in Falco: a socket act's socket is in the host's network namespace (the one of pid 1 when agent-sentinel started); false only when the kernel saw another (a sandbox's own, bubblewrap --unshare-net), so an unread socket counts as the host's") \
	FIELD(FD_IS_PEER_OWN_NETNS, "fd.is_peer_own_netns", T_BOOL, 0, "Not in Falco: a unix socket act reached a peer socket (a connect, a send on a connected stream) in the caller's own network namespace, which is not the host's: a socket a process of the same sandbox bound (bubblewrap --unshare-net), at any path or abstract; a socket of the host's services is in the host's namespace wherever its path is. A stream server whose listening process has exited is judged by its pid namespace instead (the caller's own, not the initial one). False when not read (an unconnected datagram's send, a refused connect)") \
	FIELD(AGENT_SESSION, "agent.session", T_STR, 0, "Not in Falco: the agent session id (AGENT_SESSION_ID) of the process") \
	FIELD(FS_PATH_NAME, "fs.path.name", T_STR, FF_BUF, "Path a file change (mkdir, unlink, chmod, chown, truncate, xattr, times, mount, ...) acts on, absolute and normalised; fd paths resolved") \
	FIELD(FS_PATH_NAMERAW, "fs.path.nameraw", T_STR, 0, "fs.path.name as the process passed it") \
	FIELD(FS_PATH_SOURCE, "fs.path.source", T_STR, FF_BUF, "Source path of rename/link/symlink/mount (link, symlink: the new name, as Falco has it)") \
	FIELD(FS_PATH_SOURCERAW, "fs.path.sourceraw", T_STR, 0, "fs.path.source as passed") \
	FIELD(FS_PATH_TARGET, "fs.path.target", T_STR, FF_BUF, "Target path of rename/link/symlink/mount (rename: the new name; link: the existing file; symlink: its content)") \
	FIELD(FS_PATH_TARGETRAW, "fs.path.targetraw", T_STR, 0, "fs.path.target as passed") \
	FIELD(FS_PATH_IS_UNRESOLVED, "fs.path.is_unresolved", T_BOOL, 0, "Not in Falco: a file change's path goes through a symbolic link agent-sentinel could not follow to its end (more links, or longer link text, than a walk takes; a /proc link of a view it cannot read): the path is the string passed, and the file it names is unknown") \
	FIELD(FD_NAMERAW, "fd.nameraw", T_STR, 0, "fd.name as the process passed it (an open's string, carried when a rule reads it; else fd.name)") \
	FIELD(FD_CONNECTED, "fd.connected", T_BOOL, 0, "Socket event: the socket is connected (a successful connect or accept)") \
	FIELD(THREAD_CAP_EFFECTIVE, "thread.cap_effective", T_STR, FF_BUF, "Effective capabilities of the thread, CAP_* names separated by spaces") \
	FIELD(THREAD_CAP_PERMITTED, "thread.cap_permitted", T_STR, FF_BUF, "Permitted capabilities of the thread") \
	FIELD(THREAD_CAP_INHERITABLE, "thread.cap_inheritable", T_STR, FF_BUF, "Inheritable capabilities of the thread") \
	FIELD(PROC_PEXE, "proc.pexe", T_STR, 0, "The parent's argv[0]") \
	FIELD(PROC_PEXEPATH, "proc.pexepath", T_STR, 0, "The parent's executable path") \
	FIELD(PROC_PCMDLINE, "proc.pcmdline", T_STR, FF_BUF, "The parent's proc.cmdline") \
	FIELD(PROC_DURATION, "proc.duration", T_NUM, 0, "ns since the process started") \
	FIELD(PROC_IS_EXE_FROM_MEMFD, "proc.is_exe_from_memfd", T_BOOL, 0, "The executable is a memfd (memfd_create), fileless") \
	FIELD(PROC_IS_EXE_WRITABLE, "proc.is_exe_writable", T_BOOL, 0, "The executable is writable by the process's user") \
	FIELD(PROC_IS_EXE_UPPER_LAYER, "proc.is_exe_upper_layer", T_BOOL, 0, "The executable is on an overlayfs upper layer (written inside the container)") \
	FIELD(PROC_IS_EXE_DELETED, "proc.is_exe_deleted", T_BOOL, 0, "Not in Falco: the executable has no link left on disk") \
	FIELD(PROC_IS_INTERP_NOLINK, "proc.is_interp_nolink", T_BOOL, 0, "Not in Falco: the program's ELF interpreter (PT_INTERP, which the kernel maps at exec) is a file with no link left: a memfd, an O_TMPFILE or a deleted file") \
	FIELD(PROC_IS_LD_ENV, "proc.is_ld_env", T_BOOL, 0, "Not in Falco: the program was started with LD_PRELOAD or LD_AUDIT set, or an LD_LIBRARY_PATH naming a directory a user other than root could have put a library in (the current directory, a relative path, anyone's /tmp, a user's home; judged live), or an environment too large to read whole: code that is not the program's may run in it") \
	FIELD(PROC_EXEC_PRIV_RAISED, "proc.exec_raised_privileges", T_BOOL, 0, "Not in Falco, exec only: the exec changed ids or gained capabilities (setuid/setgid bit or file capabilities)") \
	FIELD(PROC_EXEC_PREV_UID, "proc.exec_prev_uid", T_NUM, 0, "Not in Falco, exec only: real uid before the exec") \
	FIELD(PROC_EXEC_PREV_EUID, "proc.exec_prev_euid", T_NUM, 0, "Not in Falco, exec only: effective uid before the exec") \
	FIELD(PROC_EXEC_PREV_EGID, "proc.exec_prev_egid", T_NUM, 0, "Not in Falco, exec only: effective gid before the exec") \
	FIELD(PROC_EXEC_PREV_CAP_PERMITTED, "proc.exec_prev_cap_permitted", T_STR, FF_BUF, "Not in Falco, exec only: permitted capabilities before the exec") \
	FIELD(THREAD_SECCOMP, "thread.seccomp_mode", T_NUM, 0, "Not in Falco: seccomp mode of the thread (0 off, 1 strict, 2 filter)") \
	FIELD(THREAD_NO_NEW_PRIVS, "thread.no_new_privs", T_BOOL, 0, "Not in Falco: no_new_privs is set on the thread") \
	FIELD(PROC_LINEAGE_NAME, "proc.lineage.name", T_STR, FA_IDX | FA_ANY, "Not in Falco: exec-time name (the kernel's comm at exec, before any prctl rename) of lineage entry [N]: [0] the process (its last exec, or its creator's image before it execs), then its creators' and earlier images', newest first, across reparenting and any depth (16 kept: the oldest 8 and the newest); no index: any entry, [0] included") \
	FIELD(PROC_LINEAGE_PID, "proc.lineage.pid", T_NUM, FA_IDX | FA_ANY, "Not in Falco: pid of lineage entry [N] (the process that exec'd that image or was forked with it); no index: any entry") \
	FIELD(PROC_LINEAGE_EXEPATH, "proc.lineage.exepath", T_STR, FA_IDX | FA_ANY, "Not in Falco: executable path of lineage entry [N], as its exec or the /proc snapshot said; no index: any entry") \
	FIELD(PROC_LINEAGE_LEN, "proc.lineage.len", T_NUM, 0, "Not in Falco: entries in the lineage (at most 16)") \
	FIELD(PROC_LINEAGE_TRUNCATED, "proc.lineage.truncated", T_BOOL, 0, "Not in Falco: the lineage lost entries (more than 16, or a process alive at start that /proc told only its parents now)") \
	FIELD(AGENT_ANCESTOR_NAME, "agent.ancestor.name", T_STR, 0, "Not in Falco: exec-time name of the nearest lineage entry that is an agent (agents.exe_paths when set, else agents.names: claude, node, agent-bwrap, mcp-launch); the process itself counts") \
	FIELD(AGENT_ANCESTOR_PID, "agent.ancestor.pid", T_NUM, 0, "Not in Falco: pid of the nearest agent in the lineage") \
	FIELD(AGENT_ANCESTOR_EXEPATH, "agent.ancestor.exepath", T_STR, 0, "Not in Falco: executable path of the nearest agent in the lineage") \
	FIELD(PROC_IS_REPARENTED, "proc.is_reparented", T_BOOL, 0, "Not in Falco: the current parent is not the process that created it (its creator exited, or CLONE_PARENT)") \
	FIELD(AGENT_SANDBOXED, "agent.sandboxed", T_BOOL, 0, "Not in Falco, only for a process with an agent.session: seccomp is on for the thread and its cgroup is agent-sandbox/<agent.session> or below") \
	FIELD(FD_NAME_CHANGED, "fd.name_changed", T_BOOL, 0, "Socket event: the call gave the socket its destination (connect, or a send with an address, as a UDP sendto does); false for every other event") \
	FIELD(USER_LOGINNAME, "user.loginname", T_STR, 0, "Name of the audit login user (user.loginuid); none when unset") \
	FIELD(PROC_SNAME, "proc.sname", T_STR, 0, "Name of the session leader (the process whose pid is proc.sid), as the process table knows it") \
	FIELD(PROC_AEXEPATH, "proc.aexepath", T_STR, FA_IDX, "Executable path of ancestor [N] ([0] the process, [1] parent...), as the process table knows it")

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
/* The i-th argument (Falco's name) events of syscall sc carry; NULL after
 * the last. */
#define FIELDS_EVT_ARGS_MAX 8 /* Falco's openat exit has 7 */
const char *fields_evt_arg(unsigned sc, size_t i);
/* A field that takes a name written after a dot (evt.arg.NAME,
 * container.label.KEY): its id and *arg the NAME; -1 if none. */
int fields_lookup_dotted(const char *name, const char **arg);

#endif /* AS_FIELDS_H */
