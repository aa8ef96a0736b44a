/** The door's answers, for the OpenAPI document (Firecrawl's shapes). */
import { Type } from '@sinclair/typebox';

export const FirecrawlErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    code: Type.Optional(Type.String()),
    details: Type.Optional(Type.Unknown()),
  },
  { description: "Firecrawl's error envelope" },
);

export const FirecrawlDocument = Type.Object(
  {
    markdown: Type.Optional(Type.String()),
    html: Type.Optional(Type.String()),
    rawHtml: Type.Optional(Type.String()),
    links: Type.Optional(Type.Array(Type.String())),
    screenshot: Type.Optional(
      Type.String({ description: 'A link served by pagegrab, or a data URL when asked' }),
    ),
    actions: Type.Optional(
      Type.Object({
        screenshots: Type.Array(Type.String()),
        scrapes: Type.Array(Type.Object({ url: Type.String(), html: Type.String() })),
        javascriptReturns: Type.Array(Type.Object({ type: Type.String(), value: Type.Unknown() })),
        pdfs: Type.Array(Type.String()),
      }),
    ),
    json: Type.Optional(Type.Unknown({ description: "The model's answer (json format)" })),
    extract: Type.Optional(
      Type.Unknown({ description: "v1: the model's answer (extract format)" }),
    ),
    summary: Type.Optional(Type.String({ description: "The model's summary" })),
    changeTracking: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    warning: Type.Optional(Type.String()),
  },
  { description: "Firecrawl's Document" },
);

export const FirecrawlScrapeAnswer = Type.Object({
  success: Type.Literal(true),
  data: FirecrawlDocument,
});
