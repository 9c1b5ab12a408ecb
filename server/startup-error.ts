/** A failure to start whose message says all an operator needs (what, and which variable to change): printed as is, no stack. */
export class StartupError extends Error {}

/** Turns a failed listen into a StartupError naming the port and the variable that moves it. */
export function listenError(error: unknown, port: number, variable: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE")
    return new StartupError(`port ${port} is in use: stop the other server or set ${variable}`);
  if (code === "EACCES")
    return new StartupError(`port ${port} needs privileges this process lacks: set ${variable} to 1024 or above`);
  if (code === "EADDRNOTAVAIL")
    return new StartupError(`HOST is not an address of this machine (${(error as Error).message})`);
  return error;
}
