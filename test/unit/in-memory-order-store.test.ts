import { orderStoreContract } from '../support/contracts/order-store-contract.ts';
import { InMemoryOrderStore } from '../support/memory/in-memory-order-store.ts';

orderStoreContract('InMemoryOrderStore', async () => new InMemoryOrderStore());
