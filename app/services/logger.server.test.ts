import { describe, expect, it } from "vitest";
import { parseEnv } from "~/config.server";
import { createLogger, readable } from "./logger.server";

function capture(level: string, json = true) {
  const lines: string[] = [];
  const log = createLogger({ level, json, destination: { write: (line: string) => void lines.push(line) } });
  return { log, lines };
}

function failingStep() {
  return new Error("the disk is full");
}

describe("LOG_LEVEL", () => {
  it("defaults to info, allows warn and silent, and stops the boot naming a bad value", () => {
    expect(parseEnv({}).LOG_LEVEL).toBe("info");
    expect(parseEnv({ LOG_LEVEL: "warn" }).LOG_LEVEL).toBe("warn");
    expect(parseEnv({ LOG_LEVEL: "silent" }).LOG_LEVEL).toBe("silent");
    expect(() => parseEnv({ LOG_LEVEL: "loud" })).toThrow(/^Invalid configuration: LOG_LEVEL /);
  });

  it("drops the lines below it", () => {
    const warn = capture("warn");
    warn.log.info("routine");
    warn.log.warn("unusual");
    expect(warn.lines.map((line) => JSON.parse(line).msg)).toEqual(["unusual"]);
    const silent = capture("silent");
    silent.log.fatal("even this");
    expect(silent.lines).toEqual([]);
  });
});

describe("a logged error", () => {
  it("keeps its stack and message in production's JSON line", () => {
    const { log, lines } = capture("info");
    log.error({ err: failingStep() }, "could not save the answer");
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({
      level: "error",
      msg: "could not save the answer",
      err: { type: "Error", message: "the disk is full" },
    });
    expect(line.err.stack).toMatch(/failingStep/);
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("reads as one line with its stack indented below in development", () => {
    const { log, lines } = capture("info", false);
    log.child({ module: "db" }).warn({ attempt: 2 }, "retrying");
    log.error({ err: failingStep() }, "could not save the answer");
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}\[db\] retrying attempt=2\n$/);
    const [first, ...stack] = lines[1].trimEnd().split("\n");
    expect(first).toMatch(/^\d\d:\d\d:\d\d ERROR could not save the answer$/);
    expect(stack[0]).toBe("    Error: the disk is full");
    expect(stack.some((frame) => /^ {8}at failingStep /.test(frame))).toBe(true);
  });

  it("formats a JSON line the same way it would print it", () => {
    expect(readable('{"level":"info","time":0,"msg":"ready","reqId":"r1"}')).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}ready reqId=r1\n$/,
    );
  });
});
