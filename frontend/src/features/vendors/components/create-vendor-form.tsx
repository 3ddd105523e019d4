import { Button, ButtonLink } from '@/components/ui/button';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { ERROR_CODES } from '@/lib/api-error';
import { isAtVendorLimit, usePaymentStatus } from '@/lib/api/get-payment-status';
import { generateCompanyKey } from '@/lib/domain/company-key';
import { DEFAULT_REQUIRED_DOCUMENTS } from '@/lib/domain/documents';
import type { ServiceType } from '@/lib/domain/service-types';
import { DEFAULT_SERVICE_TYPE } from '@/lib/domain/service-types';
import { serverFieldErrors, type Errors } from '@/lib/validation';
import { useCreateVendor } from '../api/create-vendor';
import { CompanyKeyField } from './company-key-field';
import { VENDOR_FIELDS, VendorFormFields, type VendorField, type VendorFormValues } from './vendor-form-fields';

const LIMIT_TITLE = 'Free Account Limit Reached';
const LIMIT_MESSAGE = 'Free accounts are limited to 2 vendors maximum.';

const initialValues: VendorFormValues = {
  name: '',
  email: '',
  phone: '',
  serviceType: DEFAULT_SERVICE_TYPE,
  address: '',
  city: '',
  state: '',
  zipCode: '',
  notes: '',
  requiredDocuments: DEFAULT_REQUIRED_DOCUMENTS,
  requirementSetId: '',
};

export function CreateVendorForm() {
  const navigate = useNavigate();
  const paymentStatus = usePaymentStatus();
  const createVendor = useCreateVendor();
  const [values, setValues] = useState(initialValues);
  const [companyKey, setCompanyKey] = useState(() => generateCompanyKey());
  const [errors, setErrors] = useState<Errors<VendorField>>({});
  const [limitMessage, setLimitMessage] = useState<string | null>(null);
  const atLimit = isAtVendorLimit(paymentStatus.data);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: Errors<VendorField> = {
      name: values.name.trim() ? undefined : 'Vendor name is required',
      email: values.email.trim() ? undefined : 'Contact email is required',
      serviceType: values.serviceType ? undefined : 'Service type is required',
    };
    setErrors(missing);
    if (missing.name || missing.email || missing.serviceType) {
      toast({
        title: 'Missing information',
        description: 'Please fill in all required fields (name, email, service type)',
        variant: 'error',
      });
      return;
    }
    createVendor.mutate(
      {
        ...values,
        name: values.name.trim(),
        email: values.email.trim(),
        // The select offers SERVICE_TYPES only, and an empty one was refused above.
        serviceType: values.serviceType as ServiceType,
        requirementSetId: values.requirementSetId || null,
        companyKey,
      },
      {
        onSuccess: (vendor) => {
          toast({ title: 'Vendor created', description: `${vendor.name} has been added.`, variant: 'success' });
          void navigate(`/vendors/${vendor.id}`);
        },
        onError: (error) => {
          if (error.code === ERROR_CODES.planLimit) {
            // The dialog carries the message: a toast behind a modal would be inert.
            setLimitMessage(error.message || LIMIT_MESSAGE);
            return;
          }
          const fieldErrors = serverFieldErrors(VENDOR_FIELDS, error.errors);
          if (error.code === ERROR_CODES.companyKeyTaken && !fieldErrors.companyKey) fieldErrors.companyKey = error.message;
          setErrors(fieldErrors);
          toast({ title: 'Error creating vendor', description: error.message || 'Failed to create vendor', variant: 'error' });
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add New Vendor" className="space-y-6">
      <VendorFormFields
        values={values}
        onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
        errors={errors}
        keyField={
          <CompanyKeyField
            label="Company Key"
            value={companyKey}
            error={errors.companyKey}
            hint="Give this key to the vendor: they use it to upload their documents. It cannot be changed later."
            onGenerate={() => {
              setCompanyKey(generateCompanyKey());
              setErrors((e) => ({ ...e, companyKey: undefined }));
            }}
          />
        }
      />
      <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-6 sm:flex-row sm:justify-end">
        <ButtonLink to="/vendors" variant="outline">
          Cancel
        </ButtonLink>
        <Button type="submit" disabled={atLimit || createVendor.isPending}>
          {createVendor.isPending ? 'Adding Vendor...' : 'Add Vendor'}
        </Button>
      </div>
      <Dialog
        open={limitMessage !== null}
        onClose={() => setLimitMessage(null)}
        title={LIMIT_TITLE}
        description={limitMessage ?? LIMIT_MESSAGE}
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setLimitMessage(null)}>
            Close
          </Button>
          <ButtonLink to="/dashboard">Upgrade on the Dashboard</ButtonLink>
        </div>
      </Dialog>
    </form>
  );
}
