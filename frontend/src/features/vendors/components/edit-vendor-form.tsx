import type { ServiceType } from '@/lib/domain/service-types';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { DEFAULT_REQUIRED_DOCUMENTS } from '@/lib/domain/documents';
import { sessionStore } from '@/lib/session';
import { hasErrors, serverFieldErrors, validateEmail, type Errors } from '@/lib/validation';
import type { Vendor } from '@/types/api';
import { useUpdateVendor } from '../api/update-vendor';
import { CompanyKeyField } from './company-key-field';
import { VENDOR_FIELDS, VendorFormFields, type VendorField, type VendorFormValues } from './vendor-form-fields';

function valuesOf(vendor: Vendor): VendorFormValues {
  return {
    name: vendor.name ?? '',
    email: vendor.email ?? '',
    phone: vendor.phone ?? '',
    serviceType: vendor.serviceType ?? '',
    address: vendor.address ?? '',
    city: vendor.city ?? '',
    state: vendor.state ?? '',
    zipCode: vendor.zipCode ?? '',
    notes: vendor.notes ?? '',
    requiredDocuments: vendor.requiredDocuments ?? DEFAULT_REQUIRED_DOCUMENTS,
    requirementSetId: vendor.requirementSetId ?? '',
  };
}

export function EditVendorForm({ vendor }: { vendor: Vendor }) {
  const navigate = useNavigate();
  const updateVendor = useUpdateVendor();
  const [values, setValues] = useState(() => valuesOf(vendor));
  const [errors, setErrors] = useState<Errors<VendorField>>({});

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors<VendorField> = {
      name: values.name.trim() ? undefined : 'Vendor name is required',
      email: values.email.trim() ? validateEmail(values.email) : 'Contact email is required',
      serviceType: values.serviceType ? undefined : 'Service type is required',
    };
    setErrors(next);
    if (hasErrors(next)) return;
    if (!sessionStore.get().user?.id) {
      toast({
        title: 'Update failed',
        description: 'User information is missing. Please try logging in again.',
        variant: 'error',
      });
      return;
    }
    updateVendor.mutate(
      {
        id: vendor.id,
        data: {
          ...values,
          name: values.name.trim(),
          email: values.email.trim(),
          // The select offers SERVICE_TYPES only, and an empty one was refused above.
          serviceType: values.serviceType as ServiceType,
          requirementSetId: values.requirementSetId || null,
        },
      },
      {
        onSuccess: () => {
          toast({ title: 'Vendor updated', description: 'The vendor details have been saved.', variant: 'success' });
          void navigate(`/vendors/${vendor.id}`);
        },
        onError: (error) => {
          setErrors(serverFieldErrors(VENDOR_FIELDS, error.errors));
          toast({ title: 'Update failed', description: error.message || 'Failed to update vendor', variant: 'error' });
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit Vendor" className="space-y-6">
      <VendorFormFields
        values={values}
        onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
        errors={errors}
        keyField={
          <CompanyKeyField
            label="Vendor ID"
            value={vendor.id}
            hint="Vendors use this ID to upload their documents. It cannot be changed."
          />
        }
      />
      <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-6 sm:flex-row sm:justify-end">
        <ButtonLink to={`/vendors/${vendor.id}`} variant="outline">
          Cancel
        </ButtonLink>
        <Button type="submit" disabled={updateVendor.isPending}>
          {updateVendor.isPending ? 'Saving...' : 'Update Vendor'}
        </Button>
      </div>
    </form>
  );
}
