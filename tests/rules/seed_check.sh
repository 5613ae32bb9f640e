#!/bin/sh
# The seed's Falco block (from "- macro: agent_process" through the
# privilege-escalation rule) must appear in rules/agent.yaml byte for byte.
# SEED is the seed text or the block alone (tests/rules/seed_block.yaml, cut
# from the seed by block() below): the same lines come out of either.
# usage: seed_check.sh SEED RULES
set -eu
seed=$1 rules=$2
block() {
	awk '/^- macro: agent_process$/{on=1} on{print} on && /^- rule: Agent Attempted Privilege Escalation$/{last=1} last && /^  tags: \[agent, sandbox, blast_radius\]$/{exit}' "$1"
}
[ -r "$seed" ] || { echo "seed file $seed not found" >&2; exit 1; }
block "$seed" > "${TMPDIR:-/tmp}/seed_block.$$"
block "$rules" > "${TMPDIR:-/tmp}/rules_block.$$"
trap 'rm -f "${TMPDIR:-/tmp}/seed_block.$$" "${TMPDIR:-/tmp}/rules_block.$$"' EXIT
[ "$(wc -l < "${TMPDIR:-/tmp}/seed_block.$$")" -gt 40 ] || { echo "seed block not found" >&2; exit 1; }
cmp "${TMPDIR:-/tmp}/seed_block.$$" "${TMPDIR:-/tmp}/rules_block.$$"
echo "seed block identical ($(wc -c < "${TMPDIR:-/tmp}/seed_block.$$") bytes)"
