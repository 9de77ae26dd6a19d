# asyncpg: executemany of BATCH rows (a prepared INSERT, values bound in binary), then fetch of the
# batch back (binary results) checked against what was written; one connection, SECONDS long.
# Prints one JSON line: statements (rows written + reads), errors, the first error.
# Usage: asyncpg_soak.py HOST PORT USER DB SECONDS FIRST_ID
import asyncio
import datetime
import decimal
import json
import sys
import time

import asyncpg

host, port, user, db, seconds, first = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
BATCH = 100


def row(k):
    return (
        k,
        "asyncpg 'row' %d" % k,
        decimal.Decimal("%d.%02d" % (k % 100000, k % 100)),
        datetime.date(2020, 1, 1) + datetime.timedelta(days=k % 3000),
        None if k % 4 == 0 else "n%d" % k,
        k * 3,
    )


async def main():
    conn = await asyncpg.connect(host=host, port=port, user=user, database=db)
    stats = {"statements": 0, "errors": 0, "mismatches": 0, "first_error": None}
    i = first
    end = time.time() + seconds
    while time.time() < end:
        rows = [row(k) for k in range(i + 1, i + 1 + BATCH)]
        try:
            await conn.executemany("INSERT INTO soak (id, name, amount, day, note, n) VALUES ($1, $2, $3, $4, $5, $6)", rows)
            stats["statements"] += BATCH
            got = await conn.fetch("SELECT id, name, amount, day, note, n FROM soak WHERE id > $1 AND id <= $2 ORDER BY id", i, i + BATCH)
            stats["statements"] += 1
            if [tuple(r) for r in got] != rows:
                stats["mismatches"] += 1
                if stats["first_error"] is None:
                    stats["first_error"] = "batch %d: %r != %r" % (i, [tuple(r) for r in got][:1], rows[:1])
        except Exception as e:  # noqa: BLE001
            stats["errors"] += 1
            if stats["first_error"] is None:
                stats["first_error"] = repr(e)
            if stats["errors"] > 100:
                break
        i += BATCH
    await conn.close()
    print(json.dumps(stats))


asyncio.run(main())
