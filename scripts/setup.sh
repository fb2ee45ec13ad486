#!/usr/bin/env bash
# Installs what Lift needs on a fresh Debian machine and skips what is already there:
# Debian's programs that the rungs drive (Chromium, PostgreSQL, LibreOffice, hledger, ...)
# and the npm packages of package-lock.json. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  chromium            # the UI rung's browser, driven by playwright-core
  postgresql          # the command-line rung's psql tool and its test server
  hledger             # the file rung's accounting program
  libreoffice-calc libreoffice-impress libreoffice-writer python3-uno  # the office tools
  poppler-utils       # pdftotext and pdftoppm for checks
  supervisor          # the service_restart tool's service manager
  openssh-client      # ssh-keygen, a program that asks for a passphrase
  git procps util-linux iproute2 python3  # ss finds processes holding a pipe; Debian python for the fixtures
  dovecot-imapd dovecot-lmtpd  # IMAP and local delivery for the email tools' tests (test/support/mail/)
)

missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi

npm run build --silent
echo "setup: ready"
