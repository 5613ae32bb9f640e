/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef AS_PARLOAD_H
#define AS_PARLOAD_H

#include <stddef.h>
#include <bpf/libbpf.h>

/* Set to 1: verify the programs on one thread, as libbpf alone does. */
#define PARLOAD_ENV "AGENT_SENTINEL_SERIAL_LOAD"

/* What a program costs the verifier, in 0.1 ms, to split the programs
 * evenly; a list ends with a NULL prog. */
struct parload_hint {
	const char *prog;
	unsigned cost;
};

struct parload {
	struct bpf_object *second; /* the copy that loaded the other half, or NULL */
};

/* Load obj (opened from elf) with its programs verified on two threads:
 * load_first(arg) loads obj itself (the skeleton's load, so its globals are
 * mapped), while a second copy opened from elf loads the other half of the
 * programs, the two sharing obj's maps (it is opened with btf_custom_path,
 * as obj was), split by the hints' costs (NULL: instruction counts). Falls back to load_first alone
 * where that cannot be done. Returns load_first's error, else the second's. */
int parload_load(struct parload *pl, struct bpf_object *obj, const void *elf, size_t elf_sz,
		 const char *btf_custom_path, const struct parload_hint *hints,
		 int (*load_first)(void *), void *arg, int verbose);
/* The loaded program of that name: prog itself, or the second copy's. */
struct bpf_program *parload_program(const struct parload *pl, struct bpf_program *prog);
void parload_close(struct parload *pl);

#endif /* AS_PARLOAD_H */
