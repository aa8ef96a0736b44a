/**
 * What extract_rules and structured_data cost in the output worker, against the Markdown
 * conversion of the same page (what markdown=true pays there), in one process and one run:
 * per-page milliseconds of extractFields (a list of 1,000 products with nested fields),
 * structuredData and htmlToMarkdown on a ~250 KB shop page with JSON-LD and microdata,
 * median of `--rounds` timings each.
 *   node --import tsx bench/extract-rules.ts [--rounds 15]
 * Target: extraction and structured data each cost no more than the Markdown conversion.
 */
import { parseArgs } from 'node:util';
import { htmlToMarkdown } from '../src/markdown/index.js';
import { extractFields } from '../src/scrape/output/extract/extract-fields.js';
import { structuredData } from '../src/scrape/output/structured-data/index.js';
import { parseExtractRules } from '../src/scrape/params/extract-rules.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
const rounds = Number(values.rounds);

const product = (i: number) =>
  `<li class="product" data-sku="S${i}" itemscope itemtype="https://schema.org/Product"><h2 itemprop="name">Product ${i}</h2><a href="/p/${i}">details</a><p>A description of product ${i}, long enough to be a paragraph of a shop page.</p><span class="price" itemprop="price">${i}.00</span><ul class="tags"><li>new</li><li>t${i % 7}</li></ul></li>`;
const jsonLd = `<script type="application/ld+json">${JSON.stringify({ '@type': 'ItemList', itemListElement: Array.from({ length: 200 }, (_, i) => ({ '@type': 'ListItem', position: i, url: `/p/${i}` })) })}</script>`;
const PAGE = `<!doctype html><html><head><title>Shop</title><meta property="og:title" content="Shop">${jsonLd}</head><body><main><h1>Shop</h1><ul>${Array.from({ length: 1000 }, (_, i) => product(i)).join('')}</ul></main></body></html>`;
const RULES =
  parseExtractRules(
    JSON.stringify({
      title: 'h1',
      products: {
        selector: 'li.product',
        type: 'list',
        output: {
          sku: '@data-sku',
          name: 'h2',
          url: 'a@href',
          price: '.price',
          tags: { selector: '.tags li', type: 'list' },
        },
      },
    }),
  ) ?? [];

function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

// warm-up: the first parse pays the modules' JIT
htmlToMarkdown(PAGE, 'https://shop.example/');
extractFields(PAGE, RULES);
structuredData(PAGE, 'https://shop.example/');
const markdown = median(() => htmlToMarkdown(PAGE, 'https://shop.example/'));
const extract = median(() => extractFields(PAGE, RULES));
const structured = median(() => structuredData(PAGE, 'https://shop.example/'));
console.log(`page: ${(PAGE.length / 1024).toFixed(0)} KB, ${rounds} rounds, median ms per page`);
console.log(`htmlToMarkdown   ${markdown.toFixed(1)} ms`);
console.log(
  `extractFields    ${extract.toFixed(1)} ms  (${(extract / markdown).toFixed(2)}x markdown)`,
);
console.log(
  `structuredData   ${structured.toFixed(1)} ms  (${(structured / markdown).toFixed(2)}x markdown)`,
);
