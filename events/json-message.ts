import * as v from 'valibot';

/** A queue message body checked against its schema; undefined when it is not JSON or not one of ours. */
export function parseMessage<S extends v.GenericSchema>(schema: S, body: string): v.InferOutput<S> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(schema, json);
  return parsed.success ? parsed.output : undefined;
}
