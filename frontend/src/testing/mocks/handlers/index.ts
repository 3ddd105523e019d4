import { authHandlers } from './auth';
import { billingHandlers } from './billing';
import { blogHandlers } from './blog';
import { bulkHandlers } from './bulk';
import { complianceHandlers } from './compliance';
import { contentHandlers } from './content';
import { configHandlers } from './config';
import { extractionHandlers } from './extractions';
import { integrationHandlers } from './integrations';
import { portalHandlers } from './portal';
import { reportHandlers } from './reports';
import { requirementHandlers } from './requirements';
import { teamHandlers } from './team';

// Bulk first: '/api/vendors/export' and '/api/documents/export' would otherwise match '/:id'.
export const handlers = [
  ...authHandlers,
  ...billingHandlers,
  ...blogHandlers,
  ...bulkHandlers,
  ...complianceHandlers,
  ...contentHandlers,
  ...configHandlers,
  ...extractionHandlers,
  ...integrationHandlers,
  ...portalHandlers,
  ...reportHandlers,
  ...requirementHandlers,
  ...teamHandlers,
];
