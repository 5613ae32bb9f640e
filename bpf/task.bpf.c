// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The header every record starts with: identity, credentials, ancestry. */
#include "sentinel.bpf.h"

/* Each reads through a typed task pointer (AS_KPTR): direct loads. */
static __always_inline __u32 as_task_vpid(struct task_struct *task)
{
	struct pid *p = task->group_leader->thread_pid;
	unsigned int level = p->level;
	int nr = 0;

	/* a variable index into a typed pointer is refused: a helper read */
	bpf_core_read(&nr, sizeof(nr), &p->numbers[level & 31].nr);
	return nr;
}

static __always_inline __u32 as_task_sid(struct task_struct *task)
{
	int sid_type = bpf_core_enum_value(enum pid_type, PIDTYPE_SID);
	struct pid *p = task->signal->pids[sid_type & 3];

	return p ? p->numbers[0].nr : 0;
}

static __always_inline __u32 as_task_tty(struct task_struct *task)
{
	struct tty_struct *tty = task->signal->tty;
	__u32 major, minor;

	if (!tty)
		return 0;
	major = tty->driver->major;
	minor = tty->driver->minor_start + tty->index;
	/* new_encode_dev(), the tty_nr of /proc/PID/stat */
	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

__noinline int as_hdr_fill_task(struct as_hdr *h, __u32 type, __u32 sc)
{
	/* typed: its fields and those of its ancestors are direct loads */
	struct task_struct *task = bpf_get_current_task_btf();
	struct task_struct *p;
	const struct cred *cred;
	__u64 id = bpf_get_current_pid_tgid();
	int i;

	if (!h)
		return 0;
	h->type = type;
	h->syscall = sc;
	h->ts = bpf_ktime_get_boot_ns();
	h->cgroup_id = bpf_get_current_cgroup_id();
	h->pid = id >> 32;
	h->tid = (__u32)id;
	h->vpid = as_task_vpid(task);
	h->sid = as_task_sid(task);
	h->tty = as_task_tty(task);
	cred = task->cred;
	h->uid = cred->uid.val;
	h->gid = cred->gid.val;
	h->euid = cred->euid.val;
	h->egid = cred->egid.val;
	h->loginuid = AS_ID_UNSET;
	if (bpf_core_field_exists(task->loginuid))
		h->loginuid = task->loginuid.val;
	h->flags = 0;
	bpf_get_current_comm(h->comm, sizeof(h->comm));
	h->session[0] = 0;
	{
		__u32 tgid = h->pid;
		struct as_session *sess = bpf_map_lookup_elem(&sessions, &tgid);

		if (sess) {
			__builtin_memcpy(h->session, sess->id, sizeof(h->session));
			h->flags |= AS_HF_SESSION;
		}
	}

	/* Ancestry, captured now so it is right for processes that started
	 * before us and never goes stale: each hop is the parent process
	 * (group leader of real_parent), as Falco's proc.aname. Direct loads:
	 * twelve hops of helper calls cost more than the rest of the event. */
	p = task->real_parent->group_leader;
	h->n_anc = 0;
	for (i = 0; i < AS_MAX_ANCESTORS; i++) {
		__u32 pid = p->tgid;

		if (!pid)
			break;
		h->anc[i].pid = pid;
		/* comm is NUL-terminated within its 16 bytes (set_task_comm) */
		*(__u64 *)&h->anc[i].comm[0] = *(__u64 *)&p->comm[0];
		*(__u64 *)&h->anc[i].comm[8] = *(__u64 *)&p->comm[8];
		h->n_anc = i + 1;
		if (pid == 1)
			break;
		p = p->real_parent->group_leader;
	}
	if (h->n_anc == AS_MAX_ANCESTORS && h->anc[AS_MAX_ANCESTORS - 1].pid != 1 && p->tgid != 0)
		h->flags |= AS_HF_ANC_TRUNC;
	h->ppid = h->n_anc ? h->anc[0].pid : 0;
	return 0;
}

struct as_vwalk {
	struct task_struct *task;
	__u32 verdict;
	__u32 _pad0;
};

static long as_verdict_step(__u32 index, struct as_vwalk *w)
{
	struct task_struct *task = w->task;
	struct as_comm_key key = {};

	if (index > cfg_filter_walk || !task)
		return 1;
	bpf_probe_read_kernel_str(key.comm, sizeof(key.comm), &task->comm);
	if (bpf_map_lookup_elem(&filter_names, &key)) {
		w->verdict = index;
		return 1;
	}
	if (index && BPF_CORE_READ(task, tgid) == 1)
		return 1; /* init: no ancestors above */
	w->task = BPF_CORE_READ(task, real_parent, group_leader);
	return 0;
}

/* Level 0 is the current thread's own comm (proc.name); above it the group
 * leaders of the real_parent chain, as in as_hdr_fill_task. */
__noinline __u32 as_verdict_compute(__u64 task_p)
{
	struct as_vwalk w = { .task = (struct task_struct *)task_p, .verdict = AS_VERDICT_NONE };

	bpf_loop(AS_MAX_ANCESTORS + 1, as_verdict_step, &w, 0);
	return w.verdict;
}
