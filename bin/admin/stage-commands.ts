import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConflictError, DomainError } from '../../domain/errors.ts';
import { provisionSmokeTenants, SMOKE_TENANT_ID } from '../../domain/smoke-tenants.ts';
import { resealSecrets } from '../../domain/secrets/reseal-secrets.ts';
import {
  beginRotation,
  bootstrapRequest,
  channexSecretDefaults,
  CLOUD_STAGES,
  finishRotation,
  freshKey,
  parseStageSecret,
  pipelineSettings,
  readRequest,
  stageSecretName,
  withRazorpay,
  withIrpCredential,
  withSmokeKeys,
  writeRequest,
  type CloudStage,
  type StageSecret,
} from '../../infra/deploy/stage-secret.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoSealedSecretStore } from '../../infra/dynamo/dynamo-sealed-secrets.ts';
import { UsageError, type CommandSpec, type OptionSpec, type ParsedArgs } from './command.ts';

const STAGE_OPTIONS: readonly OptionSpec[] = [
  { name: 'stage', value: '<stage>', required: true, description: `The cloud stage: ${CLOUD_STAGES.join(', ')}.` },
  {
    name: 'region',
    value: '<region>',
    description: 'AWS region of the stage (default ap-south-1). Credentials come from the usual AWS chain (AWS_PROFILE, SSO, ...).',
  },
];

function stageOf(args: ParsedArgs): CloudStage {
  const stage = args.required('stage');
  if (!(CLOUD_STAGES as readonly string[]).includes(stage))
    throw new UsageError(`--stage must be one of ${CLOUD_STAGES.join(', ')} (got '${stage}').`, '--stage');
  return stage as CloudStage;
}

const regionOf = (args: ParsedArgs): string => args.text('region') ?? 'ap-south-1';

/** Secrets Manager's refusals in the tool's terms: an existing secret is a conflict, a missing one "not found". */
export function translateSecretsError(err: unknown, stage: CloudStage): unknown {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'ResourceExistsException')
    return new ConflictError(
      'CONFLICT',
      `The secret ${stageSecretName(stage)} already exists; it was not changed. To change its keys, use \`stage rotate-keys\`.`,
    );
  if (name === 'ResourceNotFoundException')
    return new DomainError('NOT_FOUND', `The secret ${stageSecretName(stage)} does not exist: run \`stage bootstrap --stage ${stage}\` first.`);
  return err;
}

/**
 * Sends the requests stage-secret.ts builds; nothing else talks to Secrets Manager. The SDK
 * is loaded on first use, so the tool's other commands do not pay for it at start-up.
 */
type SecretsManagerSdk = typeof import('@aws-sdk/client-secrets-manager');
interface Sdk {
  readonly sm: SecretsManagerSdk;
  readonly client: InstanceType<SecretsManagerSdk['SecretsManagerClient']>;
}

class StageSecrets {
  private sdk?: Promise<Sdk>;
  constructor(
    private readonly stage: CloudStage,
    private readonly region: string,
  ) {}

  private async send<T>(run: (sdk: Sdk) => Promise<T>): Promise<T> {
    this.sdk ??= import('@aws-sdk/client-secrets-manager').then((sm) => ({ sm, client: new sm.SecretsManagerClient({ region: this.region }) }));
    const sdk = await this.sdk;
    try {
      return await run(sdk);
    } catch (err) {
      throw translateSecretsError(err, this.stage);
    }
  }

  create(keys: Parameters<typeof bootstrapRequest>[1]) {
    return this.send(({ sm, client }) => client.send(new sm.CreateSecretCommand(bootstrapRequest(this.stage, keys))));
  }

  async read(): Promise<StageSecret> {
    const out = await this.send(({ sm, client }) => client.send(new sm.GetSecretValueCommand(readRequest(this.stage))));
    return parseStageSecret(out.SecretString);
  }

  async write(secret: StageSecret): Promise<string | undefined> {
    const out = await this.send(({ sm, client }) => client.send(new sm.PutSecretValueCommand(writeRequest(this.stage, secret, randomUUID()))));
    return out.VersionId;
  }
}

const REDEPLOY = (stage: CloudStage) =>
  `Deploy ${stage} now (run the pipeline, or \`npx serverless deploy --stage ${stage}\` with --param="secretVersion=<new VersionId>"): the functions read the keys at deploy time.`;

export const stageBootstrap: CommandSpec = {
  path: ['stage', 'bootstrap'],
  summary: "Create a cloud stage's Secrets Manager secret with fresh cursor and secrets keys, and print what to set in the pipeline.",
  details:
    'Refuses (exit 1) when the secret already exists: an existing stage keeps its keys, or every cursor and stored secret would break. The keys are never printed.',
  options: STAGE_OPTIONS,
  examples: ['stage bootstrap --stage dev', 'stage bootstrap --stage prod --region ap-south-1'],
  async run(args, ctx) {
    const stage = stageOf(args);
    const region = regionOf(args);
    const created = await new StageSecrets(stage, region).create({
      cursorKey: freshKey(),
      secretsKey: freshKey(),
      razorpayWebhookSecret: freshKey(),
      ...channexSecretDefaults(),
    });
    const settings = pipelineSettings(stage, region, created.ARN);
    ctx.out.result({ secretName: created.Name, secretArn: created.ARN, versionId: created.VersionId, pipelineSettings: settings }, () => [
      `Created ${created.Name} with fresh cursorKey and secretsKey.`,
      '',
      ...settings,
      '',
      `Next: deploy ${stage} (docs/deploy.md "First deployment"), then \`stage smoke-keys --stage ${stage}\`.`,
    ]);
  },
};

export const stageRotateKeys: CommandSpec = {
  path: ['stage', 'rotate-keys'],
  summary: 'Start a key rotation: fresh cursor and secrets keys become current, the old ones stay accepted for reading.',
  details: [
    'Writes <new>,<old> for both keys into the stage secret. After the next deploy new cursors and sealed secrets use the new keys; earlier ones still work.',
    'Then: deploy, `secrets reseal` (with the stage environment), wait out live cursors, `stage finish-rotation`, deploy again (docs/deploy.md "Key rotation").',
  ].join('\n'),
  options: STAGE_OPTIONS,
  examples: ['stage rotate-keys --stage staging'],
  async run(args, ctx) {
    const stage = stageOf(args);
    const secrets = new StageSecrets(stage, regionOf(args));
    await ctx.begin();
    const versionId = await secrets.write(beginRotation(await secrets.read(), { cursorKey: freshKey(), secretsKey: freshKey() }));
    ctx.out.result({ stage, versionId, rotation: 'started' }, () => [
      `Rotation started on ${stage}: new keys are current, the old ones still accepted (secret version ${versionId}).`,
      REDEPLOY(stage),
    ]);
  },
};

export const stageFinishRotation: CommandSpec = {
  path: ['stage', 'finish-rotation'],
  summary: 'End a key rotation: drop the old keys from the stage secret.',
  details:
    'Run only after `secrets reseal` reported nothing left under the old key and live cursors have lapsed (a day after the rotation deploy). Cursors signed with the old key are refused afterwards (400, start again).',
  options: STAGE_OPTIONS,
  examples: ['stage finish-rotation --stage staging'],
  async run(args, ctx) {
    const stage = stageOf(args);
    const secrets = new StageSecrets(stage, regionOf(args));
    await ctx.begin();
    const versionId = await secrets.write(finishRotation(await secrets.read()));
    ctx.out.result({ stage, versionId, rotation: 'finished' }, () => [
      `Rotation finished on ${stage}: only the new keys remain (secret version ${versionId}).`,
      REDEPLOY(stage),
    ]);
  },
};

export const stageRazorpay: CommandSpec = {
  path: ['stage', 'razorpay'],
  summary: "Set Razorpay's key id and secret, start or finish a webhook secret rotation, in the stage secret.",
  details: [
    'Secrets are read from environment variables, never from the command line: RAZORPAY_KEY_SECRET (with --key-id) and RAZORPAY_NEW_WEBHOOK_SECRET (with --webhook-secret).',
    'A new webhook secret is written as <new>,<old>: both verify until --finish-webhook-rotation (after Razorpay has retried its older events). Then deploy (docs/deploy.md "Payments: Razorpay").',
  ].join('\n'),
  options: [
    ...STAGE_OPTIONS,
    { name: 'key-id', value: '<rzp_live_…>', description: "Razorpay's key id; its secret comes from RAZORPAY_KEY_SECRET." },
    {
      name: 'webhook-secret',
      description: 'Put RAZORPAY_NEW_WEBHOOK_SECRET in front of the current webhook secret (the secret also entered on the Razorpay dashboard).',
    },
    { name: 'finish-webhook-rotation', description: 'Drop the previous webhook secret.' },
  ],
  examples: [
    'stage razorpay --stage prod --key-id rzp_live_AbCdEf123456',
    'stage razorpay --stage prod --webhook-secret',
    'stage razorpay --stage prod --finish-webhook-rotation',
  ],
  async run(args, ctx) {
    const stage = stageOf(args);
    const keyId = args.text('key-id');
    const env = (name: string) => {
      const value = ctx.env[name];
      if (!value) throw new UsageError(`${name} must be set in the environment.`, name);
      return value;
    };
    const secrets = new StageSecrets(stage, regionOf(args));
    const next = withRazorpay(
      await secrets.read(),
      {
        ...(keyId !== undefined ? { keyId, keySecret: env('RAZORPAY_KEY_SECRET') } : {}),
        ...(args.flag('webhook-secret') ? { webhookSecret: env('RAZORPAY_NEW_WEBHOOK_SECRET') } : {}),
        finishWebhookRotation: args.flag('finish-webhook-rotation'),
      },
      stage,
    );
    await ctx.begin();
    const versionId = await secrets.write(next);
    ctx.out.result({ stage, versionId, keyId: next.razorpayKeyId || null, webhookSecrets: next.razorpayWebhookSecret.split(',').length }, () => [
      `Razorpay settings of ${stage} written (secret version ${versionId}); key id ${next.razorpayKeyId || '(none)'}, ${next.razorpayWebhookSecret.split(',').length} webhook secret(s) accepted.`,
      REDEPLOY(stage),
    ]);
  },
};

export const stageSmokeKeys: CommandSpec = {
  path: ['stage', 'smoke-keys'],
  summary: "Create the pipeline's smoke partner and group on a deployed stage and store their keys in the stage secret.",
  details: [
    `Creates partner and group '${SMOKE_TENANT_ID}' if missing (the group has no credit and is on hold: it can read /v1/ping, never book),`,
    'issues a key for each (replacing the previous smoke keys, which are revoked) and writes them into the stage secret. The keys are never printed.',
    'Needs the stage environment (STAGE, TABLE_NAME, CURSOR_KEY, SECRETS_KEY, AWS_REGION; docs/deploy.md) with STAGE equal to --stage.',
  ].join('\n'),
  options: STAGE_OPTIONS,
  examples: ['stage smoke-keys --stage dev'],
  async run(args, ctx) {
    const stage = stageOf(args);
    if (ctx.config().stage !== stage)
      throw new UsageError(
        `--stage ${stage} does not match the environment's STAGE=${ctx.config().stage}: the keys would be stored for another table.`,
        '--stage',
      );
    const secrets = new StageSecrets(stage, regionOf(args));
    const current = await secrets.read();
    await ctx.begin();
    const keys = await provisionSmokeTenants(ctx.deps(), { partnerKeyId: current.smokePartnerKeyId, groupKeyId: current.smokeGroupKeyId });
    const versionId = await secrets.write(withSmokeKeys(current, keys));
    ctx.out.result({ stage, versionId, partnerKeyId: keys.smokePartnerKeyId, groupKeyId: keys.smokeGroupKeyId }, () => [
      `Smoke keys ${keys.smokePartnerKeyId} (partner) and ${keys.smokeGroupKeyId} (group) stored in ${stageSecretName(stage)} (version ${versionId}); the pipeline's smoke check reads them from there.`,
    ]);
  },
};

export const stageIrpCredentials: CommandSpec = {
  path: ['stage', 'irp-credentials'],
  summary: "Set (onboard, or rotate) or remove one registration's IRP API credentials in the stage secret.",
  details: [
    'The file is JSON: {"baseUrl", "clientId", "clientSecret", "userName", "password", "publicKeyPem", "signingKeyPem"} as the portal issued them on whitelisting',
    '(publicKeyPem encrypts the sign-in; signingKeyPem verifies the signed invoices and QR codes). Nothing of it is printed; delete the file afterwards.',
    'Then deploy with --param="irpProvider=nic" (docs/deploy.md "E-invoicing"). A rotated password takes effect at the next sign-in after the deploy.',
  ].join('\n'),
  options: [
    ...STAGE_OPTIONS,
    { name: 'gstin', value: '<GSTIN>', required: true, description: 'Our registration the credentials belong to.' },
    { name: 'file', value: '<credentials.json>', description: 'The credentials to set (required unless --remove).' },
    { name: 'remove', description: "Remove the registration's credentials instead." },
  ],
  examples: [
    'stage irp-credentials --stage prod --gstin 30AAICK4821M1ZQ --file ./irp-30.json',
    'stage irp-credentials --stage prod --gstin 30AAICK4821M1ZQ --remove',
  ],
  async run(args, ctx) {
    const stage = stageOf(args);
    const gstin = args.required('gstin').trim().toUpperCase();
    const file = args.text('file');
    const remove = args.flag('remove');
    if (remove === (file !== undefined)) throw new UsageError('Give either --file <credentials.json> or --remove.', '--file');
    let credential = null;
    if (file) {
      try {
        credential = JSON.parse(readFileSync(resolve(ctx.cwd, file), 'utf8'));
      } catch (err) {
        throw new UsageError(`--file must be a readable JSON file: ${err instanceof Error ? err.message : String(err)}`, '--file');
      }
    }
    const secrets = new StageSecrets(stage, regionOf(args));
    await ctx.begin();
    const versionId = await secrets.write(withIrpCredential(await secrets.read(), gstin, credential));
    ctx.out.result({ stage, gstin, versionId, irpCredentials: remove ? 'removed' : 'set' }, () => [
      `IRP credentials of ${gstin} ${remove ? 'removed from' : 'stored in'} ${stageSecretName(stage)} (version ${versionId}).`,
      REDEPLOY(stage),
    ]);
  },
};

export const secretsReseal: CommandSpec = {
  path: ['secrets', 'reseal'],
  summary: 'Seal every stored secret (callback and webhook secrets) again under the current secrets key.',
  details: [
    'Run during a key rotation, with SECRETS_KEY=<new>,<old>: values sealed under the old key are re-sealed under the new one; values already under it are left alone.',
    'Safe to rerun and to run while the service is live (each value is swapped only if unchanged). Reports values no key opens.',
  ].join('\n'),
  options: [],
  examples: ['secrets reseal', 'secrets reseal --json'],
  async run(_args, ctx) {
    const cfg = ctx.config();
    const store = new DynamoSealedSecretStore(createDocumentClient(cfg), cfg.tableName);
    const summary = await resealSecrets({ store, resealer: ctx.services().secrets });
    ctx.out.result(summary, () => [
      `Examined ${summary.examined} sealed secrets: ${summary.resealed} resealed under the current key, ${summary.current} already current, ${summary.changedMeanwhile} changed meanwhile (by the service, under the current key).`,
      ...(summary.unreadable.length === 0
        ? [
            cfg.secretsKeys.previous
              ? 'Nothing is left under the previous key: the rotation can be finished once old cursors have lapsed.'
              : 'No previous key configured: nothing to move.',
          ]
        : [`${summary.unreadable.length} opened under no configured key (not touched):`, ...summary.unreadable.map((u) => `  ${u.kind} ${u.context}`)]),
    ]);
  },
};
