/**
 * Where the signed-in key lives: sessionStorage by default (this tab only, gone when it
 * closes), localStorage when the user ticks "keep me signed in" (every tab of this browser,
 * until sign-out). Signing out in one tab signs out the tabs sharing the key.
 */
const KEY = 'pagegrab.apiKey';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
}

export function storeKey(key: string, persist: boolean): void {
  if (persist) localStorage.setItem(KEY, key);
  else sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
}

/** Calls back when another tab signs in or out with a kept key. */
export function onKeyChange(callback: (key: string | null) => void): () => void {
  const listener = (e: StorageEvent) => {
    if (e.storageArea === localStorage && e.key === KEY) callback(storedKey());
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
