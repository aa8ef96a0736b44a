import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { streamTags } from '../../src/markdown/tag-stream.js';
const html = gunzipSync(readFileSync(`/work/shared/corpus/wcxb/${process.argv[2]}.html.gz`)).toString('utf8');
const stack: string[] = [];
let n = 0; let maxDepth = 0;
const opens: Record<string, number> = {}; const closes: Record<string, number> = {};
streamTags(html, {
  onopentag(name) { opens[name] = (opens[name] ?? 0) + 1; stack.push(name); maxDepth = Math.max(maxDepth, stack.length); n++; },
  ontext() {},
  onclosetag(name) { closes[name] = (closes[name] ?? 0) + 1; stack.pop(); },
});
console.log('maxDepth', maxDepth, 'opens', n);
for (const t of ['svg','select','textarea','template','iframe','object','canvas','title','script','style','noscript']) console.log(t, opens[t], closes[t]);
