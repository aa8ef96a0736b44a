import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { selectAll } from 'css-select';
import { parseDocument } from 'htmlparser2';
import {
  candidates,
  compileSelector,
  type El,
  indexElements,
  selectInto,
} from '../../../src/scrape/blockers/element-index.js';
import {
  type FilterEngines,
  loadFilterEngines,
} from '../../../src/scrape/blockers/filter-engines.js';
import { builtFilterDir } from './built-filters.js';

const HTML = `<!doctype html><html><head><title>t</title></head><body class="home">
<div id="div-gpt-ad-123" class="ad-slot"><iframe width="728" height="90" src="https://x.example/ad"></iframe></div>
<div class="banner-ad wide" data-ad-module="top"></div>
<a href="https://ad.doubleclick.net/click?x=1"><img width="468" height="60" src="/b.gif"></a>
<ins class="adsbygoogle" data-ad-slot="1"></ins>
<div><div style="display:inline" class="img_abc"><div id="img_x" class="img_y">z</div></div></div>
<aside id="adrotate_widgets-3"></aside>
<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk"></div></div>
<section class="main"><p class="txt">keep</p><span class="com">dotted</span></section>
</body></html>`;

describe('element index', () => {
  const doc = parseDocument(HTML);
  const index = indexElements(doc);

  it('narrows candidates by the last compound and ignores values and :not()', () => {
    assert.deepEqual(
      candidates('iframe[src*="example.com/"]', index).map((e) => e.name),
      ['iframe'],
    );
    assert.equal(
      candidates('div:not([class]):not([id])', index).length,
      index.byTag.get('div')!.length,
    );
    assert.equal(candidates('body > div .txt', index).length, 1);
    assert.equal(candidates('a, b', index), index.all);
  });

  describe('agrees with a full css-select pass for every shipped selector', () => {
    let engines: FilterEngines;
    before(async () => {
      engines = await loadFilterEngines(builtFilterDir());
    });

    it('on generic and chat selectors', () => {
      const selectors = [
        ...engines.baseSelectors('ads'),
        ...engines.baseSelectors('cookies'),
        ...engines.chat.selectors,
        '.banner-ad',
        '#onetrust-consent-sdk',
        'div[id^="div-gpt-ad"] > iframe',
        'a[href^="https://ad.doubleclick.net/"] > img',
      ];
      let matched = 0;
      for (const selector of selectors) {
        const test = compileSelector(selector);
        if (!test) continue;
        const fast = new Set<El>();
        selectInto(selector, test, index, fast);
        const full = new Set(selectAll<El, El>(selector, doc.children as El[]));
        assert.deepEqual(fast, full, selector);
        matched += full.size;
      }
      assert.ok(matched >= 5, `only ${matched} matches: the fixture no longer exercises the rules`);
    });
  });
});
