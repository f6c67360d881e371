import type { AdminDeps } from '../domain/admin.ts';
import type { CatalogueStore } from '../domain/ports/catalogue-store.ts';
import type { Clock } from '../domain/ports/clock.ts';
import type { IdGenerator } from '../domain/ports/ids.ts';
import type { SecretSealer } from '../domain/ports/key-minter.ts';
import type { UrlGuard } from '../domain/ports/url-guard.ts';
import type { WebhookStore } from '../domain/ports/webhook-store.ts';
import type { RateLimiter } from '../domain/ports/rate-limiter.ts';
import type { TenantDirectory } from '../domain/ports/tenant-directory.ts';
import { config, type Config } from './config.ts';
import { cryptoKeyMinter } from './crypto/key-minter.ts';
import { SecretBox } from './crypto/secret-box.ts';
import { createDocumentClient } from './dynamo/client.ts';
import { DynamoCatalogueStore } from './dynamo/dynamo-catalogue-store.ts';
import { DynamoRateLimiter } from './dynamo/dynamo-rate-limiter.ts';
import { DynamoTenantDirectory } from './dynamo/dynamo-tenant-directory.ts';
import { DynamoWebhookStore } from './dynamo/dynamo-webhook-store.ts';
import { outboundUrlGuard } from './http/guard-adapter.ts';
import { randomUUID } from 'node:crypto';

/** The adapters wired once per process: the one composition root. */
export interface Services {
  readonly config: Config;
  readonly clock: Clock;
  readonly tenants: TenantDirectory;
  readonly rateLimiter: RateLimiter;
  readonly secrets: SecretBox;
  readonly catalogue: CatalogueStore;
  readonly sealer: SecretSealer;
  readonly ids: IdGenerator;
  readonly urlGuard: UrlGuard;
  readonly webhooks: WebhookStore;
}

export const systemClock: Clock = { now: () => new Date() };

export function buildServices(cfg: Config, clock: Clock = systemClock): Services {
  const db = createDocumentClient(cfg);
  const secrets = new SecretBox(cfg.secretsKey);
  return {
    config: cfg,
    clock,
    tenants: new DynamoTenantDirectory(db, cfg.tableName),
    rateLimiter: new DynamoRateLimiter(db, cfg.tableName),
    catalogue: new DynamoCatalogueStore(db, cfg.tableName),
    secrets,
    sealer: secrets,
    ids: { uuid: randomUUID },
    urlGuard: outboundUrlGuard(cfg.outbound),
    webhooks: new DynamoWebhookStore(db, cfg.tableName),
  };
}

/** What the operator use cases need, from the same adapters. */
export function adminDeps(svc: Services): AdminDeps {
  return { tenants: svc.tenants, clock: svc.clock, minter: cryptoKeyMinter, sealer: svc.secrets };
}

let cached: Services | undefined;

/** Services for this process, built at first use (cold start) from the environment. */
export function services(): Services {
  cached ??= buildServices(config());
  return cached;
}
