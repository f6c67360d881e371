import { catalogueReaderContract } from '../support/contracts/catalogue-reader-contract.ts';
import { InMemoryCatalogue } from '../support/memory/in-memory-catalogue.ts';

catalogueReaderContract('InMemoryCatalogue', async () => {
  const catalogue = new InMemoryCatalogue();
  return { reader: catalogue, pricing: catalogue, save: (writes) => catalogue.save(writes) };
});
