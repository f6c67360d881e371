import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { startDynamoLocal, provisionTable, serviceEnv } from './scripts/local-stack.ts';
import { searchWorld } from './bench/search-world.ts';
const d = await startDynamoLocal();
try {
  await provisionTable(d.endpoint, 'big-table');
  const env = serviceEnv({ stage: 'test', tableName: 'big-table', dynamodb: d.endpoint, sqs: 'http://127.0.0.1:1' });
  writeFileSync('/tmp/ops19-big.json', JSON.stringify(searchWorld({ channelId: 'big', listings: 5000, from: '2027-05-01', days: 60 })));
  const t = Date.now();
  const r = spawnSync('node_modules/.bin/tsx', ['bin/admin.ts', 'import', '/tmp/ops19-big.json'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: 'inherit' });
  console.log('exit', r.status, 'elapsed', ((Date.now() - t) / 1000).toFixed(1), 's');
} finally { await d.stop(); }
