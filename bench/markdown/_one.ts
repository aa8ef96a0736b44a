import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { htmlToMarkdown } from '../../src/markdown/index.js';
const id = process.argv[2];
const html = gunzipSync(readFileSync(`/work/shared/corpus/wcxb/${id}.html.gz`)).toString('utf8');
const t = performance.now();
const md = htmlToMarkdown(html, 'https://example.com/', { mainContent: process.argv[3] !== 'whole' });
console.error('ms', performance.now() - t, 'chars', md.length);
console.log(md);
