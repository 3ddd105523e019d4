import { authHandlers } from './auth';
import { complianceHandlers } from './compliance';
import { configHandlers } from './config';
import { portalHandlers } from './portal';

export const handlers = [...authHandlers, ...complianceHandlers, ...configHandlers, ...portalHandlers];
