#!/usr/bin/env bash
# Starts three agents on loopback that replicate to each other over mutual TLS, with HTTPS and
# bearer tokens on the HTTP API and TLS with a password on PostgreSQL; writes on one and reads on
# the others, then leaves them running until Ctrl-C. Run from anywhere after `npm install`.
#   HTTPS 127.0.0.1:8081-8083, PostgreSQL 127.0.0.1:5471-5473, gossip 127.0.0.1:8791-8793
# The first run makes data/cluster/secrets: a CA and a certificate per agent (examples/tls/generate.sh,
# openssl), an admin and a read token, and the PostgreSQL password of user "app".
# EXAMPLE_ONCE=1 stops the agents after the check instead of waiting.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
patina="node ${PATINA_CLI:-$here/../../dist/src/cli/main.js}"
secrets="$here/../../data/cluster/secrets"
if [ ! -f "$secrets/ca.crt" ]; then
  "$here/../tls/generate.sh" "$secrets" agent1 agent2 agent3 >/dev/null
  (umask 077; for f in admin.token read.token app.password; do openssl rand -hex 24 > "$secrets/$f"; done)
fi
# what the clients need: the CA to trust, a token, the password
export NODE_EXTRA_CA_CERTS="$secrets/ca.crt" PATINA_API_TOKEN="$(cat "$secrets/admin.token")"
api() { awk -F'"' '/^\[api\]/{f=1} f&&/^addr/{print $2; exit}' "$here/agent$1.toml"; }
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
for i in 1 2 3; do
  $patina agent -c "$here/agent$i.toml" &
  pids+=($!)
done
# each agent answers its health check within a minute, or the script says which did not and stops
for i in 1 2 3; do
  for try in $(seq 300); do
    curl -sf --max-time 2 --cacert "$secrets/ca.crt" "https://$(api $i)/v1/health" >/dev/null && break
    if ! kill -0 "${pids[$((i - 1))]}" 2>/dev/null; then
      echo "agent $i stopped before it was ready (its log is above)" >&2
      exit 1
    fi
    [ "$try" = 300 ] && { echo "agent $i did not answer https://$(api $i)/v1/health within 60 s" >&2; exit 1; }
    sleep 0.2
  done
done
id=$((RANDOM * 1000 + RANDOM))
$patina exec "INSERT INTO users (id, name) VALUES (?, ?)" --param "$id" --param "written on agent 1" --api-addr "https://$(api 1)"
for i in 2 3; do
  out=""
  for _ in $(seq 100); do
    out=$($patina query "SELECT name FROM users WHERE id = ?" --param "$id" --api-addr "https://$(api $i)")
    [ -n "$out" ] && break
    sleep 0.1
  done
  echo "agent $i sees: $out"
done
$patina cluster members --api-addr "https://$(api 1)"
pg=$(awk -F'"' '/^\[api.pg\]/{f=1} f&&/^addr/{print $2; exit}' "$here/agent2.toml")
echo "three agents running over TLS. Try:"
echo "  NODE_EXTRA_CA_CERTS=$secrets/ca.crt PATINA_API_TOKEN=\$(cat $secrets/read.token) $patina query 'SELECT * FROM users' --api-addr https://$(api 2)"
echo "  PGPASSWORD=\$(cat $secrets/app.password) psql 'host=localhost port=${pg##*:} user=app dbname=patina sslmode=verify-full sslrootcert=$secrets/ca.crt'"
[ "${EXAMPLE_ONCE:-}" = 1 ] && exit 0
echo "Ctrl-C stops them."
wait
