#!/usr/bin/env bash
# Rebuilds the committed PDF fixtures in test/fixtures/pdf/ (the tests only read them; they never
# need these tools). Every file is made by a real producer or, for the hostile ones, by a small
# raw-PDF writer below whose output is then checked or rewritten by qpdf.
#
# Tools (Debian bookworm packages):
#   apt-get update && apt-get install -y chromium qpdf ghostscript poppler-utils img2pdf python3
#
# Usage: bash scripts/make-pdf-fixtures.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/test/fixtures/pdf"
src="$out/src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in chromium qpdf gs pdftoppm img2pdf python3; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
done

print_to_pdf() { # $1 html file, $2 pdf file
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --no-pdf-header-footer \
    --print-to-pdf="$2" "file://$1" 2>/dev/null
}

# A normal two-page CV with a text layer, printed by headless Chromium (Skia/PDF) from src/cv.html.
print_to_pdf "$src/cv.html" "$out/cv-2-pages.pdf"

# A readable one-page PDF with a text layer that is not a CV (a short lunch menu from
# src/not-a-cv.html, printed by headless Chromium): it passes every file check, and a candidate
# import answers it `rejected` / `not_a_cv` (docs/decisions.md, "Candidate import").
print_to_pdf "$src/not-a-cv.html" "$out/not-a-cv-menu.pdf"

# Needs a password to open (user password, AES-256): rejected as `encrypted`.
qpdf --encrypt 'applicant-2026' 'owner-2026' 256 -- "$out/cv-2-pages.pdf" "$out/cv-user-password.pdf"

# Owner password only (permissions: no copying, no editing, low-res print). Opens without a
# password, so it is accepted.
qpdf --encrypt '' 'owner-2026' 256 --print=low --modify=none --extract=n -- \
  "$out/cv-2-pages.pdf" "$out/cv-owner-password-only.pdf"

# Scan-like: the CV rasterised to greyscale JPEG pages and wrapped as an image-only PDF.
pdftoppm -r 72 -gray -jpeg -jpegopt quality=35 "$out/cv-2-pages.pdf" "$tmp/scan"
img2pdf "$tmp/scan-1.jpg" "$tmp/scan-2.jpg" -o "$out/scan-image-only.pdf"

# Twelve pages of real text (over the 10-page limit).
{
  echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portfolio</title>'
  echo '<style>@page{size:A4;margin:20mm} section{break-after:page;font-family:"Liberation Sans",sans-serif}</style>'
  echo '</head><body>'
  for i in $(seq 1 12); do
    echo "<section><h1>Project $i</h1><p>Case study number $i of a long portfolio: goals, approach, the team,"
    echo "the results and what was learned. Each page describes one project in enough detail to be read on its own.</p></section>"
  done
  echo '</body></html>'
} >"$tmp/portfolio.html"
print_to_pdf "$tmp/portfolio.html" "$out/portfolio-12-pages.pdf"

# 10,000 pages: qpdf repeats page 1 of the portfolio; pages share their content stream and sit in
# object streams, so the file stays small (~130 KB).
pages=$(printf '1,%.0s' $(seq 1 10000))
qpdf --empty --pages "$out/portfolio-12-pages.pdf" "${pages%,}" -- --object-streams=generate \
  --compression-level=9 "$out/pages-10000.pdf"

# Truncated download: the first half of the CV (no xref, no trailer, cut mid-stream).
size=$(stat -c %s "$out/cv-2-pages.pdf")
head -c $((size / 2)) "$out/cv-2-pages.pdf" >"$out/truncated.pdf"

# Not a PDF: a PNG (the CV's first page at 20 dpi) with a .pdf name.
pdftoppm -r 20 -png -f 1 -l 1 -singlefile "$out/cv-2-pages.pdf" "$tmp/page"
cp "$tmp/page.png" "$out/png-renamed.pdf"

# Hostile files from a minimal raw-PDF writer with a correct xref table, so only the payload is
# hostile.
python3 - "$out" <<'PY'
import sys, zlib

out = sys.argv[1]

def write_pdf(path, objects):
    """objects: list of bytes bodies for objects 1..n; object 1 is the catalog."""
    data = bytearray(b'%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')
    offsets = []
    for num, body in enumerate(objects, start=1):
        offsets.append(len(data))
        data += b'%d 0 obj\n' % num + body + b'\nendobj\n'
    xref = len(data)
    data += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objects) + 1)
    for off in offsets:
        data += b'%010d 00000 n \n' % off
    data += b'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objects) + 1, xref)
    with open(path, 'wb') as f:
        f.write(data)

def stream(dict_entries, payload):
    return b'<< ' + dict_entries + b' /Length %d >>\nstream\n' % len(payload) + payload + b'\nendstream'

font = b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'

# Decompression bomb: a page content stream of 2 GiB of spaces, deflated twice
# ([/FlateDecode /FlateDecode]); the file is a few KB.
inner = zlib.compressobj(9)
chunk = b' ' * (1 << 20)
once = bytearray()
for _ in range(2048):
    once += inner.compress(chunk)
once += inner.flush()
twice = zlib.compress(bytes(once), 9)
write_pdf(f'{out}/bomb-flate.pdf', [
    b'<< /Type /Catalog /Pages 2 0 R >>',
    b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    stream(b'/Filter [/FlateDecode /FlateDecode]', twice),
    font,
])

# Exponential form XObjects: the page paints form X0, which paints X1 ten times, ... down to X8,
# which shows one word. 10^8 text runs from a ~2 KB file: nothing is cyclic, every stream is tiny,
# so neither a cycle check nor the decompression pre-scan sees anything wrong.
depth, fanout = 9, 10
objs = [
    b'<< /Type /Catalog /Pages 2 0 R >>',
    b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>',
    stream(b'', b'q /X Do Q'),
]
for level in range(depth):
    num = 5 + level
    if level == depth - 1:
        body = b'BT /F1 10 Tf 72 720 Td (again) Tj ET'
        res = b'/Resources << /Font << /F1 %d 0 R >> >>' % (num + 1)
    else:
        body = b' '.join([b'q /X Do Q'] * fanout)
        res = b'/Resources << /XObject << /X %d 0 R >> >>' % (num + 1)
    objs.append(stream(b'/Type /XObject /Subtype /Form /BBox [0 0 595 842] ' + res, body))
objs.append(font)
write_pdf(f'{out}/forms-exponential.pdf', objs)

# A page tree whose /Kids point back at itself.
write_pdf(f'{out}/pages-cycle.pdf', [
    b'<< /Type /Catalog /Pages 2 0 R >>',
    b'<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
    b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
])
PY

# The same bomb behind an owner password: its streams are AES-encrypted, so the pre-scan cannot
# inflate them and only the parser child's memory limit and deadline stand in the way.
# --stream-data=preserve keeps qpdf from inflating (and re-deflating) the bomb itself.
qpdf --stream-data=preserve --encrypt '' 'owner-2026' 256 -- "$out/bomb-flate.pdf" "$out/bomb-owner-password.pdf"

# qpdf --check also inflates every stream, so it is run on the small hostile files only.
qpdf --check "$out/forms-exponential.pdf" >/dev/null
ls -l "$out"
