import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { useCalendarFeed } from '../api/get-calendar-feed';
import { useRotateCalendarFeed } from '../api/rotate-calendar-feed';
import { CopyField } from './copy-field';

/** The calendar feed's address to subscribe to, and a new one when the old one got out. */
export function CalendarCard() {
  const feed = useCalendarFeed();
  const rotate = useRotateCalendarFeed();
  const [confirming, setConfirming] = useState(false);

  function confirmRotate() {
    rotate.mutate(undefined, {
      onSuccess: () => {
        toast({
          title: 'Calendar link replaced',
          description: 'Subscribe again with the new link.',
          variant: 'success',
        });
        setConfirming(false);
      },
      onError: (error) => {
        toast({
          title: 'Could not replace the link',
          description: errorMessage(error, 'Failed to replace the calendar link'),
          variant: 'error',
        });
        setConfirming(false);
      },
    });
  }

  return (
    <Card>
      <CardHeader
        title="Calendar"
        description="Subscribe from Google Calendar or Outlook to see every document's expiration date."
      />
      <CardBody className="space-y-4">
        {feed.isPending ? (
          <LoadingBlock label="Loading the calendar link" />
        ) : feed.isError ? (
          <QueryError error={feed.error} onRetry={() => void feed.refetch()} />
        ) : (
          <>
            <CopyField
              label="Calendar link"
              value={feed.data.url}
              what="calendar link"
              hint="Anyone with this link can see your documents' expiration dates: share it only with your calendar."
            />
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
              <li>In Google Calendar, choose + next to Other calendars, then From URL, and paste the link.</li>
              <li>In Outlook, choose Add calendar, then Subscribe from web, and paste the link.</li>
            </ul>
            <div>
              <Button
                variant="outline"
                onClick={() => setConfirming(true)}
                disabled={rotate.isPending}
                aria-busy={rotate.isPending || undefined}
              >
                {rotate.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
                Get a new link
              </Button>
            </div>
          </>
        )}
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={confirmRotate}
        pending={rotate.isPending}
        title="Get a new link?"
        description="The current link stops working at once. Calendars subscribed to it stop updating until you subscribe again."
        confirmLabel="Get a new link"
        pendingLabel="Replacing..."
      />
    </Card>
  );
}
