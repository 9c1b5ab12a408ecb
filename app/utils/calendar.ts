// Calendar arithmetic on `yyyy-mm-dd` strings, zod-free so forms can use it in the browser (decision 026).

/** `yyyy-mm-dd` plus `days` (negative for earlier). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}
