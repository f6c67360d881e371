import { randomBytes } from 'node:crypto';
import type { CreateSecretCommandInput, GetSecretValueCommandInput, PutSecretValueCommandInput } from '@aws-sdk/client-secrets-manager';
import * as v from 'valibot';
import { ConflictError } from '../../domain/errors.ts';
import type { SmokeKeys } from '../../domain/smoke-tenants.ts';
import { IrpCredentialsSchema, KeyRingSchema } from '../config.ts';
import type { IrpCredential } from '../einvoice/nic-e-invoice-registry.ts';
import { razorpayKeyModeProblem } from '../payments/razorpay-mode.ts';

/**
 * A stage's Secrets Manager secret and the requests that create, rotate and read it. Every
 * request is built here by a pure function (tested without a network); bin/admin only sends
 * them. serverless.yml resolves `cursorKey` and `secretsKey` from this secret at deploy time;
 * the pipeline reads the smoke keys from it after each deploy.
 */
export const SERVICE = 'partner-distribution';

/** Stages that live in AWS; local and test never have a secret. */
export const CLOUD_STAGES = ['dev', 'staging', 'prod'] as const;
export type CloudStage = (typeof CLOUD_STAGES)[number];

export const stageSecretName = (stage: CloudStage): string => `${SERVICE}/${stage}`;

/** Kept as text, but only what the service itself would accept as CURSOR_KEY / SECRETS_KEY. */
const ring = v.pipe(
  v.string(),
  v.check((s) => v.is(KeyRingSchema, s), 'must be one 32-byte base64 key, or <new>,<old> during a rotation'),
);

/** The secret's JSON. The smoke keys are added after the first deploy (`stage smoke-keys`). */
export const StageSecretSchema = v.object({
  cursorKey: ring,
  secretsKey: ring,
  /** Razorpay's webhook secret (RAZORPAY_WEBHOOK_SECRET), `<new>,<old>` while it rotates: made here for the sandbox, replaced by `stage razorpay`. */
  razorpayWebhookSecret: v.pipe(
    v.string(),
    v.check((s) => s.split(',').length <= 2 && s.split(',').every((k) => k.length >= 8), 'must be one secret of 8+ characters, or <new>,<old>'),
  ),
  /** Razorpay's API key (RAZORPAY_KEY_ID / RAZORPAY_KEY_SECRET); empty until `stage razorpay` sets them (the sandbox needs none). */
  razorpayKeyId: v.optional(v.string()),
  razorpayKeySecret: v.optional(v.string()),
  /**
   * The IRP API users per registration GSTIN (IRP_CREDENTIALS, read when the stage param
   * irpProvider is nic), as JSON text so one dynamic reference carries it: `{}` until
   * `stage irp-credentials` adds one.
   */
  irpCredentials: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => {
        try {
          return v.is(IrpCredentialsSchema, JSON.parse(s));
        } catch {
          return false;
        }
      }, 'must be the JSON of the IRP credentials per GSTIN (stage irp-credentials)'),
    ),
  ),
  smokePartnerKey: v.optional(v.string()),
  smokeGroupKey: v.optional(v.string()),
  /** Kept so the next `stage smoke-keys` replaces (and so revokes) these keys instead of piling up new ones. */
  smokePartnerKeyId: v.optional(v.string()),
  smokeGroupKeyId: v.optional(v.string()),
  /**
   * Channex (docs/channel-manager.md): the inbound key(s) Channex sends in api-key (`<new>,<old>`
   * during a rotation), Channex's base URL, our provider code, the Open Channel's API key, and the
   * read key (user-api-key) with its host for the Bookings List the adapter asks after a push went
   * unanswered. serverless.yml resolves all six on every cloud stage, so bootstrap writes them all.
   */
  channexInboundApiKey: v.optional(v.string()),
  channexBaseUrl: v.optional(v.string()),
  channexProviderCode: v.optional(v.string()),
  channexApiKey: v.optional(v.string()),
  channexUserApiKey: v.optional(v.string()),
  channexApiUrl: v.optional(v.string()),
});

/** A fresh inbound Channex key (48 hex characters) and Channex's documented staging values for the rest ("Push Booking API"). */
export const channexSecretDefaults = (random: (n: number) => Buffer = randomBytes) => ({
  channexInboundApiKey: `chx_${random(24).toString('hex')}`,
  channexBaseUrl: 'https://secure-staging.channex.io',
  channexProviderCode: 'OpenChannel',
  channexApiKey: 'open_channel_api_key',
  // Empty until an operator pastes a user-api-key made in Channex (Profile, API keys): until then a
  // booking whose push went unanswered waits for an operator instead of being pushed again.
  channexUserApiKey: '',
  channexApiUrl: 'https://staging.channex.io',
});

/** Rotation of the inbound Channex key: a fresh one in front, the current one still accepted until Channex has the new one. */
export function rotateChannexInboundKey(current: StageSecret, fresh: string): StageSecret {
  const keys = (current.channexInboundApiKey ?? '').split(',').filter(Boolean);
  if (keys.length > 1) throw new StageSecretError('A Channex key rotation is already in progress (<new>,<old>); finish it first.');
  return { ...current, channexInboundApiKey: [fresh, ...keys].join(',') };
}
export type StageSecret = v.InferOutput<typeof StageSecretSchema>;

/** A refusal the operator can act on (exit 1 in the admin tool), never a fault. */
export class StageSecretError extends ConflictError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

/** A fresh 32-byte key, base64, as infra/config.ts reads CURSOR_KEY and SECRETS_KEY. */
export const freshKey = (random: (n: number) => Buffer = randomBytes): string => random(32).toString('base64');

export function parseStageSecret(text: string | undefined): StageSecret {
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    throw new StageSecretError('The stage secret is not JSON.');
  }
  const parsed = v.safeParse(StageSecretSchema, json);
  if (!parsed.success)
    throw new StageSecretError(`The stage secret is malformed: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? '?'} ${i.message}`).join('; ')}`);
  return parsed.output;
}

const serialise = (secret: StageSecret): string => JSON.stringify(secret);

/** CreateSecret never overwrites: an existing name fails with ResourceExistsException. */
export function bootstrapRequest(
  stage: CloudStage,
  keys: { cursorKey: string; secretsKey: string; razorpayWebhookSecret: string } & Partial<ReturnType<typeof channexSecretDefaults>>,
): CreateSecretCommandInput {
  return {
    Name: stageSecretName(stage),
    Description: `${SERVICE} ${stage}: cursor signing and secret sealing keys, the payment gateway's webhook secret, and the pipeline's smoke keys. Created by \`npm run admin -- stage bootstrap\`.`,
    // The Razorpay key fields exist from the start (empty): serverless.yml resolves them on every stage.
    SecretString: serialise({
      ...keys,
      cursorKey: keys.cursorKey,
      secretsKey: keys.secretsKey,
      razorpayWebhookSecret: keys.razorpayWebhookSecret,
      razorpayKeyId: '',
      razorpayKeySecret: '',
      irpCredentials: '{}',
    }),
    Tags: [
      { Key: 'service', Value: SERVICE },
      { Key: 'stage', Value: stage },
    ],
  };
}

export const readRequest = (stage: CloudStage): GetSecretValueCommandInput => ({ SecretId: stageSecretName(stage), VersionStage: 'AWSCURRENT' });

/** A new version of the secret (the previous one stays readable as AWSPREVIOUS); the token makes a retried write idempotent. */
export function writeRequest(stage: CloudStage, secret: StageSecret, token: string): PutSecretValueCommandInput {
  return { SecretId: stageSecretName(stage), SecretString: serialise(secret), ClientRequestToken: token };
}

const inRotation = (s: StageSecret): boolean => s.cursorKey.includes(',') || s.secretsKey.includes(',');

/** Rotation step 1: fresh keys in front, the current ones kept as previous. */
export function beginRotation(current: StageSecret, fresh: { cursorKey: string; secretsKey: string }): StageSecret {
  if (inRotation(current))
    throw new StageSecretError('A rotation is already in progress (the secret holds <new>,<old> keys). Finish it first: `stage finish-rotation`.');
  return { ...current, cursorKey: `${fresh.cursorKey},${current.cursorKey}`, secretsKey: `${fresh.secretsKey},${current.secretsKey}` };
}

/** Rotation step 3: the previous keys dropped, once stored secrets are resealed and old cursors have lapsed. */
export function finishRotation(current: StageSecret): StageSecret {
  if (!inRotation(current)) throw new StageSecretError('No rotation is in progress: the secret holds one key of each kind.');
  const first = (ring: string) => ring.split(',')[0]!;
  return { ...current, cursorKey: first(current.cursorKey), secretsKey: first(current.secretsKey) };
}

/**
 * Razorpay's credentials: a new key pair replaces the old at once (Razorpay's dashboard
 * regenerates both); a new webhook secret goes in front of the current one (`<new>,<old>`), since
 * Razorpay retries older events signed with the old secret; `finishWebhookRotation` drops it.
 */
export function withRazorpay(
  current: StageSecret,
  change: { keyId?: string; keySecret?: string; webhookSecret?: string; finishWebhookRotation?: boolean },
  stage: CloudStage,
): StageSecret {
  if (change.keyId !== undefined && !/^rzp_(test|live)_[A-Za-z0-9]{6,32}$/.test(change.keyId))
    throw new StageSecretError('The key id must be a Razorpay key id (rzp_test_… or rzp_live_…).');
  const keyMode = change.keyId !== undefined && razorpayKeyModeProblem(stage, change.keyId);
  if (keyMode) throw new StageSecretError(`The key id: ${keyMode}.`);
  if ((change.keyId === undefined) !== (change.keySecret === undefined))
    throw new StageSecretError('Razorpay issues the key id and secret as a pair: give both.');
  if (change.webhookSecret !== undefined && (change.webhookSecret.length < 8 || change.webhookSecret.includes(',')))
    throw new StageSecretError('The webhook secret must be 8+ characters without a comma.');
  let webhook = current.razorpayWebhookSecret;
  if (change.finishWebhookRotation) {
    if (!webhook.includes(',')) throw new StageSecretError('No webhook secret rotation is in progress.');
    webhook = webhook.split(',')[0]!;
  }
  if (change.webhookSecret !== undefined) {
    if (webhook.includes(',')) throw new StageSecretError('A webhook secret rotation is in progress: finish it first (`--finish-webhook-rotation`).');
    webhook = `${change.webhookSecret},${webhook}`;
  }
  return {
    ...current,
    razorpayWebhookSecret: webhook,
    ...(change.keyId !== undefined ? { razorpayKeyId: change.keyId, razorpayKeySecret: change.keySecret! } : {}),
  };
}

/** One registration's IRP credentials set (onboarding, or a rotated password or client secret) or, with null, removed. */
export function withIrpCredential(current: StageSecret, gstin: string, credential: IrpCredential | null): StageSecret {
  const all = { ...(JSON.parse(current.irpCredentials ?? '{}') as Record<string, IrpCredential>) };
  if (credential) all[gstin] = credential;
  else if (!(gstin in all)) throw new StageSecretError(`The stage secret holds no IRP credentials for ${gstin}.`);
  else delete all[gstin];
  const checked = v.safeParse(IrpCredentialsSchema, all);
  if (!checked.success)
    throw new StageSecretError(`The IRP credentials are malformed: ${checked.issues.map((i) => `${v.getDotPath(i) ?? '?'} ${i.message}`).join('; ')}`);
  return { ...current, irpCredentials: JSON.stringify(checked.output) };
}

export const withSmokeKeys = (current: StageSecret, keys: SmokeKeys): StageSecret => ({ ...current, ...keys });

/** What the operator puts in the GitHub environment named after the stage (docs/deploy.md). */
export function pipelineSettings(stage: CloudStage, region: string, arn: string | undefined): string[] {
  const account = arn?.split(':')[4] ?? '<account-id>';
  return [
    `GitHub → Settings → Environments → ${stage} → Environment variables:`,
    `  AWS_REGION          ${region}`,
    `  AWS_DEPLOY_ROLE_ARN arn:aws:iam::${account}:role/${SERVICE}-deploy-${stage}`,
    `  STAGE_SECRET_ID     ${stageSecretName(stage)}`,
    ...(stage === 'prod' ? [`  (and Required reviewers on the ${stage} environment: the manual approval before prod)`] : []),
    'No secret goes into GitHub: the pipeline assumes the role by OIDC and reads the smoke keys from this secret.',
    `Secret: ${arn ?? stageSecretName(stage)}`,
  ];
}
