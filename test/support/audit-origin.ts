import { randomUUID } from 'node:crypto';
import { partnerOrigin, type AuditOrigin } from '../../domain/audit/audit-event.ts';

/** The origin a test's direct use-case call is recorded under: a named key and a fresh request id. */
export const testOrigin = (keyId = 'test-key'): AuditOrigin => partnerOrigin(keyId, randomUUID());

/** The operator a test's direct admin use-case call (fixtures, world imports) is recorded against. */
export const TEST_OPERATOR: AuditOrigin = { actor: 'test-operator', actorKind: 'operator', requestId: 'test-run' };
