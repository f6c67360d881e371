import { randomBytes } from 'node:crypto';
import type { CreateSecretCommandInput, GetSecretValueCommandInput, PutSecretValueCommandInput } from '@aws-sdk/client-secrets-manager';
import * as v from 'valibot';
import { ConflictError } from '../../domain/errors.ts';
import type { SmokeKeys } from '../../domain/smoke-tenants.ts';
import { IrpCredentialsSchema, KeyRingSchema } from '../config.ts';
import type { IrpCredential } from '../einvoice/nic-e-invoice-registry.ts';

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
  /** The payment gateway's webhook signing secret (GATEWAY_WEBHOOK_SECRET): the sandbox's is made here; a real gateway's is pasted over it. */
  gatewayWebhookSecret: v.pipe(v.string(), v.check((s) => Buffer.from(s, 'base64').length === 32, 'must be a 32-byte base64 key')),
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
});
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
  if (!parsed.success) throw new StageSecretError(`The stage secret is malformed: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? '?'} ${i.message}`).join('; ')}`);
  return parsed.output;
}

const serialise = (secret: StageSecret): string => JSON.stringify(secret);

/** CreateSecret never overwrites: an existing name fails with ResourceExistsException. */
export function bootstrapRequest(stage: CloudStage, keys: { cursorKey: string; secretsKey: string; gatewayWebhookSecret: string }): CreateSecretCommandInput {
  return {
    Name: stageSecretName(stage),
    Description: `${SERVICE} ${stage}: cursor signing and secret sealing keys, the payment gateway's webhook secret, and the pipeline's smoke keys. Created by \`npm run admin -- stage bootstrap\`.`,
    SecretString: serialise({ cursorKey: keys.cursorKey, secretsKey: keys.secretsKey, gatewayWebhookSecret: keys.gatewayWebhookSecret, irpCredentials: '{}' }),
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
  if (inRotation(current)) throw new StageSecretError('A rotation is already in progress (the secret holds <new>,<old> keys). Finish it first: `stage finish-rotation`.');
  return { ...current, cursorKey: `${fresh.cursorKey},${current.cursorKey}`, secretsKey: `${fresh.secretsKey},${current.secretsKey}` };
}

/** Rotation step 3: the previous keys dropped, once stored secrets are resealed and old cursors have lapsed. */
export function finishRotation(current: StageSecret): StageSecret {
  if (!inRotation(current)) throw new StageSecretError('No rotation is in progress: the secret holds one key of each kind.');
  const first = (ring: string) => ring.split(',')[0]!;
  return { ...current, cursorKey: first(current.cursorKey), secretsKey: first(current.secretsKey) };
}

/** One registration's IRP credentials set (onboarding, or a rotated password or client secret) or, with null, removed. */
export function withIrpCredential(current: StageSecret, gstin: string, credential: IrpCredential | null): StageSecret {
  const all = { ...(JSON.parse(current.irpCredentials ?? '{}') as Record<string, IrpCredential>) };
  if (credential) all[gstin] = credential;
  else if (!(gstin in all)) throw new StageSecretError(`The stage secret holds no IRP credentials for ${gstin}.`);
  else delete all[gstin];
  const checked = v.safeParse(IrpCredentialsSchema, all);
  if (!checked.success) throw new StageSecretError(`The IRP credentials are malformed: ${checked.issues.map((i) => `${v.getDotPath(i) ?? '?'} ${i.message}`).join('; ')}`);
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
