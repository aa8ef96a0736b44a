/**
 * A map's answer as JSON, written in slices that give the event loop back: v2 allows 100,000
 * links, several MB of JSON whose one-piece serialisation held the loop for 50-100 ms (issue
 * 24: a big map must not stall the node). The bytes are what the answer's schema would give:
 * `{"success":true,"links":[...]}`, each v2 link `url`, then `title`, `description` when known.
 */
import { eventLoopSlices } from '../../map/event-loop-slices.js';
import type { MapLink } from '../../map/types.js';

function linkJson(link: MapLink, version: 'v1' | 'v2'): string {
  if (version === 'v1') return JSON.stringify(link.url);
  const { url, title, description } = link;
  return JSON.stringify({
    url,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
  });
}

export async function mapAnswerJson(
  links: readonly MapLink[],
  version: 'v1' | 'v2',
): Promise<string> {
  const slices = eventLoopSlices();
  const parts: string[] = [];
  for (const link of links) {
    parts.push(linkJson(link, version));
    if (slices.due()) await slices.pause();
  }
  return `{"success":true,"links":[${parts.join(',')}]}`;
}
