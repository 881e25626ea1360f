#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, only when they are missing:
#   xmllint (libxml2-utils) validates written MusicXML against the official XSD.
#   chromium runs the browser end-to-end tests (test/browser/), driven by playwright-core
#   at /usr/bin/chromium (SCORESIGHT_CHROMIUM names another executable and skips this install).
#   tesseract-ocr-* traineddata read lyrics and titles in the dev set's and the tests' languages
#   (src/text/; English also ships with the @tesseract.js-data/eng package).
set -euo pipefail

missing=()
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
if [ -z "${SCORESIGHT_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
for lang in eng deu fra lat ita pol; do
  compgen -G "/usr/share/tesseract-ocr/*/tessdata/$lang.traineddata" >/dev/null || missing+=("tesseract-ocr-$lang")
done

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "Missing Debian packages: ${missing[*]}. Install them with: apt-get install ${missing[*]}" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "Installing Debian packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
