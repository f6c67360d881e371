import { idempotencyStoreContract } from '../support/contracts/idempotency-store-contract.ts';
import { testServices } from '../support/stack.ts';

idempotencyStoreContract('DynamoIdempotencyStore', () => testServices().idempotency);
