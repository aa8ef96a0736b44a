/**
 * Utility classes (Tailwind's, Bootstrap's and the like) told from the names a template's
 * author chose, by their shapes (`md:` variants, scale steps, colour names), not by a page's
 * vocabulary. Readability-style word tests on class names read words such as "hidden",
 * "scroll", "extra", "content" or "text", which utility classes hold by shape
 * (`overflow-hidden`, `bg-scroll`, `font-extrabold`, `justify-content-between`,
 * `text-center`): a utility says how a box looks, not what it is.
 *
 * Used by the class weight's chrome test (measure.ts classWeight). Measured and not (yet)
 * used elsewhere: the content test (`text-*` losing its weight cost a Tailwind home page its
 * grid), the unlikely-candidate test and the named boilerplate (net gains on one half of
 * the WCXB pages only).
 *
 * Visibility utilities (`hidden`, `sm:hidden`, `invisible`, `sr-only`) are not removed: what
 * a page hides is a signal of its own, and the tests that read "hidden" mean it.
 */
import type { ElementNode } from './dom.js';

const BREAKPOINT = '(?:xs|sm|md|lg|xl|xxl|2xl)';
/** A Tailwind/Bootstrap scale step: a number, a fraction, a named size, an arbitrary value. */
const SIZE =
  '(?:-?\\d+(?:\\.\\d+)?(?:/\\d+)?|\\d?x[sl]|sm|md|lg|base|full|screen|auto|px|none|min|max|fit|prose|\\[[^\\]\\s]*\\])';
/** Colour names of Tailwind's palette and Bootstrap's theme, with a shade and an opacity. */
const COLOR = `(?:(?:white|black|transparent|current|inherit|slate|gray|grey|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose|primary|secondary|tertiary|success|danger|warning|info|light|dark|muted|body|reset|emphasis)(?:-(?:\\d{2,3}|subtle|emphasis|secondary|tertiary))?(?:/\\d+)?|\\[[^\\]\\s]*\\])`;
const ALIGN = '(?:start|end|center|between|around|evenly|stretch|baseline|normal|left|right)';

/** Whole-word utilities: display, position, text transforms. */
const BARE =
  'flex|grid|block|inline|inline-block|inline-flex|inline-grid|contents|flow-root|table|relative|absolute|fixed|sticky|static|isolate|truncate|uppercase|lowercase|capitalize|normal-case|italic|underline|no-underline|line-through|antialiased|container|container-fluid|row|col|clearfix|shadow|rounded|border|transition|transform|grow|shrink|ms-auto|me-auto|mx-auto|my-auto';

const FAMILIES = [
  // spacing and sizing on a scale: m-4, -mt-2, px-0, w-1/2, h-screen, gap-x-4, g-3, z-10
  `-?(?:p|m)[xytrblse]?-${SIZE}`,
  `(?:w|h|size|min-w|min-h|max-w|max-h|basis|z|order|g[xy]?|gap(?:-[xy])?|space-[xy]|inset(?:-[xy])?|top|right|bottom|left|start|end|lh|fs|opacity|columns|line-clamp|col-span|col-start|col-end|row-span|row-start|row-end|grid-cols|grid-rows|translate-[xy]|rotate|scale(?:-[xy])?|duration|delay)-${SIZE}`,
  // typography
  '(?:font|fw)-(?:thin|extralight|light|normal|medium|semibold|bold|extrabold|black|bolder|lighter|sans|serif|mono|\\d{3})',
  '(?:leading|tracking)-[\\w.\\[\\]-]+',
  `text-(?:${SIZE}|${COLOR}|left|center|right|justify|start|end|wrap|nowrap|balance|pretty|ellipsis|clip|truncate|break|decoration-none|uppercase|lowercase|capitalize|opacity-\\d+|(?:${BREAKPOINT})-(?:left|center|right|start|end))`,
  // colours and surfaces
  `(?:bg|from|via|to|border|ring|outline|fill|stroke|divide|decoration|shadow|link)-${COLOR}`,
  'bg-(?:cover|contain|center|top|bottom|left|right|no-repeat|repeat|fixed|local|scroll|none|gradient-to-[trbl]{1,2}|gradient|opacity-\\d+|clip-[a-z]+)',
  `(?:border|rounded|shadow|ring|outline|divide)(?:-[xytrblse]{1,2})?-(?:${SIZE}|inner|dashed|dotted|solid|double|none|0)`,
  '(?:border|rounded)-[xytrblse]{1,2}',
  // flex and grid alignment: justify-content-between, align-items-center, items-center
  `(?:justify|items|content|self|place-content|place-items|place-self|justify-items|justify-self|justify-content|align-items|align-content|align-self)-${ALIGN}`,
  `align-(?:top|middle|bottom|baseline|text-top|text-bottom)`,
  `flex-(?:${BREAKPOINT}-)?(?:1|auto|initial|none|row|row-reverse|col|col-reverse|column|column-reverse|wrap|wrap-reverse|nowrap|fill|grow(?:-\\d)?|shrink(?:-\\d)?)`,
  // Bootstrap's grid and display: col-md-6, col-12, offset-lg-2, row-cols-3, d-flex, d-md-block
  `(?:col|offset|row-cols)(?:-${BREAKPOINT})?-(?:\\d{1,2}|auto)`,
  `col-${BREAKPOINT}`,
  `d-(?:${BREAKPOINT}-)?(?:flex|inline-flex|block|inline|inline-block|grid|inline-grid|table|table-cell|table-row|contents)`,
  // layout keywords
  'overflow(?:-[xy])?-(?:hidden|scroll|auto|clip|visible)',
  'position-(?:relative|absolute|fixed|sticky|static)',
  'float-(?:left|right|start|end|none)',
  'object-(?:cover|contain|fill|none|scale-down|center|top|bottom|left|right)',
  'whitespace-(?:normal|nowrap|pre|pre-line|pre-wrap|break-spaces)',
  'break-(?:words|all|keep|normal|inside-avoid|before-\\w+|after-\\w+)',
  'cursor-(?:auto|default|pointer|wait|text|move|help|not-allowed|none|grab|grabbing)',
  'select-(?:none|text|all|auto)',
  'pointer-events-(?:none|auto)',
  'transition-(?:all|colors|opacity|shadow|transform|none)',
  'ease-(?:linear|in|out|in-out)',
  'aspect-(?:auto|square|video|\\[[^\\]\\s]*\\])',
];

const UTILITY = new RegExp(`^(?:${BARE}|${FAMILIES.join('|')})$`);
/** Tailwind variants (`md:`, `hover:`, `group-hover:`) and the important/negative marks. */
const VARIANTS = /^(?:[^:\s]+:)+/;
const VISIBILITY = /^(?:hidden|invisible|visible|sr-only|not-sr-only|collapse)$/;

/** Whether one class token is a utility class (by its shape, not by a page's vocabulary). */
export function isUtilityClass(token: string): boolean {
  let base = token.replace(VARIANTS, '');
  if (base.startsWith('!')) base = base.slice(1);
  if (VISIBILITY.test(base)) return false;
  return UTILITY.test(base);
}

/** The class attribute without its utility classes; the same string when none is one. */
export function authoredClasses(cls: string): string {
  const tokens = cls.split(/\s+/);
  const kept = tokens.filter((t) => t !== '' && !isUtilityClass(t));
  return kept.length === tokens.length ? cls : kept.join(' ');
}

/**
 * The element's class attribute without its utility classes, kept per attributes object:
 * every pass and attempt asks it of the same elements, and copies of a tree share their
 * attributes (clone.ts), which nothing rewrites.
 */
const authored = new WeakMap<Readonly<Record<string, string>>, string>();
export function authoredClassOf(el: ElementNode): string {
  const attrs = el.attrs;
  if (!attrs.class) return '';
  let cls = authored.get(attrs);
  if (cls === undefined) {
    cls = authoredClasses(attrs.class);
    authored.set(attrs, cls);
  }
  return cls;
}
