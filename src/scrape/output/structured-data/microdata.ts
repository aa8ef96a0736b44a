/**
 * The page's microdata items in the shape of WHATWG's JSON conversion ("Microdata: JSON"):
 * `{type: [itemtype...], id?: itemid, properties: {name: [value...]}}` for each top-level
 * item (itemscope without itemprop), nested items as values, `itemref` followed. Values are
 * what the standard reads: `content` of a meta, a resolved `src`/`href`/`data` URL, `value`
 * of data and meter, `datetime` of time, else the element's text (whitespace collapsed).
 *
 * Bounded for hostile pages: at most MAX_ITEMS top-level items, items nested at most
 * MAX_NESTING deep (deeper ones are left out), and MAX_CHARS of values in all (then the
 * remaining values are left out), MAX_VISITS elements looked at; an element reached twice by
 * one item (itemref loops) is read once.
 */
import { DomUtils } from 'htmlparser2';
import type { JsonValue } from '../../types.js';
import { cleanText, elementText } from '../document/element-text.js';
import type { PageElement, PageNode, PageTree } from '../document/page-tree.js';

export interface MicrodataItem {
  type?: string[];
  id?: string;
  properties: Record<string, JsonValue[]>;
}

export const MAX_ITEMS = 100;
const MAX_NESTING = 32;
const MAX_CHARS = 1024 * 1024;
/** Elements looked at in all: itemref can make items read the same elements again. */
const MAX_VISITS = 1_000_000;

const SRC = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);
const HREF = new Set(['a', 'area', 'link']);

function tokens(value: string | undefined): string[] {
  return (value ?? '').split(/\s+/).filter((token) => token !== '');
}

function isTag(node: PageNode): node is PageElement {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

export function microdataItems(tree: PageTree, base: URL | null): MicrodataItem[] {
  const reader = new Reader(tree, base);
  const tops = DomUtils.findAll(
    (el) => Object.hasOwn(el.attribs, 'itemscope') && !Object.hasOwn(el.attribs, 'itemprop'),
    tree.children,
  ) as PageElement[];
  return tops.slice(0, MAX_ITEMS).map((el) => reader.item(el, 0));
}

class Reader {
  private left = MAX_CHARS;
  private visits = MAX_VISITS;
  private ids: Map<string, PageElement> | null = null;

  constructor(
    private readonly tree: PageTree,
    private readonly base: URL | null,
  ) {}

  item(root: PageElement, depth: number): MicrodataItem {
    const types = tokens(root.attribs.itemtype);
    const id = root.attribs.itemid;
    const item: MicrodataItem = {
      ...(types.length > 0 && { type: types }),
      ...(id !== undefined && { id: this.url(id) }),
      properties: {},
    };
    const properties = new Map<string, JsonValue[]>();
    for (const element of this.propertiesOf(root)) {
      const scoped = Object.hasOwn(element.attribs, 'itemscope');
      if (scoped && depth + 1 >= MAX_NESTING) continue;
      if (!scoped && this.left <= 0) continue;
      const value = scoped
        ? (this.item(element, depth + 1) as unknown as JsonValue)
        : this.value(element);
      for (const name of tokens(element.attribs.itemprop)) {
        const values = properties.get(name);
        if (values) values.push(value);
        else properties.set(name, [value]);
      }
    }
    item.properties = Object.fromEntries(properties);
    return item;
  }

  /** The item's property elements, in document order, then those its itemref names. */
  private propertiesOf(root: PageElement): PageElement[] {
    const found: PageElement[] = [];
    const seen = new Set<PageElement>([root]);
    const refs = tokens(root.attribs.itemref).flatMap((id) => {
      const el = this.byId(id);
      return el ? [el] : [];
    });
    const pending: PageElement[] = [...refs.reverse(), ...root.children.filter(isTag).reverse()];
    for (let el = pending.pop(); el !== undefined && this.visits > 0; el = pending.pop()) {
      if (seen.has(el)) continue;
      this.visits--;
      seen.add(el);
      if (tokens(el.attribs.itemprop).length > 0) found.push(el);
      // a nested item's own properties are its, not this item's
      if (!Object.hasOwn(el.attribs, 'itemscope')) {
        const children = el.children.filter(isTag);
        for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as PageElement);
      }
    }
    return found;
  }

  private byId(id: string): PageElement | undefined {
    if (this.ids === null) {
      this.ids = new Map();
      for (const el of DomUtils.findAll((e) => e.attribs.id !== undefined, this.tree.children)) {
        const key = el.attribs.id as string;
        if (!this.ids.has(key)) this.ids.set(key, el as PageElement);
      }
    }
    return this.ids.get(id);
  }

  private value(element: PageElement): string {
    const { name, attribs } = element;
    let value: string;
    if (name === 'meta') value = attribs.content ?? '';
    else if (SRC.has(name)) value = this.url(attribs.src ?? '');
    else if (HREF.has(name)) value = this.url(attribs.href ?? '');
    else if (name === 'object') value = this.url(attribs.data ?? '');
    else if (name === 'data' || name === 'meter') value = attribs.value ?? '';
    else if (name === 'time' && attribs.datetime !== undefined) value = attribs.datetime;
    else value = cleanText(elementText(element, this.left));
    value = value.slice(0, Math.max(0, this.left));
    this.left -= value.length + 1;
    return value;
  }

  private url(value: string): string {
    if (value === '') return '';
    try {
      return new URL(value.trim(), this.base ?? undefined).href;
    } catch {
      return value;
    }
  }
}
