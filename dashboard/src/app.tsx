import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiClient, errorText } from './api/client.js';
import type { Account } from './api/types.js';
import { CrawlList } from './components/crawls/crawl-list.js';
import { CrawlResults } from './components/crawls/crawl-results.js';
import { Header } from './components/header.js';
import { KeysView } from './components/keys-view.js';
import { Overview } from './components/overview.js';
import { Playground } from './components/playground.js';
import { RequestDetail } from './components/request-detail.js';
import { RequestLog } from './components/request-log.js';
import { SignIn } from './components/sign-in.js';
import { useWorkflows } from './components/use-workflows.js';
import { WorkflowForm } from './components/workflow-form.js';
import { WorkflowList } from './components/workflow-list.js';
import { WorkflowView } from './components/workflow-view.js';
import { forgetKey, onKeyChange, storedKey, storeKey } from './lib/key-storage.js';
import { sectionOf, titleOf } from './lib/nav.js';
import { href, navigate, useRoute } from './lib/route.js';
import { useViewFocus, viewKey } from './lib/view-focus.js';

export function App() {
  const [apiKey, setApiKey] = useState(storedKey);
  const client = useMemo(() => (apiKey ? new ApiClient(apiKey) : null), [apiKey]);
  const [initialAccount, setInitialAccount] = useState<Account | null>(null);
  useEffect(() => onKeyChange(setApiKey), []);

  const signIn = (key: string, account: Account, persist: boolean) => {
    storeKey(key, persist);
    setApiKey(key);
    setInitialAccount(account);
  };
  const signOut = () => {
    forgetKey();
    setApiKey(null);
    navigate(href.overview());
  };

  if (!client) return <SignIn onSignIn={signIn} />;
  return <SignedIn client={client} initialAccount={initialAccount} onSignOut={signOut} />;
}

interface SignedInProps {
  client: ApiClient;
  initialAccount: Account | null;
  onSignOut: () => void;
}

function SignedIn({ client, initialAccount, onSignOut }: SignedInProps) {
  const route = useRoute();
  const [account, setAccount] = useState<Account | null>(initialAccount);
  const [accountError, setAccountError] = useState<string | null>(null);
  const workflows = useWorkflows(client);
  useViewFocus(viewKey(route));

  const refreshAccount = useCallback(async () => {
    try {
      setAccount(await client.account());
      setAccountError(null);
    } catch (err) {
      setAccountError(errorText(err));
    }
  }, [client]);
  useEffect(() => {
    void refreshAccount();
  }, [refreshAccount]);

  const routeId = 'id' in route ? route.id : null;
  const routeWorkflow = routeId ? workflows.list?.find((w) => w.id === routeId) : undefined;
  useEffect(() => {
    document.title = titleOf(route, routeWorkflow?.name);
  }, [route, routeWorkflow?.name]);

  let main: preact.ComponentChild;
  switch (route.view) {
    case 'overview':
      main = <Overview client={client} account={account} />;
      break;
    case 'requests':
      main = <RequestLog client={client} query={route.query} workflows={workflows.list} />;
      break;
    case 'request':
      main = <RequestDetail key={route.id} client={client} id={route.id} />;
      break;
    case 'keys':
      main = <KeysView client={client} account={account} />;
      break;
    case 'crawls':
      main = <CrawlList client={client} />;
      break;
    case 'crawl':
      main = <CrawlResults client={client} id={route.id} />;
      break;
    case 'list':
      main = (
        <WorkflowList tab={route.tab} store={workflows} client={client} onRan={refreshAccount} />
      );
      break;
    case 'new':
      main = (
        <WorkflowForm
          client={client}
          onSaved={(w) => {
            workflows.upsert(w);
            navigate(href.workflow(w.id));
          }}
        />
      );
      break;
    case 'playground':
      main = (
        <Playground
          client={client}
          onRan={refreshAccount}
          onSaved={(w) => {
            workflows.upsert(w);
            navigate(href.workflow(w.id));
          }}
        />
      );
      break;
    case 'workflow':
    case 'edit': {
      const wf = routeWorkflow;
      if (!workflows.list) main = <p aria-live="polite">Loading…</p>;
      else if (!wf) main = <p role="alert">Workflow not found.</p>;
      else if (route.view === 'edit')
        main = (
          <WorkflowForm
            client={client}
            workflow={wf}
            onSaved={(w) => {
              workflows.upsert(w);
              navigate(href.workflow(w.id));
            }}
          />
        );
      else
        main = (
          <WorkflowView
            key={wf.id}
            client={client}
            workflow={wf}
            onChange={workflows.upsert}
            onRan={() => {
              void refreshAccount();
              void workflows.reload();
            }}
          />
        );
      break;
    }
  }

  return (
    <>
      <Header
        account={account}
        error={accountError}
        section={sectionOf(route)}
        onSignOut={onSignOut}
      />
      <main id="main" class="main" tabIndex={-1}>
        {main}
      </main>
    </>
  );
}
