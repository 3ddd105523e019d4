import { authHandlers } from './auth';
import { billingHandlers } from './billing';
import { complianceHandlers } from './compliance';
import { configHandlers } from './config';
import { portalHandlers } from './portal';
import { reportHandlers } from './reports';

export const handlers = [
  ...authHandlers,
  ...billingHandlers,
  ...complianceHandlers,
  ...configHandlers,
  ...portalHandlers,
  ...reportHandlers,
];
