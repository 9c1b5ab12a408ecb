// `npx tsx scripts/cpu-profile-summary.ts <file.cpuprofile>... [--top N] [--match TEXT]`: turns the
// profiles `BENCH_CPU_PROF=<dir> npm run bench:dashboard` writes (or any `node --cpu-prof` output)
// into the Markdown tables decision 056 shows: per profile, the top self-time frames and the self
// time by package. `--match TEXT` adds the inclusive time of the frames whose name or file contains
// TEXT (where a page's own functions spend, callees included).
import { readFileSync } from "node:fs";
import path from "node:path";
import { type CpuProfile, topFrames, topInclusive, topModules } from "./cpu-profile";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const count = Number(option("--top") ?? 5);
const match = option("--match");
if (!args.length) {
  console.error("usage: tsx scripts/cpu-profile-summary.ts <file.cpuprofile>... [--top N] [--match TEXT]");
  process.exit(2);
}

/** "  5.6%  writev  node:…" → "| 5.6 % | `writev` |" */
const row = (line: string) => {
  const [share, ...rest] = line.trim().split(/\s{2,}/);
  return `| ${share.replace("%", " %")} | \`${rest.join(" ").trim() || "?"}\` |`;
};

for (const file of args) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  console.log(`\n**${path.basename(file, ".cpuprofile")}**\n`);
  console.log("| self time | frame |\n| --- | --- |");
  for (const line of topFrames(profile, count)) console.log(row(line));
  console.log("\n| self time | package |\n| --- | --- |");
  for (const line of topModules(profile, count)) console.log(row(line));
  if (match) {
    console.log(`\n| inclusive | frame matching "${match}" |\n| --- | --- |`);
    for (const line of topInclusive(profile, match, count)) console.log(row(line));
  }
}
