import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  escaped,
  type HtmlValue,
  html,
  joinHtml,
  jsonScript,
  SafeHtml,
  safeUrl,
  unsafeRaw,
} from '../src/lib/html.ts';
import { XSS_PAYLOADS } from './pages-xss-payloads.ts';

describe('html`…` templates', () => {
  test('every interpolated string is escaped, the literal parts are kept as written', () => {
    const out = html`<p class="x" title="${`"'<>&`}">${'<script>alert(1)</script> & "q"'}</p>`;
    assert.ok(out instanceof SafeHtml);
    assert.equal(
      String(out),
      '<p class="x" title="&quot;&#39;&lt;&gt;&amp;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;</p>',
    );
  });

  test('a SafeHtml is embedded as is; arrays join; numbers print; null, undefined and false print nothing', () => {
    const inner = html`<b>${'a<b'}</b>`;
    const items: HtmlValue[] = [html`<li>1</li>`, '<li>', 2, null, undefined, false];
    assert.equal(String(html`<div>${inner}</div>`), '<div><b>a&lt;b</b></div>');
    assert.equal(String(html`<ul>${items}</ul>`), '<ul><li>1</li>&lt;li&gt;2</ul>');
    assert.equal(String(html`${[[html`<i>x</i>`, ['<']]]}`), '<i>x</i>&lt;');
    assert.equal(String(html`${0}|${-1.5}`), '0|-1.5');
    assert.equal(String(html`a${null}${undefined}${false}b`), 'ab');
  });

  test('what is not a string, a number, a SafeHtml or nothing is refused, not printed', () => {
    for (const value of [true, {}, { toString: () => '<b>' }, () => 'x', 10n, Symbol('s')]) {
      assert.throws(() => html`${value as never}`, TypeError, String(typeof value));
    }
  });

  test('a string is not a SafeHtml and none can be made outside the module', () => {
    // @ts-expect-error: the constructor is private, and refuses at run time too
    assert.throws(() => new SafeHtml('<b>'), TypeError);
    const fake = Object.create(SafeHtml.prototype) as SafeHtml;
    assert.throws(() => String(fake), TypeError, 'a forged instance has no markup to give');
    assert.throws(() => html`${fake}`, TypeError);
    // @ts-expect-error: a plain string is not SafeHtml (what keeps sendPage from taking one)
    const notSafe: SafeHtml = '<b>';
    assert.equal(typeof notSafe, 'string');
  });

  test('every payload of the XSS list comes out inert (no < > " \' left from the text)', () => {
    for (const { html: payload } of XSS_PAYLOADS) {
      const out = String(html`<p title="${payload}">${payload}</p>`);
      const text = out.slice('<p title="'.length, out.length - '</p>'.length);
      assert.doesNotMatch(text.replace('">', ''), /[<>"']/, payload);
    }
  });

  test('joinHtml puts an escaped separator between the parts that print something', () => {
    assert.equal(String(joinHtml(['a', '', null, html`<b>b</b>`, '<c>'], ' · ')), 'a · <b>b</b> · &lt;c&gt;');
    assert.equal(String(joinHtml(['a', 'b'], html`<br>`)), 'a<br>b');
    assert.equal(String(joinHtml([], ', ')), '');
  });

  test('escaped() is the text as a SafeHtml; unsafeRaw() trusts its markup', () => {
    assert.equal(String(escaped('<x>')), '&lt;x&gt;');
    assert.equal(String(unsafeRaw('<p>ok</p>')), '<p>ok</p>');
    assert.equal(JSON.stringify({ h: html`<i>${'&'}</i>` }), '{"h":"<i>&amp;</i>"}');
  });
});

describe('jsonScript (JSON-LD)', () => {
  test('no string inside can close the element or open a comment; the JSON reads back the same', () => {
    const hostile = '</script><script>alert(1)</script><!-- --> & \u2028\u2029';
    const data = { title: hostile, nested: [{ name: hostile }] };
    const out = String(jsonScript(data));
    const open = '<script type="application/ld+json">';
    assert.ok(out.startsWith(open) && out.endsWith('</script>'));
    const json = out.slice(open.length, -'</script>'.length);
    assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(json), data);
  });
});

describe('safeUrl', () => {
  test('http(s), mailto and relative references pass; other schemes become #', () => {
    for (const ok of [
      'https://a.example/x?y=1&z="2"',
      'http://a',
      'mailto:a@b.c',
      '/en/jobs',
      'x/y:z',
      '#top',
      '?q=1',
    ]) {
      assert.equal(safeUrl(ok), ok);
    }
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
    ]) {
      assert.equal(safeUrl(bad), '#', JSON.stringify(bad));
    }
    assert.equal(safeUrl(null), '#');
    assert.equal(
      String(html`<a href="${safeUrl('https://a/?x="><b>')}">`),
      '<a href="https://a/?x=&quot;&gt;&lt;b&gt;">',
    );
  });
});
