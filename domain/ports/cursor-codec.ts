/**
 * Opaque, signed pagination cursors. `scope` binds a cursor to the caller and the query it
 * came from; a cursor that was tampered with, or is replayed by another caller or with
 * another query, fails `decode` with a ValidationError naming `cursor`.
 */
export interface CursorScope {
  readonly callerId: string;
  /** Everything about the query except the position: filters, the resource read. */
  readonly query: string;
}

export interface CursorCodec {
  encode(scope: CursorScope, position: string): string;
  decode(scope: CursorScope, cursor: string): string;
}
