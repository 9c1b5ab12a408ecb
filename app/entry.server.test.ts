import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { watchLogs } from "~/services/logger.server";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { handleError } from "./entry.server";

// React Router hands every loader, action and render failure to handleError: the operator's one
// log line for it, with the stack; nothing for what is not a fault.

const errors: unknown[][] = [];
const unwatch = watchLogs((level, args) => {
  if (level === "error") errors.push(args);
  return false; // the setup file still counts it against allowConsoleErrors
});
afterEach(() => {
  errors.length = 0;
});
afterAll(unwatch);

const args = (request = new Request("http://localhost/dashboard")) => ({ request, params: {}, context: {} as never });

describe("handleError", () => {
  it("logs a failing loader's error with its stack", () => {
    allowConsoleErrors(1);
    const failure = new Error('relation "answers" does not exist');
    handleError(failure, args());
    expect(errors).toHaveLength(1);
    expect(errors[0][0]).toMatchObject({ err: failure });
    expect((errors[0][0] as { err: Error }).err.stack).toContain("entry.server.test.ts");
  });

  it("logs the error inside a 500 route error, not the wrapper", () => {
    allowConsoleErrors(1);
    const failure = new Error("boom");
    handleError(new ErrorResponse(500, "Internal Server Error", failure, true), args());
    expect(errors[0][0]).toMatchObject({ err: failure });
  });

  it("says nothing for a 404, a thrown Response or a request the browser abandoned", () => {
    handleError(new ErrorResponse(404, "Not Found", new Error("No route matches URL"), true), args());
    handleError(new Response(null, { status: 404 }), args());
    const controller = new AbortController();
    const request = new Request("http://localhost/dashboard", { signal: controller.signal });
    controller.abort();
    handleError(new Error("aborted"), args(request));
    expect(errors).toEqual([]);
  });
});
