#!/usr/bin/python3
"""Patina through an ordinary PostgreSQL driver: psycopg2 and SQLAlchemy against `npm start`
(PostgreSQL listener on 127.0.0.1:5470). Debian: apt-get install python3-psycopg2 python3-sqlalchemy"""
import psycopg2
import sqlalchemy

conn = psycopg2.connect(host="127.0.0.1", port=5470, user="patina", dbname="patina")
with conn:  # one transaction, one changeset on the bus at COMMIT
    with conn.cursor() as cur:
        cur.execute("INSERT INTO users (id, name) VALUES (%s, %s) ON CONFLICT (id) DO UPDATE SET name = excluded.name", (42, "from psycopg2"))
with conn.cursor() as cur:
    cur.execute("SELECT id, name FROM users WHERE id = %s", (42,))
    print(cur.fetchone())
conn.close()

engine = sqlalchemy.create_engine("postgresql+psycopg2://patina@127.0.0.1:5470/patina")
inspector = sqlalchemy.inspect(engine)
for table in inspector.get_table_names():
    print(table, [c["name"] for c in inspector.get_columns(table)], inspector.get_pk_constraint(table)["constrained_columns"])
