import type { Account } from '../api/types.js';
import { href } from '../lib/route.js';

interface HeaderProps {
  account: Account | null;
  error: string | null;
  section: 'workflows' | 'playground' | 'crawls';
  onSignOut: () => void;
}

export function Header({ account, error, section, onSignOut }: HeaderProps) {
  return (
    <header class="topbar">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <div class="brand">pagegrab</div>
      <nav aria-label="Main">
        <a href={href.list()} aria-current={section === 'workflows' ? 'page' : undefined}>
          Workflows
        </a>
        <a href={href.playground()} aria-current={section === 'playground' ? 'page' : undefined}>
          Playground
        </a>
        <a href={href.crawls()} aria-current={section === 'crawls' ? 'page' : undefined}>
          Crawls
        </a>
      </nav>
      <div class="account" aria-live="polite">
        {error ? (
          <span class="error">{error}</span>
        ) : account ? (
          <>
            <span data-testid="account-name">{account.name}</span>
            <span class="credits" data-testid="account-credits">
              {account.credits.toLocaleString()} credits
            </span>
          </>
        ) : (
          <span class="muted">…</span>
        )}
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
