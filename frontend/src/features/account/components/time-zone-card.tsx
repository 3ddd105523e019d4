import { useId, useMemo, type ChangeEvent } from 'react';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { inputClasses } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { useMe } from '@/lib/api/get-me';
import { useUser } from '@/lib/session';
import { timeZoneLabel, timeZoneNames } from '@/lib/time-zone';
import { canManageTeam } from '@/lib/permissions';
import type { TimeZoneName } from '@/types/api';
import { useUpdateOrganization } from '../api/update-organization';

export const TIME_ZONE_LABEL = 'Time zone';

/**
 * The organization's time zone, saved as soon as it is chosen: its "today" for statuses, the
 * dashboard and reports, and the morning (8:00) its reminders and weekly summary go out.
 */
export function TimeZoneCard() {
  const me = useMe();
  const stored = useUser();
  const update = useUpdateOrganization();
  // The organization's settings are the admins' and the owner's (docs/product.md, Teams).
  const admin = canManageTeam(stored);
  const saved = me.data?.timeZone ?? stored?.timeZone ?? 'UTC';
  // While the change is on its way the select already shows it; a failure puts it back.
  const value = update.isPending ? update.variables.timeZone : saved;
  const zones = useMemo(() => timeZoneNames(saved), [saved]);
  const id = useId();
  const hintId = `${id}-hint`;

  function change(event: ChangeEvent<HTMLSelectElement>) {
    // The select lists the zones the browser knows; the server refuses one it does not (422).
    const timeZone = event.target.value as TimeZoneName;
    update.mutate(
      { timeZone },
      {
        onSuccess: (user) =>
          toast({
            title: 'Time zone saved',
            description: `Dates and reminders now follow ${timeZoneLabel(user.timeZone ?? timeZone)}.`,
            variant: 'success',
          }),
        onError: (error) =>
          toast({
            title: 'Could not save the time zone',
            description: errorMessage(error, 'Failed to save the time zone'),
            variant: 'error',
          }),
      },
    );
  }

  return (
    <Card>
      <CardHeader title={TIME_ZONE_LABEL} />
      <CardBody className="space-y-1.5">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {TIME_ZONE_LABEL}
        </label>
        <select
          id={id}
          aria-describedby={hintId}
          className={inputClasses}
          value={value}
          onChange={change}
          disabled={update.isPending || me.isPending || !admin}
          title={admin ? undefined : 'Only admins and the owner of your team can change the time zone.'}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {timeZoneLabel(zone)}
            </option>
          ))}
        </select>
        <p id={hintId} className="text-xs text-slate-500">
          Your organization&apos;s day: when documents expire, and the morning (8:00) reminders and the weekly summary are sent.
        </p>
      </CardBody>
    </Card>
  );
}
