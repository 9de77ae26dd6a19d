#!/usr/bin/env bash
# Starts three agents on loopback that replicate to each other, writes on one and reads on the
# others, then leaves them running until Ctrl-C. Run from anywhere after `npm install`.
#   HTTP 127.0.0.1:8081-8083, PostgreSQL 127.0.0.1:5471-5473, gossip 127.0.0.1:8791-8793
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
patina="node $here/../../dist/src/cli/main.js"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
for i in 1 2 3; do
  $patina agent -c "$here/agent$i.toml" &
  pids+=($!)
done
for i in 1 2 3; do
  until curl -sf "http://127.0.0.1:808$i/v1/health" >/dev/null; do sleep 0.2; done
done
id=$((RANDOM * 1000 + RANDOM))
$patina exec "INSERT INTO users (id, name) VALUES (?, ?)" --param "$id" --param "written on agent 1" --api-addr 127.0.0.1:8081
for i in 2 3; do
  for _ in $(seq 50); do
    out=$($patina query "SELECT name FROM users WHERE id = ?" --param "$id" --api-addr "127.0.0.1:808$i")
    [ -n "$out" ] && break
    sleep 0.1
  done
  echo "agent $i sees: $out"
done
$patina cluster members --api-addr 127.0.0.1:8081
echo "three agents running; psql -h 127.0.0.1 -p 5472 reaches agent 2. Ctrl-C stops them."
wait
