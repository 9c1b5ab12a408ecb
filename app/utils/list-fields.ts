/**
 * A list field posted under its bare name (`emails=x`, as a hand-made post sends it) made into
 * conform's indexed names (`emails[0]=x`), after any indexed entries already there. conform's reply
 * echoes the post as the form's initial value, and a list rendered from a bare string throws
 * ("The initial value at the given name is not a list"): a 500 for a request's own fault.
 */
export function indexListField(formData: FormData, name: string): FormData {
  const bare = formData.getAll(name);
  if (!bare.length) return formData;
  const indexed = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\[(\\d+)\\]$`);
  let next = 0;
  for (const key of formData.keys()) {
    const match = indexed.exec(key);
    if (match) next = Math.max(next, Number(match[1]) + 1);
  }
  const copy = new FormData();
  for (const [key, value] of formData.entries()) if (key !== name) copy.append(key, value);
  for (const value of bare) copy.append(`${name}[${next++}]`, value);
  return copy;
}
