import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAT_VENDORS, ChatWidgetMatcher } from '../../../src/scrape/blockers/chat-widgets.js';

describe('chat widget vendor list', () => {
  const matcher = new ChatWidgetMatcher();

  it('matches vendor hosts and their subdomains', () => {
    assert.equal(matcher.matchesUrl('https://widget.intercom.io/widget/abc'), true);
    assert.equal(matcher.matchesUrl('https://embed.tawk.to/123/default'), true);
    assert.equal(matcher.matchesUrl('https://eu.client.crisp.chat/l.js'), true);
  });

  it('does not match lookalike hosts or the vendors’ other pages', () => {
    assert.equal(matcher.matchesUrl('https://widget.intercom.io.example.com/x.js'), false);
    assert.equal(matcher.matchesUrl('https://notintercom.io/widget'), false);
    assert.equal(matcher.matchesUrl('https://www.intercom.com/pricing'), false);
    assert.equal(matcher.matchesUrl('not a url'), false);
  });

  it('honours path-scoped entries', () => {
    assert.equal(
      matcher.matchesUrl('https://connect.facebook.net/en_US/sdk/xfbml.customerchat.js'),
      true,
    );
    assert.equal(matcher.matchesUrl('https://connect.facebook.net/en_US/sdk.js'), false);
  });

  it('documents every vendor with hosts and container selectors', () => {
    assert.ok(CHAT_VENDORS.length >= 20);
    for (const vendor of CHAT_VENDORS) {
      assert.ok(vendor.hosts.length > 0, vendor.name);
      assert.ok(vendor.selectors.length > 0, vendor.name);
    }
    assert.ok(matcher.selectors.includes('#intercom-container'));
  });
});
