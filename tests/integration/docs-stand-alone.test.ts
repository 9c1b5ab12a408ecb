import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The repository explains itself: nothing in it sends a reader to a tracker's issue number or to
// documents that live outside it (the product's rules are docs/product.md), and every number in
// docs/decisions/ is a record in one shape, so a gap or a missing status is seen, not guessed at.
const root = path.resolve(import.meta.dirname, "../..");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);

/** Files left out, each for its reason. */
const exempt = [
  /^package-lock\.json$/, // names and hashes of packages, none of them ours
  /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|otf|pdf|mp3|wav|ogg|webm|m4a|zip|gz|br)$/i, // not text
  // Migrations that have run are never edited, comments included (docs/CONVENTIONS.md); later ones are read.
  /^db\/migrations\/00(?:[0-3]\d|40)_/,
  /^tests\/integration\/docs-stand-alone\.test\.ts$/, // this file names what it looks for
];

/** What a reference outside the repository looks like, each with a sentence for whoever trips it. */
const outside: { pattern: RegExp; why: string }[] = [
  {
    // "issue 26", "Issues 24, 26", "issue #37"; "issues" as a verb before a number reads the same, so say "sends"
    pattern: /\bissues?\s+#?\d+/i,
    why: "an issue number: say what was wrong or decided, or name the decision record",
  },
  {
    // "#37", "(#5)": a tracker's number. One of 3, 4, 6 or 8 digits is a colour (#555); an upstream
    // issue is written with its repository (remix-run/react-router#15247), which is not caught.
    pattern: /(?<![\w&/#-])#(?:\d{1,2}|\d{5})(?![\w-])/,
    why: "a tracker's number: write an upstream one as owner/repository#number, ours not at all",
  },
  {
    pattern: /\b(?:PRODUCT|SPEC|ENGINEERING)(?:\.md\b|'s\b|\s+§)/,
    why: "a document outside the repository: point at docs/product.md or docs/CONVENTIONS.md",
  },
  {
    pattern: /\bsessions?\s+\d+\b/i,
    why: "a work session's notes, which are not in the repository: say what was found",
  },
];

/** "file:line: the line" for every line of a tracked text file that matches. */
function findings(pattern: RegExp) {
  const found: string[] = [];
  for (const file of tracked) {
    if (exempt.some((rule) => rule.test(file))) continue;
    let text: string;
    try {
      text = readFileSync(path.join(root, file), "utf8");
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    text.split("\n").forEach((line, index) => {
      if (pattern.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return found;
}

describe("the repository stands alone", () => {
  for (const { pattern, why } of outside) {
    it(`no tracked file cites ${why.split(":")[0]} (${pattern.source})`, () => {
      expect(findings(pattern), why).toEqual([]);
    });
  }

  it("knows the references it refuses and lets ordinary text pass", () => {
    const caught = (text: string) => outside.some(({ pattern }) => pattern.test(text));
    for (const text of [
      "fixed in issue 26",
      "(Issues 24, 26)",
      "see #37",
      "as PRODUCT.md says",
      "ENGINEERING.md's budgets",
      "the shape SPEC's section gives",
      "(SPEC §8)",
      "measured in session 12",
      "the react-router issue #15247",
    ])
      expect(caught(text), text).toBe(true);
    for (const text of [
      "color: #555;",
      "background: #1a1a1a",
      "&#39;",
      "remix-run/react-router#15247",
      "decision 026",
      "one issue at a time",
      "docs/product.md",
      "the session cookie, 15 minutes",
    ])
      expect(caught(text), text).toBe(false);
  });
});

describe("decision records", () => {
  const records = tracked
    .filter((file) => /^docs\/decisions\/\d{3}-[a-z0-9-]+\.md$/.test(file))
    .map((file) => ({
      file,
      number: Number(file.slice(15, 18)),
      lines: readFileSync(path.join(root, file), "utf8").split("\n"),
    }));

  // Numbers handed out to work on other branches, not merged yet: each comes off this list when its
  // work lands, and one that was not used then gets its "not used" record.
  const handedOut = [70, 71, 72, 73, 74];

  it("are numbered without a gap or a repeat (a number not used has a record saying so)", () => {
    const numbers = records.map((record) => record.number).sort((a, b) => a - b);
    const expected = Array.from({ length: Math.max(...numbers) }, (_, index) => index + 1);
    expect(numbers).toEqual(expected.filter((number) => !handedOut.includes(number) || numbers.includes(number)));
  });

  it("each open with '# NNN — title' and a status: accepted, superseded by NNN, or not used", () => {
    const wrong = records.flatMap(({ file, number, lines }) => {
      const title = new RegExp(`^# ${String(number).padStart(3, "0")} — \\S`);
      const status = /^Status: (?:accepted \(|superseded by \d{3} \(|not used \()/;
      return title.test(lines[0]) && lines[1] === "" && status.test(lines[2])
        ? []
        : [`${file}: ${lines.slice(0, 3).join(" | ")}`];
    });
    expect(wrong).toEqual([]);
  });

  it("a record superseded says by which, and that one exists", () => {
    const numbers = new Set(records.map((record) => record.number));
    const dangling = records.flatMap(({ file, lines }) => {
      const by = /^Status: superseded by (\d{3})/.exec(lines[2]);
      return by && !numbers.has(Number(by[1])) ? [file] : [];
    });
    expect(dangling).toEqual([]);
  });
});

describe("configuration", () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const example = readFileSync(path.join(root, ".env.example"), "utf8");
  const documented = (text: string, name: string) => new RegExp(`\\b${name}\\b`).test(text);

  it("every variable of the config's schema is in README.md and .env.example", () => {
    const config = readFileSync(path.join(root, "app/config.server.ts"), "utf8");
    const schema = config.slice(config.indexOf("const envSchema"));
    const names = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]);
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((name) => !documented(readme, name))).toEqual([]);
    expect(names.filter((name) => !new RegExp(`^#? ?${name}=`, "m").test(example))).toEqual([]);
  });

  /** Read from the environment but never set by whoever runs Heirloom or its tests. */
  const notSettings = new Set([
    ...["HOME", "PATH", "TMPDIR"], // the system's
    ...["BASE_URL", "EXEC", "STATE", "CHECK_EMAIL"], // scripts/test-image/lib.sh to its checks
    "HEIRLOOM_MACHINE_TMPDIR", // tests/setup/own-tmpdir.ts to the files after the first
    ...["FAIL_BUILD", "FROM_DOTENV", "PRESET"], // the stand-in app of tests/integration/start-script.test.ts
  ]);

  it("every variable the code, scripts and tests read is in README.md", () => {
    const names = new Set<string>();
    for (const file of tracked) {
      if (!/^(app|server|jobs|db|scripts|tests|lint)\/.*\.(ts|tsx|mjs|js|sh)$|^[a-z.-]+\.config\.ts$/.test(file))
        continue;
      const text = readFileSync(path.join(root, file), "utf8");
      for (const match of text.matchAll(/process\.env(?:\.|\[["'])([A-Z][A-Z0-9_]+)/g)) names.add(match[1]);
    }
    expect(names.size).toBeGreaterThan(40);
    expect([...names].filter((name) => !notSettings.has(name) && !documented(readme, name)).sort()).toEqual([]);
  });
});
