import { ArrowPathIcon, ChevronDownIcon, PaperAirplaneIcon, PlusIcon } from '@heroicons/react/20/solid';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhooks } from '../api/get-webhooks';
import { useSendTestEvent } from '../api/send-test-event';
import type { Webhook } from '../api/types';
import { AddWebhookDialog } from './add-webhook-dialog';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { timeAgo } from './relative-time';
import { WebhookDeliveries } from './webhook-deliveries';
import { eventsSummary } from './webhook-events';

function WebhookRow({ webhook, onDelete }: { webhook: Webhook; onDelete: (webhook: Webhook) => void }) {
  const [open, setOpen] = useState(false);
  const test = useSendTestEvent();
  const panelId = useId();

  function sendTest() {
    test.mutate(webhook.id, {
      onSuccess: () => {
        toast({
          title: 'Test event sent',
          description: 'It is on its way: see Recent deliveries for the answer.',
          variant: 'success',
        });
        setOpen(true);
      },
      onError: (error) =>
        toast({
          title: 'Could not send the test event',
          description: errorMessage(error, 'Failed to send the test event'),
          variant: 'error',
        }),
    });
  }

  return (
    <li className="space-y-3 py-4" data-testid="webhook-row">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="font-mono text-sm font-medium break-all text-slate-900">{webhook.url}</p>
          <p className="text-sm text-slate-600">
            <span className="sr-only">Events: </span>
            {eventsSummary(webhook.events)}
          </p>
          <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
            {webhook.lastDelivery ? (
              <>
                <DeliveryStatusBadge status={webhook.lastDelivery.status} context="Last delivery" />
                {timeAgo(webhook.lastDelivery.at, '')}
              </>
            ) : (
              'Nothing sent yet'
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setOpen((shown) => !shown)}
            aria-expanded={open}
            aria-controls={open ? panelId : undefined}
          >
            <ChevronDownIcon aria-hidden className={cn('size-4 transition-transform', open && 'rotate-180')} />
            Deliveries
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={sendTest}
            disabled={test.isPending}
            aria-busy={test.isPending || undefined}
          >
            {test.isPending ? (
              <ArrowPathIcon aria-hidden className="size-4 animate-spin" />
            ) : (
              <PaperAirplaneIcon aria-hidden className="size-4" />
            )}
            {test.isPending ? 'Sending...' : 'Send test event'}
          </Button>
          <Button variant="outline" size="sm" onClick={() => onDelete(webhook)}>
            Delete
          </Button>
        </div>
      </div>
      {open ? <WebhookDeliveries webhook={webhook} id={panelId} /> : null}
    </li>
  );
}

/** The organization's webhook endpoints: list, add (the secret shown once), deliveries, test, delete. */
export function WebhooksCard() {
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast({ title: 'Webhook deleted', description: `Events no longer go to ${deleting.url}.`, variant: 'success' });
        setDeleting(null);
      },
      onError: (error) => {
        toast({
          title: 'Could not delete the webhook',
          description: errorMessage(error, 'Failed to delete the webhook'),
          variant: 'error',
        });
        setDeleting(null);
      },
    });
  }

  return (
    <Card>
      <CardHeader
        title="Webhooks"
        description="Tell your own systems at once when a vendor or a document changes."
        action={
          <Button size="sm" onClick={() => setAdding(true)}>
            <PlusIcon aria-hidden className="size-4" />
            Add endpoint
          </Button>
        }
      />
      <CardBody className="py-0">
        {webhooks.isPending ? (
          <LoadingBlock label="Loading webhooks" />
        ) : webhooks.isError ? (
          <div className="py-5">
            <QueryError error={webhooks.error} onRetry={() => void webhooks.refetch()} />
          </div>
        ) : webhooks.data.length === 0 ? (
          <p className="py-4 text-sm text-slate-500">No endpoints yet. Add one to get a message each time something changes.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Webhook endpoints">
            {webhooks.data.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} onDelete={setDeleting} />
            ))}
          </ul>
        )}
      </CardBody>
      <AddWebhookDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        pending={remove.isPending}
        title="Delete this webhook?"
        description={`Events stop going to ${deleting?.url ?? ''} at once.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
      />
    </Card>
  );
}
