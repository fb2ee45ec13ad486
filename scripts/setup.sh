#!/usr/bin/env bash
# Installs what Lift needs on a fresh Debian machine and skips what is already there: Debian's
# programs that the rungs drive and the npm packages of package-lock.json. Safe to run again.
#
#   bash scripts/setup.sh                    the core: Chromium and the command-line tools' programs
#   bash scripts/setup.sh office design      the core and those families' programs
#   bash scripts/setup.sh --all              every family and the real-app test bed (what CI runs)
#   bash scripts/setup.sh --list [GROUPS]    print the Debian packages it would install, install nothing
#
# The groups are the same as `lift doctor`'s (src/contract/setup-groups.ts; a test keeps them equal).
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A GROUP_PACKAGES=(
  # The demo, the UI rung and the command-line tools: the browser, psql, hledger, supervisor,
  # ssh-keygen (a program that asks for a passphrase), sqlite3 (docs/adding-an-app.md's family);
  # ss and ps find the processes a call owns; Debian's python for the fixtures.
  [core]="chromium postgresql hledger supervisor openssh-client sqlite3 git procps util-linux iproute2 python3"
  # convert_document, build_deck, workbooks and PDF read-backs
  [office]="libreoffice-calc libreoffice-impress libreoffice-writer python3-uno poppler-utils"
  # compose_layered_image (ImageMagick reads the PSD back), draw_house_plan (LibreCAD prints the
  # DXF), render_plan_3d (Blender), export_building_model (IFC++ compiled on first use)
  [design]="imagemagick fonts-dejavu-core librecad blender libifcplusplus-dev libboost-dev g++ poppler-utils"
  # build_timeline: melt renders the MLT timeline, ffprobe and ffmpeg measure the media;
  # build_title_animation: fc-match finds the title's font (DejaVu Sans by default)
  [video]="melt ffmpeg fontconfig fonts-dejavu-core"
  # the desktop rung's display, buses and accessibility bridge, and the programs its tests drive
  [desktop]="xvfb dbus at-spi2-core libatk-adaptor python3-gi gir1.2-atspi-2.0 gir1.2-gtk-3.0 python3-pyatspi gnome-calculator gucharmap xclip"
  # the email tools' tests: IMAP and local delivery, SMTP submission (started per test)
  [mail]="dovecot-imapd dovecot-lmtpd postfix"
  # the chat tools' tests: XMPP rooms, archives, uploads and moderation
  [chat]="prosody prosody-modules"
  # the real-app test bed (test/real-apps/): third-party web apps on MariaDB and PHP's own web
  # server, Redmine on Rails' own, a real CKEditor 4
  [bed]="mariadb-server mariadb-client php-cli php-mysql php-intl php-mbstring php-xml wordpress wordpress-theme-twentytwentythree mediawiki phpmyadmin roundcube-core roundcube-mysql redmine redmine-mysql tt-rss ckeditor"
)
GROUP_ORDER=(core office design video desktop mail chat bed)

list_only=false
chosen=(core)
for arg in "$@"; do
  case "$arg" in
    --all) chosen=("${GROUP_ORDER[@]}") ;;
    --list) list_only=true ;;
    core) ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *)
      if [ -z "${GROUP_PACKAGES[$arg]+set}" ]; then
        echo "setup: no group named '$arg'. Groups: ${GROUP_ORDER[*]}, or --all for every one." >&2
        exit 2
      fi
      chosen+=("$arg") ;;
  esac
done

wanted=()
for group in "${chosen[@]}"; do
  for package in ${GROUP_PACKAGES[$group]}; do
    [[ " ${wanted[*]} " == *" $package "* ]] || wanted+=("$package")
  done
done
if $list_only; then
  printf '%s\n' "${wanted[@]}"
  exit 0
fi

missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#chosen[@]} -lt ${#GROUP_ORDER[@]} ]; then
  echo "setup: groups ${chosen[*]} (more: name them from ${GROUP_ORDER[*]:1}, or --all)"
else
  echo "setup: every group"
fi
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
