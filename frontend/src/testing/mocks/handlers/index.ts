import { authHandlers } from './auth';
import { billingHandlers } from './billing';
import { complianceHandlers } from './compliance';
import { configHandlers } from './config';
import { portalHandlers } from './portal';

export const handlers = [...authHandlers, ...billingHandlers, ...complianceHandlers, ...configHandlers, ...portalHandlers];
