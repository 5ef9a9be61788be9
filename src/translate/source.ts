import type { Revision, AttachmentIn } from "./model";
import { RESOURCE_TYPES, ResourceError, segmentsOf, snippetOf, volumeOf, type ResourceType } from "./resource";
import { IMAGE_TYPES, ImageError, readImage } from "./images";
import { bad } from "./errors";
import type { AttachmentRow } from "./contract";

export type ResourceIn = { type: string; metadata?: string; data: string };
export type Source = { type: ResourceType; metadata: string | null; data: string; volume: number; snippet: string };

/**
 * What a translate or calculate request asks to translate. Revision B takes exactly one of
 * `text` and `resource`; revision A takes either, and the resource wins when both are given
 * (`text` is deprecated there). `text` is read as text/plain.
 * Throws TEXT_OR_RESOURCE, UNSUPPORTED_RESOURCE_TYPE, INVALID_RESOURCE or NO_TRANSLATABLE_TEXT.
 */
export function readSource(revision: Revision, text: string | undefined, resource: ResourceIn | undefined): Source {
  if (revision === "B" && (text === undefined) === (resource === undefined)) {
    throw bad("TEXT_OR_RESOURCE", "give exactly one of text and resource");
  }
  if (text === undefined && resource === undefined) throw bad("TEXT_OR_RESOURCE", "give resource (or the deprecated text)");
  const given = resource ?? { type: "text/plain", data: text! };
  const types: readonly string[] = RESOURCE_TYPES[revision];
  if (resource && !types.includes(resource.type)) {
    throw bad("UNSUPPORTED_RESOURCE_TYPE", `resource.type must be one of ${types.join(", ")}`, { type: resource.type });
  }
  const type = given.type as ResourceType;
  let segments;
  try {
    segments = segmentsOf(type, given.data);
  } catch (error) {
    if (!(error instanceof ResourceError)) throw error;
    throw bad("INVALID_RESOURCE", error.message, { type });
  }
  const volume = volumeOf(type, segments);
  if (volume === 0) throw bad("NO_TRANSLATABLE_TEXT", "the text to translate is empty");
  return { type, metadata: given.metadata ?? null, data: given.data, volume, snippet: snippetOf(type, segments) };
}

/** Decodes and measures comment images. Throws INVALID_ATTACHMENT naming the first bad one. */
export function readAttachments(list: readonly AttachmentIn[] | undefined): AttachmentRow[] {
  return (list ?? []).map((a, index) => {
    try {
      const image = readImage(a.type, a.data);
      const name = `image-${index + 1}.${IMAGE_TYPES[a.type.toLowerCase()]}`;
      return { type: a.type.toLowerCase(), name, weight: image.weight, size: `${image.width}x${image.height}`, data: image.base64 };
    } catch (error) {
      if (!(error instanceof ImageError)) throw error;
      throw bad("INVALID_ATTACHMENT", `attachments[${index}]: ${error.message}`, { index });
    }
  });
}
