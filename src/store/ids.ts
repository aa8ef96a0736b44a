import { uuidv7 } from 'uuidv7';

/** Opaque, URL-safe, time-sortable identifiers (UUIDv7), so "newest first" is index order. */
export function newId(): string {
  return uuidv7();
}
