#!/usr/bin/env bash
# How the networks example report's raw output was captured (content/reports/networks/), so anyone
# can capture it again on their own machine: root, Linux, iproute2, iperf3, iperf (iperf2), ping.
#
# Four paths on one machine, each measured with `perfwiki bench network` (iperf3, iperf2, ping idle
# and ping under load):
#   net-loopback       127.0.0.1
#   net-veth           a veth pair between two network namespaces, pwa (client) and pwb (server)
#   net-veth-tbf-1g    the same pair, the client's end shaped by tbf to 1 Gbit/s
#   net-veth-tbf-100m  the same pair, shaped to 100 Mbit/s
# tbf queues up to 50 ms of traffic (latency 50ms): what ping under load sees as queueing delay.
# Delay and loss (netem) are not added: the kernel this was captured on has no sch_netem, which the
# script notes in the report's raw folder rather than pretending.
#
# Usage: sudo scripts/capture-network-example.sh [ROOT]   (ROOT: the wiki, default: this repository)
set -euo pipefail

ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
PERFWIKI=${PERFWIKI:-$ROOT/.venv/bin/perfwiki}
REPORT=networks
RUNTIME=${RUNTIME:-5}
REPEAT=${REPEAT:-3}
A="ip netns exec pwa"

cleanup() {
  ip netns pids pwb 2>/dev/null | xargs -r kill 2>/dev/null || true
  ip netns del pwa 2>/dev/null || true
  ip netns del pwb 2>/dev/null || true
}
trap cleanup EXIT
cleanup

ip netns add pwa
ip netns add pwb
ip link add vA netns pwa type veth peer name vB netns pwb
ip -n pwa addr add 10.77.0.1/24 dev vA
ip -n pwb addr add 10.77.0.2/24 dev vB
for ns in pwa pwb; do ip -n $ns link set lo up; done
ip -n pwa link set vA up
ip -n pwb link set vB up
ip netns exec pwb iperf3 -s -D -p 5201
ip netns exec pwb iperf -s -D -p 5001 >/dev/null 2>&1
sleep 1

bench() { # env [server]: on loopback perfwiki starts its own servers; else the client runs in pwa
  local env=$1 server=${2:-}
  local where=() to=()
  if [ -n "$server" ]; then where=(ip netns exec pwa) to=(--server "$server"); fi
  "${where[@]}" "$PERFWIKI" bench network --root "$ROOT" --env "$env" --report "$REPORT" \
    --runtime "$RUNTIME" --repeat "$REPEAT" --update-facts "${to[@]}"
}

bench net-loopback
bench net-veth 10.77.0.2
$A tc qdisc add dev vA root tbf rate 1gbit burst 256kb latency 50ms
bench net-veth-tbf-1g 10.77.0.2
$A tc qdisc replace dev vA root tbf rate 100mbit burst 256kb latency 50ms
bench net-veth-tbf-100m 10.77.0.2
$A tc qdisc del dev vA root

# What adding delay would have said here.
if ! $A tc qdisc add dev vA root netem delay 10ms 2>/dev/null; then
  echo "netem is not available on this kernel ($(uname -r)): no delay or loss was added"
fi
