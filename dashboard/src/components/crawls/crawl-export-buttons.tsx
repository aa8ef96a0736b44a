import { useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../../api/client.js';
import { jsonLines, markdownZip, saveBlob } from './crawl-export.js';
import { crawlsApi } from './crawls-api.js';

/** Every page of a crawl's results as JSON lines, or its Markdown as a zip of files. */
export function CrawlExport({ client, id }: { client: ApiClient; id: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (as: 'jsonl' | 'zip') => {
    setBusy(true);
    setError(null);
    try {
      const pages = await crawlsApi.allPages(client, id);
      if (as === 'jsonl') saveBlob(jsonLines(pages), `crawl-${id}.jsonl`);
      else saveBlob(markdownZip(pages), `crawl-${id}-markdown.zip`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="row wrap" data-testid="crawl-export">
      <button type="button" disabled={busy} onClick={() => void run('jsonl')}>
        Export JSON lines
      </button>
      <button type="button" disabled={busy} onClick={() => void run('zip')}>
        Export Markdown (zip)
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
