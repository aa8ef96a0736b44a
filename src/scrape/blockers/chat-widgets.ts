/**
 * Live-chat widget vendors, kept by hand: no maintained npm list with a usable licence exists
 * (AdGuard's Widgets filter is GPL-3.0 and mixes chats with weather and share widgets).
 * Each entry comes from the vendor's own embed snippet/installation docs (URL in the comment):
 * the hosts its loader and widget load from, and the containers the widget injects.
 * Hosts match the request host exactly or as a parent domain; a `host/path` entry also needs
 * the URL path to start with that path. Keep hosts specific: never a vendor's marketing site.
 */

export interface ChatVendor {
  name: string;
  /** `host` or `host/path-prefix` the widget's scripts, frames and APIs load from. */
  hosts: readonly string[];
  /** Elements the widget adds to the page (or the page adds for it). */
  selectors: readonly string[];
}

export const CHAT_VENDORS: readonly ChatVendor[] = [
  // https://developers.intercom.com/installing-intercom/web/installation
  {
    name: 'Intercom',
    hosts: [
      'widget.intercom.io',
      'js.intercomcdn.com',
      'api-iam.intercom.io',
      'nexus-websocket-a.intercom.io',
    ],
    selectors: [
      '#intercom-container',
      '#intercom-frame',
      '.intercom-lightweight-app',
      '.intercom-launcher',
      'iframe[name^="intercom-"]',
    ],
  },
  // https://devdocs.drift.com/docs/drift-widget-installation
  {
    name: 'Drift',
    hosts: ['js.driftt.com', 'widget.drift.com', 'event.api.drift.com'],
    selectors: [
      '#drift-widget',
      '#drift-widget-container',
      '#drift-frame-controller',
      '#drift-frame-chat',
      '.drift-frame-controller',
    ],
  },
  // https://developer.zendesk.com/api-reference/widget-messaging/introduction/ (ze-snippet)
  {
    name: 'Zendesk Web Widget / Zopim',
    hosts: ['static.zdassets.com', 'ekr.zdassets.com', 'v2.zopim.com', 'widget-mediator.zopim.com'],
    selectors: [
      '#ze-snippet',
      'iframe#launcher',
      'iframe#webWidget',
      '[data-product="web_widget"]',
      '.zopim',
    ],
  },
  // https://docs.crisp.chat/guides/chatbox-sdks/web-sdk/
  {
    name: 'Crisp',
    hosts: ['client.crisp.chat', 'settings.crisp.chat', 'client.relay.crisp.chat'],
    selectors: ['.crisp-client', '#crisp-chatbox'],
  },
  // https://help.tawk.to/article/adding-a-widget-to-your-website (embed.tawk.to snippet)
  {
    name: 'Tawk.to',
    hosts: ['embed.tawk.to', 'va.tawk.to', 'tawk.link'],
    selectors: ['iframe[title="chat widget"]', 'div[id^="tawk"]', '.tawk-min-container'],
  },
  // https://platform.text.com/docs/extending-chat-widget/javascript-api (LiveChat tracking code)
  {
    name: 'LiveChat',
    hosts: ['cdn.livechatinc.com', 'secure.livechatinc.com', 'api.livechatinc.com'],
    selectors: ['#chat-widget-container', '#livechat-compact-container', '#livechat-full'],
  },
  // https://developers.hubspot.com/docs/api/conversation/chat-widget-sdk
  {
    name: 'HubSpot chat',
    hosts: [
      'js.usemessages.com',
      'api.hubspot.com/livechat-public',
      'app.hubspot.com/conversations-visitor',
    ],
    selectors: ['#hubspot-messages-iframe-container', '#hubspot-conversations-inline-parent'],
  },
  // https://www.olark.com/help/install (static.olark.com loader)
  {
    name: 'Olark',
    hosts: ['static.olark.com', 'knrpc.olark.com'],
    selectors: ['#olark-wrapper', '#olark-container', '#olark', '.olark-launch-button'],
  },
  // https://developers.freshchat.com/web-sdk/ and https://developers.freshdesk.com/widget-api/
  {
    name: 'Freshchat / Freshdesk widget',
    hosts: ['wchat.freshchat.com', 'widget.freshworks.com', 'assetscdn-wchat.freshchat.com'],
    selectors: [
      '#fc_frame',
      '#fc_widget',
      '#freshworks-container',
      '#freshworks-frame',
      'iframe#launcher-frame',
    ],
  },
  // https://help.tidio.com/hc/en-us/articles/5424114788508 (code.tidio.co snippet)
  {
    name: 'Tidio',
    hosts: ['code.tidio.co', 'widget-v4.tidiochat.com', 'socket.tidio.co'],
    selectors: ['#tidio-chat', '#tidio-chat-iframe', '#tidio-chat-code'],
  },
  // https://chatra.com/help/api/ (call.chatra.io/chatra.js)
  {
    name: 'Chatra',
    hosts: ['call.chatra.io', 'chat.chatra.io'],
    selectors: ['#chatra', '.chatra--webkit'],
  },
  // https://docs.smartsupp.com/chat-box/installation (smartsuppchat.com loader)
  {
    name: 'Smartsupp',
    hosts: [
      'www.smartsuppchat.com',
      'smartsuppchat.com',
      'widget-v3.smartsuppcdn.com',
      'bootstrap.smartsuppchat.com',
    ],
    selectors: ['#smartsupp-widget-container', '#chat-application'],
  },
  // https://www.jivochat.com/help/ (code.jivosite.com widget code)
  {
    name: 'JivoChat',
    hosts: ['code.jivosite.com', 'code.jivo.ru', 'node.jivosite.com'],
    selectors: ['jdiv', '#jivo-iframe-container', '.jivo-iframe-container', '#jcont'],
  },
  // https://docs.userlike.com/ (userlike-cdn-widgets loader)
  {
    name: 'Userlike',
    hosts: [
      'userlike-cdn-widgets.s3-eu-west-1.amazonaws.com',
      'api.userlike.com',
      'widget.userlike.com',
    ],
    selectors: ['#userlike', '#userlike-tab', 'div[id^="userlike-"]'],
  },
  // https://developers.liveperson.com/web-tag-overview.html (lptag.liveperson.net)
  {
    name: 'LivePerson',
    hosts: ['lptag.liveperson.net', 'lpcdn.lpsnmedia.net', 'accdn.lpsnmedia.net'],
    selectors: ['.LPMcontainer', '#lpChat', '.lp_maximized', '.lp_minimized'],
  },
  // https://docs.gorgias.com/en-US/chat-widget-installation (config.gorgias.chat bundle loader)
  {
    name: 'Gorgias',
    hosts: ['config.gorgias.chat', 'assets.gorgias.chat', 'client-builds.production.gorgias.chat'],
    selectors: ['#gorgias-chat-container', '#chat-button', '#gorgias-web-messenger-container'],
  },
  // https://www.reamaze.com/api/embed (cdn.reamaze.com/assets/reamaze.js)
  {
    name: 'Re:amaze',
    hosts: ['cdn.reamaze.com'],
    selectors: ['#reamaze-widget', '#reamaze-wrapper', '.reamaze-widget'],
  },
  // https://dev.frontapp.com/docs/chat-widget (chat-assets.frontapp.com)
  {
    name: 'Front Chat',
    hosts: ['chat-assets.frontapp.com', 'chat.frontapp.com'],
    selectors: ['#front-chat-container', '#front-chat-iframe', '#front-chat-holder'],
  },
  // https://developer.helpscout.com/beacon-2/web/javascript-api/ (beacon-v2.helpscout.net)
  {
    name: 'Help Scout Beacon',
    hosts: ['beacon-v2.helpscout.net', 'beaconapi.helpscout.net'],
    selectors: ['#beacon-container', '.BeaconFabButtonFrame', '#hs-beacon'],
  },
  // https://www.zoho.com/salesiq/help/developer-section/ (salesiq.zoho.* widget code)
  {
    name: 'Zoho SalesIQ',
    hosts: [
      'salesiq.zoho.com',
      'salesiq.zoho.eu',
      'salesiq.zohopublic.com',
      'salesiq.zohopublic.eu',
    ],
    selectors: ['#zsiq_float', '.zsiq_floatmain', '[data-id="zsalesiq"]', '#siqiframe'],
  },
  // https://developers.facebook.com/docs/messenger-platform/discovery/facebook-chat-plugin/
  {
    name: 'Facebook Customer Chat',
    hosts: ['connect.facebook.net/en_US/sdk/xfbml.customerchat.js'],
    selectors: [
      '.fb-customerchat',
      '.fb_customer_chat_bubble',
      'iframe[data-testid="bubble_iframe"]',
    ],
  },
  // https://purechat.com/ (app.purechat.com/VisitorWidget loader)
  { name: 'Pure Chat', hosts: ['app.purechat.com'], selectors: ['#PureChatWidget'] },
];

interface HostRule {
  host: string;
  path: string;
}

/** Compiled lookup: host suffix → path prefixes. Build once and reuse. */
export class ChatWidgetMatcher {
  private readonly rules = new Map<string, HostRule[]>();
  /** One selector list hiding every vendor's containers. */
  readonly selectors: readonly string[];

  constructor(vendors: readonly ChatVendor[] = CHAT_VENDORS) {
    for (const vendor of vendors) {
      for (const entry of vendor.hosts) {
        const slash = entry.indexOf('/');
        const host = slash === -1 ? entry : entry.slice(0, slash);
        const path = slash === -1 ? '/' : entry.slice(slash);
        const list = this.rules.get(host) ?? [];
        list.push({ host, path });
        this.rules.set(host, list);
      }
    }
    this.selectors = vendors.flatMap((v) => v.selectors);
  }

  /** True when `url` loads from a chat vendor. */
  matchesUrl(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return this.matchesHost(parsed.hostname, () => parsed.pathname);
  }

  /**
   * Same, from a hostname already parsed (the request matcher has it); the path is only
   * computed when a path-scoped entry needs it.
   */
  matchesHost(hostname: string, pathname: () => string): boolean {
    // Try the host and each parent domain: a.b.example.com, b.example.com, example.com.
    let host = hostname.toLowerCase();
    for (;;) {
      for (const rule of this.rules.get(host) ?? []) {
        if (rule.path === '/' || pathname().startsWith(rule.path)) return true;
      }
      const dot = host.indexOf('.');
      if (dot === -1) return false;
      host = host.slice(dot + 1);
    }
  }
}
