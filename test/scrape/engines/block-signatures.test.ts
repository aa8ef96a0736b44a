import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockSignature, ContentMemory } from '../../../src/scrape/engines/block-signatures.js';

const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const TEXT = 'A page with plenty of text on it, as an article or a catalogue has. '.repeat(10);

describe('blockSignature: the table of block pages', () => {
  const cases: [string, number, string][] = [
    [
      'cloudflare-challenge',
      403,
      page(
        '<script src="/cdn-cgi/challenge-platform/x.js"></script>',
        '<title>Just a moment...</title>',
      ),
    ],
    ['cloudflare-challenge', 503, page('<form id="challenge-form" action="/?__cf_chl_f_tk=1">')],
    [
      'akamai',
      403,
      page("<h1>Access Denied</h1>You don't have permission. Reference #18.abc.1700000000.1"),
    ],
    ['datadome', 403, page('<script src="https://ct.captcha-delivery.com/c.js"></script>')],
    [
      'perimeterx',
      403,
      page('<div id="px-captcha"></div><p>Press &amp; Hold to confirm you are a human</p>'),
    ],
    ['imperva', 200, page('<iframe src="/_Incapsula_Resource?SWUDNSAI=31"></iframe>')],
    [
      'aws-waf',
      405,
      page('<script>window.awsWafCookieDomainList = []; AwsWafIntegration.getToken()</script>'),
    ],
    [
      'kasada',
      429,
      page(
        '<script src="/149e9513-01fa-4fb0-aad4-566afd725d1b/2d206a39-8ed7-437e-a3be-862e0f06eea3/ips.js"></script>',
      ),
    ],
    ['sucuri', 403, page('<title>Sucuri WebSite Firewall - Access Denied</title>')],
    [
      'f5-rejected',
      200,
      page(
        'The requested URL was rejected. Please consult with your administrator. Your support ID is: 123',
      ),
    ],
    [
      'unusual-traffic',
      429,
      page('Our systems have detected unusual traffic from your computer network.'),
    ],
    [
      'captcha',
      200,
      page('<div class="g-recaptcha" data-sitekey="x"></div><p>Please verify you are a human</p>'),
    ],
  ];
  for (const [signature, status, html] of cases) {
    it(`${signature} (${status})`, () => {
      assert.equal(blockSignature({ status, html }), signature);
    });
  }

  it("a plain 403, 404, 429 or 503 without a signature is the target's own answer", () => {
    for (const status of [403, 404, 429, 503]) {
      assert.equal(blockSignature({ status, html: page('<h1>Forbidden</h1>') }), null);
    }
  });

  it('a vendor named on an ordinary 200 page is no block (their scripts run on real pages)', () => {
    assert.equal(
      blockSignature({
        status: 200,
        html: page(
          `<p>${TEXT}</p><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>`,
        ),
      }),
      null,
    );
    assert.equal(
      blockSignature({
        status: 200,
        html: page(`<p>${TEXT}</p><div class="g-recaptcha"></div><p>verify</p>`.repeat(5)),
      }),
      null,
    );
  });

  it('a short page whose scripts and head name a captcha and a robot is no captcha page', () => {
    // Four pages of the WCXB corpus (a shop, a product, a blog index, a forum) were refused
    // so: `captchaSettings` or a reCAPTCHA script, and "robots" or "Roboto" in their head.
    const head =
      '<head><meta name="robots" content="index,follow"><style>body{font-family:Roboto}</style>' +
      '<script>window.__s={"captchaSettings":{"enabledForDonations":false},"humanVerify":1}</script>' +
      '<script src="https://www.google.com/recaptcha/enterprise.js?render=k"></script></head>';
    const body =
      '<body><h1>White speckle mug</h1><p>$24.00</p><p>A mug for the morning.</p></body>';
    assert.equal(blockSignature({ status: 200, html: `<html>${head}${body}</html>` }), null);
  });

  it('an article whose first 64 KB are head is no captcha page for its comment form', () => {
    // Five article pages of the shared corpus were refused so: a captcha widget and a word
    // like "verify" in the first 64 KB, most of their text after it.
    const head = `<head><script>${'var config = {};\n'.repeat(3500)}</script></head>`;
    const form = '<form><div class="g-recaptcha"></div><p>Please verify you are human</p></form>';
    const markup = '<div class="comment-spacer" data-layout="grid"></div>'.repeat(200);
    const html = `<!doctype html><html>${head}<body>${form}${markup}${`<p>${TEXT}</p>`.repeat(20)}</body></html>`;
    assert.ok(html.indexOf('g-recaptcha') < 64 * 1024, 'the widget is in the first 64 KB');
    assert.ok(html.indexOf(TEXT) > 64 * 1024, 'the text starts past them');
    assert.equal(blockSignature({ status: 200, html }), null);
  });

  it("a page of content that carries Imperva's script or quotes a block page is the page", () => {
    const article = (extra: string) => page(`${`<p>${TEXT}</p>`.repeat(3)}${extra}`);
    for (const extra of [
      '<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script>',
      '<blockquote>Our systems have detected unusual traffic from your computer network.</blockquote>',
    ]) {
      assert.equal(blockSignature({ status: 200, html: article(extra) }), null, extra);
    }
  });

  it('a page of content answered 200 is told apart without any pattern read over it', () => {
    // Quoting every vendor's words: were the patterns read, Imperva's would match first.
    const html = page(
      `<p>${TEXT.repeat(3)} _Incapsula_Resource, g-recaptcha: verify you are human</p>`,
    );
    const test = RegExp.prototype.test;
    const read: string[] = [];
    RegExp.prototype.test = function (this: RegExp, input: string) {
      if (input.length > 1000) read.push(this.source.slice(0, 30));
      return test.call(this, input);
    };
    try {
      assert.equal(blockSignature({ status: 200, html }), null);
    } finally {
      RegExp.prototype.test = test;
    }
    assert.deepEqual(read, []);
  });

  it('what is not HTML is never a block page', () => {
    assert.equal(
      blockSignature({ status: 403, html: 'cf-chl-', contentType: 'application/json' }),
      null,
    );
  });

  it('an empty answer where the URL had content is blocked; an always-empty page is not', () => {
    const memory = new ContentMemory(2);
    const url = 'https://shop.example/item';
    assert.equal(
      blockSignature({ status: 200, html: page('') }, { memory, url }),
      null,
      'never seen',
    );
    assert.equal(
      blockSignature({ status: 200, html: page(`<p>${TEXT}</p>`) }, { memory, url }),
      null,
    );
    assert.equal(blockSignature({ status: 200, html: page('') }, { memory, url }), 'empty');
    // Bounded: the oldest URL is forgotten.
    for (const other of ['https://a.example/', 'https://b.example/']) {
      blockSignature({ status: 200, html: page(`<p>${TEXT}</p>`) }, { memory, url: other });
    }
    assert.equal(memory.hadContent(url), false);
  });
});
