/**
 * XSS payloads an employer's description might carry (pasted, or hostile), for the sanitiser's unit
 * tests and for the browser test that renders them on a job page. `keepsText` lists words that are
 * harmless text and must stay visible after sanitising.
 */
export interface XssPayload {
  name: string;
  html: string;
  keepsText?: string[];
}

export const XSS_PAYLOADS: XssPayload[] = [
  // Script elements
  { name: 'script tag', html: '<script>alert(1)</script>' },
  {
    name: 'script tag, upper case with attributes',
    html: '<SCRIPT type="text/javascript" SRC="https://evil.example/x.js"></SCRIPT>',
  },
  { name: 'script split by a nested script', html: '<scr<script>ipt>alert(1)</script>' },
  { name: 'script wrapped in angle brackets', html: '<<script>script>alert(1)<</script>/script>' },
  { name: 'script inside a comment trick', html: '<!--<img src=x onerror=alert(1)>-->' },
  { name: 'script inside CDATA', html: '<![CDATA[<script>alert(1)</script>]]>' },
  { name: 'script inside template', html: '<template><script>alert(1)</script></template>' },
  { name: 'script inside textarea', html: '<textarea><script>alert(1)</script></textarea>' },
  {
    name: 'noscript attribute breakout',
    html: '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  },
  // Event handlers
  { name: 'img onerror', html: '<img src=x onerror=alert(1)>' },
  {
    name: 'img onerror with entity-encoded javascript src',
    html: '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  },
  {
    name: 'onclick and onmouseover on allowed tags',
    html: '<p onclick="alert(1)" onmouseover="alert(1)">click me</p>',
    keepsText: ['click me'],
  },
  {
    name: 'onclick on an allowed link',
    html: '<a href="https://ok.example/" onclick="alert(1)" target="_blank">ok link</a>',
    keepsText: ['ok link', 'href="https://ok.example/"'],
  },
  { name: 'body onload', html: '<body onload=alert(1)>' },
  { name: 'details ontoggle', html: '<details open ontoggle=alert(1)><summary>s</summary></details>' },
  { name: 'input autofocus onfocus', html: '<input autofocus onfocus=alert(1)>' },
  { name: 'video source onerror', html: '<video><source onerror="alert(1)"></video>' },
  { name: 'marquee onstart', html: '<marquee onstart=alert(1)>m</marquee>' },
  { name: 'handler with slash separator', html: '<p/onclick=alert(1)>slash</p>' },
  // javascript:, vbscript: and data: URLs
  { name: 'javascript: link', html: '<a href="javascript:alert(1)">js</a>', keepsText: ['js'] },
  { name: 'javascript: mixed case', html: '<a href="JaVaScRiPt:alert(1)">x</a>' },
  { name: 'javascript: with a tab entity', html: '<a href="jav&#x09;ascript:alert(1)">x</a>' },
  {
    name: 'javascript: fully entity-encoded',
    html: '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  },
  { name: 'javascript: with an entity colon', html: '<a href="&#x6A;avascript&colon;alert(1)">x</a>' },
  { name: 'javascript: with leading spaces', html: '<a href="  javascript:alert(1)">x</a>' },
  { name: 'javascript: with a newline', html: '<a href="java\nscript:alert(1)">x</a>' },
  { name: 'javascript: after a control character', html: '<a href="\u0001javascript:alert(1)">x</a>' },
  { name: 'vbscript: link', html: '<a href="vbscript:msgbox(1)">x</a>' },
  {
    name: 'data: text/html link',
    html: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  },
  {
    name: 'data: image with an svg payload',
    html: '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  },
  { name: 'protocol-relative link', html: '<a href="//evil.example/">rel</a>' },
  {
    name: 'form with javascript: action',
    html: '<form action="javascript:alert(1)"><button>go</button></form>',
  },
  {
    name: 'meta refresh to javascript:',
    html: '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  },
  { name: 'base href', html: '<base href="javascript:/">' },
  // SVG and MathML
  { name: 'svg onload', html: '<svg onload=alert(1)>' },
  { name: 'svg with script', html: '<svg><script>alert(1)</script></svg>' },
  {
    name: 'svg animate href',
    html: '<svg><a><animate attributeName=href values=javascript:alert(1) /><text x=20 y=20>X</text></a></svg>',
  },
  {
    name: 'math namespace confusion',
    html: '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  },
  { name: 'math href', html: '<math href="javascript:alert(1)">CLICK</math>' },
  // Styles that hide or restyle content
  { name: 'display:none', html: '<p style="display:none">hidden clause</p>', keepsText: ['hidden clause'] },
  {
    name: 'moved off screen',
    html: '<p style="position:absolute;left:-9999px">off screen</p>',
    keepsText: ['off screen'],
  },
  { name: 'hidden attribute', html: '<span hidden>not hidden</span>', keepsText: ['not hidden'] },
  { name: 'zero font size', html: '<div style="font-size:0">tiny text</div>', keepsText: ['tiny text'] },
  {
    name: 'class reusing the page honeypot style',
    html: '<p class="hp">honey text</p>',
    keepsText: ['honey text'],
  },
  { name: 'style element', html: "<style>@import 'javascript:alert(1)'; main{display:none}</style>" },
  { name: 'stylesheet link', html: '<link rel=stylesheet href="https://evil.example/x.css">' },
  { name: 'css url javascript:', html: '<div style="background:url(javascript:alert(1))">bg</div>' },
  // Frames and plugins
  { name: 'iframe javascript:', html: '<iframe src="javascript:alert(1)"></iframe>' },
  { name: 'iframe srcdoc', html: '<iframe srcdoc="<script>alert(1)</script>"></iframe>' },
  { name: 'object', html: '<object data="javascript:alert(1)"></object>' },
  { name: 'embed', html: '<embed src="javascript:alert(1)">' },
  { name: 'frameset', html: '<frameset><frame src="javascript:alert(1)"></frameset>' },
];
