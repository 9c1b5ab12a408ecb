// Profiles another Node process through its inspector (started with --inspect=127.0.0.1:0): the
// benchmark starts the V8 profiler around one page's load and gets a .cpuprofile back, so each page
// has its own profile from one server run. Node's global WebSocket speaks the inspector's protocol.

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
};
export type CpuProfile = { nodes: ProfileNode[]; samples?: number[]; startTime: number; endTime: number };

/** The inspector's WebSocket address from the line Node prints on stderr, once it appears. */
export function inspectorUrl(stderr: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(text);
      if (match) {
        stderr.off("data", onData);
        resolve(match[1]);
      }
    };
    stderr.on("data", onData);
    stderr.once("end", () => reject(new Error(`no inspector address in: ${text}`)));
  });
}

export async function connectProfiler(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id) pending.get(message.id)?.(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 250 });
  return {
    /** Profiles the process while `work` runs. */
    async during(work: () => Promise<unknown>): Promise<CpuProfile> {
      await send("Profiler.start");
      await work();
      return ((await send("Profiler.stop")) as { profile: CpuProfile }).profile;
    },
    close: () => socket.close(),
  };
}

/** The frames with the most self time, as "share  function  file:line", the idle and GC included. */
export function topFrames(profile: CpuProfile, count = 5): string[] {
  const selfHits = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "");
    const key = `${functionName || "(anonymous)"}  ${file ? `${file.replace(process.cwd() + "/", "")}:${lineNumber + 1}` : ""}`;
    selfHits.set(key, (selfHits.get(key) ?? 0) + hits);
    total += hits;
  }
  const busy = total - [...selfHits].filter(([key]) => key.startsWith("(idle)")).reduce((sum, [, n]) => sum + n, 0);
  return [...selfHits]
    .filter(([key]) => !key.startsWith("(idle)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, hits]) => `${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${key}`);
}

/** Self time by where the code lives: a package, one of our folders, or Node and V8 themselves. */
export function topModules(profile: CpuProfile, count = 8): string[] {
  const hitsBy = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url } = node.callFrame;
    if (!hits || functionName === "(idle)") continue;
    const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const where =
      packageName ??
      (url.startsWith("node:") || url === ""
        ? functionName.startsWith("(")
          ? functionName
          : "node internals"
        : url
            .replace(/^file:\/\//, "")
            .replace(`${process.cwd()}/`, "")
            .split("/")
            .slice(0, 2)
            .join("/"));
    hitsBy.set(where, (hitsBy.get(where) ?? 0) + hits);
    busy += hits;
  }
  return [...hitsBy]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([where, hits]) => `${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${where}`);
}

/**
 * The frames whose name or file contains `match`, by inclusive time (their callees included; a
 * recursive frame counted once per sample), as a share of the busy samples.
 */
export function topInclusive(profile: CpuProfile, match: string, count = 5): string[] {
  const parent = new Map<number, ProfileNode>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const keyOf = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode) =>
    `${functionName || "(anonymous)"}  ${url
      .replace(/^file:\/\//, "")
      .replace(/^.*\/node_modules\//, "")
      .replace(`${process.cwd()}/`, "")}:${lineNumber + 1}`;
  const hitsBy = new Map<string, number>();
  let busy = 0;
  for (const node of byId.values()) {
    const hits = node.hitCount ?? 0;
    if (!hits || node.callFrame.functionName === "(idle)") continue;
    busy += hits;
    const seen = new Set<string>();
    for (let at: ProfileNode | undefined = node; at; at = parent.get(at.id)) {
      const key = keyOf(at);
      if (!key.includes(match) || seen.has(key)) continue;
      seen.add(key);
      hitsBy.set(key, (hitsBy.get(key) ?? 0) + hits);
    }
  }
  return [...hitsBy]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, hits]) => `${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
