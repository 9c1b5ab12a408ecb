import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import type { Config } from "~/config.server";
import type { MailService } from "~/services/mail.server";
import type { SmsService } from "~/services/sms.server";
import type { StorageService } from "~/services/storage.server";
import type { RateLimiter } from "~/utils/rate-limit.server";
import type { Db } from "../db/client";

/** Created once at boot (server/main.ts) and handed to every loader and action. */
export type AppServices = {
  db: Db;
  config: Config;
  mail: MailService;
  sms: SmsService;
  storage: StorageService;
  rateLimit: RateLimiter;
};

export type AppContext = AppServices & {
  /** Per request: the nonce the Content-Security-Policy allows inline scripts with. */
  cspNonce: string;
  /** The client's address as Express saw it (honours TRUST_PROXY). */
  clientIp: string;
  /** A direct connection from this machine (not through a proxy): gates developer pages. */
  fromLoopback: boolean;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}

// React Router types a loader's context as `any` unless middleware is on; these name ours.
export type LoaderArgs = LoaderFunctionArgs<AppContext>;
export type ActionArgs = ActionFunctionArgs<AppContext>;
