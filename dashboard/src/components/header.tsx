import type { Account } from '../api/types.js';
import { NAV, type Section } from '../lib/nav.js';

interface HeaderProps {
  account: Account | null;
  error: string | null;
  section: Section;
  onSignOut: () => void;
}

export function Header({ account, error, section, onSignOut }: HeaderProps) {
  return (
    <header class="topbar">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <a class="brand" href="#/">
        pagegrab
      </a>
      <nav aria-label="Main">
        {NAV.map((entry) => (
          <a
            key={entry.section}
            href={entry.href()}
            aria-current={section === entry.section ? 'page' : undefined}
          >
            {entry.label}
          </a>
        ))}
        <a href="/docs" target="_blank" rel="noopener">
          API docs
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
