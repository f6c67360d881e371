import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, EnvSchema, parseConfig } from '../../infra/config.ts';

const key32 = (): string => randomBytes(32).toString('base64');

/** The variables without defaults, for a sandbox stage. */
const minimal = (overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({
  STAGE: 'test',
  TABLE_NAME: 'pds-test',
  CURSOR_KEY: key32(),
  SECRETS_KEY: key32(),
  ...overrides,
});

/** parseConfig's ConfigError message, or a failure when it did not throw one. */
function problemWith(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('parseConfig accepted the environment');
}

describe('parseConfig', () => {
  it("reads the console's address with every other setting: a URL, https outside local and test", () => {
    expect(parseConfig(minimal({ CONSOLE_URL: 'http://127.0.0.1:3000/console' })).consoleUrl).toBe('http://127.0.0.1:3000/console');
    expect(parseConfig(minimal()).consoleUrl).toBeUndefined();
    expect(problemWith(minimal({ CONSOLE_URL: 'not a url' }))).toMatch(/CONSOLE_URL/);
    expect(problemWith(minimal({ STAGE: 'prod', CONSOLE_URL: 'http://console.example.in/console' }))).toMatch(/CONSOLE_URL must be https/);
    expect(parseConfig(minimal({ STAGE: 'prod', CONSOLE_URL: 'https://console.example.in/console' })).consoleUrl).toBe('https://console.example.in/console');
  });

  it("refuses a Razorpay key whose mode is not the stage's: a test key on prod, a live key anywhere else", () => {
    const razorpay = (STAGE: string, RAZORPAY_KEY_ID: string) =>
      minimal({ STAGE, RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET: 'secret-value-1', PAYMENT_GATEWAY: 'razorpay' });
    expect(problemWith(razorpay('prod', 'rzp_test_AbCdEf123456'))).toMatch(/RAZORPAY_KEY_ID: stage prod takes only a live Razorpay key/);
    for (const stage of ['dev', 'staging', 'test'])
      expect(problemWith(razorpay(stage, 'rzp_live_AbCdEf123456'))).toMatch(new RegExp(`stage ${stage} may not use a live Razorpay key`));
    expect(parseConfig(razorpay('prod', 'rzp_live_AbCdEf123456')).payments.razorpay?.keyId).toBe('rzp_live_AbCdEf123456');
    expect(parseConfig(razorpay('staging', 'rzp_test_AbCdEf123456')).payments.razorpay?.keyId).toBe('rzp_test_AbCdEf123456');
  });

  it('chooses the sandbox IRP unless IRP_PROVIDER=nic, which needs IRP_CREDENTIALS with https base URLs outside local and test', () => {
    expect(parseConfig(minimal()).irp).toEqual({ provider: 'sandbox', credentials: {} });
    expect(problemWith(minimal({ IRP_PROVIDER: 'nic' }))).toMatch(/IRP_CREDENTIALS/);
    expect(problemWith(minimal({ IRP_PROVIDER: 'nic', IRP_CREDENTIALS: '{}' }))).toMatch(/at least one registration/);
    const pem = '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----';
    const cred = (baseUrl: string) =>
      JSON.stringify({ '30AAICK4821M1ZQ': { baseUrl, clientId: 'c', clientSecret: 's', userName: 'u', password: 'p', publicKeyPem: pem, signingKeyPem: pem } });
    expect(problemWith(minimal({ STAGE: 'prod', IRP_PROVIDER: 'nic', IRP_CREDENTIALS: cred('http://x.example') }))).toMatch(/baseUrl must be https/);
    expect(parseConfig(minimal({ STAGE: 'prod', IRP_PROVIDER: 'nic', IRP_CREDENTIALS: cred('https://x.example') })).irp.provider).toBe('nic');
    expect(parseConfig(minimal({ IRP_PROVIDER: 'nic', IRP_CREDENTIALS: cred('http://127.0.0.1:4000') })).irp).toMatchObject({
      provider: 'nic',
      credentials: { '30AAICK4821M1ZQ': { userName: 'u' } },
    });
    expect(problemWith(minimal({ IRP_PROVIDER: 'gsp' }))).toMatch(/IRP_PROVIDER/);
    // The sandbox provider with credentials: those registrations go to the portal, the others to the sandbox.
    expect(parseConfig(minimal({ IRP_CREDENTIALS: cred('http://127.0.0.1:4000') })).irp).toMatchObject({
      provider: 'sandbox',
      credentials: { '30AAICK4821M1ZQ': { clientId: 'c' } },
    });
    expect(problemWith(minimal({ IRP_CREDENTIALS: 'not json' }))).toMatch(/IRP_PROVIDER=sandbox needs IRP_CREDENTIALS to be the JSON/);
  });

  it('takes the sandbox IRP signing key from IRP_SIGNING_KEY, or derives one from the current SECRETS_KEY: the same in every process, never the key itself', () => {
    const own = key32();
    expect(parseConfig(minimal({ IRP_SIGNING_KEY: own })).irpSigningKey).toEqual(Buffer.from(own, 'base64'));
    const secrets = key32();
    const derived = parseConfig(minimal({ SECRETS_KEY: secrets })).irpSigningKey;
    expect(derived).toHaveLength(32);
    expect(parseConfig(minimal({ SECRETS_KEY: secrets })).irpSigningKey).toEqual(derived);
    expect(derived.equals(Buffer.from(secrets, 'base64'))).toBe(false);
    expect(parseConfig(minimal({ SECRETS_KEY: key32() })).irpSigningKey.equals(derived)).toBe(false);
    expect(problemWith(minimal({ IRP_SIGNING_KEY: 'short' }))).toContain('IRP_SIGNING_KEY');
  });

  it('fills every optional variable with its documented default', () => {
    const cfg = parseConfig(minimal());

    expect(cfg).toMatchObject({
      stage: 'test',
      isSandbox: true,
      region: 'ap-south-1',
      tableName: 'pds-test',
      endpoints: { dynamodb: undefined, sqs: undefined, s3: undefined },
      rateLimit: { perMinute: 600, burst: 100 },
      outbound: { allowHosts: [], allowHttp: false },
      timeScale: 1,
      logLevel: 'INFO',
      metrics: 'off',
      aws: { connectTimeoutMs: 1000, requestTimeoutMs: 1500, maxAttempts: 2 },
      requestBudgetMs: 8000,
    });
  });

  it('decodes both 32-byte keys', () => {
    const cursor = key32();

    const cfg = parseConfig(minimal({ CURSOR_KEY: cursor }));

    expect(cfg.cursorKeys.current.equals(Buffer.from(cursor, 'base64'))).toBe(true);
    expect(cfg.cursorKeys.previous).toBeUndefined();
    expect(cfg.secretsKeys.current).toHaveLength(32);
  });

  it('reads a rotation as <new>,<old>: the new key current, the old one previous', () => {
    const [next, old] = [key32(), key32()];

    const cfg = parseConfig(minimal({ SECRETS_KEY: `${next}, ${old}` }));

    expect(cfg.secretsKeys.current.equals(Buffer.from(next, 'base64'))).toBe(true);
    expect(cfg.secretsKeys.previous?.equals(Buffer.from(old, 'base64'))).toBe(true);
  });

  it('treats empty strings as unset, as deploy templates pass them', () => {
    const cfg = parseConfig(minimal({ RATE_LIMIT_PER_MINUTE: '', DYNAMODB_ENDPOINT: '', LOG_LEVEL: '' }));

    expect(cfg.rateLimit.perMinute).toBe(600);
    expect(cfg.endpoints.dynamodb).toBeUndefined();
    expect(cfg.logLevel).toBe('INFO');
  });

  it('splits, trims and lower-cases OUTBOUND_ALLOW_HOSTS on a sandbox stage', () => {
    const cfg = parseConfig(minimal({ OUTBOUND_ALLOW_HOSTS: ' LocalHost, 127.0.0.1 ,,', OUTBOUND_ALLOW_HTTP: 'true' }));

    expect(cfg.outbound).toEqual({ allowHosts: ['localhost', '127.0.0.1'], allowHttp: true });
  });

  it.each([
    ['RATE_LIMIT_PER_MINUTE', 'lots'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['RATE_LIMIT_BURST', '2.5'],
    ['CURSOR_KEY', 'c2hvcnQ='],
    ['SECRETS_KEY', 'not base64 at all, and far too long to be thirty-two bytes'],
    ['CURSOR_KEY', `${'A'.repeat(43)}=,${'B'.repeat(43)}=,${'C'.repeat(43)}=`],
    ['CURSOR_KEY', `${'A'.repeat(43)}=,${'A'.repeat(43)}=`],
    ['SECRETS_KEY', `${'A'.repeat(43)}=,short`],
    ['DYNAMODB_ENDPOINT', 'not a url'],
    ['OUTBOUND_ALLOW_HTTP', 'yes'],
    ['TIME_SCALE', '0'],
    ['LOG_LEVEL', 'VERBOSE'],
    ['STAGE', 'Prod_Stage'],
  ])('names %s when its value %j is invalid', (name, value) => {
    expect(problemWith(minimal({ [name]: value }))).toContain(`${name}:`);
  });

  it('refuses a request budget no longer than the booking’s synchronous wait', () => {
    expect(problemWith(minimal({ REQUEST_BUDGET_MS: '3000' }))).toContain('REQUEST_BUDGET_MS must be longer than BOOKING_SYNC_WAIT_MS');
    expect(parseConfig(minimal({ REQUEST_BUDGET_MS: '3001' })).requestBudgetMs).toBe(3001);
  });

  it('gives a billing run five eighths of the request budget to write lines, and refuses a share that leaves the run no time to hand off', () => {
    expect(parseConfig(minimal({})).billingRequestWorkMs).toBe(5000);
    expect(parseConfig(minimal({ REQUEST_BUDGET_MS: '25000' })).billingRequestWorkMs).toBe(15625);
    expect(parseConfig(minimal({ REQUEST_BUDGET_MS: '25000', BILLING_REQUEST_WORK_MS: '23000' })).billingRequestWorkMs).toBe(23000);
    expect(problemWith(minimal({ BILLING_REQUEST_WORK_MS: '6001' }))).toContain(
      'BILLING_REQUEST_WORK_MS must be at least 2000 ms shorter than REQUEST_BUDGET_MS',
    );
    expect(problemWith(minimal({ BILLING_REQUEST_WORK_MS: 'soon' }))).toContain('BILLING_REQUEST_WORK_MS:');
  });

  it.each([['STAGE'], ['TABLE_NAME'], ['CURSOR_KEY'], ['SECRETS_KEY']])('names %s when it is missing', (name) => {
    expect(problemWith(minimal({ [name]: undefined }))).toContain(`${name}:`);
  });

  it.each([
    ['OUTBOUND_ALLOW_HOSTS', 'localhost'],
    ['OUTBOUND_ALLOW_HTTP', 'true'],
    ['TIME_SCALE', '60'],
  ])('refuses %s on a non-sandbox stage', (name, value) => {
    expect(problemWith(minimal({ STAGE: 'prod', [name]: value }))).toContain(name);
  });

  it('accepts a non-sandbox stage with the production values', () => {
    const cfg = parseConfig(minimal({ STAGE: 'prod', OUTBOUND_ALLOW_HTTP: 'false', TIME_SCALE: '1' }));

    expect(cfg).toMatchObject({ stage: 'prod', isSandbox: false, outbound: { allowHosts: [], allowHttp: false }, timeScale: 1 });
  });

  it('counts metrics as EMF on cloud stages and not on sandbox ones, unless METRICS says otherwise', () => {
    expect(parseConfig(minimal({ STAGE: 'prod' })).metrics).toBe('emf');
    expect(parseConfig(minimal({ STAGE: 'prod', METRICS: 'off' })).metrics).toBe('off');
    expect(parseConfig(minimal({ STAGE: 'local', METRICS: 'emf' })).metrics).toBe('emf');
    expect(problemWith(minimal({ METRICS: 'statsd' }))).toContain('METRICS');
  });
});

describe('mail settings', () => {
  it('takes MAIL_FROM as an address or Name <address>, and an SES configuration set name', () => {
    expect(parseConfig(minimal({ MAIL_FROM: 'billing@villas.example.in' })).mail.from).toBe('billing@villas.example.in');
    expect(parseConfig(minimal({ MAIL_FROM: 'Villa Billing <billing@villas.example.in>', SES_CONFIGURATION_SET: 'pds-prod-mail' })).mail).toEqual({
      from: 'Villa Billing <billing@villas.example.in>',
      configurationSet: 'pds-prod-mail',
    });
    expect(parseConfig(minimal({ SES_ENDPOINT: 'http://127.0.0.1:8005' })).endpoints.ses).toBe('http://127.0.0.1:8005');
    expect(problemWith(minimal({ MAIL_FROM: 'billing' }))).toContain('MAIL_FROM');
    expect(problemWith(minimal({ MAIL_FROM: 'Billing <billing@villas.example.in>\r\nBcc: x@y.z' }))).toContain('MAIL_FROM');
    expect(problemWith(minimal({ SES_CONFIGURATION_SET: 'has space' }))).toContain('SES_CONFIGURATION_SET');
  });
});

describe('.env.example', () => {
  it('lists exactly the variables infra/config.ts reads', () => {
    // prepare
    const text = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    const listed = text
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line.trim())?.[1])
      .filter((name): name is string => name !== undefined);

    // assess
    expect([...listed].sort()).toEqual(Object.keys(EnvSchema.entries).sort());
    expect(new Set(listed).size).toBe(listed.length);
  });
});
