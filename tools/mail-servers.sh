#!/usr/bin/env bash
# Real mail servers on loopback for tests/mailbox.rs: Debian's postfix
# and dovecot-imapd, with the test accounts USER@herald.test for USER in
# ann bob cara dave kay, password "secret". Mail is delivered into
# Maildirs under /var/lib/herald-mail/USER/Maildir.
#
#   SMTP 127.0.0.1:2525  plain, no login (mynetworks)
#   SMTP 127.0.0.1:2587  STARTTLS required, login required (dovecot SASL)
#   SMTP 127.0.0.1:2465  TLS from the first byte (submissions), login required
#   IMAP 127.0.0.1:1143  plain or STARTTLS
#   IMAP 127.0.0.1:1993  TLS from the first byte (imaps)
#
# The certificates come from a throw-away CA made here with openssl:
# /etc/herald-mail/tls/ca.pem (give it as ca-file), the server's for
# 127.0.0.1 and localhost signed by it.
#
#   tools/mail-servers.sh install   apt-get install the packages (root or sudo)
#   tools/mail-servers.sh start     configure and start both (idempotent)
#   tools/mail-servers.sh check     exit 0 when both ports answer
#
# Shared by .ci/run and the flow test; run as root or with sudo. Nothing
# listens beyond 127.0.0.1 (postfix's inet_interfaces = loopback-only).
set -euo pipefail

SMTP_PORT=2525
SUBMISSION_PORT=2587
SUBMISSIONS_PORT=2465
IMAP_PORT=1143
IMAPS_PORT=1993
PORTS=("$SMTP_PORT" "$SUBMISSION_PORT" "$SUBMISSIONS_PORT" "$IMAP_PORT" "$IMAPS_PORT")
BASE=/var/lib/herald-mail
CONF=/etc/herald-mail
USERS=(ann bob cara dave kay)

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}

listening() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

all_listening() {
    local p
    for p in "${PORTS[@]}"; do listening "$p" || return 1; done
}

install() {
    if command -v postfix >/dev/null 2>&1 && command -v dovecot >/dev/null 2>&1 \
        && [ -e /usr/lib/dovecot/imap ] && command -v openssl >/dev/null 2>&1; then
        return 0
    fi
    echo "== apt-get install postfix dovecot-imapd openssl (the mailbox flow test's servers)"
    as_root sh -c 'echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
        echo "postfix postfix/mailname string herald.test" | debconf-set-selections
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postfix dovecot-imapd openssl'
}

start() {
    as_root bash -s "$SMTP_PORT" "$IMAP_PORT" "$BASE" "$CONF" "$SUBMISSION_PORT" "$SUBMISSIONS_PORT" "$IMAPS_PORT" "${USERS[@]}" <<'ROOT'
set -euo pipefail
SMTP_PORT=$1 IMAP_PORT=$2 BASE=$3 CONF=$4 SUBMISSION_PORT=$5 SUBMISSIONS_PORT=$6 IMAPS_PORT=$7
shift 7
id heraldmail >/dev/null 2>&1 || useradd --system --home-dir "$BASE" --shell /usr/sbin/nologin heraldmail
mkdir -p "$BASE" "$CONF"
: >"$CONF/passwd"
: >"$CONF/vmailbox"
for u in "$@"; do
    mkdir -p "$BASE/$u/Maildir/cur" "$BASE/$u/Maildir/new" "$BASE/$u/Maildir/tmp"
    echo "$u@herald.test:{PLAIN}secret" >>"$CONF/passwd"
    echo "$u@herald.test $u/Maildir/" >>"$CONF/vmailbox"
done
chown -R heraldmail:heraldmail "$BASE"
chmod 755 "$BASE"
uid=$(id -u heraldmail) gid=$(id -g heraldmail)

# A throw-away CA and a certificate for 127.0.0.1 and localhost signed by
# it (made once; the CA is what a test gives as ca-file).
TLS=$CONF/tls
mkdir -p "$TLS"
if [ ! -s "$TLS/server.pem" ] || [ ! -s "$TLS/ca.pem" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=herald test CA" \
        -keyout "$TLS/ca.key" -out "$TLS/ca.pem" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
        -keyout "$TLS/server.key" -out "$TLS/server.csr" 2>/dev/null
    printf 'subjectAltName = IP:127.0.0.1, DNS:localhost\nbasicConstraints = CA:FALSE\nextendedKeyUsage = serverAuth\n' >"$TLS/server.ext"
    openssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.pem" -CAkey "$TLS/ca.key" \
        -CAcreateserial -days 3650 -extfile "$TLS/server.ext" -out "$TLS/server.pem" 2>/dev/null
fi
chmod 644 "$TLS/ca.pem" "$TLS/server.pem"
chmod 600 "$TLS/ca.key" "$TLS/server.key"
chmod 755 "$CONF" "$TLS"

# postfix: loopback only, the test domain delivered to the Maildirs.
postconf -e "inet_interfaces = loopback-only" "inet_protocols = ipv4" \
    "mydestination = localhost" "myhostname = mail.herald.test" \
    "mynetworks = 127.0.0.0/8" "relayhost =" \
    "virtual_mailbox_domains = herald.test" "virtual_mailbox_base = $BASE" \
    "virtual_mailbox_maps = hash:$CONF/vmailbox" \
    "virtual_uid_maps = static:$uid" "virtual_gid_maps = static:$gid" \
    "smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination" \
    "maillog_file = /var/log/herald-postfix.log"
postconf -M "127.0.0.1:$SMTP_PORT/inet=127.0.0.1:$SMTP_PORT inet n - y - - smtpd"
# Submission with a login checked by dovecot (its auth socket below):
# STARTTLS required on one port, TLS from the first byte on the other.
submission="-o smtpd_tls_cert_file=$TLS/server.pem -o smtpd_tls_key_file=$TLS/server.key -o smtpd_sasl_auth_enable=yes -o smtpd_sasl_type=dovecot -o smtpd_sasl_path=private/herald-auth -o smtpd_relay_restrictions=permit_sasl_authenticated,reject_unauth_destination"
postconf -M "127.0.0.1:$SUBMISSION_PORT/inet=127.0.0.1:$SUBMISSION_PORT inet n - y - - smtpd $submission -o smtpd_tls_security_level=encrypt"
postconf -M "127.0.0.1:$SUBMISSIONS_PORT/inet=127.0.0.1:$SUBMISSIONS_PORT inet n - y - - smtpd $submission -o smtpd_tls_wrappermode=yes"
postconf -M postlog/unix-dgram="postlog unix-dgram n - n - 1 postlogd"
postmap "hash:$CONF/vmailbox"
if postfix status >/dev/null 2>&1; then postfix reload >/dev/null 2>&1; else postfix start >/dev/null 2>&1; fi

# dovecot: an instance of its own, IMAP only, on loopback: plain text or
# STARTTLS on one port, TLS on the other; and the login check postfix's
# submission ports ask it for.
cat >"$CONF/dovecot.conf" <<CONFEND
base_dir = /run/herald-dovecot
instance_name = herald-dovecot
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <$TLS/server.pem
ssl_key = <$TLS/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:$BASE/%n/Maildir
log_path = /var/log/herald-dovecot.log
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service auth {
  unix_listener /var/spool/postfix/private/herald-auth {
    mode = 0660
    user = postfix
    group = postfix
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $CONF/passwd
}
userdb {
  driver = static
  args = uid=$uid gid=$gid home=$BASE/%n
}
CONFEND
if [ -e /run/herald-dovecot/master.pid ] && kill -0 "$(cat /run/herald-dovecot/master.pid)" 2>/dev/null; then
    # A reload keeps the listeners it had: restart, so that new ports open.
    doveadm -c "$CONF/dovecot.conf" stop
    for _ in $(seq 1 50); do [ -e /run/herald-dovecot/master.pid ] || break; sleep 0.1; done
    dovecot -c "$CONF/dovecot.conf" </dev/null >/dev/null 2>&1  # detached: no pipe of the caller kept open
else
    dovecot -c "$CONF/dovecot.conf" </dev/null >/dev/null 2>&1  # detached: no pipe of the caller kept open
fi
ROOT
    for _ in $(seq 1 50); do
        if all_listening; then
            echo "mail servers up on 127.0.0.1: SMTP $SMTP_PORT (plain), $SUBMISSION_PORT (STARTTLS), $SUBMISSIONS_PORT (TLS); IMAP $IMAP_PORT (plain, STARTTLS), $IMAPS_PORT (TLS); CA $CONF/tls/ca.pem"
            return 0
        fi
        sleep 0.2
    done
    echo "the mail servers did not start: see /var/log/herald-postfix.log and /var/log/herald-dovecot.log" >&2
    return 1
}

case "${1:-}" in
    install) install ;;
    start) start ;;
    check) all_listening ;;
    *) echo "usage: tools/mail-servers.sh install|start|check" >&2; exit 2 ;;
esac
