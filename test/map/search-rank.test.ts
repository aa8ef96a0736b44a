/** search: matching links first, the rest after them (search-rank.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rankBySearch } from '../../src/map/search-rank.js';

const urls = (links: { url: string }[]) => links.map((link) => link.url);

describe('rankBySearch', async () => {
  it('puts links containing the term first, keeping the order of the others', async () => {
    const links = [
      'https://e.com/',
      'https://e.com/blog/a',
      'https://e.com/about',
      'https://e.com/blog/b',
    ];
    assert.deepEqual(
      urls(
        await rankBySearch(
          links.map((url) => ({ url })),
          'Blog',
        ),
      ),
      ['https://e.com/blog/a', 'https://e.com/blog/b', 'https://e.com/', 'https://e.com/about'],
    );
  });

  it('ranks the whole term above some of its words, and more words above fewer', async () => {
    const links = [
      { url: 'https://e.com/pricing' },
      { url: 'https://e.com/team-pricing' },
      { url: 'https://e.com/x', title: 'Team pricing plans' },
      { url: 'https://e.com/other' },
    ];
    assert.deepEqual(urls(await rankBySearch(links, 'team pricing')), [
      'https://e.com/x',
      'https://e.com/team-pricing',
      'https://e.com/pricing',
      'https://e.com/other',
    ]);
  });

  it('searches decoded URLs and descriptions', async () => {
    const links = [
      { url: 'https://e.com/a' },
      { url: 'https://e.com/caf%C3%A9' },
      { url: 'https://e.com/b', description: 'Our café menu' },
    ];
    assert.deepEqual(urls(await rankBySearch(links, 'café')).slice(0, 2), [
      'https://e.com/caf%C3%A9',
      'https://e.com/b',
    ]);
  });

  it('changes nothing for an empty term', async () => {
    const links = [{ url: 'https://e.com/b' }, { url: 'https://e.com/a' }];
    assert.deepEqual(await rankBySearch(links, '  '), links);
  });
});
