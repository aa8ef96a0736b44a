import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ScrapeOutcome } from '../api/types.js';
import { formatBytes, formatMs } from '../lib/format.js';
import { renderMarkdown } from '../lib/markdown.js';
import { scrollable } from '../lib/scrollable.js';

// Scrollable boxes are focusable and named (lib/scrollable.ts): axe asks for it.

/** Past this, the preview shows a prefix: a huge <pre> would freeze the tab. */
const MAX_PREVIEW_CHARS = 300_000;

/**
 * Shows a scrape's result. Scraped HTML is only ever text in a <pre> (Preact escapes it);
 * Markdown becomes elements through the safe renderer; PNGs through an object URL.
 */
export function ResultPreview({
  outcome,
  showMeta = true,
}: {
  outcome: ScrapeOutcome;
  /** False for a kept result: the request's own figures are shown around it. */
  showMeta?: boolean;
}) {
  const { meta } = outcome;
  return (
    <section
      class="preview"
      aria-label="Result"
      data-testid="result-preview"
      data-kind={outcome.kind}
    >
      {showMeta && (
        <dl class="meta-line">
          {/* A webhook run answers before the scrape: its charge and status are in the history. */}
          {outcome.kind !== 'webhook' && (
            <>
              <div>
                <dt>Credits used</dt>
                <dd data-testid="credits-used">{meta.creditsUsed ?? '–'}</dd>
              </div>
              <div>
                <dt>Target status</dt>
                <dd data-testid="target-status">{meta.targetStatus ?? '–'}</dd>
              </div>
            </>
          )}
          <div>
            <dt>Time</dt>
            <dd>{formatMs(meta.durationMs)}</dd>
          </div>
          {meta.targetUrl && (
            <div class="grow">
              <dt>Final URL</dt>
              <dd class="break">{meta.targetUrl}</dd>
            </div>
          )}
        </dl>
      )}
      <Body outcome={outcome} />
    </section>
  );
}

function Body({ outcome }: { outcome: ScrapeOutcome }) {
  switch (outcome.kind) {
    case 'html':
      return <TextPreview text={outcome.text} testId="preview-html" label="HTML source" />;
    case 'markdown':
      return <MarkdownPreview text={outcome.text} />;
    case 'screenshot':
      return <ImagePreview blob={outcome.blob} />;
    case 'webhook':
      return (
        <p class="notice" data-testid="preview-webhook">
          {outcome.message}
          {outcome.requestId && <> (request {outcome.requestId})</>}. The result goes to the
          webhook; the credits it used, the target status and the delivery state appear in the
          history once the scrape has run.
        </p>
      );
  }
}

function clip(text: string): { shown: string; clipped: boolean } {
  return text.length > MAX_PREVIEW_CHARS
    ? { shown: text.slice(0, MAX_PREVIEW_CHARS), clipped: true }
    : { shown: text, clipped: false };
}

export function TextPreview({
  text,
  testId,
  label,
}: {
  text: string;
  testId: string;
  label: string;
}) {
  const { shown, clipped } = clip(text);
  return (
    <>
      <p class="muted small">
        {label}, {formatBytes(new Blob([text]).size)}
        {clipped && ' (preview shortened)'}
      </p>
      <pre class="source" data-testid={testId} {...scrollable(label)}>
        {shown}
      </pre>
    </>
  );
}

export function MarkdownPreview({ text }: { text: string }) {
  const [showSource, setShowSource] = useState(false);
  const rendered = useMemo(() => renderMarkdown(clip(text).shown), [text]);
  return (
    <>
      <label class="check small">
        <input
          type="checkbox"
          checked={showSource}
          onChange={(e) => setShowSource(e.currentTarget.checked)}
        />
        Show Markdown source
      </label>
      {showSource ? (
        <TextPreview text={text} testId="preview-markdown-source" label="Markdown source" />
      ) : (
        <article class="markdown" data-testid="preview-markdown">
          {rendered}
        </article>
      )}
    </>
  );
}

function ImagePreview({ blob }: { blob: Blob }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  if (!url) return null;
  return (
    <>
      <p class="muted small">
        PNG, {formatBytes(blob.size)} ·{' '}
        <a href={url} download="screenshot.png">
          Download
        </a>
      </p>
      <div class="shot" {...scrollable('Screenshot')}>
        <img src={url} alt="Screenshot of the scraped page" data-testid="preview-screenshot" />
      </div>
    </>
  );
}
