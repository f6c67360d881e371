import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as amendments from '../contracts/amendments.ts';
import * as audit from '../contracts/audit.ts';
import * as bookingReads from '../contracts/booking-reads.ts';
import * as bookings from '../contracts/bookings.ts';
import * as channelManager from '../contracts/channel-manager.ts';
import * as common from '../contracts/common.ts';
import * as deliveries from '../contracts/deliveries.ts';
import * as distributionCatalogue from '../contracts/distribution-catalogue.ts';
import * as financeContacts from '../contracts/finance-contacts.ts';
import * as invoices from '../contracts/invoices.ts';
import * as ledger from '../contracts/ledger.ts';
import * as orders from '../contracts/orders.ts';
import * as outbound from '../contracts/outbound.ts';
import * as partnerReads from '../contracts/partner-reads.ts';
import * as payments from '../contracts/payments.ts';
import * as search from '../contracts/search.ts';
import * as system from '../contracts/system.ts';
import * as testClocks from '../contracts/test-clocks.ts';
import * as webhooks from '../contracts/webhooks.ts';
import type { AnySchema } from '../http/route.ts';
import { COMPONENT_REF, refsIn, refTo } from './refs.ts';

type Json = Record<string, unknown>;

/**
 * Every module of functions/contracts, by file name (a unit test keeps this list equal to the
 * folder). Their exported `…Schema` objects are the document's component names: the contract
 * names a shape once, where it defines it, and the reference and every generated client call
 * it the same.
 */
export const CONTRACT_MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  amendments,
  audit,
  'booking-reads': bookingReads,
  bookings,
  'channel-manager': channelManager,
  common,
  deliveries,
  'distribution-catalogue': distributionCatalogue,
  'finance-contacts': financeContacts,
  invoices,
  ledger,
  orders,
  outbound,
  'partner-reads': partnerReads,
  payments,
  search,
  system,
  'test-clocks': testClocks,
  webhooks,
};

/**
 * `value` with each nullable schema's description on the schema itself: the converter puts a
 * `v.nullable(v.pipe(…, v.description(…)))` description on the non-null branch of the `anyOf`,
 * where generated clients and Redoc's property table do not look.
 */
export function hoistNullableDescriptions<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const node = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)])) as Json;
    const branches = node.anyOf as Json[] | undefined;
    if (node.description !== undefined || branches?.length !== 2 || !branches.some((b) => b.type === 'null')) return node;
    const other = branches.find((b) => b.type !== 'null')!;
    if (typeof other.description !== 'string') return node;
    const { description, ...rest } = other;
    return { ...node, anyOf: branches.map((b) => (b === other ? rest : b)), description };
  };
  return walk(value) as T;
}

/** Shapes worth a name of their own: objects (a pipe's type is its root schema's). Scalars stay inline, where their descriptions are read. */
const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

const isSchema = (value: unknown): value is AnySchema =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema' && typeof (value as { type?: unknown }).type === 'string';

/** `OrderBodySchema` → `OrderBody`, for every exported object schema of the contracts; the same object exported twice under two names is an error. */
export function contractSchemaNames(): Map<AnySchema, string> {
  const names = new Map<AnySchema, string>();
  const taken = new Map<string, AnySchema>();
  for (const [file, exports] of Object.entries(CONTRACT_MODULES)) {
    for (const [exported, value] of Object.entries(exports)) {
      if (!exported.endsWith('Schema') || !isSchema(value) || !OBJECT_TYPES.has(value.type)) continue;
      const name = exported.slice(0, -'Schema'.length);
      const other = taken.get(name);
      if (other && other !== value) throw new Error(`functions/contracts/${file}.ts: ${exported} names a second schema ${name}`);
      const already = names.get(value);
      if (already && already !== name) throw new Error(`functions/contracts/${file}.ts: ${exported} is already named ${already}`);
      names.set(value, name);
      taken.set(name, value);
    }
  }
  return names;
}

/**
 * Registers the schemas a document uses and converts them once, each nested named schema a
 * `$ref` to its own component. Schemas without a contract name take the fallback the caller
 * gives (the operation's, e.g. `ListInvoicesResponse`); the first name given to an object keeps it.
 */
export class ComponentRegistry {
  private readonly names: Map<AnySchema, string>;
  private readonly used = new Map<string, AnySchema>();

  constructor(names: Map<AnySchema, string> = contractSchemaNames()) {
    this.names = new Map(names);
  }

  /** A `$ref` to the component for `schema`, registering it under its contract name or `fallback`. */
  ref(schema: AnySchema, fallback: string): Json {
    let name = this.names.get(schema);
    if (!name) {
      name = fallback;
      if (this.used.has(name) && this.used.get(name) !== schema) throw new Error(`Two schemas would both be the component ${name}`);
      this.names.set(schema, name);
    }
    this.used.set(name, schema);
    return refTo(name);
  }

  /**
   * The components, sorted by name: every schema given to `ref` and every named schema they
   * reach (to-json-schema converts all known names; those no document part reaches are dropped).
   */
  schemas(): Record<string, Json> {
    const all = Object.fromEntries([...this.names].map(([schema, name]) => [name, schema]));
    const converted = toJsonSchemaDefs(all, {
      target: 'draft-2020-12',
      errorMode: 'ignore',
      overrideRef: ({ referenceId }) => `${COMPONENT_REF}${referenceId}`,
      // A provider's payload (v.looseObject) takes fields we do not read: said, so generators keep them rather than guess.
      overrideSchema: ({ valibotSchema, jsonSchema }) =>
        valibotSchema.type === 'loose_object' ? ({ ...jsonSchema, additionalProperties: true } as typeof jsonSchema) : undefined,
    }) as Record<string, Json>;
    const reached = new Set<string>();
    const visit = (name: string) => {
      if (reached.has(name)) return;
      reached.add(name);
      for (const r of refsIn(converted[name])) visit(r);
    };
    for (const name of this.used.keys()) visit(name);
    return Object.fromEntries([...reached].sort().map((name) => [name, hoistNullableDescriptions(converted[name]!)]));
  }
}
