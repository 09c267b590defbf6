import { CALLER_PROFILE_READ } from '../../shared/deployment/users-table-access';
import type { RouteOperation } from '../../shared/http/route-definition';
import { LIVE_PARTITIONS } from '../model/live-keys';

/** POST /media/log/live (its documentation: ../route-docs.ts). */
export const createLiveTicketRoute = {
  name: 'createLiveTicket',
  method: 'POST',
  path: '/media/log/live',
  handler: 'functions/live/ticket/create-live-ticket.ts',
  auth: 'bearer',
  grants: {
    users: [CALLER_PROFILE_READ],
    liveConnections: [{ actions: ['PutItem'], partitions: [LIVE_PARTITIONS.tickets] }],
  },
  // A retry whose first answer was lost gets that answer's ticket, unused, instead of a second one.
  idempotencyKey: true,
  contract: {},
} as const satisfies RouteOperation;
