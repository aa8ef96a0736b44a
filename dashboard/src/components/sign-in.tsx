import { useState } from 'preact/hooks';
import { ApiClient, errorText } from '../api/client.js';
import type { Account } from '../api/types.js';

export function SignIn({ onSignIn }: { onSignIn: (key: string, account: Account) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError('Enter your API key.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Checking the key against /api/account means a typo fails here, not on every page.
      const account = await new ApiClient(trimmed).account();
      onSignIn(trimmed, account);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <form class="card" onSubmit={submit} data-testid="signin-form" aria-describedby="signin-help">
        <h1>pagegrab</h1>
        <p id="signin-help" class="muted">
          Sign in with your API key. It is kept in this tab only and sent as the X-API-Key header.
        </p>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-errormessage={error ? 'signin-error' : undefined}
        />
        {error && (
          <p id="signin-error" class="error" role="alert" data-testid="signin-error">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
