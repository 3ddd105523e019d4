import { ArrowPathIcon } from '@heroicons/react/20/solid';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useMediaQuery } from '@/lib/use-media-query';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import type { Webhook, WebhookDelivery } from '../api/types';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { eventLabel } from './webhook-events';

/** The answer's HTTP status; 'None' when no answer came (yet). */
function responseText(delivery: WebhookDelivery): string {
  return delivery.responseStatus === null ? 'None' : String(delivery.responseStatus);
}

/** Why it failed, or the start of what the endpoint answered. */
function details(delivery: WebhookDelivery): string {
  return delivery.error ?? delivery.responseSnippet ?? '';
}

function When({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <>
      <span className="whitespace-nowrap">{formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt)}</span>
      {delivery.status === 'pending' && delivery.nextAttemptAt ? (
        <span className="block text-xs text-slate-500">Next try {formatDateTime(delivery.nextAttemptAt)}</span>
      ) : null}
    </>
  );
}

function Details({ delivery }: { delivery: WebhookDelivery }) {
  const text = details(delivery);
  if (!text) return null;
  return (
    <span
      title={text}
      className={cn('line-clamp-2', delivery.error ? 'break-words text-red-700' : 'font-mono text-xs break-all')}
    >
      {text}
    </span>
  );
}

type Column = { id: string; header: string; cell: (row: WebhookDelivery) => ReactNode; className?: string };

const columns: Column[] = [
  { id: 'event', header: 'Event', cell: (d) => <span className="whitespace-nowrap">{eventLabel(d.type)}</span> },
  { id: 'status', header: 'Status', cell: (d) => <DeliveryStatusBadge status={d.status} /> },
  { id: 'response', header: 'Response', cell: responseText },
  { id: 'attempts', header: 'Attempts', cell: (d) => d.attempts },
  { id: 'time', header: 'Time', cell: (d) => <When delivery={d} /> },
  { id: 'details', header: 'Details', cell: (d) => <Details delivery={d} />, className: 'max-w-xs' },
];

/** One delivery as a phone shows it: the table's columns stacked. */
function DeliveryCard({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <div className="space-y-1">
      <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
        {eventLabel(delivery.type)}
        <DeliveryStatusBadge status={delivery.status} />
      </p>
      <p className="text-xs text-slate-500">
        Response {responseText(delivery)} · {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
      </p>
      <p className="text-xs text-slate-500">
        <When delivery={delivery} />
      </p>
      <Details delivery={delivery} />
    </div>
  );
}

/**
 * A table; on a phone, one card per delivery (the table's columns stacked). Not
 * components/ui/data-table: a page more sharing it made the build regroup its small files, with
 * 5 KB more on the first visit's way to the dashboard (docs/decisions.md, 52); nor paged, as the
 * server sends 50 at most.
 */
function DeliveriesTable({ deliveries, label }: { deliveries: WebhookDelivery[]; label: string }) {
  const phone = useMediaQuery('(max-width: 639px)');
  if (deliveries.length === 0) {
    return <p className="text-sm text-slate-500">No deliveries yet. Send a test event to try the endpoint.</p>;
  }
  if (phone) {
    return (
      <ul aria-label={label} className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
        {deliveries.map((d) => (
          <li key={d.id} className="px-3 py-3 text-sm text-slate-700">
            <DeliveryCard delivery={d} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    // Focusable, so that a keyboard scrolls it when it is wider than the card.
    <div
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                className="px-3 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase"
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {deliveries.map((d) => (
            <tr key={d.id}>
              {columns.map((column) => (
                <td key={column.id} className={cn('px-3 py-3 align-middle text-slate-700', column.className)}>
                  {column.cell(d)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An endpoint's latest deliveries, with a refresh button. */
export function WebhookDeliveries({ webhook, id }: { webhook: Webhook; id: string }) {
  const deliveries = useWebhookDeliveries(webhook.id);
  const refreshing = deliveries.isFetching;
  return (
    <div id={id} className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">Recent deliveries</h3>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void deliveries.refetch()}
          disabled={refreshing}
          aria-busy={refreshing || undefined}
          aria-label="Refresh deliveries"
        >
          <ArrowPathIcon aria-hidden className={cn('size-4', refreshing && 'animate-spin')} />
          Refresh
        </Button>
      </div>
      {deliveries.isPending ? (
        <LoadingBlock label="Loading deliveries" />
      ) : deliveries.isError ? (
        <QueryError error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : (
        <DeliveriesTable deliveries={deliveries.data} label={`Deliveries to ${webhook.url}`} />
      )}
    </div>
  );
}
