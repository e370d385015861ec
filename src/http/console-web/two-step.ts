import type { FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { TotpSetup } from '../../domain/console-users/security-service.ts';
import { addressBucket } from '../../lib/client-address.ts';
import { html, type SafeHtml } from '../../lib/html.ts';

/** What a wrong code budget allows: per client address, across users, in 15 minutes. */
export const CODE_LIMITS = { perAddress: 30, perUser: 10, windowMs: 15 * 60_000 };

/**
 * The QR code of the otpauth:// URI as inline SVG, drawn on the server from the library's module
 * matrix (one path of unit squares; no image is fetched, no markup is taken from elsewhere).
 */
export function qrSvg(uri: string): SafeHtml {
  const { modules } = QRCode.create(uri, { errorCorrectionLevel: 'M' });
  const margin = 2;
  const side = modules.size + margin * 2;
  const squares: string[] = [];
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (modules.get(y, x)) squares.push(`M${x + margin} ${y + margin}h1v1h-1z`);
    }
  }
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" role="img" aria-label="QR code of the set-up key (the same key is written below)" shape-rendering="crispEdges"><rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${squares.join('')}"/></svg>`;
}

/** The set-up of an authenticator app: the QR code, the key as text, the otpauth:// URI. */
export function setupBlock(setup: TotpSetup): SafeHtml {
  const grouped = setup.base32.replace(/(.{4})/g, '$1 ').trim();
  return html`<ol class="steps"><li>Open an authenticator app on your phone (any app for "time-based one-time codes").</li>
<li>Scan this QR code, or type the key below into the app.<div class="qrbox">${qrSvg(setup.uri)}</div>
<label for="totp-key">Set-up key</label><textarea id="totp-key" class="secret-field" readonly rows="2" spellcheck="false" aria-describedby="totp-key-hint">${grouped}</textarea>
<p class="hint" id="totp-key-hint">Time-based, 6 digits, every 30 seconds.</p>
<details><summary>Set-up link for apps that take one</summary><p class="secret">${setup.uri}</p></details></li>
<li>Enter the 6-digit code the app now shows.</li></ol>`;
}

export function codeField(label = 'Code from your app'): SafeHtml {
  return html`<label for="code">${label}</label><input type="text" id="code" name="code" inputmode="numeric" pattern="[0-9 ]{6,7}" maxlength="7" autocomplete="one-time-code" required aria-describedby="code-hint" class="code">
<p class="hint" id="code-hint">6 digits; a new one every 30 seconds.</p>`;
}

export const TWO_STEP_STYLE = html`<style>.qrbox svg{width:12rem;height:12rem;display:block;margin:.5rem 0;background:#fff}input.code{font:inherit;font-size:1.25rem;letter-spacing:.2em;padding:.5rem;border:1px solid #767676;border-radius:4px;width:10rem;max-width:100%}textarea.secret-field{font-family:monospace;font-size:1rem;resize:none;max-width:24rem}ol.steps li{margin:.5rem 0}</style>`;

/** The rate-limit keys of code attempts (wrong codes at sign-in or on the security page). */
export function codeCounterKeys(request: FastifyRequest, userKey: string) {
  const bucket = addressBucket(request.ip);
  return { address: `console-code:address:${bucket}`, user: `console-code:user:${userKey}` };
}

export function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}
