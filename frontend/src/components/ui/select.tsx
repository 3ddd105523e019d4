import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { CheckIcon, ChevronUpDownIcon } from '@heroicons/react/20/solid';
import { cn } from '@/lib/cn';
import { inputClasses } from './field';
import { LandmarkPortal, useNearestLandmark } from './landmark-portal';

export type SelectOption<T extends string> = { value: T; label: string };

type SelectProps<T extends string> = {
  value: T;
  onChange: (value: T) => void;
  options: readonly SelectOption<T>[];
  /** Visible label; when hidden, still the accessible name. */
  label: string;
  hideLabel?: boolean;
  placeholder?: string;
  invalid?: boolean;
  className?: string;
  disabled?: boolean;
};

/** A Headless UI Listbox styled like the text inputs. */
export function Select<T extends string>({
  value,
  onChange,
  options,
  label,
  hideLabel = false,
  placeholder = 'Select...',
  invalid,
  className,
  disabled,
}: SelectProps<T>) {
  const selected = options.find((o) => o.value === value);
  const [landmark, landmarkRef] = useNearestLandmark();
  return (
    <Field className={cn('space-y-1.5', className)} disabled={disabled}>
      <Label className={cn('block text-sm font-medium text-slate-700', hideLabel && 'sr-only')}>{label}</Label>
      <Listbox value={value} onChange={onChange} invalid={invalid}>
        <ListboxButton ref={landmarkRef} className={cn(inputClasses, 'relative pr-9 text-left')}>
          <span className={cn('block truncate', !selected && 'text-slate-500')}>{selected ? selected.label : placeholder}</span>
          <ChevronUpDownIcon
            aria-hidden
            className="pointer-events-none absolute top-1/2 right-2 size-5 -translate-y-1/2 text-slate-400"
          />
        </ListboxButton>
        <LandmarkPortal landmark={landmark}>
          <ListboxOptions
            anchor="bottom start"
            transition
            className="z-50 mt-1 max-h-64 w-[var(--button-width)] overflow-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg focus:outline-none data-[closed]:opacity-0 transition duration-100"
          >
            {options.map((option) => (
              <ListboxOption
                key={option.value}
                value={option.value}
                className="group flex cursor-default items-center gap-2 px-3 py-2 text-slate-700 select-none data-[focus]:bg-blue-50 data-[focus]:text-blue-900 data-[focus]:outline-2 data-[focus]:-outline-offset-2 data-[focus]:outline-blue-600"
              >
                <CheckIcon aria-hidden className="invisible size-4 text-blue-600 group-data-[selected]:visible" />
                {option.label}
              </ListboxOption>
            ))}
          </ListboxOptions>
        </LandmarkPortal>
      </Listbox>
    </Field>
  );
}
