import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { useCreateWebhook } from '../api/create-webhook';
import type { NewWebhook, WebhookEvent } from '../api/types';
import { CopyField } from './copy-field';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from './webhook-events';

/** The longest address the form takes. */
export const WEBHOOK_URL_MAX_LENGTH = 2000;

type Errors = { url?: string; events?: string; form?: string };

/** What is wrong with the address before it is sent, if anything (the server checks the rest). */
export function urlProblem(value: string): string | undefined {
  const url = value.trim();
  if (!url) return 'Enter the address of your endpoint.';
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return undefined;
  } catch {
    // falls through
  }
  return 'Enter a full address, starting with https://';
}

/** How a receiver checks that a request came from Vendorwatch. */
function SignatureHelp() {
  return (
    <div className="space-y-2 text-sm text-slate-600">
      <p>
        Each request carries a <code className="font-mono text-slate-900">Vendorwatch-Signature</code> header:
      </p>
      <pre className="rounded-lg bg-slate-100 p-2 font-mono text-xs break-all whitespace-pre-wrap text-slate-900">
        t=&lt;unix seconds&gt;,v1=&lt;signature&gt;
      </pre>
      <p>
        The signature is the HMAC-SHA256, in hex, of <code className="font-mono text-slate-900">&lt;t&gt;.&lt;body&gt;</code> with
        this secret. Your developer compares it to check that the request came from Vendorwatch.
      </p>
    </div>
  );
}

/** Address and events; once added, the signing secret, shown this once. */
export function AddWebhookDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(WEBHOOK_EVENTS);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<NewWebhook | null>(null);
  const create = useCreateWebhook();
  const all = events.length === WEBHOOK_EVENTS.length;

  function close() {
    if (create.isPending) return;
    setUrl('');
    setEvents(WEBHOOK_EVENTS);
    setErrors({});
    setCreated(null);
    create.reset();
    onClose();
  }

  function toggle(event: WebhookEvent, checked: boolean) {
    // Kept in the list's order, whatever the order of the clicks.
    setEvents((current) => WEBHOOK_EVENTS.filter((e) => (e === event ? checked : current.includes(e))));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid: Errors = {
      url: urlProblem(url),
      events: events.length === 0 ? 'Choose at least one event.' : undefined,
    };
    setErrors(invalid);
    if (invalid.url || invalid.events) return;
    create.mutate(
      { url, events },
      {
        onSuccess: (webhook) => {
          toast({ title: 'Webhook added', description: `Events now go to ${webhook.url}.`, variant: 'success' });
          setCreated(webhook);
        },
        onError: (failure) => {
          const message = errorMessage(failure, 'Failed to add the webhook');
          const fields = { url: failure.fieldError('url'), events: failure.fieldError('events') };
          setErrors(fields.url || fields.events ? fields : { form: message });
          toast({ title: 'Could not add the webhook', description: message, variant: 'error' });
        },
      },
    );
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onClose={close}
        title="Webhook added"
        description={
          <>
            Events now go to <span className="break-all">{created.url}</span>.
          </>
        }
      >
        <div className="space-y-4">
          <CopyField
            label="Signing secret"
            value={created.secret}
            what="signing secret"
            warning="Copy this secret now. You won't be able to see it again."
          />
          <SignatureHelp />
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
      title="Add endpoint"
      description="Vendorwatch sends a POST request to this address each time one of the chosen events happens."
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Add endpoint">
        <Field label="Endpoint URL" error={errors.url}>
          <Input
            type="url"
            name="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={WEBHOOK_URL_MAX_LENGTH}
            placeholder="https://example.com/vendorwatch"
            value={url}
            invalid={Boolean(errors.url)}
            onChange={(event) => setUrl(event.target.value)}
          />
        </Field>
        <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
          <legend className="text-sm font-medium text-slate-700">Events</legend>
          <label className="mt-2 flex items-center gap-2 border-b border-slate-100 pb-2 text-sm font-medium text-slate-900">
            <Checkbox
              checked={all}
              indeterminate={events.length > 0 && !all}
              onChange={(event) => setEvents(event.target.checked ? WEBHOOK_EVENTS : [])}
            />
            Select all
          </label>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm text-slate-700">
                <Checkbox checked={events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} />
                {WEBHOOK_EVENT_LABELS[event]}
              </label>
            ))}
          </div>
          {errors.events ? (
            <p id="webhook-events-error" role="alert" className="mt-1.5 text-sm text-red-600">
              {errors.events}
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
            {create.isPending ? 'Adding...' : 'Add endpoint'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
