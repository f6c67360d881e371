import { catalogueReaderContract } from '../support/contracts/catalogue-reader-contract.ts';
import { testServices } from '../support/stack.ts';

catalogueReaderContract('DynamoCatalogueReader and DynamoCatalogueStore', async () => ({
  reader: testServices().reader,
  pricing: testServices().catalogue,
  save: (writes) => testServices().catalogue.save(writes),
}));
