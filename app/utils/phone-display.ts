/**
 * An E.164 number as people read it: "+1 555 555 0100" for the US and Canada (the numbers Heirloom
 * calls and texts), other numbers as they are. No phone library: this is on every send's path.
 */
export function displayPhoneNumber(e164: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return nanp ? `+1 ${nanp[1]} ${nanp[2]} ${nanp[3]}` : e164;
}
