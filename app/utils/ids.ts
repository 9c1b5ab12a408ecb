const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a row id (uuid): checked before it reaches a query, where a bad one is an error. */
export const isUuid = (value: string) => UUID.test(value);

/** A row id from the URL, or a 404 right away (a malformed id would otherwise be a database error). */
export function idParam(value: string | undefined): string {
  if (!value || !isUuid(value)) throw new Response(null, { status: 404 });
  return value;
}
