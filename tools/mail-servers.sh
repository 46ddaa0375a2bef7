#!/usr/bin/env bash
# Real mail servers on loopback for tests/mailbox.rs: Debian's postfix
# (SMTP on 127.0.0.1:2525) and dovecot-imapd (IMAP on 127.0.0.1:1143,
# plain text: loopback only), with two test accounts,
# ann@herald.test and bob@herald.test, password "secret". Mail is
# delivered into Maildirs under /var/lib/herald-mail/USER/Maildir.
#
#   tools/mail-servers.sh install   apt-get install the packages (root or sudo)
#   tools/mail-servers.sh start     configure and start both (idempotent)
#   tools/mail-servers.sh check     exit 0 when both ports answer
#
# Shared by .ci/run and the flow test; run as root or with sudo. Nothing
# listens beyond 127.0.0.1 (postfix's inet_interfaces = loopback-only).
set -euo pipefail

SMTP_PORT=2525
IMAP_PORT=1143
BASE=/var/lib/herald-mail
CONF=/etc/herald-mail
USERS=(ann bob)

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}

listening() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

install() {
    if command -v postfix >/dev/null 2>&1 && command -v dovecot >/dev/null 2>&1 \
        && [ -e /usr/lib/dovecot/imap ]; then
        return 0
    fi
    echo "== apt-get install postfix dovecot-imapd (the mailbox flow test's servers)"
    as_root sh -c 'echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
        echo "postfix postfix/mailname string herald.test" | debconf-set-selections
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postfix dovecot-imapd'
}

start() {
    as_root bash -s "$SMTP_PORT" "$IMAP_PORT" "$BASE" "$CONF" "${USERS[@]}" <<'ROOT'
set -euo pipefail
SMTP_PORT=$1 IMAP_PORT=$2 BASE=$3 CONF=$4
shift 4
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
postconf -M postlog/unix-dgram="postlog unix-dgram n - n - 1 postlogd"
postmap "hash:$CONF/vmailbox"
if postfix status >/dev/null 2>&1; then postfix reload >/dev/null 2>&1; else postfix start >/dev/null 2>&1; fi

# dovecot: an instance of its own, IMAP only, plain on loopback.
cat >"$CONF/dovecot.conf" <<CONFEND
base_dir = /run/herald-dovecot
instance_name = herald-dovecot
protocols = imap
listen = 127.0.0.1
ssl = no
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
    port = 0
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
    doveadm -c "$CONF/dovecot.conf" reload
else
    dovecot -c "$CONF/dovecot.conf"
fi
ROOT
    for _ in $(seq 1 50); do
        if listening "$SMTP_PORT" && listening "$IMAP_PORT"; then
            echo "mail servers up: SMTP 127.0.0.1:$SMTP_PORT, IMAP 127.0.0.1:$IMAP_PORT"
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
    check) listening "$SMTP_PORT" && listening "$IMAP_PORT" ;;
    *) echo "usage: tools/mail-servers.sh install|start|check" >&2; exit 2 ;;
esac
