/**
 * Credit lines and "Read more" blocks inside an article. Credits: a short block that is only
 * "Photo: ...", "Quelle: ..." names where a picture or text came from, not the story.
 * "Read more" blocks: news and blog templates (and editors by hand) put
 * links to other stories between or after the paragraphs, introduced by a fixed label in the
 * site's language ("Read more: <link>", "Lesen Sie auch", "Lea también:", "Czytaj też"...).
 * They are navigation, not the story. A block is dropped when it starts with such a label
 * and is either little more than the label (a heading for a list of links, which goes with
 * it), a short line that is mostly a link, or lines that are links (the label on the first
 * line of a paragraph, one story a line under it). Calls to action: a short block that asks the
 * reader to subscribe, sign up or download the app, opening with the appeal or addressing the
 * reader ("our newsletter"), so that a sentence of the story about signing up stays; the
 * comment form's prompt to log in first ("You must be logged in to post a comment"); and a
 * share bar's label ("Share this article").
 */
import { type ElementNode, removeNodes } from './dom.js';
import { innerText, linkDensity } from './measure.js';
import { TreeStats } from './tree-stats.js';

const LABELS = [
  'read more',
  'see more',
  "don't miss",
  'don’t miss',
  'most read',
  'trending',
  'read also',
  'also read',
  'see also',
  'related',
  'related articles',
  'related stories',
  'related posts',
  'related content',
  'more on this',
  'more on this story',
  'more from',
  'more stories',
  'you may also like',
  'you might also like',
  'recommended',
  'further reading',
  "editor's picks",
  'tags',
  'topics',
  'topics in this article',
  'more info',
  'more information',
  'further information',
  'editors’ picks',
  'most popular',
  'latest articles',
  'lesen sie auch',
  'lesen sie mehr',
  'lesen sie auch die folgenden beiträge',
  'auch interessant',
  'mehr zum thema',
  'mehr dazu',
  'mehr zu',
  'siehe auch',
  'weitere artikel',
  'weiterführende links?',
  'weiterführender link',
  'das könnte sie auch interessieren',
  'das könnte sie interessieren',
  'empfehlungen aus dem',
  'empfehlung der redaktion',
  'verwandte artikel',
  'verwandte beiträge',
  'ähnliche artikel',
  'ähnliche beiträge',
  'themen im artikel',
  'themen',
  'schlagworte',
  'schlagwörter',
  'stichworte',
  'stichwörter',
  'weitere infos',
  'weitere informationen',
  'mehr infos',
  'mehr informationen',
  'unsere empfehlung',
  'meistgelesen',
  'meist gelesen',
  'neueste artikel',
  'neueste beiträge',
  'lire aussi',
  'à lire aussi',
  'a lire aussi',
  'voir aussi',
  'sur le même sujet',
  'les plus lus',
  'mots-clés',
  'mots clés',
  "plus d'informations",
  'plus d’informations',
  'articles les plus lus',
  'lea también',
  'lea más',
  'lea',
  'le puede interesar',
  'te puede interesar',
  'puedes ver',
  'mira',
  'ver también',
  'más información',
  'etiquetas',
  'temas',
  'leggi anche',
  'leia também',
  'veja também',
  'lees ook',
  'czytaj też',
  'czytaj także',
  'zobacz też',
  'zobacz także',
  'читайте также',
  'смотрите также',
];
const LABEL = new RegExp(`^(?:${LABELS.join('|')})(?=$|\\s*[:：»>]|\\s+\\S)`, 'iu');
const LABEL_START = new RegExp(`^(?:${LABELS.join('|')})`, 'iu');
const LABEL_ONLY = new RegExp(`^(?:${LABELS.join('|')})\\s*[:：»>]?\\s*$`, 'iu');

/** A labelled block of any length whose text is this much link text is a list of links. */
const LINK_LINES = 0.7;

const BLOCKS = new Set(['p', 'div', 'li', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'aside']);
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);

/** Credit labels in the languages of the pages seen most; a colon must follow. */
const CREDIT =
  /^(?:foto|fotos|photo|photos|bild|bilder|image|images|crédits? photos?|credits?|quelle|source|źródło|fuente|fonte)\s*:/iu;

/** Calls to action in a short block of their own (the languages of the pages seen most). */
const CTA_LENGTH = 200;
const CTA_VERB =
  /(?<!\p{L})(?:subscribe|sign(?:ing)? up|download (?:the|our) .{0,40}apps?|join (?:us|our)|abonnieren sie|jetzt abonnieren|suscr[ií]bete|únete|iscriviti|inscrivez-vous|never miss|verpasse keine|verpassen sie keine|ne manquez|no te pierdas|non perdere)/iu;
/** The appeal opens the block ("Subscribe now…", "Click here to…") … */
const CTA_OPENING =
  /^[\p{P}\s]*(?:click here to |jetzt |now )?(?:subscribe|sign up|download|join|abonnieren|suscr[ií]bete|únete|iscriviti|inscrivez-vous|never miss|verpasse keine|verpassen sie keine|ne manquez|no te pierdas|non perdere)/iu;
/** … or it addresses the reader ("by signing up to our newsletter", "desde tu celular"). */
const READER =
  /(?<!\p{L})(?:our|your|unser(?:e|en|em|er)?|ihr(?:e|en)?|dein(?:e|en)?|nuestr[oa]s?|tu|notre|votre|nostr[oaie]|vostr[oaie])(?!\p{L})/iu;

/** "You must be logged in to post a comment", "Sie müssen sich einloggen, um…". */
const LOGIN_PROMPT =
  /(?<!\p{L})(?:must be logged in|need to log in|log in to (?:reply|comment|post)|sign in to (?:reply|comment|post)|müssen sich (?:einloggen|anmelden)|bitte (?:einloggen|anmelden)|debes iniciar sesión|devez être connecté)/iu;

/**
 * "Share this article", "Möchten Sie den Artikel teilen?", "Partager cet article": a share
 * bar's label left as a line of its own once its buttons are gone. A few words, about sharing
 * the page itself, so a sentence of the story ("I'm going to share a bit of my story") stays.
 */
const SHARE_WORDS = 8;
const SHARE =
  /(?<!\p{L})(?:share|teilen|partager|compartir|comparte|condividi|udostępnij|deel)(?!\p{L})/iu;
const SHARE_OBJECT =
  /(?<!\p{L})(?:this|article|artikel|beitrag|seite|page|post|story|cet article|cette page|este artículo|esta nota|la noticia|articolo|artykuł)(?!\p{L})/iu;

function isCallToAction(text: string): boolean {
  if (LOGIN_PROMPT.test(text)) return true;
  if (SHARE.test(text) && SHARE_OBJECT.test(text) && text.split(/\s+/).length <= SHARE_WORDS) {
    return true;
  }
  return CTA_VERB.test(text) && (CTA_OPENING.test(text) || READER.test(text));
}

export function removeRelatedLinks(article: ElementNode): void {
  // lengths from one bottom-up pass: measuring each nested block's text anew is quadratic
  const stats = new TreeStats();
  const doomed: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    const children = el.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child?.type !== 'element') continue;
      if (!BLOCKS.has(child.tag)) {
        walk(child);
        continue;
      }
      if (stats.of(child).length > 300) {
        walk(child);
        continue;
      }
      const text = labelledText(child);
      if (text.length < 100 && CREDIT.test(text)) {
        // a photo credit or source line on its own ("Foto: dpa", "Source: Reuters")
        doomed.push(child);
        continue;
      }
      if (text.length < CTA_LENGTH && isCallToAction(text)) {
        // "Subscribe now…", "Sign up to our newsletter", "Download our app": the template's
        // appeal to the reader, not the story
        doomed.push(child);
        continue;
      }
      if (!LABEL.test(text)) {
        walk(child);
        continue;
      }
      if (LABEL_ONLY.test(text)) {
        // a label on its own heads the links that follow it
        doomed.push(child);
        const next = nextElement(children, i);
        if (next && linkDensity(next) >= (HEADINGS.has(child.tag) ? 0.3 : 0.5)) doomed.push(next);
      } else if (linkedLines(child, text.length)) {
        doomed.push(child);
      } else walk(child);
    }
  };
  walk(article);
  removeNodes(doomed);
}

/**
 * After its label, a short line that is mostly a link, or any number of lines that are
 * links (the label, then one story a line under it): the links are the block.
 */
function linkedLines(block: ElementNode, length: number): boolean {
  const density = linkDensity(block, length);
  return (length <= 200 && density >= 0.4) || density >= LINK_LINES;
}

/**
 * The block's text, with its line breaks as spaces when it opens with a label's words: a
 * label on the first line of a paragraph (`<strong>Don't miss</strong><br><a>…</a>`) is a
 * word of its own, not run into the next line's. Looked at only then: most blocks open
 * with no label, and deep nesting must not be walked again at every level.
 */
function labelledText(block: ElementNode): string {
  const text = innerText(block);
  if (LABEL.test(text) || !LABEL_START.test(text)) return text;
  const parts: string[] = [];
  const collect = (node: ElementNode['children'][number]): void => {
    if (node.type === 'text') parts.push(node.text);
    else if (node.tag === 'br') parts.push(' ');
    else for (const c of node.children) collect(c);
  };
  collect(block);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function nextElement(children: ElementNode['children'], i: number): ElementNode | null {
  for (let k = i + 1; k < children.length; k++) {
    const c = children[k];
    if (c?.type === 'element') return c;
    if (c?.text.trim()) return null;
  }
  return null;
}
