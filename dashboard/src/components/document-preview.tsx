import { useState } from 'preact/hooks';
import type { FirecrawlDocument } from '../lib/firecrawl-document.js';
import { MarkdownPreview, TextPreview } from './result-preview.js';

export type { FirecrawlDocument };

type Format = 'markdown' | 'html' | 'rawHtml' | 'screenshot' | 'links' | 'json';

const LABEL: Record<Format, string> = {
  markdown: 'Markdown',
  html: 'HTML',
  rawHtml: 'Raw HTML',
  screenshot: 'Screenshot',
  links: 'Links',
  json: 'JSON',
};

function formatsOf(doc: FirecrawlDocument): Format[] {
  const present: Format[] = [];
  if (doc.markdown !== undefined) present.push('markdown');
  if (doc.html !== undefined) present.push('html');
  if (doc.rawHtml !== undefined) present.push('rawHtml');
  if (doc.screenshot) present.push('screenshot');
  if (doc.links) present.push('links');
  present.push('json');
  return present;
}

/**
 * A Document shown one format at a time, the first the caller asked for; the whole JSON last.
 * `name` makes the radio group's name unique when several documents share a page.
 */
export function DocumentPreview({ doc, name }: { doc: FirecrawlDocument; name: string }) {
  const formats = formatsOf(doc);
  const [shown, setShown] = useState<Format>(formats[0] ?? 'json');
  return (
    <div class="preview" data-testid="document-preview" data-format={shown}>
      <fieldset class="segmented wrap">
        <legend class="visually-hidden">Format shown</legend>
        {formats.map((f) => (
          <label key={f} class={shown === f ? 'on' : ''}>
            <input
              type="radio"
              name={`${name}-format`}
              value={f}
              checked={shown === f}
              onChange={() => setShown(f)}
            />
            {LABEL[f]}
          </label>
        ))}
      </fieldset>
      <Shown doc={doc} format={shown} />
    </div>
  );
}

function Shown({ doc, format }: { doc: FirecrawlDocument; format: Format }) {
  switch (format) {
    case 'markdown':
      return <MarkdownPreview text={doc.markdown ?? ''} />;
    case 'html':
      return <TextPreview text={doc.html ?? ''} testId="preview-html" label="HTML" />;
    case 'rawHtml':
      return <TextPreview text={doc.rawHtml ?? ''} testId="preview-raw-html" label="Raw HTML" />;
    case 'screenshot':
      return <Screenshot src={doc.screenshot ?? ''} />;
    case 'links':
      return (
        <ul data-testid="preview-links" class="break">
          {(doc.links ?? []).map((link) => (
            <li key={link}>{link}</li>
          ))}
        </ul>
      );
    case 'json':
      return (
        <TextPreview
          text={JSON.stringify(doc, null, 2)}
          testId="preview-json"
          label="Document JSON"
        />
      );
  }
}

/**
 * The console loads images only from its own origin or data: URLs (its CSP): a screenshot
 * linked under another address (PUBLIC_URL) is a link instead.
 */
function Screenshot({ src }: { src: string }) {
  const local = src.startsWith('data:image/') || src.startsWith(`${window.location.origin}/`);
  if (!local)
    return (
      <p>
        <a href={src} rel="noreferrer">
          Open the screenshot
        </a>
      </p>
    );
  return (
    <div class="shot">
      <img src={src} alt="Screenshot of the scraped page" data-testid="preview-screenshot" />
    </div>
  );
}
