export interface IdGenerator {
  /** A new random UUID (v4). */
  uuid(): string;
}
