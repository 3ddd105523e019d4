import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useCreateApiKey } from '../api/create-api-key';
import type { ApiKeyScope, NewApiKey } from '../api/types';
import { CopyField } from './copy-field';

/** The server's bound on a key's name. */
export const API_KEY_NAME_MAX_LENGTH = 100;

export const SCOPE_LABELS: Record<ApiKeyScope, string> = { read: 'Read only', write: 'Read and write' };

const SCOPE_HINTS: Record<ApiKeyScope, string> = {
  read: 'Can see vendors and documents.',
  write: 'Can also add, change and delete them.',
};

type Errors = { name?: string; scope?: string; form?: string };

/** Name and scope; once created, the full key, shown this once. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const create = useCreateApiKey();

  function close() {
    if (create.isPending) return;
    setName('');
    setScope('read');
    setErrors({});
    setCreated(null);
    create.reset();
    onClose();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setErrors({ name: 'Enter a name, such as the system that will use the key.' });
      return;
    }
    setErrors({});
    create.mutate(
      { name, scope },
      {
        onSuccess: (key) => {
          toast({ title: 'API key created', description: `${key.name} is ready to use.`, variant: 'success' });
          setCreated(key);
        },
        onError: (failure) => {
          const message = errorMessage(failure, 'Failed to create the API key');
          const fields = { name: failure.fieldError('name'), scope: failure.fieldError('scope') };
          setErrors(fields.name || fields.scope ? fields : { form: message });
          toast({ title: 'Could not create the key', description: message, variant: 'error' });
        },
      },
    );
  }

  if (created) {
    return (
      <Dialog open={open} onClose={close} title="API key created">
        <div className="space-y-4">
          <CopyField
            label={`API key for ${created.name}`}
            value={created.key}
            what="API key"
            warning="Copy this key now. You won't be able to see it again."
          />
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Create API key"
      description="Name it after the system that will use it, so you know which key to revoke later."
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Create API key">
        <Field label="Name" error={errors.name}>
          <Input
            name="name"
            autoComplete="off"
            maxLength={API_KEY_NAME_MAX_LENGTH}
            placeholder="Accounting system"
            value={name}
            invalid={Boolean(errors.name)}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <fieldset aria-describedby={errors.scope ? 'api-key-scope-error' : undefined}>
          <legend className="text-sm font-medium text-slate-700">Scope</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {(['read', 'write'] as const).map((value) => (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600',
                  scope === value ? 'border-blue-500 bg-blue-50' : 'border-slate-200 bg-white hover:bg-slate-50',
                )}
              >
                <input
                  type="radio"
                  name="scope"
                  value={value}
                  checked={scope === value}
                  onChange={() => setScope(value)}
                  className="mt-0.5 size-4 accent-blue-600"
                />
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{SCOPE_LABELS[value]}</span>
                  <span className="mt-0.5 block text-slate-600">{SCOPE_HINTS[value]}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.scope ? (
            <p id="api-key-scope-error" role="alert" className="mt-1.5 text-sm text-red-600">
              {errors.scope}
            </p>
          ) : null}
        </fieldset>
        {errors.form ? (
          <p role="alert" className="text-sm text-red-600">
            {errors.form}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending} aria-busy={create.isPending || undefined}>
            {create.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
            {create.isPending ? 'Creating...' : 'Create key'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
