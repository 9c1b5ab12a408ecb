import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import { servesHttps } from "~/config.server";
import type { AppContext } from "~/context.server";
import { cookieSecret } from "~/services/keys.server";
import type { Toast, ToastInput } from "~/utils/toast";

const MAX_TOASTS = 5;

/** What the flash cookie holds (app/utils/toast.ts says it for the components). */
const toastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error", "info"]),
  key: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
}) satisfies z.ZodType<Toast>;
const toastsSchema = z.array(toastSchema).catch([]);

function toastStorage(config: AppContext["config"]) {
  return createCookieSessionStorage({
    cookie: {
      name: "toast",
      path: "/",
      sameSite: "lax",
      httpOnly: true,
      secrets: [cookieSecret(config)],
      secure: servesHttps(config),
    },
  });
}

/** Adds a toast to the flash cookie; returns the Set-Cookie header value. */
export async function flashToast(
  request: Request,
  context: Pick<AppContext, "config">,
  toast: ToastInput,
): Promise<string> {
  const storage = toastStorage(context.config);
  const session = await storage.getSession(request.headers.get("Cookie"));
  const queued = z
    .array(toastSchema)
    .catch([])
    .parse(session.get("toasts") ?? []);
  const next = [...queued, { ...toast, id: crypto.randomUUID() }].slice(-MAX_TOASTS);
  session.flash("toasts", next);
  return storage.commitSession(session);
}

export async function redirectWithToast(
  request: Request,
  context: Pick<AppContext, "config">,
  url: string,
  toast: ToastInput,
  init: ResponseInit = {},
) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashToast(request, context, toast));
  return redirect(url, { ...init, headers });
}

/** Reads (and so clears) the pending toasts. */
export async function takeToasts(request: Request, context: Pick<AppContext, "config">) {
  // Most pages come without a toast: no cookie to verify, no storage to make.
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("toast=")) return { toasts: [], setCookie: null };
  const storage = toastStorage(context.config);
  const session = await storage.getSession(cookie);
  const toasts = toastsSchema.parse(session.get("toasts") ?? []);
  return { toasts, setCookie: toasts.length ? await storage.commitSession(session) : null };
}
