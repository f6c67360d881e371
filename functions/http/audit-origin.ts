import { partnerOrigin, type AuditOrigin } from '../../domain/audit/audit-event.ts';
import type { Principal } from '../../domain/principal.ts';
import type { RequestState } from './types.ts';

/** Who a partner's change is recorded against: the API key that made the call, under the id the response carries in X-Request-Id. */
export const auditOrigin = (principal: Principal, state: RequestState): AuditOrigin => partnerOrigin(principal.keyId, state.requestId);
