#!/usr/bin/env bash
# Rebuilds the labelled CV fixtures in test/fixtures/cv/ (PDF only; each <name>.json next to a PDF
# is hand-written ground truth and is never generated). Four producers, so the builder is measured
# on the text layers that different tools emit:
#   chromium     HTML in src/*.html printed by headless Chromium (Skia/PDF)
#   libreoffice  flat ODT (src/libreoffice-head.fodt + src/*.body.fodt) exported by LibreOffice Writer
#   groff        src/*.ms typeset by groff -ms to PostScript, then ps2pdf (Ghostscript)
#   pdfkit       drawn by scripts/make-cv-fixtures.pdfkit.ts with PDFKit (npm, MIT; a dev dependency)
#
# Tools (Debian bookworm packages, plus the project's own node_modules):
#   apt-get update && apt-get install -y chromium libreoffice-writer-nogui groff ghostscript \
#     fonts-liberation fonts-dejavu-core
#
# Every person, employer address, e-mail, phone number and link in these CVs is made up.
# Usage: bash scripts/make-cv-fixtures.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/test/fixtures/cv"
src="$out/src"
node="$root/node_modules/.bin/node"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in chromium soffice groff ps2pdf; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
done

for name in en-chromium-1col es-chromium-2col pt-chromium-2col fr-chromium-1col; do
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --no-pdf-header-footer \
    --print-to-pdf="$out/$name.pdf" "file://$src/$name.html" 2>/dev/null
done

for name in fr-libreoffice-1col en-libreoffice-2col pt-libreoffice-1col es-libreoffice-2col; do
  {
    cat "$src/libreoffice-head.fodt" "$src/$name.body.fodt"
    printf '  </office:text>\n </office:body>\n</office:document>\n'
  } >"$tmp/$name.fodt"
  # A private profile directory, so a desktop LibreOffice that is open does not take the job over.
  soffice -env:UserInstallation="file://$tmp/lo-profile" --headless --convert-to pdf --outdir "$out" \
    "$tmp/$name.fodt" >/dev/null
done

for name in en-groff-1col es-groff-1col pt-groff-1col en-groff-1col-uk; do
  # -k runs preconv so the UTF-8 source's accented letters reach troff.
  groff -k -ms -Tps -dpaper=a4 -P-pa4 "$src/$name.ms" >"$tmp/$name.ps"
  ps2pdf -sPAPERSIZE=a4 "$tmp/$name.ps" "$out/$name.pdf"
done

"$node" "$root/scripts/make-cv-fixtures.pdfkit.ts" "$out"

ls -l "$out"/*.pdf
