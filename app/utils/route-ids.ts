const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A row id from the URL, or a 404 right away (a malformed id would otherwise be a database error). */
export function idParam(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw new Response(null, { status: 404 });
  return value;
}
