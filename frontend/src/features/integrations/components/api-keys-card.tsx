import { PlusIcon } from '@heroicons/react/20/solid';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import type { ApiKey } from '../api/types';
import { CopyButton } from './copy-button';
import { CreateApiKeyDialog, SCOPE_LABELS } from './create-api-key-dialog';
import { timeAgo } from './relative-time';

/** Where the API's reference (the server's OpenAPI document) is. */
export const API_REFERENCE_PATH = '/api/openapi.json';

/** The example call of "Using the API", to this server. */
export function curlExample(origin: string): string {
  return `curl -H "Authorization: Bearer YOUR_API_KEY" ${origin}/api/vendors`;
}

function ApiKeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="api-key-row">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
          <span className="break-words">{apiKey.name}</span>
          <Badge color={apiKey.scope === 'write' ? 'blue' : 'gray'}>{SCOPE_LABELS[apiKey.scope]}</Badge>
        </p>
        <p className="font-mono text-sm text-slate-600">
          <span className="sr-only">Starts with </span>
          {apiKey.prefix}…
        </p>
        <p className="text-xs text-slate-500">
          Created {apiKey.createdBy ? `by ${apiKey.createdBy} ` : ''}on {formatDate(apiKey.createdAt)} ·{' '}
          {apiKey.lastUsedAt ? `Last used ${timeAgo(apiKey.lastUsedAt, 'never')}` : 'Never used'}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" onClick={() => onRevoke(apiKey)}>
          Revoke<span className="sr-only"> {apiKey.name}</span>
        </Button>
      </div>
    </li>
  );
}

function UsingTheApi() {
  const example = curlExample(window.location.origin);
  return (
    <div className="space-y-3 border-t border-slate-100 pt-5">
      <h3 className="text-sm font-semibold text-slate-900">Using the API</h3>
      <p className="text-sm text-slate-600">
        Send the key in the Authorization header of every request. For example, to list your vendors:
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <pre className="min-w-0 flex-1 rounded-lg bg-slate-900 p-3 font-mono text-xs break-all whitespace-pre-wrap text-slate-100">
          <code>{example}</code>
        </pre>
        <div className="shrink-0">
          <CopyButton value={example} what="example request" />
        </div>
      </div>
      <p className="text-sm text-slate-600">
        Every call and field is in the{' '}
        <a
          href={API_REFERENCE_PATH}
          target="_blank"
          rel="noreferrer"
          className="font-medium text-blue-700 underline hover:text-blue-900"
        >
          API reference (OpenAPI)
        </a>
        .
      </p>
    </div>
  );
}

/** The organization's API keys: list, create (the key shown once), revoke; and how to call the API. */
export function ApiKeysCard() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  function confirmRevoke() {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: 'API key revoked', description: `${revoking.name} no longer works.`, variant: 'success' });
        setRevoking(null);
      },
      onError: (error) => {
        toast({
          title: 'Could not revoke the key',
          description: errorMessage(error, 'Failed to revoke the API key'),
          variant: 'error',
        });
        setRevoking(null);
      },
    });
  }

  return (
    <Card>
      <CardHeader
        title="API keys"
        description="Let your own systems read and change your vendors through the Vendorwatch API."
        action={
          <Button size="sm" onClick={() => setCreating(true)}>
            <PlusIcon aria-hidden className="size-4" />
            Create API key
          </Button>
        }
      />
      <CardBody className="space-y-5">
        {keys.isPending ? (
          <LoadingBlock label="Loading API keys" />
        ) : keys.isError ? (
          <QueryError error={keys.error} onRetry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-slate-500">No API keys yet. Create one for each system you connect.</p>
        ) : (
          <ul className="-mt-4 divide-y divide-slate-100" aria-label="API keys">
            {keys.data.map((key) => (
              <ApiKeyRow key={key.id} apiKey={key} onRevoke={setRevoking} />
            ))}
          </ul>
        )}
        <UsingTheApi />
      </CardBody>
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        onConfirm={confirmRevoke}
        pending={revoke.isPending}
        title={`Revoke ${revoking?.name ?? ''}?`}
        description="Systems using this key stop working at once."
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
      />
    </Card>
  );
}
