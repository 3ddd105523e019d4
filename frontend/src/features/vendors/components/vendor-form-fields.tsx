import type { ReactNode } from 'react';
import { Field, Input, Textarea } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { useRequirementSets } from '@/lib/api/requirement-sets';
import { SLOT_KEYS, SLOT_LABELS } from '@/lib/domain/documents';
import { SERVICE_TYPE_OPTIONS } from '@/lib/domain/service-types';
import type { Errors } from '@/lib/validation';
import type { SlotKey } from '@/types/api';

export type VendorFormValues = {
  name: string;
  email: string;
  phone: string;
  serviceType: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  notes: string;
  requiredDocuments: SlotKey[];
  /** The requirement set's id; '' for none. */
  requirementSetId: string;
};

export type VendorField = keyof VendorFormValues | 'companyKey';

export const VENDOR_FIELDS: readonly VendorField[] = [
  'name',
  'email',
  'phone',
  'serviceType',
  'address',
  'city',
  'state',
  'zipCode',
  'notes',
  'requiredDocuments',
  'requirementSetId',
  'companyKey',
];

type VendorFormFieldsProps = {
  values: VendorFormValues;
  onChange: (patch: Partial<VendorFormValues>) => void;
  errors: Errors<VendorField>;
  /** The read-only company key block (generated on add, fixed on edit). */
  keyField: ReactNode;
};

const NO_SET = '';

/** The requirement set the vendor must meet: None or one of the organization's sets. */
function RequirementSetSelect({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string }) {
  const sets = useRequirementSets();
  const options = [{ value: NO_SET, label: 'None' }, ...(sets.data ?? []).map((set) => ({ value: set.id, label: set.name }))];
  const hint = sets.isError
    ? 'The requirement sets could not be loaded.'
    : 'What insurance this vendor must carry; its page then shows the gaps.';
  return (
    <div className="space-y-1.5 md:col-span-2">
      <Select
        label="Requirement set"
        value={value}
        onChange={onChange}
        options={options}
        disabled={sets.isPending}
        placeholder={sets.isPending ? 'Loading requirement sets...' : 'None'}
        invalid={Boolean(error)}
      />
      <p className="text-xs text-slate-500">{hint}</p>
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The fields shared by Add New Vendor and Edit Vendor. */
export function VendorFormFields({ values, onChange, errors, keyField }: VendorFormFieldsProps) {
  const text = (field: Exclude<keyof VendorFormValues, 'requiredDocuments' | 'requirementSetId'>) => ({
    name: field,
    value: values[field],
    invalid: Boolean(errors[field]),
    onChange: (event: { target: { value: string } }) => onChange({ [field]: event.target.value }),
  });

  function toggleSlot(slot: SlotKey, checked: boolean) {
    const next = checked ? [...values.requiredDocuments, slot] : values.requiredDocuments.filter((s) => s !== slot);
    onChange({ requiredDocuments: SLOT_KEYS.filter((key) => next.includes(key)) });
  }

  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Field label="Vendor Name*" error={errors.name}>
        <Input {...text('name')} autoComplete="organization" placeholder="Acme Plumbing Co." />
      </Field>
      <Field label="Contact Email*" error={errors.email}>
        <Input {...text('email')} type="email" autoComplete="email" placeholder="billing@vendor.com" />
      </Field>
      <Field label="Contact Phone" error={errors.phone}>
        <Input {...text('phone')} type="tel" autoComplete="tel" placeholder="(555) 123-4567" />
      </Field>
      <div className="space-y-1.5">
        <Select
          label="Service Type*"
          value={values.serviceType}
          onChange={(serviceType) => onChange({ serviceType })}
          options={SERVICE_TYPE_OPTIONS}
          invalid={Boolean(errors.serviceType)}
        />
        {errors.serviceType ? <p className="text-sm text-red-600">{errors.serviceType}</p> : null}
      </div>
      <Field label="Address" error={errors.address} className="md:col-span-2">
        <Input {...text('address')} autoComplete="street-address" placeholder="123 Main St" />
      </Field>
      <Field label="City" error={errors.city}>
        <Input {...text('city')} autoComplete="address-level2" />
      </Field>
      <div className="grid grid-cols-2 gap-5">
        <Field label="State" error={errors.state}>
          <Input {...text('state')} autoComplete="address-level1" />
        </Field>
        <Field label="ZIP Code" error={errors.zipCode}>
          <Input {...text('zipCode')} autoComplete="postal-code" inputMode="numeric" />
        </Field>
      </div>
      <RequirementSetSelect
        value={values.requirementSetId}
        onChange={(requirementSetId) => onChange({ requirementSetId })}
        error={errors.requirementSetId}
      />
      <div className="md:col-span-2">{keyField}</div>
      <fieldset className="md:col-span-2">
        <legend className="text-sm font-medium text-slate-700">Required Documents</legend>
        <p className="mt-1 text-xs text-slate-500">The documents this vendor is asked for on the upload portal.</p>
        <div className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {SLOT_KEYS.map((slot) => (
            <label
              key={slot}
              className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-700 hover:bg-slate-50"
            >
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300 text-blue-600 accent-blue-600"
                checked={values.requiredDocuments.includes(slot)}
                onChange={(e) => toggleSlot(slot, e.target.checked)}
              />
              {SLOT_LABELS[slot]}
            </label>
          ))}
        </div>
        {errors.requiredDocuments ? <p className="mt-1 text-sm text-red-600">{errors.requiredDocuments}</p> : null}
      </fieldset>
      <Field label="Notes" error={errors.notes} className="md:col-span-2">
        <Textarea {...text('notes')} rows={3} placeholder="Anything worth remembering about this vendor" />
      </Field>
    </div>
  );
}
