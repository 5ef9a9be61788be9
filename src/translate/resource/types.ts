/** A piece of translatable text: where it sits in the resource data, and its decoded text. */
export type Segment = { start: number; end: number; text: string };

/** The resource data cannot be read as its type; `message` says why, for the client. */
export class ResourceError extends Error {
  override name = "ResourceError";
}
