import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jobPostingJsonLd } from '../src/http/pages/job-page.ts';
import { jsonScript } from '../src/lib/html.ts';
import { plainText, sanitizeDescription } from '../src/lib/sanitize.ts';
import { XSS_PAYLOADS } from './pages-xss-payloads.ts';

/** Tags the description may keep (src/lib/sanitize.ts's allow-list). */
const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'ul',
  'ol',
  'li',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'a',
]);

/**
 * Every tag of sanitised output with its attributes. The sanitiser's output is regular (quoted
 * attributes, escaped text), so a tokenizer over it is enough to see what a browser would build.
 */
function tagsOf(html: string): { name: string; attrs: Record<string, string> }[] {
  const tags: { name: string; attrs: Record<string, string> }[] = [];
  for (const match of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of match[2]!.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g))
      attrs[a[1]!.toLowerCase()] = a[2] ?? '';
    tags.push({ name: match[1]!.toLowerCase(), attrs });
  }
  return tags;
}

/** What no sanitised description may contain, whatever the input. */
function assertSafe(input: string, output: string): void {
  const why = `input ${JSON.stringify(input)} gave ${JSON.stringify(output)}`;
  // Every `<` that is not a tag the tokenizer read would be markup a browser might still parse.
  const tags = tagsOf(output);
  assert.equal((output.match(/</g) ?? []).length, tags.length, `stray "<": ${why}`);
  for (const { name, attrs } of tags) {
    assert.ok(ALLOWED_TAGS.has(name), `tag <${name}> kept: ${why}`);
    for (const [attr, value] of Object.entries(attrs)) {
      assert.ok(
        name === 'a' && (attr === 'href' || attr === 'rel'),
        `attribute ${attr} on <${name}> kept: ${why}`,
      );
      if (attr === 'href') {
        const decoded = value.replace(/&amp;/g, '&');
        assert.match(decoded, /^(https?:\/\/|mailto:)/i, `href ${value} kept: ${why}`);
      }
    }
  }
  assert.doesNotMatch(output, /\bon[a-z]+\s*=/i, `event handler: ${why}`);
  assert.doesNotMatch(output, /javascript:|vbscript:|data:/i, `script URL: ${why}`);
  // Sanitising again changes nothing: the output is stable (no mutation-XSS round trip).
  assert.equal(sanitizeDescription(output), output, `not a fixed point: ${why}`);
}

describe('sanitizeDescription against XSS payloads', () => {
  for (const payload of XSS_PAYLOADS) {
    test(payload.name, () => {
      const output = sanitizeDescription(payload.html);
      assertSafe(payload.html, output);
      for (const text of payload.keepsText ?? []) {
        assert.ok(
          output.includes(text),
          `visible text ${JSON.stringify(text)} dropped from ${JSON.stringify(output)}`,
        );
      }
    });
  }

  test('all payloads at once, concatenated, are still safe', () => {
    const html = XSS_PAYLOADS.map((p) => p.html).join('\n');
    assertSafe(html, sanitizeDescription(html));
  });

  test('nested and repeated obfuscation does not reassemble after one pass', () => {
    for (const html of [
      '<scr<script>ipt>alert(1)</scr</script>ipt>',
      '<<script>script>alert(1)<</script>/script>',
      '<a href="java<script></script>script:alert(1)">x</a>',
      '<p <img src=x onerror=alert(1)>>x</p>',
      '<sc<!-- -->ript>alert(1)</script>',
      '<svg><p><style><img src=x onerror=alert(1)></style></p></svg>',
      '<a href="javascript&#00058;alert(1)">x</a>',
    ]) {
      const once = sanitizeDescription(html);
      assertSafe(html, once);
      assert.doesNotMatch(once, /<script|<img|<style|<svg/i, JSON.stringify(once));
    }
  });
});

describe('sanitizeDescription keeps the employer formatting', () => {
  test('paragraphs, lists, emphasis and headings survive; h1 becomes h2', () => {
    const html =
      '<h1>About us</h1><p>We <strong>build</strong> <em>things</em> <b>b</b> <i>i</i> <u>u</u>.<br>Line</p><ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote><h3>More</h3><h4>Even more</h4>';
    assert.equal(
      sanitizeDescription(html),
      '<h2>About us</h2><p>We <strong>build</strong> <em>things</em> <b>b</b> <i>i</i> <u>u</u>.<br />Line</p><ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote><h3>More</h3><h4>Even more</h4>',
    );
  });

  test('http(s) and mailto links are kept, with rel forced to nofollow noopener', () => {
    const out = sanitizeDescription(
      '<a href="https://example.com/a?b=1&c=2" rel="opener" target="_blank">site</a> <a href="mailto:jobs@example.com">mail</a> <a href="http://example.org">plain</a>',
    );
    assert.equal(
      out,
      '<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer ugc">site</a> <a href="mailto:jobs@example.com" rel="nofollow noopener noreferrer ugc">mail</a> <a href="http://example.org" rel="nofollow noopener noreferrer ugc">plain</a>',
    );
  });

  test('relative links are dropped: they would point into the careers service itself', () => {
    for (const href of [
      '/apply/job_other?via=job_page',
      '../../other/role',
      'benefits.html',
      '#top',
      '?x=1',
    ]) {
      assert.equal(
        sanitizeDescription(`<a href="${href}">link</a>`),
        '<a rel="nofollow noopener noreferrer ugc">link</a>',
        href,
      );
    }
  });

  test('plain text is kept, with markup characters escaped', () => {
    assert.equal(sanitizeDescription('Salary > 50k & <great> team'), 'Salary &gt; 50k &amp;  team');
    assert.equal(sanitizeDescription('5 < 6 and "quotes"'), '5 &lt; 6 and "quotes"');
  });

  test('text hidden by styles or attributes is shown, not dropped and not hidden', () => {
    const out = sanitizeDescription(
      '<p style="display:none">Hidden clause</p><span hidden>secret</span><div style="font-size:0">tiny</div><p style="color:#fff">white</p>',
    );
    assert.equal(out, '<p>Hidden clause</p>secrettiny<p>white</p>');
  });

  test('plainText (the meta description) has no markup at all', () => {
    assert.equal(
      plainText('<p>Hello <script>alert(1)</script><b>world</b></p>\n\n<ul><li>x</li></ul>'),
      'Hello world x',
    );
  });
});

describe('JSON-LD inside <script>', () => {
  test('no string in the posting can close the script element or start a comment', () => {
    const hostile = '</script><script>alert(1)</script><!-- \u2028\u2029';
    const element = String(jsonScript({ title: hostile, nested: [{ name: hostile }] }));
    const json = element.slice('<script type="application/ld+json">'.length, -'</script>'.length);
    assert.doesNotMatch(json, /<\/script|<!--|<script/i);
    assert.ok(!json.includes('\u2028') && !json.includes('\u2029'));
    assert.deepEqual(
      JSON.parse(json),
      { title: hostile, nested: [{ name: hostile }] },
      'still the same data',
    );
  });

  test('the posting carries the sanitised description, not the raw one', () => {
    const ld = jobPostingJsonLd({
      id: 'job_1',
      status: 'published',
      title: 'T',
      description: '<p onclick="x()">Hi<script>alert(1)</script></p>',
      responsibilities: [],
      skills: [],
      benefits: [],
      questions: [],
      company: { name: 'Co' },
      location: { city: 'Perth', country: 'AU' },
      applyLink: 'https://careers.test/apply/job_1',
    } as Parameters<typeof jobPostingJsonLd>[0]);
    assert.equal(ld?.description, '<p>Hi</p>');
  });
});
