import { orderStoreContract } from '../support/contracts/order-store-contract.ts';
import { testServices } from '../support/stack.ts';

orderStoreContract('DynamoOrderStore', async () => testServices().orders);
