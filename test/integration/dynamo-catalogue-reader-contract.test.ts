import { catalogueReaderContract } from '../support/contracts/catalogue-reader-contract.ts';
import { testServices } from '../support/stack.ts';

catalogueReaderContract('DynamoCatalogueReader', async () => ({
  reader: testServices().reader,
  save: (writes) => testServices().catalogue.save(writes),
}));
