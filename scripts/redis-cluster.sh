#!/usr/bin/env bash
# A real Redis 7.0.15 cluster for the differential test (tests/differential.rs), laid out like
# the fixtures' cluster: masters 127.0.0.1:7000/7001/7002 with slots 0-5460, 5461-10922 and
# 10923-16383, one replica each (7003-7005, as `redis-cli --cluster create … --cluster-replicas 1`
# assigns them: transcripts 00 and 10).
#
#   scripts/redis-cluster.sh start  [DIR]   start six redis-server processes, create the cluster,
#                                           wait for cluster_state:ok everywhere and every
#                                           replica in sync; prints `SLOTSCOPE_REDIS=…`
#   scripts/redis-cluster.sh stop   [DIR]   shut down exactly the processes `start` started
#                                           (their pid files), whatever state they are in
#   scripts/redis-cluster.sh status [DIR]   which of them run, and the cluster's state
#
# DIR (default: $SLOTSCOPE_CLUSTER_DIR, else /tmp/slotscope-cluster) holds each node's config,
# log and pid file. Debian's redis-server is installed if missing; the system service the package
# may start (on 6379) is left alone: nothing here uses it. `start` refuses if any of ports
# 7000-7005 or 17000-17005 is taken, or if DIR still holds running nodes.
set -euo pipefail

PORTS=(7000 7001 7002 7003 7004 7005)
HOST=127.0.0.1
CMD="${1:-}"
DIR="${2:-${SLOTSCOPE_CLUSTER_DIR:-/tmp/slotscope-cluster}}"
WANT_VERSION=7.0.15

die() {
  printf 'redis-cluster.sh: %s\n' "$*" >&2
  exit 1
}

install_redis() {
  if command -v redis-server >/dev/null && command -v redis-cli >/dev/null; then
    return
  fi
  echo "redis-server is missing: installing Debian's redis-server ($WANT_VERSION)" >&2
  local sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >&2
}

check_version() {
  local v
  v="$(redis-server --version | sed -n 's/.* v=\([0-9.]*\).*/\1/p')"
  [ "$v" = "$WANT_VERSION" ] || die "redis-server is $v; the fixtures and this test are Redis $WANT_VERSION"
}

port_taken() {
  # Bash's /dev/tcp: a connection that succeeds means something listens there.
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

pid_alive() {
  local f="$DIR/redis-$1.pid"
  [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

cli() {
  local port="$1"
  shift
  redis-cli -h "$HOST" -p "$port" "$@"
}

# Waits up to $2 tenths of a second for command $1 to succeed.
wait_for() {
  local what="$1" tries="$2"
  for _ in $(seq "$tries"); do
    if eval "$what"; then return 0; fi
    sleep 0.1
  done
  return 1
}

start() {
  install_redis
  check_version
  for p in "${PORTS[@]}"; do
    pid_alive "$p" && die "a node started from $DIR still runs on $p: run '$0 stop $DIR' first"
  done
  for p in "${PORTS[@]}"; do
    port_taken "$p" && die "port $p is taken (something else listens on $HOST:$p); refusing to start"
    port_taken $((p + 10000)) && die "cluster bus port $((p + 10000)) is taken; refusing to start"
  done
  mkdir -p "$DIR"
  for p in "${PORTS[@]}"; do
    rm -f "$DIR/nodes-$p.conf" "$DIR/redis-$p.log" "$DIR/redis-$p.pid"
    redis-server --port "$p" --bind "$HOST" --daemonize yes \
      --cluster-enabled yes --cluster-config-file "nodes-$p.conf" \
      --save '' --appendonly no --dir "$DIR" \
      --pidfile "$DIR/redis-$p.pid" --logfile "$DIR/redis-$p.log" >/dev/null
  done
  for p in "${PORTS[@]}"; do
    wait_for "[ \"\$(cli $p PING 2>/dev/null)\" = PONG ]" 100 ||
      die "node $p did not answer PING within 10 s (see $DIR/redis-$p.log)"
  done
  local addrs=()
  for p in "${PORTS[@]}"; do addrs+=("$HOST:$p"); done
  redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$DIR/create.log" 2>&1 ||
    die "redis-cli --cluster create failed (see $DIR/create.log)"
  for p in "${PORTS[@]}"; do
    wait_for "cli $p CLUSTER INFO | grep -q '^cluster_state:ok'" 300 ||
      die "node $p did not reach cluster_state:ok within 30 s"
  done
  # redis-cli's anti-affinity step shuffles replicas at random when all nodes share one host;
  # the fixtures' cluster has 7003 -> 7002, 7004 -> 7000, 7005 -> 7001 (transcript 10).
  local replica master id mid
  for pair in 7003:7002 7004:7000 7005:7001; do
    replica="${pair%%:*}" master="${pair##*:}"
    id="$(cli "$master" CLUSTER MYID)"
    if ! cli "$replica" CLUSTER NODES | grep -q "myself,slave $id"; then
      wait_for "cli $replica CLUSTER NODES | grep -q '^$id '" 100 ||
        die "replica $replica does not know master $master"
      [ "$(cli "$replica" CLUSTER REPLICATE "$id")" = OK ] ||
        die "CLUSTER REPLICATE on $replica (to $master) failed"
    fi
  done
  for pair in 7003:7002 7004:7000 7005:7001; do
    replica="${pair%%:*}" master="${pair##*:}"
    id="$(cli "$replica" CLUSTER MYID)"
    mid="$(cli "$master" CLUSTER MYID)"
    for p in "${PORTS[@]}"; do
      wait_for "cli $p CLUSTER NODES | grep -q '^$id [^ ]* [^ ]*slave $mid '" 300 ||
        die "node $p does not see $replica as the replica of $master within 30 s"
    done
  done
  # Every replica: its master link is up and the first sync is done.
  for p in "${PORTS[@]}"; do
    if cli "$p" ROLE | head -n 1 | grep -q slave; then
      wait_for "cli $p INFO replication | grep -q '^master_link_status:up' && cli $p INFO replication | grep -q '^master_sync_in_progress:0'" 300 ||
        die "replica $p did not sync with its master within 30 s"
    fi
  done
  # Every node sees the same six nodes, all connected (gossip may lag the create).
  for p in "${PORTS[@]}"; do
    wait_for "[ \"\$(cli $p CLUSTER NODES | grep -c ' connected')\" = ${#PORTS[@]} ]" 300 ||
      die "node $p does not see all ${#PORTS[@]} nodes connected within 30 s"
  done
  # Every node's CLUSTER SLOTS lists every replica: 7.0.15 leaves out a replica whose known
  # replication offset is still 0 (isReplicaAvailable in cluster.c), as on a cluster that has
  # never been written. A FLUSHALL on each master is a write that moves the offsets; the nodes
  # learn them from the next pings.
  for p in "${PORTS[@]}"; do
    if cli "$p" ROLE | head -n 1 | grep -q master; then
      cli "$p" FLUSHALL >/dev/null
    fi
  done
  for p in "${PORTS[@]}"; do
    wait_for "[ \"\$(cli $p CLUSTER SLOTS | grep -cx '700[0-5]')\" = ${#PORTS[@]} ]" 300 ||
      die "node $p does not list every replica in CLUSTER SLOTS within 30 s"
  done
  layout_check
  echo "SLOTSCOPE_REDIS=$HOST:${PORTS[0]}"
}

# The masters own the fixtures' ranges (redis-cli's allocation is deterministic for 3 masters).
layout_check() {
  local nodes
  nodes="$(cli "${PORTS[0]}" CLUSTER NODES)"
  for want in "$HOST:7000@17000 .*master.* 0-5460" "$HOST:7001@17001 .*master.* 5461-10922" \
    "$HOST:7002@17002 .*master.* 10923-16383"; do
    grep -q "$want" <<<"$nodes" || die "the cluster is not laid out like the fixtures' (no '$want'):
$nodes"
  done
}

stop() {
  local any=0
  for p in "${PORTS[@]}"; do
    local f="$DIR/redis-$p.pid"
    [ -s "$f" ] || continue
    local pid
    pid="$(cat "$f")"
    if kill -0 "$pid" 2>/dev/null; then
      any=1
      # SHUTDOWN NOSAVE first (a clean exit); a node that does not answer gets SIGTERM, then
      # SIGKILL. Only this pid, the one its pid file names.
      cli "$p" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
      wait_for "! kill -0 $pid 2>/dev/null" 30 || kill -TERM "$pid" 2>/dev/null || true
      wait_for "! kill -0 $pid 2>/dev/null" 30 || kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
  [ "$any" = 1 ] && echo "stopped the cluster in $DIR" || echo "no node of $DIR was running"
}

status() {
  for p in "${PORTS[@]}"; do
    if pid_alive "$p"; then
      printf '%s:%s pid %s %s\n' "$HOST" "$p" "$(cat "$DIR/redis-$p.pid")" \
        "$(cli "$p" CLUSTER INFO 2>/dev/null | grep '^cluster_state' | tr -d '\r')"
    else
      printf '%s:%s not running\n' "$HOST" "$p"
    fi
  done
}

case "$CMD" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) die "usage: $0 start|stop|status [DIR]" ;;
esac
