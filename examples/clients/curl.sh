#!/usr/bin/env bash
# Every HTTP endpoint once, against `npm start` (127.0.0.1:8080).
set -eu
B=${PATINA_URL:-http://127.0.0.1:8080}
J='content-type: application/json'
curl -s "$B/v1/transactions" -H "$J" -d '[["INSERT INTO todos (id, user_id, title) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title", [1, 1, "try patina"]]]'; echo
curl -s "$B/v1/queries" -H "$J" -d '"SELECT id, title, done FROM todos"'
curl -s -m 2 -D - "$B/v1/subscriptions" -H "$J" -d '["SELECT id, title FROM todos WHERE done = ?", [0]]' || true
curl -s -m 2 -X POST "$B/v1/updates/todos" || true
curl -s "$B/v1/health"; echo
