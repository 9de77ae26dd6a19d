#!/usr/bin/env bash
# Creates a private CA and one certificate per name, signed by it, with openssl:
#   examples/tls/generate.sh OUT_DIR NAME...
# gives OUT_DIR/ca.crt, OUT_DIR/ca.key and OUT_DIR/NAME.crt, OUT_DIR/NAME.key for each NAME.
# Every certificate is good for both ends of a connection (serverAuth and clientAuth), so one per
# agent serves its HTTPS and PostgreSQL listeners and its mutual-TLS gossip, and one per client
# can be a client certificate. Names in each certificate: NAME, localhost, 127.0.0.1 and ::1, plus
# what TLS_SANS adds (e.g. TLS_SANS="DNS:db1.example.com,IP:10.0.0.5"). An existing CA in OUT_DIR
# is reused, so more names can be added later. Keys are ECDSA P-256; certificates last 825 days.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUT_DIR NAME..." >&2
  exit 2
fi
out="$1"
shift
mkdir -p "$out"
umask 077
if [ ! -f "$out/ca.key" ]; then
  openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -keyout "$out/ca.key" \
    -out "$out/ca.crt" -days 3650 -subj "/CN=Patina cluster CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
fi
for name in "$@"; do
  sans="DNS:$name,DNS:localhost,IP:127.0.0.1,IP:::1${TLS_SANS:+,$TLS_SANS}"
  openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -keyout "$out/$name.key" \
    -out "$out/$name.csr" -subj "/CN=$name" 2>/dev/null
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=%s\n' "$sans" > "$out/$name.ext"
  openssl x509 -req -in "$out/$name.csr" -CA "$out/ca.crt" -CAkey "$out/ca.key" -CAcreateserial \
    -out "$out/$name.crt" -days 825 -sha256 -extfile "$out/$name.ext" 2>/dev/null
  rm -f "$out/$name.csr" "$out/$name.ext"
done
chmod 644 "$out"/*.crt
echo "CA: $out/ca.crt; certificates: $(printf '%s ' "$@" | sed "s|\([^ ]*\) |$out/\1.crt |g")"
