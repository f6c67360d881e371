import { operatorConfig } from '../infra/aws-client.ts';
import type { Services } from '../infra/container.ts';

const seeders = new WeakMap<Services, Services>();

/**
 * The services a bench writes its world with: the same stores as `svc`, with the operator's SDK
 * limits (infra/aws-client.ts OPERATOR_SDK_LIMITS, as `npm start` and the admin tool load data)
 * instead of the request path's. Writing a world is set-up, not what is measured: on a busy
 * machine a 1.5 s request timeout there killed `npm run bench` before it measured anything.
 * What a bench measures keeps `svc` and its request-path limits.
 */
export async function seeding(svc: Services): Promise<Services> {
  let seeder = seeders.get(svc);
  if (!seeder) {
    // Imported here, as the benches import the container: only once the environment is set.
    const { buildServices } = await import('../infra/container.ts');
    seeder = buildServices(operatorConfig(svc.config));
    seeders.set(svc, seeder);
  }
  return seeder;
}
