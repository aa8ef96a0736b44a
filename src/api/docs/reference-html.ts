/**
 * The API reference at /docs as one static page built from the OpenAPI document (the route
 * schemas stay its one source). It replaced Swagger UI, whose page failed axe (issue 30:
 * nested-interactive on every operation, an unlabelled input, an image without alt, low
 * contrast): plain headings, tables and code, light and dark, no script.
 */

type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const html = (text: unknown) =>
  String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fff; --muted: #4a5360; --line: #d0d5dc;
  --code: #f3f4f6; --link: #0b57c2; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --bg: #14171b; --muted: #b4bcc6;
  --line: #3a414b; --code: #1f242b; --link: #8ab8ff; } }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
a { color: var(--link); }
nav ul { columns: 14rem; padding-left: 1.2rem; }
section.op { border-top: 1px solid var(--line); padding: 0.5rem 0 1rem; }
h3 code { font-size: 1rem; overflow-wrap: anywhere; }
.method { font-weight: 700; text-transform: uppercase; }
p, li { color: var(--fg); }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { border: 1px solid var(--line); padding: 0.25rem 0.5rem; text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
pre { background: var(--code); padding: 0.5rem; overflow: auto; max-height: 24rem;
  font-size: 0.85rem; }
pre:focus-visible { outline: 2px solid var(--link); }
`;

/**
 * A schema as JSON, folded (the page holds a few hundred): a focusable, named region when
 * open, because it may scroll.
 */
function schemaBlock(label: string, schema: unknown): string {
  return `<details><summary>${html(label)}</summary><pre tabindex="0" role="region" aria-label="${html(label)}"><code>${html(
    JSON.stringify(schema, null, 2),
  )}</code></pre></details>`;
}

function parameters(op: Json, id: string): string {
  const params = (op.parameters as Json[] | undefined) ?? [];
  if (params.length === 0) return '';
  const rows = params
    .map((p) => {
      const schema = (p.schema as Json | undefined) ?? {};
      const type = schema.type ?? (schema.anyOf ? 'one of several' : '');
      return `<tr><td><code>${html(p.name)}</code></td><td>${html(p.in)}</td><td>${html(type)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${html(p.description ?? schema.description ?? '')}</td></tr>`;
    })
    .join('');
  return `<h4 id="${id}-params">Parameters</h4><table aria-labelledby="${id}-params"><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operation(path: string, method: string, op: Json): string {
  const id = slug(`${method}-${path}`);
  const title = `${method.toUpperCase()} ${path}`;
  const body = (op.requestBody as Json | undefined)?.content as Json | undefined;
  const bodySchema = body ? (Object.values(body)[0] as Json | undefined)?.schema : undefined;
  const responses = Object.entries((op.responses as Json | undefined) ?? {})
    .map(([status, r]) => {
      const content = (r as Json).content as Json | undefined;
      const schema = content ? (Object.values(content)[0] as Json | undefined)?.schema : undefined;
      // Error answers share one shape, {"error": "…"}: only successes show theirs.
      const shown = schema && status.startsWith('2');
      return `<li><strong>${html(status)}</strong> ${html((r as Json).description ?? '')}${
        shown ? schemaBlock(`${title}: ${status} answer`, schema) : ''
      }</li>`;
    })
    .join('');
  return `<section class="op" aria-labelledby="${id}"><h3 id="${id}"><span class="method">${html(
    method,
  )}</span> <code>${html(path)}</code></h3>${op.summary ? `<p>${html(op.summary)}</p>` : ''}${
    op.description ? `<p class="muted">${html(op.description)}</p>` : ''
  }${parameters(op, id)}${
    bodySchema ? `<h4>Request body</h4>${schemaBlock(`${title}: request body`, bodySchema)}` : ''
  }<h4>Answers</h4><ul>${responses}</ul></section>`;
}

export function referenceHtml(document: Json): string {
  const info = (document.info as Json | undefined) ?? {};
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries((document.paths as Json | undefined) ?? {})) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      const tag = ((op.tags as string[] | undefined) ?? ['other'])[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(path, method, op)]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const toc = tags.map((t) => `<li><a href="#tag-${slug(t)}">${html(t)}</a></li>`).join('');
  const sections = tags
    .map(
      (t) =>
        `<section aria-labelledby="tag-${slug(t)}"><h2 id="tag-${slug(t)}">${html(t)}</h2>${(byTag.get(t) ?? []).join('')}</section>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API reference · ${html(
    info.title,
  )}</title><style>${STYLE}</style></head><body><header><h1>${html(info.title)} API reference</h1><p>${html(
    info.description,
  )}</p><p>The OpenAPI document: <a href="/api/openapi.json">/api/openapi.json</a>.</p><nav aria-label="Sections"><ul>${toc}</ul></nav></header><main>${sections}</main></body></html>`;
}
