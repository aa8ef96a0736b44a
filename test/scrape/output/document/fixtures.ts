/** Pages and requests shared by the document-output tests. */
import type { DocumentRequest } from '../../../../src/scrape/types.js';

export const PAGE_URL = 'https://example.com/news/story.html';

const PROSE = Array.from(
  { length: 8 },
  (_, i) =>
    `<p>Paragraph ${i} of the story, with commas, clauses, and enough words to read like prose.</p>`,
).join('\n');

/** An article page with boilerplate around it, hidden elements, media and relative URLs. */
export const ARTICLE = `<!doctype html>
<html lang="en-GB">
<head>
  <title>The story</title>
  <base href="/news/">
  <link rel="stylesheet" href="/site.css">
  <script>window.tracker = 1;</script>
  <style>p { color: red }</style>
</head>
<body>
  <nav class="site-nav"><a href="/">NAVHOME</a> <a href="/about">NAVABOUT</a></nav>
  <!-- COMMENTTEXT -->
  <main>
    <article>
      <h1>The story</h1>
      ${PROSE}
      <p>See <a href="related.html">the related story</a> and <a href="#top">the top</a>.</p>
      <p class="photo"><img src="images/photo.jpg" alt="A photo"></p>
      <p><img srcset="data:image/png;base64,iVBORw0KGgo= 1x" alt="inline dot"></p>
      <p><img src="data:image/gif;base64,R0lGODlh" alt="inline gif"></p>
      <iframe src="/embed/video"></iframe>
      <div hidden>HIDDENATTR</div>
      <p aria-hidden="true">ARIAHIDDEN</p>
      <p style="display: none">DISPLAYNONE</p>
      <p style="visibility:hidden">VISIBILITYHIDDEN</p>
      <noscript>NOSCRIPTTEXT</noscript>
      <template><p>TEMPLATETEXT</p></template>
      <script>document.write('SCRIPTTEXT')</script>
    </article>
  </main>
  <aside class="promo"><p>ASIDETEXT a promotion</p></aside>
  <footer><p>FOOTERTEXT copyright</p> <a href="https://other.example/x?y=1">Other site</a>
    <a href="mailto:desk@example.com">Mail</a> <a href="/about">NAVABOUT again</a></footer>
</body>
</html>`;

export function request(overrides: Partial<DocumentRequest> = {}): DocumentRequest {
  return {
    markdown: false,
    html: false,
    rawHtml: false,
    links: false,
    screenshot: null,
    onlyMainContent: true,
    includeTags: [],
    excludeTags: [],
    removeBase64Images: true,
    ...overrides,
  };
}
