/** A Content-Type's media type, without parameters, in lower case; `''` when there is none. */
export function mediaTypeOf(contentType: string | undefined): string {
  return contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
}
