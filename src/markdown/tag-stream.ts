/**
 * htmlparser2's Parser (open/close/text events with HTML's implied closes) rebuilt on its
 * Tokenizer, event for event, with one difference: the open-element stack. The Parser keeps
 * it with `unshift`/`shift`/`indexOf`, so each open tag costs O(depth) and a page of N
 * unclosed `<div>`s costs O(N²) before the tree builder sees a single event (50,000 of
 * them took 1 s). Here the stack is pushed and popped at its end, and a count per tag name
 * answers "is a `</x>` open at all?" without scanning, so parsing stays linear.
 *
 * Only what the light tree needs is emitted: comments, CDATA and processing instructions
 * are skipped (the Parser reports them; nothing here used them).
 *
 * The other difference: `<![CDATA[` in HTML content ends at the first `>`, as in browsers
 * (a bogus comment), not at `]]>`. The Tokenizer waits for `]]>`, so one stray CDATA opener
 * (a forum template prints one after `<body>`) hid the whole rest of the page.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

export interface TagHandler {
  onopentag(name: string, attribs: Record<string, string>): void;
  ontext(data: string): void;
  onclosetag(name: string): void;
}

const formTags = new Set([
  'input',
  'option',
  'optgroup',
  'select',
  'button',
  'datalist',
  'textarea',
]);
const pTag = new Set(['p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);
/** htmlparser2 10.1's table: opening the key closes an open element of these names. */
const openImpliesClose = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
    (t) => [t, formTags] as [string, ReadonlySet<string>],
  ),
  ...[
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((t) => [t, pTag] as [string, ReadonlySet<string>]),
]);
const voidElements = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const foreignContextElements = new Set(['math', 'svg']);
const htmlIntegrationElements = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);

/** The entity decoder already maps invalid code points to U+FFFD; this is belt and braces. */
function fromCodePoint(cp: number): string {
  return cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
}

const CDATA_OPEN = '<![CDATA[';

/**
 * Each CDATA opener as a processing instruction of the same length (offsets into `html`
 * stay valid): the Tokenizer ends those at the first `>`, as browsers end a bogus comment.
 * Inside SVG a CDATA section is real, but the light tree drops SVG whole.
 */
function asBogusComments(html: string): string {
  return html.replaceAll(CDATA_OPEN, '<?[CDATA[');
}

/** Tokenizes `html` in one go and reports its elements to `handler`. */
export function streamTags(html: string, handler: TagHandler): void {
  const stack: string[] = [];
  const openCount = new Map<string, number>();
  const foreign: boolean[] = [false];
  let tagname = '';
  let attribname = '';
  let attribvalue = '';
  let attribs: Record<string, string> | null = null;

  const push = (name: string) => {
    stack.push(name);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
  };
  const pop = (): string => {
    const name = stack.pop() as string;
    openCount.set(name, (openCount.get(name) ?? 1) - 1);
    return name;
  };
  const emitOpenTag = (name: string) => {
    tagname = name;
    const impliesClose = openImpliesClose.get(name);
    if (impliesClose) {
      while (stack.length > 0 && impliesClose.has(stack[stack.length - 1] as string)) {
        handler.onclosetag(pop());
      }
    }
    if (!voidElements.has(name)) {
      push(name);
      if (foreignContextElements.has(name)) foreign.push(true);
      else if (htmlIntegrationElements.has(name)) foreign.push(false);
    }
    attribs = {};
  };
  const endOpenTag = () => {
    if (attribs) {
      handler.onopentag(tagname, attribs);
      attribs = null;
    }
    if (voidElements.has(tagname)) handler.onclosetag(tagname);
    tagname = '';
  };
  const closeCurrentTag = () => {
    const name = tagname;
    endOpenTag();
    if (stack[stack.length - 1] === name) handler.onclosetag(pop());
  };

  const callbacks: TokenizerCallbacks = {
    ontext(start, end) {
      handler.ontext(html.slice(start, end));
    },
    ontextentity(cp) {
      handler.ontext(fromCodePoint(cp));
    },
    onopentagname(start, end) {
      emitOpenTag(html.slice(start, end).toLowerCase());
    },
    onopentagend() {
      endOpenTag();
    },
    onclosetag(start, end) {
      const name = html.slice(start, end).toLowerCase();
      if (foreignContextElements.has(name) || htmlIntegrationElements.has(name)) foreign.pop();
      if (!voidElements.has(name)) {
        if ((openCount.get(name) ?? 0) > 0) {
          // pops at most what was pushed: linear over the document
          let popped = pop();
          handler.onclosetag(popped);
          while (popped !== name) {
            popped = pop();
            handler.onclosetag(popped);
          }
        } else if (name === 'p') {
          emitOpenTag('p');
          closeCurrentTag();
        }
      } else if (name === 'br') {
        handler.onopentag('br', {});
        handler.onclosetag('br');
      }
    },
    onselfclosingtag() {
      if (foreign[foreign.length - 1]) closeCurrentTag();
      else endOpenTag();
    },
    onattribname(start, end) {
      attribname = html.slice(start, end).toLowerCase();
    },
    onattribdata(start, end) {
      attribvalue += html.slice(start, end);
    },
    onattribentity(cp) {
      attribvalue += fromCodePoint(cp);
    },
    onattribend() {
      // the first of duplicate attributes wins; a typeof test instead of Object.hasOwn (an
      // eighth of the stream's time): only a string is an attribute already set, so the
      // prototype's `constructor` and `__proto__` are written over as before
      if (attribs && typeof attribs[attribname] !== 'string') attribs[attribname] = attribvalue;
      attribvalue = '';
    },
    onend() {
      while (stack.length > 0) handler.onclosetag(pop());
    },
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
  };
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, callbacks);
  tokenizer.write(html.includes(CDATA_OPEN) ? asBogusComments(html) : html);
  tokenizer.end();
}
