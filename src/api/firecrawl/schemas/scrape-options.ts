/**
 * The door's scrape options as TypeBox schemas: the one source of their validation and their
 * OpenAPI entries. Shapes follow Firecrawl's API reference and SDK types (v2, and v1 where it
 * differs); every object is closed, so an unknown field is refused as Firecrawl refuses it.
 * Fields Firecrawl's tools send that change nothing here (origin, integration, fastMode, ...)
 * are accepted and ignored.
 */
import { type TProperties, Type } from '@sinclair/typebox';
import { MAX_ACTIONS } from '../../../firecrawl/scrape-request.js';
import { WAIT_UNTIL } from '../../../scrape/types.js';

const closed = { additionalProperties: false } as const;

const Viewport = Type.Object(
  {
    width: Type.Integer({ minimum: 1, maximum: 7680 }),
    height: Type.Integer({ minimum: 1, maximum: 4320 }),
  },
  closed,
);

const ScreenshotFormat = Type.Object(
  {
    type: Type.Literal('screenshot'),
    fullPage: Type.Optional(Type.Boolean()),
    quality: Type.Optional(
      Type.Number({ minimum: 1, maximum: 100, description: 'JPEG quality; without it, PNG' }),
    ),
    viewport: Type.Optional(Viewport),
    base64: Type.Optional(
      Type.Boolean({
        description:
          'pagegrab: the screenshot inline as a base64 data URL instead of a link served by pagegrab',
      }),
    ),
  },
  closed,
);

/** Any other format object: its type is checked by the translation (400 naming it). */
const OtherFormat = Type.Object({ type: Type.String() }, { additionalProperties: true });

/** The model's answer as JSON: a schema, a prompt or both (400 without either). */
const JsonFormat = Type.Object(
  {
    type: Type.Literal('json'),
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    prompt: Type.Optional(Type.String()),
    checkPromptInjection: Type.Optional(Type.Boolean()),
  },
  closed,
);

/** v1's `jsonOptions` and `extract`. */
const JsonOptions = Type.Object(
  {
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    prompt: Type.Optional(Type.String()),
    systemPrompt: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
  },
  closed,
);

const FormatV2 = Type.Union([
  Type.String({
    description:
      "markdown, html, rawHtml, links, screenshot; summary and json with the operator's model (400 naming the setting without one); other model formats answer 400",
  }),
  ScreenshotFormat,
  JsonFormat,
  OtherFormat,
]);

const Location = Type.Object(
  {
    country: Type.Optional(Type.String({ description: 'ISO 3166-1 alpha-2: the proxy country' })),
    languages: Type.Optional(
      Type.Array(Type.String(), { description: 'Accept-Language, preferred first' }),
    ),
  },
  closed,
);

const Action = Type.Union([
  Type.Object(
    {
      type: Type.Literal('wait'),
      milliseconds: Type.Optional(Type.Integer({ minimum: 1 })),
      selector: Type.Optional(Type.String({ minLength: 1 })),
    },
    closed,
  ),
  Type.Object(
    {
      type: Type.Literal('click'),
      selector: Type.String({ minLength: 1 }),
      all: Type.Optional(Type.Boolean()),
    },
    closed,
  ),
  Type.Object(
    {
      type: Type.Literal('screenshot'),
      fullPage: Type.Optional(Type.Boolean()),
      quality: Type.Optional(Type.Number({ minimum: 1, maximum: 100 })),
      viewport: Type.Optional(Viewport),
    },
    closed,
  ),
  Type.Object({ type: Type.Literal('write'), text: Type.String() }, closed),
  Type.Object({ type: Type.Literal('press'), key: Type.String({ minLength: 1 }) }, closed),
  Type.Object(
    {
      type: Type.Literal('scroll'),
      direction: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down')])),
      selector: Type.Optional(Type.String({ minLength: 1 })),
    },
    closed,
  ),
  Type.Object({ type: Type.Literal('scrape') }, closed),
  Type.Object(
    { type: Type.Literal('executeJavascript'), script: Type.String({ minLength: 1 }) },
    closed,
  ),
  Type.Object(
    {
      type: Type.Literal('pdf'),
      format: Type.Optional(Type.String()),
      landscape: Type.Optional(Type.Boolean()),
      scale: Type.Optional(Type.Number()),
    },
    closed,
  ),
]);

/**
 * Firecrawl's document parsers: "pdf" (the default) converts PDFs to Markdown, its object form
 * bounds the pages; `[]` converts none. Every `mode` reads the PDF's own text (no OCR here).
 */
const Parser = Type.Union([
  Type.Literal('pdf'),
  Type.Object(
    {
      type: Type.Literal('pdf'),
      mode: Type.Optional(
        Type.Union([Type.Literal('auto'), Type.Literal('fast'), Type.Literal('ocr')]),
      ),
      maxPages: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    },
    closed,
  ),
]);

/** Accepted for compatibility; they change nothing on this server. */
const ignored = {
  origin: Type.Optional(Type.String()),
  integration: Type.Optional(Type.String()),
  fastMode: Type.Optional(Type.Boolean()),
  useMock: Type.Optional(Type.String()),
  parsePDF: Type.Optional(Type.Boolean()),
  minAge: Type.Optional(Type.Integer({ minimum: 0 })),
  lockdown: Type.Optional(Type.Boolean()),
  onlyCleanContent: Type.Optional(Type.Boolean()),
  zeroDataRetention: Type.Optional(Type.Boolean()),
} satisfies TProperties;

function scrapeOptionProperties(formats: typeof FormatV2) {
  return {
    formats: Type.Optional(Type.Array(formats, { description: 'Default ["markdown"]' })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    includeTags: Type.Optional(Type.Array(Type.String(), { description: 'CSS selectors to keep' })),
    excludeTags: Type.Optional(Type.Array(Type.String(), { description: 'CSS selectors to drop' })),
    onlyMainContent: Type.Optional(Type.Boolean({ default: true })),
    timeout: Type.Optional(
      Type.Integer({ minimum: 1000, description: 'ms; budgets above 120000 are cut to 120000' }),
    ),
    waitFor: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, default: 0 })),
    mobile: Type.Optional(Type.Boolean({ default: false })),
    actions: Type.Optional(Type.Array(Action, { maxItems: MAX_ACTIONS })),
    location: Type.Optional(Location),
    skipTlsVerification: Type.Optional(Type.Boolean()),
    removeBase64Images: Type.Optional(Type.Boolean({ default: true })),
    blockAds: Type.Optional(Type.Boolean({ default: true })),
    proxy: Type.Optional(
      Type.Union(
        [
          Type.Literal('basic'),
          Type.Literal('stealth'),
          Type.Literal('enhanced'),
          Type.Literal('auto'),
        ],
        {
          description:
            'basic: datacenter; stealth, enhanced: residential; auto: basic, then residential when blocked',
        },
      ),
    ),
    maxAge: Type.Optional(Type.Integer({ minimum: 0, description: 'ms; v2 default two days' })),
    storeInCache: Type.Optional(Type.Boolean({ default: true })),
    waitUntil: Type.Optional(
      Type.Union(
        WAIT_UNTIL.map((w) => Type.Literal(w)),
        { description: 'pagegrab: when a render counts as loaded (default settled)' },
      ),
    ),
    sessionId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9._-]{1,100}$',
        description:
          'pagegrab: a sticky session of your team: scrapes naming the same sessionId keep the same proxy, the same connection through it and the same cookies until the session has been idle for 5 minutes; a session is not retried on another proxy nor escalated by proxy "auto"',
      }),
    ),
    parsers: Type.Optional(Type.Array(Parser, { maxItems: 4 })),
    ...ignored,
  } satisfies TProperties;
}

export const scrapeOptionPropertiesV2 = scrapeOptionProperties(FormatV2);
/** v1 formats are strings (screenshot@fullPage among them); the other fields agree. */
export const scrapeOptionPropertiesV1 = {
  ...scrapeOptionProperties(FormatV2),
  jsonOptions: Type.Optional(JsonOptions),
  extract: Type.Optional(JsonOptions),
  changeTrackingOptions: Type.Optional(Type.Unknown()),
} satisfies TProperties;

export const ScrapeOptionsV2 = Type.Object(scrapeOptionPropertiesV2, closed);

export const ScrapeBodyV2 = Type.Object(
  {
    url: Type.String({ description: 'The page: an absolute http(s) URL' }),
    ...scrapeOptionPropertiesV2,
  },
  closed,
);
export const ScrapeBodyV1 = Type.Object(
  {
    url: Type.String({ description: 'The page: an absolute http(s) URL' }),
    ...scrapeOptionPropertiesV1,
  },
  closed,
);
