import type Razorpay from 'razorpay';

/** The SDK's client class (razorpay-node's default export). */
export type RazorpaySdk = typeof Razorpay;

let loader: (() => Promise<{ default: RazorpaySdk }>) | undefined;

/**
 * Razorpay's SDK brings axios and form-data (~650 KiB): every bundle that can reach its import
 * carries it and V8 parses it at start, even behind a dynamic `import()`. So the core of the wiring
 * never names the package; the compose modules of the areas that call Razorpay's API (billing,
 * receivables) import `with-razorpay.ts`, which hands its loader here (docs/performance.md, "What loads when").
 */
export function provideRazorpaySdk(load: () => Promise<{ default: RazorpaySdk }>): void {
  loader = load;
}

/** Thrown when a function calls Razorpay's API without `with-razorpay.ts`: a wiring defect, never "gateway unavailable". */
export class RazorpaySdkNotWiredError extends Error {
  constructor() {
    super("Razorpay's SDK is not in this function's bundle: its area's compose module must import infra/payments/with-razorpay.ts");
    this.name = 'RazorpaySdkNotWiredError';
  }
}

export async function loadRazorpaySdk(): Promise<RazorpaySdk> {
  if (!loader) throw new RazorpaySdkNotWiredError();
  return (await loader()).default;
}
