import { Description, Field, Label, Switch } from '@headlessui/react';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { useMe } from '@/lib/api/get-me';
import { cn } from '@/lib/cn';
import { useUser } from '@/lib/session';
import { useUpdatePreferences } from '@/lib/api/update-preferences';

export const WEEKLY_SUMMARY_LABEL = 'Email me a weekly summary';
export const REMINDER_EMAILS_LABEL = 'Email me reminders';

type PreferenceKey = 'weeklySummary' | 'reminderEmails';

const PREFERENCES: Record<PreferenceKey, { label: string; description: string; on: string; off: string }> = {
  weeklySummary: {
    label: WEEKLY_SUMMARY_LABEL,
    description: 'Compliance, upcoming expirations and vendors that need attention, once a week.',
    on: 'You will get a summary of your vendors by email every week.',
    off: 'You will no longer get the weekly summary email.',
  },
  reminderEmails: {
    label: REMINDER_EMAILS_LABEL,
    description: "Your team's reminders about documents that expire or are missing, on the morning they are due.",
    on: 'You will get the reminder emails of your team.',
    off: 'You will no longer get the reminder emails.',
  },
};

/** One of the user's email preferences, saved as soon as it is switched. */
function PreferenceSwitch({ preference, className }: { preference: PreferenceKey; className?: string }) {
  const me = useMe();
  const stored = useUser();
  const update = useUpdatePreferences();
  const text = PREFERENCES[preference];
  const saved = me.data?.[preference] ?? stored?.[preference] ?? preference === 'reminderEmails';
  // While the change is on its way the switch already shows it; a failure puts it back.
  const checked = update.isPending ? (update.variables[preference] ?? saved) : saved;

  function change(value: boolean) {
    update.mutate(
      { [preference]: value },
      {
        onSuccess: (user) =>
          toast({ title: 'Preferences saved', description: user[preference] ? text.on : text.off, variant: 'success' }),
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
        <Label className="text-sm font-medium text-slate-900">{text.label}</Label>
        <Description className="text-sm text-slate-500">{text.description}</Description>
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

/** The user's weekly summary email preference. */
export function WeeklySummarySwitch({ className }: { className?: string }) {
  return <PreferenceSwitch preference="weeklySummary" className={className} />;
}

/** Whether the user gets the reminder emails of the organization's documents (every role sets its own). */
export function ReminderEmailsSwitch({ className }: { className?: string }) {
  return <PreferenceSwitch preference="reminderEmails" className={className} />;
}
