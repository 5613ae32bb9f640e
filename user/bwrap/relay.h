/* SPDX-License-Identifier: MIT */
/*
 * The relay inside the sandbox: the sandbox's network namespace has only
 * loopback, where programs expect an HTTP proxy (HTTP(S)_PROXY). The relay
 * listens on 127.0.0.1:PORT and passes each connection, byte for byte, to
 * the egress socket bound into the sandbox; agent-egress decides. It runs as
 * a child of the sandbox's init (bubblewrap, PID 1 of the sandbox) outside
 * the agent's Landlock domain, and dies with the sandbox's PID namespace.
 */
#ifndef AGENT_BWRAP_RELAY_H
#define AGENT_BWRAP_RELAY_H

#include <stdint.h>

/* The relay's port when none is given: squid's, the conventional proxy port. */
#define RELAY_PORT_DEFAULT 3128
/* Connections relayed at once: beyond agent-egress's own per-session limit. */
#define RELAY_CONN_MAX 1024

/* Bring lo up if it is down and listen on 127.0.0.1:port. fd or -errno (printed). */
int relay_listen(uint16_t port);
/* Start the relay on the listening fd (which the caller then closes). 0 or -errno. */
int relay_spawn(int lfd, const char *egress_sock);

#endif
