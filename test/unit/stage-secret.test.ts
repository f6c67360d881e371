import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainError } from '../../domain/errors.ts';
import { runAdmin } from '../../bin/admin/run-admin.ts';
import { translateSecretsError } from '../../bin/admin/stage-commands.ts';
import { parseConfig } from '../../infra/config.ts';
import {
  beginRotation,
  bootstrapRequest,
  channexSecretDefaults,
  rotateChannexInboundKey,
  finishRotation,
  freshKey,
  parseStageSecret,
  pipelineSettings,
  readRequest,
  StageSecretError,
  withRazorpay,
  withIrpCredential,
  withSmokeKeys,
  writeRequest,
} from '../../infra/deploy/stage-secret.ts';

const A = freshKey();
const B = freshKey();
const C = freshKey();
const D = freshKey();

describe('stage secret requests (built without a network)', () => {
  it('bootstrap creates the stage-named secret with both keys, the gateway webhook secret and the Channex fields, nothing else', () => {
    const channex = channexSecretDefaults();
    const req = bootstrapRequest('staging', { cursorKey: A, secretsKey: B, razorpayWebhookSecret: C, ...channex });

    expect(req.Name).toBe('partner-distribution/staging');
    expect(JSON.parse(req.SecretString!)).toEqual({
      cursorKey: A,
      secretsKey: B,
      razorpayWebhookSecret: C,
      razorpayKeyId: '',
      razorpayKeySecret: '',
      irpCredentials: '{}',
      ...channex,
    });
    expect(channex.channexInboundApiKey).toMatch(/^chx_[0-9a-f]{48}$/);
    expect(
      parseConfig({ STAGE: 'prod', TABLE_NAME: 't', CURSOR_KEY: A, SECRETS_KEY: B, CHANNEX_INBOUND_API_KEY: `${freshKey()},${channex.channexInboundApiKey}` })
        .channex.inboundKeys,
    ).toHaveLength(2);
    // The read key starts empty (no re-push without an operator) and the config takes it, with its host, as written.
    const read = parseConfig({
      STAGE: 'prod',
      TABLE_NAME: 't',
      CURSOR_KEY: A,
      SECRETS_KEY: B,
      CHANNEX_USER_API_KEY: channex.channexUserApiKey,
      CHANNEX_API_URL: channex.channexApiUrl,
    }).channex;
    expect(read).toMatchObject({ apiUrl: 'https://staging.channex.io' });
    expect(read.userApiKey ?? '').toBe('');
    expect(rotateChannexInboundKey({ cursorKey: A, secretsKey: B, razorpayWebhookSecret: C, ...channex }, 'chx_new').channexInboundApiKey).toBe(
      `chx_new,${channex.channexInboundApiKey}`,
    );
    expect(req.Tags).toContainEqual({ Key: 'stage', Value: 'staging' });
    // CreateSecret, never PutSecretValue: an existing secret makes it fail instead of being overwritten.
    expect(req).not.toHaveProperty('SecretId');
  });

  it('bootstrap writes every field serverless.yml resolves from the secret (a missing one fails the deploy)', () => {
    const resolved = new Set([...readFileSync('serverless.yml', 'utf8').matchAll(/SecretString:(\w+)::/g)].map(([, field]) => field as string));
    const written = JSON.parse(bootstrapRequest('prod', { cursorKey: A, secretsKey: B, razorpayWebhookSecret: C, ...channexSecretDefaults() }).SecretString!);
    expect(resolved.size).toBeGreaterThanOrEqual(12);
    expect([...resolved].filter((field) => !(field in written))).toEqual([]);
  });

  it('fresh keys are 32 random bytes each, as the service reads them', () => {
    expect(Buffer.from(A, 'base64')).toHaveLength(32);
    expect(A).not.toBe(B);
    const cfg = parseConfig({ STAGE: 'prod', TABLE_NAME: 't', CURSOR_KEY: A, SECRETS_KEY: B });
    expect(cfg.cursorKeys.current.equals(Buffer.from(A, 'base64'))).toBe(true);
  });

  it('reads the current version and writes a new one', () => {
    expect(readRequest('prod')).toEqual({ SecretId: 'partner-distribution/prod', VersionStage: 'AWSCURRENT' });
    const req = writeRequest('prod', { cursorKey: A, secretsKey: B, razorpayWebhookSecret: C }, 'token-1');
    expect(req).toEqual({
      SecretId: 'partner-distribution/prod',
      SecretString: JSON.stringify({ cursorKey: A, secretsKey: B, razorpayWebhookSecret: C }),
      ClientRequestToken: 'token-1',
    });
  });

  it('a rotation puts fresh keys in front of the current ones, keeps the smoke keys, and the service reads both', () => {
    const before = withSmokeKeys(
      { cursorKey: A, secretsKey: B, razorpayWebhookSecret: C },
      { smokePartnerKey: 'pds_p', smokePartnerKeyId: 'key_p', smokeGroupKey: 'pds_g', smokeGroupKeyId: 'key_g' },
    );

    const during = beginRotation(before, { cursorKey: C, secretsKey: D });

    expect(during).toMatchObject({ cursorKey: `${C},${A}`, secretsKey: `${D},${B}`, smokePartnerKey: 'pds_p', smokeGroupKeyId: 'key_g' });
    const cfg = parseConfig({ STAGE: 'prod', TABLE_NAME: 't', CURSOR_KEY: during.cursorKey, SECRETS_KEY: during.secretsKey });
    expect(cfg.secretsKeys.current.equals(Buffer.from(D, 'base64'))).toBe(true);
    expect(cfg.secretsKeys.previous?.equals(Buffer.from(B, 'base64'))).toBe(true);
    expect(finishRotation(during)).toEqual({ ...before, cursorKey: C, secretsKey: D });
  });

  it('refuses a second rotation before the first is finished, and finishing when none runs', () => {
    const during = beginRotation({ cursorKey: A, secretsKey: B, razorpayWebhookSecret: C }, { cursorKey: C, secretsKey: D });

    expect(() => beginRotation(during, { cursorKey: freshKey(), secretsKey: freshKey() })).toThrow(StageSecretError);
    expect(() => finishRotation({ cursorKey: A, secretsKey: B, razorpayWebhookSecret: C })).toThrow(/No rotation/);
  });

  it('refuses a malformed secret with what is wrong, never its values', () => {
    expect(() => parseStageSecret('not json')).toThrow('not JSON');
    const err = (() => {
      try {
        parseStageSecret(JSON.stringify({ cursorKey: 'short-secret-value', secretsKey: B }));
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toContain('cursorKey');
    expect(err?.message).not.toContain('short-secret-value');
  });

  it('prints the pipeline settings for the stage, naming the account from the secret ARN and no key', () => {
    const lines = pipelineSettings('prod', 'ap-south-1', 'arn:aws:secretsmanager:ap-south-1:123456789012:secret:partner-distribution/prod-AbCdEf').join('\n');

    expect(lines).toContain('AWS_DEPLOY_ROLE_ARN arn:aws:iam::123456789012:role/partner-distribution-deploy-prod');
    expect(lines).toContain('STAGE_SECRET_ID     partner-distribution/prod');
    expect(lines).toContain('Required reviewers');
  });
});

describe('Secrets Manager refusals in the admin tool', () => {
  it('an existing secret is a conflict (exit 1, nothing overwritten); a missing one points at bootstrap', () => {
    expect(translateSecretsError(Object.assign(new Error('exists'), { name: 'ResourceExistsException' }), 'dev')).toBeInstanceOf(ConflictError);
    const missing = translateSecretsError(Object.assign(new Error('missing'), { name: 'ResourceNotFoundException' }), 'dev') as Error;
    expect(missing).toBeInstanceOf(DomainError);
    expect((missing as DomainError).code).toBe('NOT_FOUND');
    expect(missing.message).toContain('stage bootstrap --stage dev');
    const other = new Error('throttled');
    expect(translateSecretsError(other, 'dev')).toBe(other);
  });
});

describe('stage commands refuse a wrong line before any AWS request', () => {
  async function admin(argv: string[], env: Record<string, string> = {}) {
    let out = '';
    let err = '';
    const code = await runAdmin(argv, {
      stdout: { write: (t) => void (out += t) },
      stderr: { write: (t) => void (err += t) },
      env: { ADMIN_OPERATOR: 'test-operator', ...env },
      root: '/nonexistent',
      cwd: '/',
    });
    return { code, out, err };
  }

  it('names --stage when it is not a cloud stage', async () => {
    const res = await admin(['stage', 'bootstrap', '--stage', 'qa']);

    expect(res.code).toBe(2);
    expect(res.err).toContain('--stage must be one of dev, staging, prod');
  });

  it('refuses smoke keys for a stage other than the environment it would write to', async () => {
    const res = await admin(['stage', 'smoke-keys', '--stage', 'prod'], {
      STAGE: 'dev',
      TABLE_NAME: 'partner-distribution-dev',
      CURSOR_KEY: A,
      SECRETS_KEY: B,
    });

    expect(res.code).toBe(2);
    expect(res.err).toContain("--stage prod does not match the environment's STAGE=dev");
  });

  it('lists the stage commands in the help', async () => {
    const res = await admin(['stage', '--help']);

    expect(res.code).toBe(0);
    for (const word of ['bootstrap', 'rotate-keys', 'finish-rotation', 'smoke-keys']) expect(res.out).toContain(`stage ${word}`);
  });

  it("sets Razorpay's key pair at once and rotates the webhook secret as <new>,<old> until finished", () => {
    const base = { cursorKey: A, secretsKey: B, razorpayWebhookSecret: 'whsec-old-1234' };
    const keyed = withRazorpay(base, { keyId: 'rzp_live_AbCdEf123456', keySecret: 'secret-value-1' }, 'prod');
    expect(keyed).toMatchObject({ razorpayKeyId: 'rzp_live_AbCdEf123456', razorpayKeySecret: 'secret-value-1', razorpayWebhookSecret: 'whsec-old-1234' });
    expect(() => withRazorpay(base, { keyId: 'rzp_live_AbCdEf123456' }, 'prod')).toThrow(/pair/);
    // The key's mode must be the stage's: live on prod only, test everywhere else.
    expect(() => withRazorpay(base, { keyId: 'rzp_test_AbCdEf123456', keySecret: 'secret-value-1' }, 'prod')).toThrow(/only a live Razorpay key/);
    expect(() => withRazorpay(base, { keyId: 'rzp_live_AbCdEf123456', keySecret: 'secret-value-1' }, 'staging')).toThrow(/may not use a live Razorpay key/);
    expect(withRazorpay(base, { keyId: 'rzp_test_AbCdEf123456', keySecret: 'secret-value-1' }, 'dev').razorpayKeyId).toBe('rzp_test_AbCdEf123456');
    expect(() => withRazorpay(base, { keyId: 'not-a-key', keySecret: 'x' }, 'prod')).toThrow(/key id/);
    const rotating = withRazorpay(keyed, { webhookSecret: 'whsec-new-5678' }, 'prod');
    expect(rotating.razorpayWebhookSecret).toBe('whsec-new-5678,whsec-old-1234');
    expect(
      parseConfig({ STAGE: 'prod', TABLE_NAME: 't', CURSOR_KEY: A, SECRETS_KEY: B, RAZORPAY_WEBHOOK_SECRET: rotating.razorpayWebhookSecret }).payments
        .webhookSecrets,
    ).toEqual(['whsec-new-5678', 'whsec-old-1234']);
    expect(() => withRazorpay(rotating, { webhookSecret: 'whsec-third-999' }, 'prod')).toThrow(/in progress/);
    expect(withRazorpay(rotating, { finishWebhookRotation: true }, 'prod').razorpayWebhookSecret).toBe('whsec-new-5678');
    expect(() => withRazorpay(keyed, { finishWebhookRotation: true }, 'prod')).toThrow(/No webhook/);
  });
});

describe('IRP credentials in the stage secret (stage irp-credentials)', () => {
  const pem = '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n';
  const credential = {
    baseUrl: 'https://einv-apisandbox.nic.in',
    clientId: 'id',
    clientSecret: 'cs',
    userName: 'u',
    password: 'p',
    publicKeyPem: pem,
    signingKeyPem: pem,
  };
  const base = parseStageSecret(JSON.stringify({ cursorKey: A, secretsKey: B, razorpayWebhookSecret: C }));

  it('adds, replaces (rotation) and removes one registration, keeping the rest; the service reads them with IRP_PROVIDER=nic', () => {
    const one = withIrpCredential(base, '30AAICK4821M1ZQ', credential);
    const two = withIrpCredential(one, '29AAICK4821M1ZS', { ...credential, password: 'p2' });
    const rotated = withIrpCredential(two, '30AAICK4821M1ZQ', { ...credential, password: 'new' });
    expect(JSON.parse(rotated.irpCredentials!)).toEqual({
      '30AAICK4821M1ZQ': { ...credential, password: 'new' },
      '29AAICK4821M1ZS': { ...credential, password: 'p2' },
    });
    expect(parseStageSecret(JSON.stringify(rotated)).irpCredentials).toBe(rotated.irpCredentials);
    const cfg = parseConfig({ STAGE: 'prod', TABLE_NAME: 't', CURSOR_KEY: A, SECRETS_KEY: B, IRP_PROVIDER: 'nic', IRP_CREDENTIALS: rotated.irpCredentials });
    expect(cfg.irp.provider === 'nic' && Object.keys(cfg.irp.credentials)).toEqual(['30AAICK4821M1ZQ', '29AAICK4821M1ZS']);
    expect(JSON.parse(withIrpCredential(rotated, '29AAICK4821M1ZS', null).irpCredentials!)).toEqual({ '30AAICK4821M1ZQ': { ...credential, password: 'new' } });
  });

  it('refuses a malformed credential (naming the field, never a value) and removing one that is not there', () => {
    expect(() => withIrpCredential(base, '30AAICK4821M1ZQ', { ...credential, publicKeyPem: 'secret-ish' } as never)).toThrow(
      /publicKeyPem must be a PEM public key/,
    );
    expect(() => withIrpCredential(base, '30AAICK4821M1ZQ', { ...credential, password: '' })).toThrow(/password/);
    expect(() => withIrpCredential(base, '30AAICK4821M1ZQ', null)).toThrow(StageSecretError);
    expect(() => parseStageSecret(JSON.stringify({ ...base, irpCredentials: '{"x":1}' }))).toThrow(/irpCredentials/);
  });
});
