import { useState } from 'react';
import type { PortalVendor } from '@/types/api';
import { CompanyKeyForm } from '../components/company-key-form';
import { PortalLayout } from '../components/portal-layout';
import { VendorDocumentsStep } from '../components/vendor-documents-step';

type Verified = { companyKey: string; vendor: PortalVendor };

/** /vendor-upload: public; first the company key is checked, then the requested documents are uploaded. */
export function VendorUploadRoute() {
  const [verified, setVerified] = useState<Verified | null>(null);
  return (
    <PortalLayout>
      {verified ? (
        <VendorDocumentsStep companyKey={verified.companyKey} vendor={verified.vendor} onChangeKey={() => setVerified(null)} />
      ) : (
        <div className="mx-auto max-w-md sm:pt-6">
          <CompanyKeyForm onVerified={(companyKey, vendor) => setVerified({ companyKey, vendor })} />
        </div>
      )}
    </PortalLayout>
  );
}

export default VendorUploadRoute;
