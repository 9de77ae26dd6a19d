# psycopg2 as most Python code uses it: cur.execute(sql, params) writes the values into the SQL text
# (client-side interpolation), so every statement text is new (ids, quoted text, numerics, dates,
# NULLs); a commit every COMMIT_EVERY statements, and reads of the same shape checked against what
# was written. Runs for SECONDS; prints one JSON line: statements, errors, the first error.
# With RANGE, the ids cycle through RANGE values (an upsert), so that the table stops growing: what
# memory grows then is not the page caches filling with a growing database.
# Usage: psycopg2_soak.py HOST PORT USER DB SECONDS FIRST_ID [RANGE]
import datetime
import decimal
import json
import random
import sys
import time

import psycopg2

host, port, user, db, seconds, first = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
RANGE = int(sys.argv[7]) if len(sys.argv) > 7 else 0
COMMIT_EVERY = 50
INSERT = "INSERT INTO soak (id, name, amount, day, note, n) VALUES (%s, %s, %s, %s, %s, %s)"
if RANGE:
    INSERT += " ON CONFLICT (id) DO UPDATE SET name = excluded.name, amount = excluded.amount, day = excluded.day, note = excluded.note, n = excluded.n"
conn = psycopg2.connect(host=host, port=port, user=user, dbname=db)
cur = conn.cursor()
stats = {"statements": 0, "errors": 0, "mismatches": 0, "first_error": None}
rnd = random.Random(first)
i = first
written = []
end = time.time() + seconds


def row(i):
    k = first + (i - first) % RANGE if RANGE else i
    name = "O'Brien \"%d\" it's %s" % (k, "x" * (k % 13))
    amount = decimal.Decimal("%d.%02d" % (k % 100000, k % 100))
    day = datetime.date(2020, 1, 1) + datetime.timedelta(days=k % 3000)
    note = None if k % 3 == 0 else "note %d; -- not a comment" % i  # (i: each text new)
    return (k, name, amount, day, note, k * 7)


while time.time() < end:
    try:
        for _ in range(COMMIT_EVERY):
            i += 1
            r = row(i)
            cur.execute(INSERT, r)
            if len(written) < 100000:
                written.append(r[0])
            stats["statements"] += 1
            if i % 5 == 0:
                cur.execute("UPDATE soak SET note = %s, amount = amount + %s WHERE id = %s", ("upd %d" % i, decimal.Decimal("0.50"), row(i - 1)[0]))
                stats["statements"] += 1
        conn.commit()
        for _ in range(COMMIT_EVERY // 2):
            k = rnd.choice(written)
            cur.execute("SELECT id, name, amount, day, note, n FROM soak WHERE id = %s AND day = %s AND name = %s", (k, row(k)[3], row(k)[1]))
            got = cur.fetchall()
            stats["statements"] += 1
            want = row(k)
            if len(got) != 1 or got[0][1] != want[1] or got[0][3] != want[3] or got[0][5] != want[5]:
                stats["mismatches"] += 1
                if stats["first_error"] is None:
                    stats["first_error"] = "read %d: %r != %r" % (k, got, want)
        conn.commit()
    except Exception as e:  # noqa: BLE001
        stats["errors"] += 1
        if stats["first_error"] is None:
            stats["first_error"] = repr(e)
        conn.rollback()
        if stats["errors"] > 100:
            break
print(json.dumps(stats))
