import { sanitizeDescription } from '../src/lib/sanitize.ts';
import { XSS_PAYLOADS } from '../test/pages-xss-payloads.ts';
const CLOSE = '</style></script></textarea></noscript></template></iframe></object></frameset></mglyph></table></mtext></svg></math></marquee></details></video></form>';
const description = XSS_PAYLOADS.map((p) => `<p>${p.name}:</p>${p.html}${CLOSE}`).join('\n');
const out = sanitizeDescription(description);
console.log(out);
for (const p of XSS_PAYLOADS) if (!out.includes(`<p>${p.name.replace(/&/g,'&amp;')}:</p>`)) console.log('MISSING', p.name);
