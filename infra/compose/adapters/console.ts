import { DynamoConsoleStore } from '../../dynamo/dynamo-console-store.ts';
import { DynamoPasskeyStore } from '../../dynamo/dynamo-passkey-store.ts';
import { adapterGroup } from '../core.ts';

/** The console's people, sign-in links and sessions, and their passkeys (docs/console.md). */
export const consoleAdapters = adapterGroup({
  area: 'console',
  makers: (w) => ({
    people: () => new DynamoConsoleStore(w.db(), w.table, w.auditTrail()),
    passkeys: () => new DynamoPasskeyStore(w.db(), w.table, w.auditTrail()),
  }),
});
