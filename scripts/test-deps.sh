#!/usr/bin/env bash
# `npm test`'s set-up (its pretest step): the Debian packages of the real clients the tests drive.
# Installs the missing ones with apt-get (as root, or through sudo when it needs no password);
# otherwise says which are missing and the command to run, and stops.
#
#   postgresql-client, postgresql  psql, pgbench, pg_dump, and PostgreSQL 15 as the tests' oracle
#   python3-psycopg2, python3-psycopg, python3-asyncpg, python3-sqlalchemy, python3-pandas, python3-django,
#   python3-peewee
#                                  the Python drivers and ORMs (run with /usr/bin/python3)
#   pgcli                          its completion and \d
#   default-jdk-headless, libpostgresql-jdbc-java   pgjdbc (DatabaseMetaData, binary format)
#   unixodbc, odbc-postgresql      psqlODBC through isql
#   php-cli, php-pgsql, php-doctrine-dbal, libdbd-pg-perl   PHP's PDO pgsql, pg_* functions and Doctrine DBAL,
#                                  Perl's DBI with DBD::Pg
#   ruby-pg, ruby-activerecord, ruby-sequel   Ruby's pg gem, Rails' ActiveRecord and Sequel
#   golang-go, golang-github-jackc-pgx-v4-dev, golang-github-lib-pq-dev
#                                  Go's pgx and lib/pq (the tests build their programs with Debian's Go)
#   openssl, curl                  the TLS tests' certificates; HTTPS
#   prometheus                     promtool checks /metrics
#   tzdata                         the zone database to_char's TZ abbreviations come from (PostgreSQL's too)
#   chromium                       the web console's browser test (driven by playwright-core)
#
# PATINA_SKIP_TEST_DEPS=1 skips this check (the tests that need a missing client then fail).
set -euo pipefail

pkgs="postgresql-client postgresql tzdata pgcli python3-pandas python3-psycopg2 python3-sqlalchemy python3-psycopg python3-asyncpg python3-django python3-peewee unixodbc odbc-postgresql openssl curl prometheus chromium default-jdk-headless libpostgresql-jdbc-java php-cli php-pgsql php-doctrine-dbal libdbd-pg-perl ruby-pg ruby-activerecord ruby-sequel golang-go golang-github-jackc-pgx-v4-dev golang-github-lib-pq-dev"

if [ "${PATINA_SKIP_TEST_DEPS:-}" = "1" ]; then exit 0; fi
if ! command -v dpkg >/dev/null 2>&1; then
  echo "test set-up: not a Debian system; install the equivalents of: $pkgs" >&2
  echo "then run again with PATINA_SKIP_TEST_DEPS=1" >&2
  exit 1
fi

missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo"
else
  echo "test set-up: these Debian packages are missing:$missing" >&2
  echo "install them as root:  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
  echo "(or run the tests anyway with PATINA_SKIP_TEST_DEPS=1; those that need them will fail)" >&2
  exit 1
fi

echo "test set-up: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
