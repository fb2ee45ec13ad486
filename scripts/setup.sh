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
  sqlite3             # the worked family of docs/adding-an-app.md (test/docs/adding-an-app.test.ts)
  libreoffice-calc libreoffice-impress libreoffice-writer python3-uno  # the office tools
  poppler-utils       # pdftotext and pdftoppm for checks
  supervisor          # the service_restart tool's service manager
  openssh-client      # ssh-keygen, a program that asks for a passphrase
  git procps util-linux iproute2 python3  # ss finds processes holding a pipe; Debian python for the fixtures
  xvfb dbus at-spi2-core libatk-adaptor python3-gi gir1.2-atspi-2.0 gir1.2-gtk-3.0  # the desktop rung's display, buses and bridge
  python3-pyatspi gnome-calculator gucharmap xclip  # the desktop bench's baseline, the programs its tests drive, the clipboard
  imagemagick fonts-dejavu-core  # compose_layered_image: reads the PSD back; the poster font
  librecad            # draw_house_plan: dxf2pdf prints the DXF at true scale
  blender             # render_plan_3d: background-mode build and render
  melt ffmpeg         # build_timeline: melt renders the MLT timeline, ffprobe and ffmpeg measure media and render
  libifcplusplus-dev libboost-dev g++  # export_building_model: the IFC++ reader is compiled on first use
  dovecot-imapd dovecot-lmtpd  # IMAP and local delivery for the email tools' tests (test/support/mail/)
  postfix             # SMTP submission for the email tools' tests (started per test, never as a service)
  prosody prosody-modules  # XMPP rooms, archives, uploads and moderation for the chat tools' tests (test/support/chat/)
  # The real-app test bed (test/real-apps/): third-party web apps on MariaDB and PHP's own web server
  mariadb-server mariadb-client php-cli php-mysql php-intl php-mbstring php-xml
  wordpress wordpress-theme-twentytwentythree mediawiki phpmyadmin roundcube-core roundcube-mysql
  redmine redmine-mysql  # a tracker on Rails' own server (Ruby, Bundler, WEBrick and mysql2 come with them)
  tt-rss              # a single-page JavaScript feed reader on PHP's server
  ckeditor            # a real CKEditor 4: the bed's Notes page and test/rungs/ui/real-rich-text-editors.test.ts
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
  # Postfix asks what kind of mail server to be; the tests configure their own, so: none.
  echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
  # The bed configures its apps itself, in temp folders: no system database or web server setup.
  printf '%s\n' 'phpmyadmin phpmyadmin/dbconfig-install boolean false' \
    'phpmyadmin phpmyadmin/reconfigure-webserver multiselect' \
    'roundcube-core roundcube/dbconfig-install boolean false' \
    'roundcube-core roundcube/reconfigure-webserver multiselect' \
    'redmine redmine/instances/default/dbconfig-install boolean false' \
    'tt-rss tt-rss/dbconfig-install boolean false' \
    'tt-rss tt-rss/reconfigure-webserver multiselect' | $SUDO debconf-set-selections
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi

npm run build --silent
echo "setup: ready"
