/**
 * The `document` output (the Firecrawl door's formats) from one loaded page, in the output
 * worker: one tokenization of the page gives the metadata, the links and the Markdown (a
 * tree is built only for includeTags / excludeTags and the cleaned HTML). Pure and
 * synchronous.
 *
 * - rawHtml: the page as loaded, not even the static blocker applied (Firecrawl's rawHtml
 *   is the unmodified page); every other format reads the page after the blocker.
 * - markdown: onlyMainContent → htmlToMarkdown's main content (the native markdown output of
 *   the same page, byte for byte, when no tags are given); otherwise the whole visible page.
 * - html: the same content as HTML, cleaned (clean-html.ts).
 * - A page that is not HTML (text/plain, JSON...) is its text for markdown, html and rawHtml.
 */
import { DomUtils } from 'htmlparser2';
import type { ConvertedDocument } from '../../../documents/index.js';
import { extractMainContent, htmlToMarkdown, streamTags } from '../../../markdown/index.js';
import type { DocumentRequest, PageDocument, PageMetadata } from '../../types.js';
import { linkedData } from '../structured-data/index.js';
import { BASE64_IMAGE_REMOVED, type CleanOptions, cleanPage } from './clean-html.js';
import { pageLinks } from './links.js';
import { pageMetadata } from './metadata.js';
import { baseOf, PageFacts } from './page-facts.js';
import {
  findElement,
  type PageElement,
  type PageTree,
  parsePage,
  serializePage,
} from './page-tree.js';
import { applySelectors } from './selectors.js';

/** What the worker is handed (buffers arrive as plain Uint8Arrays). */
export interface DocumentInput {
  /** The page as loaded. */
  rawHtml: string;
  /** The page after the static blocker (the same string when nothing was blocked). */
  html: string;
  /** The final URL. */
  pageUrl: string;
  status: number;
  contentType: string | null;
  request: DocumentRequest;
  /** A page that is not HTML, converted in the worker (documents/): its Markdown and metadata. */
  converted?: ConvertedDocument | null;
  screenshot: Uint8Array | null;
  actions: {
    screenshots: Uint8Array[];
    snapshots: { url: string; html: string }[];
    javascriptReturns: { type: string; value: unknown }[];
  } | null;
}

const HTML_TYPES = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
/** Firecrawl's pattern, also taking the `<...>` form our serializer gives a URL with spaces. */
const MARKDOWN_INLINE_IMAGE =
  /(!\[(?:\\.|[^\]\\])*\])\((?:<data:image\/[^>]*>|data:image\/[^)\s]*)\)/g;

export function buildDocument(input: DocumentInput): PageDocument {
  const { request, actions } = input;
  const isHtml = input.contentType == null || HTML_TYPES.test(input.contentType);
  const content = input.converted
    ? { ...textFormats(input), ...input.converted }
    : isHtml
      ? htmlFormats(input)
      : textFormats(input);
  const markdown = content.markdown ?? '';
  return {
    ...(request.markdown && {
      markdown: request.removeBase64Images
        ? markdown.replace(MARKDOWN_INLINE_IMAGE, `$1(${BASE64_IMAGE_REMOVED})`)
        : markdown,
    }),
    ...(request.html && { html: content.html ?? '' }),
    ...(request.rawHtml && { rawHtml: input.rawHtml }),
    ...(request.links && { links: content.links ?? [] }),
    ...(request.screenshot && input.screenshot && { screenshot: image(input.screenshot) }),
    metadata: {
      ...content.metadata,
      url: input.pageUrl,
      statusCode: input.status,
      ...(input.contentType && { contentType: input.contentType }),
    },
    ...(actions && {
      actions: {
        screenshots: actions.screenshots.map(image),
        scrapes: actions.snapshots,
        javascriptReturns: actions.javascriptReturns,
      },
    }),
  };
}

type Formats = Partial<Pick<PageDocument, 'markdown' | 'html' | 'links' | 'metadata'>>;

function htmlFormats(input: DocumentInput): Formats {
  const { request, pageUrl } = input;
  // Metadata and links are read from the tag stream of whichever parse the other formats
  // need (page-facts.ts): a tree only for tags or cleaned HTML, else the converter's own.
  const facts = new PageFacts();
  const filtering = [...request.includeTags, ...request.excludeTags].some((s) => s.trim());
  const tree = filtering || request.html ? parsePage(input.html, facts) : null;
  const base = () => baseOf(facts, pageUrl);
  const out: Formats = {};
  // read before the formats below change the tree (selectors, cleaning)
  const linked = tree ? linkedData(facts, input.html, pageUrl, tree) : null;
  if (request.markdown || request.html) {
    if (filtering && tree) applySelectors(tree, request.includeTags, request.excludeTags);
    // with no tags the page goes to the converter as it came: the native markdown output's input
    const page = filtering && tree ? serializePage(tree) : input.html;
    const tap = tree ? undefined : facts;
    const clean: CleanOptions = { removeBase64Images: request.removeBase64Images };
    if (request.onlyMainContent) {
      // the caller's tags say what of the page they want: no headline they did not keep
      const headline = !filtering;
      if (!request.html)
        out.markdown = htmlToMarkdown(page, pageUrl, { headline, ...(tap && { tap }) });
      else {
        const main = extractMainContent(page, pageUrl, { headline });
        out.markdown = main.markdown;
        out.html = cleaned(parsePage(main.html), base(), clean);
      }
    } else {
      if (request.markdown) {
        out.markdown = htmlToMarkdown(page, pageUrl, { mainContent: false, ...(tap && { tap }) });
      }
      if (request.html && tree) out.html = cleaned(tree, base(), clean);
    }
  } else streamTags(input.html, facts);
  const pageBase = base();
  out.metadata = withLinkedData(
    pageMetadata(facts, pageBase),
    linked ?? linkedData(facts, input.html, pageUrl),
  );
  if (request.links) out.links = pageLinks(facts, pageBase);
  return out;
}

/**
 * The page's JSON-LD and microdata, when it has some: Firecrawl's Document has no field for
 * them, and its metadata is where its SDK keeps whatever else a page says about itself.
 */
function withLinkedData(
  metadata: PageMetadata,
  { jsonLd, microdata }: ReturnType<typeof linkedData>,
): PageMetadata {
  if (jsonLd.length > 0) metadata.jsonLd = jsonLd;
  if (microdata.length > 0) metadata.microdata = microdata as unknown as PageMetadata[string];
  return metadata;
}

function cleaned(tree: PageTree, base: URL | null, options: CleanOptions): string {
  cleanPage(tree, base, options);
  return serializePage(tree);
}

function textFormats(input: DocumentInput): Formats {
  const text = renderedText(input.html) ?? input.html;
  return { markdown: text, html: text, links: [], metadata: {} };
}

/**
 * Chromium shows a text or JSON response as `<pre style="word-wrap: break-word; white-space:
 * pre-wrap;">` in a page of its own, and a render hands that page back: its text is the body.
 */
function renderedText(html: string): string | null {
  if (!/^\s*<html/i.test(html)) return null;
  const body = findElement(parsePage(html), 'body');
  const pre = body?.children.find((c) => c.type === 'tag') as PageElement | undefined;
  if (pre?.name !== 'pre' || !/white-space:\s*pre-wrap/i.test(pre.attribs.style ?? '')) {
    return null;
  }
  return DomUtils.textContent(pre);
}

/** Base64 with its type read from the bytes: JPEG when a quality was asked, PNG otherwise. */
function image(bytes: Uint8Array): { contentType: string; base64: string } {
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { contentType: isJpeg ? 'image/jpeg' : 'image/png', base64: buffer.toString('base64') };
}
