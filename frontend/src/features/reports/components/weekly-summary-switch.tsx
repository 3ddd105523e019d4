import { Description, Field, Label, Switch } from '@headlessui/react';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { useMe } from '@/lib/api/get-me';
import { cn } from '@/lib/cn';
import { useUser } from '@/lib/session';
import { useUpdatePreferences } from '../api/update-preferences';

export const WEEKLY_SUMMARY_LABEL = 'Email me a weekly summary';

/** The user's weekly summary email preference, saved as soon as it is switched. */
export function WeeklySummarySwitch({ className }: { className?: string }) {
  const me = useMe();
  const stored = useUser();
  const update = useUpdatePreferences();
  const saved = me.data?.weeklySummary ?? stored?.weeklySummary ?? false;
  // While the change is on its way the switch already shows it; a failure puts it back.
  const checked = update.isPending ? update.variables.weeklySummary : saved;

  function change(weeklySummary: boolean) {
    update.mutate(
      { weeklySummary },
      {
        onSuccess: (user) =>
          toast({
            title: 'Preferences saved',
            description: user.weeklySummary
              ? 'You will get a summary of your vendors by email every week.'
              : 'You will no longer get the weekly summary email.',
            variant: 'success',
          }),
        onError: (error) =>
          toast({
            title: 'Could not save preferences',
            description: errorMessage(error, 'Failed to save your preferences'),
            variant: 'error',
          }),
      },
    );
  }

  return (
    <Field className={cn('flex items-start justify-between gap-4', className)} disabled={update.isPending || me.isPending}>
      <span className="min-w-0">
        <Label className="text-sm font-medium text-slate-900">{WEEKLY_SUMMARY_LABEL}</Label>
        <Description className="text-sm text-slate-500">
          Compliance, upcoming expirations and vendors that need attention, once a week.
        </Description>
      </span>
      <Switch
        checked={checked}
        onChange={change}
        className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors data-[checked]:bg-blue-600 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-60 data-[focus]:outline-2 data-[focus]:outline-offset-2 data-[focus]:outline-blue-600"
      >
        <span
          aria-hidden
          className="size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-[1.375rem]"
        />
      </Switch>
    </Field>
  );
}
